// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The answer block of `bondcheck scale` (bondcheck/answer.h, issue 15 item
 * 1): does N+1 beat N, one line per adjacent comparison ("TCP 2 -> 3"),
 * with the speed-up and its 95 % CI, the cause the capture found, and what
 * to do.  From the analysed document (docs/scale.md).
 */
#include <stdbool.h>
#include <string.h>

#include "bondcheck/answer.h"
#include "bondcheck/json-get.h"
#include "bondcheck/scale-report.h"

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, k, &v)
		       ? v
		       : NULL;
}

/* "TCP 2 -> 3" into @buf. */
static const char *label(struct json_object *c, char *buf, size_t len)
{
	const char *p = bc_json_str(c, "protocol");

	snprintf(buf, len, "%s %lld -> %lld", !strcmp(p, "udp") ? "UDP" : "TCP",
		 bc_json_i64(c, "from_n", 0), bc_json_i64(c, "to_n", 0));
	return buf;
}

static void one(struct json_object *c, const char *lab, struct bc_answer *a)
{
	const char *v = bc_json_str(c, "verdict");
	struct json_object *cause = get(c, "cause");
	long long from = bc_json_i64(c, "from_n", 0), to = bc_json_i64(c, "to_n", 0);
	double s = bc_json_dbl(c, "speedup", 0);
	char ci[48];

	snprintf(ci, sizeof(ci), "(95 %% CI %.2f-%.2f)", bc_json_dbl(c, "ci_low", 0),
		 bc_json_dbl(c, "ci_high", 0));
	if (!strcmp(v, "gain"))
		bc_answer_set(a, lab, BC_ANSWER_PASS, "%lld links beat %lld: %.2fx %s", to, from, s,
			      ci);
	else if (!strcmp(v, "scaling-negative"))
		bc_answer_set(a, lab, BC_ANSWER_FAIL, "%lld links worse than %lld: %.2fx %s", to,
			      from, s, ci);
	else if (!strcmp(v, "scaling-flat"))
		bc_answer_set(a, lab, BC_ANSWER_WARN, "%lld links no better than %lld: %.2fx %s",
			      to, from, s, ci);
	else /* the reason up to its explanation */
		bc_answer_set(a, lab, BC_ANSWER_UNSURE, "not compared: %.*s",
			      (int)strcspn(bc_json_str(c, "invalid_reason")[0]
						   ? bc_json_str(c, "invalid_reason")
						   : v,
					   ":;("),
			      bc_json_str(c, "invalid_reason")[0] ? bc_json_str(c, "invalid_reason")
								  : v);
	if (cause && strcmp(v, "gain") && !strcmp(bc_json_str(cause, "kind"), "ceiling")) {
		struct json_object *ev = get(cause, "evidence");
		size_t n = strlen(a->text);

		snprintf(a->text + n, sizeof(a->text) - n,
			 ": %s caps every slave, ceiling %.2f of %.2f Mbit/s", bc_json_str(cause, "slave"),
			 bc_json_dbl(ev, "to_ceiling_bps", 0) / 1e6,
			 bc_json_dbl(ev, "from_ceiling_bps", 0) / 1e6);
		bc_answer_next(a, "leave it out or raise its rate");
	} else if (cause && strcmp(v, "gain")) {
		size_t n = strlen(a->text);
		const char *sl = bc_json_str(cause, "slave");

		snprintf(a->text + n, sizeof(a->text) - n, ", %s%s%s", bc_json_str(cause, "kind"),
			 sl[0] ? " on " : "", sl);
		if (sl[0])
			bc_answer_next(a, "drop it");
	}
}

/* The first field of restore report @rep that is not back, or NULL. */
static struct json_object *not_back(struct json_object *rep)
{
	struct json_object *fs = get(rep, "fields");

	for (size_t i = 0; i < bc_json_len(fs); i++)
		if (!json_object_get_boolean(get(json_object_array_get_idx(fs, i), "ok")))
			return json_object_array_get_idx(fs, i);
	return NULL;
}

/*
 * --method links changed both ends: were both restored?  PASS when both
 * restore reports are ok, else FAIL naming the end and its first field not
 * back (or that its report is missing).  False when nothing was changed.
 */
static bool restored(struct json_object *doc, struct bc_answer *a)
{
	struct json_object *l = get(doc, "links"), *rs = get(l, "restore");
	struct json_object *ends[2], *f;
	static const char *const who[2] = {"client", "agent"};

	if (!l || !bc_json_len(get(l, "changes")))
		return false;
	ends[0] = get(rs, "client_settled") ? get(rs, "client_settled") : get(rs, "client");
	ends[1] = get(rs, "agent");
	for (int e = 0; e < 2; e++) {
		if (!ends[e]) {
			bc_answer_set(a, "Restored", BC_ANSWER_FAIL,
				      "the %s's bond: no restore report", who[e]);
			bc_answer_next(a, "check it with `bondcheck restore --check` there");
			return true;
		}
		f = not_back(ends[e]);
		if (f || !json_object_get_boolean(get(ends[e], "ok"))) {
			const char *act = f ? bc_json_str(f, "action") : "";

			if (!strncmp(act, "not restored: ", 14))
				act += 14;
			if (!f)
				bc_answer_set(a, "Restored", BC_ANSWER_FAIL,
					      "the %s's %s is not stable", who[e],
					      bc_json_str(ends[e], "bond"));
			else if (strcmp(act, "none") && act[0])
				bc_answer_set(a, "Restored", BC_ANSWER_FAIL,
					      "the %s's %s not restored: %s (%s)", who[e],
					      bc_json_str(ends[e], "bond"), bc_json_str(f, "field"),
					      act);
			else
				bc_answer_set(a, "Restored", BC_ANSWER_FAIL,
					      "the %s's %s not restored: %s %s, journal %s", who[e],
					      bc_json_str(ends[e], "bond"), bc_json_str(f, "field"),
					      bc_json_str(f, "after"), bc_json_str(f, "journal"));
			bc_answer_next(a, "run `bondcheck restore` on the %s", who[e]);
			return true;
		}
	}
	bc_answer_set(a, "Restored", BC_ANSWER_PASS,
		      "both ends: the client's %s and the agent's %s as journaled",
		      bc_json_str(ends[0], "bond"), bc_json_str(ends[1], "bond"));
	return true;
}

void bc_scale_report_answers(FILE *out, struct json_object *doc)
{
	struct json_object *cmps = get(doc, "comparisons");
	struct bc_answer a[17];
	char labels[16][24];
	size_t n = 0;

	for (size_t i = 0; i < bc_json_len(cmps) && n < 16; i++, n++)
		one(json_object_array_get_idx(cmps, i),
		    label(json_object_array_get_idx(cmps, i), labels[n], sizeof(labels[n])), &a[n]);
	if (!n) {
		bc_answer_set(&a[0], "N+1 vs N", BC_ANSWER_UNSURE, "no comparison: %s",
			      bc_json_str(get(doc, "verdict"), "status"));
		n = 1;
	}
	if (restored(doc, &a[n]))
		n++;
	bc_answer_print(out, a, n, bc_answer_width(out));
}
