// SPDX-License-Identifier: GPL-2.0-or-later
/* The suite's derive-tables inputs (src/analyze/suite-input.h): decode, unknowns, required members.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analyze/suite-input.h"
#include "bondcheck/suite-analyze.h"

static const char *const text =
	"{\"kind\": \"run-suite\","
	" \"options\": {\"ip_version\": 6, \"link_rate_bps\": 1e7, \"link_accounting\": \"tbf\"},"
	" \"egress\": {\"client\": {\"name\": \"bond0\", \"bond\": {\"options\": {\"mode\": "
	"\"802.3ad 4\"},"
	"  \"slaves\": [{\"name\": \"eth0\", \"tbf_bps\": 5e6, \"mtu\": 9000, \"speed_mbps\": null,"
	"   \"virtual\": true},"
	"   {\"name\": \"eth1\", \"driver\": \"e1000\"}]}}},"
	" \"ends\": {\"client\": {\"bonds\": [{\"mode_number\": 4, \"active_slave\": \"eth0\","
	"  \"ad_info\": {\"status\": \"known\", \"aggregator_id\": 2},"
	"  \"slaves\": [{\"name\": \"eth0\", \"mii_status\": \"up\", \"speed_mbps\": 10,"
	"   \"aggregator_id\": 2}, {\"name\": \"eth1\", \"speed_mbps\": null}],"
	"  \"findings\": [{\"id\": \"speed-mismatch\", \"severity\": \"warning\"}, 7]},"
	"  {\"findings\": [{\"id\": \"x\"}]}]}},"
	" \"placement\": {\"findings\": [{\"id\": \"unplaced\", \"subject\": \"bond0\"}]},"
	" \"tests\": [{\"name\": \"tcp-k\", \"role\": \"aggregate\", \"result\": {"
	"   \"goodput_bps\": 8e6, \"test\": {\"protocol\": \"tcp\", \"duration_ms\": 1500,"
	"    \"omit_ms\": 500},"
	"   \"ends\": {\"client\": {\"metadata\": {\"sysctls\": {\"net.ipv4.tcp_timestamps\": "
	"\"0\"}},"
	"    \"counters\": {\"interfaces\": {\"eth0\": {\"qdisc_drops\": 3, \"tx_dropped\": 1}}}}},"
	"   \"streams\": [{\"id\": 1, \"client_port\": 5001, \"sent_bytes\": 1000,"
	"     \"goodput_bps\": 4000000, \"sender\": {\"tcp_info\": {\"reord_seen\": 2, "
	"\"rtt_us\": 90}}},"
	"    {\"id\": 2, \"sent_bytes\": 250}],"
	"   \"placement\": {\"streams\": [{\"id\": 1, \"predicted_slave\": \"eth1\"}]},"
	"   \"capture\": {\"analysis\": {\"ledger\": [], \"links\": ["
	"    {\"name\": \"tx:client/eth0\", \"side\": \"tx\", \"forward\": {\"wire_bytes\": 900,"
	"     \"frames\": 3}},"
	"    {\"name\": \"tx:client/eth1\", \"side\": \"tx\", \"peer\": null}],"
	"    \"flows\": [{\"direction\": \"forward\", \"sport\": 5001,"
	"     \"links\": [\"tx:client/eth0\", null]}]}}}},"
	"  {\"name\": \"udp-over\", \"role\": \"over-rate\", \"result\": {\"test\": {\"length\": "
	"1400},"
	"   \"streams\": [{\"reordering\": {\"reorder_density\": {\"0\": 5, \"1\": 2}}}, {}]}}],"
	" \"udp_search\": {\"trials\": [{\"length\": 1200, \"rate_bps\": 2e6, \"sent_packets\": 10,"
	"   \"received_packets\": 9, \"refused\": 1}]}}";

/* @want is among @r's problems. */
static bool has_problem(const struct bc_doc_read *r, const char *want)
{
	for (size_t i = 0; i < r->n_problems && i < BC_DOC_MAX_PROBLEMS; i++)
		if (!strcmp(r->problem[i], want))
			return true;
	return false;
}

