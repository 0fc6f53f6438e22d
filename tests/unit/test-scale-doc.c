// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scale document's analysis (bondcheck/scale-doc.h) on constructed
 * documents: the figures of the "gain" and "negative" cases of
 * tests/data/scale/welch-reference.py (mpmath), zero-goodput runs named,
 * verdict status and findings, causes from a constructed `run --capture`
 * result (reordering pairs mapped to the client slave by the learned
 * path, loss and idle findings, added links first).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/json-get.h"
#include "bondcheck/scale-doc.h"

#define assert_rel(got, want, rel)                                                                 \
	assert_true(fabs((double)(got) - (double)(want)) <= fabs((double)(want)) * (rel))

static struct json_object *config(const char *proto, int n, const char *slaves, double ceil,
				  const double *g, size_t runs, long long retrans)
{
	struct json_object *c = json_object_new_object(), *a = json_object_new_array();
	char buf[64], *tok, *save;

	json_object_object_add(c, "protocol", json_object_new_string(proto));
	json_object_object_add(c, "n", json_object_new_int(n));
	snprintf(buf, sizeof(buf), "%s", slaves);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		json_object_array_add(a, json_object_new_string(tok));
	json_object_object_add(c, "slaves", a);
	json_object_object_add(c, "ceiling_bps", json_object_new_double(ceil));
	a = json_object_new_array();
	for (size_t i = 0; i < runs; i++) {
		struct json_object *r = json_object_new_object();

		json_object_object_add(r, "rep", json_object_new_int((int)i + 1));
		json_object_object_add(r, "goodput_bps", json_object_new_double(g[i]));
		json_object_object_add(r, "retransmits", json_object_new_int64(retrans));
		json_object_object_add(r, "zero", json_object_new_boolean(g[i] <= 0));
		json_object_array_add(a, r);
	}
	json_object_object_add(c, "runs", a);
	return c;
}

static struct json_object *doc_with(struct json_object **cfgs, size_t n)
{
	struct json_object *d = json_object_new_object(), *a = json_object_new_array(), *b;

	b = json_object_new_object();
	json_object_object_add(b, "name", json_object_new_string("bond0"));
	json_object_object_add(d, "bond", b);
	json_object_object_add(d, "margin", json_object_new_double(0.05));
	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, cfgs[i]);
	json_object_object_add(d, "configs", a);
	return d;
}

static struct json_object *at(struct json_object *o, const char *k, size_t i)
{
	return json_object_array_get_idx(json_object_object_get(o, k), i);
}

/* reference cases "gain" (1 -> 2) and "negative" (2 -> 3, field note 1's figures) */
static const double g1[5] = {9.40e6, 9.52e6, 9.31e6, 9.47e6, 9.44e6};
static const double g2[5] = {18.7e6, 18.9e6, 18.4e6, 18.8e6, 18.6e6};
static const double n2[5] = {157.6e6, 155.1e6, 158.9e6, 156.0e6, 157.2e6};
static const double n3[5] = {138.7e6, 141.2e6, 136.9e6, 139.5e6, 137.8e6};

