// SPDX-License-Identifier: GPL-2.0-or-later
/* The suite document's reader (bondcheck/suite-doc.h): types, unknowns, required members. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/suite-doc.h"

static const char *const text =
	"{\"kind\": \"run-suite\","
	" \"ceilings\": {\"agent\": {\"mode_number\": 6}, \"client\": {\"mode_number\": 4, "
	"\"slaves\": ["
	"  {\"name\": \"eth0\", \"usable\": true, \"tcp_ceiling_bps\": 9.5e6,"
	"   \"udp_ceiling_bps\": null, \"speed_mbps\": 10, \"rate_source\": \"tbf\","
	"   \"missing\": [\"egress.client.bond.slaves[eth0].tbf_bps\"]},"
	"  {\"name\": \"eth1\", \"usable\": false}]}},"
	" \"ends\": {\"client\": {\"bonds\": [{\"name\": \"bond0\", \"ad_select\": null,"
	"  \"ad_info\": {\"status\": \"known\", \"aggregator_id\": 2},"
	"  \"slaves\": [{\"name\": \"eth0\", \"duplex\": null, \"aggregator_id\": 2},"
	"   {\"name\": \"eth1\", \"mii_status\": \"down\"}],"
	"  \"findings\": [{\"id\": \"offload-mismatch\", \"evidence\": {\"tso\": 1, \"gro\": "
	"2}}]}]}},"
	" \"placement\": {\"flows\": 2},"
	" \"tests\": [{\"name\": \"tcp-k\", \"result\": {\"goodput_bps\": \"fast\","
	"   \"streams\": [{}, {\"limited_by\": \"cpu\"}]}},"
	"  {\"name\": \"udp-over\", \"result\": {\"goodput_bps\": 1e6,"
	"   \"streams\": [{\"sent_packets\": 10, \"received_packets\": 8},"
	"    {\"sent_packets\": 5}],"
	"   \"findings\": [{\"id\": \"wire-loss\", \"subject\": \"tx:client/eth0\","
	"    \"evidence\": {\"count\": \"140\", \"host\": \"10.0.0.1\"}}],"
	"   \"capture\": {\"analysis\": {\"ledger\": [{\"stage\": \"reassembled\", \"drop\": 3}],"
	"    \"fragments\": {\"messages_arrived\": 4},"
	"    \"reassembly\": {\"reason\": \"memory\"}}},"
	"   \"test\": {\"direction\": \"forward\", \"length\": 10240,"
	"    \"duration_ms\": 2000}}}],"
	" \"links\": [{\"test\": \"tcp-k\", \"end\": \"client\", \"name\": \"eth0\","
	"  \"share\": 0.5, \"goodput_bps\": null}]}";

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
	struct bc_suite_doc *d = calloc(1, sizeof(*d));
	const struct bc_suite_doc_bond *b;

	(void)state;
	assert_non_null(doc);
	assert_non_null(d);
	bc_suite_doc_read(doc, d);
	assert_int_equal(d->mode, 4);
	assert_int_equal(d->n_ceil[0], 2);
	assert_true(d->ceil[0][0].usable);
	assert_true(d->ceil[0][0].tcp_ceiling_bps == 9.5e6);
	assert_true(isnan(d->ceil[0][0].udp_ceiling_bps)); /* null: unknown, not 0 */
	assert_true(isnan(d->ceil[0][1].tcp_ceiling_bps)); /* absent */
	assert_int_equal(d->ceil[0][1].speed_mbps, -1);
	assert_int_equal(d->ceil[0][0].n_missing, 1);
	assert_string_equal(d->ceil[0][0].missing[0], "egress.client.bond.slaves[eth0].tbf_bps");

	b = &d->bond[0];
	assert_true(b->have);
	assert_false(d->bond[1].have);
	/* a JSON null is present ("unknown"); an absent member is not */
	assert_true(b->has_ad_select);
	assert_false(b->has_primary);
	assert_true(b->has_ad_info);
	assert_int_equal(b->ad_info_aggregator_id, 2);
	assert_int_equal(b->n_slaves, 2);
	assert_true(b->slave[0].has_duplex);
	assert_string_equal(b->slave[0].duplex, "");
	assert_false(b->slave[1].has_duplex);
	assert_false(b->slave[0].has_mii_status);
	assert_string_equal(b->slave[1].mii_status, "down");
	assert_int_equal(b->slave[1].aggregator_id, -1);
	assert_int_equal(b->n_findings, 1);
	assert_string_equal(b->finding[0].evidence_keys, "tso, gro");

	/* tcp-k's goodput is a string: unknown, and Aggregation names it */
	assert_true(d->tcp_k.have);
	assert_true(isnan(d->tcp_k.goodput_bps));
	assert_true(d->tcp_k.cpu_bound);
	assert_int_equal(d->tcp_k.n_streams, 2);
	assert_true(has_problem(&d->need[BC_SUITE_DOC_AGG],
				"tests[tcp-k].result.goodput_bps (string, expected a number)"));
	assert_false(d->tcp_1.have);
	/* a stream without received_packets: UDP gap names it, the sum keeps the known */
	assert_int_equal(d->udp_over.sent_packets, 15);
	assert_int_equal(d->udp_over.received_packets, 8);
	assert_true(has_problem(&d->need[BC_SUITE_DOC_UDP],
				"tests[udp-over].result.streams[1].received_packets (absent)"));
	assert_int_equal(d->udp_over.finding[0].count, 140); /* a decimal string */
	assert_string_equal(d->udp_over.finding[0].host, "10.0.0.1");
	assert_int_equal(d->udp_over.n_stages, 1);
	assert_int_equal(d->udp_over.stage[0].drop, 3);
	assert_true(d->udp_over.fragmented);
	assert_true(d->udp_over.has_reassembly);
	/* the capacity model's ledger and direction inputs */
	assert_string_equal(d->udp_over.reasm_reason, "memory");
	assert_string_equal(d->udp_over.direction, "forward");
	assert_true(d->udp_over.length_bytes == 10240);
	assert_true(d->udp_over.duration_ms == 2000);
	assert_string_equal(d->tcp_k.direction, "");
	assert_true(isnan(d->tcp_k.length_bytes));
	assert_int_equal(d->agent_mode, 6);

	/* a bond without placement.placed: every verdict names it */
	assert_false(d->placed);
	assert_int_equal(d->placement_flows, 2);
	for (int w = 0; w < 3; w++)
		assert_true(has_problem(&d->need[w], "placement.placed (absent)"));

	assert_int_equal(d->n_rows, 1);
	assert_true(d->row[0].share == 0.5);
	assert_true(isnan(d->row[0].goodput_bps)); /* null: not measured, not 0 */
	assert_false(d->has_egress_client);
	assert_false(d->has_search);
	free(d);
	json_object_put(doc);
}

/* Not a suite document at all: nothing known, nothing crashes. */
static void test_empty(void **state)
{
	struct json_object *docs[3] = {json_tokener_parse("{}"), json_tokener_parse("[1, 2]"),
				       json_object_new_string("x")};
	struct bc_suite_doc *d = calloc(1, sizeof(*d));

	(void)state;
	assert_non_null(d);
	for (int i = 0; i < 3; i++) {
		bc_suite_doc_read(docs[i], d);
		assert_int_equal(d->mode, -1);
		assert_int_equal(d->agent_mode, -1);
		assert_false(d->bond[0].have);
		assert_false(d->tcp_k.have);
		assert_int_equal(d->need[BC_SUITE_DOC_AGG].n_problems, 0);
		json_object_put(docs[i]);
	}
	bc_suite_doc_read(NULL, d);
	assert_int_equal(d->mode, -1);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
