// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer driver for everything the agent parses from the network and
 * from /proc: a control frame (header with the request cap, JSON body, the
 * test plan with the default agent limits), the UDP test header, and the
 * counter-text decoders.  The input is also parsed as bare JSON (so the
 * fuzzer need not keep a frame length right), whose "plan" member, or the
 * object itself, goes to the plan parser.  Any byte string must give 0
 * or a negative errno, never a crash, a leak or undefined behaviour; a plan
 * that parses must survive bc_plan_to_json() and parse back to the same
 * plan.
 *
 * ctest replays tests/fuzz/corpus/ctl-message/ (fuzz-replay.c);
 * `tools/fuzz ctl-message` fuzzes it (dictionary ctl-message.dict).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/ctl.h"
#include "bondcheck/mib-text.h"
#include "bondcheck/plan.h"
#include "bondcheck/udp-header.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct bc_plan_limits lim = {
	.max_streams = 128, .max_duration_ms = 3600000, .max_rate_bps = 100000000000ull};

static bool same_plan(const struct bc_plan *a, const struct bc_plan *b)
{
	return a->test_id == b->test_id && a->proto == b->proto && a->streams == b->streams &&
	       a->dir == b->dir && a->duration_ms == b->duration_ms && a->omit_ms == b->omit_ms &&
	       a->interval_ms == b->interval_ms && a->tmax_ms == b->tmax_ms &&
	       a->rate_bps == b->rate_bps && a->length == b->length && a->family == b->family &&
	       a->dport == b->dport && a->sock_buf == b->sock_buf && a->udp_gso == b->udp_gso &&
	       a->capture == b->capture && a->place_k == b->place_k;
}

/* The message's plan (or the message itself) through the plan parser and back. */
static void plan(struct json_object *msg)
{
	struct json_object *o, *back;
	struct bc_plan p, q;

	if (!json_object_object_get_ex(msg, "plan", &o))
		o = msg;
	if (bc_plan_from_json(o, &lim, &p, NULL) < 0)
		return;
	back = bc_plan_to_json(&p);
	if (!back || bc_plan_from_json(back, &lim, &q, NULL) < 0 || !same_plan(&p, &q))
		abort();
	json_object_put(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_object *msg = NULL;
	struct bc_udphdr h;
	struct bc_mib m = {0};
	struct bc_softnet sn;
	struct bc_cpu_times *ct;
	unsigned version;
	uint32_t len;
	char *text;

	if (size >= BC_CTL_HDR_LEN &&
	    bc_ctl_header_parse(data, BC_CTL_MAX_REQUEST, &len, &version, NULL) == 0 &&
	    len <= size - BC_CTL_HDR_LEN &&
	    bc_ctl_body_parse((const char *)data + BC_CTL_HDR_LEN, len, &msg, NULL) == 0) {
		plan(msg);
		json_object_put(msg);
	}
	if (size <= BC_CTL_MAX_REQUEST) {
		struct json_tokener *tok = json_tokener_new();

		/* bare JSON: any value json-c accepts, "type" or not */
		msg = tok ? json_tokener_parse_ex(tok, (const char *)data, (int)size) : NULL;
		if (msg && json_object_is_type(msg, json_type_object))
			plan(msg);
		json_object_put(msg);
		json_tokener_free(tok);
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
