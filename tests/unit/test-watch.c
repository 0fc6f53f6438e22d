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
#include <unistd.h>
#include <cmocka.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "bondcheck/plot.h"
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

/*
 * Two slaves of @speed bits/s each (<= 0: unknown), 10 s: eth0 sends @tx0
 * bytes, eth1 @tx1, four connections predicted on eth0 (hash-placement).
 */
static void busy_pair(double speed, uint64_t tx0, uint64_t tx1, struct bc_watch_sample **a,
		      struct bc_watch_sample **b, struct bc_watch_interval *iv)
{
	*a = sample(0, BC_MODE_8023AD, "layer3+4");
	*b = sample(10000000000, BC_MODE_8023AD, "layer3+4");
	slave(*a, "eth0", true, 0, 0);
	slave(*a, "eth1", true, 0, 0);
	slave(*b, "eth0", true, tx0, 0);
	slave(*b, "eth1", true, tx1, 0);
	for (int i = 0; i < 4; i++) {
		flow(*a, (uint64_t)i, (uint16_t)(40000 + i), 5201, 0, 0, 0);
		flow(*b, (uint64_t)i, (uint16_t)(40000 + i), 5201, tx0 / 5, 0, 0);
	}
	for (size_t i = 0; i < 2; i++)
		(*a)->slaves[i].speed_bps = (*b)->slaves[i].speed_bps = speed;
	assert_int_equal(bc_watch_delta(*a, *b, iv), 0);
}

/* The answer block of @v as text, into @buf, one line. */
static void summary_text(const struct bc_watch_interval *iv, const struct bc_watch_verdicts *v,
			 char *buf, size_t len)
{
	struct bc_watch_run_info ri = {.bond = "bond0", .mode = BC_MODE_8023AD, .policy = "",
				       .n_intervals = 10, .top = 5, .flows_error = ""};
	FILE *f = fmemopen(buf, len, "w");

	assert_non_null(f);
	bc_watch_text_summary(f, &ri, iv, v, true);
	fclose(f);
	/* the answer wraps at 100 columns: as one line, single spaces */
	for (char *p = buf; *p; p++)
		if (*p == '\n')
			*p = ' ';
	for (char *p = strstr(buf, "  "); p; p = strstr(buf, "  "))
		memmove(p, p + 1, strlen(p));
}

/* eth0 at 94 % of 1 Gbit/s beside eth1 at 3 %: saturated, the mechanism stays. */
static void test_saturated(void **state)
{
	struct bc_watch_interval *iv = calloc(1, sizeof(*iv));
	struct bc_watch_sample *a, *b;
	struct bc_watch_verdicts v;
	char text[4096];

	(void)state;
	/* 1.175e9 bytes in 10 s = 940 Mbit/s; eth1 36.3 MB = 29 Mbit/s, 3 % */
	busy_pair(1e9, 1175000000, 36300000, &a, &b, iv);
	bc_watch_judge(a, iv, 10, 0, 10, &v);
	assert_int_equal(v.balance.status, BC_VERDICT_FAIL);
	assert_string_equal(v.balance.mechanism, "hash-placement");
	assert_string_equal(bc_verdict_get(&v.balance, "saturated"), "yes");
	assert_string_equal(bc_verdict_get(&v.balance, "utilisation"), "94 %");
	assert_string_equal(bc_verdict_get(&v.balance, "speed_bps"), "1000000000");
	assert_string_equal(bc_verdict_get(&v.balance, "utilised"), "eth0");
	assert_string_equal(v.balance.where, "eth0");
	summary_text(iv, &v, text, sizeof(text));
	assert_non_null(strstr(text, "eth0 at 94 % of 1 Gbit/s while eth1 carries 3 %: the bond, "
				     "not the application, is the limit"));
	free(a);
	free(b);

	/* the same traffic on slaves that report no speed (virtio): not judged, said */
	busy_pair(0, 1175000000, 36300000, &a, &b, iv);
	bc_watch_judge(a, iv, 10, 0, 10, &v);
	assert_int_equal(v.balance.status, BC_VERDICT_FAIL);
	assert_string_equal(v.balance.mechanism, "hash-placement");
	assert_string_equal(bc_verdict_get(&v.balance, "saturated"), "unknown");
	assert_string_equal(bc_verdict_get(&v.balance, "speed_unknown"), "eth0");
	assert_null(bc_verdict_get(&v.balance, "utilisation"));
	summary_text(iv, &v, text, sizeof(text));
	assert_non_null(strstr(text, "saturation not judged: eth0 reports no speed"));
	assert_null(strstr(text, "the bond, not the application"));
	free(a);
	free(b);

	/* busy but not saturated: 940 Mbit/s of 10 Gbit/s */
	busy_pair(10e9, 1175000000, 36300000, &a, &b, iv);
	bc_watch_judge(a, iv, 10, 0, 10, &v);
	assert_int_equal(v.balance.status, BC_VERDICT_FAIL); /* by the shares */
	assert_string_equal(bc_verdict_get(&v.balance, "saturated"), "no");
	assert_string_equal(bc_verdict_get(&v.balance, "utilisation"), "9 %");
	summary_text(iv, &v, text, sizeof(text));
	assert_null(strstr(text, "the bond, not the application"));
	assert_null(strstr(text, "saturation not judged"));
	free(a);
	free(b);
	free(iv);
}

