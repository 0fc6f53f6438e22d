// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The answer block of `bondcheck sweep` (best point against its ceiling);
 * bondcheck/answer.h, issue 15 item 1.  From the analysed document
 * (docs/sweep.md).  The matrix's is rendered from its verdicts
 * (report/matrix-verdict.c).
 */
#include <math.h>
#include <string.h>

#include "bondcheck/answer.h"
#include "bondcheck/json-get.h"
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
