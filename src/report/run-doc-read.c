// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The strict check of a saved single-run document (the -j output of
 * `bondcheck run` with single-test options) before `run --from-json`
 * renders it: every member the text report and its answer block read is
 * there and of its type (bondcheck/doc-read.h); see bondcheck/run-report.h.
 */
#include <errno.h>
#include <string.h>

#include "bondcheck/doc-read.h"
#include "bondcheck/run-report.h"

/* The members of one stream the report reads; UDP's datagram counts too. */
static void stream(struct bc_doc_read *r, struct json_object *s, const char *p)
{
	char proto[8] = "", dir[24] = "";
	int64_t i = -1;
	double d = 0;

	bc_doc_i64(r, s, p, "id", BC_DOC_REQUIRED, &i);
	bc_doc_str(r, s, p, "protocol", BC_DOC_REQUIRED, proto, sizeof(proto));
	bc_doc_str(r, s, p, "direction", BC_DOC_REQUIRED, dir, sizeof(dir));
	bc_doc_dbl(r, s, p, "goodput_bps", BC_DOC_REQUIRED, &d);
	if (proto[0] && strcmp(proto, "udp") && strcmp(proto, "tcp"))
		bc_doc_problem(r, p, "protocol", "expected \"tcp\" or \"udp\"");
	if (!strcmp(proto, "udp")) {
		bc_doc_i64(r, s, p, "sent_packets", BC_DOC_REQUIRED, &i);
		bc_doc_i64(r, s, p, "received_packets", BC_DOC_REQUIRED, &i);
		bc_doc_i64(r, s, p, "lost_packets", BC_DOC_REQUIRED, &i);
		bc_doc_i64(r, s, p, "out_of_order_packets", BC_DOC_REQUIRED, &i);
	} else if (proto[0]) {
		bc_doc_i64(r, s, p, "retransmits", BC_DOC_REQUIRED, &i);
	}
}

/* Member @key of @o present and a string, of any length. */
static void text_member(struct bc_doc_read *r, struct json_object *o, const char *p,
			const char *key)
{
	struct json_object *v = bc_doc_member(r, o, p, key, BC_DOC_REQUIRED);

	if (v && !json_object_is_type(v, json_type_string))
		bc_doc_problem(r, p, key, "expected a string");
}

int bc_run_doc_check(struct json_object *doc, struct bc_error *err)
{
	struct bc_doc_read r;
	struct json_object *test, *a, *o;
	char p[BC_DOC_PROBLEM_LEN], text[1024], word[24] = "";
	int64_t i = -1;
	size_t n;

	bc_doc_read_init(&r);
	if (!json_object_is_type(doc, json_type_object))
		return bc_error_set(err, -EINVAL, "expected a JSON object, found %s",
				    json_type_to_name(json_object_get_type(doc)));
	bc_doc_i64(&r, doc, "", "schema_version", BC_DOC_REQUIRED, &i);
	test = bc_doc_member(&r, doc, "", "test", BC_DOC_REQUIRED);
	if (test) {
		bc_doc_str(&r, test, "test", "protocol", BC_DOC_REQUIRED, word, sizeof(word));
		bc_doc_str(&r, test, "test", "direction", BC_DOC_REQUIRED, word, sizeof(word));
		bc_doc_i64(&r, test, "test", "streams", BC_DOC_REQUIRED, &i);
		bc_doc_i64(&r, test, "test", "duration_ms", BC_DOC_REQUIRED, &i);
	}
	a = bc_doc_array(&r, doc, "", "streams", BC_DOC_REQUIRED, &n);
	for (size_t k = 0; k < n; k++) {
		o = json_object_array_get_idx(a, k);
		bc_doc_path(p, sizeof(p), "streams", NULL, k);
		if (!json_object_is_type(o, json_type_object))
			bc_doc_problem(&r, p, NULL, "not an object");
		else
			stream(&r, o, p);
	}
	if (a && !n)
		bc_doc_problem(&r, "", "streams", "empty: a run has at least one stream");
	o = bc_doc_member(&r, doc, "", "sum", BC_DOC_OPTIONAL);
	if (o && !json_object_is_type(o, json_type_object))
		bc_doc_problem(&r, "", "sum", "not an object");
	else if (o) {
		json_object_object_foreach(o, dir, d)
		{
			double g = 0;

			bc_doc_dbl(&r, d, bc_doc_path(p, sizeof(p), "sum", dir, 0), "goodput_bps",
				   BC_DOC_REQUIRED, &g);
		}
	}
	a = bc_doc_array(&r, doc, "", "findings", BC_DOC_REQUIRED, &n);
	for (size_t k = 0; k < n; k++) {
		static const char *const keys[] = {"severity", "id", "subject", "advice"};

		o = json_object_array_get_idx(a, k);
		bc_doc_path(p, sizeof(p), "findings", NULL, k);
		for (size_t j = 0; j < sizeof(keys) / sizeof(keys[0]); j++)
			text_member(&r, o, p, keys[j]);
	}
	a = bc_doc_array(&r, doc, "", "notes", BC_DOC_OPTIONAL, &n);
	for (size_t k = 0; k < n; k++)
		if (!json_object_is_type(json_object_array_get_idx(a, k), json_type_string))
			bc_doc_problem(&r, bc_doc_path(p, sizeof(p), "notes", NULL, k), NULL,
				       "not a string");
	o = bc_doc_member(&r, doc, "", "capture", BC_DOC_OPTIONAL);
	if (o && !json_object_is_type(o, json_type_object))
		bc_doc_problem(&r, "", "capture", "not an object");
	else if (o && (o = bc_doc_member(&r, o, "capture", "analysis", BC_DOC_OPTIONAL)) &&
		 !json_object_is_type(o, json_type_object))
		bc_doc_problem(&r, "capture", "analysis", "not an object");
	if (!r.n_problems)
		return 0;
	return bc_error_set(err, -EINVAL, "not a complete single-run document: %s",
			    bc_doc_problems_text(&r, text, sizeof(text)));
}
