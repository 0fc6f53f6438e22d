// SPDX-License-Identifier: GPL-2.0-or-later
/* bondcheck/watch.h: intervals from samples, and the verdicts of a watch. */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/watch-report.h"
#include "bondcheck/watch.h"

static struct bc_watch_sample *sample(int64_t t_ns, int mode, const char *policy)
{
	struct bc_watch_sample *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	s->mono_ns = t_ns;
	s->mode = mode;
	snprintf(s->policy, sizeof(s->policy), "%s", policy);
	s->tcp_counters = true;
	return s;
}

static void slave(struct bc_watch_sample *s, const char *name, bool usable, uint64_t tx,
		  uint64_t rx)
{
	struct bc_watch_slave *w = &s->slaves[s->n_slaves++];

	snprintf(w->name, sizeof(w->name), "%s", name);
	w->up = true;
	w->usable = usable;
	w->tx_bytes = tx;
	w->rx_bytes = rx;
}

static void flow(struct bc_watch_sample *s, uint64_t cookie, uint16_t sport, uint16_t dport,
		 uint64_t tx, uint64_t rx, int tx_slave)
{
	struct bc_watch_flow *f = &s->flows[s->n_flows++];

	f->cookie = cookie;
	f->flow.family = AF_INET;
	f->flow.sport = sport;
	f->flow.dport = dport;
	f->tx_bytes = tx;
	f->rx_bytes = rx;
	f->tx_slave = tx_slave;
	f->tx_src = tx_slave >= 0 ? BC_WATCH_SRC_PREDICTED : BC_WATCH_SRC_UNKNOWN;
	f->rx_slave = -1;
}

/* Rates, shares, slaves added and removed, a counter that went back, flows by cookie. */
static void test_delta(void **state)
{
	struct bc_watch_sample *a = sample(1000000000, BC_MODE_XOR, "layer3+4");
	struct bc_watch_sample *b = sample(3000000000, BC_MODE_XOR, "layer3+4");
	struct bc_watch_interval *iv = calloc(1, sizeof(*iv));

	(void)state;
	slave(a, "eth0", true, 1000, 0);
	slave(a, "eth1", true, 5000, 0);
	slave(a, "eth9", true, 0, 0);
	slave(b, "eth0", true, 1000 + 750000, 250000); /* 3 Mbit/s tx, 1 Mbit/s rx over 2 s */
	slave(b, "eth1", true, 4000, 0);		/* went back: 0 */
	slave(b, "eth2", true, 999999, 0);		/* new: no rate yet */
	b->tcp_retrans_segs = a->tcp_retrans_segs = 7;
	a->tcp_reorder = 10;
	b->tcp_reorder = 15;
	flow(a, 42, 40000, 5201, 100, 0, 0);
	flow(b, 42, 40000, 5201, 100 + 500000, 0, 0); /* 2 Mbit/s */
	flow(b, 43, 40001, 5201, 250000, 0, 1);	      /* opened since: all of it, 1 Mbit/s */
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	assert_true(iv->dt_s > 1.999 && iv->dt_s < 2.001);
	assert_int_equal(iv->n_slaves, 3);
	assert_true(iv->slaves[0].tx_bps > 2999999 && iv->slaves[0].tx_bps < 3000001);
	assert_true(iv->slaves[0].rx_bps > 999999 && iv->slaves[0].rx_bps < 1000001);
	assert_true(iv->slaves[1].tx_bps == 0);
	assert_true(iv->slaves[2].tx_bps == 0);
	assert_true(iv->slaves[0].tx_share > 0.999);
	assert_int_equal(iv->n_added, 1);
	assert_string_equal(iv->added[0], "eth2");
	assert_int_equal(iv->n_removed, 1);
	assert_string_equal(iv->removed[0], "eth9");
	assert_int_equal(iv->tcp_reorder, 5);
	assert_int_equal(iv->tcp_retrans_segs, 0);
	assert_int_equal(iv->n_flows, 2);
	/* busiest first */
	assert_int_equal(iv->flows[0].flow.sport, 40000);
	assert_true(iv->flows[0].tx_bps > 1999999 && iv->flows[0].tx_bps < 2000001);
	assert_true(iv->flows[1].tx_bps > 999999 && iv->flows[1].tx_bps < 1000001);
	assert_true(iv->slaves[0].predicted_tx_bps > 1999999);
	assert_true(iv->slaves[1].predicted_tx_bps > 999999);
	/* not later: refused */
	assert_int_equal(bc_watch_delta(b, a, iv), -EINVAL);
	free(a);
	free(b);
	free(iv);
}

