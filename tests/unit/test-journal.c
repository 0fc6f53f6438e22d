// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The journal as data: JSON round trip (memory and file), strict loading of
 * malformed and hostile journals, the field list and compare logic, the
 * default path and the refusal to overwrite an unrestored journal.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "bondcheck/journal.h"
#include "workflow/journal-int.h"

#define DATA BC_TEST_DATA "/journal/"

static struct json_object *fixture(const char *name)
{
	struct json_object *o = json_object_from_file(name);

	assert_non_null(o);
	return o;
}

static struct bc_journal *load_ok(const char *path)
{
	struct bc_journal *j = NULL;
	struct bc_error err = {0};

	if (bc_journal_load(path, &j, &err) < 0)
		fail_msg("%s: %s", path, err.msg);
	return j;
}

/* the compare entry for @field in @diff */
static struct json_object *entry(struct json_object *diff, const char *field)
{
	struct json_object *f = json_object_object_get(diff, "fields");

	for (size_t i = 0; i < json_object_array_length(f); i++) {
		struct json_object *e = json_object_array_get_idx(f, i);

		if (!strcmp(json_object_get_string(json_object_object_get(e, "field")), field))
			return e;
	}
	fail_msg("no field %s", field);
	return NULL;
}

static bool entry_ok(struct json_object *diff, const char *field)
{
	return json_object_get_boolean(json_object_object_get(entry(diff, field), "ok"));
}

static void test_load_values(void **state)
{
	struct bc_journal *j = load_ok(DATA "bond0-8023ad.json");
	int mode = bc_jopt_index("mode"), miimon = bc_jopt_index("miimon");
	int hash = bc_jopt_index("xmit_hash_policy"), rate = bc_jopt_index("lacp_rate");

	(void)state;
	assert_string_equal(bc_journal_bond(j), "bond0");
	assert_true(j->is_bond);
	assert_int_equal(bc_journal_n_slaves(j), 3);
	assert_string_equal(bc_journal_slave(j, 0), "eth0");
	assert_string_equal(bc_journal_slave(j, 2), "eth2");
	assert_null(bc_journal_slave(j, 3));
	assert_true(bc_journal_has_slave(j, "eth1"));
	assert_true(bc_journal_has_slave(j, "bond0"));
	assert_false(bc_journal_has_slave(j, "eth9"));
	assert_int_equal(j->opt[mode].v, 4);
	assert_int_equal(j->opt[miimon].v, 100);
	assert_int_equal(j->opt[hash].v, 1);
	assert_int_equal(j->opt[rate].v, 1);
	assert_int_equal(j->slaves[1].queue_id, 2);
	assert_false(j->slaves[2].admin_up);
	assert_int_equal(j->slaves[2].mii_status, 2);
	assert_true(j->slaves[0].lacp_in_sync);
	assert_true(j->primary_known);
	assert_string_equal(j->primary, "");
	assert_true(j->arp_targets_known);
	assert_int_equal(j->n_arp_targets, 0);
	bc_journal_free(j);
}

/* from_json(to_json(j)) == j, field by field and as text */
static void test_round_trip(void **state)
{
	const char *files[] = {DATA "bond0-8023ad.json", DATA "br0-bridge.json"};

	(void)state;
	for (size_t f = 0; f < 2; f++) {
		struct bc_journal *a = load_ok(files[f]), *b = NULL;
		struct json_object *ja = bc_journal_to_json(a), *jb, *diff;
		struct bc_error err = {0};

		assert_int_equal(bc_journal_from_json(ja, "mem", &b, &err), 0);
		jb = bc_journal_to_json(b);
		assert_string_equal(json_object_to_json_string(ja), json_object_to_json_string(jb));
		assert_int_equal(bc_journal_compare_states(a, b, &diff), 0);
		assert_true(json_object_get_boolean(json_object_object_get(diff, "match")));
		json_object_put(diff);
		json_object_put(ja);
		json_object_put(jb);
		bc_journal_free(a);
		bc_journal_free(b);
	}
}

static char tmpdir[64];

