// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Verdicts as data (bondcheck/verdict.h): the structure the suite's answers
 * fill from the capacity model (src/analyze/suite-answers.c), its JSON and
 * its rendered text (src/report/verdict-text.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "analyze/suite-int.h"
#include "bondcheck/model.h"

#define M 1e6

static void assert_contains(const char *s, const char *part)
{
	if (!strstr(s, part))
		fail_msg("'%s' not in '%s'", part, s);
}

static void port(struct bc_suite_model *m, const char *name, double mbit, long long speed, int agg,
		 const char *src, const char *driver)
{
	struct bc_cap_port *p = &m->in.port[m->in.n];

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->ceiling_bps = mbit * M;
	p->speed_mbps = speed;
	p->duplex = 1;
	p->up = true;
	p->aggregator_id = agg;
	p->partner_key = speed == 1000 ? 9 : 7;
	p->partner_prio = 65535;
	p->share = -1;
	snprintf(p->partner_mac, sizeof(p->partner_mac), "52:54:00:02:01:0b");
	snprintf(m->x[m->in.n].rate_source, sizeof(m->x[0].rate_source), "%s", src);
	snprintf(m->x[m->in.n].driver, sizeof(m->x[0].driver), "%s", driver);
	m->x[m->in.n].rate_bps = mbit * M / 0.956;
	m->in.n++;
}

static void run(struct bc_suite_model *m)
{
	m->ok = bc_capacity_model(&m->in, &m->c) == 0;
	assert_true(m->ok);
}

/* The 802.3ad case: the 8139cp's aggregator selected. */
static void mixed_speed(struct bc_suite_model *m, struct bc_suite_facts *f)
{
	memset(m, 0, sizeof(*m));
	bc_suite_facts_init(f);
	f->mode = m->in.mode = BC_MODE_8023AD;
	f->flows = m->in.flows = 1;
	f->placed = m->in.placed = true;
	f->agg_bps = m->in.carried_bps = 1.91 * M;
	f->n_mismatch = 1;
	snprintf(f->mismatch[0], sizeof(f->mismatch[0]), "speeds eth0=100, eth1=1000 Mb/s");
	snprintf(m->bond, sizeof(m->bond), "bond0");
	snprintf(m->ad_select, sizeof(m->ad_select), "stable");
	m->in.ad_select = m->ad_select;
	m->in.active_aggregator_id = 1;
	port(m, "eth0", 1.91, 100, 1, "tbf", "8139cp");
	port(m, "eth1", 7.65, 1000, 2, "tbf", "e1000");
	run(m);
}

static void test_aggregation_selection(void **state)
{
	struct bc_suite_model m;
	struct bc_suite_facts f;
	struct bc_verdict v;
	struct json_object *o = json_object_new_object(), *c, *lv;
	char text[1200];

	(void)state;
	mixed_speed(&m, &f);
	bc_suite_answer_aggregation(&f, &m, &v);
	assert_int_equal(v.status, BC_VERDICT_FAIL);
	assert_string_equal(v.mechanism, "aggregator-selection");
	assert_string_equal(v.where, "eth1");
	assert_string_equal(bc_verdict_get(&v, "active_key"), "7");
	assert_string_equal(bc_verdict_get(&v, "best_key"), "9");
	assert_string_equal(bc_verdict_get(&v, "ad_select"), "stable");
	assert_true(v.headline > 0.24 && v.headline < 0.26);
	assert_contains(v.next_step, "ad_select bandwidth");
	assert_contains(v.next_step, "never aggregate");
	bc_verdict_render(&v, text, sizeof(text));
	assert_contains(text, "carried 1.91 Mbit/s of a potential 7.65 Mbit/s (25 %)");
	assert_contains(text, "selected aggregator 1 (eth0, key 7) and left eth1 idle in "
			      "aggregator 2 (key 9)");
	assert_contains(text, "ad_select stable");
	/* the JSON: the structure and the same text beside it */
	bc_verdict_json_put(&v, o);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "status")), "fail");
	lv = json_object_object_get(o, "levels");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(
				    json_object_object_get(lv, "compared"), 1)),
			    "potential");
	assert_true(json_object_get_double(json_object_object_get(lv, "potential_bps")) ==
		    m.c.level[BC_CAP_POTENTIAL]);
	c = json_object_object_get(o, "cause");
	assert_string_equal(json_object_get_string(json_object_object_get(c, "where")), "eth1");
	assert_string_equal(json_object_get_string(json_object_object_get(
				    json_object_object_get(c, "evidence"), "best_key")),
			    "9");
	assert_string_equal(json_object_get_string(json_object_object_get(o, "answer")), text);
	json_object_put(o);
}

