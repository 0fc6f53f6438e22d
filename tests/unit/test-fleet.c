// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/fleet.h"

/* An inspect -j document of one 802.3ad bond0 with two slaves. */
static struct json_object *doc(const char *host, const char *kernel, const char *lacp_rate,
			       const char *drv0, const char *drv1, const char *actor)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "{\"schema_version\": 2, \"host\": \"%s\", \"kernel_release\": \"%s\","
		 " \"bonds\": [{\"name\": \"bond0\", \"mode\": \"802.3ad\", \"miimon_ms\": 100,"
		 " \"arp_interval_ms\": 0, \"lacp_rate\": \"%s\", \"xmit_hash_policy\": \"layer3+4\","
		 " \"ad_select\": \"stable\", \"mtu\": 9000, \"slaves_incomplete\": false,"
		 " \"slaves\": ["
		 "  {\"name\": \"eth0\", \"driver\": \"%s\", \"driver_version\": \"%s\","
		 "   \"firmware_version\": \"1.0\", \"speed_mbps\": 1000, \"mtu\": 9000,"
		 "   \"actor_lacpdu\": {\"system_mac\": \"%s\"}},"
		 "  {\"name\": \"eth1\", \"driver\": \"%s\", \"driver_version\": \"%s\","
		 "   \"firmware_version\": \"1.0\", \"speed_mbps\": 1000, \"mtu\": 9000,"
		 "   \"actor_lacpdu\": {\"system_mac\": \"%s\"}}],"
		 " \"findings\": [{\"id\": \"x\", \"severity\": \"warning\"}]}]}",
		 host, kernel, lacp_rate, drv0, kernel, actor, drv1, kernel, actor);
	return json_tokener_parse(text);
}

/* a host of doc() whose slaves' driver_version is @ver instead of the kernel's */
static struct json_object *doc_ver(const char *host, const char *drv, const char *ver)
{
	struct json_object *o = doc(host, "6.1", "fast", drv, drv, ""), *b, *sl;

	b = json_object_array_get_idx(json_object_object_get(o, "bonds"), 0);
	sl = json_object_object_get(b, "slaves");
	for (size_t i = 0; i < json_object_array_length(sl); i++)
		json_object_object_add(json_object_array_get_idx(sl, i), "driver_version",
				       json_object_new_string(ver));
	return o;
}

static void read_one(struct bc_fleet *f, struct json_object *o)
{
	assert_non_null(o);
	assert_int_equal(bc_fleet_read_doc(f, o, "hint", "test"), 0);
	json_object_put(o);
}

/* "id attr value/detail: hosts" for finding @i */
static const char *line(const struct bc_fleet *f, size_t i)
{
	static char out[512];
	const struct bc_fleet_finding *x = &f->finding[i];
	size_t used;

	used = (size_t)snprintf(out, sizeof(out), "%s %s %s%s%s:", bc_fleet_kind_id(x->kind, NULL),
				x->attr >= 0 ? bc_fleet_attr_name(x->attr) : "-", x->value,
				x->majority[0] ? " vs " : "", x->majority);
	for (size_t k = 0; k < x->n_hosts && used < sizeof(out); k++)
		used += (size_t)snprintf(out + used, sizeof(out) - used, " %s", x->hosts[k]);
	return out;
}

/* 8 hosts: one with a slave of another driver, one lacp_rate slow among fast */
static void test_two_drifts(void **state)
{
	struct bc_fleet f = { 0 };
	char name[16];

	(void)state;
	for (int i = 8; i >= 1; i--) { /* read out of order: the report sorts */
		char mac[18];

		snprintf(name, sizeof(name), "node%02d", i);
		snprintf(mac, sizeof(mac), "52:54:00:00:00:%02x", i);
		read_one(&f, doc(name, "6.1.0-25-amd64", i == 5 ? "slow" : "fast", "e1000e",
				 i == 3 ? "r8169" : "e1000e", mac));
	}
	assert_int_equal(bc_fleet_analyze(&f, NULL), 0);
	assert_int_equal(f.n_findings, 2);
	assert_string_equal(line(&f, 0), "fleet-drift driver e1000e, r8169 vs e1000e: node03");
	assert_int_equal(f.finding[0].majority_hosts, 7);
	assert_int_equal(f.finding[0].group_hosts, 8);
	assert_string_equal(line(&f, 1), "fleet-drift lacp_rate slow vs fast: node05");
	assert_string_equal(f.host[0].host, "node01");
	assert_int_equal(f.host[0].bonds[0].n_warning, 1);
	bc_fleet_free(&f);
}

