// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON renderer: the document parses back with json-c and carries the
 * values and statuses of docs/inspect-json.md (null for anything not
 * known, *_status saying why).  Byte-exact layout is checked by the golden
 * tests; this checks meaning.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "bondcheck/findings.h"
#include "bondcheck/inspect-report.h"
#include "bondcheck/proc.h"
#include "bondcheck/text.h"

#define CASES BC_TEST_DATA "/proc-net-bonding/"

static struct bc_snapshot snap;
static struct json_object *doc;

static int teardown(void **state)
{
	(void)state;
	bc_snapshot_free(&snap);
	json_object_put(doc);
	doc = NULL;
	return 0;
}

/* Render @snap to text and parse it back, as a consumer would. */
static struct json_object *render(const char *generated_at)
{
	struct bc_inspect_render_opts o = {.generated_at = generated_at, .version = "9.9.9"};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(bc_inspect_json_write(f, &snap, &o), 0);
	fclose(f);
	assert_true(bc_utf8_valid(buf, len));
	assert_int_equal(buf[len - 1], '\n');
	doc = json_tokener_parse(buf);
	free(buf);
	assert_non_null(doc);
	return doc;
}

static void load(const char *file)
{
	struct bc_error err = {0};
	char path[512];

	snprintf(path, sizeof(path), CASES "%s", file);
	memset(&snap, 0, sizeof(snap));
	snap.source = BC_SRC_PROC_FILE;
	if (bc_proc_parse_file(path, "bond0", &snap, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(bc_findings_evaluate(&snap), 0);
}

/* Member at a path like "bonds/0/slaves/1/speed_mbps"; fails when absent. */
static struct json_object *at(struct json_object *o, const char *path)
{
	char buf[256];
	char *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, "/", &save); k; k = strtok_r(NULL, "/", &save)) {
		if (json_object_is_type(o, json_type_array)) {
			o = json_object_array_get_idx(o, (size_t)atoi(k));
		} else {
			struct json_object *v;

			if (!json_object_object_get_ex(o, k, &v))
				fail_msg("no member '%s' in path %s", k, path);
			o = v;
		}
	}
	return o;
}

static const char *s_at(struct json_object *o, const char *path)
{
	struct json_object *v = at(o, path);

	assert_true(json_object_is_type(v, json_type_string));
	return json_object_get_string(v);
}

static int64_t i_at(struct json_object *o, const char *path)
{
	struct json_object *v = at(o, path);

	assert_true(json_object_is_type(v, json_type_int));
	return json_object_get_int64(v);
}

static void test_case01(void **state)
{
	struct json_object *d, *words, *findings;
	bool defaulted = false;

	(void)state;
	load("01-8023ad-slave-down-churned-split-agg.txt");
	d = render("2024-05-01T12:00:00Z");
	assert_int_equal(i_at(d, "schema_version"), BC_INSPECT_JSON_SCHEMA);
	assert_string_equal(s_at(d, "bondcheck_version"), "9.9.9");
	assert_string_equal(s_at(d, "generated_at"), "2024-05-01T12:00:00Z");
	assert_string_equal(s_at(d, "source"), "proc-file");
	assert_string_equal(s_at(d, "bonds/0/name"), "bond0");
	assert_string_equal(s_at(d, "bonds/0/mode"), "802.3ad");
	assert_string_equal(s_at(d, "bonds/0/xmit_hash_policy"), "layer3+4");
	assert_int_equal(i_at(d, "bonds/0/miimon_ms"), 100);
	assert_null(at(d, "bonds/0/peer_notif_delay_ms")); /* not printed by this kernel */
	assert_string_equal(s_at(d, "bonds/0/ad_info/status"), "known");
	assert_int_equal(i_at(d, "bonds/0/ad_info/aggregator_id"), 2);
	assert_string_equal(s_at(d, "bonds/0/slaves/0/name"), "enp1s0f0");
	assert_null(at(d, "bonds/0/slaves/0/speed_mbps"));
	assert_string_equal(s_at(d, "bonds/0/slaves/0/speed_status"), "unknown");
	assert_string_equal(s_at(d, "bonds/0/slaves/0/mii_status"), "down");
	assert_int_equal(i_at(d, "bonds/0/slaves/1/speed_mbps"), 1000);
	assert_string_equal(s_at(d, "bonds/0/slaves/1/speed_status"), "known");
	assert_string_equal(s_at(d, "bonds/0/slaves/1/duplex"), "full");
	assert_int_equal(i_at(d, "bonds/0/slaves/1/aggregator_id"), 2);
	assert_int_equal(i_at(d, "bonds/0/slaves/1/actor_port_state"), 79);
	words = at(d, "bonds/0/slaves/1/actor_port_state_words");
	assert_int_equal(json_object_array_length(words), 5);
	for (size_t i = 0; i < 5; i++)
		defaulted |= !strcmp(json_object_get_string(json_object_array_get_idx(words, i)),
				     "defaulted");
	assert_true(defaulted);
	assert_string_equal(s_at(d, "bonds/0/slaves/0/actor_churn_state"), "churned");
	assert_int_equal(i_at(d, "bonds/0/slaves/1/partner_lacpdu/oper_key"), 1);
	findings = at(d, "bonds/0/findings");
	assert_int_equal(json_object_array_length(findings), 7);
	assert_string_equal(s_at(d, "bonds/0/findings/0/severity"), "error");
	assert_string_equal(s_at(d, "bonds/0/findings/0/id"), "slave-down");
	assert_string_equal(s_at(d, "bonds/0/findings/0/subject"), "bond0/enp1s0f0");
	/* integer evidence becomes a number, text stays a string */
	assert_int_equal(i_at(d, "bonds/0/findings/0/evidence/link_failure_count"), 2);
	assert_string_equal(s_at(d, "bonds/0/findings/0/evidence/slaves_up"), "1 of 2");
	assert_true(strlen(s_at(d, "bonds/0/findings/0/advice")) > 40);
	assert_int_equal(i_at(d, "finding_counts/error"), 3); /* the down port is not a split */
	assert_int_equal(i_at(d, "finding_counts/warning"), 2);
	assert_int_equal(i_at(d, "finding_counts/info"), 2);
}

