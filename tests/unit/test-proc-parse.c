// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/net/bonding parser on the real-world cases of tests/data/
 * proc-net-bonding (see /work/shared/cases/README.md) and on synthetic
 * variants of the format history (kernel-interfaces.md section 2).
 * Damaged input is in test-proc-malformed.c.
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

#include "bondcheck/proc.h"

#define CASES BC_TEST_DATA "/proc-net-bonding/"

static struct bc_snapshot snap;

static int teardown(void **state)
{
	(void)state;
	bc_snapshot_free(&snap);
	return 0;
}

/* Parse one case file as bond0; the case files parse without any warning. */
static struct bc_bond *load(const char *file)
{
	struct bc_error err = {0};
	char path[512];

	snprintf(path, sizeof(path), CASES "%s", file);
	memset(&snap, 0, sizeof(snap));
	if (bc_proc_parse_file(path, "bond0", &snap, &err) != 0)
		fail_msg("%s: %s", file, err.msg);
	assert_int_equal(snap.n_bonds, 1);
	for (size_t i = 0; i < snap.n_warnings; i++)
		print_message("unexpected warning: %s\n", snap.warnings[i]);
	assert_int_equal(snap.n_warnings, 0);
	assert_int_equal(snap.bonds[0].n_unknown, 0);
	assert_string_equal(snap.bonds[0].origin, path);
	return &snap.bonds[0];
}

static struct bc_bond *load_text(const char *text)
{
	struct bc_error err = {0};