/*
 * Three slaves, shares 49/49/2 (the busiest below 90 %): balanced by the
 * shares; with eth0 and eth1 at 95 % of 100 Mbit/s beside eth2 the bond is
 * full while a slave idles: fail.
 */
static void test_saturated_three(void **state)
{
	struct bc_watch_sample *a = sample(0, BC_MODE_8023AD, "layer3+4");
	struct bc_watch_sample *b = sample(10000000000, BC_MODE_8023AD, "layer3+4");
	struct bc_watch_interval *iv = calloc(1, sizeof(*iv));
	struct bc_watch_verdicts v;
	static const char *const names[3] = {"eth0", "eth1", "eth2"};
	static const uint64_t bytes[3] = {118750000, 118750000, 4800000}; /* 95, 95, 3.84 Mbit/s */

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		slave(a, names[i], true, 0, 0);
		slave(b, names[i], true, bytes[i], 0);
		a->slaves[i].speed_bps = b->slaves[i].speed_bps = 100e6;
	}
	for (int i = 0; i < 6; i++) {
		flow(a, (uint64_t)i, (uint16_t)(40000 + i), 5201, 0, 0, i % 2);
		flow(b, (uint64_t)i, (uint16_t)(40000 + i), 5201, 39000000, 0, i % 2);
	}
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	bc_watch_judge(a, iv, 10, 0, 10, &v);
	assert_int_equal(v.balance.status, BC_VERDICT_FAIL);
	assert_string_equal(bc_verdict_get(&v.balance, "saturated"), "yes");
	assert_string_equal(bc_verdict_get(&v.balance, "idlest"), "eth2");
	assert_string_equal(bc_verdict_get(&v.balance, "utilisation"), "95 %");
	/* all three at 95 %: full, but no slave idles: balanced */
	b->slaves[2].tx_bytes = 118750000;
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	bc_watch_judge(a, iv, 10, 0, 10, &v);
	assert_int_equal(v.balance.status, BC_VERDICT_PASS);
	assert_string_equal(bc_verdict_get(&v.balance, "saturated"), "no");
	assert_string_equal(bc_verdict_get(&v.balance, "utilisation"), "95 %");
	b->slaves[2].tx_bytes = bytes[2];
	/* the same on 1 Gbit/s slaves: 9.5 %, the shares alone decide: pass */
	for (size_t i = 0; i < 3; i++)
		b->slaves[i].speed_bps = 1e9;
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	bc_watch_judge(a, iv, 10, 0, 10, &v);
	assert_int_equal(v.balance.status, BC_VERDICT_PASS);
	assert_string_equal(bc_verdict_get(&v.balance, "saturated"), "no");
	free(a);
	free(b);
	free(iv);
}

/*
 * Bytes by slave: a flow the taps saw on both slaves is split as their
 * counters grew in the interval; a predicted one is all on its slave; the
 * sums follow a flow that moves from eth0 to eth1.
 */