static void test_drivers_speed_keys(void **state)
{
	struct bc_suite_model m;
	struct bc_suite_facts f;
	struct bc_verdict v;
	char text[1200];

	(void)state;
	mixed_speed(&m, &f);
	bc_suite_answer_drivers(&f, &m, NULL, &v);
	assert_int_equal(v.status, BC_VERDICT_FAIL);
	assert_string_equal(v.mechanism, "lacp-key");
	assert_string_equal(v.where, "eth0");
	assert_string_equal(bc_verdict_get(&v, "keys"), "eth0=7 (100 Mb/s), eth1=9 (1000 Mb/s)");
	assert_string_equal(bc_verdict_get(&v, "cost"), "1.91 Mbit/s");
	assert_string_equal(bc_verdict_get(&v, "selection_cost"), "5.74 Mbit/s");
	assert_int_equal(v.lhs, BC_CAP_SELECTED);
	assert_int_equal(v.rhs, BC_CAP_INSTALLED);
	bc_verdict_render(&v, text, sizeof(text));
	assert_contains(text, "selected 1.91 Mbit/s of an installed 9.56 Mbit/s (20 %)");
	assert_contains(text, "idles 5.74 Mbit/s more");
}

/* balance-rr, tbf on the slow slave: the shaper is named, not the driver. */
static void test_drivers_shaper(void **state)
{
	struct bc_suite_model m;
	struct bc_suite_facts f;
	struct bc_verdict v;
	char text[1200];

	(void)state;
	memset(&m, 0, sizeof(m));
	bc_suite_facts_init(&f);
	f.mode = m.in.mode = BC_MODE_ROUNDROBIN;
	f.n_mismatch = 1;
	m.in.carried_bps = 4 * M;
	port(&m, "eth0", 7.65, 1000, -1, "tbf", "e1000");
	port(&m, "eth1", 1.43, 100, -1, "tbf", "8139cp");
	port(&m, "eth2", 7.65, -1, -1, "tbf", "virtio_net");
	run(&m);
	bc_suite_answer_drivers(&f, &m, NULL, &v);
	assert_int_equal(v.status, BC_VERDICT_FAIL);
	assert_string_equal(v.mechanism, "shaper");
	assert_string_equal(v.where, "eth1");
	assert_string_equal(bc_verdict_get(&v, "qdisc"), "tbf");
	bc_verdict_render(&v, text, sizeof(text));
	assert_contains(text, "a shaper sets eth1's ceiling: qdisc tbf at 1.50 Mbit/s");
	assert_contains(text, "not the 8139cp driver's");
	/* the same ceiling from the negotiated speed: balance-rr's equal shares */
	snprintf(m.x[1].rate_source, sizeof(m.x[1].rate_source), "speed");
	bc_suite_answer_drivers(&f, &m, NULL, &v);
	assert_string_equal(v.mechanism, "equal-shares");
	/* one interface: not applicable */
	f.mode = -1;
	bc_suite_answer_drivers(&f, &m, NULL, &v);
	assert_int_equal(v.status, BC_VERDICT_NOT_APPLICABLE);
	assert_string_equal(bc_verdict_status_name(v.status), "not-applicable");
}

/* xor, three equal slaves: pass at >= 80 % of potential, one flow is no test. */
static void test_aggregation_pass_and_single_flow(void **state)
{
	struct bc_suite_model m;
	struct bc_suite_facts f;
	struct bc_verdict v;

	(void)state;
	memset(&m, 0, sizeof(m));
	bc_suite_facts_init(&f);
	f.mode = m.in.mode = BC_MODE_XOR;
	f.flows = 3;
	f.placed = true;
	port(&m, "eth0", 10, 1000, -1, "speed", "e1000");
	port(&m, "eth1", 10, 1000, -1, "speed", "e1000");
	port(&m, "eth2", 10, 1000, -1, "speed", "e1000");
	m.in.carried_bps = f.agg_bps = 24.5 * M;
	run(&m);
	bc_suite_answer_aggregation(&f, &m, &v);
	assert_int_equal(v.status, BC_VERDICT_PASS);
	/* 23.5 of 30 is 78 %: not a pass */
	m.in.carried_bps = f.agg_bps = 23.5 * M;
	run(&m);
	bc_suite_answer_aggregation(&f, &m, &v);
	assert_int_equal(v.status, BC_VERDICT_FAIL);
	assert_string_equal(v.mechanism, "unattributed");
	/* one flow on a hash mode: inconclusive, not a failure of the bond */
	f.flows = 1;
	m.in.carried_bps = f.agg_bps = 9.5 * M;
	run(&m);
	bc_suite_answer_aggregation(&f, &m, &v);
	assert_int_equal(v.status, BC_VERDICT_INCONCLUSIVE);
	assert_string_equal(v.mechanism, "single-flow");
	/* CPU-bound shortfall: inconclusive */
	f.flows = 3;
	f.agg_cpu_bound = m.in.cpu_bound = true;
	m.in.carried_bps = f.agg_bps = 15 * M;
	run(&m);
	bc_suite_answer_aggregation(&f, &m, &v);
	assert_int_equal(v.status, BC_VERDICT_INCONCLUSIVE);
	assert_string_equal(v.mechanism, "cpu-bound");
}

