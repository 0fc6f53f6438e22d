// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live decoders (rtnetlink, ethtool netlink, ethtool ioctls, /proc
 * cross-check) on recordings made with `bondcheck inspect --record` on real
 * bonds in the QEMU testbed (Debian 6.1 kernel), replayed through
 * bc_collect_snapshot(): decoded values per mode, the findings, and that
 * the replay gives exactly the findings the live run printed
 * (<name>.live.json, recorded in the same command).  tests/data/recordings/
 * README.md says how the recordings were made.
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

#include <json-c/json.h>

#include "bondcheck/collect.h"
#include "bondcheck/ethtool.h"
#include "bondcheck/findings.h"
#include "bondcheck/rtnl.h"

#define REC BC_TEST_DATA "/recordings/"

static struct bc_snapshot snap;

static int teardown(void **state)
{
	(void)state;
	bc_snapshot_free(&snap);
	memset(&snap, 0, sizeof(snap));
	return 0;
}

/* Replay recording @name (all bonds, or @bond) and evaluate the findings. */
static int replay(const char *name, const char *bond, struct bc_error *err)
{
	char dir[512];
	const char *bonds[1] = {bond};
	struct bc_collect_opts o = {.replay_dir = dir, .bonds = bonds, .n_bonds = bond ? 1 : 0};
	int rc;

	snprintf(dir, sizeof(dir), REC "%s", name);
	memset(&snap, 0, sizeof(snap));
	rc = bc_collect_snapshot(&o, &snap, err);
	if (rc == 0)
		assert_int_equal(bc_findings_evaluate(&snap), 0);
	return rc;
}

static void replay_ok(const char *name)
{
	struct bc_error err = {0};
	int rc = replay(name, NULL, &err);

	if (rc)
		fail_msg("replay %s: %d %s", name, rc, err.msg);
	assert_int_equal(snap.source, BC_SRC_REPLAY);
}

static bool has(const char *bond_or_subject, const char *id)
{
	for (size_t i = 0; i < snap.n_findings; i++)
		if (!strcmp(snap.findings[i].id, id) &&
		    (!strcmp(snap.findings[i].subject, bond_or_subject) ||
		     bc_finding_is_about(&snap.findings[i], bond_or_subject)))
			return true;
	return false;
}

static bool has_prefix(const char *bond, const char *prefix)
{
	for (size_t i = 0; i < snap.n_findings; i++)
		if (!strncmp(snap.findings[i].id, prefix, strlen(prefix)) &&
		    bc_finding_is_about(&snap.findings[i], bond))
			return true;
	return false;
}

static const char *evidence(const char *subject, const char *id, const char *key)
{
	for (size_t i = 0; i < snap.n_findings; i++) {
		const struct bc_finding *f = &snap.findings[i];

		if (strcmp(f->id, id) || strcmp(f->subject, subject))
			continue;
		for (size_t k = 0; k < f->n_evidence; k++)
			if (!strcmp(f->evidence[k].key, key))
				return f->evidence[k].value;
	}
	return NULL;
}

static const struct bc_bond *bond(const char *name)
{
	const struct bc_bond *b = bc_snapshot_find_bond(&snap, name);

	assert_non_null(b);
	return b;
}

static void assert_known(const struct bc_u32 *f, uint32_t v)
{
	assert_int_equal(f->st, BC_KNOWN);
	assert_int_equal(f->v, v);
}

