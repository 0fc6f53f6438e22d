// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Findings engine.  For every shared /proc case, the exact set of findings
 * that /work/shared/cases/README.md says a correct validator reports (so a
 * missing finding and an extra, wrong one both fail), with key evidence;
 * then synthetic models for the checks /proc cannot exercise (drivers, MTU,
 * offloads, min_links, LACP partners and rates, disagreements).
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
#include "bondcheck/proc.h"

#define CASES BC_TEST_DATA "/proc-net-bonding/"

static struct bc_snapshot snap;

static int teardown(void **state)
{
	(void)state;
	bc_snapshot_free(&snap);
	return 0;
}

static void evaluate(void)
{
	assert_int_equal(bc_findings_evaluate(&snap), 0);
	for (size_t i = 0; i < snap.n_findings; i++) {
		const struct bc_finding *f = &snap.findings[i];
		const struct bc_finding_def *d = bc_findings_lookup(f->id);

		/* catalog severity, error-first order, advice never cut short */
		assert_non_null(d);
		assert_int_equal(f->severity, d->severity);
		if (i && bc_finding_is_about(&snap.findings[i - 1], snap.bonds[0].name))
			assert_true(snap.findings[i - 1].severity >= f->severity);
		assert_true(strlen(f->advice) > 40);
		assert_true(strlen(f->advice) < sizeof(f->advice) - 1);
		for (size_t k = 0; k < f->n_evidence; k++)
			assert_true(strlen(f->evidence[k].value) <
				    sizeof(f->evidence[k].value) - 1);
	}
}

static void load(const char *file)
{
	struct bc_error err = {0};
	char path[512];

	snprintf(path, sizeof(path), CASES "%s", file);
	memset(&snap, 0, sizeof(snap));
	if (bc_proc_parse_file(path, "bond0", &snap, &err))
		fail_msg("%s: %s", file, err.msg);
	evaluate();
}

static const struct bc_finding *find(const char *id, const char *subject)
{
	for (size_t i = 0; i < snap.n_findings; i++)
		if (!strcmp(snap.findings[i].id, id) && !strcmp(snap.findings[i].subject, subject))
			return &snap.findings[i];
	return NULL;
}

static const char *evidence(const struct bc_finding *f, const char *key)
{
	for (size_t i = 0; i < f->n_evidence; i++)
		if (!strcmp(f->evidence[i].key, key))
			return f->evidence[i].value;
	fail_msg("finding %s %s has no evidence '%s'", f->id, f->subject, key);
	return NULL;
}

/* The findings are exactly @expected ("id subject" strings, any order). */
static void expect_exactly(const char *const *expected, size_t n)
{
	bool used[64] = {false};

	if (snap.n_findings != n)
		for (size_t i = 0; i < snap.n_findings; i++)
			print_message("  got: %s %s\n", snap.findings[i].id,
				      snap.findings[i].subject);
	assert_int_equal(snap.n_findings, n);
	for (size_t e = 0; e < n; e++) {
		char id[64];
		const char *sp = strchr(expected[e], ' ');
		bool found = false;

		snprintf(id, sizeof(id), "%.*s", (int)(sp - expected[e]), expected[e]);
		for (size_t i = 0; i < snap.n_findings && !found; i++) {
			if (used[i] || strcmp(snap.findings[i].id, id) ||
			    strcmp(snap.findings[i].subject, sp + 1))
				continue;
			used[i] = found = true;
		}
		if (!found)
			fail_msg("expected finding '%s' missing", expected[e]);
	}
}

#define EXPECT(...)                                                                                \
	do {                                                                                       \
		static const char *const ex_[] = {__VA_ARGS__};                                    \
		expect_exactly(ex_, sizeof(ex_) / sizeof(ex_[0]));                                 \
	} while (0)
#define EXPECT_NONE() expect_exactly(NULL, 0)

