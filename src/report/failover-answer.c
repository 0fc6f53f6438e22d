// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The answer block of `bondcheck failover` (bondcheck/answer.h, issue 15
 * item 1): the gap against the expected range, one line per direction.
 * From the analysed document (docs/failover.md); the tables follow.
 */
#include <string.h>

#include "bondcheck/answer.h"
#include "bondcheck/failover-report.h"
#include "bondcheck/json-get.h"

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, k, &v)
		       ? v
		       : NULL;
}

/* The expectation of direction @dir (expected.directions[]), or NULL. */
static struct json_object *expected(struct json_object *doc, const char *dir)
{
	struct json_object *xs = get(get(doc, "expected"), "directions");

	for (size_t i = 0; i < bc_json_len(xs); i++)
		if (!strcmp(bc_json_str(json_object_array_get_idx(xs, i), "direction"), dir))
			return json_object_array_get_idx(xs, i);
	return NULL;
}

static void one(struct json_object *doc, struct json_object *d, struct bc_answer *a)
{
	const char *v = bc_json_str(d, "verdict"), *dir = bc_json_str(d, "direction");
	struct json_object *x = expected(doc, dir);
	const char *lab = !strcmp(dir, "agent-to-client") ? "To client" : "To agent";
	enum bc_answer_status st = !strcmp(v, "within")		   ? BC_ANSWER_PASS
				   : !strcmp(v, "not-interrupted") ? BC_ANSWER_INFO
				   : !strcmp(v, "inconclusive") || !strcmp(v, "no-expectation")
					   ? BC_ANSWER_UNSURE
					   : BC_ANSWER_FAIL;
	char exp[96] = "no expected range";

	if (x && get(x, "min_ms") && get(x, "limit_ms"))
		snprintf(exp, sizeof(exp), "expected %.0f..%.0f ms (%s)",
			 bc_json_dbl(x, "min_ms", 0), bc_json_dbl(x, "limit_ms", 0),
			 bc_json_str(x, "detector")[0] ? bc_json_str(x, "detector") : "?");
	if (!get(d, "gap_ms"))
		bc_answer_set(a, lab, st, "%s, %s",
			      !strcmp(v, "not-interrupted") ? "not interrupted" : v, exp);
	else
		bc_answer_set(a, lab, st, "gap %.0f ms, %s%s%s", bc_json_dbl(d, "gap_ms", 0), exp,
			      st == BC_ANSWER_PASS ? "" : ": ",
			      st == BC_ANSWER_PASS	 ? ""
			      : !strcmp(v, "black-hole") ? "black hole"
							 : v);
	if (!strcmp(v, "black-hole") && x && !strcmp(bc_json_str(x, "detector"), "nothing")) {
		bc_answer_set(a, lab, st, "gap %.0f ms: black hole, nothing detects the cut",
			      bc_json_dbl(d, "gap_ms", 0));
		bc_answer_next(a, "set miimon or ARP monitoring");
	} else if (!strcmp(v, "black-hole")) {
		bc_answer_next(a, "see the findings");
	}
}

void bc_failover_report_answers(FILE *out, struct json_object *doc)
{
	struct json_object *ds = get(doc, "directions");
	struct bc_answer a[2];
	size_t n = 0;

	for (size_t i = 0; i < bc_json_len(ds) && n < 2; i++, n++)
		one(doc, json_object_array_get_idx(ds, i), &a[n]);
	if (!n) {
		bc_answer_set(&a[0], "Failover", BC_ANSWER_UNSURE, "no direction measured");
		n = 1;
	}
	bc_answer_print(out, a, n, bc_answer_width(out));
}
