// SPDX-License-Identifier: GPL-2.0-or-later
/* The capacity model: four levels and the mechanisms between them (bondcheck/capacity.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/capacity.h"
#include "bondcheck/model.h"

static const char *const mech_names[BC_CAP_MECH_N] = {
	[BC_CAP_MECH_EQUAL_SHARES] = "equal-shares",
	[BC_CAP_MECH_ONE_SLAVE] = "one-active-slave",
	[BC_CAP_MECH_SLOWEST_COPY] = "broadcast-slowest",
	[BC_CAP_MECH_LACP_KEY] = "lacp-key",
	[BC_CAP_MECH_LACP_PARTNER] = "lacp-partner",
	[BC_CAP_MECH_LACP_INDIVIDUAL] = "lacp-individual",
	[BC_CAP_MECH_ALB_RX_PEERS] = "alb-rx-peers",
	[BC_CAP_MECH_AGG_SELECTION] = "aggregator-selection",
	[BC_CAP_MECH_ACTIVE_SLAVE] = "active-slave",
	[BC_CAP_MECH_SLAVE_DOWN] = "slave-down",
	[BC_CAP_MECH_HASH_PLACEMENT] = "hash-placement",
	[BC_CAP_MECH_TX_LOSS] = "tx-loss",
	[BC_CAP_MECH_RX_LOSS_NIC] = "rx-loss-nic",
	[BC_CAP_MECH_WIRE_LOSS] = "wire-loss",
	[BC_CAP_MECH_RX_LOSS_REASM] = "rx-loss-reassembly",
	[BC_CAP_MECH_RX_LOSS_SOCKET] = "rx-loss-socket",
	[BC_CAP_MECH_REORDERING] = "reordering",
	[BC_CAP_MECH_CPU_BOUND] = "cpu-bound",
	[BC_CAP_MECH_UNATTRIBUTED] = "unattributed",
};

static const char *const level_names[BC_CAP_N_LEVELS] = {"installed", "potential", "selected",
							 "carried"};

const char *bc_cap_mech_name(enum bc_cap_mech m)
{
	return (unsigned)m < BC_CAP_MECH_N ? mech_names[m] : "?";
}

const char *bc_cap_level_name(enum bc_cap_level l)
{
	return (unsigned)l < BC_CAP_N_LEVELS ? level_names[l] : "?";
}

int bc_cap_speed_key(long long speed_mbps)
{
	static const long long speeds[] = {1,	  10,	  100,	  1000,	  2500,	 5000,
					   10000, 14000,  20000,  25000,  40000, 50000,
					   56000, 100000, 200000, 400000, 800000};

	for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (speeds[i] == speed_mbps)
			return (int)i + 1;
	return 0;
}

int bc_cap_actor_key(const struct bc_cap_port *p, int user_port_key)
{
	return (user_port_key << 6) | (bc_cap_speed_key(p->speed_mbps) << 1) | (p->duplex != 0);
}

/* LACP is off on a half-duplex port (bond_3ad.c: the duplex bit clear makes it individual). */
static bool individual(const struct bc_cap_port *p)
{
	return p->duplex == 0;
}

/* An all-zero partner system MAC means no LACPDU arrived; "" is unknown. */
static bool has_partner(const struct bc_cap_port *p)
{
	return strcmp(p->partner_mac, "00:00:00:00:00:00") != 0;
}

/* Unknown partner values (an unprivileged /proc) are taken as equal: the
 * model then errs towards a higher potential, never towards a pass. */
static bool same_partner(const struct bc_cap_port *a, const struct bc_cap_port *b)
{
	if (!a->partner_mac[0] || !b->partner_mac[0])
		return true;
	return !strcmp(a->partner_mac, b->partner_mac) &&
	       (a->partner_key < 0 || b->partner_key < 0 || a->partner_key == b->partner_key) &&
	       (a->partner_prio < 0 || b->partner_prio < 0 || a->partner_prio == b->partner_prio);
}

/* Ports @i and @j may share an aggregator (ad_port_selection_logic()). */
static bool can_join(const struct bc_cap_input *in, size_t i, size_t j)
{
	const struct bc_cap_port *a = &in->port[i], *b = &in->port[j];

	if (i == j)
		return true;
	if (individual(a) || individual(b) || !has_partner(a) || !has_partner(b))
		return false;
	return bc_cap_actor_key(a, in->ad_user_port_key) ==
		       bc_cap_actor_key(b, in->ad_user_port_key) &&
	       same_partner(a, b);
}