static void test_case01(void **state)
{
	const struct bc_finding *f;

	(void)state;
	load("01-8023ad-slave-down-churned-split-agg.txt");
	/*
	 * enp1s0f0 is down in aggregator 1 while 2 is active: it carries nothing.
	 * A down port always sits alone (bond_3ad.c moves it out), so that is
	 * slave-down with the aggregators as evidence, not a split (issue 13).
	 */
	EXPECT("slave-down bond0/enp1s0f0", "lacp-no-partner bond0",
	       "lacp-not-in-sync bond0/enp1s0f1", "lacp-churned bond0/enp1s0f0",
	       "lacp-churned bond0/enp1s0f1", "link-failures bond0/enp1s0f0",
	       "link-failures bond0/enp1s0f1");
	f = find("slave-down", "bond0/enp1s0f0");
	assert_string_equal(evidence(f, "aggregator_id"), "1 (active: 2)");
	f = find("lacp-no-partner", "bond0");
	assert_string_equal(evidence(f, "ad_partner_mac"), "00:00:00:00:00:00");
	assert_string_equal(evidence(f, "slaves_without_partner"), "enp1s0f0 (down), enp1s0f1");
	assert_non_null(strstr(evidence(f, "actor/partner_port_state"), "enp1s0f1=79/1 defaulted"));
	f = find("lacp-not-in-sync", "bond0/enp1s0f1");
	assert_string_equal(evidence(f, "partner_missing"),
			    "synchronization collecting distributing");
	assert_string_equal(evidence(f, "actor_missing"), "collecting distributing");
	f = find("lacp-churned", "bond0/enp1s0f1");
	assert_string_equal(evidence(f, "actor_churn_state"), "none");
	assert_string_equal(evidence(f, "partner_churn_state"), "churned");
	assert_int_equal(snap.findings[0].severity, BC_SEV_ERROR);
}

static void test_case02(void **state)
{
	const struct bc_finding *f;

	(void)state;
	load("02-balance-xor-v2.6.0-slave-down-lkml2005.txt");
	EXPECT("slave-down bond0/eth0", "slow-failover bond0", "link-failures bond0/eth0",
	       "speed-not-reported bond0");
	f = find("slow-failover", "bond0");
	assert_string_equal(evidence(f, "miimon_ms"), "1000");
	assert_string_equal(evidence(f, "downdelay_ms"), "3000");
	assert_string_equal(evidence(f, "mii_detect_ms"), "4000");
	f = find("slave-down", "bond0/eth0");
	assert_string_equal(evidence(f, "slaves_up"), "1 of 2");
	assert_string_equal(evidence(find("speed-not-reported", "bond0"), "slaves"), "eth0, eth1");
}

static void test_case04(void **state)
{
	(void)state;
	load("04-active-backup-v3.6.0-arp-monitor.txt");
	/* miimon 0 with ARP monitoring is monitoring: no no-link-monitoring */
	EXPECT("slow-failover bond0", "single-arp-target bond0", "link-failures bond0/eth0",
	       "link-failures bond0/eth1");
	assert_string_equal(evidence(find("slow-failover", "bond0"), "arp_interval_ms"), "3000");
	assert_string_equal(evidence(find("single-arp-target", "bond0"), "target"), "192.0.2.129");
}

static void test_case05(void **state)
{
	(void)state;
	load("05-8023ad-v3.6.0-no-active-aggregator-all-down.txt");
	EXPECT("slave-down bond0/eth0", "slave-down bond0/eth1", "lacp-no-active-aggregator bond0",
	       "lacp-slow-rate bond0");
	assert_string_equal(
		evidence(find("lacp-no-active-aggregator", "bond0"), "slave_aggregators"),
		"eth0=1, eth1=2");
	assert_string_equal(evidence(find("slave-down", "bond0/eth1"), "slaves_up"), "0 of 2");
}

