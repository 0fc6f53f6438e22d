// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The answer block of a single run (bondcheck/answer.h, issue 15 item 1):
 * Goodput against the ceiling, Loss and where, Reordering and which pair of
 * links.  From the result JSON (bondcheck/client.h, docs/run.md); the
 * sections below the block give the rest.
 */
#include <stdbool.h>
#include <string.h>

#include "bondcheck/answer.h"
#include "bondcheck/json-get.h"
#include "bondcheck/run-report.h"
#include "bondcheck/units.h"
#include "bondcheck/verdict.h"

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, k, &v)
		       ? v
		       : NULL;
}

/* The most severe finding (unexpected) among @fs whose id starts with @prefix, or NULL. */
static struct json_object *worst(struct json_object *fs, const char *prefix)
{
	static const char *const sev[] = {"error", "warning"};

	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < bc_json_len(fs); i++) {
			struct json_object *f = json_object_array_get_idx(fs, i);

			if (!strcmp(bc_json_str(f, "severity"), sev[s]) &&
			    !json_object_get_boolean(get(f, "expected")) &&
			    strstr(bc_json_str(f, "id"), prefix))
				return f;
		}
	return NULL;
}

static void goodput(struct json_object *res, struct bc_answer *a)
{
	struct json_object *sum = get(res, "sum");
	const char *dir = NULL;
	struct json_object *d = NULL;
	double g, c, offered = 0;
	char r[32], b[32];

	if (json_object_is_type(sum, json_type_object)) {
		json_object_object_foreach(sum, k, x)
		{
			if (!d) {
				dir = k;
				d = x;
			}
		}
	}
	if (!d) {
		bc_answer_set(a, "Goodput", BC_ANSWER_UNSURE, "no stream finished");
		return;
	}
	for (size_t i = 0; i < bc_json_len(get(res, "streams")); i++) {
		struct json_object *s = json_object_array_get_idx(get(res, "streams"), i);

		if (!strcmp(bc_json_str(s, "direction"), dir))
			offered += bc_json_dbl(s, "offered_bps", 0);
	}
	g = bc_json_dbl(d, "goodput_bps", 0);
	c = bc_json_dbl(d, "ceiling_bps", 0);
	bc_format_rate(g, r, sizeof(r));
	if (c <= 0) {
		bc_answer_set(a, "Goodput", BC_ANSWER_UNSURE, "%s %s, ceiling unknown", r, dir);
		bc_answer_next(a, "give --link-rate");
		return;
	}
	bc_format_rate(c, b, sizeof(b));
	bc_answer_set(a, "Goodput", BC_ANSWER_PASS, "%s of a %s ceiling (%.0f %%), %s", r, b,
		      100 * g / c, dir);
	if (g >= BC_VERDICT_CARRIED_PASS * c)
		return;
	if (offered > 0 && offered < BC_VERDICT_CARRIED_PASS * c) {
		a->status = BC_ANSWER_INFO;
		bc_format_rate(offered, b, sizeof(b));
		bc_answer_next(a, "offered %s only", b);
		return;
	}
	a->status = BC_ANSWER_WARN;
	bc_answer_next(a, "see the per-link section (--capture)");
}

