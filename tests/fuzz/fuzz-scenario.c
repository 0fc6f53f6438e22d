// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer driver for the testbed scenario parser and script emitter
 * (tools/testbed/scenario*.c): any byte string must be rejected with a
 * FILE:LINE message or compile to a script, never crash.
 *
 * ctest replays tests/fuzz/corpus/scenario/ plus test-scenarios/ and
 * tests/data/bad-scenarios/.  To fuzz for real (clang 14, source tree):
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Itools/testbed \
 *     tests/fuzz/fuzz-scenario.c tools/testbed/scenario.c tools/testbed/scenario-emit.c \
 *     -linih -o fuzz-scenario
 *   ./fuzz-scenario -max_len=4096 NEW_CORPUS test-scenarios tests/data/bad-scenarios
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct scenario sc;
	FILE *devnull;

	if (sc_parse_buffer((const char *)data, size, "fuzz.scn", &sc)) {
		/* a rejection always says where and why */
		if (strncmp(sc.err, "fuzz.scn:", 9) != 0)
			__builtin_trap();
		return 0;
	}
	devnull = fopen("/dev/null", "w");
	if (devnull) {
		sc_emit_script(&sc, devnull);
		fclose(devnull);
	}
	return 0;
}