static void test_case07_08(void **state)
{
	(void)state;
	load("07-balance-alb-v3.7.1-one-slave-missing.txt");
	EXPECT("single-slave bond0");
	assert_string_equal(evidence(find("single-slave", "bond0"), "slave"), "eth1");
	bc_snapshot_free(&snap);

	load("08-balance-alb-v3.7.1-no-slaves.txt");
	EXPECT("no-slaves bond0"); /* and no no-active-slave on an empty bond */
}

static void test_healthy(void **state)
{
	(void)state;
	load("09-balance-tlb-v5.10-debian11.txt");
	EXPECT_NONE();
	bc_snapshot_free(&snap);

	load("10-8023ad-el8-2x100G-healthy-slow-rate.txt");
	EXPECT("lacp-slow-rate bond0"); /* churned count 1 is history, state none */
	bc_snapshot_free(&snap);

	load("12-8023ad-healthy-space-indented-aggregator-info.txt");
	EXPECT_NONE(); /* one partner MAC, ports 12/1012: not a partner mismatch */
}

static void test_case13(void **state)
{
	const struct bc_finding *f;

	(void)state;
	load("13-active-backup-wifi-fail_over_mac-primary-down.txt");
	EXPECT("slave-down bond0/enp0s10", "primary-down bond0/enp0s10",
	       "speed-unknown bond0/wlp3s0", "link-failures bond0/enp0s10",
	       "link-failures bond0/wlp3s0");
	f = find("primary-down", "bond0/enp0s10");
	assert_string_equal(evidence(f, "active_slave"), "wlp3s0");
	assert_string_equal(evidence(f, "primary_mii_status"), "down");
	f = find("link-failures", "bond0/wlp3s0");
	assert_string_equal(evidence(f, "link_failure_count"), "36");
	assert_string_equal(evidence(f, "assessment"), "high: the link flaps");
	assert_string_equal(evidence(find("link-failures", "bond0/enp0s10"), "assessment"),
			    "not up now");
}

static void test_case14_22_rr(void **state)
{
	(void)state;
	load("14-balance-rr-miimon0-three-slaves.txt");
	EXPECT("no-link-monitoring bond0", "rr-tcp-reordering bond0");
	assert_non_null(strstr(evidence(find("rr-tcp-reordering", "bond0"), "tcp_reordering"),
			       "default assumed"));
	bc_snapshot_free(&snap);

	load("22-balance-rr-v6.1-debian12-lfc1.txt");
	EXPECT("rr-tcp-reordering bond0", "link-failures bond0/enp0s8",
	       "link-failures bond0/enp0s3");
	assert_string_equal(evidence(find("link-failures", "bond0/enp0s3"), "assessment"),
			    "recovered");
}

static void test_case16_hidden(void **state)
{
	(void)state;
	load("16-8023ad-v6.6-wsl2-nonroot-view.txt");
	/* hidden: no lacp-no-active-aggregator, no split, no partner findings */
	EXPECT("lacp-details-hidden bond0");
	assert_string_equal(evidence(find("lacp-details-hidden", "bond0"), "reason"),
			    "reader lacks CAP_NET_ADMIN");
}

static void test_old_formats(void **state)
{
	(void)state;
	load("19-broadcast-v3.6.0-blog-no-blank-lines.txt");
	EXPECT("speed-not-reported bond0");
	bc_snapshot_free(&snap);

	load("21-balance-alb-v3.5.0-ubuntu1004-no-speed-lines.txt");
	EXPECT("speed-not-reported bond0");
	bc_snapshot_free(&snap);

	load("24-balance-xor-v4.18-vlansrc-no-slaves.txt");
	EXPECT("no-slaves bond0", "no-link-monitoring bond0");
}

/* ---- synthetic models ---- */

static struct bc_bond *model(int mode, size_t n)
{
	static const char *const names[] = {"eth0", "eth1", "eth2", "eth3"};
	struct bc_bond *b;

