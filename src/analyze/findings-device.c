// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Findings on a slave's device facts as rtnetlink (or a saved `ip` listing)
 * gives them, beside bonding's own view: carrier and operstate against the
 * MII status bonding counts, and receive drops.  Both are about the slaves
 * the source lists, so they hold for a bond whose slave list is incomplete
 * (bond->slaves_incomplete) too; no check here concludes anything from a
 * slave's absence.
 */
#include <stdio.h>
#include <string.h>

#include "analyze/findings-int.h"

/* uapi if.h IF_OPER_* */
#define OPER_DOWN	    2
#define OPER_LOWERLAYERDOWN 3

static const char *oper_name(uint32_t v)
{
	return v == OPER_DOWN ? "DOWN" : v == OPER_LOWERLAYERDOWN ? "LOWERLAYERDOWN" : "other";
}

/*
 * Why bonding still counts a slave up whose link is gone, from the bond's
 * monitoring settings (drivers/net/bonding/bond_main.c: bond_miimon_inspect()
 * reads netif_carrier_ok() when use_carrier is 1, the driver's MII/ethtool
 * answer when it is 0; the ARP monitor declares a slave down after
 * arp_interval x arp_missed_max without a validated frame).
 */
static const char *no_carrier_cause(const struct bc_bond *b, const char **why)
{
	const struct bc_u32 *mii = &b->miimon_ms, *arp = &b->arp_interval_ms;

	if (bc_u32_known(mii) && mii->v == 0 && bc_u32_known(arp) && arp->v == 0) {
		*why = "No link monitoring (miimon 0, no ARP): bonding never looks at the link. "
		       "Set miimon 100.";
		return "no-link-monitoring";
	}
	if (bc_u32_known(mii) && mii->v > 0 && bc_u32_known(&b->use_carrier) &&
	    b->use_carrier.v == 0) {
		*why = "use_carrier 0: miimon asks the driver's MII ioctl, which answers up. "
		       "Set use_carrier 1.";
		return "use_carrier-0";
	}
	if (bc_u32_known(arp) && arp->v > 0) {
		*why = "ARP monitoring waits arp_interval x arp_missed_max; if it persists, "
		       "unvalidated frames keep it up (arp_validate).";
		return "arp-window";
	}
	if (bc_u32_known(mii) && mii->v > 0) {
		*why = "miimon notices it within miimon + downdelay; if it persists, read "
		       "/proc/net/bonding again.";
		return "within-downdelay";
	}
	*why = "The bond's monitoring is not in this source: check its miimon and "
	       "use_carrier.";
	return "unknown";
}

/*
 * slave-no-carrier (error), per slave: bonding counts the slave up (MII
 * status known up) while the device says its link is gone: carrier known
 * 0 (NO-CARRIER: administratively up without LOWER_UP) or operstate DOWN or
 * LOWERLAYERDOWN.  Traffic hashed or failed over to it is lost.  The cause
 * is named from the bond's monitoring (no_carrier_cause()).
 */
static void check_carrier(struct fnd_ctx *c, const struct bc_slave *s)
{
	const struct bc_bond *b = c->bond;
	bool nocarrier = bc_u32_known(&s->carrier) && s->carrier.v == 0;
	bool operdown = bc_u32_known(&s->operstate) &&
			(s->operstate.v == OPER_DOWN || s->operstate.v == OPER_LOWERLAYERDOWN);
	const char *why, *cause;
	struct bc_finding *f;
	char t[16];

	if (!fnd_slave_up(s) || !(nocarrier || operdown))
		return;
	cause = no_carrier_cause(b, &why);
	f = fnd_add(c, "slave-no-carrier", s,
		    "%s has no link but bonding counts it up: traffic sent to it is lost. %s",
		    s->name, why);
	fnd_ev(f, "mii_status", "up");
	if (bc_u32_known(&s->carrier))
		fnd_ev(f, "carrier", "%s", s->carrier.v ? "yes (LOWER_UP)" : "no (NO-CARRIER)");
	if (operdown)
		fnd_ev(f, "operstate", "%s", oper_name(s->operstate.v));
	fnd_ev(f, "cause", "%s", cause);
	fnd_ev(f, "miimon_ms", "%s", fnd_u32_text(&b->miimon_ms, t, sizeof(t)));
	fnd_ev(f, "arp_interval_ms", "%s", fnd_u32_text(&b->arp_interval_ms, t, sizeof(t)));
	fnd_ev(f, "use_carrier", "%s", fnd_u32_text(&b->use_carrier, t, sizeof(t)));
	fnd_ev(f, "told_by", "`ip link show %s`: NO-CARRIER or state DOWN; bonding: MII up",
	       s->name);
}

/*
 * slave-rx-drops (info), per slave: counters present, the slave's bonding
 * state is known ACTIVE, and rx_dropped or rx_missed_errors is > 0.
 * Bonding drops frames arriving on an inactive (BACKUP) slave by design
 * (bond_should_deliver_exact_match(), all_slaves_active 0), so a backup
 * slave's drops are never reported.  Info only: the counters run since
 * boot and one reading gives no rate.
 */
static void check_rx_drops(struct fnd_ctx *c, const struct bc_slave *s)
{
	const struct bc_link_stats *st = &s->stats;
	struct bc_finding *f;

	if (!st->present || !bc_u32_known(&s->state) || s->state.v != 0 ||
	    (st->rx_dropped == 0 && st->rx_missed_errors == 0))
		return;
	f = fnd_add(c, "slave-rx-drops", s,
		    "Counters since boot give no rate: compare two `ip -s link show %s` a minute "
		    "apart. missed: NIC ring full (`ethtool -g/-S`); dropped: kernel discards "
		    "(unknown protocol/VLAN, backlog).",
		    s->name);
	fnd_ev(f, "rx_dropped", "%llu", (unsigned long long)st->rx_dropped);
	if (st->rx_missed_errors)
		fnd_ev(f, "rx_missed", "%llu", (unsigned long long)st->rx_missed_errors);
	fnd_ev(f, "rx_packets", "%llu", (unsigned long long)st->rx_packets);
	if (st->rx_packets)
		fnd_ev(f, "share", "%.3f %%",
		       100.0 * (double)(st->rx_dropped + st->rx_missed_errors) /
			       (double)(st->rx_packets + st->rx_dropped + st->rx_missed_errors));
	fnd_ev(f, "state", "active");
	fnd_ev(f, "rate", "unknown (one reading)");
}

void fnd_check_device(struct fnd_ctx *c)
{
	for (size_t i = 0; i < c->bond->n_slaves; i++) {
		check_carrier(c, &c->bond->slaves[i]);
		check_rx_drops(c, &c->bond->slaves[i]);
	}
}
