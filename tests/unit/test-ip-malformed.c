// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Damaged input to the `ip` listing decoder (bondcheck/ip-link.h): every
 * case gives 0 with warnings or a negative errno with a message that says
 * what was expected and what was found; nothing is appended on error.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/findings.h"
#include "bondcheck/ip-link.h"

#define BOND_REC                                                                                   \
	"7: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP\n"     \
	"    link/ether 02:00:00:00:ee:01 brd ff:ff:ff:ff:ff:ff\n"                                 \
	"    bond mode active-backup active_slave eth0 miimon 100 updelay 0 downdelay 0\n"         \
	"3: eth0: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 1500 master bond0 state UP\n"        \
	"    bond_slave state ACTIVE mii_status UP link_failure_count 0\n"

static struct bc_snapshot snap;
static struct bc_error err;

static int setup(void **state)
{
	(void)state;
	memset(&snap, 0, sizeof(snap));
	memset(&err, 0, sizeof(err));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	bc_snapshot_free(&snap);
	return 0;
}

static int parse(const char *text, size_t len)
{
	int rc = bc_ip_parse(text, len, "t", &snap, &err);

	if (!rc)
		assert_int_equal(bc_findings_evaluate(&snap), 0);
	else
		assert_int_equal(snap.n_bonds, 0);
	return rc;
}

static bool warned(const char *what)
{
	for (size_t i = 0; i < snap.n_warnings; i++)
		if (strstr(snap.warnings[i], what))
			return true;
	return false;
}

static void test_empty_and_garbage(void **state)
{
	static const char garbage[] = "hello world\n$ ip -d link\nPermission denied\n";

	(void)state;
	assert_int_equal(parse("", 0), -EINVAL);
	assert_non_null(strstr(err.msg, "found no interface line"));
	assert_int_equal(parse(NULL, 0), -EINVAL);
	memset(&err, 0, sizeof(err));
	assert_int_equal(parse(garbage, strlen(garbage)), -EINVAL);
	assert_non_null(strstr(err.msg, "expected an `ip -d link` listing"));
}

static void test_no_bond(void **state)
{
	static const char t[] =
		"1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN\n"
		"2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc mq state UP\n"
		"    link/ether 02:00:00:00:ee:09 brd ff:ff:ff:ff:ff:ff\n";

	(void)state;
	assert_int_equal(parse(t, strlen(t)), -EINVAL);
	assert_non_null(strstr(err.msg, "found 2 interfaces (lo, eth0)"));
	assert_non_null(strstr(err.msg, "'bond mode ...'"));
}

static void test_json_errors(void **state)
{
	static const char trunc[] = "[{\"ifname\":\"bond0\",\"linkinfo\":{\"info_kind\":\"bo";
	static const char bad[] = "[{\"ifname\": bond0}]";
	static const char scalar[] = "{\"x\":1} \"eth0\" ";

	(void)state;
	assert_int_equal(parse(trunc, strlen(trunc)), -EINVAL);
	assert_non_null(strstr(err.msg, "truncated"));
	memset(&err, 0, sizeof(err));
	assert_int_equal(parse(bad, strlen(bad)), -EINVAL);
	assert_non_null(strstr(err.msg, "expected the JSON of `ip -j -d link show`"));
	memset(&err, 0, sizeof(err));
	/* an object without ifname, then a string: no interface at all */
	assert_int_equal(parse(scalar, strlen(scalar)), -EINVAL);
	assert_non_null(strstr(err.msg, "found a string"));
}

