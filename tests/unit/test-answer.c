// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The answer block (bondcheck/answer.h, issue 15 item 1): the status words,
 * the 100-column limit, the hanging-indent wrap at a narrower width, the
 * width from COLUMNS, a verdict's short line (bc_verdict_answer()) through
 * its JSON (bc_verdict_from_json()), and a single run's three answers from
 * a recorded result (the mixed-drivers suite's udp-over test).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "bondcheck/answer.h"
#include "bondcheck/json-get.h"
#include "bondcheck/run-report.h"
#include "bondcheck/verdict.h"

/* What @n answers print at @width, into a static buffer. */
static const char *print(const struct bc_answer *a, size_t n, int width)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	assert_non_null(f);
	assert_int_equal(bc_answer_print(f, a, n, width), 0);
	fclose(f);
	return buf;
}

/* Every line of @s is at most @width columns; returns the number of lines. */
static int lines_within(const char *s, int width)
{
	int n = 0;

	for (const char *p = s; *p; n++) {
		size_t len = strcspn(p, "\n");

		if (len > (size_t)width)
			fail_msg("line of %zu columns over %d: '%.*s'", len, width, (int)len, p);
		p += len + (p[len] == '\n');
	}
	return n;
}

static void test_status_words(void **state)
{
	(void)state;
	assert_string_equal(bc_answer_status_word(BC_ANSWER_PASS), "PASS");
	assert_string_equal(bc_answer_status_word(BC_ANSWER_FAIL), "FAIL");
	assert_string_equal(bc_answer_status_word(BC_ANSWER_WARN), "WARN");
	assert_string_equal(bc_answer_status_word(BC_ANSWER_UNSURE), "UNSURE");
	assert_string_equal(bc_answer_status_word(BC_ANSWER_NA), "N/A");
	assert_string_equal(bc_answer_status_word(BC_ANSWER_INFO), "INFO");
	assert_string_equal(bc_answer_status_word((enum bc_answer_status)42), "?");
	assert_int_equal(bc_answer_status_of("pass"), BC_ANSWER_PASS);
	assert_int_equal(bc_answer_status_of("fail"), BC_ANSWER_FAIL);
	assert_int_equal(bc_answer_status_of("error"), BC_ANSWER_FAIL);
	assert_int_equal(bc_answer_status_of("warning"), BC_ANSWER_WARN);
	assert_int_equal(bc_answer_status_of("inconclusive"), BC_ANSWER_UNSURE);
	assert_int_equal(bc_answer_status_of("not-applicable"), BC_ANSWER_NA);
	assert_int_equal(bc_answer_status_of(NULL), BC_ANSWER_UNSURE);
}

/* The status column is 6 wide for every word: the text starts at column 20. */
static void test_columns(void **state)
{
	struct bc_answer a[2];
	const char *s;

	(void)state;
	bc_answer_set(&a[0], "Drivers", BC_ANSWER_FAIL, "eth1 holds the bond back");
	bc_answer_next(&a[0], "remove it");
	bc_answer_set(&a[1], "Reordering", BC_ANSWER_UNSURE, "x");
	s = print(a, 2, 100);
	assert_string_equal(s, "Drivers      FAIL   eth1 holds the bond back: remove it\n"
			       "Reordering   UNSURE x\n");
	assert_int_equal(BC_ANSWER_TEXT_COL, 20);
}

static const char long_text[] =
	"eth1's tbf (1.5 Mbit/s) caps the bond at 4.3 of 16.7 Mbit/s and a few more words "
	"that a report would never need but a wrap must survive";

static void test_wrap_100(void **state)
{
	struct bc_answer a;
	const char *s;

	(void)state;
	bc_answer_set(&a, "Drivers", BC_ANSWER_FAIL, "%s", long_text);
	s = print(&a, 1, 100);
	assert_int_equal(lines_within(s, 100), 2);
	/* 80 columns of text fit one line exactly */
	bc_answer_set(&a, "Drivers", BC_ANSWER_FAIL,
		      "eth1's tbf (1.5 Mbit/s) caps the bond at 4.3 of 16.7 Mbit/s: raise or "
		      "remove it!");
	assert_int_equal(strlen(a.text), 80);
	s = print(&a, 1, 100);
	assert_int_equal(lines_within(s, 100), 1);
}