static void test_save_load_file(void **state)
{
	struct bc_journal *a = load_ok(DATA "bond0-8023ad.json"), *b;
	struct bc_error err = {0};
	char path[128];
	struct stat st;
	struct json_object *diff;

	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/bc-test-journal.XXXXXX");
	assert_non_null(mkdtemp(tmpdir));
	/* a directory that does not exist yet is created (0700) */
	snprintf(path, sizeof(path), "%s/sub/bond0.json", tmpdir);
	if (bc_journal_save(a, path, &err) < 0)
		fail_msg("save: %s", err.msg);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	snprintf(path, sizeof(path), "%s/sub", tmpdir);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	snprintf(path, sizeof(path), "%s/sub/bond0.json", tmpdir);
	b = load_ok(path);
	assert_int_equal(bc_journal_compare_states(a, b, &diff), 0);
	json_object_put(diff);
	/* an unrestored journal is never overwritten */
	bc_error_clear(&err);
	assert_int_equal(bc_journal_save(b, path, &err), -EEXIST);
	assert_non_null(strstr(err.msg, "bondcheck restore"));
	assert_non_null(strstr(err.msg, "pid 4242"));
	assert_int_equal(bc_journal_remove(path, &err), 0);
	assert_int_equal(bc_journal_remove(path, &err), 0); /* gone already: fine */
	bc_journal_free(b);
	b = NULL;
	bc_error_clear(&err);
	assert_int_equal(bc_journal_load(path, &b, &err), -ENOENT);
	snprintf(path, sizeof(path), "%s/sub", tmpdir);
	rmdir(path);
	rmdir(tmpdir);
	bc_journal_free(a);
}

/* Each mutation of the good journal must be refused naming @want. */
struct bad_case {
	const char *jq_like; /* description */
	const char *member;  /* member to replace, "a.b" for nested, "" top */
	const char *json;    /* new value (JSON text), NULL: delete */
	const char *want;    /* substring of the error */
};

static void apply(struct json_object *o, const char *member, const char *json)
{
	char m[64], *dot;
	struct json_object *parent = o;

	snprintf(m, sizeof(m), "%s", member);
	dot = strchr(m, '.');
	if (dot) {
		*dot = '\0';
		if (!strcmp(m, "slaves0"))
			parent = json_object_array_get_idx(json_object_object_get(o, "slaves"), 0);
		else
			parent = json_object_object_get(o, m);
		memmove(m, dot + 1, strlen(dot + 1) + 1);
	}
	if (json)
		json_object_object_add(parent, m, json_tokener_parse(json));
	else
		json_object_object_del(parent, m);
}

