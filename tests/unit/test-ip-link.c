// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `ip` listing decoder (bondcheck/ip-link.h) on the 5 shared ip-link cases
 * of tests/data/ip-link/ (facts of their /work/shared/cases README rows),
 * the same cases in the `ip -o` one-line form and as JSON, `ip -s`
 * counters of both header styles, and the findings ip-link adds
 * (slave-no-carrier, slave-rx-drops, lacp-no-partner from ad_info).
 * Damaged input is in test-ip-malformed.c.
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

#define CASES BC_TEST_DATA "/ip-link/"

static struct bc_snapshot snap;

static int teardown(void **state)
{
	(void)state;
	bc_snapshot_free(&snap);
	return 0;
}

#define assert_u32(f, val)                                                                         \
	do {                                                                                       \
		assert_int_equal((f).st, BC_KNOWN);                                                \
		assert_int_equal((f).v, (val));                                                    \
	} while (0)
#define assert_st(f, status) assert_int_equal((f).st, (status))
#define assert_bstr(f, text)                                                                       \
	do {                                                                                       \
		assert_int_equal((f).st, BC_KNOWN);                                                \
		assert_string_equal((f).v, (text));                                                \
	} while (0)

static void no_warnings(void)
{
	for (size_t i = 0; i < snap.n_warnings; i++)
		print_message("unexpected warning: %s\n", snap.warnings[i]);
	assert_int_equal(snap.n_warnings, 0);
}

/* Parse a case file (CASES-relative); the shared cases parse without warnings. */
static void load(const char *file)
{
	struct bc_error err = {0};
	char path[512];

	snprintf(path, sizeof(path), CASES "%s", file);
	memset(&snap, 0, sizeof(snap));
	if (bc_ip_parse_file(path, &snap, &err) != 0)
		fail_msg("%s: %s", file, err.msg);
	no_warnings();
	assert_true(snap.n_bonds >= 1);
	assert_string_equal(snap.bonds[0].origin, path);
	assert_int_equal(bc_findings_evaluate(&snap), 0);
}

static void load_text(const char *text)
{
	struct bc_error err = {0};

	memset(&snap, 0, sizeof(snap));
	if (bc_ip_parse(text, strlen(text), "test", &snap, &err) != 0)
		fail_msg("%s", err.msg);
	assert_int_equal(bc_findings_evaluate(&snap), 0);
}

/* Read a case and rewrite it as `ip -o` prints it: a record's lines joined by "\". */
static char *one_line_form(const char *file)
{
	char path[512], line[8192];
	size_t cap = 1 << 16, len = 0;
	char *out = calloc(1, cap);
	FILE *f;

	snprintf(path, sizeof(path), CASES "%s", file);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(out);
	while (fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, "\n");
		bool cont = line[0] == ' ';

		line[n] = '\0';
		assert_true(len + n + 3 < cap);
		if (cont)
			out[len++] = '\\';
		else if (len)
			out[len++] = '\n';
		memcpy(out + len, line, n);
		len += n;
	}
	out[len++] = '\n';
	fclose(f);
	return out;
}

static const struct bc_finding *finding(const char *id, const char *subject)
{
	for (size_t i = 0; i < snap.n_findings; i++)
		if (!strcmp(snap.findings[i].id, id) && !strcmp(snap.findings[i].subject, subject))
			return &snap.findings[i];
	return NULL;
}

static const char *evidence(const struct bc_finding *f, const char *key)
{
	for (size_t i = 0; f && i < f->n_evidence; i++)
		if (!strcmp(f->evidence[i].key, key))
			return f->evidence[i].value;
	return "";
}

