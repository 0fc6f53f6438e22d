// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer driver for the sosreport tarball walker and everything after it
 * (sos.h: libarchive's tar and decompressors, the path classifier, the
 * /proc, ip and ethtool parsers, the merge, the findings and both
 * renderers): any byte string given as an archive in memory must give 0 or
 * a negative errno, never a crash, a leak, undefined behaviour or memory
 * beyond the walker's limits.
 *
 * ctest replays tests/fuzz/corpus/sos-tar/ (small .tar, .tar.gz, .tar.xz
 * and .tar.bz2 reports made from tests/data/sos); tools/fuzz sos-tar fuzzes
 * for real.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bondcheck/findings.h"
#include "bondcheck/inspect-report.h"
#include "bondcheck/sos.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bc_snapshot snap = {0};
	struct bc_sos sos = {0};
	FILE *devnull;

	if (bc_sos_read_memory(data, size, "fuzz.tar", &sos, NULL) == 0 &&
	    bc_sos_load(&sos, &snap, NULL) == 0 && bc_findings_evaluate(&snap) == 0) {
		devnull = fopen("/dev/null", "w");
		if (devnull) {
			bc_inspect_text_write(devnull, &snap, NULL);
			bc_inspect_json_write(devnull, &snap, NULL);
			fclose(devnull);
		}
	}
	bc_snapshot_free(&snap);
	bc_sos_free(&sos);
	return 0;
}