/* Members of the wrong type are skipped, never dereferenced. */
static void test_json_wrong_types(void **state)
{
	static const char t[] =
		"[{\"ifname\":\"bond0\",\"ifindex\":\"x\",\"mtu\":\"big\",\"flags\":5,"
		"\"linkinfo\":{\"info_kind\":\"bond\",\"info_data\":{\"mode\":4,\"miimon\":-5,"
		"\"arp_ip_target\":[1,2],\"ad_info\":[],\"primary\":null}}},"
		"{\"ifname\":7},\"eth0\",null,"
		"{\"ifname\":\"eth0\",\"master\":\"bond0\",\"linkinfo\":{\"info_slave_kind\":"
		"\"bond\","
		"\"info_slave_data\":{\"state\":\"WEIRD\",\"mii_status_index\":3,\"prio\":-10}}}]";

	(void)state;
	assert_int_equal(parse(t, strlen(t)), 0);
	assert_int_equal(snap.n_bonds, 1);
	assert_int_equal(snap.bonds[0].mode.v, 4); /* ip prints a number for an unknown mode */
	assert_int_equal(snap.bonds[0].miimon_ms.st, BC_NOT_REPORTED);
	assert_int_equal(snap.bonds[0].mtu.st, BC_NOT_REPORTED);
	assert_int_equal(snap.bonds[0].n_slaves, 1);
	assert_int_equal(snap.bonds[0].slaves[0].state.st, BC_NOT_REPORTED);
	assert_int_equal(snap.bonds[0].slaves[0].mii_status.v, BC_LINK_BACK);
	assert_int_equal((int32_t)snap.bonds[0].slaves[0].prio.v, -10);
	assert_true(warned("expected an interface object"));
	assert_true(warned("'miimon' expected a number, found '-5'"));
}

static void test_nul_and_binary(void **state)
{
	static const char junk[] = "    RX: bytes\n\0\x01\x02 junk\n";
	char t[sizeof(BOND_REC) + sizeof(junk)];
	size_t n = strlen(BOND_REC);

	(void)state;
	memcpy(t, BOND_REC, n);
	memcpy(t + n, junk, sizeof(junk) - 1);
	assert_int_equal(parse(t, n + sizeof(junk) - 1), 0);
	assert_int_equal(snap.bonds[0].n_slaves, 1);
	assert_true(warned("binary data"));
	bc_snapshot_free(&snap);

	/* NULs inside the bond line: that line is skipped, the rest is read */
	memcpy(t, BOND_REC, n);
	t[strstr(t, "bond mode") - t + 5] = '\0';
	assert_int_equal(parse(t, n), 0);
	assert_int_equal(snap.bonds[0].mode.st, BC_NOT_REPORTED);
	assert_true(warned("line 3: binary data"));
}

static void test_huge_lines(void **state)
{
	size_t big = 200000, n = strlen(BOND_REC);
	char *t = malloc(n + big + 2);

	(void)state;
	assert_non_null(t);
	memcpy(t, BOND_REC, n);
	memset(t + n, 'a', big);
	t[n + big] = '\n';
	assert_int_equal(parse(t, n + big + 1), 0);
	assert_true(warned("longer than any line ip prints"));
	bc_snapshot_free(&snap);
	/* a bond line of 10,000 options: cut, no overflow */
	memset(t, 0, n + big + 2);
	strcpy(t, "7: bond0: <UP> mtu 1\n    bond");
	for (size_t i = strlen(t); i + 12 < big; i += 11)
		memcpy(t + i, " miimon 100", 11);
	assert_int_equal(parse(t, strlen(t)), 0);
	assert_int_equal(snap.bonds[0].miimon_ms.v, 100);
	free(t);
	/* too large at all */
	assert_int_equal(bc_ip_parse("x", (size_t)BC_IP_MAX_SIZE + 1, "t", &snap, &err), -EFBIG);
}

/* A cut listing: the last interface ends inside its bond_slave line. */
static void test_truncated_text(void **state)
{
	static const char t[] = "7: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 1500\n"
				"    bond mode 802.3ad miimon 100 ad_select stable ad_aggregator 1 "
				"ad_num_ports 2\n"
				"3: eth0: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 1500 master "
				"bond0 state UP\n"
				"    bond_slave state ACTIVE mii_sta";

	(void)state;
	assert_int_equal(parse(t, strlen(t)), 0);
	assert_int_equal(snap.bonds[0].n_slaves, 1);
	assert_int_equal(snap.bonds[0].slaves[0].mii_status.st, BC_NOT_REPORTED);
	assert_true(snap.bonds[0].slaves_incomplete); /* 2 ports, 1 listed */
	for (size_t i = 0; i < snap.n_findings; i++)
		assert_string_not_equal(snap.findings[i].id, "single-slave");
}

