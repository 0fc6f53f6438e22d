// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exit-status table (src/cli/cli-exit.c, docs/bondcheck.8 "EXIT
 * STATUS"): which row a report's verdicts and findings select, and the last
 * line that says so.  The CLI is not part of libbondcheck, so its one file
 * is compiled in here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "cli/cli-exit.c"

/* The status, with the printed line in @line. */
static int status(const char *verdicts, const char *findings, char *line, size_t len)
{
	struct json_object *v = verdicts ? json_tokener_parse(verdicts) : NULL;
	struct json_object *f = findings ? json_tokener_parse(findings) : NULL;
	FILE *out = fmemopen(line, len, "w");
	int rc;

	assert_non_null(out);
	rc = bc_cli_exit_status(out, "run", v, f);
	fclose(out);
	json_object_put(v);
	json_object_put(f);
	return rc;
}

static void test_table(void **state)
{
	char line[512];

	(void)state;
	assert_int_equal(BC_EXIT_OK, 0);
	assert_int_equal(BC_EXIT_FINDINGS, 1);
	assert_int_equal(BC_EXIT_USAGE, 2);
	assert_int_equal(BC_EXIT_ENV, 3);
	assert_int_equal(BC_EXIT_DATA, 4);
	/* a failed verdict */
	assert_int_equal(status("{\"aggregation\": {\"status\": \"fail\"}, \"drivers\": "
				"{\"status\": \"fail\"}, \"udp_gap\": {\"status\": \"pass\"}}",
				"[]", line, sizeof(line)),
			 1);
	assert_string_equal(line, "exit 1: failed: aggregation, drivers\n");
	/* the single run: an error-level wire-loss under no verdict */
	assert_int_equal(status(NULL,
				"[{\"id\": \"wire-loss\", \"severity\": \"error\", \"subject\": "
				"\"tx:client/eth1\"}, {\"id\": \"reordering\", \"severity\": "
				"\"warning\", \"subject\": \"bond0\"}]",
				line, sizeof(line)),
			 1);
	assert_string_equal(line, "exit 1: error findings: wire-loss (tx:client/eth1)\n");
	/* an expected error (the over-rate probe's own loss) does not count */
	assert_int_equal(status("{\"aggregation\": {\"status\": \"pass\"}}",
				"[{\"id\": \"tx-loss\", \"severity\": \"error\", \"subject\": "
				"\"tx:client/eth1\", \"expected\": true}]",
				line, sizeof(line)),
			 0);
	assert_string_equal(line, "exit 0: every verdict passed\n");
	/* nothing passed, nothing failed: 0, and the line says none passed */
	assert_int_equal(status("{\"aggregation\": {\"status\": \"inconclusive\"}, \"drivers\": "
				"{\"status\": \"not-applicable\"}}",
				NULL, line, sizeof(line)),
			 0);
	assert_string_equal(line, "exit 0: no verdict failed, but none passed: aggregation "
				  "inconclusive, drivers not-applicable\n");
	assert_int_equal(status("{\"aggregation\": {\"status\": \"pass\"}, \"drivers\": "
				"{\"status\": \"not-applicable\"}}",
				"[]", line, sizeof(line)),
			 0);
	assert_string_equal(line, "exit 0: no verdict failed (drivers not-applicable)\n");
	/* both: the verdicts first, then the findings */
	assert_int_equal(status("{\"udp_gap\": {\"status\": \"fail\"}}",
				"[{\"id\": \"rx-loss-socket\", \"severity\": \"error\", "
				"\"subject\": \"rx:agent/eth0\"}]",
				line, sizeof(line)),
			 1);
	assert_string_equal(line, "exit 1: failed: udp_gap; error findings: rx-loss-socket "
				  "(rx:agent/eth0)\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
