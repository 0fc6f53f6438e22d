// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The client's clock offset estimate and one-way delay correction
 * (workflow/client-result.h bc_clock_sample, bc_client_clock) on
 * constructed exchanges and stream objects, exact values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/json-get.h"
#include "workflow/client-result.h"

static struct json_object *reply(int64_t time_ns)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string("challenge"));
	json_object_object_add(o, "time_ns", json_object_new_int64(time_ns));
	return o;
}

/* The exchange with the smallest round trip wins; offset = a - (t1 + t4) / 2. */
static void test_sample_best(void **state)
{
	const uint64_t T = 1800000000000000000ull; /* 2027, ns */
	struct bc_clock_est ce = {0};
	struct json_object *m;

	(void)state;
	/* agent 5 s ahead; the reply stamped 300 us into an 1 ms round trip */
	m = reply((int64_t)(T + 5000000000ull + 300000));
	bc_clock_sample(&ce, m, T, T + 1000000);
	json_object_put(m);
	assert_int_equal(ce.n, 1);
	assert_int_equal(ce.offset_ns, 5000000000ll - 200000);
	assert_int_equal(ce.bound_ns, 500000);
	/* a tighter exchange later: 200 us round trip, stamped at 100 us */
	m = reply((int64_t)(T + 7000000 + 5000000000ull + 100000));
	bc_clock_sample(&ce, m, T + 7000000, T + 7200000);
	json_object_put(m);
	assert_int_equal(ce.n, 2);
	assert_int_equal(ce.offset_ns, 5000000000ll);
	assert_int_equal(ce.bound_ns, 100000);
	/* a looser one does not replace it */
	m = reply((int64_t)(T + 9000000 + 5000000000ull));
	bc_clock_sample(&ce, m, T + 9000000, T + 19000000);
	json_object_put(m);
	assert_int_equal(ce.n, 3);
	assert_int_equal(ce.bound_ns, 100000);
	/* no time_ns (an older agent), or our clock stepped back: ignored */
	m = json_object_new_object();
	bc_clock_sample(&ce, m, T, T + 10);
	json_object_put(m);
	m = reply((int64_t)T);
	bc_clock_sample(&ce, m, T + 10, T);
	json_object_put(m);
	assert_int_equal(ce.n, 3);
}

static struct json_object *stream(const char *dir, double tmin, double tmax)
{
	struct json_object *s = json_object_new_object(), *rx = json_object_new_object();

	json_object_object_add(s, "direction", json_object_new_string(dir));
	json_object_object_add(rx, "transit_min_ms", json_object_new_double(tmin));
	json_object_object_add(rx, "transit_max_ms", json_object_new_double(tmax));
	json_object_object_add(s, "receiver", rx);
	return s;
}

/*
 * Agent 5000 ms ahead (+- 0.1): a forward stream's transit (agent receive
 * minus client stamp) is delay + 5000, a reverse stream's delay - 5000.
 */
static void test_correct(void **state)
{
	struct bc_clock_est ce = {.n = 2, .offset_ns = 5000000000ll, .bound_ns = 100000};
	struct json_object *res = json_object_new_object(), *streams = json_object_new_array();
	struct json_object *notes = json_object_new_array(), *d, *c;

	(void)state;
	json_object_array_add(streams, stream("client-to-agent", 5000.25, 5003.0));
	json_object_array_add(streams, stream("agent-to-client", -4999.5, -4990.0));
	json_object_array_add(streams, json_object_new_object()); /* TCP: no transit */
	bc_client_clock(&ce, res, streams, notes);
	c = json_object_object_get(res, "clock");
	assert_true(bc_json_dbl(c, "agent_minus_client_ms", 0) == 5000.0);
	assert_true(bc_json_dbl(c, "bound_ms", 0) == 0.1);
	assert_false(json_object_get_boolean(json_object_object_get(c, "synchronized")));
	d = json_object_object_get(json_object_array_get_idx(streams, 0), "one_way_delay");
	assert_true(bc_json_dbl(d, "min_ms", -1) > 0.2499 && bc_json_dbl(d, "min_ms", -1) < 0.2501);
	assert_true(bc_json_dbl(d, "max_ms", -1) == 3.0);
	assert_true(bc_json_dbl(d, "bound_ms", -1) == 0.1);
	d = json_object_object_get(json_object_array_get_idx(streams, 1), "one_way_delay");
	assert_true(bc_json_dbl(d, "min_ms", -1) == 0.5);
	assert_true(bc_json_dbl(d, "max_ms", -1) == 10.0);
	/* the raw transit left the receiver objects */
	assert_null(json_object_object_get(
		json_object_object_get(json_object_array_get_idx(streams, 0), "receiver"),
		"transit_min_ms"));
	assert_int_equal(json_object_array_length(notes), 1);
	assert_non_null(strstr(json_object_get_string(json_object_array_get_idx(notes, 0)),
			       "5000.000 ms ahead of this host's (+- 0.100 ms)"));
	json_object_put(res);
	json_object_put(streams);
	json_object_put(notes);
}

/* Same clock (offset within its bound): synchronized, no note. */
static void test_synchronized(void **state)
{
	struct bc_clock_est ce = {.n = 1, .offset_ns = -50000, .bound_ns = 80000};
	struct json_object *res = json_object_new_object(), *streams = json_object_new_array();
	struct json_object *notes = json_object_new_array();

	(void)state;
	json_object_array_add(streams, stream("client-to-agent", 0.1, 0.4));
	bc_client_clock(&ce, res, streams, notes);
	assert_true(json_object_get_boolean(
		json_object_object_get(json_object_object_get(res, "clock"), "synchronized")));
	assert_int_equal(json_object_array_length(notes), 0);
	json_object_put(res);
	json_object_put(streams);
	json_object_put(notes);
}

/* No estimate (older agent): no clock, no one-way delay, no raw transit, a note. */
static void test_no_estimate(void **state)
{
	struct bc_clock_est ce = {0};
	struct json_object *res = json_object_new_object(), *streams = json_object_new_array();
	struct json_object *notes = json_object_new_array(), *s;

	(void)state;
	json_object_array_add(streams, stream("client-to-agent", 5000.25, 5003.0));
	bc_client_clock(&ce, res, streams, notes);
	s = json_object_array_get_idx(streams, 0);
	assert_null(json_object_object_get(res, "clock"));
	assert_null(json_object_object_get(s, "one_way_delay"));
	assert_null(
		json_object_object_get(json_object_object_get(s, "receiver"), "transit_min_ms"));
	assert_int_equal(json_object_array_length(notes), 1);
	assert_non_null(strstr(json_object_get_string(json_object_array_get_idx(notes, 0)),
			       "one-way delay: not reported"));
	json_object_put(res);
	json_object_put(streams);
	json_object_put(notes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_best),
		cmocka_unit_test(test_correct),
		cmocka_unit_test(test_synchronized),
		cmocka_unit_test(test_no_estimate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