/* Drivers' measured judgement, rendered from its evidence values. */
static void test_render_per_link(void **state)
{
	struct bc_verdict v;
	char text[600];

	(void)state;
	bc_verdict_init(&v, "drivers");
	v.status = BC_VERDICT_FAIL;
	snprintf(v.mechanism, sizeof(v.mechanism), "holds-back");
	snprintf(v.where, sizeof(v.where), "eth1");
	bc_verdict_add(&v, "end", "client");
	bc_verdict_add(&v, "test", "udp-over");
	bc_verdict_add(&v, "driver", "8139cp");
	bc_verdict_add(&v, "utilization", "99 %%");
	bc_verdict_add(&v, "drops", "140");
	bc_verdict_render(&v, text, sizeof(text));
	assert_string_equal(text,
			    "eth1 (8139cp) holds the bond back: in the over-rate UDP probe "
			    "it ran at 99 % of its own ceiling and its queue dropped 140 while "
			    "its peers ran at <= 70 % of theirs.");
	/* the agent's slave below saturation: named for its NIC drops */
	bc_verdict_init(&v, "drivers");
	snprintf(v.mechanism, sizeof(v.mechanism), "holds-back");
	snprintf(v.where, sizeof(v.where), "eth1");
	bc_verdict_add(&v, "end", "agent");
	bc_verdict_add(&v, "test", "udp-over");
	bc_verdict_add(&v, "driver", "8139cp");
	bc_verdict_add(&v, "drops", "300");
	bc_verdict_add(&v, "frames", "3000");
	bc_verdict_render(&v, text, sizeof(text));
	assert_string_equal(text,
			    "the agent's eth1 (8139cp) holds the bond back: in the over-rate "
			    "UDP probe its NIC dropped 300 of the 3000 frames that arrived on "
			    "it while its peers dropped none.");
	bc_verdict_init(&v, "drivers");
	snprintf(v.mechanism, sizeof(v.mechanism), "cost-nothing");
	bc_verdict_add(&v, "mismatch", "drivers e1000, 8139cp (client)");
	bc_verdict_render(&v, text, sizeof(text));
	assert_string_equal(text, "mismatch (drivers e1000, 8139cp (client)): it cost nothing "
				  "measurable, no link of either end stood out against its own "
				  "ceiling and no receiving slave alone dropped.");
}

static void test_evidence_and_unknown(void **state)
{
	struct bc_verdict v;
	char text[256];

	(void)state;
	bc_verdict_init(&v, "aggregation");
	for (int i = 0; i < BC_VERDICT_MAX_EVIDENCE + 2; i++)
		bc_verdict_add(&v, "k", "%d", i);
	assert_int_equal(v.n_evidence, BC_VERDICT_MAX_EVIDENCE);
	assert_null(bc_verdict_get(&v, "missing"));
	v.has_levels = true;
	v.lhs = BC_CAP_CARRIED;
	v.rhs = BC_CAP_POTENTIAL;
	bc_verdict_render(&v, text, sizeof(text));
	assert_string_equal(text, "carried against potential: not known (a ceiling is missing).");
	/* a short buffer is cut and terminated; the wanted length is returned */
	assert_true(bc_verdict_render(&v, text, 8) > 8);
	assert_int_equal(strlen(text), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aggregation_selection),
		cmocka_unit_test(test_drivers_speed_keys),
		cmocka_unit_test(test_drivers_shaper),
		cmocka_unit_test(test_aggregation_pass_and_single_flow),
		cmocka_unit_test(test_render_per_link),
		cmocka_unit_test(test_evidence_and_unknown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