/* At 50 columns: every line within 50, continuation lines indented 20, no word cut. */
static void test_wrap_narrow(void **state)
{
	struct bc_answer a;
	char joined[512] = "";
	const char *s, *p;
	int n;

	(void)state;
	bc_answer_set(&a, "Drivers", BC_ANSWER_FAIL, "%s", long_text);
	s = print(&a, 1, 50);
	n = lines_within(s, 50);
	assert_true(n >= 4);
	assert_memory_equal(s, "Drivers      FAIL   eth1's", 26);
	for (p = strchr(s, '\n') + 1; *p; p = strchr(p, '\n') + 1) {
		assert_memory_equal(p, "                    ", 20);
		assert_true(p[20] != ' ');
	}
	/* the words, joined again, are the text */
	for (p = s + 20; *p;) {
		size_t len = strcspn(p, "\n");

		snprintf(joined + strlen(joined), sizeof(joined) - strlen(joined), "%s%.*s",
			 joined[0] ? " " : "", (int)len, p);
		p += len + 1;
		if (*p)
			p += 20;
	}
	assert_string_equal(joined, long_text);
}

/* Too narrow for a 20-column indent: it falls back to 4, still within the width. */
static void test_wrap_very_narrow(void **state)
{
	struct bc_answer a;
	const char *s;

	(void)state;
	bc_answer_set(&a, "UDP gap", BC_ANSWER_PASS, "%s", long_text);
	s = print(&a, 1, 24);
	lines_within(s, 24);
	assert_non_null(strstr(s, "\n    eth1's"));
}

static void test_width(void **state)
{
	FILE *f = tmpfile(); /* not a terminal */

	(void)state;
	assert_non_null(f);
	setenv("COLUMNS", "60", 1);
	assert_int_equal(bc_answer_width(f), 60);
	setenv("COLUMNS", "abc", 1);
	assert_int_equal(bc_answer_width(f), 100);
	setenv("COLUMNS", "5", 1);
	assert_int_equal(bc_answer_width(f), 100);
	unsetenv("COLUMNS");
	assert_int_equal(bc_answer_width(f), 100);
	fclose(f);
}

/* The mixed-drivers run's Drivers verdict (a tbf on eth1), through its JSON. */
static void test_verdict_answer(void **state)
{
	struct json_object *o = json_object_new_object();
	struct bc_verdict v, back;
	struct bc_answer a, b;

	(void)state;
	bc_verdict_init(&v, "drivers");
	v.status = BC_VERDICT_FAIL;
	v.has_levels = true;
	v.lhs = BC_CAP_POTENTIAL;
	v.rhs = BC_CAP_INSTALLED;
	v.lhs_bps = 4.30e6;
	v.rhs_bps = 16.74e6;
	v.headline = v.lhs_bps / v.rhs_bps;
	snprintf(v.mechanism, sizeof(v.mechanism), "shaper");
	snprintf(v.where, sizeof(v.where), "eth1");
	bc_verdict_add(&v, "qdisc", "tbf");
	bc_verdict_add(&v, "rate", "1.50 Mbit/s");
	snprintf(v.next_step, sizeof(v.next_step), "raise or remove the tbf on eth1");
	bc_verdict_answer(&v, "Drivers", &a);
	assert_int_equal(a.status, BC_ANSWER_FAIL);
	assert_string_equal(a.text, "eth1's tbf (1.5 Mbit/s) caps the bond at 4.3 of 16.7 Mbit/s");
	assert_string_equal(a.next, "raise or remove it");
	bc_verdict_json_put(&v, o);
	assert_int_equal(bc_verdict_from_json(o, "drivers", &back), 0);
	bc_verdict_answer(&back, "Drivers", &b);
	assert_string_equal(a.text, b.text);
	assert_string_equal(a.next, b.next);
	/* a passing verdict has no next step */
	v.status = BC_VERDICT_PASS;
	bc_verdict_answer(&v, "Drivers", &a);
	assert_string_equal(a.next, "");
	assert_int_equal(bc_verdict_from_json(NULL, "drivers", &back), -EINVAL);
	json_object_put(o);
}

/*
 * Every mechanism's short line, with typical evidence (the testbed's sizes:
 * four-letter slave names, rates in Mbit/s), fits one line of 100 columns:
 * the answer block's promise for the suite's three questions.
 */