	memset(&snap, 0, sizeof(snap));
	b = bc_snapshot_add_bond(&snap, "bond0");
	bc_u32_set(&b->mode, (uint32_t)mode);
	bc_u32_set(&b->miimon_ms, 100);
	bc_u32_set(&b->arp_interval_ms, 0);
	for (size_t i = 0; i < n; i++) {
		struct bc_slave *s = bc_bond_add_slave(b, names[i]);

		bc_u32_set(&s->mii_status, BC_LINK_UP);
		bc_u32_set(&s->speed_mbps, 1000);
		bc_u32_set(&s->duplex, 1);
		bc_u32_set(&s->link_failure_count, 0);
	}
	return b;
}

static void test_driver_mismatch(void **state)
{
	struct bc_bond *b = model(BC_MODE_XOR, 3);
	const struct bc_finding *f;

	(void)state;
	strcpy(b->slaves[0].driver, "e1000");
	strcpy(b->slaves[1].driver, "8139cp");
	strcpy(b->slaves[2].driver, "virtio_net");
	bc_u32_set(&b->slaves[1].speed_mbps, 100);
	b->slaves[2].speed_mbps.st = BC_UNKNOWN;
	evaluate();
	EXPECT("driver-mismatch bond0", "speed-mismatch bond0", "speed-unknown bond0/eth2");
	f = find("driver-mismatch", "bond0");
	assert_string_equal(evidence(f, "drivers"), "e1000, 8139cp, virtio_net");
	assert_string_equal(evidence(f, "slaves"), "eth0=e1000, eth1=8139cp, eth2=virtio_net");
	f = find("speed-mismatch", "bond0");
	assert_string_equal(evidence(f, "speeds_mbps"), "eth0=1000, eth1=100");
	assert_string_equal(evidence(f, "slowest_mbps"), "100");
	assert_string_equal(evidence(f, "fastest_mbps"), "1000");

	/* same driver, different firmware; a slave without drvinfo takes no part */
	strcpy(b->slaves[1].driver, "e1000");
	b->slaves[2].driver[0] = '\0';
	strcpy(b->slaves[0].fw_version, "1.2");
	strcpy(b->slaves[1].fw_version, "1.3");
	bc_u32_set(&b->slaves[1].speed_mbps, 1000);
	b->slaves[2].speed_mbps.st = BC_NOT_REPORTED;
	evaluate();
	EXPECT("driver-mismatch bond0", "speed-not-reported bond0");
	assert_string_equal(evidence(find("driver-mismatch", "bond0"), "firmware"),
			    "eth0=1.2, eth1=1.3");

	strcpy(b->slaves[1].fw_version, "1.2");
	evaluate(); /* idempotent: findings replaced, not appended */
	EXPECT("speed-not-reported bond0");
}

static void test_speed_unknown_rules(void **state)
{
	struct bc_bond *b = model(BC_MODE_ALB, 2);

	(void)state;
	bc_u32_set(&b->slaves[0].mii_status, BC_LINK_DOWN);
	b->slaves[0].speed_mbps.st = BC_UNKNOWN; /* down: not speed-unknown */
	bc_u32_set(&b->slaves[1].duplex, 0);	 /* half duplex */
	strcpy(b->active_slave.v, "eth1");
	b->active_slave.st = BC_KNOWN;
	evaluate();
	EXPECT("slave-down bond0/eth0", "duplex-mismatch bond0");
	assert_string_equal(evidence(find("duplex-mismatch", "bond0"), "duplex"),
			    "eth0=full, eth1=half");
	assert_string_equal(evidence(find("duplex-mismatch", "bond0"), "mixed"), "yes");
}

