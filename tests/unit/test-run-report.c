// SPDX-License-Identifier: GPL-2.0-or-later
/* Text rendering of a run result and an interval, against expected text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "bondcheck/run-report.h"

static char *render(void (*fn)(FILE *, struct json_object *), const char *json)
{
	struct json_object *o = json_tokener_parse(json);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(o);
	fn(f, o);
	fclose(f);
	json_object_put(o);
	return buf;
}

static void test_result(void **state)
{
	static const char json[] =
		"{\"tmax_ms\":1000,\"streams\":[{\"id\":0,\"protocol\":\"udp\",\"direction\":"
		"\"client-to-agent\",\"client_port\":40000,\"agent_port\":5302,\"goodput_bps\":"
		"97200000,\"sent_packets\":33954,\"received_packets\":17003,\"lost_packets\":16951,"
		"\"duplicate_packets\":0,\"out_of_order_packets\":2,\"jitter_ms\":0.05,"
		"\"reordering\":{\"extent_max\":3,\"extent_p99\":3},\"send_errors\":0,"
		"\"limited_by\":\"none\"},{\"id\":1,\"protocol\":\"tcp\",\"direction\":"
		"\"agent-to-client\",\"client_port\":40001,\"agent_port\":5302,\"goodput_bps\":"
		"95600000,\"retransmits\":7}],\"sum\":{\"client-to-agent\":{\"goodput_bps\":"
		"97200000,"
		"\"ceiling_bps\":97225891,\"efficiency\":0.99973}},\"link\":{\"interface\":\"c0\","
		"\"rate_bps\":100000000,\"rate_source\":\"option\",\"accounting\":\"qdisc\","
		"\"mtu\":1500},"
		"\"notes\":[\"n1\"]}";
	static const char want[] =
		"\n"
		"Goodput      PASS   97.20 Mbit/s of a 97.23 Mbit/s ceiling (100 %), client-to-agent\n"
		"Loss         WARN   16951 of 33954 datagrams (49.92 %): locate it with --capture\n"
		"Reordering   WARN   2 of 17003 datagrams out of order: find the pair with --capture\n"
		"\nResults (Tmax 1000 ms; goodput from the end of --omit to the last arrival)\n"
		"#0   udp -> 40000->5302    97.20 Mbit/s  sent 33954  received 17003  lost 16951  "
		"dup 0  ooo 2  jitter 0.050 ms  extent max 3 p99 3\n"
		"#1   tcp <- 40001->5302    95.60 Mbit/s  retransmits 7\n"
		"sum client-to-agent    97.20 Mbit/s  ceiling 97.23 Mbit/s  efficiency 100.0 %\n"
		"link c0: 100.00 Mbit/s from option, qdisc accounting, MTU 1500\n"
		"note: n1\n";
	char *got = render(bc_run_report_text, json);

	(void)state;
	assert_string_equal(got, want);
	free(got);
}

/* a link without a known rate (lo): no "0 bit/s from none" (issue 15) */
static void test_link_rate_unknown(void **state)
{
	static const char json[] =
		"{\"tmax_ms\":1000,\"streams\":[],\"link\":{\"interface\":\"lo\",\"rate_bps\":0,"
		"\"rate_source\":\"none\",\"accounting\":\"ethernet\",\"mtu\":65536}}";
	static const char want[] =
		"\nGoodput      UNSURE no stream finished\n"
		"Loss         UNSURE no stream finished\n"
		"Reordering   N/A    TCP: needs --capture\n"
		"\nResults (Tmax 1000 ms; goodput from the end of --omit to the last arrival)\n"
		"link lo: rate unknown (no qdisc, speed or --link-rate gives one), ethernet "
		"accounting, MTU 65536\n";
	char *got = render(bc_run_report_text, json);

	(void)state;
	assert_string_equal(got, want);
	free(got);
}

static void test_interval(void **state)
{
	static const char json[] =
		"{\"start_s\":1.0,\"end_s\":2.0,\"sum_goodput_bps\":1.5e9,\"streams\":["
		"{\"id\":0,\"direction\":\"client-to-agent\",\"goodput_bps\":1e9,\"retransmits\":2,"
		"\"rtt_us\":150,\"snd_cwnd\":40},{\"id\":1,\"direction\":\"agent-to-client\","
		"\"goodput_bps\":5e8,\"sent_packets\":10,\"received_packets\":9,\"lost_packets\":1,"
		"\"out_of_order_packets\":0}]}";
	static const char want[] =
		"[  1.0-  2.0 s] #0   ->   1.000 Gbit/s  retr 2  rtt 150 us  cwnd 40\n"
		"[  1.0-  2.0 s] #1   <-  500.00 Mbit/s  sent 10  recv 9  lost 1  ooo 0\n"
		"[  1.0-  2.0 s] sum       1.500 Gbit/s\n";
	char *got = render(bc_run_report_interval, json);

	(void)state;
	assert_string_equal(got, want);
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_result),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_link_rate_unknown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