/* a tie (and a group of two) differs, with no side blamed */
static void test_tie_and_versions(void **state)
{
	struct bc_fleet f = { 0 };

	(void)state;
	read_one(&f, doc("a", "6.1", "fast", "e1000e", "e1000e", ""));
	read_one(&f, doc("b", "6.1", "slow", "e1000e", "e1000e", ""));
	/* other kernel releases: their driver versions are not compared with 6.1's */
	read_one(&f, doc("c", "6.8", "fast", "e1000e", "e1000e", ""));
	read_one(&f, doc("d", "5.10", "slow", "e1000e", "e1000e", ""));
	assert_int_equal(bc_fleet_analyze(&f, NULL), 0);
	assert_int_equal(f.n_findings, 1);
	assert_string_equal(line(&f, 0), "fleet-differs lacp_rate : a b c d");
	assert_string_equal(f.finding[0].detail, "fast on 2 hosts; slow on 2 hosts");
	bc_fleet_free(&f);
}

/* another driver is one driver drift, not also a driver_version drift */
static void test_version_beside_its_driver(void **state)
{
	struct bc_fleet f = { 0 };

	(void)state;
	read_one(&f, doc_ver("a", "e1000e", "3.2.6-k"));
	read_one(&f, doc_ver("b", "e1000e", "3.2.6-k"));
	read_one(&f, doc_ver("c", "e1000e", "3.2.6-k"));
	read_one(&f, doc_ver("d", "r8169", "9.9"));
	read_one(&f, doc_ver("e", "e1000e", "3.8.4"));
	assert_int_equal(bc_fleet_analyze(&f, NULL), 0);
	assert_int_equal(f.n_findings, 2);
	assert_string_equal(line(&f, 0), "fleet-drift driver r8169 vs e1000e: d");
	assert_string_equal(line(&f, 1), "fleet-drift driver_version 3.8.4 vs 3.2.6-k: e");
	bc_fleet_free(&f);
}

static void test_alone_dup_failed_missing(void **state)
{
	struct bc_fleet f = { 0 };
	struct bc_hostlist exp;
	char err[128];
	struct json_object *o;

	(void)state;
	read_one(&f, doc("n1", "6.1", "fast", "ixgbe", "ixgbe", "00:11:22:33:44:55"));
	read_one(&f, doc("n2", "6.1", "fast", "ixgbe", "ixgbe", "00:11:22:33:44:55"));
	read_one(&f, doc("n3", "6.1", "fast", "ixgbe", "ixgbe", "00:00:00:00:00:00"));
	o = json_tokener_parse("{\"host\": \"n4\", \"bonds\": [{\"name\": \"bond0\","
			       " \"mode\": \"active-backup\", \"slaves\": []}]}");
	read_one(&f, o);
	read_one(&f, json_tokener_parse("{\"error\": {\"exit\": 3, \"kind\": \"environment\","
					" \"message\": \"no bond found\"}}"));
	/* not an inspect document: a failed host naming what is missing */
	o = json_tokener_parse("{\"host\": \"n6\", \"bonds\": 7}");
	read_one(&f, o);
	assert_int_equal(bc_fleet_add_failed(&f, "n7", "stdin", "not JSON: unexpected end"), 0);
	assert_int_equal(bc_fleet_add_failed(&f, "n7", "stdin", "again"), -EEXIST);
	assert_int_equal(bc_hostlist_parse("n[1-9],hint", &exp, err, sizeof(err)), 0);
	assert_int_equal(bc_fleet_analyze(&f, &exp), 0);
	assert_int_equal(f.n_findings, 6);
	assert_string_equal(line(&f, 0), "fleet-bond-alone - active-backup: n4");
	assert_string_equal(f.finding[0].detail, "3 hosts in 802.3ad");
	assert_string_equal(line(&f, 1), "fleet-duplicate-actor-system - 00:11:22:33:44:55: n1 n2");
	assert_string_equal(line(&f, 2), "fleet-host-failed - : hint");
	assert_string_equal(f.finding[2].detail,
			    "inspect failed (environment, exit 3): no bond found");
	assert_string_equal(line(&f, 3), "fleet-host-failed - : n6");
	assert_string_equal(f.finding[3].detail,
			    "not an inspect -j document: bonds (number, expected an array)");
	assert_string_equal(line(&f, 4), "fleet-host-failed - : n7");
	assert_string_equal(line(&f, 5), "fleet-host-missing - : n5 n8 n9");
	assert_int_equal(f.n_missing, 3);
	bc_hostlist_free(&exp);
	bc_fleet_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_drifts),
		cmocka_unit_test(test_tie_and_versions),
		cmocka_unit_test(test_version_beside_its_driver),
		cmocka_unit_test(test_alone_dup_failed_missing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