static void test_bytes_by_slave(void **state)
{
	struct bc_watch_sample *a = sample(0, BC_MODE_XOR, "layer3+4");
	struct bc_watch_sample *b = sample(1000000000, BC_MODE_XOR, "layer3+4");
	struct bc_watch_sample *c = sample(2000000000, BC_MODE_XOR, "layer3+4");
	struct bc_watch_interval *iv = calloc(1, sizeof(*iv));
	struct bc_watch_flow_sums *t = calloc(1, sizeof(*t));

	(void)state;
	slave(a, "eth0", true, 0, 0);
	slave(a, "eth1", true, 0, 0);
	slave(b, "eth0", true, 0, 0);
	slave(b, "eth1", true, 0, 0);
	/* c lists its slaves the other way round: matched by name */
	slave(c, "eth1", true, 0, 0);
	slave(c, "eth0", true, 0, 0);
	flow(a, 1, 40000, 5201, 0, 0, 0);
	flow(b, 1, 40000, 5201, 1000, 400, 0);
	flow(c, 1, 40000, 5201, 3000, 400, 0); /* moved to eth1 (c: index 0) */
	a->flows[0].tx_src = b->flows[0].tx_src = BC_WATCH_SRC_OBSERVED;
	a->flows[0].tap_tx_on[0] = 100;
	b->flows[0].tap_tx_on[0] = 400; /* +300 on eth0 */
	b->flows[0].tap_tx_on[1] = 100; /* +100 on eth1 */
	flow(a, 2, 40001, 5201, 0, 0, 1); /* predicted on eth1 (c: index 0) */
	flow(b, 2, 40001, 5201, 500, 0, 1);
	flow(c, 2, 40001, 5201, 700, 0, 0);
	assert_int_equal(bc_watch_delta(a, b, iv), 0);
	assert_int_equal(iv->flows[0].cookie, 1);
	assert_int_equal(iv->flows[0].tx_on[0], 750);
	assert_int_equal(iv->flows[0].tx_on[1], 250);
	assert_int_equal(iv->flows[0].rx_on[0] + iv->flows[0].rx_on[1], 0); /* RX unknown */
	assert_int_equal(iv->flows[1].tx_on[0], 0);
	assert_int_equal(iv->flows[1].tx_on[1], 500);
	bc_watch_flows_add(t, iv);
	/* second interval: flow 1 predicted on eth1 (c's index 0) now */
	assert_int_equal(bc_watch_delta(b, c, iv), 0);
	bc_watch_flows_add(t, iv);
	assert_int_equal(t->n_slaves, 2);
	assert_string_equal(t->slave[0], "eth0");
	assert_string_equal(t->slave[1], "eth1");
	assert_int_equal(t->n, 2);
	assert_int_equal(t->v[0].tx_on[0], 750);
	assert_int_equal(t->v[0].tx_on[1], 250 + 2000);
	assert_int_equal(t->v[1].tx_on[0], 0);
	assert_int_equal(t->v[1].tx_on[1], 700);
	free(a);
	free(b);
	free(c);
	free(iv);
	free(t);
}

/* One flow of the sums: bytes each way and on each of the two slaves. */
static void sum_flow(struct bc_watch_flow_sums *t, uint16_t sport, uint64_t tx0, uint64_t tx1,
		     enum bc_watch_src txs, uint64_t rx0, uint64_t rx1, uint64_t rx,
		     enum bc_watch_src rxs)
{
	struct bc_watch_flow_sum *x = &t->v[t->n++];

	x->cookie = sport;
	x->flow.family = AF_INET;
	x->flow.proto = IPPROTO_TCP;
	inet_pton(AF_INET, "10.0.0.1", x->flow.src);
	inet_pton(AF_INET, "10.0.0.2", x->flow.dst);
	x->flow.sport = sport;
	x->flow.dport = 5201;
	x->tx_on[0] = tx0;
	x->tx_on[1] = tx1;
	x->tx_bytes = tx0 + tx1;
	x->tx_src = txs;
	x->rx_on[0] = rx0;
	x->rx_on[1] = rx1;
	x->rx_bytes = rx;
	x->rx_src = rxs;
}

/*
 * The texts of the SVG, and its filled polylines of three colours: their
 * widths (max x - min x) and the panel they are in (0 TX, 1 RX: the page
 * fractions of src/report/plot-watch.c; the legend's boxes further right, 2).
 */
struct svg_seen {
	double width[3][32]; /* blue (eth0), orange (eth1), grey (unknown) */
	int panel[3][32];
	size_t n[3];
	char text[128][96];
	size_t n_text;
};

