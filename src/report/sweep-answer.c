// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The answer blocks of `bondcheck sweep` (best point against its ceiling)
 * and `bondcheck matrix` (slow hosts, MTU); bondcheck/answer.h, issue 15
 * item 1.  From the analysed documents (docs/sweep.md, docs/matrix.md).
 */
#include <math.h>
#include <string.h>

#include "bondcheck/answer.h"
#include "bondcheck/json-get.h"
#include "bondcheck/matrix.h"
#include "bondcheck/sweep.h"

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, k, &v) &&
			       !json_object_is_type(v, json_type_null)
		       ? v
		       : NULL;
}

static double num(struct json_object *o, const char *k)
{
	return get(o, k) ? json_object_get_double(get(o, k)) : NAN;
}

void bc_sweep_report_answers(FILE *out, struct json_object *doc)
{
	struct json_object *points = get(doc, "points"), *best = NULL;
	struct bc_answer a;
	double m, c, e;

	for (size_t i = 0; i < bc_json_len(points); i++) {
		struct json_object *p = json_object_array_get_idx(points, i);

		if (isfinite(num(p, "mean_bps")) &&
		    (!best || num(p, "mean_bps") > num(best, "mean_bps")))
			best = p;
	}
	if (!best) {
		bc_answer_set(&a, "Best point", BC_ANSWER_UNSURE, "no point measured");
		bc_answer_print(out, &a, 1, bc_answer_width(out));
		return;
	}
	m = num(best, "mean_bps");
	c = num(best, "ceiling_bps");
	e = num(best, "efficiency");
	bc_answer_set(&a, "Best point", BC_ANSWER_PASS, "%s %g: %.3g Mbit/s",
		      bc_json_str(doc, "param"), bc_json_dbl(best, "value", 0), m / 1e6);
	if (isfinite(c) && isfinite(e)) {
		size_t n = strlen(a.text);

		snprintf(a.text + n, sizeof(a.text) - n, " of a %.3g Mbit/s ceiling (%.0f %%)",
			 c / 1e6, 100 * e);
		if (e < 0.8)
			a.status = BC_ANSWER_WARN;
	} else {
		a.status = BC_ANSWER_UNSURE;
		bc_answer_next(&a, "ceiling unknown: give --link-rate");
	}
	bc_answer_print(out, &a, 1, bc_answer_width(out));
}

/* The subjects of findings whose id is one of @ids (", "-joined) and the worst status. */
static enum bc_answer_status subjects(struct json_object *fs, const char *const *ids, size_t nid,
				      char *buf, size_t len)
{
	enum bc_answer_status st = BC_ANSWER_PASS;

	buf[0] = '\0';
	for (size_t i = 0; i < bc_json_len(fs); i++) {
		struct json_object *f = json_object_array_get_idx(fs, i);
		bool hit = false;

		for (size_t k = 0; k < nid; k++)
			hit |= !strcmp(bc_json_str(f, "id"), ids[k]);
		if (!hit)
			continue;
		if (!strstr(buf, bc_json_str(f, "subject")))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? ", " : "",
				 bc_json_str(f, "subject"));
		if (!strcmp(bc_json_str(f, "severity"), "error"))
			st = BC_ANSWER_FAIL;
		else if (st != BC_ANSWER_FAIL && !strcmp(bc_json_str(f, "severity"), "warning"))
			st = BC_ANSWER_WARN;
	}
	return st;
}

void bc_matrix_report_answers(FILE *out, struct json_object *doc)
{
	static const char *const slow[] = {"host-slow", "host-link-slower", "host-unreachable"};
	static const char *const mtu[] = {"host-mtu-mismatch", "path-mtu-blackhole"};
	struct json_object *fs = get(doc, "findings");
	size_t nh = bc_json_len(get(get(doc, "matrix"), "hosts"));
	struct bc_answer a[2];
	char who[200];

	a[0].status = subjects(fs, slow, 3, who, sizeof(who));
	if (who[0])
		bc_answer_set(&a[0], "Slow hosts", a[0].status, "%s", who);
	else
		bc_answer_set(&a[0], "Slow hosts", BC_ANSWER_PASS, "none of %zu hosts", nh);
	a[1].status = subjects(fs, mtu, 2, who, sizeof(who));
	if (who[0])
		bc_answer_set(&a[1], "MTU", a[1].status, "mismatch or black hole: %s", who);
	else
		bc_answer_set(&a[1], "MTU", BC_ANSWER_PASS, "no mismatch, no path MTU black hole");
	if (a[0].status != BC_ANSWER_PASS)
		bc_answer_next(&a[0], "see the findings");
	bc_answer_print(out, a, 2, bc_answer_width(out));
}