static void test_not_reported_and_hidden(void **state)
{
	struct json_object *d;

	(void)state;
	load("02-balance-xor-v2.6.0-slave-down-lkml2005.txt");
	d = render(NULL);
	assert_null(at(d, "generated_at"));
	assert_null(at(d, "bonds/0/slaves/0/speed_mbps"));
	assert_string_equal(s_at(d, "bonds/0/slaves/0/speed_status"), "not_reported");
	assert_string_equal(s_at(d, "bonds/0/slaves/0/duplex_status"), "not_reported");
	assert_null(at(d, "bonds/0/xmit_hash_policy"));
	assert_null(at(d, "bonds/0/slaves/0/actor_lacpdu"));
	teardown(NULL);

	load("16-8023ad-v6.6-wsl2-nonroot-view.txt");
	d = render(NULL);
	assert_true(json_object_get_boolean(at(d, "lacp_hidden")));
	assert_string_equal(s_at(d, "bonds/0/ad_info/status"), "hidden");
	assert_null(at(d, "bonds/0/ad_info/aggregator_id"));
	assert_string_equal(s_at(d, "bonds/0/slaves/0/actor_port_state_status"), "hidden");
	assert_null(at(d, "bonds/0/slaves/0/actor_port_state_words"));
	assert_int_equal(i_at(d, "bonds/0/slaves/0/aggregator_id"), 2);
	assert_string_equal(s_at(d, "bonds/0/findings/0/id"), "lacp-details-hidden");
	teardown(NULL);

	load("24-balance-xor-v4.18-vlansrc-no-slaves.txt");
	d = render(NULL);
	assert_string_equal(s_at(d, "bonds/0/xmit_hash_policy"), "vlansrc");
	assert_int_equal(i_at(d, "bonds/0/xmit_hash_policy_number"), 5);
	assert_int_equal(json_object_array_length(at(d, "bonds/0/slaves")), 0);
	assert_string_equal(s_at(d, "kernel_release"), "4.18.0-272.el8.vstx.x86_64");
}

static void test_invalid_utf8_names(void **state)
{
	struct bc_bond *b;
	struct json_object *d;

	(void)state;
	memset(&snap, 0, sizeof(snap));
	b = bc_snapshot_add_bond(&snap, "bond\xff");
	bc_bond_add_slave(b, "e\xc3\x28");
	bc_bond_add_unknown(b, "k\x01", "v\xfe");
	assert_int_equal(bc_findings_evaluate(&snap), 0);
	d = render(NULL);
	assert_string_equal(s_at(d, "bonds/0/name"), "bond?");
	assert_string_equal(s_at(d, "bonds/0/slaves/0/name"), "e?(");
	assert_string_equal(s_at(d, "bonds/0/unknown_keys/0/key"), "k?");
	assert_string_equal(s_at(d, "bonds/0/findings/0/subject"), "bond?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_case01, teardown),
		cmocka_unit_test_teardown(test_not_reported_and_hidden, teardown),
		cmocka_unit_test_teardown(test_invalid_utf8_names, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
