// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/hostlist.h"

/* The names of @text joined by spaces, or "ERR <errno>: <message>". */
static const char *expand(const char *text)
{
	static char out[4096];
	struct bc_hostlist hl;
	char err[256];
	int rc = bc_hostlist_parse(text, &hl, err, sizeof(err));
	size_t used = 0;

	if (rc) {
		snprintf(out, sizeof(out), "ERR %d: %s", -rc, err);
		assert_int_equal(hl.n, 0);
		return out;
	}
	out[0] = '\0';
	for (size_t i = 0; i < hl.n && used < sizeof(out); i++)
		used += (size_t)snprintf(out + used, sizeof(out) - used, "%s%s", i ? " " : "",
					 hl.name[i]);
	bc_hostlist_free(&hl);
	return out;
}

static void test_ranges(void **state)
{
	(void)state;
	assert_string_equal(expand("node1"), "node1");
	assert_string_equal(expand("node[01-03]"), "node01 node02 node03");
	assert_string_equal(expand("h[1-3,7],login1"), "h1 h2 h3 h7 login1");
	assert_string_equal(expand("n[8-10]"), "n8 n9 n10");
	assert_string_equal(expand("n[1,05-06]x"), "n1x n05x n06x");
	assert_string_equal(expand("rack[2]-ib"), "rack2-ib");
	/* duplicates dropped, first place kept */
	assert_string_equal(expand("b,a,node[1-2],node1,a"), "b a node1 node2");
}

static void test_errors(void **state)
{
	(void)state;
	assert_string_equal(expand(""), "ERR 22: an empty host list; expected names such as node[01-16],login1");
	assert_non_null(strstr(expand("node[3-1]"), "from low to high"));
	assert_non_null(strstr(expand("node[1-"), "'[' without ']'"));
	assert_non_null(strstr(expand("node1]"), "']' without '['"));
	assert_non_null(strstr(expand("node[]"), "empty range"));
	assert_non_null(strstr(expand("node[a-b]"), "expected a number"));
	assert_non_null(strstr(expand("node[1-2;4]"), "expected ',' or ']'"));
	assert_non_null(strstr(expand("rack[1-2]n[1-4]"), "one bracket group"));
	assert_non_null(strstr(expand("a,,b"), "empty name between commas"));
	assert_non_null(strstr(expand("a,"), "trailing comma"));
	assert_non_null(strstr(expand("a b"), "no spaces"));
	assert_string_equal(expand("n[1-999999]"), "ERR 7: in 'n[1-999999]': more than 100000 host names");
}

static void test_large(void **state)
{
	struct bc_hostlist hl;
	char err[128];

	(void)state;
	/* the size fleet is built for: 10,000 names, padded, no duplicates */
	assert_int_equal(bc_hostlist_parse("cn[00001-10000],cn00001", &hl, err, sizeof(err)), 0);
	assert_int_equal(hl.n, 10000);
	assert_string_equal(hl.name[0], "cn00001");
	assert_string_equal(hl.name[9999], "cn10000");
	bc_hostlist_free(&hl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_large),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