/* case 01: 802.3ad bond1, one of its 2 ports listed, healthy */
static void test_case01(void **state)
{
	struct bc_bond *b;
	struct bc_slave *s;

	(void)state;
	load("01-8023ad-bond1-slave-vlan-healthy.txt");
	assert_int_equal(snap.source, BC_SRC_LIVE); /* the caller sets the kind */
	assert_int_equal(snap.n_bonds, 1);
	b = &snap.bonds[0];
	assert_string_equal(b->name, "bond1");
	assert_int_equal(b->ifindex, 11);
	assert_u32(b->mode, BC_MODE_8023AD);
	assert_u32(b->mtu, 9000);
	assert_u32(b->lacp_rate, 1);
	assert_u32(b->ad_select, 0);
	assert_int_equal(b->ad_info_status, BC_KNOWN);
	assert_u32(b->ad_aggregator_id, 1);
	assert_u32(b->ad_num_ports, 2);
	assert_u32(b->ad_actor_key, 21);
	assert_u32(b->ad_partner_key, 17);
	assert_bstr(b->ad_partner_mac, "02:00:00:00:01:02");
	assert_u32(b->ad_actor_sys_prio, 65535);
	assert_bstr(b->ad_actor_system, "00:00:00:00:00:00");
	assert_false(snap.lacp_hidden);
	assert_u32(b->mii_status, BC_LINK_UP);
	assert_int_equal(b->n_uppers, 1);
	assert_string_equal(b->uppers[0], "bond1.4003");
	assert_int_equal(b->n_slaves, 1);
	assert_true(b->slaves_incomplete); /* ad_num_ports 2, one slave listed */
	assert_non_null(strstr(b->incomplete_reason, "ad_num_ports 2"));
	s = &b->slaves[0];
	assert_string_equal(s->name, "enp59s0f0");
	assert_u32(s->state, 0);
	assert_u32(s->mii_status, BC_LINK_UP);
	assert_u32(s->aggregator_id, 1);
	assert_u32(s->actor_oper_port_state, 63);
	assert_u32(s->partner_oper_port_state, 63);
	assert_u32(s->carrier, 1);
	assert_u32(s->operstate, 6);
	assert_u32(s->mtu, 9000);
	assert_bstr(s->perm_hwaddr, "02:00:00:00:01:01");
	assert_false(s->stats.present);
	assert_null(finding("single-slave", "bond1"));
	assert_null(finding("lacp-no-partner", "bond1"));
	assert_null(finding("lacp-not-in-sync", "bond1/enp59s0f0"));
}

/* case 02: master-only `ip -d address` view, partner MAC zero */
static void test_case02(void **state)
{
	const struct bc_finding *f;
	struct bc_bond *b;

	(void)state;
	load("02-8023ad-ip-d-addr-no-partner-one-port.txt");
	assert_int_equal(snap.n_bonds, 1);
	b = &snap.bonds[0];
	assert_int_equal(b->n_slaves, 0);
	assert_true(b->slaves_incomplete);
	assert_non_null(strstr(b->incomplete_reason, "ad_num_ports 1"));
	assert_u32(b->xmit_hash_policy, 1);
	assert_u32(b->ad_num_ports, 1);
	assert_u32(b->ad_partner_key, 1);
	assert_bstr(b->ad_partner_mac, "00:00:00:00:00:00");
	assert_string_equal(b->uppers[0], "br-bond1");
	f = finding("lacp-no-partner", "bond1");
	assert_non_null(f);
	assert_string_equal(evidence(f, "ad_partner_mac"), "00:00:00:00:00:00");
	assert_null(finding("no-slaves", "bond1"));
}

