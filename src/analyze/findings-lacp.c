// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * 802.3ad findings.  Port-state bits are IEEE 802.1AX LACP_STATE_* (kernel
 * drivers/net/bonding/bond_3ad.c; uapi if_bonding.h since 5.6).
 *
 * Hidden is absence, but hides less than everything: when a reader without
 * CAP_NET_ADMIN could not see the active aggregator or the LACPDU details
 * (ad_info_status == BC_HIDDEN, port states BC_HIDDEN), lacp-details-hidden
 * names what could not be checked, and never a missing aggregator, a missing
 * partner or lost sync is claimed.  The slaves' Aggregator ID lines stay
 * visible, so up slaves in different aggregators are still a split (of the
 * bond: which aggregator is active is what is hidden).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "analyze/findings-int.h"
#include "bondcheck/names.h"

#define LIST	128
#define IN_SYNC (BC_LACP_SYNCHRONIZATION | BC_LACP_COLLECTING | BC_LACP_DISTRIBUTING)
/* bond_3ad.c AD_DUPLEX_KEY_MASKS: bit 0 of an actor key is "full duplex" */
#define AD_DUPLEX_KEY_BIT 0x1

static bool mac_zero(const struct bc_str *m)
{
	return m->st == BC_KNOWN && !strcmp(m->v, "00:00:00:00:00:00");
}

/*
 * lacp-details-hidden (info): some source hid 802.3ad details from a reader
 * without CAP_NET_ADMIN: ad_info_status is BC_HIDDEN (/proc without
 * netlink), the actor system priority/MAC is BC_HIDDEN (netlink attributes
 * 24-26, /proc System priority/MAC), or a slave's LACPDU details or oper
 * port states are BC_HIDDEN.  Names what could not be checked.
 *
 * lacp-no-active-aggregator (error): ad_info_status is BC_NA, i.e. a
 * visible source said "bond X has no active aggregator" (netlink: no
 * AD_INFO while privileged).  A slave's own "Aggregator ID: N/A" is not this
 * (see lacp-split-aggregator), and a hidden source never is.
 *
 * lacp-slow-rate (info): lacp_rate known and slow.
 */
static void check_bond_level(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;
	bool agg = b->ad_info_status == BC_HIDDEN, ports = false, pdu = false;
	bool sys = b->ad_actor_sys_prio.st == BC_HIDDEN || b->ad_actor_system.st == BC_HIDDEN;
	char what[LIST] = "", checks[LIST] = "";
	struct bc_finding *f;

	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *s = &b->slaves[i];

		ports |= s->actor_oper_port_state.st == BC_HIDDEN ||
			 s->partner_oper_port_state.st == BC_HIDDEN;
		pdu |= s->actor.port_state.st == BC_HIDDEN || s->partner.system_mac.st == BC_HIDDEN;
	}
	if (agg)
		fnd_list_add(what, sizeof(what), "active aggregator");
	if (sys)
		fnd_list_add(what, sizeof(what), "actor system priority/MAC");
	if (ports)
		fnd_list_add(what, sizeof(what), "port states");
	if (pdu)
		fnd_list_add(what, sizeof(what), "LACPDU details");
	if (what[0]) {
		f = fnd_add(c, "lacp-details-hidden", NULL,
			    "Run as root (or with CAP_NET_ADMIN), e.g. `sudo bondcheck inspect "
			    "%s`: the checks that need these details were skipped, not passed.",
			    b->name);
		fnd_ev(f, "hidden", "%s", what);
		fnd_ev(f, "reason", "reader lacks CAP_NET_ADMIN");
		/* name each check the hidden text prevents (issue 13 class 2) */
		if (agg)
			fnd_list_add(checks, sizeof(checks),
				     "lacp-no-active-aggregator, idle slave");
		if (ports || pdu)
			fnd_list_add(checks, sizeof(checks),
				     "lacp-no-partner, lacp-partner-mismatch, "
				     "lacp-not-in-sync, lacp-rate-mismatch");
		if (checks[0])
			fnd_ev(f, "not_checked", "%s", checks);
	}
	if (b->ad_info_status == BC_NA) {
		char aggs[LIST] = "";
		char t[16];

		for (size_t i = 0; i < b->n_slaves; i++)
			fnd_list_add(aggs, sizeof(aggs), "%s=%s", b->slaves[i].name,
				     fnd_u32_text(&b->slaves[i].aggregator_id, t, sizeof(t)));
		f = fnd_add(c, "lacp-no-active-aggregator", NULL,
			    "No aggregator is active, so the bond carries nothing. Usually every "
			    "port is down or no port hears a partner: check cables, that the "
			    "switch ports are up and form one LACP LAG (mode active).");
		fnd_ev(f, "active_aggregator", "none");
		fnd_ev(f, "mii_status", "%s", fnd_link_text(&b->mii_status));
		if (aggs[0])
			fnd_ev(f, "slave_aggregators", "%s", aggs);
	}
	if (bc_u32_known(&b->lacp_rate) && b->lacp_rate.v == 0) {
		f = fnd_add(c, "lacp-slow-rate", NULL,
			    "With lacp_rate slow a dead partner is noticed after 3 missed "
			    "LACPDUs of 30 s. Set lacp_rate fast on %s and `lacp rate fast` on "
			    "the switch ports (detection ~3 s).",
			    b->name);
		fnd_ev(f, "lacp_rate", "slow");
		fnd_ev(f, "partner_timeout_s", "90");
	}
}