static double sum_of(const struct bc_cap_input *in, unsigned set, bool up_only)
{
	double s = 0;

	for (size_t i = 0; i < in->n; i++)
		if ((set >> i & 1u) && (!up_only || in->port[i].up))
			s += in->port[i].ceiling_bps;
	return s;
}

/* The best aggregator the ports could form: the group with the largest sum. */
static unsigned best_aggregator(const struct bc_cap_input *in)
{
	unsigned best = 0;
	double best_sum = -1;

	for (size_t i = 0; i < in->n; i++) {
		unsigned g = 0;
		double s;

		for (size_t j = 0; j < in->n; j++)
			if (can_join(in, i, j))
				g |= 1u << j;
		s = sum_of(in, g, false);
		if (s > best_sum) {
			best_sum = s;
			best = g;
		}
	}
	return best;
}

static void add_gap(struct bc_capacity *c, enum bc_cap_level from, enum bc_cap_mech m,
		    const char *where, double bps)
{
	struct bc_cap_gap *g;
	double top = c->level[from];

	if (c->n_gaps >= BC_CAP_MAX_GAPS || !(bps > 0.005 * top))
		return;
	g = &c->gap[c->n_gaps++];
	g->from = from;
	g->mech = m;
	snprintf(g->where, sizeof(g->where), "%s", where ? where : "");
	g->bps = bps;
	g->share = top > 0 ? bps / top : 0;
}

/* "eth0, eth2" of the ports in @set. */
static void names_of(const struct bc_cap_input *in, unsigned set, char *out, size_t len)
{
	size_t k = 0;

	out[0] = '\0';
	for (size_t i = 0; i < in->n && k < len; i++)
		if (set >> i & 1u) {
			int w = snprintf(out + k, len - k, "%s%s", k ? ", " : "", in->port[i].name);

			k += w > 0 ? (size_t)w : 0;
		}
}

/* installed -> potential for 802.3ad: the ports outside the best aggregator, by reason. */
static void lacp_potential_gaps(const struct bc_cap_input *in, struct bc_capacity *c)
{
	unsigned by[3] = {0, 0, 0}; /* key, partner, individual */
	size_t ref = 0;
	char w[96];

	while (ref < in->n && !(c->best_ports >> ref & 1u))
		ref++;
	for (size_t i = 0; i < in->n && ref < in->n; i++) {
		const struct bc_cap_port *p = &in->port[i], *r = &in->port[ref];

		if (c->best_ports >> i & 1u)
			continue;
		if (individual(p) || individual(r))
			by[2] |= 1u << i;
		else if (bc_cap_actor_key(p, in->ad_user_port_key) !=
			 bc_cap_actor_key(r, in->ad_user_port_key))
			by[0] |= 1u << i;
		else
			by[1] |= 1u << i;
	}
	names_of(in, by[0], w, sizeof(w));
	add_gap(c, BC_CAP_INSTALLED, BC_CAP_MECH_LACP_KEY, w, sum_of(in, by[0], false));
	names_of(in, by[1], w, sizeof(w));
	add_gap(c, BC_CAP_INSTALLED, BC_CAP_MECH_LACP_PARTNER, w, sum_of(in, by[1], false));
	names_of(in, by[2], w, sizeof(w));
	add_gap(c, BC_CAP_INSTALLED, BC_CAP_MECH_LACP_INDIVIDUAL, w, sum_of(in, by[2], false));
}

/* The @k ports of @set with the largest ceilings (all of @set when it has no more). */
static unsigned best_k(const struct bc_cap_input *in, unsigned set, unsigned k)
{
	unsigned pick = 0;

	for (unsigned n = 0; n < k; n++) {
		int b = -1;

		for (size_t i = 0; i < in->n; i++)
			if ((set & ~pick) >> i & 1u &&
			    (b < 0 || in->port[i].ceiling_bps > in->port[b].ceiling_bps))
				b = (int)i;
		if (b < 0)
			break;
		pick |= 1u << b;
	}
	return pick;
}

/* Index of the slave named @name, or -1. */
static int find(const struct bc_cap_input *in, const char *name)
{
	for (size_t i = 0; name && i < in->n; i++)
		if (!strcmp(in->port[i].name, name))
			return (int)i;
	return -1;
}