static void check_case04(void)
{
	const struct bc_finding *f;
	struct bc_bond *b = &snap.bonds[0];
	struct bc_slave *l1, *l2;

	assert_int_equal(snap.n_bonds, 1);
	assert_u32(b->mode, BC_MODE_ACTIVEBACKUP);
	assert_bstr(b->active_slave, "link1_1");
	assert_bstr(b->primary, "link1_1");
	assert_u32(b->miimon_ms, 0);
	assert_u32(b->arp_interval_ms, 1000);
	assert_u32(b->arp_missed_max, 2);
	assert_u32(b->arp_validate, 1);
	assert_u32(b->arp_all_targets, 0);
	assert_u32(b->fail_over_mac, 2);
	assert_u32(b->peer_notif_delay_ms, 0);
	assert_u32(b->lacp_active, 1);
	assert_u32(b->num_peer_notif, 1);
	assert_int_equal(b->n_arp_targets, 2);
	assert_string_equal(b->arp_targets[0], "192.168.30.7");
	assert_string_equal(b->arp_targets[1], "192.168.30.5");
	assert_int_equal(b->n_slaves, 2);
	assert_false(b->slaves_incomplete);
	l1 = &b->slaves[0];
	l2 = &b->slaves[1];
	assert_string_equal(l1->name, "link1_1");
	assert_u32(l1->state, 1);
	assert_u32(l1->mii_status, BC_LINK_DOWN);
	assert_u32(l1->link_failure_count, 466);
	assert_bstr(l1->perm_hwaddr, "02:00:00:00:04:03");
	assert_u32(l1->carrier, 1);
	assert_true(l1->stats.present);
	assert_int_equal(l1->stats.rx_bytes, 295004);
	assert_int_equal(l1->stats.rx_packets, 5622);
	assert_int_equal(l1->stats.tx_packets, 4678);
	assert_u32(l2->state, 1);
	assert_u32(l2->mii_status, BC_LINK_UP);
	assert_int_equal(l2->stats.rx_packets, 5776);
	/* both BACKUP, the named active slave is down: nothing carries traffic */
	f = finding("no-active-slave", "bond0");
	assert_non_null(f);
	assert_string_equal(evidence(f, "active_mii_status"), "down");
	assert_non_null(finding("slave-down", "bond0/link1_1"));
	assert_null(finding("slave-no-carrier", "bond0/link1_1"));
	assert_null(finding("no-link-monitoring", "bond0"));
	assert_null(finding("single-arp-target", "bond0"));
}

static void test_case04(void **state)
{
	(void)state;
	load("04-active-backup-arp-both-backup-lfc466.txt");
	check_case04();
}

/* the same listing as `ip -o -s -d link` prints it */
static void test_case04_one_line(void **state)
{
	char *text = one_line_form("04-active-backup-arp-both-backup-lfc466.txt");
	size_t lines = 0;

	(void)state;
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 3); /* one line per interface */
	load_text(text);
	free(text);
	no_warnings();
	check_case04();
}

/* JSON written by converting case 04 faithfully (as `ip -s -j -d link show` prints it) */
static void test_case04_json(void **state)
{
	(void)state;
	load("json/04-active-backup-arp-both-backup-lfc466.json");
	check_case04();
	assert_string_equal(snap.bonds[0].slaves[0].kind, "veth");
}

/* JSON of case 02 (`ip -j -d address`): ad_info nest, arp_validate null */
static void test_case02_json(void **state)
{
	struct bc_bond *b;

	(void)state;
	load("json/02-8023ad-ip-d-addr-no-partner-one-port.json");
	b = &snap.bonds[0];
	assert_u32(b->mode, BC_MODE_8023AD);
	assert_u32(b->arp_validate, 0);
	assert_int_equal(b->ad_info_status, BC_KNOWN);
	assert_u32(b->ad_aggregator_id, 1);
	assert_u32(b->ad_actor_key, 9);
	assert_bstr(b->ad_partner_mac, "00:00:00:00:00:00");
	assert_u32(b->lacp_rate, 1);
	assert_u32(b->num_peer_notif, 1);
	assert_true(b->slaves_incomplete);
	assert_non_null(finding("lacp-no-partner", "bond1"));
}

/* case 06: a slave without its master: the bond exists, nothing of it reported */
static void test_case06(void **state)
{
	struct bc_bond *b;
	struct bc_slave *s;

	(void)state;
	load("06-8023ad-sriov-slave-with-vf-lines.txt");
	assert_int_equal(snap.n_bonds, 1);
	b = &snap.bonds[0];
	assert_string_equal(b->name, "bond0");
	assert_u32(b->mode, BC_MODE_8023AD); /* only 802.3ad ports have aggregator ids */
	assert_st(b->miimon_ms, BC_NOT_REPORTED);
	assert_st(b->lacp_rate, BC_NOT_REPORTED);
	assert_true(b->slaves_incomplete);
	assert_int_equal(b->n_slaves, 1);
	s = &b->slaves[0];
	assert_string_equal(s->name, "eth4");
	assert_u32(s->aggregator_id, 2);
	assert_u32(s->actor_oper_port_state, 61);
	assert_u32(s->partner_oper_port_state, 61);
	assert_bstr(s->mac, "02:00:00:00:06:01");
	assert_bstr(s->perm_hwaddr, "02:00:00:00:06:02");
	assert_null(finding("single-slave", "bond0"));
}