/*
 * lacp-no-partner (error): the active aggregator's partner MAC is known and
 * 00:00:00:00:00:00, or an up slave's LACPDU partner system MAC is.  A down
 * slave alone does not trigger it (its partner data is reset when the link
 * drops, and slave-down reports it) but is listed in the evidence, marked
 * "(down)".  One finding per bond.
 */
static void check_partner(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;
	char slaves[LIST] = "", states[LIST] = "";
	bool agg_zero = b->ad_info_status == BC_KNOWN && mac_zero(&b->ad_partner_mac);
	struct bc_finding *f;
	size_t n = 0;

	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *s = &b->slaves[i];

		if (!mac_zero(&s->partner.system_mac))
			continue;
		n += fnd_slave_up(s);
		fnd_list_add(slaves, sizeof(slaves), "%s%s", s->name,
			     fnd_slave_up(s) ? "" : " (down)");
		if (bc_u32_known(&s->actor_oper_port_state) &&
		    bc_u32_known(&s->partner_oper_port_state))
			fnd_list_add(states, sizeof(states), "%s=%u/%u%s", s->name,
				     s->actor_oper_port_state.v, s->partner_oper_port_state.v,
				     s->actor_oper_port_state.v & BC_LACP_DEFAULTED ? " defaulted"
										    : "");
	}
	if (!agg_zero && !n)
		return;
	f = fnd_add(c, "lacp-no-partner", NULL,
		    "No LACPDU from the switch: its ports are not in an LACP LAG (static or "
		    "no LAG, or LACP passive on both ends). Configure the switch ports as one "
		    "LAG with LACP active, or use a non-LACP mode.");
	if (b->ad_info_status == BC_KNOWN && b->ad_partner_mac.st == BC_KNOWN)
		fnd_ev(f, "ad_partner_mac", "%s", b->ad_partner_mac.v);
	if (slaves[0])
		fnd_ev(f, "slaves_without_partner", "%s", slaves);
	if (states[0])
		fnd_ev(f, "actor/partner_port_state", "%s", states);
}

/* A port the kernel cannot aggregate: duplex not full (ad_update_actor_keys()). */
static bool individual(const struct bc_slave *s)
{
	if (bc_u32_known(&s->actor.key) && !(s->actor.key.v & AD_DUPLEX_KEY_BIT))
		return true;
	return s->duplex.st == BC_UNKNOWN || (bc_u32_known(&s->duplex) && s->duplex.v == 0);
}

/* The slave's actor key, or the active aggregator's for one of its ports. */
static const struct bc_u32 *actor_key(const struct bc_bond *b, const struct bc_slave *s)
{
	if (bc_u32_known(&s->actor.key))
		return &s->actor.key;
	if (b->ad_info_status == BC_KNOWN && bc_u32_known(&s->aggregator_id) &&
	    bc_u32_known(&b->ad_aggregator_id) && s->aggregator_id.v == b->ad_aggregator_id.v)
		return &b->ad_actor_key;
	return NULL;
}