static void test_compare_and_conclude(void **state)
{
	struct json_object *cfgs[3], *d, *c, *f, *v;
	double h2[5], h3[5];

	(void)state;
	/* N = 2 and 3 are "negative" scaled by 1/8 (the ratios do not change) */
	for (int i = 0; i < 5; i++) {
		h2[i] = n2[i] / 8.0;
		h3[i] = n3[i] / 8.0;
	}
	/* given out of order: the comparisons follow N, not the array */
	cfgs[0] = config("tcp", 2, "eth0 eth1", 19.12e6, h2, 5, 2);
	cfgs[1] = config("tcp", 1, "eth0", 9.56e6, g1, 5, 1);
	cfgs[2] = config("tcp", 3, "eth0 eth1 eth2", 28.68e6, h3, 5, 900);
	d = doc_with(cfgs, 3);
	assert_int_equal(bc_scale_doc_compare(d, NULL), 0);
	/* per config: N = 1 is reference "gain" A: geo 9427733.36363, CI 9329756.5918-9526739.04202
	 */
	c = at(d, "configs", 1);
	assert_rel(bc_json_dbl(c, "geo_mean_bps", 0), 9427733.36363, 1e-10);
	assert_rel(bc_json_dbl(c, "ci_low_bps", 0), 9329756.5918, 1e-10);
	assert_rel(bc_json_dbl(c, "efficiency", 0), 9428000.0 / 9.56e6, 1e-12);
	/* 2 -> 3: the "negative" case (scaled by 1/8: ratios unchanged) */
	assert_int_equal(bc_json_len(json_object_object_get(d, "comparisons")), 2);
	c = at(d, "comparisons", 1);
	assert_int_equal(bc_json_i64(c, "from_n", 0), 2);
	assert_int_equal(bc_json_i64(c, "to_n", 0), 3);
	assert_string_equal(json_object_get_string(at(c, "added", 0)), "eth2");
	assert_rel(bc_json_dbl(c, "speedup", 0), 0.884410309708, 1e-9);
	assert_rel(bc_json_dbl(c, "ci_low", 0), 0.870619714905, 1e-9);
	assert_rel(bc_json_dbl(c, "ci_high", 0), 0.898419347193, 1e-9);
	assert_rel(bc_json_dbl(c, "df", 0), 7.58791637788, 1e-9);
	assert_string_equal(bc_json_str(c, "verdict"), "scaling-negative");
	/* marginal efficiency: (138.82 - 156.96) / 8 Mbit/s over the added 9.56 */
	assert_rel(bc_json_dbl(c, "marginal_efficiency", 0), (138.82e6 - 156.96e6) / 8 / 9.56e6,
		   1e-9);
	assert_rel(bc_json_dbl(c, "retransmits_to", 0), 900, 1e-12);
	/* 1 -> 2: geo means 19.619 / 9.4277 Mbit/s */
	c = at(d, "comparisons", 0);
	assert_string_equal(bc_json_str(c, "verdict"), "gain");
	assert_rel(bc_json_dbl(c, "speedup", 0), 156954513.694 / 8 / 9427733.36363, 1e-9);
	/* versus the smallest: 1 -> 2 and 1 -> 3 */
	assert_int_equal(bc_json_len(json_object_object_get(d, "versus_baseline")), 2);
	assert_int_equal(bc_json_i64(at(d, "versus_baseline", 1), "to_n", 0), 3);

	assert_int_equal(bc_scale_doc_conclude(d, NULL), 0);
	v = json_object_object_get(d, "verdict");
	assert_string_equal(bc_json_str(v, "status"), "fail");
	assert_non_null(strstr(bc_json_str(v, "text"), "TCP: 2 links beat 1 by 2.08x (95 % CI "));
	assert_non_null(strstr(bc_json_str(v, "text"),
			       "3 links are worse than 2: 0.88x (95 % CI 0.87-0.90), "
			       "scaling-negative"));
	f = at(d, "findings", 0);
	assert_int_equal(bc_json_len(json_object_object_get(d, "findings")), 1);
	assert_string_equal(bc_json_str(f, "id"), "scaling-negative");
	assert_string_equal(bc_json_str(f, "severity"), "error");
	assert_string_equal(bc_json_str(f, "subject"), "bond0");
	assert_string_equal(bc_json_str(json_object_object_get(f, "evidence"), "ci95"),
			    "0.871-0.898");
	/* concluding twice gives one finding, not two */
	assert_int_equal(bc_scale_doc_conclude(d, NULL), 0);
	assert_int_equal(bc_json_len(json_object_object_get(d, "findings")), 1);
	json_object_put(d);
}