/* bad values: warned and left not reported, never a wrong value */
static void test_bad_values(void **state)
{
	static const char t[] =
		"> > 7: bond0: <UP,LOWER_UP> mtu 1500 state SIDEWAYS\n"
		"> >     bond mode turbo miimon 1e3 arp_ip_target ,,, lacp_rate ultra "
		"ad_partner_mac zz:zz xmit_hash_policy layer9 active_slave "
		"an-interface-name-far-too-long\n";

	(void)state;
	assert_int_equal(parse(t, strlen(t)), 0);
	assert_int_equal(snap.bonds[0].mode.st, BC_NOT_REPORTED);
	assert_int_equal(snap.bonds[0].miimon_ms.st, BC_NOT_REPORTED);
	assert_int_equal(snap.bonds[0].lacp_rate.st, BC_NOT_REPORTED);
	assert_int_equal(snap.bonds[0].ad_partner_mac.st, BC_NOT_REPORTED);
	assert_int_equal(snap.bonds[0].operstate.st, BC_NOT_REPORTED);
	assert_int_equal(snap.bonds[0].n_arp_targets, 0);
	assert_string_equal(snap.bonds[0].xmit_hash_policy_name, "layer9");
	assert_int_equal(snap.bonds[0].xmit_hash_policy.st, BC_NOT_REPORTED);
	assert_int_equal(strlen(snap.bonds[0].active_slave.v), 15);
	assert_true(warned("'mode' expected a bonding mode"));
	assert_true(warned("longer than 15 bytes"));
}

/* A mail client wrapped the bond and bond_slave lines: the second halves still count. */
static void test_wrapped_lines(void **state)
{
	static const char t[] =
		"7: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 1500 qdisc noqueue state "
		"UP\n"
		"    bond mode active-backup active_slave eth0 miimon 100 updelay 0\n"
		"downdelay 200 use_carrier 1 arp_interval 0 primary eth0\n"
		"    inet 192.0.2.7/24 brd 192.0.2.255 scope global bond0\n"
		"state 5 miimon 7\n" /* not a continuation: an address line came between */
		"3: eth0: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 1500 master bond0 state UP\n"
		"    bond_slave state ACTIVE mii_status UP\n"
		"    link_failure_count 3 perm_hwaddr 02:00:00:00:ee:03 queue_id 0\n"
		"    vf 0 link/ether 02:00:00:00:ee:04, spoof checking off\n";
	static const char no_d[] =
		"3: eth0: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 1500 master bond0 state UP\n";

	(void)state;
	assert_int_equal(parse(t, strlen(t)), 0);
	assert_int_equal(snap.bonds[0].downdelay_ms.v, 200);
	assert_int_equal(snap.bonds[0].miimon_ms.v, 100);
	assert_string_equal(snap.bonds[0].primary.v, "eth0");
	assert_int_equal(snap.bonds[0].slaves[0].link_failure_count.v, 3);
	assert_string_equal(snap.bonds[0].slaves[0].perm_hwaddr.v, "02:00:00:00:ee:03");
	bc_snapshot_free(&snap);
	/* `ip link` without -d: the flags tell what is missing */
	assert_int_equal(parse(no_d, strlen(no_d)), -EINVAL);
	assert_non_null(strstr(err.msg, "without -d?"));
}

/*
 * `ip -o -d link` quoted and wrapped by a mail client at ~72 columns
 * (made up in the shape of a netdev post): the interface line, a bare
 * link/ether and a key whose value went to the next line all survive.
 */