static void potential(const struct bc_cap_input *in, struct bc_capacity *c, unsigned all,
		      double min, double max)
{
	char w[96];

	switch (in->mode) {
	case BC_MODE_ROUNDROBIN:
		c->level[BC_CAP_POTENTIAL] = (double)in->n * min;
		names_of(in, all, w, sizeof(w));
		add_gap(c, BC_CAP_INSTALLED, BC_CAP_MECH_EQUAL_SHARES, w,
			c->level[BC_CAP_INSTALLED] - c->level[BC_CAP_POTENTIAL]);
		break;
	case BC_MODE_ACTIVEBACKUP:
		c->level[BC_CAP_POTENTIAL] = max;
		add_gap(c, BC_CAP_INSTALLED, BC_CAP_MECH_ONE_SLAVE, "",
			c->level[BC_CAP_INSTALLED] - max);
		break;
	case BC_MODE_BROADCAST:
		c->level[BC_CAP_POTENTIAL] = min;
		add_gap(c, BC_CAP_INSTALLED, BC_CAP_MECH_SLOWEST_COPY, "",
			c->level[BC_CAP_INSTALLED] - min);
		break;
	case BC_MODE_8023AD:
		c->best_ports = best_aggregator(in);
		for (size_t i = 0; i < in->n; i++)
			if (c->best_ports >> i & 1u) {
				c->best_key = bc_cap_actor_key(&in->port[i], in->ad_user_port_key);
				break;
			}
		c->level[BC_CAP_POTENTIAL] = sum_of(in, c->best_ports, false);
		lacp_potential_gaps(in, c);
		break;
	case BC_MODE_TLB:
	case BC_MODE_ALB:
		if (in->dir != BC_CAP_DIR_RX) {
			c->level[BC_CAP_POTENTIAL] = c->level[BC_CAP_INSTALLED];
			break;
		}
		if (in->mode == BC_MODE_TLB) { /* the active slave alone receives */
			c->level[BC_CAP_POTENTIAL] = max;
			add_gap(c, BC_CAP_INSTALLED, BC_CAP_MECH_ONE_SLAVE, "",
				c->level[BC_CAP_INSTALLED] - max);
			break;
		}
		if (!in->rx_peers) /* rlb: one slave per peer, and the peers are unknown */
			break;
		c->best_ports = best_k(in, all, in->rx_peers);
		c->level[BC_CAP_POTENTIAL] = sum_of(in, c->best_ports, false);
		names_of(in, all & ~c->best_ports, w, sizeof(w));
		add_gap(c, BC_CAP_INSTALLED, BC_CAP_MECH_ALB_RX_PEERS, w,
			c->level[BC_CAP_INSTALLED] - c->level[BC_CAP_POTENTIAL]);
		break;
	default: /* balance-xor, balance-tlb, balance-alb (TX), one interface */
		c->level[BC_CAP_POTENTIAL] = c->level[BC_CAP_INSTALLED];
		break;
	}
}

/* balance-tlb/alb receiving the test (bondcheck/capacity.h); false: not that case. */
static bool rx_selected(const struct bc_cap_input *in, struct bc_capacity *c, unsigned up)
{
	char w[96];
	int a;

	if ((in->mode != BC_MODE_TLB && in->mode != BC_MODE_ALB) || in->dir != BC_CAP_DIR_RX)
		return false;
	if (c->level[BC_CAP_POTENTIAL] < 0)
		return true; /* alb with unknown peers: nothing to select from */
	if (in->mode == BC_MODE_ALB) {
		unsigned sel = best_k(in, up, in->rx_peers), down = c->best_ports & ~up;

		c->selected_ports = sel;
		c->level[BC_CAP_SELECTED] = sum_of(in, sel, true);
		names_of(in, down, w, sizeof(w));
		add_gap(c, BC_CAP_POTENTIAL, BC_CAP_MECH_SLAVE_DOWN, w,
			c->level[BC_CAP_POTENTIAL] - c->level[BC_CAP_SELECTED]);
		return true;
	}
	a = find(in, in->active_slave);
	if (a < 0) /* no active slave known: the kernel's choice is unknown */
		return true;
	c->selected_ports = in->port[a].up ? 1u << a : 0;
	c->level[BC_CAP_SELECTED] = in->port[a].up ? in->port[a].ceiling_bps : 0;
	add_gap(c, BC_CAP_POTENTIAL,
		in->port[a].up ? BC_CAP_MECH_ACTIVE_SLAVE : BC_CAP_MECH_SLAVE_DOWN,
		in->port[a].name, c->level[BC_CAP_POTENTIAL] - c->level[BC_CAP_SELECTED]);
	return true;
}