/* case 09: full `ip -d address` listing: unrelated interfaces skipped */
static void test_case09(void **state)
{
	struct bc_bond *b;

	(void)state;
	load("09-active-backup-full-ip-d-a-virtualbox.txt");
	assert_int_equal(snap.n_bonds, 1);
	b = &snap.bonds[0];
	assert_string_equal(b->name, "bond0");
	assert_int_equal(b->n_slaves, 2);
	assert_string_equal(b->slaves[0].name, "eth1");
	assert_string_equal(b->slaves[1].name, "eth2");
	assert_u32(b->slaves[0].state, 0);
	assert_u32(b->slaves[1].state, 1);
	assert_u32(b->fail_over_mac, 1);
	assert_bstr(b->active_slave, "eth1");
	assert_false(b->slaves_incomplete);
	for (size_t i = 0; i < snap.n_findings; i++)
		assert_int_equal(snap.findings[i].severity, BC_SEV_INFO);
}

/* Several listings appended to one snapshot, each with its origin. */
static void test_two_files(void **state)
{
	struct bc_error err = {0};

	(void)state;
	memset(&snap, 0, sizeof(snap));
	assert_int_equal(
		bc_ip_parse_file(CASES "01-8023ad-bond1-slave-vlan-healthy.txt", &snap, &err), 0);
	assert_int_equal(
		bc_ip_parse_file(CASES "09-active-backup-full-ip-d-a-virtualbox.txt", &snap, &err),
		0);
	assert_int_equal(snap.n_bonds, 2);
	assert_string_equal(snap.bonds[1].name, "bond0");
	assert_non_null(strstr(snap.bonds[1].origin, "09-active"));
	assert_true(snap.have & BC_HAVE_RTNL);
}

/*
 * Synthetic listings below (made up for the rule they test, in the format
 * iproute2 prints): a slave without carrier that bonding counts up, drop
 * counters in the old `ip -s` header style, hidden actor details.
 */
static const char nocarrier[] =
	"1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT\n"
	"    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n"
	"3: eth1: <NO-CARRIER,BROADCAST,MULTICAST,SLAVE,UP> mtu 1500 qdisc mq master bond0 "
	"state DOWN mode DEFAULT qlen 1000\n"
	"    link/ether 02:00:00:00:aa:01 brd ff:ff:ff:ff:ff:ff\n"
	"    bond_slave state ACTIVE mii_status UP link_failure_count 0 perm_hwaddr "
	"02:00:00:00:aa:01 queue_id 0\n"
	"4: eth2: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 1500 qdisc mq master bond0 "
	"state UP mode DEFAULT qlen 1000\n"
	"    link/ether 02:00:00:00:aa:01 brd ff:ff:ff:ff:ff:ff\n"
	"    bond_slave state ACTIVE mii_status UP link_failure_count 0 perm_hwaddr "
	"02:00:00:00:aa:02 queue_id 0\n"
	"5: eth3: <NO-CARRIER,BROADCAST,MULTICAST,SLAVE,UP> mtu 1500 qdisc mq master bond0 "
	"state DOWN mode DEFAULT qlen 1000\n"
	"    link/ether 02:00:00:00:aa:01 brd ff:ff:ff:ff:ff:ff\n"
	"    bond_slave state BACKUP mii_status DOWN link_failure_count 1 perm_hwaddr "
	"02:00:00:00:aa:03 queue_id 0\n"
	"6: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP "
	"mode DEFAULT qlen 1000\n"
	"    link/ether 02:00:00:00:aa:01 brd ff:ff:ff:ff:ff:ff\n"
	"    bond mode balance-xor miimon %s updelay 0 downdelay 0 use_carrier %s arp_interval 0 "
	"arp_validate none arp_all_targets any primary_reselect always fail_over_mac none "
	"xmit_hash_policy layer2 resend_igmp 1 num_grat_arp 1 all_slaves_active 0 min_links 0 "
	"lp_interval 1 packets_per_slave 1 lacp_rate slow ad_select stable tlb_dynamic_lb 1 \n";