static void test_mtu_offloads(void **state)
{
	struct bc_bond *b = model(BC_MODE_BROADCAST, 2);
	const struct bc_finding *f;

	(void)state;
	bc_u32_set(&b->mtu, 9000);
	bc_u32_set(&b->slaves[0].mtu, 9000);
	bc_u32_set(&b->slaves[1].mtu, 1500);
	bc_u32_set(&b->slaves[0].offloads.tso, 1);
	bc_u32_set(&b->slaves[1].offloads.tso, 0);
	bc_u32_set(&b->slaves[0].offloads.gro, 1); /* eth1 gro not reported: no mismatch */
	bc_u32_set(&b->slaves[0].offloads.sg, 1);
	bc_u32_set(&b->slaves[1].offloads.sg, 1);
	evaluate();
	EXPECT("mtu-mismatch bond0", "offload-mismatch bond0");
	f = find("mtu-mismatch", "bond0");
	assert_string_equal(evidence(f, "bond_mtu"), "9000");
	assert_string_equal(evidence(f, "slave_mtu"), "eth0=9000, eth1=1500");
	f = find("offload-mismatch", "bond0");
	assert_int_equal(f->n_evidence, 1);
	assert_string_equal(evidence(f, "tso"), "eth0=on, eth1=off");

	bc_u32_set(&b->slaves[1].mtu, 9000);
	bc_u32_set(&b->slaves[1].offloads.tso, 1);
	evaluate();
	EXPECT_NONE();
}

static void test_min_links_and_monitoring(void **state)
{
	struct bc_bond *b = model(BC_MODE_XOR, 3);

	(void)state;
	bc_u32_set(&b->min_links, 3);
	bc_u32_set(&b->slaves[2].mii_status, BC_LINK_DOWN);
	bc_u32_set(&b->updelay_ms, 1000);
	evaluate();
	EXPECT("min-links-unmet bond0", "slave-down bond0/eth2", "slow-failover bond0");
	assert_string_equal(evidence(find("min-links-unmet", "bond0"), "usable"), "2");
	assert_string_equal(evidence(find("slow-failover", "bond0"), "updelay_ms"), "1000");

	/* miimon 0 with arp_interval not known: nothing is claimed */
	bc_u32_set(&b->min_links, 2);
	bc_u32_set(&b->updelay_ms, 0);
	bc_u32_set(&b->miimon_ms, 0);
	b->arp_interval_ms.st = BC_NOT_REPORTED;
	evaluate();
	EXPECT("slave-down bond0/eth2");

	/* 802.3ad counts the active aggregator's ports */
	bc_u32_set(&b->mode, BC_MODE_8023AD);
	b->ad_info_status = BC_KNOWN;
	bc_u32_set(&b->ad_aggregator_id, 1);
	bc_u32_set(&b->ad_num_ports, 1);
	for (size_t i = 0; i < 3; i++)
		bc_u32_set(&b->slaves[i].aggregator_id, 1);
	evaluate();
	EXPECT("min-links-unmet bond0", "slave-down bond0/eth2");
	assert_string_equal(evidence(find("min-links-unmet", "bond0"), "counted_as"),
			    "ports in the active aggregator");
}

static void lacp_port(struct bc_slave *s, uint32_t actor, uint32_t partner, const char *mac)
{
	bc_u32_set(&s->aggregator_id, 1);
	bc_u32_set(&s->actor_oper_port_state, actor);
	bc_u32_set(&s->partner_oper_port_state, partner);
	snprintf(s->partner.system_mac.v, sizeof(s->partner.system_mac.v), "%s", mac);
	s->partner.system_mac.st = BC_KNOWN;
	bc_u32_set(&s->actor_churn_state, BC_CHURN_NONE);
	bc_u32_set(&s->partner_churn_state, BC_CHURN_MONITOR);
}

