// SPDX-License-Identifier: GPL-2.0-or-later
/* Test plan: JSON round trip, validation messages, agent limits. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/plan.h"

static void test_roundtrip(void **state)
{
	struct bc_plan p, q;
	struct json_object *o;

	(void)state;
	bc_plan_defaults(&p);
	p.proto = BC_L4_UDP;
	p.streams = 3;
	p.dir = BC_DIR_BIDIR;
	p.rate_bps = 12345678901ull;
	p.length = 65507;
	p.test_id = 0xfffffffe;
	o = bc_plan_to_json(&p);
	assert_int_equal(bc_plan_from_json(o, NULL, &q, NULL), 0);
	json_object_put(o);
	assert_memory_equal(&p, &q, sizeof(p));
	assert_int_equal(bc_plan_total_streams(&q), 6);
	assert_false(bc_plan_stream_reverse(&q, 2));
	assert_true(bc_plan_stream_reverse(&q, 3));
	/* failover's capture of neighbour announcements: only with a capture */
	p.capture = BC_PLAN_CAPTURE_VERSION;
	p.capture_neigh = true;
	o = bc_plan_to_json(&p);
	assert_true(json_object_get_boolean(json_object_object_get(o, "capture_neigh")));
	assert_int_equal(bc_plan_from_json(o, NULL, &q, NULL), 0);
	json_object_put(o);
	assert_true(q.capture_neigh);
	/* the capture source: a word on the wire, absent for pcap (older agents) */
	o = bc_plan_to_json(&p);
	assert_null(json_object_object_get(o, "capture_source"));
	json_object_put(o);
	p.capture_source = 3;
	o = bc_plan_to_json(&p);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "capture_source")),
			    "both");
	assert_int_equal(bc_plan_from_json(o, NULL, &q, NULL), 0);
	assert_int_equal(q.capture_source, 3);
	json_object_object_add(o, "capture_source", json_object_new_string("ebpf"));
	assert_int_equal(bc_plan_from_json(o, NULL, &q, NULL), -EINVAL);
	json_object_object_add(o, "capture_source", json_object_new_int(2));
	assert_int_equal(bc_plan_from_json(o, NULL, &q, NULL), -EINVAL);
	json_object_put(o);
	p.capture_source = 0;
	p.capture = 0;
	o = bc_plan_to_json(&p);
	assert_null(json_object_object_get(o, "capture_neigh"));
	json_object_put(o);
}

static void test_validation(void **state)
{
	struct bc_plan p;
	struct bc_error err = {0};
	struct bc_plan_limits lim = {
		.max_streams = 4, .max_duration_ms = 5000, .max_rate_bps = 100000000};

	(void)state;
	bc_plan_defaults(&p);
	p.proto = BC_L4_UDP;
	p.length = 65508;
	assert_int_equal(bc_plan_check(&p, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "32..65507"));
	p.family = 6;
	assert_int_equal(bc_plan_check(&p, NULL, NULL), 0); /* 65508 fits IPv6's 65527 */
	p.length = 31;
	assert_int_equal(bc_plan_check(&p, NULL, NULL), -EINVAL);
	p.length = 1472;
	p.omit_ms = p.duration_ms;
	assert_int_equal(bc_plan_check(&p, NULL, NULL), -EINVAL);
	p.omit_ms = 0;
	p.dport = 65535;
	p.streams = 2;
	assert_int_equal(bc_plan_check(&p, NULL, NULL), -EINVAL);
	p.dport = 5302;
	/* agent limits: 10 s > 5 s; 2 x 60 Mbit/s > 100 Mbit/s; unpaced refused; 6 streams > 4 */
	p.rate_bps = 50000000;
	bc_error_clear(&err);
	assert_int_equal(bc_plan_check(&p, &lim, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "at most 5000 ms"));
	p.duration_ms = 5000;
	p.rate_bps = 60000000;
	bc_error_clear(&err);
	assert_int_equal(bc_plan_check(&p, &lim, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "rate"));
	p.rate_bps = 0;
	assert_int_equal(bc_plan_check(&p, &lim, NULL), -EINVAL);
	p.rate_bps = 50000000;
	assert_int_equal(bc_plan_check(&p, &lim, NULL), 0);
	p.dir = BC_DIR_BIDIR;
	p.streams = 3;
	p.rate_bps = 1000;
	bc_error_clear(&err);
	assert_int_equal(bc_plan_check(&p, &lim, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "at most 4"));
}

