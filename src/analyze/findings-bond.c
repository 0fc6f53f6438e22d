// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Bond-level findings: membership, link monitoring, active/primary slave,
 * min_links and balance-rr reordering.  Reads the model only.
 */
#include <stdio.h>
#include <string.h>

#include "analyze/findings-int.h"
#include "bondcheck/names.h"

/* Threshold of slow-failover, ms (DESIGN.md catalog). */
#define SLOW_MS 1000
/*
 * Below this arp_interval a reply that is merely late is a missed one: ARP
 * replies go through the target's control plane, often tens to hundreds of
 * ms on a switch or router (bond_ab_arp_inspect() in bond_main.c counts a
 * slave down after arp_missed_max intervals without a validated frame).
 */
#define ARP_SHORT_MS 500
/* Linux default of net.ipv4.tcp_reordering (Documentation/networking/ip-sysctl.rst). */
#define TCP_REORDERING_DEFAULT 3

/* Modes where bonding keeps a current active slave (bond_uses_primary()). */
static bool uses_primary(const struct bc_bond *b)
{
	return fnd_mode(b, BC_MODE_ACTIVEBACKUP) || fnd_mode(b, BC_MODE_TLB) ||
	       fnd_mode(b, BC_MODE_ALB);
}

static size_t count_up(const struct bc_bond *b)
{
	size_t n = 0;

	for (size_t i = 0; i < b->n_slaves; i++)
		n += fnd_slave_up(&b->slaves[i]);
	return n;
}

/*
 * input-truncated (warning): the source shows only part of the bond
 * (bond->slaves_incomplete, set by the decoder when a cut marker, or master
 * fields that prove slaves the list lacks, show the text is cut).  The
 * checks that need the whole slave list are then not done, and said so.
 *
 * no-slaves (error): n_slaves == 0.  single-slave (warning): n_slaves == 1.
 * Both count the slaves the source listed, so neither is claimed from a
 * source whose slave list is incomplete.
 */
static void check_membership(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;
	struct bc_finding *f;

	if (b->slaves_incomplete) {
		f = fnd_add(c, "input-truncated", NULL,
			    "The text shows only part of %s, so the checks that need every slave "
			    "(count, no-slaves, single-slave, min_links, an active slave, equal "
			    "failures) were not done. Audit the whole file: `cat "
			    "/proc/net/bonding/%s` on the host, or `bondcheck inspect %s`.",
			    b->name, b->name, b->name);
		fnd_ev(f, "missing", "%s",
		       b->incomplete_reason[0] ? b->incomplete_reason : "part of the text");
		fnd_ev(f, "slaves_shown", "%zu", b->n_slaves);
		fnd_ev(f, "not_checked", "slave count, active slave, min_links");
		return;
	}
	if (b->n_slaves == 0) {
		f = fnd_add(c, "no-slaves", NULL,
			    "The bond carries no traffic. Enslave ports (`ip link set DEV master "
			    "%s`) and check the network configuration that should add them "
			    "(ifcfg SLAVE=yes, netplan interfaces:, systemd-networkd Bond=).",
			    b->name);
		fnd_ev(f, "slaves", "0");
		fnd_ev(f, "mii_status", "%s", fnd_link_text(&b->mii_status));
	} else if (b->n_slaves == 1) {
		f = fnd_add(c, "single-slave", NULL,
			    "One slave gives neither redundancy nor aggregation. Check why the "
			    "other ports did not join (`dmesg | grep -i bond`, their driver and "
			    "link) and enslave them.");
		fnd_ev(f, "slaves", "1");
		fnd_ev(f, "slave", "%s", b->slaves[0].name);
	}
}

/*
 * no-link-monitoring (warning): miimon is known to be 0 and arp_interval is
 * known to be 0 (NS monitoring also runs off arp_interval).  ARP monitoring
 * with miimon 0 is monitoring, so it does not trigger.  When either value is
 * not known nothing is said.
 *
 * slow-failover (info): miimon, arp_interval, updelay or downdelay known and
 * >= 1000 ms.  Evidence gives each triggering value and the worst-case
 * detection time: miimon + downdelay for MII, arp_interval x arp_missed_max
 * (2 when not reported: the default) for ARP.
 *
 * single-arp-target (info): arp_interval > 0 and exactly one ARP/NS target
 * in total.
 */