/*
 * Why @s is not in the active aggregator, by the kernel's rules
 * (bond_3ad.c ad_port_selection_logic()): a port joins another port's
 * aggregator only when both are aggregatable (full duplex), their actor keys
 * (user_port_key << 6 | speed << 1 | duplex, ad_update_actor_keys()) are
 * equal, and the partner's system MAC, priority and key are equal and the
 * partner MAC is not zero.  @in is a port of the active aggregator (or NULL).
 * Writes every cause the text proves, ", "-separated: individual,
 * key-differs, partner-silent, partner-differs; "not-visible" when the keys
 * or the port's partner are not shown (old drivers print neither, a reader
 * without CAP_NET_ADMIN sees neither); "undetermined" when both are shown
 * and equal (a port that just came up, or ad_select keeping the old one).
 */
static void split_cause(const struct bc_bond *b, const struct bc_slave *s,
			const struct bc_slave *in, char *out, size_t cap)
{
	const struct bc_u32 *ks = actor_key(b, s), *ki = in ? actor_key(b, in) : NULL;
	bool silent = mac_zero(&s->partner.system_mac) ||
		      (b->ad_info_status == BC_KNOWN && mac_zero(&b->ad_partner_mac) &&
		       s->partner.system_mac.st != BC_KNOWN);

	out[0] = '\0';
	if (individual(s) || (in && individual(in)))
		fnd_list_add(out, cap, "individual");
	if ((ks && ki && ks->v != ki->v) ||
	    (in && bc_u32_known(&s->speed_mbps) && bc_u32_known(&in->speed_mbps) &&
	     s->speed_mbps.v != in->speed_mbps.v))
		fnd_list_add(out, cap, "key-differs");
	if (silent)
		fnd_list_add(out, cap, "partner-silent");
	else if (in && s->partner.system_mac.st == BC_KNOWN &&
		 in->partner.system_mac.st == BC_KNOWN &&
		 (strcasecmp(s->partner.system_mac.v, in->partner.system_mac.v) ||
		  (bc_u32_known(&s->partner.system_priority) &&
		   bc_u32_known(&in->partner.system_priority) &&
		   s->partner.system_priority.v != in->partner.system_priority.v) ||
		  /* a partner key that differs with equal actor keys: two port-channels;
		   * with different actor keys the far end's key follows the same speed */
		  (!strstr(out, "key-differs") && bc_u32_known(&s->partner.key) &&
		   bc_u32_known(&in->partner.key) && s->partner.key.v != in->partner.key.v)))
		fnd_list_add(out, cap, "partner-differs");
	if (!out[0])
		snprintf(out, cap, "%s",
			 ks && ki && s->partner.system_mac.st == BC_KNOWN ? "undetermined"
									  : "not-visible");
}

/* What each split cause means and what to do, first matching cause wins. */
static const struct {
	const char *cause;
	const char *why;
	const char *next;
} split_text[] = {
	{"individual",
	 "a port without full duplex (its key lacks the duplex bit) cannot aggregate and forms "
	 "an aggregator alone",
	 "Check its duplex with `ethtool`; sub-interfaces and some virtual NICs report none."},
	{"key-differs",
	 "its actor key differs (speed or duplex: key = speed << 1 | duplex), and ports of "
	 "different keys never share an aggregator",
	 "Use equal-speed ports, or ad_select bandwidth to prefer the faster aggregator."},
	{"partner-silent",
	 "its key and speed match, but no partner answers LACP (partner MAC zero), so each port "
	 "stays alone",
	 "Configure the switch ports as one LACP LAG (mode active), or use a static mode."},
	{"partner-differs",
	 "it hears a different LACP partner (system MAC, priority or key): two switches without "
	 "MLAG, or two port-channels",
	 "Check the switch's LAG membership of this port."},
	{"", "the text does not show why (keys and partner look equal or are not shown)",
	 "Compare speed/duplex with `ethtool` and the switch's LAG membership."},
};

static struct bc_finding *split_finding(struct fnd_ctx *c, const struct bc_slave *s,
					const char *cause)
{
	size_t i = 0;

	while (split_text[i].cause[0] && !strstr(cause, split_text[i].cause))
		i++;
	return fnd_add(c, "lacp-split-aggregator", s,
		       "%s is not in the active aggregator %u and carries nothing: %s. %s", s->name,
		       c->bond->ad_aggregator_id.v, split_text[i].why, split_text[i].next);
}