/* potential -> selected: the kernel's current choice. */
static void selected(const struct bc_cap_input *in, struct bc_capacity *c, unsigned all)
{
	unsigned up = 0, down;
	double min_up = 0, max_up = 0, sel = -1;
	size_t n_up = 0;
	char w[96];

	for (size_t i = 0; i < in->n; i++) {
		const struct bc_cap_port *p = &in->port[i];

		if (!p->up)
			continue;
		up |= 1u << i;
		if (!n_up || p->ceiling_bps < min_up)
			min_up = p->ceiling_bps;
		if (p->ceiling_bps > max_up)
			max_up = p->ceiling_bps;
		n_up++;
	}
	down = all & ~up;
	if (rx_selected(in, c, up))
		return;
	switch (in->mode) {
	case BC_MODE_ROUNDROBIN:
		sel = (double)n_up * min_up;
		break;
	case BC_MODE_BROADCAST:
		sel = min_up;
		break;
	case BC_MODE_ACTIVEBACKUP: {
		int a = find(in, in->active_slave);

		if (a < 0) /* no active slave known: the kernel's choice is unknown */
			break;
		sel = in->port[a].up ? in->port[a].ceiling_bps : 0;
		c->selected_ports = in->port[a].up ? 1u << a : 0;
		c->level[BC_CAP_SELECTED] = sel;
		add_gap(c, BC_CAP_POTENTIAL,
			in->port[a].up ? BC_CAP_MECH_ACTIVE_SLAVE : BC_CAP_MECH_SLAVE_DOWN,
			in->port[a].name, c->level[BC_CAP_POTENTIAL] - sel);
		return;
	}
	case BC_MODE_8023AD: {
		unsigned agg = 0;

		if (in->active_aggregator_id < 0)
			break;
		for (size_t i = 0; i < in->n; i++)
			if (in->port[i].aggregator_id == in->active_aggregator_id)
				agg |= 1u << i;
		if (!agg) /* the ports' aggregator ids are not known: nor is the choice */
			break;
		c->selected_ports = agg & up;
		sel = sum_of(in, agg, true);
		for (size_t i = 0; i < in->n; i++)
			if (agg >> i & 1u) {
				c->selected_key =
					bc_cap_actor_key(&in->port[i], in->ad_user_port_key);
				break;
			}
		/* what the active aggregator could carry with every port up falls
		 * short of the best one: selection, naming the best one's idle ports */
		names_of(in, c->best_ports & ~agg, w, sizeof(w));
		add_gap(c, BC_CAP_POTENTIAL, BC_CAP_MECH_AGG_SELECTION, w,
			c->level[BC_CAP_POTENTIAL] - sum_of(in, agg, false));
		names_of(in, agg & down, w, sizeof(w));
		add_gap(c, BC_CAP_POTENTIAL, BC_CAP_MECH_SLAVE_DOWN, w,
			sum_of(in, agg & down, false));
		c->level[BC_CAP_SELECTED] = sel;
		return;
	}
	default:
		sel = sum_of(in, up, true);
		break;
	}
	if (in->mode != BC_MODE_8023AD)
		c->selected_ports = up;
	c->level[BC_CAP_SELECTED] = sel;
	if (sel >= 0 && down) {
		names_of(in, down, w, sizeof(w));
		add_gap(c, BC_CAP_POTENTIAL, BC_CAP_MECH_SLAVE_DOWN, w,
			c->level[BC_CAP_POTENTIAL] - sel);
	}
}

/* The receiving bond's receive side caps potential (bondcheck/capacity.h). */
static void rx_end_potential(const struct bc_cap_input *in, struct bc_capacity *c)
{
	double p = in->rx_end.potential_bps;

	if (!(p > 0) || !(c->level[BC_CAP_POTENTIAL] > p))
		return;
	add_gap(c, BC_CAP_INSTALLED, in->rx_end.mech, in->rx_end.where,
		c->level[BC_CAP_POTENTIAL] - p);
	c->level[BC_CAP_POTENTIAL] = p;
}

/* ... and selected: at most potential, and at most the receiving bond's selected. */
static void rx_end_selected(const struct bc_cap_input *in, struct bc_capacity *c)
{
	double pot = c->level[BC_CAP_POTENTIAL], sel = c->level[BC_CAP_SELECTED];
	double r = in->rx_end.selected_bps;

	if (!(in->rx_end.potential_bps > 0) || sel < 0)
		return;
	if (sel > pot)
		sel = pot;
	if (r < 0) /* the receiving bond's choice is unknown: so is what both allow */
		sel = -1;
	else if (r < sel) {
		add_gap(c, BC_CAP_POTENTIAL, in->rx_end.sel_mech, in->rx_end.sel_where, sel - r);
		sel = r;
	}
	c->level[BC_CAP_SELECTED] = sel;
}

