// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer driver for the rtnetlink bond and slave decoder
 * (bc_rtnl_decode_links: RTM_NEWLINK stream, IFLA_LINKINFO, IFLA_BOND_*,
 * IFLA_BOND_AD_INFO, IFLA_BOND_SLAVE_*) and everything after it: findings
 * and both renderers.  The input is the dump stream, decoded once as a
 * reader with CAP_NET_ADMIN and once without.  Any byte string must give 0
 * or a negative errno, never a crash, a leak or undefined behaviour.
 *
 * ctest replays tests/fuzz/corpus/rtnl/ plus every recorded dump in
 * tests/data/recordings/ (fuzz-replay.c); `tools/fuzz rtnl` fuzzes it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bondcheck/findings.h"
#include "bondcheck/inspect-report.h"
#include "bondcheck/rtnl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (int admin = 0; admin < 2; admin++) {
		struct bc_snapshot snap = {0};
		struct bc_error err = {0};

		snap.cap_net_admin = admin;
		if (bc_rtnl_decode_links(data, size, &snap, &err) == 0 &&
		    bc_findings_evaluate(&snap) == 0) {
			FILE *devnull = fopen("/dev/null", "w");

			if (devnull) {
				bc_inspect_text_write(devnull, &snap, NULL);
				bc_inspect_json_write(devnull, &snap, NULL);
				fclose(devnull);
			}
		}
		bc_snapshot_free(&snap);
	}
	return 0;
}