static void test_malformed(void **state)
{
	static const struct bad_case cases[] = {
		{"schema 2", "schema", "2", "schema 2"},
		{"schema text", "schema", "\"1\"", "expected an integer"},
		{"no schema", "schema", NULL, "member 'schema': missing"},
		{"bond missing", "bond", NULL, "member 'bond'"},
		{"bond path", "bond", "\"../etc\"", "not an interface name"},
		{"bond long", "bond", "\"abcdefghijklmnop\"", "string too long"},
		{"bond space", "bond", "\"bond 0\"", "not an interface name"},
		{"kind weird", "kind", "\"bond;rm\"", "not a link kind"},
		{"unknown top", "surprise", "1", "surprise is not a journal member"},
		{"device array", "device", "[]", "expected an object"},
		{"mtu float", "device.mtu", "1500.5", "expected an integer"},
		{"mtu huge", "device.mtu", "70000", "out of range"},
		{"mtu negative", "device.mtu", "-1", "out of range"},
		{"admin word", "device.admin_state", "\"sideways\"", "expected \"up\" or \"down\""},
		{"mac bad", "device.mac", "\"02:00:0g:00:00:01\"", "not a colon-hex"},
		{"mac short", "device.mac", "\"2:00\"", "not a colon-hex"},
		{"device extra", "device.flags", "1", "flags is not a journal member"},
		{"options missing", "options", NULL, "needs its options"},
		{"mode missing", "options.mode", NULL, "needs its mode"},
		{"mode unknown", "options.mode", "\"turbo\"", "unknown value \"turbo\""},
		{"mode number range", "options.mode", "300", "out of range"},
		{"u16 range", "options.ad_actor_sys_prio", "65536", "out of range"},
		{"option object", "options.miimon", "{}", "expected a name or an integer"},
		{"unknown option", "options.turbo_boost", "1", "not a bond option"},
		{"arp target", "options.arp_ip_target", "[\"10.0.0.300\"]", "not an address"},
		{"arp target v6", "options.arp_ip_target", "[\"fe80::1\"]", "not an address"},
		{"arp not array", "options.arp_ip_target", "\"10.0.0.1\"", "expected an array"},
		{"arp too many", "options.arp_ip_target",
		 "[\"1.1.1.1\",\"1.1.1.1\",\"1.1.1.1\",\"1.1.1.1\",\"1.1.1.1\",\"1.1.1.1\",\"1.1.1."
		 "1\","
		 "\"1.1.1.1\",\"1.1.1.1\",\"1.1.1.1\",\"1.1.1.1\",\"1.1.1.1\",\"1.1.1.1\",\"1.1.1."
		 "1\","
		 "\"1.1.1.1\",\"1.1.1.1\",\"1.1.1.1\"]",
		 "more than 16"},
		{"primary not slave", "options.primary", "\"eth9\"",
		 "not one of the journaled slaves"},
		{"actor system", "options.ad_actor_system", "\"x\"", "not a colon-hex"},
		{"slaves object", "slaves", "{}", "expected an array"},
		{"slave not object", "slaves", "[1]", "expected objects"},
		{"slave dup", "slaves",
		 "[{\"name\":\"eth0\",\"admin_state\":\"up\",\"mtu\":1500,\"mac\":\"02:00:00:00:00:"
		 "01\"},"
		 "{\"name\":\"eth0\",\"admin_state\":\"up\",\"mtu\":1500,\"mac\":\"02:00:00:00:00:"
		 "01\"}]",
		 "listed twice"},
		{"slave is bond", "slaves",
		 "[{\"name\":\"bond0\",\"admin_state\":\"up\",\"mtu\":1500,\"mac\":\"02:00:00:00:"
		 "00:01\"}]",
		 "listed twice"},
		{"slave mii", "slaves0.mii_status", "\"sideways\"", "unknown MII status"},
		{"slave sync", "slaves0.lacp_in_sync", "1", "expected true or false"},
		{"slave queue", "slaves0.queue_id", "65536", "out of range"},
		{"slave extra", "slaves0.speed", "1000", "speed is not a journal member"},
		{"slave name ctl", "slaves0.name", "\"eth\\u0001\"", "control characters"},
		{"slave name nul", "slaves0.name", "\"eth\\u0000x\"", "NUL"},
		{"options on bridge", "kind", "\"bridge\"", "has no bond options"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct json_object *o = fixture(DATA "bond0-8023ad.json");
		struct bc_journal *j = (struct bc_journal *)0x1;
		struct bc_error err = {0};
		int r;

		apply(o, cases[i].member, cases[i].json);
		r = bc_journal_from_json(o, "case", &j, &err);
		if (r != -EINVAL || j != NULL || !strstr(err.msg, cases[i].want))
			fail_msg("%s: r=%d, msg '%s', wanted '%s'", cases[i].jq_like, r, err.msg,
				 cases[i].want);
		json_object_put(o);
	}
}

static void test_slaves_limit(void **state)
{
	struct json_object *o = fixture(DATA "br0-bridge.json"), *arr = json_object_new_array();
	struct bc_journal *j = NULL;
	struct bc_error err = {0};

	(void)state;
	for (int i = 0; i < 65; i++) {
		struct json_object *s = json_object_new_object();
		char n[16];

		snprintf(n, sizeof(n), "p%d", i);
		json_object_object_add(s, "name", json_object_new_string(n));
		json_object_object_add(s, "admin_state", json_object_new_string("up"));
		json_object_object_add(s, "mtu", json_object_new_int(1500));
		json_object_object_add(s, "mac", json_object_new_string("02:00:00:00:00:01"));
		json_object_array_add(arr, s);
	}
	json_object_object_add(o, "slaves", arr);
	assert_int_equal(bc_journal_from_json(o, "x", &j, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "more than 64 slaves"));
	/* 64 is fine */
	json_object_array_del_idx(arr, 64, 1);
	bc_error_clear(&err);
	assert_int_equal(bc_journal_from_json(o, "x", &j, &err), 0);
	assert_int_equal(bc_journal_n_slaves(j), 64);
	bc_journal_free(j);
	json_object_put(o);
}

/* Files that are not journals at all: text, truncation, trailing data, size, depth. */
static void test_bad_files(void **state)
{
	static const struct {
		const char *content;
		size_t len;
		const char *want;
	} cases[] = {
		{"", 0, "not valid JSON"},
		{"not json", 8, "not valid JSON"},
		{"{\"schema\":1", 11, "not valid JSON"},
		{"{} {}", 5, "not valid JSON"}, /* strict: trailing data */
		{"[1,2]", 5, "expected a JSON object"},
		{"{\"schema\":1}\0{}", 15, "NUL byte"},
		{"{'schema':1}", 12,
		 "member 'bond'"}, /* json-c takes single quotes; validation still refuses */
	};
	char dir[] = "/tmp/bc-test-badj.XXXXXX", path[64];
	struct bc_journal *j = NULL;
	struct bc_error err = {0};
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/j.json", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		f = fopen(path, "w");
		fwrite(cases[i].content, 1, cases[i].len, f);
		fclose(f);
		bc_error_clear(&err);
		assert_int_equal(bc_journal_load(path, &j, &err), -EINVAL);
		assert_null(j);
		if (!strstr(err.msg, cases[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg, cases[i].want);
	}
	/* deeper than the tokener's 16 levels */
	f = fopen(path, "w");
	for (int i = 0; i < 40; i++)
		fputc('[', f);
	fclose(f);
	bc_error_clear(&err);
	assert_int_equal(bc_journal_load(path, &j, &err), -EINVAL);
	/* larger than BC_JOURNAL_MAX_FILE */
	f = fopen(path, "w");
	for (int i = 0; i <= BC_JOURNAL_MAX_FILE; i++)
		fputc(' ', f);
	fclose(f);
	bc_error_clear(&err);
	assert_int_equal(bc_journal_load(path, &j, &err), -EFBIG);
	/* a directory is not a journal */
	bc_error_clear(&err);
	assert_int_equal(bc_journal_load(dir, &j, &err), -EINVAL);
	unlink(path);
	rmdir(dir);
}

/* The compare logic: which fields differ, promise vs informational, sets vs order. */
static void test_compare(void **state)
{
	struct bc_journal *a = load_ok(DATA "bond0-8023ad.json");
	struct bc_journal *b = load_ok(DATA "bond0-8023ad.json");
	struct json_object *diff;
	struct bc_jslave t;

	(void)state;
	/* informational only: the active slave differs -> still a match */
	b->active_known = true;
	snprintf(b->active_slave, sizeof(b->active_slave), "eth1");
	assert_int_equal(bc_journal_compare_states(a, b, &diff), 0);
	assert_false(entry_ok(diff, "bond0.active_slave"));
	assert_true(json_object_get_boolean(json_object_object_get(diff, "match")));
	json_object_put(diff);

	/* mode, slave order, one slave's MTU and queue id */
	b->opt[bc_jopt_index("mode")].v = 1;
	t = b->slaves[0];
	b->slaves[0] = b->slaves[1];
	b->slaves[1] = t;
	b->slaves[2].mtu = 9000;
	b->slaves[1].queue_id = 7; /* eth0 now at index 1 */
	assert_int_equal(bc_journal_compare_states(a, b, &diff), 1);
	assert_false(json_object_get_boolean(json_object_object_get(diff, "match")));
	assert_false(entry_ok(diff, "bond0.mode"));
	assert_string_equal(
		json_object_get_string(json_object_object_get(entry(diff, "bond0.mode"), "live")),
		"active-backup");
	assert_false(entry_ok(diff, "bond0.slaves"));
	assert_string_equal(
		json_object_get_string(json_object_object_get(entry(diff, "bond0.slaves"), "live")),
		"eth1 eth0 eth2");
	assert_false(entry_ok(diff, "bond0/eth2.mtu"));
	assert_false(entry_ok(diff, "bond0/eth0.queue_id"));
	assert_true(entry_ok(diff, "bond0/eth1.queue_id"));
	assert_true(entry_ok(diff, "bond0.miimon"));
	assert_true(entry_ok(diff, "bond0/eth0.mtu"));
	json_object_put(diff);

	/* a slave gone from the live bond: its fields are "absent" */
	b->n_slaves = 2;
	assert_int_equal(bc_journal_compare_states(a, b, &diff), 1);
	assert_string_equal(json_object_get_string(json_object_object_get(
				    entry(diff, "bond0/eth2.admin_state"), "live")),
			    "absent");
	json_object_put(diff);
	bc_journal_free(a);
	bc_journal_free(b);

	/* a bridge's membership is a set: order does not matter, the set does */
	a = load_ok(DATA "br0-bridge.json");
	b = load_ok(DATA "br0-bridge.json");
	t = b->slaves[0];
	b->slaves[0] = b->slaves[2];
	b->slaves[2] = t;
	assert_int_equal(bc_journal_compare_states(a, b, &diff), 0);
	json_object_put(diff);
	b->n_slaves = 2;
	assert_int_equal(bc_journal_compare_states(a, b, &diff), 1);
	assert_false(entry_ok(diff, "br0.slaves"));
	json_object_put(diff);
	bc_journal_free(a);
	bc_journal_free(b);
}

/* Every option of the table round-trips by name and by number. */
static void test_option_table(void **state)
{
	char buf[32];

	(void)state;
	assert_true(bc_n_jopts >= 25);
	assert_int_equal(bc_jopt_index("mode"), 0); /* restore sets the mode first */
	assert_int_equal(bc_jopt_index("nonsense"), -1);
	assert_string_equal(bc_jopt_text((size_t)bc_jopt_index("mode"), 4, buf, sizeof(buf)),
			    "802.3ad");
	assert_string_equal(
		bc_jopt_text((size_t)bc_jopt_index("arp_all_targets"), 1, buf, sizeof(buf)), "all");
	assert_string_equal(bc_jopt_text((size_t)bc_jopt_index("miimon"), 100, buf, sizeof(buf)),
			    "100");
	for (size_t i = 0; i < bc_n_jopts; i++) {
		/* NOSLAVES options sit in phase 0, IFDOWN-only ones in phase 1 */
		if (bc_jopts[i].flags & JOPT_NOSLAVES)
			assert_int_equal(bc_jopts[i].phase, 0);
		else if (bc_jopts[i].flags & JOPT_IFDOWN)
			assert_int_equal(bc_jopts[i].phase, 1);
		else
			assert_true(bc_jopts[i].phase >= 2);
	}
	assert_true(bc_jopts[bc_jopt_index("miimon")].phase <
		    bc_jopts[bc_jopt_index("updelay")].phase);
}

static void test_default_path(void **state)
{
	char buf[256];
	struct bc_error err = {0};

	(void)state;
	setenv("BC_JOURNAL_DIR", "/tmp/jd", 1);
	assert_int_equal(bc_journal_default_path("bond0", buf, sizeof(buf), &err), 0);
	assert_int_equal(strncmp(buf, "/tmp/jd/bond0", 13), 0);
	assert_non_null(strstr(buf, ".json"));
	assert_int_equal(bc_journal_default_path("../x", buf, sizeof(buf), &err), -EINVAL);
	assert_int_equal(bc_journal_default_path("", buf, sizeof(buf), &err), -EINVAL);
	assert_int_equal(bc_journal_default_path("abcdefghijklmnop", buf, sizeof(buf), &err),
			 -EINVAL);
	assert_int_equal(bc_journal_default_path("bond0", buf, 10, &err), -ENAMETOOLONG);
	unsetenv("BC_JOURNAL_DIR");
	assert_int_equal(bc_journal_default_path("bond0", buf, sizeof(buf), &err), 0);
	assert_int_equal(strncmp(buf, BC_JOURNAL_DIR "/bond0", strlen(BC_JOURNAL_DIR) + 6), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_values),    cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_save_load_file), cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_slaves_limit),   cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_compare),	       cmocka_unit_test(test_option_table),
		cmocka_unit_test(test_default_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
