// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer driver for the /proc/net/bonding parser and everything after it
 * (findings, both renderers): any byte string must give 0 or a negative
 * errno, never a crash, a leak or undefined behaviour.
 *
 * In ctest, fuzz-replay.c links it with a main() that replays the corpus in
 * tests/fuzz/corpus/proc-parse/ plus the shared case files.  To fuzz for
 * real (clang 14, from the source tree):
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
 *     -DBC_VERSION='"fuzz"' tests/fuzz/fuzz-proc-parse.c src/decode/proc-bonding*.c \
 *     src/analyze/findings*.c src/report/inspect-*.c src/core/[a-z]*.c -ljson-c -lm -o fuzz-proc
 *   ./fuzz-proc -max_len=8192 NEW_CORPUS tests/fuzz/corpus/proc-parse tests/data/proc-net-bonding
 *
 * A five-minute run (about 400,000 inputs) found one bug, a NULL + 0
 * pointer offset in the findings sort with no findings; it is fixed and its
 * input (an empty file) is in the corpus.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bondcheck/findings.h"
#include "bondcheck/inspect-report.h"
#include "bondcheck/proc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bc_snapshot snap = { 0 };
	struct bc_error err = { 0 };
	FILE *devnull;

	/* odd sizes leave the name to the parser (shell lines, multi-bond names) */
	if (bc_proc_parse((const char *)data, size, size & 1 ? NULL : "bond0", &snap, &err) == 0 &&
	    bc_findings_evaluate(&snap) == 0) {
		devnull = fopen("/dev/null", "w");
		if (devnull) {
			bc_inspect_text_write(devnull, &snap, NULL);
			bc_inspect_json_write(devnull, &snap, NULL);
			fclose(devnull);
		}
	}
	bc_snapshot_free(&snap);
	return 0;
}
