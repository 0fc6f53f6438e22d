// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The error object of -j (src/cli/cli-error.c, docs/json.md "Errors"):
 * when -j is asked for, the object per exit status, and which stderr line
 * becomes its message.  The CLI is not part of libbondcheck, so its file is
 * compiled in here.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "cli/cli-error.c"

static bool asks(const char *a, const char *b, const char *c)
{
	char *argv[] = {"run", (char *)a, (char *)b, (char *)c, NULL};
	int argc = 1 + !!a + !!b + !!c;

	return bc_cli_json_requested(argc, argv);
}

static void test_requested(void **state)
{
	(void)state;
	assert_true(asks("-j", NULL, NULL));
	assert_true(asks("--peer", "x", "-j"));	       /* after the arguments */
	assert_true(asks("--frobnicate", "-j", NULL)); /* after a bad option */
	assert_true(asks("--json", NULL, NULL));
	assert_true(asks("-qj", NULL, NULL));
	assert_false(asks("--json-file", "x.json", NULL));
	assert_false(asks("-l1472", NULL, NULL)); /* a value, not flags */
	assert_false(asks("--", "-j", NULL));
	assert_false(asks("--peer", "x", NULL));
}

static void test_object(void **state)
{
	struct json_object *o = bc_cli_error_json(4, "--from-json x: cannot open it"), *e = NULL,
			   *v = NULL;

	(void)state;
	assert_true(json_object_object_get_ex(o, "error", &e));
	assert_int_equal(json_object_object_length(o), 1);
	assert_int_equal(json_object_object_length(e), 3);
	assert_true(json_object_object_get_ex(e, "exit", &v));
	assert_int_equal(json_object_get_int(v), 4);
	assert_true(json_object_object_get_ex(e, "kind", &v));
	assert_string_equal(json_object_get_string(v), "input");
	assert_true(json_object_object_get_ex(e, "message", &v));
	assert_string_equal(json_object_get_string(v), "--from-json x: cannot open it");
	json_object_put(o);
	assert_string_equal(bc_cli_error_kind(2), "usage");
	assert_string_equal(bc_cli_error_kind(3), "environment");
	assert_null(bc_cli_error_json(0, "x"));
	assert_null(bc_cli_error_json(1, "x")); /* a report, not an error */
	o = bc_cli_error_json(3, "");
	assert_true(json_object_object_get_ex(o, "error", &e));
	assert_true(json_object_object_get_ex(e, "message", &v));
	assert_string_equal(json_object_get_string(v), "(none)");
	json_object_put(o);
}

static void test_line(void **state)
{
	char msg[128] = "";

	(void)state;
	bc_cli_error_line(msg, sizeof(msg), "run", "[1/6] tcp-1 ...");
	assert_string_equal(msg, "");
	/* a warning is not the error (inspect says "bondcheck: warning: ...") */
	bc_cli_error_line(msg, sizeof(msg), "run", "bondcheck: warning: line 14: a cut");
	assert_string_equal(msg, "");
	/* the error after an erased progress line */
	bc_cli_error_line(msg, sizeof(msg), "run",
			  "\r\033[K[2/6] tcp-k 1 s\r\033[Kbondcheck run: the peer closed the "
			  "control connection");
	assert_string_equal(msg, "the peer closed the control connection");
	/* the first line stays: the cause, not the consequence */
	bc_cli_error_line(msg, sizeof(msg), "run", "bondcheck run: the suite stopped");
	assert_string_equal(msg, "the peer closed the control connection");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_requested),
		cmocka_unit_test(test_object),
		cmocka_unit_test(test_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