	memset(&snap, 0, sizeof(snap));
	if (bc_proc_parse(text, strlen(text), "bond0", &snap, &err) != 0)
		fail_msg("%s", err.msg);
	return &snap.bonds[0];
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

static void test_01_8023ad_split(void **state)
{
	struct bc_bond *b = load("01-8023ad-slave-down-churned-split-agg.txt");
	struct bc_slave *s;

	(void)state;
	assert_string_equal(b->driver_version, "v3.7.1 (April 27, 2011)");
	assert_string_equal(snap.kernel_release, ""); /* a driver version, not a release */
	assert_u32(b->mode, BC_MODE_8023AD);
	assert_string_equal(b->xmit_hash_policy_name, "layer3+4");
	assert_u32(b->xmit_hash_policy, 1);
	assert_u32(b->mii_status, BC_LINK_UP);
	assert_u32(b->miimon_ms, 100);
	assert_u32(b->arp_interval_ms, 0); /* inferred: no ARP lines */
	assert_st(b->peer_notif_delay_ms, BC_NOT_REPORTED);
	assert_st(b->lacp_active, BC_NOT_REPORTED);
	assert_u32(b->lacp_rate, 1);
	assert_u32(b->min_links, 0);
	assert_u32(b->ad_select, 0);
	assert_u32(b->ad_actor_sys_prio, 65535);
	assert_bstr(b->ad_actor_system, "02:00:00:00:01:01");
	assert_int_equal(b->ad_info_status, BC_KNOWN);
	assert_u32(b->ad_aggregator_id, 2);
	assert_u32(b->ad_num_ports, 1);
	assert_u32(b->ad_actor_key, 9);
	assert_u32(b->ad_partner_key, 1);
	assert_bstr(b->ad_partner_mac, "00:00:00:00:00:00");
	assert_false(snap.lacp_hidden);
	assert_int_equal(b->n_slaves, 2);

	s = &b->slaves[0];
	assert_string_equal(s->name, "enp1s0f0");
	assert_u32(s->mii_status, BC_LINK_DOWN);
	assert_st(s->speed_mbps, BC_UNKNOWN);
	assert_st(s->duplex, BC_UNKNOWN);
	assert_u32(s->link_failure_count, 2);
	assert_bstr(s->perm_hwaddr, "02:00:00:00:01:01");
	assert_u32(s->queue_id, 0);
	assert_u32(s->aggregator_id, 1);
	assert_u32(s->actor_churn_state, BC_CHURN_CHURN);
	assert_u32(s->partner_churn_state, BC_CHURN_CHURN);
	assert_u32(s->actor_churned_count, 1);
	assert_u32(s->partner_churned_count, 2);
	assert_u32(s->actor.system_priority, 65535);
	assert_bstr(s->actor.system_mac, "02:00:00:00:01:01");
	assert_u32(s->actor.key, 0);
	assert_u32(s->actor.port_priority, 255);
	assert_u32(s->actor.port_number, 1);
	assert_u32(s->actor.port_state, 71);
	assert_u32(s->actor_oper_port_state, 71);
	assert_bstr(s->partner.system_mac, "00:00:00:00:00:00");
	assert_u32(s->partner.key, 1); /* "oper key" */
	assert_u32(s->partner_oper_port_state, 1);

	s = &b->slaves[1];
	assert_string_equal(s->name, "enp1s0f1");
	assert_u32(s->mii_status, BC_LINK_UP);
	assert_u32(s->speed_mbps, 1000);
	assert_u32(s->duplex, 1);
	assert_u32(s->aggregator_id, 2);
	assert_u32(s->actor_churn_state, BC_CHURN_NONE);
	assert_u32(s->partner_churn_state, BC_CHURN_CHURN);
	assert_u32(s->partner_churned_count, 3);
	assert_u32(s->actor.key, 9);
	assert_u32(s->actor.port_number, 2);
	assert_u32(s->actor_oper_port_state, 79);
	assert_u32(s->partner_oper_port_state, 1);
}

static void test_02_v260_no_speed(void **state)
{
	struct bc_bond *b = load("02-balance-xor-v2.6.0-slave-down-lkml2005.txt");

	(void)state;
	assert_string_equal(b->driver_version, "v2.6.0 (January 14, 2004)");
	assert_u32(b->mode, BC_MODE_XOR);
	assert_st(b->xmit_hash_policy, BC_NOT_REPORTED);
	assert_string_equal(b->xmit_hash_policy_name, "");
	assert_st(b->primary, BC_NOT_REPORTED);
	assert_u32(b->miimon_ms, 1000);
	assert_u32(b->updelay_ms, 0);
	assert_u32(b->downdelay_ms, 3000);
	assert_int_equal(b->n_slaves, 2);
	assert_string_equal(b->slaves[0].name, "eth0");
	assert_u32(b->slaves[0].mii_status, BC_LINK_DOWN);
	assert_u32(b->slaves[0].link_failure_count, 1);
	/* this driver prints no Speed/Duplex/queue lines: not reported, not Unknown */
	assert_st(b->slaves[0].speed_mbps, BC_NOT_REPORTED);
	assert_st(b->slaves[0].duplex, BC_NOT_REPORTED);
	assert_st(b->slaves[0].queue_id, BC_NOT_REPORTED);
	assert_st(b->slaves[0].aggregator_id, BC_NOT_REPORTED);
	assert_string_equal(b->slaves[1].name, "eth1");
	assert_u32(b->slaves[1].mii_status, BC_LINK_UP);
	assert_u32(b->slaves[1].link_failure_count, 0);
	assert_bstr(b->slaves[1].perm_hwaddr, "02:00:00:00:02:02");
}

static void test_04_arp_monitor(void **state)
{
	struct bc_bond *b = load("04-active-backup-v3.6.0-arp-monitor.txt");

	(void)state;
	assert_u32(b->mode, BC_MODE_ACTIVEBACKUP);
	assert_st(b->primary, BC_NA); /* "None" */
	assert_st(b->primary_reselect, BC_NOT_REPORTED);
	assert_bstr(b->active_slave, "eth0");
	assert_u32(b->miimon_ms, 0);
	assert_u32(b->arp_interval_ms, 3000);
	assert_st(b->arp_missed_max, BC_NOT_REPORTED);
	assert_int_equal(b->n_arp_targets, 1);
	assert_string_equal(b->arp_targets[0], "192.0.2.129");
	assert_int_equal(b->n_slaves, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_u32(b->slaves[i].speed_mbps, 1000);
		assert_u32(b->slaves[i].duplex, 1);
		assert_u32(b->slaves[i].link_failure_count, 1);
	}
	/* the file has no final newline: its last line still counts */
	assert_u32(b->slaves[1].queue_id, 0);
}

static void test_05_no_active_aggregator(void **state)
{
	struct bc_bond *b = load("05-8023ad-v3.6.0-no-active-aggregator-all-down.txt");

	(void)state;
	assert_u32(b->mode, BC_MODE_8023AD);
	assert_u32(b->mii_status, BC_LINK_DOWN);
	assert_u32(b->lacp_rate, 0);
	assert_st(b->min_links, BC_NOT_REPORTED);
	assert_int_equal(b->ad_info_status, BC_NA);
	/* visible but old: these lines did not exist yet, they are not hidden */
	assert_st(b->ad_actor_sys_prio, BC_NOT_REPORTED);
	assert_false(snap.lacp_hidden);
	assert_int_equal(b->n_slaves, 2);
	/* Aggregator ID printed before Slave queue ID (3.x order) */
	assert_u32(b->slaves[0].aggregator_id, 1);
	assert_u32(b->slaves[0].queue_id, 0);
	assert_u32(b->slaves[1].aggregator_id, 2);
	assert_u32(b->slaves[1].queue_id, 0);
	assert_st(b->slaves[0].speed_mbps, BC_UNKNOWN);
	assert_st(b->slaves[1].duplex, BC_UNKNOWN);
	assert_st(b->slaves[0].actor_churn_state, BC_NOT_REPORTED);
	assert_st(b->slaves[0].actor_oper_port_state, BC_NOT_REPORTED);
}

static void test_07_08_alb(void **state)
{
	struct bc_bond *b = load("07-balance-alb-v3.7.1-one-slave-missing.txt");

	(void)state;
	assert_u32(b->mode, BC_MODE_ALB);
	assert_bstr(b->active_slave, "eth1");
	assert_int_equal(b->n_slaves, 1);
	assert_string_equal(b->slaves[0].name, "eth1");
	assert_u32(b->slaves[0].speed_mbps, 1000);
	bc_snapshot_free(&snap);

	b = load("08-balance-alb-v3.7.1-no-slaves.txt");
	assert_u32(b->mode, BC_MODE_ALB);
	assert_int_equal(b->n_slaves, 0);
	assert_u32(b->mii_status, BC_LINK_DOWN);
	assert_st(b->active_slave, BC_NA);
	assert_st(b->primary, BC_NA);
	assert_u32(b->downdelay_ms, 0);
}

static void test_09_kernel_release_header(void **state)
{
	struct bc_bond *b = load("09-balance-tlb-v5.10-debian11.txt");

	(void)state;
	assert_string_equal(b->driver_version, "v5.10.0-8-amd64");
	assert_string_equal(snap.kernel_release, "5.10.0-8-amd64");
	assert_u32(b->mode, BC_MODE_TLB);
	assert_u32(b->updelay_ms, 200);
	assert_u32(b->downdelay_ms, 200);
	assert_u32(b->peer_notif_delay_ms, 0);
	assert_int_equal(b->n_slaves, 2);
	assert_string_equal(b->slaves[0].name, "ens224");
	assert_string_equal(b->slaves[1].name, "ens256");
	assert_u32(b->slaves[1].speed_mbps, 10000);
}

static void test_10_12_healthy_lacp(void **state)
{
	struct bc_bond *b = load("10-8023ad-el8-2x100G-healthy-slow-rate.txt");

	(void)state;
	assert_u32(b->lacp_rate, 0);
	assert_st(b->lacp_active, BC_NOT_REPORTED); /* RHEL 8 backport without it */
	assert_u32(b->peer_notif_delay_ms, 0);
	assert_u32(b->ad_aggregator_id, 5);
	assert_u32(b->ad_num_ports, 2);
	assert_u32(b->ad_partner_key, 2897);
	assert_bstr(b->ad_partner_mac, "02:00:00:00:0a:02");
	for (size_t i = 0; i < 2; i++) {
		assert_u32(b->slaves[i].speed_mbps, 100000);
		assert_u32(b->slaves[i].aggregator_id, 5);
		assert_u32(b->slaves[i].actor_oper_port_state, 61);
		assert_u32(b->slaves[i].partner_oper_port_state, 61);
		assert_u32(b->slaves[i].partner.port_priority, 32768);
		assert_u32(b->slaves[i].partner_churned_count, 1);
		assert_u32(b->slaves[i].partner_churn_state, BC_CHURN_NONE);
	}
	assert_u32(b->slaves[0].actor_churned_count, 0);
	assert_u32(b->slaves[1].actor_churned_count, 1);
	bc_snapshot_free(&snap);

	/* Active Aggregator Info indented by one space */
	b = load("12-8023ad-healthy-space-indented-aggregator-info.txt");
	assert_int_equal(b->ad_info_status, BC_KNOWN);
	assert_u32(b->ad_aggregator_id, 1);
	assert_u32(b->ad_num_ports, 2);
	assert_u32(b->ad_actor_key, 15);
	assert_u32(b->ad_partner_key, 201);
	assert_string_equal(b->slaves[0].name, "eno3");
	assert_string_equal(b->slaves[1].name, "eno1");
	assert_u32(b->slaves[0].partner.port_number, 12);
	assert_u32(b->slaves[1].partner.port_number, 1012);
	assert_u32(b->slaves[0].actor_oper_port_state, 63);
	assert_u32(b->slaves[1].partner_oper_port_state, 63);
}

static void test_13_fail_over_mac(void **state)
{
	struct bc_bond *b = load("13-active-backup-wifi-fail_over_mac-primary-down.txt");

	(void)state;
	assert_u32(b->mode, BC_MODE_ACTIVEBACKUP);
	assert_u32(b->fail_over_mac, 1);
	assert_bstr(b->primary, "enp0s10");
	assert_u32(b->primary_reselect, 0);
	assert_bstr(b->active_slave, "wlp3s0");
	assert_u32(b->slaves[0].mii_status, BC_LINK_DOWN);
	assert_st(b->slaves[1].speed_mbps, BC_UNKNOWN);
	assert_u32(b->slaves[1].mii_status, BC_LINK_UP);
	assert_u32(b->slaves[1].link_failure_count, 36);
}

static void test_14_22_rr(void **state)
{
	struct bc_bond *b = load("14-balance-rr-miimon0-three-slaves.txt");

	(void)state;
	assert_u32(b->mode, BC_MODE_ROUNDROBIN);
	assert_u32(b->miimon_ms, 0);
	assert_u32(b->arp_interval_ms, 0);
	assert_int_equal(b->n_slaves, 3);
	/* enslave order, not name order */
	assert_string_equal(b->slaves[0].name, "eth2");
	assert_string_equal(b->slaves[1].name, "eth1");
	assert_string_equal(b->slaves[2].name, "eth3");
	bc_snapshot_free(&snap);

	b = load("22-balance-rr-v6.1-debian12-lfc1.txt");
	assert_string_equal(snap.kernel_release, "6.1.0-25-amd64");
	assert_string_equal(b->slaves[0].name, "enp0s8");
	assert_string_equal(b->slaves[1].name, "enp0s3");
	assert_u32(b->slaves[0].link_failure_count, 1);
	assert_u32(b->slaves[1].link_failure_count, 1);
}

static void test_16_hidden(void **state)
{
	struct bc_bond *b = load("16-8023ad-v6.6-wsl2-nonroot-view.txt");

	(void)state;
	assert_string_equal(snap.kernel_release, "6.6.87.2-microsoft-standard-WSL2");
	assert_u32(b->xmit_hash_policy, 0);
	assert_string_equal(b->xmit_hash_policy_name, "layer2");
	assert_u32(b->lacp_active, 1);
	assert_u32(b->lacp_rate, 1);
	assert_true(snap.lacp_hidden);
	assert_int_equal(b->ad_info_status, BC_HIDDEN);
	assert_st(b->ad_actor_sys_prio, BC_HIDDEN);
	assert_st(b->ad_actor_system, BC_HIDDEN);
	assert_st(b->ad_aggregator_id, BC_HIDDEN);
	for (size_t i = 0; i < 2; i++) {
		const struct bc_slave *s = &b->slaves[i];

		assert_u32(s->aggregator_id, 2); /* visible without privilege */
		assert_u32(s->actor_churn_state, BC_CHURN_MONITOR);
		assert_u32(s->partner_churn_state, BC_CHURN_MONITOR);
		assert_st(s->actor_oper_port_state, BC_HIDDEN);
		assert_st(s->partner_oper_port_state, BC_HIDDEN);
		assert_st(s->actor.system_mac, BC_HIDDEN);
		assert_st(s->partner.key, BC_HIDDEN);
	}
}

static void test_19_21_old_formats(void **state)
{
	struct bc_bond *b = load("19-broadcast-v3.6.0-blog-no-blank-lines.txt");

	(void)state;
	/* no blank lines at all: blocks found by key names */
	assert_u32(b->mode, BC_MODE_BROADCAST);
	assert_u32(b->mii_status, BC_LINK_UP);
	assert_u32(b->downdelay_ms, 0);
	assert_int_equal(b->n_slaves, 2);
	assert_string_equal(b->slaves[0].name, "eth0");
	assert_string_equal(b->slaves[1].name, "eth1");
	assert_bstr(b->slaves[0].perm_hwaddr, "02:00:00:00:13:01");
	assert_bstr(b->slaves[1].perm_hwaddr, "02:00:00:00:13:02");
	assert_st(b->slaves[1].speed_mbps, BC_NOT_REPORTED);
	bc_snapshot_free(&snap);

	b = load("21-balance-alb-v3.5.0-ubuntu1004-no-speed-lines.txt");
	assert_string_equal(b->driver_version, "v3.5.0 (November 4, 2008)");
	assert_u32(b->mode, BC_MODE_ALB);
	assert_st(b->slaves[0].speed_mbps, BC_NOT_REPORTED);
	assert_st(b->slaves[1].duplex, BC_NOT_REPORTED);
}

static void test_24_vlansrc(void **state)
{
	struct bc_bond *b = load("24-balance-xor-v4.18-vlansrc-no-slaves.txt");

	(void)state;
	assert_string_equal(snap.kernel_release, "4.18.0-272.el8.vstx.x86_64");
	assert_u32(b->mode, BC_MODE_XOR);
	assert_string_equal(b->xmit_hash_policy_name, "vlansrc");
	assert_u32(b->xmit_hash_policy, 5);
	assert_int_equal(b->n_slaves, 0);
	assert_u32(b->miimon_ms, 0);
	assert_u32(b->mii_status, BC_LINK_DOWN);
}

/* The 6.x-7.x template of kernel-interfaces.md 2.1, every optional line present. */
static const char modern[] = "Ethernet Channel Bonding Driver: v6.12.9-amd64\n"
			     "\n"
			     "Bonding Mode: IEEE 802.3ad Dynamic link aggregation\n"
			     "Transmit Hash Policy: encap3+4 (4)\n"
			     "MII Status: up\n"
			     "MII Polling Interval (ms): 100\n"
			     "Up Delay (ms): 200\n"
			     "Down Delay (ms): 400\n"
			     "Peer Notification Delay (ms): 100\n"
			     "ARP Polling Interval (ms): 250\n"
			     "ARP Missed Max: 3\n"
			     "ARP IP target/s (n.n.n.n form): 192.0.2.1, 192.0.2.2\n"
			     "NS IPv6 target/s (xx::xx form): 2001:db8::1, fe80::2\n"
			     "\n"
			     "802.3ad info\n"
			     "LACP active: off\n"
			     "LACP rate: fast\n"
			     "Min links: 2\n"
			     "Aggregator selection policy (ad_select): actor_port_prio\n"
			     "System priority: 100\n"
			     "System MAC address: 02:AA:BB:CC:DD:EE\n"
			     "Active Aggregator Info:\n"
			     "\tAggregator ID: 3\n"
			     "\tNumber of ports: 1\n"
			     "\tActor Key: 15\n"
			     "\tPartner Key: 7\n"
			     "\tPartner Mac Address: 02:00:00:00:99:01\n"
			     "\n"
			     "Slave Interface: eth0\n"
			     "MII Status: going back\n"
			     "Speed: 25000 Mbps\n"
			     "Duplex: full\n"
			     "Link Failure Count: 4\n"
			     "Permanent HW addr: 02:00:00:00:99:10\n"
			     "Slave queue ID: 2\n"
			     "Aggregator ID: N/A\n"
			     "\n"
			     "Slave Interface: eth1\n"
			     "MII Status: going down\n"
			     "Speed: 65535 Mbps\n"
			     "Duplex: half\n"
			     "Link Failure Count: 0\n"
			     "Permanent HW addr: 02:00:00:00:99:11\n"
			     "Slave queue ID: 0\n"
			     "Aggregator ID: 3\n"
			     "Actor Churn State: unknown\n"
			     "Partner Churn State: none\n"
			     "Actor Churned Count: 0\n"
			     "Partner Churned Count: 0\n"
			     "details actor lacp pdu:\n"
			     "    system priority: 100\n"
			     "    system mac address: 02:aa:bb:cc:dd:ee\n"
			     "    port key: 15\n"
			     "    port priority: 255\n"
			     "    port number: 2\n"
			     "    port state: 63\n"
			     "details partner lacp pdu:\n"
			     "    system priority: 32768\n"
			     "    system mac address: 02:00:00:00:99:01\n"
			     "    oper key: 7\n"
			     "    port priority: 32768\n"
			     "    port number: 9\n"
			     "    port state: 61\n";

static void test_modern_template(void **state)
{
	struct bc_bond *b = load_text(modern);
	const struct bc_slave *s;

	(void)state;
	assert_int_equal(snap.n_warnings, 0);
	assert_string_equal(b->xmit_hash_policy_name, "encap3+4");
	assert_u32(b->xmit_hash_policy, 4);
	assert_u32(b->peer_notif_delay_ms, 100);
	assert_u32(b->arp_interval_ms, 250);
	assert_u32(b->arp_missed_max, 3);
	assert_int_equal(b->n_arp_targets, 2);
	assert_string_equal(b->arp_targets[1], "192.0.2.2");
	/* the key itself holds "::": matched by full key text */
	assert_int_equal(b->n_ns_targets, 2);
	assert_string_equal(b->ns_targets[0], "2001:db8::1");
	assert_string_equal(b->ns_targets[1], "fe80::2");
	assert_u32(b->lacp_active, 0);
	assert_u32(b->min_links, 2);
	assert_u32(b->ad_select, 3);
	assert_u32(b->ad_actor_sys_prio, 100);
	assert_bstr(b->ad_actor_system, "02:aa:bb:cc:dd:ee"); /* lowercased */
	assert_u32(b->ad_aggregator_id, 3);

	s = &b->slaves[0];
	assert_u32(s->mii_status, BC_LINK_BACK);
	assert_u32(s->speed_mbps, 25000);
	assert_u32(s->queue_id, 2);
	assert_st(s->aggregator_id, BC_NA); /* never joined an aggregator */
	assert_st(s->actor_churn_state, BC_NOT_REPORTED);
	assert_st(s->actor_oper_port_state, BC_NOT_REPORTED);

	s = &b->slaves[1];
	assert_u32(s->mii_status, BC_LINK_FAIL);
	assert_st(s->speed_mbps, BC_UNKNOWN); /* 65535 = 16-bit SPEED_UNKNOWN */
	assert_u32(s->duplex, 0);
	assert_u32(s->actor_churn_state, BC_CHURN_OTHER);
	assert_u32(s->partner_churn_state, BC_CHURN_NONE);
	assert_u32(s->actor_oper_port_state, 63);
	assert_u32(s->partner_oper_port_state, 61);
	assert_u32(s->partner.port_number, 9);
	assert_u32(s->partner.key, 7);
}

static void test_suffixes_and_unknowns(void **state)
{
	struct bc_bond *b =
		load_text("\n\n"
			  "Ethernet Channel Bonding Driver: v3.7.1 (April 27, 2011)\n"
			  "Bonding Mode: fault-tolerance (active-backup) (fail_over_mac follow)\n"
			  "Primary Slave: eth1 (primary_reselect failure)\n"
			  "Currently Active Slave: None\n"
			  "MII Status: up\n"
			  "MII Polling Interval (ms): 100\n"
			  "Up Delay (ms): 0\n"
			  "Down Delay (ms): 0\n"
			  "LACP coupled_control: on\n"
			  "Transmit Hash Policy: layer5+9 (7)\n"
			  "Slave Interface: eth1\n"
			  "MII Status: up\n"
			  "Speed: Unknown\n"
			  "Future Slave Key: 42\n");

	(void)state;
	assert_u32(b->mode, BC_MODE_ACTIVEBACKUP);
	assert_u32(b->fail_over_mac, 2);
	assert_bstr(b->primary, "eth1");
	assert_u32(b->primary_reselect, 2);
	assert_st(b->active_slave, BC_NA);
	/* unknown hash policy: printed name and number kept, with a warning */
	assert_string_equal(b->xmit_hash_policy_name, "layer5+9");
	assert_u32(b->xmit_hash_policy, 7);
	/* unknown keys kept, slave keys prefixed by the slave */
	assert_int_equal(b->n_unknown, 2);
	assert_string_equal(b->unknown[0].key, "LACP coupled_control");
	assert_string_equal(b->unknown[0].value, "on");
	assert_string_equal(b->unknown[1].key, "eth1/Future Slave Key");
	assert_string_equal(b->unknown[1].value, "42");
	assert_int_equal(snap.n_warnings, 3);
	assert_non_null(strstr(snap.warnings[0], "line 11"));
	assert_non_null(strstr(snap.warnings[0], "LACP coupled_control"));
}

static void test_crlf_bom_and_agg_na_hidden(void **state)
{
	/* CRLF, a byte order mark, and an unprivileged view with an N/A port */
	struct bc_bond *b = load_text("\xef\xbb\xbf"
				      "Ethernet Channel Bonding Driver: v6.1.0-25-amd64\r\n\r\n"
				      "Bonding Mode: IEEE 802.3ad Dynamic link aggregation\r\n"
				      "Transmit Hash Policy: fancy\r\n"
				      "MII Status: up\r\n"
				      "MII Polling Interval (ms): 100\r\n"
				      "Up Delay (ms): 0\r\n"
				      "Down Delay (ms): 0\r\n\r\n"
				      "802.3ad info\r\n"
				      "LACP rate: slow\r\n\r\n"
				      "Slave Interface: eth0\r\n"
				      "MII Status: up\r\n"
				      "Aggregator ID: N/A\r\n"
				      "Slave Interface: eth1\r\n"
				      "MII Status: up\r\n"
				      "Aggregator ID: 1\r\n");

	(void)state;
	assert_u32(b->mode, BC_MODE_8023AD);
	assert_string_equal(b->xmit_hash_policy_name, "fancy");
	assert_st(b->xmit_hash_policy, BC_NOT_REPORTED);
	assert_int_equal(b->ad_info_status, BC_HIDDEN);
	assert_true(snap.lacp_hidden);
	assert_st(b->slaves[0].aggregator_id, BC_NA);
	/* an N/A port prints no details even to root: not hidden */
	assert_st(b->slaves[0].actor_oper_port_state, BC_NOT_REPORTED);
	assert_st(b->slaves[1].actor_oper_port_state, BC_HIDDEN);
	assert_string_equal(b->slaves[1].name, "eth1");
	assert_int_equal(snap.n_warnings, 1); /* the unknown hash policy */
}

static void test_second_header_and_speed_forms(void **state)
{
	struct bc_bond *b = load_text("Ethernet Channel Bonding Driver: v3.7.1 (April 27, 2011)\n"
				      "Bonding Mode: load balancing (round-robin)\n"
				      "MII Polling Interval (ms): 100\n"
				      "Down Delay (ms): 0\n"
				      "Slave Interface: eth0\n"
				      "MII Status: up\n"
				      "Speed: -1 Mbps\n"
				      "Ethernet Channel Bonding Driver: v3.7.1 (April 27, 2011)\n"
				      "Bonding Mode: load balancing (xor)\n"
				      "Slave Interface: eth9\n");

	(void)state;
	assert_u32(b->mode, BC_MODE_ROUNDROBIN);
	assert_int_equal(b->n_slaves, 1);
	assert_st(b->slaves[0].speed_mbps, BC_UNKNOWN);
	/* a paste of several files is split into its bonds (issue 13) */
	assert_int_equal(snap.n_bonds, 2);
	assert_string_equal(snap.bonds[1].name, "bond1");
	assert_u32(snap.bonds[1].mode, BC_MODE_XOR);
	assert_int_equal(snap.bonds[1].n_slaves, 1);
	assert_string_equal(snap.bonds[1].slaves[0].name, "eth9");
	assert_non_null(strstr(snap.warnings[0], "another bond after bond0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_01_8023ad_split, teardown),
		cmocka_unit_test_teardown(test_02_v260_no_speed, teardown),
		cmocka_unit_test_teardown(test_04_arp_monitor, teardown),
		cmocka_unit_test_teardown(test_05_no_active_aggregator, teardown),
		cmocka_unit_test_teardown(test_07_08_alb, teardown),
		cmocka_unit_test_teardown(test_09_kernel_release_header, teardown),
		cmocka_unit_test_teardown(test_10_12_healthy_lacp, teardown),
		cmocka_unit_test_teardown(test_13_fail_over_mac, teardown),
		cmocka_unit_test_teardown(test_14_22_rr, teardown),
		cmocka_unit_test_teardown(test_16_hidden, teardown),
		cmocka_unit_test_teardown(test_19_21_old_formats, teardown),
		cmocka_unit_test_teardown(test_24_vlansrc, teardown),
		cmocka_unit_test_teardown(test_modern_template, teardown),
		cmocka_unit_test_teardown(test_suffixes_and_unknowns, teardown),
		cmocka_unit_test_teardown(test_crlf_bom_and_agg_na_hidden, teardown),
		cmocka_unit_test_teardown(test_second_header_and_speed_forms, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