static void test_reference_gain(void **state)
{
	struct json_object *cfgs[2] = {config("udp", 1, "eth0", 9.72e6, g1, 5, 0),
				       config("udp", 2, "eth0 eth1", 19.44e6, g2, 5, 0)};
	struct json_object *d = doc_with(cfgs, 2), *c;

	(void)state;
	assert_int_equal(bc_scale_doc_compare(d, NULL), 0);
	c = at(d, "comparisons", 0);
	assert_string_equal(bc_json_str(c, "protocol"), "udp");
	assert_rel(bc_json_dbl(c, "speedup", 0), 1.98130399026, 1e-9);
	assert_rel(bc_json_dbl(c, "welch_t", 0), 114.848546106, 1e-8);
	assert_rel(bc_json_dbl(c, "p", 0), 1.02237886592e-13, 1e-5);
	assert_rel(bc_json_dbl(c, "marginal_efficiency", 0), (18.68e6 - 9.428e6) / 9.72e6, 1e-9);
	/* UDP comparisons carry no retransmits */
	assert_null(json_object_object_get(c, "retransmits_to"));
	assert_int_equal(bc_scale_doc_conclude(d, NULL), 0);
	assert_string_equal(bc_json_str(json_object_object_get(d, "verdict"), "status"), "pass");
	assert_string_equal(bc_json_str(json_object_object_get(d, "verdict"), "text"),
			    "UDP: 2 links beat 1 by 1.98x (95 % CI 1.95-2.01).");
	assert_int_equal(bc_json_len(json_object_object_get(d, "findings")), 0);
	json_object_put(d);
}

static void test_zero_runs_named(void **state)
{
	double z[5] = {18.7e6, 0, 18.4e6, 0, 18.6e6};
	struct json_object *cfgs[2] = {config("tcp", 1, "eth0", 9.56e6, g1, 5, 0),
				       config("tcp", 2, "eth0 eth1", 19.12e6, z, 5, 0)};
	struct json_object *d = doc_with(cfgs, 2), *c;

	(void)state;
	assert_int_equal(bc_scale_doc_compare(d, NULL), 0);
	c = at(d, "configs", 1);
	assert_int_equal(bc_json_i64(c, "zero_runs", -1), 2);
	/* the arithmetic mean keeps the zeros; the geometric mean does not exist */
	assert_rel(bc_json_dbl(c, "mean_bps", 0), (18.7e6 + 18.4e6 + 18.6e6) / 5, 1e-12);
	assert_null(json_object_object_get(c, "geo_mean_bps"));
	c = at(d, "comparisons", 0);
	assert_string_equal(bc_json_str(c, "verdict"), "invalid");
	assert_false(json_object_get_boolean(json_object_object_get(c, "valid")));
	assert_null(json_object_object_get(c, "speedup"));
	assert_int_equal(bc_json_i64(at(c, "zero_runs", 1), "rep", 0), 4);
	assert_string_equal(bc_json_str(c, "text"),
			    "2 links vs 1: not compared, zero goodput in N=2 run 2, N=2 run 4");
	assert_int_equal(bc_scale_doc_conclude(d, NULL), 0);
	assert_string_equal(bc_json_str(json_object_object_get(d, "verdict"), "status"), "invalid");
	json_object_put(d);
}

static void test_bad_docs(void **state)
{
	struct json_object *d = json_object_new_object(), *cfgs[1];
	struct bc_error err = {0};
	double neg[2] = {1e6, -5};

	(void)state;
	assert_int_equal(bc_scale_doc_compare(d, &err), -EINVAL);
	bc_error_clear(&err);
	assert_int_equal(bc_scale_doc_conclude(d, &err), -EINVAL);
	json_object_put(d);
	cfgs[0] = config("tcp", 1, "eth0", 0, neg, 2, 0);
	d = doc_with(cfgs, 1);
	bc_error_clear(&err);
	assert_int_equal(bc_scale_doc_compare(d, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "goodput -5"));
	json_object_put(d);
}