static void check_monitoring(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;
	const struct bc_u32 *mii = &b->miimon_ms, *arp = &b->arp_interval_ms;
	bool arp_on = bc_u32_known(arp) && arp->v > 0;
	struct bc_finding *f;

	if (bc_u32_known(mii) && mii->v == 0 && bc_u32_known(arp) && arp->v == 0) {
		f = fnd_add(c, "no-link-monitoring", NULL,
			    "No link monitoring: a dead slave keeps getting its share of "
			    "traffic. Set miimon (`ip link set %s type bond miimon 100`) or "
			    "ARP monitoring (arp_interval + arp_ip_target).",
			    b->name);
		fnd_ev(f, "miimon_ms", "0");
		fnd_ev(f, "arp_interval_ms", "0");
	}

	if ((bc_u32_known(mii) && mii->v >= SLOW_MS) || (arp_on && arp->v >= SLOW_MS) ||
	    (bc_u32_known(&b->updelay_ms) && b->updelay_ms.v >= SLOW_MS) ||
	    (bc_u32_known(&b->downdelay_ms) && b->downdelay_ms.v >= SLOW_MS)) {
		f = fnd_add(c, "slow-failover", NULL,
			    "A failed link is detected only after seconds, and traffic sent to "
			    "it meanwhile is lost. miimon 100 (or arp_interval 100-500) with "
			    "delays of a few hundred ms is usual.");
		if (bc_u32_known(mii) && mii->v > 0) {
			uint32_t down = bc_u32_known(&b->downdelay_ms) ? b->downdelay_ms.v : 0;

			fnd_ev(f, "miimon_ms", "%u", mii->v);
			if (bc_u32_known(&b->updelay_ms) && b->updelay_ms.v >= SLOW_MS)
				fnd_ev(f, "updelay_ms", "%u", b->updelay_ms.v);
			if (down >= SLOW_MS)
				fnd_ev(f, "downdelay_ms", "%u", down);
			fnd_ev(f, "mii_detect_ms", "%u", mii->v + down);
		}
		if (arp_on) {
			uint32_t missed = bc_u32_known(&b->arp_missed_max) && b->arp_missed_max.v
						  ? b->arp_missed_max.v
						  : 2;

			fnd_ev(f, "arp_interval_ms", "%u", arp->v);
			fnd_ev(f, "arp_detect_ms", "%u", arp->v * missed);
		}
	}

	if (arp_on && arp->v < ARP_SHORT_MS) {
		uint32_t missed = bc_u32_known(&b->arp_missed_max) && b->arp_missed_max.v
					  ? b->arp_missed_max.v
					  : 2;

		f = fnd_add(c, "arp-interval-short", NULL,
			    "A slave is declared down when no validated frame arrived within "
			    "arp_interval x arp_missed_max = %u ms, so one slow ARP reply counts "
			    "as a link failure. arp_interval 1000 ms is usual (`ip link set %s "
			    "type bond arp_interval 1000`); or use miimon for carrier.",
			    arp->v * missed, b->name);
		fnd_ev(f, "arp_interval_ms", "%u", arp->v);
		fnd_ev(f, "arp_missed_max", "%u%s", missed,
		       bc_u32_known(&b->arp_missed_max) ? "" : " (default assumed)");
		fnd_ev(f, "declared_down_after_ms", "%u", arp->v * missed);
	}

	if (arp_on && b->n_arp_targets + b->n_ns_targets == 1) {
		f = fnd_add(c, "single-arp-target", NULL,
			    "If that one target stops answering, every slave is declared down. "
			    "Add a second target (arp_ip_target) on the same subnet, e.g. a "
			    "second router or switch address.");
		fnd_ev(f, "arp_interval_ms", "%u", arp->v);
		fnd_ev(f, "target", "%s", b->n_arp_targets ? b->arp_targets[0] : b->ns_targets[0]);
	}
}

/*
 * primary-down (warning), modes active-backup/tlb/alb: a primary is set and
 * that slave's MII status is known and not up, or it is not a slave of the
 * bond at all (said only when the source lists every slave).  Subject: the primary slave when it is enslaved.
 *
 * no-active-slave (error), same modes, bond with slaves: the source says
 * "Currently Active Slave: None" (BC_NA), or names a slave that is not
 * enslaved, or one whose MII status is known and not up.
 */
