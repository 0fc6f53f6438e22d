// SPDX-License-Identifier: GPL-2.0-or-later
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/doc-read.h"

static struct json_object *doc(void)
{
	return json_tokener_parse("{\"rate\": 12.5, \"n\": 7, \"whole\": 3.0, \"half\": 2.5,"
				  " \"ok\": true, \"name\": \"bond0\", \"nul\": null,"
				  " \"list\": [1, 2, 3], \"obj\": {\"x\": \"7\"}}");
}

static void test_present(void **state)
{
	struct json_object *o = doc();
	struct bc_doc_read r;
	double d = NAN;
	int64_t i = -1;
	bool b = false;
	char s[8];
	size_t n;

	(void)state;
	bc_doc_read_init(&r);
	assert_true(bc_doc_dbl(&r, o, "", "rate", BC_DOC_REQUIRED, &d));
	assert_true(d == 12.5);
	assert_true(bc_doc_dbl(&r, o, "", "n", BC_DOC_REQUIRED, &d)); /* an integer is a number */
	assert_true(d == 7.0);
	assert_true(bc_doc_i64(&r, o, "", "n", BC_DOC_REQUIRED, &i));
	assert_int_equal(i, 7);
	assert_true(bc_doc_i64(&r, o, "", "whole", BC_DOC_REQUIRED, &i)); /* 3.0 is integral */
	assert_int_equal(i, 3);
	assert_true(bc_doc_bool(&r, o, "", "ok", BC_DOC_REQUIRED, &b));
	assert_true(b);
	assert_true(bc_doc_str(&r, o, "", "name", BC_DOC_REQUIRED, s, sizeof(s)));
	assert_string_equal(s, "bond0");
	assert_non_null(bc_doc_array(&r, o, "", "list", BC_DOC_REQUIRED, &n));
	assert_int_equal(n, 3);
	assert_int_equal(r.n_problems, 0);
	json_object_put(o);
}

static void test_problems(void **state)
{
	struct json_object *o = doc();
	struct bc_doc_read r;
	double d = NAN;
	int64_t i = -1;
	char s[4] = "?", text[512];
	size_t n = 9;

	(void)state;
	bc_doc_read_init(&r);
	/* absent and optional: nothing recorded, value untouched */
	assert_false(bc_doc_dbl(&r, o, "", "nope", BC_DOC_OPTIONAL, &d));
	assert_true(isnan(d));
	assert_int_equal(r.n_problems, 0);
	/* absent, null, wrong type, not integral, too long, not an array */
	assert_false(bc_doc_dbl(&r, o, "streams[0]", "goodput_bps", BC_DOC_REQUIRED, &d));
	assert_false(bc_doc_dbl(&r, o, "", "nul", BC_DOC_REQUIRED, &d));
	assert_false(bc_doc_dbl(&r, o, "", "name", BC_DOC_REQUIRED, &d));
	assert_false(bc_doc_i64(&r, o, "", "half", BC_DOC_REQUIRED, &i));
	assert_int_equal(i, -1);
	assert_false(bc_doc_str(&r, o, "", "name", BC_DOC_REQUIRED, s, sizeof(s)));
	assert_string_equal(s, "?");
	assert_null(bc_doc_array(&r, o, "", "obj", BC_DOC_OPTIONAL, &n));
	assert_int_equal(n, 0);
	assert_int_equal(r.n_problems, 6);
	assert_string_equal(r.problem[0], "streams[0].goodput_bps (absent)");
	assert_string_equal(r.problem[1], "nul (absent)");
	assert_string_equal(r.problem[2], "name (string, expected a number)");
	assert_string_equal(r.problem[3], "half (number, expected an integer)");
	assert_string_equal(r.problem[4], "name (longer than 3 bytes)");
	assert_string_equal(r.problem[5], "obj (object, expected an array)");
	bc_doc_problems_text(&r, text, sizeof(text));
	assert_non_null(strstr(text, "goodput_bps (absent); nul (absent); name"));
	json_object_put(o);
}

static void test_overflow_and_paths(void **state)
{
	struct bc_doc_read r;
	char text[4096], p[64];

	(void)state;
	bc_doc_read_init(&r);
	for (int k = 0; k < BC_DOC_MAX_PROBLEMS + 3; k++)
		bc_doc_problem(&r, "links", "x", "absent");
	assert_int_equal(r.n_problems, BC_DOC_MAX_PROBLEMS + 3);
	bc_doc_problems_text(&r, text, sizeof(text));
	assert_non_null(strstr(text, "(and 3 more)"));
	/* a tiny buffer stays terminated */
	bc_doc_problems_text(&r, text, 5);
	assert_int_equal(strlen(text), 4);
	assert_string_equal(bc_doc_path(p, sizeof(p), "links", NULL, 2), "links[2]");
	assert_string_equal(bc_doc_path(p, sizeof(p), "links[2]", "rx", 0), "links[2].rx");
	assert_string_equal(bc_doc_path(p, sizeof(p), "", "suite", 0), "suite");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_present),
		cmocka_unit_test(test_problems),
		cmocka_unit_test(test_overflow_and_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