static void loss(struct json_object *res, struct bc_answer *a)
{
	struct json_object *ss = get(res, "streams"), *an = get(get(res, "capture"), "analysis");
	struct json_object *ls = get(an, "links"), *top = NULL, *f;
	long long sent = 0, lost = 0, retr = 0;
	bool udp = false;

	for (size_t i = 0; i < bc_json_len(ss); i++) {
		struct json_object *s = json_object_array_get_idx(ss, i);

		udp |= !strcmp(bc_json_str(s, "protocol"), "udp");
		sent += bc_json_i64(s, "sent_packets", 0);
		lost += bc_json_i64(s, "lost_packets", 0);
		retr += bc_json_i64(s, "retransmits", 0);
	}
	for (size_t i = 0; i < bc_json_len(ls); i++) {
		struct json_object *l = json_object_array_get_idx(ls, i);

		if (bc_json_i64(l, "lost", 0) > 0 &&
		    (!top || bc_json_i64(l, "lost", 0) > bc_json_i64(top, "lost", 0)))
			top = l;
	}
	if (!bc_json_len(ss)) {
		bc_answer_set(a, "Loss", BC_ANSWER_UNSURE, "no stream finished");
	} else if (!udp) {
		bc_answer_set(a, "Loss", retr ? BC_ANSWER_INFO : BC_ANSWER_PASS,
			      "TCP: %lld retransmits", retr);
	} else if (!lost) {
		bc_answer_set(a, "Loss", BC_ANSWER_PASS, "none of %lld datagrams", sent);
	} else {
		bc_answer_set(a, "Loss", BC_ANSWER_WARN, "%lld of %lld datagrams (%.2f %%)", lost,
			      sent, sent ? 100.0 * (double)lost / (double)sent : 0.0);
	}
	if (top) {
		size_t n = strlen(a->text);

		snprintf(a->text + n, sizeof(a->text) - n, ", most on %s (%lld)",
			 bc_json_str(top, "name"), bc_json_i64(top, "lost", 0));
	} else if (lost && !an) {
		bc_answer_next(a, "locate it with --capture");
	}
	f = worst(get(res, "findings"), "loss");
	if (f && lost) {
		size_t n = strlen(a->text);

		a->status = bc_answer_status_of(bc_json_str(f, "severity"));
		snprintf(a->text + n, sizeof(a->text) - n, "; %s on %s", bc_json_str(f, "id"),
			 bc_json_str(f, "subject"));
	}
}

static void reordering(struct json_object *res, struct bc_answer *a)
{
	struct json_object *ss = get(res, "streams");
	struct json_object *r = get(get(get(res, "capture"), "analysis"), "reordering");
	struct json_object *pairs = get(r, "pairs"), *top = NULL;
	long long ooo = 0, rcv = 0;
	bool udp = false;

	for (size_t i = 0; i < bc_json_len(ss); i++) {
		struct json_object *s = json_object_array_get_idx(ss, i);

		udp |= !strcmp(bc_json_str(s, "protocol"), "udp");
		ooo += bc_json_i64(s, "out_of_order_packets", 0);
		rcv += bc_json_i64(s, "received_packets", 0);
	}
	/* the pair that most datagrams arrived late on; a link behind itself is no pair */
	for (size_t i = 0; i < bc_json_len(pairs); i++) {
		struct json_object *p = json_object_array_get_idx(pairs, i);

		if (strcmp(bc_json_str(p, "late_link"), bc_json_str(p, "early_link")) &&
		    (!top || bc_json_i64(p, "count", 0) > bc_json_i64(top, "count", 0)))
			top = p;
	}
	if (!udp && !r) {
		bc_answer_set(a, "Reordering", BC_ANSWER_NA, "TCP: needs --capture");
		return;
	}
	if (!udp) {
		ooo = bc_json_i64(get(r, "tcp"), "reordered", 0);
		rcv = bc_json_i64(get(r, "tcp"), "received", 0);
	}
	if (!ooo) {
		bc_answer_set(a, "Reordering", BC_ANSWER_PASS, "none of %lld %s", rcv,
			      udp ? "datagrams" : "segments");
		return;
	}
	bc_answer_set(a, "Reordering", BC_ANSWER_WARN, "%lld of %lld %s out of order", ooo, rcv,
		      udp ? "datagrams" : "segments");
	if (top) {
		size_t n = strlen(a->text);

		snprintf(a->text + n, sizeof(a->text) - n, ", most %s behind %s (%lld)",
			 bc_json_str(top, "late_link"), bc_json_str(top, "early_link"),
			 bc_json_i64(top, "count", 0));
	} else if (!r) {
		bc_answer_next(a, "find the pair with --capture");
	}
}

void bc_run_report_answers(FILE *out, struct json_object *res)
{
	struct bc_answer a[3];

	goodput(res, &a[0]);
	loss(res, &a[1]);
	reordering(res, &a[2]);
	bc_answer_print(out, a, 3, bc_answer_width(out));
}