/* The taps' flow table evictions per interval: a delta, or all of them after a reattach. */
static void test_tap_evictions(void **state)
{
	struct bc_watch_sample *a = sample(1000000000, BC_MODE_XOR, "layer3+4");
	struct bc_watch_sample *b = sample(2000000000, BC_MODE_XOR, "layer3+4");
	struct bc_watch_interval *iv = calloc(1, sizeof(*iv));
	struct json_object *o;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	slave(a, "eth0", true, 0, 0);
	slave(b, "eth0", true, 0, 0);
	a->taps = b->taps = true;
	a->tap_since_ns = b->tap_since_ns = 500000000;
	a->tap_flow_evicted = 1000;
	b->tap_flow_evicted = 1234;
	b->tap_flow_entries = b->tap_flow_capacity = 64;
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	assert_true(iv->taps);
	assert_int_equal(iv->tap_flow_evicted, 234);
	assert_int_equal(iv->tap_flow_entries, 64);
	assert_int_equal(iv->tap_flow_capacity, 64);

	o = bc_watch_json_interval(iv, 1.0);
	assert_int_equal(json_object_get_int64(json_object_object_get(o, "tap_flow_evicted")), 234);
	assert_int_equal(json_object_get_int64(json_object_object_get(o, "tap_flow_entries")), 64);
	json_object_put(o);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	bc_watch_text_interval(f, iv, 1.0, false, 0, 5);
	bc_watch_text_interval(f, iv, 1.0, true, 0, 5);
	fclose(f);
	assert_non_null(strstr(text, " | taps evicted 234 flows\n"));
	assert_non_null(strstr(text, "flow table 64 of 64 entries, 234 evicted"));
	free(text);

	/* reattached in the interval (a slave came): its counters start at 0 */
	b->tap_since_ns = 1500000000;
	b->tap_flow_evicted = 7;
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	assert_int_equal(iv->tap_flow_evicted, 7);
	/* no taps before: all since the attach */
	a->taps = false;
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	assert_int_equal(iv->tap_flow_evicted, 7);
	/* no taps now: none, and null in the JSON */
	b->taps = false;
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	assert_false(iv->taps);
	assert_int_equal(iv->tap_flow_evicted, 0);
	o = bc_watch_json_interval(iv, 1.0);
	assert_true(json_object_object_get_ex(o, "tap_flow_evicted", NULL));
	assert_null(json_object_object_get(o, "tap_flow_evicted"));
	json_object_put(o);
	free(a);
	free(b);
	free(iv);
}