/*
 * lacp-split-aggregator (error).  With the active aggregator visible
 * (BC_KNOWN), per slave whose aggregator id is known and different, or N/A,
 * and which is up (a down port in an aggregator of its own is slave-down,
 * not a split): it carries no traffic.  Evidence `cause` names every cause
 * the text proves (split_cause()).
 *
 * With the active aggregator hidden (an unprivileged /proc reader), per
 * bond: up slaves in two or more different aggregators prove that at most
 * one aggregator carries traffic, but not which one, so no slave is named
 * (cause not-visible).
 */
static void check_split(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;
	const struct bc_slave *in = NULL;

	if (b->ad_info_status == BC_HIDDEN) {
		char aggs[LIST] = "", cause[LIST] = "";
		uint32_t first = 0, speed = 0;
		bool have = false, differ = false, indiv = false, speeds = false;
		struct bc_finding *f;

		for (size_t i = 0; i < b->n_slaves; i++) {
			const struct bc_slave *s = &b->slaves[i];

			if (!fnd_slave_up(s) || !bc_u32_known(&s->aggregator_id))
				continue;
			/* what stays visible: duplex and speed lines (the keys' inputs) */
			indiv |= individual(s);
			if (bc_u32_known(&s->speed_mbps)) {
				speeds |= speed && speed != s->speed_mbps.v;
				speed = s->speed_mbps.v;
			}
			fnd_list_add(aggs, sizeof(aggs), "%s=%u", s->name, s->aggregator_id.v);
			differ |= have && s->aggregator_id.v != first;
			if (!have)
				first = s->aggregator_id.v;
			have = true;
		}
		if (!differ)
			return;
		f = fnd_add(
			c, "lacp-split-aggregator", NULL,
			"Up slaves sit in different aggregators, so at most one of them carries "
			"traffic; which one is hidden from this reader. Run `sudo cat "
			"/proc/net/bonding/%s` (the Active Aggregator block and LACPDU details "
			"show which and why: key or partner).",
			b->name);
		if (indiv)
			fnd_list_add(cause, sizeof(cause), "individual");
		if (speeds)
			fnd_list_add(cause, sizeof(cause), "key-differs");
		fnd_ev(f, "slave_aggregators", "%s", aggs);
		fnd_ev(f, "active_aggregator_id", "hidden");
		fnd_ev(f, "cause", "%s", cause[0] ? cause : "not-visible");
		return;
	}
	if (b->ad_info_status != BC_KNOWN || !bc_u32_known(&b->ad_aggregator_id))
		return;
	for (size_t i = 0; i < b->n_slaves && !in; i++)
		if (bc_u32_known(&b->slaves[i].aggregator_id) &&
		    b->slaves[i].aggregator_id.v == b->ad_aggregator_id.v)
			in = &b->slaves[i];
	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *s = &b->slaves[i];
		const struct bc_u32 *a = &s->aggregator_id;
		struct bc_finding *f = NULL;
		char t[16], cause[LIST];

		if (!(a->st == BC_NA || (bc_u32_known(a) && a->v != b->ad_aggregator_id.v)))
			continue;
		if (bc_u32_known(&s->mii_status) && !fnd_slave_up(s))
			continue; /* slave-down says it; a down port always sits alone */
		split_cause(b, s, in, cause, sizeof(cause));
		f = split_finding(c, s, cause);
		fnd_ev(f, "aggregator_id", "%s",
		       a->st == BC_NA ? "N/A (never joined one)" : fnd_u32_text(a, t, sizeof(t)));
		fnd_ev(f, "active_aggregator_id", "%u", b->ad_aggregator_id.v);
		if (bc_u32_known(&b->ad_num_ports))
			fnd_ev(f, "active_aggregator_ports", "%u of %zu slaves", b->ad_num_ports.v,
			       b->n_slaves);
		fnd_ev(f, "cause", "%s", cause);
		if (actor_key(b, s))
			fnd_ev(f, "actor_key", "%u", actor_key(b, s)->v);
		if (in && actor_key(b, in))
			fnd_ev(f, "active_actor_key", "%u", actor_key(b, in)->v);
		fnd_ev(f, "mii_status", "%s", fnd_link_text(&s->mii_status));
	}
}

/*
 * lacp-port-individual (warning), per up 802.3ad slave: duplex known half or
 * "Unknown", or an actor key without the duplex bit.  ad_update_actor_keys()
 * clears AD_PORT_LACP_ENABLED unless duplex is full, so such a port forms an
 * aggregator of its own (unknown speed with full duplex still aggregates).
 */
