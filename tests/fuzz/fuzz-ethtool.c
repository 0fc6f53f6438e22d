// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer driver for the ethtool reply decoders: the input is decoded as
 * the generic-netlink reply stream of each of the eight requests inspect
 * sends (LINKINFO ... STATS; nlmsghdr + genlmsghdr + attributes, NLMSG_ERROR,
 * NLMSG_DONE), as an ETHTOOL_GDRVINFO ioctl result, and as the
 * ETHTOOL_GSTRINGS result followed by the ETHTOOL_GSTATS one (split where
 * the gstrings header's count says its names end, or in the middle), so
 * a recorded gstrings file with its gstats file appended is a seed.
 * Any byte string must give 0 or a negative errno, never a crash, a leak or
 * undefined behaviour; every counter decoded must have a NUL-terminated name.
 *
 * ctest replays tests/fuzz/corpus/ethtool/ plus every recorded reply in
 * tests/data/recordings/ (fuzz-replay.c); `tools/fuzz ethtool` fuzzes it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/ethtool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_counters(const struct bc_counter *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!memchr(c[i].name, '\0', sizeof(c[i].name)))
			abort();
}

static void slave_done(struct bc_slave *s)
{
	check_counters(s->driver_stats, s->n_driver_stats);
	check_counters(s->std_stats, s->n_std_stats);
	free(s->driver_stats);
	free(s->std_stats);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bc_error err = {0};
	struct bc_slave s;
	size_t cut;

	for (int m = 0; m < BC_ETHTOOL_N_MSGS; m++) {
		memset(&s, 0, sizeof(s));
		bc_ethtool_decode((enum bc_ethtool_msg)m, data, size, &s, &err);
		slave_done(&s);
	}
	memset(&s, 0, sizeof(s));
	bc_ethtool_decode_drvinfo(data, size, &s, &err);
	if (s.drvinfo_present && (!memchr(s.driver, '\0', sizeof(s.driver)) ||
				  !memchr(s.bus_info, '\0', sizeof(s.bus_info))))
		abort();
	cut = size / 2;
	if (size >= 12) {
		uint32_t names;

		memcpy(&names, data + 8, sizeof(names)); /* struct ethtool_gstrings.len */
		if (names <= (size - 12) / 32)
			cut = 12 + (size_t)names * 32;
	}
	bc_ethtool_decode_gstats(data, cut, data + cut, size - cut, &s, &err);
	/* twice: the second call replaces the first one's counters */
	bc_ethtool_decode_gstats(data, cut, data + cut, size - cut, &s, &err);
	slave_done(&s);
	return 0;
}