/* One TCP connection carries a balance-xor bond: pinned to eth0, eth1 idle. */
static void test_single_flow_nfs(void **state)
{
	struct bc_watch_sample *a = sample(0, BC_MODE_XOR, "layer2+3");
	struct bc_watch_sample *b = sample(10000000000, BC_MODE_XOR, "layer2+3");
	struct bc_watch_interval *iv = calloc(1, sizeof(*iv));
	struct bc_watch_verdicts v;

	(void)state;
	slave(a, "eth0", true, 0, 0);
	slave(a, "eth1", true, 0, 0);
	slave(b, "eth0", true, 100000000, 1000000);
	slave(b, "eth1", true, 20000, 1000000);
	flow(a, 1, 801, 2049, 0, 0, 0);
	flow(b, 1, 801, 2049, 99000000, 0, 0);
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	bc_watch_judge(a, iv, 10, 0, 10, &v);
	assert_int_equal(v.balance.status, BC_VERDICT_FAIL);
	assert_string_equal(v.balance.mechanism, "single-flow");
	assert_string_equal(bc_verdict_get(&v.balance, "busiest"), "eth0");
	assert_string_equal(bc_verdict_get(&v.balance, "idlest"), "eth1");
	assert_int_equal(v.top_flow.status, BC_VERDICT_FAIL);
	assert_string_equal(v.top_flow.where, "eth0");
	/* NFS over layer2+3: nconnect alone does not help */
	assert_non_null(strstr(v.top_flow.next_step, "nconnect="));
	assert_non_null(strstr(v.top_flow.next_step, "layer3+4"));
	assert_int_equal(v.ports.status, BC_VERDICT_PASS);
	assert_int_equal(v.reordering.status, BC_VERDICT_PASS);
	free(a);
	free(b);
	free(iv);
}

/* Four connections spread evenly: balanced; the same on active-backup: not applicable. */
static void test_balanced_and_ab(void **state)
{
	struct bc_watch_sample *a = sample(0, BC_MODE_8023AD, "layer3+4");
	struct bc_watch_sample *b = sample(1000000000, BC_MODE_8023AD, "layer3+4");
	struct bc_watch_interval *iv = calloc(1, sizeof(*iv));
	struct bc_watch_verdicts v;

	(void)state;
	slave(a, "eth0", true, 0, 0);
	slave(a, "eth1", true, 0, 0);
	slave(b, "eth0", true, 600000, 0);
	slave(b, "eth1", true, 400000, 0);
	for (int i = 0; i < 4; i++) {
		flow(a, (uint64_t)i, (uint16_t)(40000 + i), 5201, 0, 0, i % 2);
		flow(b, (uint64_t)i, (uint16_t)(40000 + i), 5201, 240000, 0, i % 2);
	}
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	bc_watch_judge(a, iv, 1, 0, 1, &v);
	assert_int_equal(v.balance.status, BC_VERDICT_PASS);
	assert_int_equal(v.top_flow.status, BC_VERDICT_PASS);
	a->mode = BC_MODE_ACTIVEBACKUP;
	bc_watch_judge(a, iv, 1, 0, 1, &v);
	assert_int_equal(v.balance.status, BC_VERDICT_NOT_APPLICABLE);
	free(a);
	free(b);
	free(iv);
}

/* Many connections whose hashes crowd on eth1; a non-distributing port that sends. */
static void test_placement_and_ports(void **state)
{
	struct bc_watch_sample *a = sample(0, BC_MODE_8023AD, "layer3+4");
	struct bc_watch_sample *b = sample(1000000000, BC_MODE_8023AD, "layer3+4");
	struct bc_watch_interval *iv = calloc(1, sizeof(*iv));
	struct bc_watch_verdicts v;

	(void)state;
	slave(a, "eth0", true, 0, 0);
	slave(a, "eth1", true, 0, 0);
	slave(a, "eth2", false, 0, 0);
	slave(b, "eth0", true, 10000, 0);
	slave(b, "eth1", true, 900000, 0);
	slave(b, "eth2", false, 90000, 0);
	for (int i = 0; i < 4; i++) {
		flow(a, (uint64_t)i, (uint16_t)(40000 + i), 5201, 0, 0, 1);
		flow(b, (uint64_t)i, (uint16_t)(40000 + i), 5201, 220000, 0, 1);
	}
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	bc_watch_judge(a, iv, 1, 0, 1, &v);
	assert_int_equal(v.balance.status, BC_VERDICT_FAIL);
	assert_string_equal(v.balance.mechanism, "hash-placement");
	assert_int_equal(v.ports.status, BC_VERDICT_FAIL);
	assert_string_equal(v.ports.where, "eth2");
	free(a);
	free(b);
	free(iv);
}