static void load_nocarrier(const char *miimon, const char *use_carrier)
{
	char text[sizeof(nocarrier) + 16];

	snprintf(text, sizeof(text), nocarrier, miimon, use_carrier);
	load_text(text);
	no_warnings();
}

static void test_no_carrier(void **state)
{
	const struct bc_finding *f;

	(void)state;
	load_nocarrier("0", "1");
	assert_u32(snap.bonds[0].slaves[0].carrier, 0);
	assert_u32(snap.bonds[0].slaves[0].operstate, 2);
	f = finding("slave-no-carrier", "bond0/eth1");
	assert_non_null(f);
	assert_int_equal(f->severity, BC_SEV_ERROR);
	assert_string_equal(evidence(f, "cause"), "no-link-monitoring");
	assert_string_equal(evidence(f, "carrier"), "no (NO-CARRIER)");
	assert_non_null(strstr(f->advice, "miimon"));
	assert_null(finding("slave-no-carrier", "bond0/eth2")); /* has carrier */
	assert_null(finding("slave-no-carrier", "bond0/eth3")); /* bonding counts it down */
	bc_snapshot_free(&snap);

	load_nocarrier("100", "0");
	f = finding("slave-no-carrier", "bond0/eth1");
	assert_string_equal(evidence(f, "cause"), "use_carrier-0");
	bc_snapshot_free(&snap);

	load_nocarrier("100", "1");
	f = finding("slave-no-carrier", "bond0/eth1");
	assert_string_equal(evidence(f, "cause"), "within-downdelay");
}

static const char drops[] =
	"7: eth1: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 1500 qdisc mq master bond0 state UP "
	"qlen 1000\n"
	"    link/ether 02:00:00:00:bb:01 brd ff:ff:ff:ff:ff:ff\n"
	"    bond_slave state ACTIVE mii_status UP link_failure_count 0 perm_hwaddr "
	"02:00:00:00:bb:01 queue_id 0\n"
	"    RX: bytes  packets  errors  dropped overrun mcast   \n"
	"    987654     10000    0       25      3       0      \n"
	"    RX errors: length   crc     frame   fifo    missed\n"
	"               0        0       0       0       7     \n"
	"    TX: bytes  packets  errors  dropped carrier collsns \n"
	"    12345      100      0       0       2       0      \n"
	"8: eth2: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 1500 qdisc mq master bond0 state UP "
	"qlen 1000\n"
	"    link/ether 02:00:00:00:bb:01 brd ff:ff:ff:ff:ff:ff\n"
	"    bond_slave state BACKUP mii_status UP link_failure_count 0 perm_hwaddr "
	"02:00:00:00:bb:02 queue_id 0\n"
	"    RX:  bytes packets errors dropped  missed   mcast\n"
	"        555000    9000      0    9000       0       0\n"
	"    TX:  bytes packets errors dropped carrier collsns\n"
	"             0       0      0       0       0       0\n"
	"9: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP qlen "
	"1000\n"
	"    link/ether 02:00:00:00:bb:01 brd ff:ff:ff:ff:ff:ff\n"
	"    bond mode active-backup active_slave eth1 miimon 100 updelay 0 downdelay 0 "
	"use_carrier 1 arp_interval 0 arp_validate none arp_all_targets any primary_reselect "
	"always fail_over_mac none\n";