static void check_active(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;
	const struct bc_slave *s;
	struct bc_finding *f;

	if (!uses_primary(b))
		return;
	if (b->primary.st == BC_KNOWN) {
		s = bc_bond_find_slave(b, b->primary.v);
		/* an unlisted primary of an incomplete list is not shown, not missing */
		if ((!s && !b->slaves_incomplete) ||
		    (s && bc_u32_known(&s->mii_status) && !fnd_slave_up(s))) {
			f = fnd_add(
				c, "primary-down", s,
				"The bond runs on a backup slave. Repair the primary's link "
				"(cable, switch port, `ip link show %s`); with primary_reselect "
				"always it takes over again once up.",
				b->primary.v);
			fnd_ev(f, "primary", "%s", b->primary.v);
			fnd_ev(f, "primary_mii_status", "%s",
			       s ? fnd_link_text(&s->mii_status) : "not a slave of this bond");
			if (b->active_slave.st == BC_KNOWN)
				fnd_ev(f, "active_slave", "%s", b->active_slave.v);
			if (bc_u32_known(&b->primary_reselect))
				fnd_ev(f, "primary_reselect", "%s",
				       bc_primary_reselect_name((int)b->primary_reselect.v));
		}
	}
	if (!b->n_slaves)
		return;
	s = b->active_slave.st == BC_KNOWN ? bc_bond_find_slave(b, b->active_slave.v) : NULL;
	if (b->active_slave.st == BC_KNOWN && !s && b->slaves_incomplete)
		return; /* not shown, not missing */
	if (b->active_slave.st == BC_NA || (b->active_slave.st == BC_KNOWN && !s) ||
	    (s && bc_u32_known(&s->mii_status) && !fnd_slave_up(s))) {
		char up[16];

		f = fnd_add(c, "no-active-slave", NULL,
			    "No slave carries traffic. Bring a slave's link up; if slaves are up "
			    "but none is selected, check miimon/ARP settings and `dmesg | grep "
			    "-i bond`.");
		fnd_ev(f, "active_slave", "%s",
		       b->active_slave.st == BC_KNOWN ? b->active_slave.v : "None");
		if (s)
			fnd_ev(f, "active_mii_status", "%s", fnd_link_text(&s->mii_status));
		snprintf(up, sizeof(up), "%zu", count_up(b));
		fnd_ev(f, "slaves_up", "%s of %zu", up, b->n_slaves);
	}
}

/*
 * min-links-unmet (error): min_links known and > 0, and the usable slaves
 * are fewer.  Usable: in 802.3ad with a visible active aggregator, its port
 * count (the kernel compares that, bond_3ad_set_carrier()); otherwise the
 * slaves whose MII status is up, counted only when every slave's status is
 * known.
 */
static void check_min_links(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;
	size_t usable;
	const char *how;
	struct bc_finding *f;

	if (!bc_u32_known(&b->min_links) || b->min_links.v == 0)
		return;
	if (fnd_mode(b, BC_MODE_8023AD) && b->ad_info_status == BC_KNOWN &&
	    bc_u32_known(&b->ad_num_ports)) {
		usable = b->ad_num_ports.v;
		how = "ports in the active aggregator";
	} else if (fnd_mode(b, BC_MODE_8023AD) && b->ad_info_status == BC_NA) {
		usable = 0;
		how = "no active aggregator";
	} else {
		if (b->slaves_incomplete)
			return;
		for (size_t i = 0; i < b->n_slaves; i++)
			if (!bc_u32_known(&b->slaves[i].mii_status))
				return;
		usable = count_up(b);
		how = "slaves with MII up";
	}
	if (usable >= b->min_links.v)
		return;
	f = fnd_add(c, "min-links-unmet", NULL,
		    "The bond keeps its carrier off until min_links slaves are usable: it "
		    "carries no traffic. Repair the down ports, or lower min_links.");
	fnd_ev(f, "min_links", "%u", b->min_links.v);
	fnd_ev(f, "usable", "%zu", usable);
	fnd_ev(f, "counted_as", "%s", how);
}

/*
 * rr-tcp-reordering (info): balance-rr with at least two slaves and
 * net.ipv4.tcp_reordering at most its default 3, or not read (then the
 * default is assumed and the evidence says so).  Round-robin sends one
 * flow's consecutive segments over different links, and arrivals out of
 * order beyond tcp_reordering look like loss to TCP.
 */
static void check_rr(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;
	const struct bc_u32 *r = &c->snap->tcp_reordering;
	struct bc_finding *f;

	if (!fnd_mode(b, BC_MODE_ROUNDROBIN) || b->n_slaves < 2)
		return; /* with an incomplete list, fewer than 2 shown proves nothing */
	if (bc_u32_known(r) && r->v > TCP_REORDERING_DEFAULT)
		return;
	f = fnd_add(c, "rr-tcp-reordering", NULL,
		    "balance-rr reorders a TCP flow's segments across links; receivers "
		    "retransmit needlessly. Raise net.ipv4.tcp_reordering on receivers, or use "
		    "802.3ad/balance-xor with xmit_hash_policy layer3+4 to keep a flow on one "
		    "link.");
	if (bc_u32_known(r))
		fnd_ev(f, "tcp_reordering", "%u", r->v);
	else
		fnd_ev(f, "tcp_reordering", "%d (default assumed: not read by this source)",
		       TCP_REORDERING_DEFAULT);
	fnd_ev(f, "slaves", "%zu", b->n_slaves);
}

void fnd_check_bond(struct fnd_ctx *c)
{
	check_membership(c);
	check_monitoring(c);
	check_active(c);
	check_min_links(c);
	check_rr(c);
}