static void test_lacp_partner_rate(void **state)
{
	struct bc_bond *b = model(BC_MODE_8023AD, 2);

	(void)state;
	bc_u32_set(&b->lacp_rate, 1);
	b->ad_info_status = BC_KNOWN;
	bc_u32_set(&b->ad_aggregator_id, 1);
	lacp_port(&b->slaves[0], 63, 61, "02:00:00:00:00:aa");
	lacp_port(&b->slaves[1], 63, 63, "02:00:00:00:00:bb");
	evaluate();
	EXPECT("lacp-partner-mismatch bond0", "lacp-rate-mismatch bond0/eth0");
	assert_string_equal(evidence(find("lacp-partner-mismatch", "bond0"), "partner_system_mac"),
			    "eth0=02:00:00:00:00:aa, eth1=02:00:00:00:00:bb");
	assert_string_equal(evidence(find("lacp-rate-mismatch", "bond0/eth0"), "partner_timeout"),
			    "long (slow)");

	/* a defaulted actor has no real partner: no rate mismatch; N/A port is split */
	lacp_port(&b->slaves[0], 63 | BC_LACP_DEFAULTED, 61, "02:00:00:00:00:bb");
	b->slaves[1].aggregator_id.st = BC_NA;
	evaluate();
	EXPECT("lacp-split-aggregator bond0/eth1");
	assert_string_equal(evidence(find("lacp-split-aggregator", "bond0/eth1"), "aggregator_id"),
			    "N/A (never joined one)");
}

static void test_hidden_is_absence(void **state)
{
	struct bc_bond *b = model(BC_MODE_8023AD, 2);

	(void)state;
	b->ad_info_status = BC_HIDDEN;
	b->ad_partner_mac.st = BC_HIDDEN;
	for (size_t i = 0; i < 2; i++) {
		bc_u32_set(&b->slaves[i].aggregator_id, (uint32_t)i + 1); /* even split ids */
		b->slaves[i].actor_oper_port_state.st = BC_HIDDEN;
		b->slaves[i].partner_oper_port_state.st = BC_HIDDEN;
	}
	evaluate();
	/*
	 * Two up slaves in different aggregators prove that at most one carries
	 * traffic, whatever is hidden, but not which: the bond is the subject.
	 */
	EXPECT("lacp-details-hidden bond0", "lacp-split-aggregator bond0");
	assert_string_equal(evidence(find("lacp-split-aggregator", "bond0"), "cause"),
			    "not-visible");
	assert_string_equal(evidence(find("lacp-split-aggregator", "bond0"), "slave_aggregators"),
			    "eth0=1, eth1=2");

	/* a down slave in an aggregator of its own is slave-down, not a split */
	bc_u32_set(&b->slaves[1].mii_status, BC_LINK_DOWN);
	evaluate();
	EXPECT("lacp-details-hidden bond0", "slave-down bond0/eth1");
	bc_u32_set(&b->slaves[1].mii_status, BC_LINK_UP);

	b->ad_info_status = BC_NOT_REPORTED; /* no source at all: silence */
	for (size_t i = 0; i < 2; i++) {
		b->slaves[i].actor_oper_port_state.st = BC_NOT_REPORTED;
		b->slaves[i].partner_oper_port_state.st = BC_NOT_REPORTED;
	}
	evaluate();
	EXPECT_NONE();
}

static void test_active_slave_rules(void **state)
{
	struct bc_bond *b = model(BC_MODE_ACTIVEBACKUP, 2);

	(void)state;
	b->active_slave.st = BC_NA;
	strcpy(b->primary.v, "eth7");
	b->primary.st = BC_KNOWN;
	evaluate();
	EXPECT("no-active-slave bond0", "primary-down bond0");
	assert_string_equal(evidence(find("primary-down", "bond0"), "primary_mii_status"),
			    "not a slave of this bond");
	assert_string_equal(evidence(find("no-active-slave", "bond0"), "slaves_up"), "2 of 2");
}

static void test_tcp_reordering_input(void **state)
{
	struct bc_bond *b = model(BC_MODE_ROUNDROBIN, 2);

	(void)state;
	(void)b;
	bc_u32_set(&snap.tcp_reordering, 3);
	evaluate();
	EXPECT("rr-tcp-reordering bond0");
	assert_string_equal(evidence(find("rr-tcp-reordering", "bond0"), "tcp_reordering"), "3");
	bc_u32_set(&snap.tcp_reordering, 127);
	evaluate();
	EXPECT_NONE();
}