static void test_rx_drops(void **state)
{
	const struct bc_finding *f;
	const struct bc_slave *s;

	(void)state;
	load_text(drops);
	no_warnings();
	s = &snap.bonds[0].slaves[0];
	assert_int_equal(s->stats.rx_bytes, 987654);
	assert_int_equal(s->stats.rx_dropped, 25);
	assert_int_equal(s->stats.rx_over_errors, 3);
	assert_int_equal(s->stats.rx_missed_errors, 7);
	assert_int_equal(s->stats.tx_carrier_errors, 2);
	assert_int_equal(snap.bonds[0].slaves[1].stats.rx_dropped, 9000);
	f = finding("slave-rx-drops", "bond0/eth1");
	assert_non_null(f);
	assert_int_equal(f->severity, BC_SEV_INFO);
	assert_string_equal(evidence(f, "rx_dropped"), "25");
	assert_string_equal(evidence(f, "rx_missed"), "7");
	/* bonding drops frames on a backup slave by design */
	assert_null(finding("slave-rx-drops", "bond0/eth2"));
}

/* 802.3ad printed to an unprivileged reader: only the actor details are gone */
static void test_hidden_actor(void **state)
{
	const struct bc_finding *f;
	struct bc_bond *b;

	(void)state;
	load_text(
		"5: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 1500 qdisc noqueue "
		"state UP\n"
		"    link/ether 02:00:00:00:cc:01 brd ff:ff:ff:ff:ff:ff\n"
		"    bond mode 802.3ad miimon 100 updelay 0 downdelay 0 lacp_rate fast "
		"ad_select stable ad_aggregator 2 ad_num_ports 1 ad_actor_key 15 "
		"ad_partner_key 1 ad_partner_mac 00:00:00:00:00:00 tlb_dynamic_lb 1\n"
		"3: eth0: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 1500 master bond0 state UP\n"
		"    bond_slave state ACTIVE mii_status UP link_failure_count 0 perm_hwaddr "
		"02:00:00:00:cc:01 queue_id 0 prio 0 ad_aggregator_id 2 "
		"ad_actor_oper_port_state 77 <active,aggregating,in_sync,defaulted> "
		"ad_partner_oper_port_state 1 <active> churn_actor_state CHURN "
		"churn_partner_state MONITOR\n");
	b = &snap.bonds[0];
	assert_true(snap.lacp_hidden);
	assert_st(b->ad_actor_sys_prio, BC_HIDDEN);
	assert_st(b->ad_actor_system, BC_HIDDEN);
	assert_int_equal(b->ad_info_status, BC_KNOWN);
	assert_u32(b->slaves[0].actor_oper_port_state, 77);
	assert_u32(b->slaves[0].partner_oper_port_state, 1);
	assert_u32(b->slaves[0].actor_churn_state, BC_CHURN_CHURN);
	assert_u32(b->slaves[0].partner_churn_state, BC_CHURN_MONITOR);
	assert_u32(b->slaves[0].prio, 0);
	f = finding("lacp-details-hidden", "bond0");
	assert_non_null(f);
	assert_null(strstr(evidence(f, "hidden"), "active aggregator"));
	assert_non_null(finding("lacp-no-partner", "bond0"));
	assert_non_null(finding("lacp-not-in-sync", "bond0/eth0"));
}

/* Master-only views: no-slaves only where the listing proves there are none. */
static void test_master_only(void **state)
{
	static const char bond_down[] =
		"%s"
		"7: bond0: <BROADCAST,MULTICAST,MASTER,UP> mtu 1500 qdisc noqueue state DOWN\n"
		"    link/ether 02:00:00:00:dd:01 brd ff:ff:ff:ff:ff:ff\n"
		"    bond mode balance-rr miimon 100 updelay 0 downdelay 0\n";
	char text[512];

	(void)state;
	snprintf(text, sizeof(text), bond_down, "");
	load_text(text);
	assert_true(snap.bonds[0].slaves_incomplete);
	assert_null(finding("no-slaves", "bond0"));
	bc_snapshot_free(&snap);

	/* a full dump (lo listed) that shows no slave: the bond has none */
	snprintf(text, sizeof(text), bond_down,
		 "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN\n");
	load_text(text);
	assert_false(snap.bonds[0].slaves_incomplete);
	assert_u32(snap.bonds[0].mii_status, BC_LINK_DOWN);
	assert_non_null(finding("no-slaves", "bond0"));
}