/* A `run --capture` result: links with learned peers, reordering pairs, findings. */
static struct json_object *capture_result(void)
{
	static const char *text =
		"{\"findings\": ["
		" {\"id\": \"reordering\", \"subject\": \"rx:agent/eth2\", \"evidence\": {}},"
		" {\"id\": \"wire-loss\", \"subject\": \"tx:client/eth1\","
		"  \"evidence\": {\"count\": \"40\", \"of\": \"800\"}},"
		" {\"id\": \"rx-loss-socket\", \"subject\": \"agent/bond0\", \"evidence\": {}},"
		" {\"id\": \"link-idle\", \"subject\": \"tx:client/eth3\","
		"  \"evidence\": {\"frames\": \"2 of 9000\"}}],"
		" \"capture\": {\"analysis\": {"
		"  \"links\": [{\"name\": \"tx:client/eth0\", \"peer\": \"rx:agent/eth0\"},"
		"   {\"name\": \"tx:client/eth1\", \"peer\": \"rx:agent/eth1\"},"
		"   {\"name\": \"tx:client/eth2\", \"peer\": \"rx:agent/eth5\"},"
		"   {\"name\": \"rx:agent/eth0\", \"peer\": null}],"
		"  \"reordering\": {\"received\": 3000, \"reordered\": 400, \"reordered_ratio\": "
		"0.133,"
		"   \"pairs\": [{\"early_link\": \"rx:agent/eth0\", \"late_link\": "
		"\"rx:agent/eth5\", \"count\": 250},"
		"    {\"early_link\": \"rx:agent/eth1\", \"late_link\": \"rx:agent/eth5\", "
		"\"count\": 110},"
		"    {\"early_link\": \"rx:agent/eth5\", \"late_link\": \"rx:agent/eth0\", "
		"\"count\": 40}]}}}}";

	return json_tokener_parse(text);
}

static void test_causes(void **state)
{
	struct json_object *res = capture_result(), *causes, *c, *ev;
	const char *added[1] = {"eth2"};

	(void)state;
	assert_non_null(res);
	causes = bc_scale_cause(res, added, 1);
	/* reordering on the added eth2 first, then the loss on eth1, then the idle eth3;
	 * the host-wide rx-loss-socket names no link and is not a link's cause */
	assert_int_equal(bc_json_len(causes), 3);
	c = json_object_array_get_idx(causes, 0);
	assert_string_equal(bc_json_str(c, "kind"), "reordering");
	/* rx:agent/eth5 is where eth2's learned path ends */
	assert_string_equal(bc_json_str(c, "slave"), "eth2");
	assert_string_equal(bc_json_str(c, "capture_link"), "rx:agent/eth5");
	assert_true(json_object_get_boolean(json_object_object_get(c, "added")));
	ev = json_object_object_get(c, "evidence");
	assert_rel(bc_json_dbl(ev, "late_share", 0), 360.0 / 400.0, 1e-12);
	assert_string_equal(bc_json_str(c, "text"),
			    "reordering: 400 of 3000 datagrams arrived out of order, 90 % of the "
			    "reordering pairs late on eth2 (rx:agent/eth5)");
	c = json_object_array_get_idx(causes, 1);
	assert_string_equal(bc_json_str(c, "kind"), "loss");
	assert_string_equal(bc_json_str(c, "slave"), "eth1");
	assert_false(json_object_get_boolean(json_object_object_get(c, "added")));
	assert_string_equal(bc_json_str(c, "text"),
			    "loss on eth1: 40 of 800 datagrams (wire-loss, tx:client/eth1)");
	c = json_object_array_get_idx(causes, 2);
	assert_string_equal(bc_json_str(c, "kind"), "idle-link");
	assert_string_equal(bc_json_str(c, "slave"), "eth3");
	json_object_put(causes);
	/* nothing added in common: loss first by the order of kinds */
	causes = bc_scale_cause(res, NULL, 0);
	assert_string_equal(bc_json_str(json_object_array_get_idx(causes, 0), "kind"), "loss");
	json_object_put(causes);
	assert_null(bc_scale_cause(NULL, NULL, 0));
	json_object_put(res);
}