static void test_disagreement(void **state)
{
	struct bc_u32 a = {0}, p = {0};
	const struct bc_finding *f;

	(void)state;
	model(BC_MODE_BROADCAST, 2);
	a.st = BC_HIDDEN;
	bc_u32_set(&p, 2);
	assert_int_equal(bc_findings_compare_u32(&snap, "bond0", "eth0", "aggregator_id", "netlink",
						 &a, "proc", &p),
			 0);
	a.st = BC_NOT_REPORTED;
	assert_int_equal(bc_findings_compare_u32(&snap, "bond0", "eth0", "aggregator_id", "netlink",
						 &a, "proc", &p),
			 0);
	bc_u32_set(&a, 2);
	assert_int_equal(bc_findings_compare_u32(&snap, "bond0", "eth0", "aggregator_id", "netlink",
						 &a, "proc", &p),
			 0);
	bc_u32_set(&a, 1);
	assert_int_equal(bc_findings_compare_u32(&snap, "bond0", "eth0", "aggregator_id", "netlink",
						 &a, "proc", &p),
			 1);
	a.st = BC_UNKNOWN;
	assert_int_equal(
		bc_findings_compare_u32(&snap, "bond0", NULL, "speed", "netlink", &a, "proc", &p),
		1);
	assert_int_equal(bc_findings_add_disagreement(&snap, "bond9", NULL, "mode", "netlink", "4",
						      "proc", "0"),
			 0);
	evaluate();
	EXPECT("source-disagreement bond0/eth0", "source-disagreement bond0");
	f = find("source-disagreement", "bond0/eth0");
	assert_string_equal(evidence(f, "field"), "aggregator_id");
	assert_string_equal(evidence(f, "netlink"), "1");
	assert_string_equal(evidence(f, "proc"), "2");
	assert_string_equal(evidence(find("source-disagreement", "bond0"), "netlink"), "Unknown");
}

static void test_catalog(void **state)
{
	size_t n;
	const struct bc_finding_def *c = bc_findings_catalog(&n);

	(void)state;
	assert_true(n >= 28);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			assert_string_not_equal(c[i].id, c[j].id);
	assert_int_equal(bc_findings_lookup("duplex-mismatch")->severity, BC_SEV_ERROR);
	assert_int_equal(bc_findings_lookup("lacp-details-hidden")->severity, BC_SEV_INFO);
	assert_null(bc_findings_lookup("no-such-finding"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_case01, teardown),
		cmocka_unit_test_teardown(test_case02, teardown),
		cmocka_unit_test_teardown(test_case04, teardown),
		cmocka_unit_test_teardown(test_case05, teardown),
		cmocka_unit_test_teardown(test_case07_08, teardown),
		cmocka_unit_test_teardown(test_healthy, teardown),
		cmocka_unit_test_teardown(test_case13, teardown),
		cmocka_unit_test_teardown(test_case14_22_rr, teardown),
		cmocka_unit_test_teardown(test_case16_hidden, teardown),
		cmocka_unit_test_teardown(test_old_formats, teardown),
		cmocka_unit_test_teardown(test_driver_mismatch, teardown),
		cmocka_unit_test_teardown(test_speed_unknown_rules, teardown),
		cmocka_unit_test_teardown(test_mtu_offloads, teardown),
		cmocka_unit_test_teardown(test_min_links_and_monitoring, teardown),
		cmocka_unit_test_teardown(test_lacp_partner_rate, teardown),
		cmocka_unit_test_teardown(test_hidden_is_absence, teardown),
		cmocka_unit_test_teardown(test_active_slave_rules, teardown),
		cmocka_unit_test_teardown(test_tcp_reordering_input, teardown),
		cmocka_unit_test_teardown(test_disagreement, teardown),
		cmocka_unit_test_teardown(test_catalog, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