static void check_individual(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;

	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *s = &b->slaves[i];
		struct bc_finding *f;
		char t[16];

		if (!fnd_slave_up(s) || !individual(s))
			continue;
		f = fnd_add(c, "lacp-port-individual", s,
			    "Only a full-duplex port is LACP-enabled (bond_3ad.c "
			    "ad_update_actor_keys()); %s reports %s, so it forms an aggregator "
			    "alone and never shares one. Check `ethtool %s`: sub-interfaces and "
			    "some virtual NICs report no duplex.",
			    s->name,
			    s->duplex.st == BC_UNKNOWN ? "duplex Unknown"
			    : bc_u32_known(&s->duplex) && !s->duplex.v
				    ? "half duplex"
				    : "a key without the duplex bit",
			    s->name);
		fnd_ev(f, "duplex", "%s",
		       s->duplex.st == BC_UNKNOWN ? "Unknown"
		       : bc_u32_known(&s->duplex) ? (s->duplex.v ? "full" : "half")
						  : "not reported");
		fnd_ev(f, "speed", "%s", fnd_u32_text(&s->speed_mbps, t, sizeof(t)));
		if (bc_u32_known(&s->actor.key))
			fnd_ev(f, "actor_key", "%u", s->actor.key.v);
	}
}

/*
 * lacp-partner-mismatch (error): up slaves report two or more different
 * known, non-zero partner system MACs: the switch side is not one LAG (an
 * MLAG pair presents one system MAC, so it does not trigger this).
 */
static void check_partner_mismatch(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;
	char list[LIST] = "";
	const char *first = NULL;
	bool diff = false;
	struct bc_finding *f;

	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *s = &b->slaves[i];

		if (!fnd_slave_up(s) || s->partner.system_mac.st != BC_KNOWN ||
		    mac_zero(&s->partner.system_mac))
			continue;
		fnd_list_add(list, sizeof(list), "%s=%s", s->name, s->partner.system_mac.v);
		if (!first)
			first = s->partner.system_mac.v;
		diff |= strcmp(first, s->partner.system_mac.v) != 0;
	}
	if (!diff)
		return;
	f = fnd_add(c, "lacp-partner-mismatch", NULL,
		    "The slaves talk to different LACP partners, so they cannot share one "
		    "aggregator. Put all switch ports of %s into one LAG (or one MLAG "
		    "domain).",
		    b->name);
	fnd_ev(f, "partner_system_mac", "%s", list);
}

/*
 * Per up slave with known actor and partner port states:
 *
 * lacp-rate-mismatch (warning): the LACP_TIMEOUT bits differ, while a real
 * partner is present (actor not DEFAULTED, partner MAC not all-zero): with
 * no partner the partner state is a default, not the switch's setting.
 *
 * lacp-not-in-sync (error): actor or partner state lacks any of
 * SYNCHRONIZATION, COLLECTING, DISTRIBUTING (0x38): the port does not carry
 * traffic, or only one way.
 *
 * lacp-churned (warning), any slave: actor or partner churn state is known
 * and "churned" (AD_CHURN).  "monitoring" is the normal start-up state and
 * churned counts alone are history, so neither triggers.
 */