/* Below 1 % reordered and 0.1 % lost, a capture's figures are noise, not a cause. */
static void test_cause_thresholds(void **state)
{
	static const char *text =
		"{\"findings\": ["
		" {\"id\": \"reordering\", \"subject\": \"rx:agent/eth2\", \"evidence\": {}},"
		" {\"id\": \"wire-loss\", \"subject\": \"tx:client/eth1\","
		"  \"evidence\": {\"count\": \"1\", \"of\": \"2000\"}},"
		" {\"id\": \"wire-loss\", \"subject\": \"tx:client/eth0\","
		"  \"evidence\": {\"lost\": \"2\", \"left_bracketed\": \"2000\"}}],"
		" \"capture\": {\"analysis\": {"
		"  \"links\": [{\"name\": \"tx:client/eth2\", \"peer\": \"rx:agent/eth2\"}],"
		"  \"reordering\": {\"received\": 2473, \"reordered\": 1, \"reordered_ratio\": "
		"0.0004,"
		"   \"pairs\": [{\"early_link\": \"rx:agent/eth0\", \"late_link\": "
		"\"rx:agent/eth2\", \"count\": 1}]}}}}";
	struct json_object *res = json_tokener_parse(text), *causes;

	(void)state;
	assert_non_null(res);
	causes = bc_scale_cause(res, NULL, 0);
	/* 1 in 2000 (0.05 %) is below the loss threshold, 2 in 2000 (0.1 %) is not;
	 * 1 reordered datagram of 2473 is not a cause */
	assert_int_equal(bc_json_len(causes), 1);
	assert_string_equal(bc_json_str(json_object_array_get_idx(causes, 0), "slave"), "eth0");
	assert_string_equal(bc_json_str(json_object_array_get_idx(causes, 0), "text"),
			    "loss on eth0: 2 of 2000 packets (wire-loss, tx:client/eth0)");
	json_object_put(causes);
	json_object_put(res);
}

static void test_cause_in_text_and_finding(void **state)
{
	struct json_object *cfgs[2], *d, *c, *res, *causes, *f;
	const char *added[1] = {"eth2"};
	double a[5], b[5];

	(void)state;
	for (int i = 0; i < 5; i++) {
		a[i] = n2[i] / 8;
		b[i] = n3[i] / 8;
	}
	cfgs[0] = config("tcp", 2, "eth0 eth1", 19.12e6, a, 5, 3);
	cfgs[1] = config("tcp", 3, "eth0 eth1 eth2", 28.68e6, b, 5, 1200);
	d = doc_with(cfgs, 2);
	assert_int_equal(bc_scale_doc_compare(d, NULL), 0);
	c = at(d, "comparisons", 0);
	res = capture_result();
	causes = bc_scale_cause(res, added, 1);
	json_object_object_add(c, "cause", json_object_get(json_object_array_get_idx(causes, 0)));
	assert_int_equal(bc_scale_doc_conclude(d, NULL), 0);
	assert_non_null(strstr(bc_json_str(c, "text"),
			       "scaling-negative; cause: reordering: 400 of 3000 datagrams"));
	f = at(d, "findings", 0);
	assert_string_equal(bc_json_str(json_object_object_get(f, "evidence"), "cause"),
			    "reordering");
	assert_string_equal(bc_json_str(json_object_object_get(f, "evidence"), "cause_slave"),
			    "eth2");
	assert_non_null(strstr(bc_json_str(f, "advice"), "the capture shows reordering on eth2"));
	/* a re-analysis (another margin) keeps the cause */
	json_object_object_add(d, "margin", json_object_new_double(0.10));
	assert_int_equal(bc_scale_doc_compare(d, NULL), 0);
	assert_string_equal(
		bc_json_str(json_object_object_get(at(d, "comparisons", 0), "cause"), "slave"),
		"eth2");
	json_object_put(causes);
	json_object_put(res);
	json_object_put(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare_and_conclude),
		cmocka_unit_test(test_reference_gain),
		cmocka_unit_test(test_zero_runs_named),
		cmocka_unit_test(test_bad_docs),
		cmocka_unit_test(test_causes),
		cmocka_unit_test(test_cause_thresholds),
		cmocka_unit_test(test_cause_in_text_and_finding),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