/* TCP streams alongside a UDP plan (`failover --tcp`): numbering, JSON, limits. */
static void test_tcp_alongside(void **state)
{
	struct bc_plan p, q;
	struct bc_error err = {0};
	struct bc_plan_limits lim = {.max_streams = 4, .max_rate_bps = 10000000};
	struct json_object *o;

	(void)state;
	bc_plan_defaults(&p);
	p.proto = BC_L4_UDP;
	p.dir = BC_DIR_BIDIR;
	p.streams = 1;
	p.length = 256;
	p.rate_bps = 2000000;
	/* absent when none: agents from before the member see the plan they know */
	o = bc_plan_to_json(&p);
	assert_null(json_object_object_get(o, "tcp_streams"));
	json_object_put(o);
	p.tcp_streams = 1;
	p.tcp_rate_bps = 4000000;
	o = bc_plan_to_json(&p);
	assert_int_equal(json_object_get_int(json_object_object_get(o, "tcp_streams")), 1);
	assert_int_equal(bc_plan_from_json(o, &lim, &q, &err), 0);
	json_object_put(o);
	assert_memory_equal(&p, &q, sizeof(p));
	/* UDP 0 forward, 1 reverse; the TCP stream after them, forward */
	assert_int_equal(bc_plan_total_streams(&q), 2);
	assert_int_equal(bc_plan_all_streams(&q), 3);
	assert_false(bc_plan_stream_tcp(&q, 1));
	assert_true(bc_plan_stream_reverse(&q, 1));
	assert_true(bc_plan_stream_tcp(&q, 2));
	assert_false(bc_plan_stream_reverse(&q, 2));
	/* the agent's caps count it: 2 x 2 + 4 Mbit/s = 8 <= 10; 2 x 2 + 7 > 10 */
	p.tcp_rate_bps = 7000000;
	bc_error_clear(&err);
	assert_int_equal(bc_plan_check(&p, &lim, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "above the cap"));
	/* unpaced TCP beside capped UDP is refused like unpaced UDP */
	p.tcp_rate_bps = 0;
	bc_error_clear(&err);
	assert_int_equal(bc_plan_check(&p, &lim, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "unpaced"));
	bc_error_clear(&err);
	assert_int_equal(bc_plan_check(&p, NULL, &err), 0);
	/* streams: 2 UDP + 3 TCP = 5 > 4 */
	p.tcp_streams = 3;
	p.tcp_rate_bps = 1000;
	bc_error_clear(&err);
	assert_int_equal(bc_plan_check(&p, &lim, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "streams: 5"));
	p.tcp_streams = BC_PLAN_MAX_TCP_ALONGSIDE + 1;
	bc_error_clear(&err);
	assert_int_equal(bc_plan_check(&p, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "tcp_streams"));
	/* only beside UDP */
	p.tcp_streams = 1;
	p.proto = BC_L4_TCP;
	p.length = 1000;
	bc_error_clear(&err);
	assert_int_equal(bc_plan_check(&p, NULL, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "need a UDP plan"));
	/* a bad member from the wire */
	p.proto = BC_L4_UDP;
	p.length = 256;
	o = bc_plan_to_json(&p);
	json_object_object_add(o, "tcp_streams", json_object_new_string("one"));
	bc_error_clear(&err);
	assert_int_equal(bc_plan_from_json(o, NULL, &q, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "\"tcp_streams\""));
	json_object_put(o);
}

static void test_bad_json(void **state)
{
	struct bc_plan p;
	struct json_object *o;

	(void)state;
	bc_plan_defaults(&p);
	o = bc_plan_to_json(&p);
	json_object_object_add(o, "direction", json_object_new_string("sideways"));
	assert_int_equal(bc_plan_from_json(o, NULL, &p, NULL), -EINVAL);
	json_object_object_add(o, "direction", json_object_new_string("forward"));
	json_object_object_add(o, "streams", json_object_new_int(-1));
	assert_int_equal(bc_plan_from_json(o, NULL, &p, NULL), -EINVAL);
	json_object_object_add(o, "streams", json_object_new_string("2"));
	assert_int_equal(bc_plan_from_json(o, NULL, &p, NULL), -EINVAL);
	json_object_object_del(o, "streams");
	assert_int_equal(bc_plan_from_json(o, NULL, &p, NULL), -EINVAL);
	json_object_put(o);
	assert_int_equal(bc_plan_from_json(NULL, NULL, &p, NULL), -EINVAL);
}

/* A datagram length derived from an MTU fits the UDP length field (issue 15:
 * lo's MTU 65536 gave 65508 for IPv4, which the client then refused). */
static void test_length_for_mtu(void **state)
{
	struct bc_plan p;

	(void)state;
	assert_int_equal(bc_plan_length_for_mtu(1500, 4), 1472);
	assert_int_equal(bc_plan_length_for_mtu(1500, 6), 1452);
	assert_int_equal(bc_plan_length_for_mtu(9000, 4), 8972);
	assert_int_equal(bc_plan_length_for_mtu(65536, 4), 65507);
	assert_int_equal(bc_plan_length_for_mtu(65536, 6), 65488);
	assert_int_equal(bc_plan_length_for_mtu(65535, 4), 65507);
	assert_int_equal(bc_plan_length_for_mtu(65535, 6), 65487);
	assert_int_equal(bc_plan_length_for_mtu(0, 4), 32);
	assert_int_equal(bc_plan_length_for_mtu(20, 6), 32);
	/* and the plan takes it */
	bc_plan_defaults(&p);
	p.proto = BC_L4_UDP;
	p.family = 4;
	p.length = bc_plan_length_for_mtu(65536, 4);
	assert_int_equal(bc_plan_check(&p, NULL, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_bad_json),
		cmocka_unit_test(test_tcp_alongside),
		cmocka_unit_test(test_length_for_mtu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