static void test_every_mechanism_fits(void **state)
{
	static const char *const mechs[] = {
		"aggregator-selection", "active-slave", "slave-down", "hash-placement",
		"lacp-key", "shaper", "equal-shares", "reordering", "cpu-bound", "single-flow",
		"holds-back", "falls-short", "no-mismatch", "cost-nothing", "ceilings-unknown",
		"no-evidence", "unplaced", "active-ok", "active-low", "active-missing",
		"missing-input", "not-a-bond", "tx-loss", "wire-loss", "rx-loss-socket",
		"send-refused", "ledger-stage", "rate-search", "not-measured", "ceiling-unknown",
		"unattributed"};
	static const char *const questions[] = {"aggregation", "udp_gap", "drivers"};
	int bad = 0;

	(void)state;
	for (size_t q = 0; q < 3; q++)
		for (size_t i = 0; i < sizeof(mechs) / sizeof(mechs[0]); i++) {
			struct bc_verdict v;
			struct bc_answer a;
			const char *s;

			bc_verdict_init(&v, questions[q]);
			v.status = BC_VERDICT_FAIL;
			v.has_levels = true;
			v.lhs = q == 2 ? BC_CAP_POTENTIAL : BC_CAP_CARRIED;
			v.rhs = q == 2 ? BC_CAP_INSTALLED : BC_CAP_POTENTIAL;
			v.lhs_bps = 123.45e6;
			v.rhs_bps = 987.65e6;
			snprintf(v.mechanism, sizeof(v.mechanism), "%s", mechs[i]);
			snprintf(v.where, sizeof(v.where), "eth1");
			bc_verdict_add(&v, "ad_select", "stable");
			bc_verdict_add(&v, "best_slave", "eth0");
			bc_verdict_add(&v, "flows", "3");
			bc_verdict_add(&v, "qdisc", "tbf");
			bc_verdict_add(&v, "rate", "1.50 Mbit/s");
			bc_verdict_add(&v, "ceiling", "1.43 Mbit/s");
			bc_verdict_add(&v, "reord_seen", "66");
			bc_verdict_add(&v, "driver", "8139cp");
			bc_verdict_add(&v, "utilization", "91 %%");
			bc_verdict_add(&v, "mismatch", "driver, speed");
			bc_verdict_add(&v, "count", "1234");
			bc_verdict_add(&v, "stage", "arrived_on_link");
			if (q == 1) {
				bc_verdict_add(&v, "sent", "4650");
				bc_verdict_add(&v, "received", "4600");
			}
			bc_verdict_answer(&v, "Aggregation", &a);
			s = print(&a, 1, 100);
			if (strchr(s, '\n') != s + strlen(s) - 1) {
				print_error("%s/%s wraps at 100 columns: %s", questions[q], mechs[i],
					    s);
				bad++;
			}
		}
	assert_int_equal(bad, 0);
}

/* A run's answers from the mixed-drivers suite's udp-over result. */
static void test_run_answers(void **state)
{
	struct json_object *doc =
		json_object_from_file(BC_TEST_DATA "/run-suite/mixed-drivers-quick.json");
	struct json_object *ts, *res = NULL;
	char buf[2048];
	FILE *f;

	(void)state;
	assert_non_null(doc);
	ts = json_object_object_get(doc, "tests");
	for (size_t i = 0; i < bc_json_len(ts); i++)
		if (!strcmp(bc_json_str(json_object_array_get_idx(ts, i), "name"), "udp-over"))
			res = json_object_object_get(json_object_array_get_idx(ts, i), "result");
	assert_non_null(res);
	f = fmemopen(buf, sizeof(buf), "w");
	bc_run_report_answers(f, res);
	fclose(f);
	lines_within(buf, 100);
	assert_string_equal(
		buf,
		"Goodput      PASS   4.47 Mbit/s of a 4.38 Mbit/s ceiling (102 %), "
		"client-to-agent\n"
		"Loss         PASS   none of 465 datagrams\n"
		"Reordering   WARN   195 of 465 datagrams out of order, most rx:agent/eth1 behind "
		"rx:agent/eth0 (71)\n");
	json_object_put(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_words),	 cmocka_unit_test(test_columns),
		cmocka_unit_test(test_wrap_100),	 cmocka_unit_test(test_wrap_narrow),
		cmocka_unit_test(test_wrap_very_narrow), cmocka_unit_test(test_width),
		cmocka_unit_test(test_verdict_answer),	 cmocka_unit_test(test_run_answers),
		cmocka_unit_test(test_every_mechanism_fits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