static void check_ports(struct fnd_ctx *c)
{
	const struct bc_bond *b = c->bond;

	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *s = &b->slaves[i];
		const struct bc_u32 *as = &s->actor_oper_port_state;
		const struct bc_u32 *ps = &s->partner_oper_port_state;
		bool both = bc_u32_known(as) && bc_u32_known(ps);
		char ta[128], tp[128];
		struct bc_finding *f;

		if (fnd_slave_up(s) && both && ((as->v ^ ps->v) & BC_LACP_TIMEOUT) &&
		    !(as->v & BC_LACP_DEFAULTED) && !mac_zero(&s->partner.system_mac)) {
			f = fnd_add(
				c, "lacp-rate-mismatch", s,
				"The two ends use different LACPDU rates. Set the same rate on "
				"both: lacp_rate on %s and `lacp rate fast|normal` on the switch "
				"port.",
				b->name);
			fnd_ev(f, "actor_timeout", "%s",
			       as->v & BC_LACP_TIMEOUT ? "short (fast)" : "long (slow)");
			fnd_ev(f, "partner_timeout", "%s",
			       ps->v & BC_LACP_TIMEOUT ? "short (fast)" : "long (slow)");
		}
		if (fnd_slave_up(s) && both &&
		    ((as->v & IN_SYNC) != IN_SYNC || (ps->v & IN_SYNC) != IN_SYNC)) {
			char wa[112], wp[112];

			f = fnd_add(
				c, "lacp-not-in-sync", s,
				"LACP has not put %s into service. Check that the switch port "
				"is in the same LAG as the other ports, has LACP active and the "
				"same speed.",
				s->name);
			fnd_ev(f, "actor_port_state", "%s", fnd_state_text(as->v, ta, sizeof(ta)));
			fnd_ev(f, "partner_port_state", "%s",
			       fnd_state_text(ps->v, tp, sizeof(tp)));
			if (IN_SYNC & ~as->v)
				fnd_ev(f, "actor_missing", "%s",
				       bc_lacp_state_words(IN_SYNC & ~as->v, wa, sizeof(wa)));
			if (IN_SYNC & ~ps->v)
				fnd_ev(f, "partner_missing", "%s",
				       bc_lacp_state_words(IN_SYNC & ~ps->v, wp, sizeof(wp)));
		}
		if ((bc_u32_known(&s->actor_churn_state) &&
		     s->actor_churn_state.v == BC_CHURN_CHURN) ||
		    (bc_u32_known(&s->partner_churn_state) &&
		     s->partner_churn_state.v == BC_CHURN_CHURN)) {
			/*
			 * A state rule, never a kernel-version one: kernels have kept
			 * "churned" on ports that reached sync (a churn-machine fix
			 * was posted to netdev in 2025-11; backports vary).
			 */
			bool stale = both && (as->v & IN_SYNC) == IN_SYNC &&
				     (ps->v & IN_SYNC) == IN_SYNC;

			if (stale)
				f = fnd_add(
					c, "lacp-churn-stale", s,
					"The churn flag is stale: actor and partner are in sync, "
					"collecting and distributing, so %s carries traffic. "
					"Some kernels keep 'churned' after sync; nothing to do.",
					s->name);
			else if (both)
				f = fnd_add(c, "lacp-churned", s,
					    "The port did not reach sync within the churn timer "
					    "(60 s) and is still not in sync: the partner does not "
					    "answer or disagrees. Check the switch port's LACP "
					    "configuration (see lacp-not-in-sync).");
			else
				f = fnd_add(
					c, "lacp-churned", s,
					"The churn machine flagged %s (no sync within 60 s); its "
					"current port states are not shown, so whether it is in "
					"sync now is unknown: read the LACPDU details as root.",
					s->name);
			fnd_ev(f, "actor_churn_state", "%s",
			       bc_u32_known(&s->actor_churn_state)
				       ? bc_churn_name((int)s->actor_churn_state.v)
				       : "not reported");
			fnd_ev(f, "partner_churn_state", "%s",
			       bc_u32_known(&s->partner_churn_state)
				       ? bc_churn_name((int)s->partner_churn_state.v)
				       : "not reported");
			if (bc_u32_known(&s->actor_churned_count))
				fnd_ev(f, "actor_churned_count", "%u", s->actor_churned_count.v);
			if (bc_u32_known(&s->partner_churned_count))
				fnd_ev(f, "partner_churned_count", "%u",
				       s->partner_churned_count.v);
			if (stale)
				fnd_ev(f, "port_states", "%u/%u in sync", as->v, ps->v);
		}
	}
}

/*
 * A bond whose mode the source does not show (a listing of its slaves only)
 * is 802.3ad when a slave carries 802.3ad port data: the kernel fills
 * IFLA_BOND_SLAVE_AD_* and prints the Aggregator ID line only in that mode
 * (bond_netlink.c bond_fill_slave_info(), bond_procfs.c).
 */
static bool lacp_bond(const struct bc_bond *b)
{
	if (fnd_mode(b, BC_MODE_8023AD))
		return true;
	if (b->mode.st == BC_KNOWN)
		return false;
	for (size_t i = 0; i < b->n_slaves; i++)
		if (b->slaves[i].aggregator_id.st != BC_NOT_REPORTED ||
		    b->slaves[i].actor_oper_port_state.st == BC_KNOWN)
			return true;
	return false;
}

void fnd_check_lacp(struct fnd_ctx *c)
{
	if (!lacp_bond(c->bond))
		return;
	check_bond_level(c);
	check_partner(c);
	check_split(c);
	check_individual(c);
	check_partner_mismatch(c);
	check_ports(c);
}
