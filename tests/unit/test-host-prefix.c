// SPDX-License-Identifier: GPL-2.0-or-later
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/host-prefix.h"

static void test_interleaved(void **state)
{
	/* pdsh interleaves the hosts' lines; clush prints the same prefix */
	const char *in = "node02: {\n"
			 "node01: {\"host\": \"node01\",\n"
			 "node02:   \"bonds\": []\n"
			 "stray line from ssh\n"
			 "\n"
			 "node01:  \"bonds\": []}\r\n"
			 "node02: }\n"
			 "node03:\n"
			 "node-4.ib_0: x";
	struct bc_host_demux d;

	(void)state;
	assert_int_equal(bc_host_demux(in, strlen(in), &d), 0);
	assert_int_equal(d.n, 4);
	assert_string_equal(d.host[0].host, "node02");
	assert_string_equal(d.host[0].text, "{\n  \"bonds\": []\n}\n");
	assert_string_equal(d.host[1].host, "node01");
	/* one space after ':' is the prefix's; the rest is the host's */
	assert_string_equal(d.host[1].text, "{\"host\": \"node01\",\n \"bonds\": []}\n");
	assert_string_equal(d.host[2].host, "node03");
	assert_string_equal(d.host[2].text, "\n");
	assert_string_equal(d.host[3].host, "node-4.ib_0");
	assert_string_equal(d.host[3].text, "x\n");
	assert_int_equal(d.unprefixed, 1);
	assert_int_equal(d.first_unprefixed, 4);
	bc_host_demux_free(&d);
}

static void test_not_prefixes(void **state)
{
	/* a JSON line, a URL and a time are not "HOST: " prefixes */
	const char *in = "{\"a\": 1}\nhttp://x\n12:30:00 up\n: x\nhost :x\n";
	struct bc_host_demux d;

	(void)state;
	assert_int_equal(bc_host_demux(in, strlen(in), &d), 0);
	assert_int_equal(d.n, 0);
	assert_int_equal(d.unprefixed, 5);
	bc_host_demux_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_not_prefixes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