static void svg_walk(xmlNode *node, struct svg_seen *s)
{
	static const char *const fills[3] = {"#1F77B4", "#FF7F0E", "#E3E3E3"};

	for (xmlNode *e = node; e; e = e->next) {
		if (e->type != XML_ELEMENT_NODE)
			continue;
		if (!xmlStrcmp(e->name, (const xmlChar *)"text") && s->n_text < 128) {
			xmlChar *c = xmlNodeGetContent(e);

			snprintf(s->text[s->n_text++], sizeof(s->text[0]), "%s", (const char *)c);
			xmlFree(c);
		} else if (!xmlStrcmp(e->name, (const xmlChar *)"polyline")) {
			xmlChar *fill = xmlGetProp(e, (const xmlChar *)"fill");
			xmlChar *pts = xmlGetProp(e, (const xmlChar *)"points");

			for (int k = 0; k < 3 && fill && pts; k++) {
				double lo = 1e9, hi = -1e9, x, y;
				const char *p = (const char *)pts;
				int used;

				if (strcmp((const char *)fill, fills[k]) || s->n[k] == 32)
					continue;
				while (sscanf(p, " %lf,%lf%n", &x, &y, &used) == 2) {
					lo = x < lo ? x : lo;
					hi = x > hi ? x : hi;
					p += used;
				}
				s->panel[k][s->n[k]] = lo < 0.565 * 960 ? 0 : lo < 0.865 * 960 ? 1 : 2;
				s->width[k][s->n[k]++] = hi - lo;
			}
			xmlFree(fill);
			xmlFree(pts);
		}
		svg_walk(e->children, s);
	}
}

static size_t count_text(const struct svg_seen *s, const char *t)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_text; i++)
		n += !strcmp(s->text[i], t);
	return n;
}

/* A bar of colour @k in @panel whose width is @ratio of @ref (within 2 %). */
static bool has_bar(const struct svg_seen *s, int panel, int k, double ref, double ratio)
{
	for (size_t i = 0; i < s->n[k]; i++)
		if (s->panel[k][i] == panel && s->width[k][i] > 0.98 * ratio * ref &&
		    s->width[k][i] < 1.02 * ratio * ref)
			return true;
	return false;
}

/* The widest bar of colour @k in @panel. */
static double widest(const struct svg_seen *s, int panel, int k)
{
	double w = 0;

	for (size_t i = 0; i < s->n[k]; i++)
		if (s->panel[k][i] == panel && s->width[k][i] > w)
			w = s->width[k][i];
	return w;
}

/* The JSON summary's "placement": the --top busiest flows of the sums, bytes by slave. */
static void summary_placement(const struct bc_watch_flow_sums *t)
{
	struct bc_watch_interval *iv = calloc(1, sizeof(*iv));
	struct bc_watch_run_info ri = {.bond = "bond0", .mode = BC_MODE_XOR, .policy = "",
				       .top = 2, .flows_error = "", .sums = t};
	struct bc_watch_verdicts v;
	struct json_object *o, *pl, *f;

	assert_non_null(iv);
	bc_verdict_init(&v.balance, "balance");
	bc_verdict_init(&v.top_flow, "top_flow");
	bc_verdict_init(&v.ports, "ports");
	bc_verdict_init(&v.reordering, "reordering");
	o = bc_watch_json_summary(&ri, iv, &v);
	pl = json_object_object_get(json_object_object_get(o, "placement"), "flows");
	assert_int_equal(json_object_array_length(pl), 2);
	f = json_object_array_get_idx(pl, 0);
	assert_int_equal(json_object_get_uint64(json_object_array_get_idx(
				 json_object_object_get(f, "tx_on"), 0)), 3000000);
	assert_int_equal(json_object_get_uint64(json_object_array_get_idx(
				 json_object_object_get(f, "rx_on"), 1)), 400000);
	f = json_object_array_get_idx(pl, 1);
	assert_string_equal(json_object_get_string(json_object_object_get(f, "label")),
			    "tcp 10.0.0.1:40002 > 10.0.0.2:5201");
	json_object_put(o);
	ri.sums = NULL;
	o = bc_watch_json_summary(&ri, iv, &v);
	assert_true(json_object_object_get_ex(o, "placement", &pl));
	assert_null(pl);
	json_object_put(o);
	free(iv);
}

/*
 * --plot's watch-flows.svg from accumulated sums: two slaves, three flows
 * (one with RX unknown, no taps that way): the labels and marks, and bars
 * in proportion to the bytes, the unknown RX as a grey bar of its bytes.
 */
