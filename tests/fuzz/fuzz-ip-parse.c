// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer driver for the `ip` listing decoder (text and JSON,
 * bondcheck/ip-link.h) and everything after it (findings, both renderers):
 * any byte string must give 0 or a negative errno, never a crash, a leak or
 * undefined behaviour.  A first byte '!' is taken off and the rest appended
 * to a snapshot that already holds a bond0 (as --from-proc then --from-ip
 * do), so the "master read from another source" path is fuzzed too.
 *
 * In ctest, fuzz-replay.c links it with a main() that replays
 * tests/fuzz/corpus/ip-parse/ plus tests/data/ip-link (the shared cases and
 * their JSON conversions).  To fuzz for real: `tools/fuzz --time 60 ip-parse`.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bondcheck/findings.h"
#include "bondcheck/inspect-report.h"
#include "bondcheck/ip-link.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bc_snapshot snap = {0};
	struct bc_error err = {0};
	FILE *devnull;

	if (size && data[0] == '!') {
		/* a bond read before, e.g. from /proc; the rest is the listing */
		if (!bc_snapshot_add_bond(&snap, "bond0"))
			return 0;
		data++;
		size--;
	}
	if (bc_ip_parse((const char *)data, size, "fuzz", &snap, &err) == 0 &&
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