/* balance-rr with reordering in most intervals; too little traffic is inconclusive. */
static void test_rr_reordering_and_idle(void **state)
{
	struct bc_watch_sample *a = sample(0, BC_MODE_ROUNDROBIN, "");
	struct bc_watch_sample *b = sample(5000000000, BC_MODE_ROUNDROBIN, "");
	struct bc_watch_interval *iv = calloc(1, sizeof(*iv));
	struct bc_watch_verdicts v;

	(void)state;
	slave(a, "eth0", true, 0, 0);
	slave(a, "eth1", true, 0, 0);
	slave(b, "eth0", true, 5000000, 0);
	slave(b, "eth1", true, 5000000, 0);
	b->tcp_reorder = 40;
	b->tcp_out_segs = 7000;
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	bc_watch_judge(a, iv, 5, 3, 5, &v);
	assert_int_equal(v.reordering.status, BC_VERDICT_FAIL);
	assert_string_equal(v.reordering.mechanism, "rr-reordering");
	assert_int_equal(v.balance.status, BC_VERDICT_PASS);
	bc_watch_judge(a, iv, 5, 2, 5, &v); /* reordering in 2 of 5: not "growing" */
	assert_int_equal(v.reordering.status, BC_VERDICT_PASS);
	b->slaves[0].tx_bytes = 1000;
	b->slaves[1].tx_bytes = 1000;
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	bc_watch_judge(a, iv, 5, 3, 5, &v);
	assert_int_equal(v.balance.status, BC_VERDICT_INCONCLUSIVE);
	free(a);
	free(b);
	free(iv);
}

/* A connection that closes during the watch keeps its bytes in the summary. */
static void test_sums(void **state)
{
	struct bc_watch_sample *a = sample(0, BC_MODE_XOR, "layer3+4");
	struct bc_watch_sample *b = sample(1000000000, BC_MODE_XOR, "layer3+4");
	struct bc_watch_sample *c = sample(2000000000, BC_MODE_XOR, "layer3+4");
	struct bc_watch_interval *iv = calloc(1, sizeof(*iv));
	struct bc_watch_flow_sums *t = calloc(1, sizeof(*t));

	(void)state;
	slave(a, "eth0", true, 0, 0);
	slave(a, "eth1", true, 0, 0);
	slave(b, "eth0", true, 500000, 0);
	slave(b, "eth1", true, 0, 0);
	slave(c, "eth0", true, 500000, 0);
	slave(c, "eth1", true, 250000, 0);
	flow(b, 7, 40000, 5201, 500000, 0, 0); /* opened and sent in the first second */
	flow(c, 8, 40001, 5201, 250000, 0, 1); /* 7 closed; 8 opened in the second */
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	bc_watch_flows_add(t, iv);
	assert_int_equal(bc_watch_delta(b, c, iv), 0);
	bc_watch_flows_add(t, iv);
	assert_int_equal(bc_watch_delta(a, c, iv), 0);
	assert_int_equal(iv->n_flows, 1); /* only what the last sample lists */
	bc_watch_flows_apply(t, iv);
	assert_int_equal(iv->n_flows, 2);
	assert_int_equal(iv->flows[0].cookie, 7);
	assert_int_equal(iv->flows[0].tx_bytes, 500000);
	assert_true(iv->flows[0].tx_bps > 1999999 && iv->flows[0].tx_bps < 2000001);
	assert_string_equal(iv->slaves[iv->flows[0].tx_slave].name, "eth0");
	assert_true(iv->slaves[0].predicted_tx_bps > 1999999 && iv->slaves[0].predicted_tx_bps < 2000001);
	assert_true(iv->slaves[1].predicted_tx_bps > 999999 && iv->slaves[1].predicted_tx_bps < 1000001);
	free(a);
	free(b);
	free(c);
	free(iv);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_tap_evictions),
		cmocka_unit_test(test_single_flow_nfs),
		cmocka_unit_test(test_balanced_and_ab),
		cmocka_unit_test(test_placement_and_ports),
		cmocka_unit_test(test_rr_reordering_and_idle),
		cmocka_unit_test(test_sums),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
