// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The suite's text report on constructed documents: the numbers of one
 * screen agree with each other (issue 15 item 3).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/suite-report.h"

/* the report of @json, its wrapped lines joined (a line break and the
 * indent after it become one space), so that checks do not depend on where
 * a line wraps */
static char *render(const char *json)
{
	struct json_object *o = json_tokener_parse(json);
	char *buf = NULL, *w, *r;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(o);
	bc_suite_report_text(f, o);
	fclose(f);
	json_object_put(o);
	for (r = w = buf; *r; r++) {
		if (*r == '\n' && r[1] == ' ' && r[2] == ' ' && r[3] == ' ' && r[4] == ' ') {
			*w++ = ' ';
			while (r[1] == ' ')
				r++;
			continue;
		}
		*w++ = *r;
	}
	*w = 0;
	return buf;
}

/* @s holds @want; prints the report when not */
static void has(const char *s, const char *want)
{
	if (!strstr(s, want))
		fprintf(stderr, "wanted '%s' in:\n%s\n", want, s);
	assert_non_null(strstr(s, want));
}

static void hasnt(const char *s, const char *want)
{
	if (strstr(s, want))
		fprintf(stderr, "did not want '%s' in:\n%s\n", want, s);
	assert_null(strstr(s, want));
}

/* shares of one test and end shown add up to 100 %: 34+34+33 was 101 */
static void test_shares_add_up(void **state)
{
	char *got = render("{\"links\":["
			   "{\"test\":\"tcp-k\",\"end\":\"client\",\"name\":\"eth0\",\"share\":0.336},"
			   "{\"test\":\"tcp-k\",\"end\":\"client\",\"name\":\"eth1\",\"share\":0.336},"
			   "{\"test\":\"tcp-k\",\"end\":\"client\",\"name\":\"eth2\",\"share\":0.328},"
			   "{\"test\":\"tcp-k\",\"end\":\"agent\",\"name\":\"eth0\",\"share\":1}]}");
	(void)state;
	has(got, "eth0     -                       -             -   34 %");
	has(got, "eth1     -                       -             -   33 %");
	has(got, "eth2     -                       -             -   33 %");
	has(got, "agent  eth0     -                       -             -  100 %");
	free(got);
}

/* a recorded note's dangling "Resolution: ..." goes; a resolution has its value */
static void test_resolution_has_a_value(void **state)
{
	char *got = render(
		"{\"udp_search\":{\"trials\":[{},{}],\"trial_s\":0.75,\"length\":1472,"
		"\"start_bps\":4e6,\"no_drop_rate_bps\":4e6,\"resolution_bps\":5e5,"
		"\"pdr_rate_bps\":4e6,\"note\":\"RFC 2544 (26.1) asks for more. Resolution: the "
		"last drop-free and the lowest dropping rate.\"}}");
	(void)state;
	hasnt(got, "Resolution:");
	has(got, "resolution 500.00 kbit/s (the step from the last drop-free");
	free(got);
}

/* the heading counts the lines listed, and each end's findings */
static void test_findings_count(void **state)
{
	char *got = render(
		"{\"findings\":["
		"{\"id\":\"a\",\"subject\":\"bond0\",\"end\":\"client\",\"severity\":\"warning\","
		"\"evidence\":{\"x\":1}},"
		"{\"id\":\"a\",\"subject\":\"bond0\",\"end\":\"agent\",\"severity\":\"warning\","
		"\"evidence\":{\"x\":1}},"
		"{\"id\":\"b\",\"subject\":\"bond0\",\"end\":\"agent\",\"severity\":\"info\","
		"\"evidence\":{\"x\":1}}]}");
	(void)state;
	has(got, "Findings (2 listed: 1 alike on both ends, 1 on one end alone; client 1, agent 2)");
	free(got);
}

/* a link's pair with itself is shown as order changed within that link */
static void test_same_link_pair(void **state)
{
	char *got = render(
		"{\"reordering\":{\"udp\":{\"out_of_order\":9,\"received\":100,"
		"\"reorder_density\":{\"0\":91},\"capture\":{\"reordered\":9,\"pairs\":["
		"{\"early_link\":\"rx:agent/eth0\",\"late_link\":\"rx:agent/eth1\",\"count\":2},"
		"{\"early_link\":\"rx:agent/eth1\",\"late_link\":\"rx:agent/eth1\",\"count\":7}"
		"]}}}}");
	(void)state;
	hasnt(got, "behind rx:agent/eth1");
	has(got, "late on rx:agent/eth1 behind rx:agent/eth0");
	has(got, "out of order within rx:agent/eth1");
	free(got);
}

/* a document without the reorder density renders (it crashed) */
static void test_no_density(void **state)
{
	char *got = render("{\"reordering\":{\"udp\":{\"out_of_order\":0,\"received\":1}}}");

	(void)state;
	has(got, "UDP (udp-over): 0 of 1 datagrams");
	free(got);
}

/* a recorded top pair (71) beside n_reordered (49) is given with its total */
static void test_legacy_top_pair(void **state)
{
	char *got = render(
		"{\"reordering\":{\"udp\":{\"test\":\"udp-over\",\"out_of_order\":195,"
		"\"received\":465,\"reorder_density\":{},\"capture\":{\"reordered\":194}}},"
		"\"findings\":[{\"id\":\"reordering\",\"severity\":\"warning\",\"subject\":"
		"\"rx:agent/eth1\",\"source\":\"udp-over\",\"end\":\"agent\",\"evidence\":{"
		"\"n_reordered\":\"49 datagrams 3-reordered\",\"top_pair\":\"rx:agent/eth1 late "
		"behind rx:agent/eth0: 71\"}}]}");
	(void)state;
	has(got, "top_pair=rx:agent/eth1 late behind rx:agent/eth0: 71 of the 194 late;");
	free(got);
}

/* sent and received rates over different windows: both windows named */
static void test_rate_windows(void **state)
{
	char *got = render(
		"{\"tests\":[{\"name\":\"udp-over\",\"role\":\"over-rate\",\"result\":{"
		"\"goodput_bps\":4470000,\"test\":{\"protocol\":\"udp\",\"duration_ms\":1000,"
		"\"omit_ms\":0},\"streams\":[{\"sent_packets\":455,\"received_packets\":455,"
		"\"sent_bytes\":670000,\"received_bytes\":670000,\"goodput_bps\":4470000,"
		"\"offered_bps\":5360000,\"receiver\":{\"measured_seconds\":1.2}}]}}]}");
	(void)state;
	has(got, "sent 455 in 1.00 s (5.36 Mbit/s), received 455 in 1.20 s to the last arrival");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shares_add_up),
		cmocka_unit_test(test_resolution_has_a_value),
		cmocka_unit_test(test_findings_count),
		cmocka_unit_test(test_same_link_pair),
		cmocka_unit_test(test_no_density),
		cmocka_unit_test(test_legacy_top_pair),
		cmocka_unit_test(test_rate_windows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