static void test_read(void **state)
{
	struct json_object *doc = json_tokener_parse(text);
	struct bc_suite_input in;
	const struct bc_si_end *c = &in.end[0];
	const struct bc_si_result *k, *o;
	const char *wb =
		"tests[tcp-k].result.capture.analysis.links[1].forward.wire_bytes (absent)";

	(void)state;
	assert_non_null(doc);
	assert_int_equal(bc_suite_input_read(doc, &in), 0);
	assert_string_equal(in.kind, "run-suite");
	assert_true(in.has_ip_version);
	assert_int_equal(in.ip_version, 6);
	assert_true(in.link_rate_bps == 1e7);
	assert_string_equal(in.link_accounting, "tbf");
	/* egress: present-but-null is present; absent members keep the defaults */
	assert_true(c->have_egress && c->egress_is_bond);
	assert_string_equal(c->egress_mode, "802.3ad 4");
	assert_int_equal(c->n_eslaves, 2);
	assert_true(c->eslave[0].has_speed);
	assert_int_equal(c->eslave[0].speed_mbps, 0);
	assert_int_equal(c->eslave[0].mtu, 9000);
	assert_true(c->eslave[0].virt && c->eslave[0].has_virtual);
	assert_false(c->eslave[1].has_tbf || c->eslave[1].has_mtu || c->eslave[1].has_virtual);
	assert_int_equal(c->eslave[1].mtu, 1500);
	assert_string_equal(c->eslave[1].driver, "e1000");
	/* the inspection: bonds[0]; the findings of every bond, objects only */
	assert_true(c->have_bond && c->has_mode);
	assert_int_equal(c->mode_number, 4);
	assert_true(c->has_ad_aggregator_id);
	assert_int_equal(c->n_slaves, 2);
	assert_true(c->slave[0].has_speed && c->slave[0].has_aggregator_id);
	assert_true(c->slave[1].speed_present);
	assert_false(c->slave[1].has_speed || c->slave[1].has_aggregator_id);
	assert_string_equal(c->slave[1].mii_status, "");
	assert_int_equal(c->n_findings, 2);
	assert_string_equal(c->finding[1].id, "x");
	assert_string_equal(c->finding[1].subject, "");
	assert_false(in.end[1].have_bond || in.end[1].have_egress);
	assert_int_equal(in.n_placement_findings, 1);
	/* tests */
	assert_int_equal(in.n_tests, 2);
	k = bc_suite_input_result(&in, "tcp-k");
	o = bc_suite_input_result(&in, "udp-over");
	assert_non_null(k);
	assert_non_null(o);
	assert_null(bc_suite_input_result(&in, "tcp-1"));
	assert_string_equal(k->protocol, "tcp");
	assert_string_equal(k->tcp_timestamps, "0");
	assert_int_equal(k->n_ifc[0], 1);
	assert_int_equal(k->ifc[0][0].qdisc_drops, 3);
	assert_int_equal(k->ifc[0][0].rx_dropped, 0);
	assert_int_equal(k->n_streams, 2);
	assert_int_equal(k->stream[0].reord_seen, 2);
	assert_int_equal(k->stream[1].client_port, -1);
	assert_int_equal(json_object_get_int64(k->stream[0].j_goodput_bps), 4000000);
	assert_null(k->stream[0].j_dsack_dups);
	assert_int_equal(k->n_placed, 1);
	assert_string_equal(k->placed_slave[0], "eth1");
	assert_true(k->has_analysis);
	assert_int_equal(k->n_links, 2);
	assert_true(k->link[0].wire_bytes == 900);
	assert_null(k->link[1].j_peer);
	assert_int_equal(k->n_flows, 1);
	assert_true(k->flow[0].forward);
	assert_int_equal(k->flow[0].n_links, 2);
	assert_null(k->flow[0].link[1]);
	assert_true(o->has_length);
	assert_int_equal(o->length, 1400);
	assert_false(o->has_analysis);
	assert_int_equal(o->stream[0].n_bins, 2);
	assert_string_equal(o->stream[0].bin[1].key, "1");
	assert_int_equal(o->stream[0].bin[1].count, 2);
	assert_int_equal(o->stream[1].n_bins, 0);
	/* the search */
	assert_non_null(in.udp_search);
	assert_int_equal(in.n_trials, 1);
	assert_int_equal(in.trial_length, 1200);
	assert_int_equal(in.trial[0].t.refused, 1);
	assert_int_equal(in.trial[0].t.received, 9);
	/* a bond's captured link without its forward wire bytes: the verdicts
	 * reading tcp-k's rows (Aggregation, Drivers), not UDP gap */
	assert_true(has_problem(&in.need[BC_SUITE_DOC_AGG], wb));
	assert_true(has_problem(&in.need[BC_SUITE_DOC_DRV], wb));
	assert_int_equal(in.need[BC_SUITE_DOC_AGG].n_problems, 1);
	assert_int_equal(in.need[BC_SUITE_DOC_UDP].n_problems, 0);
	/* sent_bytes over duration - omit: 8 x 1250 bytes in 1 s */
	{
		struct json_object *t0 =
			json_object_array_get_idx(json_object_object_get(doc, "tests"), 0);

		assert_true(bc_suite_sent_bps(json_object_object_get(t0, "result")) == 8 * 1250);
	}
	bc_suite_input_free(&in);
	json_object_put(doc);
}

/* One interface (no bond): its share is the whole, nothing is required. */
static void test_single(void **state)
{
	struct json_object *doc = json_tokener_parse(
		"{\"egress\": {\"client\": {\"name\": \"eth0\"}},"
		" \"tests\": [{\"name\": \"tcp-k\", \"result\": {\"capture\": {\"analysis\": {"
		"  \"links\": [{\"name\": \"tx:client/eth0\"}]}}}}]}");
	struct bc_suite_input in;

	(void)state;
	assert_int_equal(bc_suite_input_read(doc, &in), 0);
	assert_false(in.end[0].egress_is_bond);
	assert_int_equal(in.end[0].n_eslaves, 1);
	assert_string_equal(in.end[0].eslave[0].name, "eth0");
	assert_string_equal(in.kind, "");
	for (int w = 0; w < 3; w++)
		assert_int_equal(in.need[w].n_problems, 0);
	bc_suite_input_free(&in);
	json_object_put(doc);
}

/* Not a document: nothing decoded, nothing crashes. */
static void test_empty(void **state)
{
	struct json_object *docs[3] = {json_object_new_object(), json_object_new_array(),
				       json_object_new_string("run-suite")};
	struct bc_suite_input in;

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(bc_suite_input_read(docs[i], &in), 0);
		assert_int_equal(in.n_tests, 0);
		assert_false(in.end[0].have_egress || in.end[0].have_bond);
		assert_null(in.udp_search);
		bc_suite_input_free(&in);
		json_object_put(docs[i]);
	}
	assert_int_equal(bc_suite_input_read(NULL, &in), 0);
	bc_suite_input_free(&in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_single),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