static void test_wrapped_one_line(void **state)
{
	static const char t[] =
		">> $ ip -o -d link show | grep bond5\n"
		">> 2: eth9: <NO-CARRIER,BROADCAST,MULTICAST,SLAVE,UP> mtu 1500 qdisc\n"
		">> fq_codel master bond5 state DOWN mode DEFAULT group default qlen 1000\\\n"
		">> link/ether 02:00:00:00:ef:01 brd ff:ff:ff:ff:ff:ff promiscuity 0 minmtu 68\n"
		">> maxmtu 9000 \\    bond_slave state ACTIVE mii_status UP link_failure_count\n"
		">> 4 perm_hwaddr 02:00:00:00:ef:01 queue_id 0 numtxqueues 1 numrxqueues 1\n"
		">> 41: bond5: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 1500 qdisc noqueue\n"
		">> state UP mode DEFAULT group default qlen 1000\\    link/ether\n"
		">> 02:00:00:00:ef:02 brd ff:ff:ff:ff:ff:ff promiscuity 0 minmtu 68 maxmtu\n"
		">> 65535 \\    bond mode balance-xor miimon 0 updelay 0 downdelay 0 ad_select\n"
		">> stable use_carrier 1 arp_interval 0 arp_validate none\n";
	const struct bc_bond *b;

	(void)state;
	assert_int_equal(parse(t, strlen(t)), 0);
	b = &snap.bonds[0];
	assert_string_equal(b->name, "bond5");
	assert_string_equal(b->mac.v, "02:00:00:00:ef:02");
	assert_int_equal(b->operstate.v, 6);
	assert_int_equal(b->ad_select.st, BC_KNOWN);
	assert_int_equal(b->arp_interval_ms.st, BC_KNOWN);
	assert_int_equal(b->n_slaves, 1);
	assert_string_equal(b->slaves[0].name, "eth9");
	assert_int_equal(b->slaves[0].operstate.v, 2);
	assert_int_equal(b->slaves[0].carrier.v, 0);
	assert_int_equal(b->slaves[0].link_failure_count.v, 4);
	assert_string_equal(b->slaves[0].perm_hwaddr.v, "02:00:00:00:ef:01");
	assert_int_equal(snap.n_warnings, 0);
}

/* Prompts and markup before the listing: "[root@h ~]#" is not JSON, "$ ip -j" precedes it. */
static void test_prompts(void **state)
{
	static const char text[] = "[root@host ~]# ip -d link show\n{code}\n" BOND_REC "{code}\n";
	static const char json[] =
		"$ ip -j -d link show bond0\n"
		"[ {\"ifname\":\"bond0\",\"linkinfo\":{\"info_kind\":\"bond\",\"info_data\":"
		"{\"mode\":\"balance-rr\"}}} ]\n";

	(void)state;
	assert_int_equal(parse(text, strlen(text)), 0);
	assert_int_equal(snap.bonds[0].n_slaves, 1);
	assert_int_equal(snap.bonds[0].mode.v, BC_MODE_ACTIVEBACKUP);
	bc_snapshot_free(&snap);
	assert_int_equal(parse(json, strlen(json)), 0);
	assert_int_equal(snap.bonds[0].mode.v, BC_MODE_ROUNDROBIN);
}

static void test_files(void **state)
{
	(void)state;
	assert_int_equal(bc_ip_parse_file("/nonexistent/ip.txt", &snap, &err), -ENOENT);
	assert_non_null(strstr(err.msg, "/nonexistent/ip.txt"));
	memset(&err, 0, sizeof(err));
	assert_int_equal(bc_ip_parse_file("/", &snap, &err), -EISDIR);
	assert_int_equal(snap.n_bonds, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_empty_and_garbage, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_bond, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_wrong_types, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nul_and_binary, setup, teardown),
		cmocka_unit_test_setup_teardown(test_huge_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncated_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrapped_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wrapped_one_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prompts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_files, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
