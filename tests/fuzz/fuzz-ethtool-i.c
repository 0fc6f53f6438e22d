// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer driver for the saved-ethtool text parsers (ethtool-i.h): any
 * byte string, read as `ethtool -i DEV` and as `ethtool DEV` output, must
 * give 0 or a negative errno and NUL-terminated model strings, never a
 * crash, a leak or undefined behaviour.
 *
 * ctest replays tests/fuzz/corpus/ethtool-i/ and the shared ethtool-i cases
 * (tests/data/ethtool-i); tools/fuzz ethtool-i fuzzes for real.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/ethtool-i.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bc_slave s = {0};

	if (bc_ethtool_i_parse((const char *)data, size, &s, NULL) == 0 &&
	    (strlen(s.driver) >= sizeof(s.driver) || strlen(s.bus_info) >= sizeof(s.bus_info) ||
	     !s.driver[0]))
		abort();
	bc_ethtool_link_parse((const char *)data, size, &s, NULL);
	return 0;
}