/* An ifindex that ip could not name is resolved against the listing. */
static void test_active_index(void **state)
{
	(void)state;
	load_text(
		"2: eth0: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 1500 master bond0 state UP\n"
		"    bond_slave state ACTIVE mii_status UP link_failure_count 0\n"
		"4: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 1500 state UP\n"
		"    bond mode active-backup active_slave 2 miimon 100\n");
	assert_bstr(snap.bonds[0].active_slave, "eth0");
	assert_false(snap.bonds[0].slaves_incomplete);
	assert_null(finding("no-active-slave", "bond0"));
}

/* Slaves only: their AD attributes prove 802.3ad, so the port checks run. */
static void test_slaves_only_8023ad(void **state)
{
	const struct bc_finding *f;

	(void)state;
	load_text(
		"4: eth0_1: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 9000 master bond0 "
		"state UP\n"
		"    bond_slave state ACTIVE mii_status UP link_failure_count 0 ad_aggregator_id 1 "
		"ad_actor_oper_port_state 63 ad_partner_oper_port_state 61\n");
	assert_u32(snap.bonds[0].mode, BC_MODE_8023AD);
	assert_true(snap.bonds[0].slaves_incomplete);
	f = finding("lacp-rate-mismatch", "bond0/eth0_1");
	assert_non_null(f);
	assert_string_equal(evidence(f, "partner_timeout"), "long (slow)");
	assert_null(finding("lacp-not-in-sync", "bond0/eth0_1"));
	assert_null(finding("lacp-slow-rate", "bond0"));
}

/* Master only: its primary and active slave are not "not enslaved". */
static void test_master_only_primary(void **state)
{
	(void)state;
	load_text("2: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 1500 state UP\n"
		  "    bond mode active-backup active_slave eth0 miimon 100 primary eth0 "
		  "primary_reselect always\n");
	assert_true(snap.bonds[0].slaves_incomplete);
	assert_non_null(strstr(snap.bonds[0].incomplete_reason, "active_slave eth0"));
	assert_null(finding("primary-down", "bond0"));
	assert_null(finding("no-active-slave", "bond0"));
	bc_snapshot_free(&snap);
	/* the whole slave list shown (lo: a full dump) and the primary not in it */
	load_text(
		"1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 state UNKNOWN\n"
		"3: eth1: <BROADCAST,MULTICAST,SLAVE,UP,LOWER_UP> mtu 1500 master bond0 state UP\n"
		"    bond_slave state ACTIVE mii_status UP link_failure_count 0\n"
		"2: bond0: <BROADCAST,MULTICAST,MASTER,UP,LOWER_UP> mtu 1500 state UP\n"
		"    bond mode active-backup active_slave eth1 miimon 100 primary eth0\n");
	assert_true(snap.bonds[0].slaves_incomplete); /* primary eth0 is not listed */
	assert_null(finding("primary-down", "bond0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_case01, teardown),
		cmocka_unit_test_teardown(test_case02, teardown),
		cmocka_unit_test_teardown(test_case04, teardown),
		cmocka_unit_test_teardown(test_case04_one_line, teardown),
		cmocka_unit_test_teardown(test_case04_json, teardown),
		cmocka_unit_test_teardown(test_case02_json, teardown),
		cmocka_unit_test_teardown(test_case06, teardown),
		cmocka_unit_test_teardown(test_case09, teardown),
		cmocka_unit_test_teardown(test_two_files, teardown),
		cmocka_unit_test_teardown(test_no_carrier, teardown),
		cmocka_unit_test_teardown(test_rx_drops, teardown),
		cmocka_unit_test_teardown(test_hidden_actor, teardown),
		cmocka_unit_test_teardown(test_master_only, teardown),
		cmocka_unit_test_teardown(test_active_index, teardown),
		cmocka_unit_test_teardown(test_slaves_only_8023ad, teardown),
		cmocka_unit_test_teardown(test_master_only_primary, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