bool bc_cap_hash_mode(int mode)
{
	return mode == BC_MODE_XOR || mode == BC_MODE_8023AD || mode == BC_MODE_TLB ||
	       mode == BC_MODE_ALB;
}

/* selected -> carried: idle selected ports (hash modes), a CPU bound, the rest. */
static void carried(const struct bc_cap_input *in, struct bc_capacity *c)
{
	double gap = c->level[BC_CAP_SELECTED] - c->level[BC_CAP_CARRIED];
	unsigned idle = 0;
	char w[96];

	if (!(gap > 0))
		return;
	if (bc_cap_hash_mode(in->mode)) {
		for (size_t i = 0; i < in->n; i++)
			if ((c->selected_ports >> i & 1u) && in->port[i].share >= 0 &&
			    in->port[i].share < BC_CAP_IDLE_SHARE)
				idle |= 1u << i;
		if (idle) {
			double b = sum_of(in, idle, false);

			b = b < gap ? b : gap;
			names_of(in, idle, w, sizeof(w));
			add_gap(c, BC_CAP_SELECTED, BC_CAP_MECH_HASH_PLACEMENT, w, b);
			gap -= b;
		}
	}
	/* the ledger's losses, in the datagram's path order */
	for (int m = BC_CAP_MECH_TX_LOSS; m <= BC_CAP_MECH_RX_LOSS_SOCKET && gap > 0; m++)
		for (size_t i = 0; i < in->n_losses && i < BC_CAP_MAX_LOSSES && gap > 0; i++) {
			const struct bc_cap_loss *l = &in->loss[i];
			double b;

			if ((int)l->mech != m || !(l->messages > 0) || !(in->msg_bits > 0) ||
			    !(in->duration_s > 0))
				continue;
			b = l->messages * in->msg_bits / in->duration_s;
			b = b < gap ? b : gap;
			if (l->reason[0])
				snprintf(w, sizeof(w), "%s (%s)", l->where, l->reason);
			else
				snprintf(w, sizeof(w), "%s", l->where);
			add_gap(c, BC_CAP_SELECTED, (enum bc_cap_mech)m, w, b);
			gap -= b;
		}
	if (!(gap > 0))
		return;
	add_gap(c, BC_CAP_SELECTED,
		in->cpu_bound	 ? BC_CAP_MECH_CPU_BOUND
		: in->reordering ? BC_CAP_MECH_REORDERING
				 : BC_CAP_MECH_UNATTRIBUTED,
		"", gap);
}

int bc_capacity_model(const struct bc_cap_input *in, struct bc_capacity *c)
{
	double min = 0, max = 0, sum = 0;
	bool known = true;
	unsigned all = 0;

	memset(c, 0, sizeof(*c));
	for (int l = 0; l < BC_CAP_N_LEVELS; l++)
		c->level[l] = -1;
	c->best_key = c->selected_key = -1;
	if (!in->n || in->n > BC_CAP_MAX_PORTS)
		return -EINVAL;
	for (size_t i = 0; i < in->n; i++) {
		double v = in->port[i].ceiling_bps;

		known = known && v > 0;
		sum += v;
		min = !i || v < min ? v : min;
		max = v > max ? v : max;
		all |= 1u << i;
	}
	c->level[BC_CAP_CARRIED] = in->carried_bps >= 0 ? in->carried_bps : -1;
	if (!known)
		return 0;
	c->level[BC_CAP_INSTALLED] = sum;
	potential(in, c, all, min, max);
	rx_end_potential(in, c);
	selected(in, c, all);
	rx_end_selected(in, c);
	if (c->level[BC_CAP_SELECTED] >= 0 && c->level[BC_CAP_CARRIED] >= 0)
		carried(in, c);
	return 0;
}

double bc_cap_gap_sum(const struct bc_capacity *c, enum bc_cap_level from, enum bc_cap_mech m)
{
	double s = 0;

	for (size_t i = 0; i < c->n_gaps; i++)
		if (c->gap[i].from == from && c->gap[i].mech == m)
			s += c->gap[i].bps;
	return s;
}