static void assert_slaves(const struct bc_bond *b, const char *const *names, size_t n)
{
	assert_int_equal(b->n_slaves, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(b->slaves[i].name, names[i]);
}

/*
 * The replay's findings equal those of the live run: same ids, subjects,
 * severities, evidence and advice, in the same order.
 */
static void same_as_live(const char *name)
{
	char path[512];
	struct json_object *root, *bonds;
	size_t k = 0;

	snprintf(path, sizeof(path), REC "%s.live.json", name);
	root = json_object_from_file(path);
	assert_non_null(root);
	assert_true(json_object_object_get_ex(root, "bonds", &bonds));
	for (size_t i = 0; i < json_object_array_length(bonds); i++) {
		struct json_object *b = json_object_array_get_idx(bonds, i), *fs;

		assert_true(json_object_object_get_ex(b, "findings", &fs));
		for (size_t j = 0; j < json_object_array_length(fs); j++, k++) {
			struct json_object *f = json_object_array_get_idx(fs, j), *v, *ev;
			const struct bc_finding *g;

			assert_true(k < snap.n_findings);
			g = &snap.findings[k];
			json_object_object_get_ex(f, "id", &v);
			assert_string_equal(g->id, json_object_get_string(v));
			json_object_object_get_ex(f, "subject", &v);
			assert_string_equal(g->subject, json_object_get_string(v));
			json_object_object_get_ex(f, "advice", &v);
			assert_string_equal(g->advice, json_object_get_string(v));
			json_object_object_get_ex(f, "evidence", &ev);
			assert_int_equal(g->n_evidence, json_object_object_length(ev));
			for (size_t e = 0; e < g->n_evidence; e++) {
				assert_true(json_object_object_get_ex(ev, g->evidence[e].key, &v));
				assert_string_equal(g->evidence[e].value,
						    json_object_get_string(v));
			}
		}
	}
	assert_int_equal(k, snap.n_findings);
	json_object_put(root);
}

static void no_disagreement(void)
{
	for (size_t i = 0; i < snap.n_disagreements; i++)
		print_message("disagreement %s %s: %s=%s %s=%s\n", snap.disagreements[i].subject,
			      snap.disagreements[i].field, snap.disagreements[i].source_a,
			      snap.disagreements[i].value_a, snap.disagreements[i].source_b,
			      snap.disagreements[i].value_b);
	assert_int_equal(snap.n_disagreements, 0);
}

static const char *const three[] = {"eth0", "eth1", "eth2"};

/* What every veth slave of the testbed reports (kernel-interfaces.md 4.3). */
static void veth_slave(const struct bc_slave *s)
{
	assert_string_equal(s->driver, "veth");
	assert_string_equal(s->driver_version, "1.0");
	assert_string_equal(s->kind, "veth");
	assert_true(s->drvinfo_present);
	assert_known(&s->speed_mbps, 10000);
	assert_known(&s->duplex, 1);
	assert_known(&s->mtu, 1500);
	assert_known(&s->offloads.tso, 1);
	assert_known(&s->offloads.gro, 0); /* veth clears GRO at creation */
	assert_known(&s->offloads.sg, 1);
	/* veth has no rings, pause or coalesce op: EOPNOTSUPP is not reported */
	assert_int_equal(s->rx_ring.st, BC_NOT_REPORTED);
	assert_int_equal(s->pause_rx.st, BC_NOT_REPORTED);
	assert_int_equal(s->rx_usecs.st, BC_NOT_REPORTED);
	assert_int_equal(s->rx_channels.st, BC_KNOWN); /* channels are supported */
	assert_non_null(bc_slave_find_counter(s, "peer_ifindex"));
	assert_int_equal(s->n_std_stats, 0); /* no standard stats groups on veth */
	assert_true(s->stats.present);
	assert_int_equal(s->perm_hwaddr.st, BC_KNOWN);
}

static void t_8023ad(void **state)
{
	const struct bc_bond *b;

	(void)state;
	replay_ok("mode-802.3ad");
	assert_true(snap.cap_net_admin);
	assert_int_equal(snap.have &
				 (BC_HAVE_RTNL | BC_HAVE_ETHTOOL_NL | BC_HAVE_IOCTL | BC_HAVE_PROC),
			 BC_HAVE_RTNL | BC_HAVE_ETHTOOL_NL | BC_HAVE_IOCTL | BC_HAVE_PROC);
	b = bond("bond0");
	assert_known(&b->mode, BC_MODE_8023AD);
	assert_known(&b->miimon_ms, 100);
	assert_known(&b->lacp_rate, 1);
	assert_known(&b->xmit_hash_policy, 1); /* layer3+4 */
	assert_known(&b->ad_actor_sys_prio, 65535);
	assert_int_equal(b->ad_info_status, BC_KNOWN);
	assert_known(&b->ad_num_ports, 3);
	assert_known(&b->ad_actor_key, 15); /* veth: speed code 7 -> key 15 */
	assert_known(&b->mii_status, BC_LINK_UP);
	assert_int_equal(b->ad_partner_mac.st, BC_KNOWN);
	assert_string_not_equal(b->ad_partner_mac.v, "00:00:00:00:00:00");
	assert_slaves(b, three, 3);
	for (size_t i = 0; i < 3; i++) {
		const struct bc_slave *s = &b->slaves[i];

		veth_slave(s);
		assert_known(&s->aggregator_id, b->ad_aggregator_id.v);
		assert_known(&s->actor_oper_port_state, 63);
		assert_known(&s->partner_oper_port_state, 63);
		assert_known(&s->mii_status, BC_LINK_UP);
		/* LACPDU details come from /proc only */
		assert_known(&s->actor.port_state, 63);
		assert_int_equal(s->partner.system_mac.st, BC_KNOWN);
	}
	no_disagreement();
	assert_false(has_prefix("bond0", "lacp-"));
	assert_int_equal(snap.n_findings, 0);
	same_as_live("mode-802.3ad");
}

/* The same bond read without CAP_NET_ADMIN (setpriv): hidden, not missing. */
static void t_8023ad_nonroot(void **state)
{
	const struct bc_bond *b;

	(void)state;
	replay_ok("802.3ad-nonroot");
	assert_false(snap.cap_net_admin);
	assert_true(snap.lacp_hidden);
	b = bond("bond0");
	assert_int_equal(b->ad_actor_sys_prio.st, BC_HIDDEN);
	assert_int_equal(b->ad_actor_system.st, BC_HIDDEN);
	/* netlink AD_INFO and port states are not gated */
	assert_int_equal(b->ad_info_status, BC_KNOWN);
	assert_known(&b->ad_num_ports, 3);
	for (size_t i = 0; i < b->n_slaves; i++) {
		assert_known(&b->slaves[i].actor_oper_port_state, 63);
		assert_int_equal(b->slaves[i].actor.port_state.st, BC_HIDDEN);
	}
	assert_true(has("bond0", "lacp-details-hidden"));
	assert_false(has("bond0", "lacp-no-active-aggregator"));
	assert_false(has("bond0", "lacp-split-aggregator"));
	assert_false(has("bond0", "lacp-no-partner"));
	no_disagreement();
	same_as_live("802.3ad-nonroot");
}

static void t_rr(void **state)
{
	const struct bc_bond *b;

	(void)state;
	replay_ok("mode-balance-rr");
	b = bond("bond0");
	assert_known(&b->mode, BC_MODE_ROUNDROBIN);
	assert_known(&b->packets_per_slave, 1);
	assert_slaves(b, three, 3);
	for (size_t i = 0; i < 3; i++)
		veth_slave(&b->slaves[i]);
	assert_known(&snap.tcp_reordering, 3);
	assert_true(has("bond0", "rr-tcp-reordering"));
	assert_string_equal(evidence("bond0", "rr-tcp-reordering", "tcp_reordering"), "3");
	no_disagreement();
	same_as_live("mode-balance-rr");
}

static void t_ab(void **state)
{
	const struct bc_bond *b;

	(void)state;
	replay_ok("mode-active-backup");
	b = bond("bond0");
	assert_known(&b->mode, BC_MODE_ACTIVEBACKUP);
	assert_int_equal(b->primary.st, BC_KNOWN);
	assert_string_equal(b->primary.v, "eth0");
	assert_int_equal(b->active_slave.st, BC_KNOWN);
	assert_string_equal(b->active_slave.v, "eth0");
	assert_known(&b->slaves[0].state, 0); /* active */
	assert_known(&b->slaves[1].state, 1); /* backup */
	assert_known(&b->slaves[2].state, 1);
	assert_false(has("bond0", "no-active-slave"));
	no_disagreement();
	same_as_live("mode-active-backup");
}

static void t_other_modes(void **state)
{
	static const struct {
		const char *rec;
		int mode;
	} m[] = {
		{"mode-balance-xor", BC_MODE_XOR},
		{"mode-broadcast", BC_MODE_BROADCAST},
		{"mode-balance-tlb", BC_MODE_TLB},
		{"mode-balance-alb", BC_MODE_ALB},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		const struct bc_bond *b;

		replay_ok(m[i].rec);
		b = bond("bond0");
		assert_known(&b->mode, (uint32_t)m[i].mode);
		assert_slaves(b, three, 3);
		for (size_t j = 0; j < 3; j++) {
			veth_slave(&b->slaves[j]);
			assert_known(&b->slaves[j].mii_status, BC_LINK_UP);
		}
		if (m[i].mode == BC_MODE_TLB || m[i].mode == BC_MODE_ALB)
			assert_int_equal(b->active_slave.st, BC_KNOWN);
		no_disagreement();
		assert_int_equal(bc_findings_count(&snap, BC_SEV_ERROR), 0);
		same_as_live(m[i].rec);
		teardown(NULL);
	}
}

/* e1000 + 8139cp + virtio_net in balance-rr: three drivers, three speeds. */
static void t_mixed(void **state)
{
	const struct bc_bond *b;
	const char *d;

	(void)state;
	replay_ok("mixed-drivers");
	b = bond("bond0");
	assert_slaves(b, three, 3);
	assert_string_equal(b->slaves[0].driver, "e1000");
	assert_string_equal(b->slaves[1].driver, "8139cp");
	assert_string_equal(b->slaves[2].driver, "virtio_net");
	assert_known(&b->slaves[0].speed_mbps, 1000);
	assert_known(&b->slaves[1].speed_mbps, 100);
	assert_int_equal(b->slaves[2].speed_mbps.st, BC_UNKNOWN);
	assert_string_not_equal(b->slaves[0].bus_info, ""); /* a PCI address */
	/* e1000 has rings and its own counters, the loss ledger needs them */
	assert_int_equal(b->slaves[0].rx_ring.st, BC_KNOWN);
	assert_non_null(bc_slave_find_counter(&b->slaves[0], "rx_no_buffer_count"));
	assert_true(has("bond0", "driver-mismatch"));
	d = evidence("bond0", "driver-mismatch", "drivers");
	assert_non_null(d);
	assert_string_equal(d, "e1000, 8139cp, virtio_net");
	assert_true(has("bond0", "speed-mismatch"));
	assert_true(has("bond0/eth2", "speed-unknown"));
	no_disagreement();
	same_as_live("mixed-drivers");
}

static void t_no_partner(void **state)
{
	const struct bc_bond *b;

	(void)state;
	replay_ok("lacp-no-partner");
	b = bond("bond0");
	assert_int_equal(b->ad_info_status, BC_KNOWN);
	assert_string_equal(b->ad_partner_mac.v, "00:00:00:00:00:00");
	for (size_t i = 0; i < b->n_slaves; i++)
		assert_true(b->slaves[i].actor_oper_port_state.v & BC_LACP_DEFAULTED);
	assert_true(has("bond0", "lacp-no-partner"));
	/* without a partner every port is individual, in its own aggregator */
	assert_int_equal(b->n_slaves, 2);
	assert_int_not_equal(b->slaves[0].aggregator_id.v, b->slaves[1].aggregator_id.v);
	assert_true(has("bond0", "lacp-split-aggregator"));
	no_disagreement();
	same_as_live("lacp-no-partner");
}

/* 802.3ad over e1000 (1000) + 8139cp (100): two aggregators. */
static void t_split(void **state)
{
	const struct bc_bond *b;
	int in_active = 0;

	(void)state;
	replay_ok("lacp-split");
	b = bond("bond0");
	assert_int_equal(b->ad_info_status, BC_KNOWN);
	assert_known(&b->ad_num_ports, 1);
	for (size_t i = 0; i < b->n_slaves; i++)
		in_active += b->slaves[i].aggregator_id.v == b->ad_aggregator_id.v;
	assert_int_equal(in_active, 1);
	assert_true(has("bond0", "lacp-split-aggregator"));
	assert_true(has("bond0", "speed-mismatch"));
	no_disagreement();
	same_as_live("lacp-split");
}

static void t_faults(void **state)
{
	const struct bc_bond *b;

	(void)state;
	replay_ok("inspect-faults");
	b = bond("bond0");
	assert_known(&b->min_links, 3);
	assert_known(&b->slaves[2].mii_status, BC_LINK_DOWN);
	assert_known(&b->slaves[1].offloads.tso, 0);
	assert_true(has("bond0/eth2", "slave-down"));
	assert_true(has("bond0", "min-links-unmet"));
	assert_string_equal(evidence("bond0", "min-links-unmet", "usable"), "2");
	assert_true(has("bond0", "offload-mismatch"));
	assert_non_null(strstr(evidence("bond0", "offload-mismatch", "tso"), "eth1=off"));
	b = bond("bond1");
	assert_known(&b->miimon_ms, 0);
	assert_true(has("bond1", "no-link-monitoring"));
	assert_false(has("bond1", "slave-down"));
	no_disagreement();
	same_as_live("inspect-faults");
}

/* the recordings behind tests/fleet/engines.sh (tests/data/recordings/fleet-*.scn) */
static void t_fleet(void **state)
{
	const struct bc_bond *b;

	(void)state;
	replay_ok("fleet-8023ad-slow");
	b = bond("bond0");
	assert_known(&b->mode, BC_MODE_8023AD);
	assert_int_equal(b->n_slaves, 3);
	assert_true(has("bond0", "lacp-slow-rate"));
	same_as_live("fleet-8023ad-slow");
}

static void t_fleet_virtio(void **state)
{
	const struct bc_bond *b;

	(void)state;
	replay_ok("fleet-8023ad-virtio");
	b = bond("bond0");
	assert_int_equal(b->n_slaves, 3);
	/* virtio-net (speed unknown) beside two veths: another driver, another key */
	assert_true(has("bond0", "driver-mismatch"));
	assert_true(has("bond0", "lacp-split-aggregator"));
	same_as_live("fleet-8023ad-virtio");
}

static void t_errors(void **state)
{
	struct bc_error err = {0};

	(void)state;
	assert_int_equal(replay("no-bonds", NULL, &err), -ENODEV);
	assert_non_null(strstr(err.msg, "ls /sys/module/bonding"));
	teardown(NULL);
	memset(&err, 0, sizeof(err));
	assert_int_equal(replay("mode-802.3ad", "bond9", &err), -ENOENT);
	assert_non_null(strstr(err.msg, "bond9"));
	assert_non_null(strstr(err.msg, "the bonds here are: bond0"));
	teardown(NULL);
	memset(&err, 0, sizeof(err));
	assert_int_equal(replay("no-such-recording", NULL, &err), -EPROTO);
	assert_non_null(strstr(err.msg, "not a bondcheck recording"));
}

/* Read a recorded file whole. */
static void *slurp(const char *rel, size_t *len)
{
	char path[512];
	FILE *f;
	void *p;
	long n;

	snprintf(path, sizeof(path), REC "%s", rel);
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	p = malloc((size_t)n + 1);
	assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return p;
}

/* Damaged bytes: an error, never a crash; EOPNOTSUPP is an answer. */
static void t_damaged(void **state)
{
	struct bc_slave s = {.name = "eth0"};
	struct bc_error err = {0};
	size_t len, llen;
	void *links = slurp("mode-802.3ad/rtnl/links", &llen);
	void *rings = slurp("mode-802.3ad/ethtool/eth0/rings", &len);

	(void)state;
	assert_int_equal(bc_ethtool_decode(BC_ETHTOOL_RINGS, rings, len, &s, &err), -EOPNOTSUPP);
	assert_int_equal(s.rx_ring.st, BC_NOT_REPORTED);
	free(rings);
	/* a linkmodes reply is not a rings reply: the cmd is checked */
	rings = slurp("mode-802.3ad/ethtool/eth0/linkmodes", &len);
	assert_int_equal(bc_ethtool_decode(BC_ETHTOOL_RINGS, rings, len, &s, NULL), -ENODATA);
	for (size_t cut = 1; cut < len; cut += 7) {
		memset(&s, 0, sizeof(s));
		(void)bc_ethtool_decode(BC_ETHTOOL_LINKMODES, rings, cut, &s, NULL);
	}
	free(rings);
	for (size_t cut = 1; cut < llen; cut += 97) {
		struct bc_snapshot t = {0};
		int rc = bc_rtnl_decode_links(links, cut, &t, NULL);

		assert_true(rc == 0 || rc == -EPROTO);
		bc_snapshot_free(&t);
	}
	free(links);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(t_8023ad, teardown),
		cmocka_unit_test_teardown(t_8023ad_nonroot, teardown),
		cmocka_unit_test_teardown(t_rr, teardown),
		cmocka_unit_test_teardown(t_ab, teardown),
		cmocka_unit_test_teardown(t_other_modes, teardown),
		cmocka_unit_test_teardown(t_mixed, teardown),
		cmocka_unit_test_teardown(t_no_partner, teardown),
		cmocka_unit_test_teardown(t_split, teardown),
		cmocka_unit_test_teardown(t_faults, teardown),
		cmocka_unit_test_teardown(t_errors, teardown),
		cmocka_unit_test(t_damaged),
		cmocka_unit_test_teardown(t_fleet, teardown),
		cmocka_unit_test_teardown(t_fleet_virtio, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