static void test_flows_plot(void **state)
{
	struct bc_watch_flow_sums *t = calloc(1, sizeof(*t));
	struct svg_seen *seen = calloc(1, sizeof(*seen));
	struct json_object *doc, *fl;
	struct bc_error err = {0};
	char dir[] = "/tmp/bc-watch-plot-XXXXXX", path[64];
	double big = 0;
	xmlDoc *x;

	(void)state;
	assert_non_null(t);
	assert_non_null(seen);
	snprintf(t->slave[0], sizeof(t->slave[0]), "eth0");
	snprintf(t->slave[1], sizeof(t->slave[1]), "eth1");
	t->n_slaves = 2;
	/* B: TX predicted on eth1, RX unknown (500 kB); A: the busiest; C: idle flow */
	sum_flow(t, 40001, 0, 1000000, BC_WATCH_SRC_PREDICTED, 0, 0, 500000,
		 BC_WATCH_SRC_UNKNOWN);
	sum_flow(t, 40000, 3000000, 0, BC_WATCH_SRC_OBSERVED, 600000, 400000, 1000000,
		 BC_WATCH_SRC_OBSERVED);
	sum_flow(t, 40009, 0, 0, BC_WATCH_SRC_UNKNOWN, 0, 0, 0, BC_WATCH_SRC_UNKNOWN);
	sum_flow(t, 40002, 1500000, 500000, BC_WATCH_SRC_OBSERVED, 0, 0, 0,
		 BC_WATCH_SRC_OBSERVED);
	doc = bc_watch_json_placement(t, "bond0", BC_PLOT_WATCH_MAX_FLOWS);
	fl = json_object_object_get(doc, "flows");
	/* busiest first (A 4 MB, C 2 MB, B 1.5 MB); the flow without a byte left out */
	assert_int_equal(json_object_array_length(fl), 3);
	assert_string_equal(json_object_get_string(json_object_object_get(
				    json_object_array_get_idx(fl, 0), "label")),
			    "tcp 10.0.0.1:40000 > 10.0.0.2:5201");
	assert_string_equal(json_object_get_string(json_object_object_get(
				    json_object_array_get_idx(fl, 2), "rx_source")),
			    "unknown");

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/watch-flows.svg", dir);
	assert_int_equal(bc_plot_watch_flows(path, doc, &err), 0);
	x = xmlReadFile(path, NULL, XML_PARSE_NONET);
	assert_non_null(x);
	svg_walk(xmlDocGetRootElement(x), seen);
	xmlFreeDoc(x);

	for (int k = 0; k < 3; k++) {
		char label[64];

		snprintf(label, sizeof(label), "tcp 10.0.0.1:%d > 10.0.0.2:5201",
			 k == 0 ? 40000 : k == 1 ? 40002 : 40001);
		assert_int_equal(count_text(seen, label), 1);
	}
	assert_int_equal(count_text(seen, "observed (taps)"), 4); /* A and C, both ways */
	assert_int_equal(count_text(seen, "predicted (hash)"), 1); /* B's TX */
	assert_int_equal(count_text(seen, "slave unknown"), 2);	  /* B's RX, the legend */
	assert_int_equal(count_text(seen, "eth0"), 1);		  /* the legend */
	assert_int_equal(count_text(seen, "eth1"), 1);

	/* TX: the longest bar is A's 3 MB on eth0; every other in proportion to it */
	big = widest(seen, 0, 0);
	assert_true(big > 50);
	assert_true(has_bar(seen, 0, 0, big, 1.5 / 3.0));  /* C's TX on eth0 */
	assert_true(has_bar(seen, 0, 1, big, 1.0 / 3.0));  /* B's TX on eth1 */
	assert_true(has_bar(seen, 0, 1, big, 0.5 / 3.0));  /* C's TX on eth1 */
	assert_false(has_bar(seen, 0, 0, big, 1.0 / 3.0)); /* B's TX is not on eth0 */
	assert_int_equal(widest(seen, 0, 2), 0);	   /* every TX byte placed */
	/* RX (its own scale): A's 0.6 MB on eth0, 0.4 on eth1; B's 0.5 MB unknown, not zero */
	big = widest(seen, 1, 0);
	assert_true(big > 20);
	assert_true(has_bar(seen, 1, 1, big, 0.4 / 0.6));
	assert_true(has_bar(seen, 1, 2, big, 0.5 / 0.6));

	unlink(path);
	rmdir(dir);
	summary_placement(t);
	/* nothing carried: no file */
	json_object_put(doc);
	t->n = 0;
	doc = bc_watch_json_placement(t, "bond0", BC_PLOT_WATCH_MAX_FLOWS);
	assert_int_equal(bc_plot_watch_flows(path, doc, &err), -ENODATA);
	json_object_put(doc);
	free(t);
	free(seen);
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
		cmocka_unit_test(test_saturated),
		cmocka_unit_test(test_saturated_three),
		cmocka_unit_test(test_bytes_by_slave),
		cmocka_unit_test(test_flows_plot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
