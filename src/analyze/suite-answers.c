// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The suite's three verdicts as data (bondcheck/verdict.h), read from the
 * capacity model of the aggregate test (bondcheck/capacity.h):
 *
 *   Aggregation compares carried with potential.  It fails when the
 *   kernel's choice (selected) is more than 20 % below potential, whatever
 *   the flows; passes only when carried >= BC_VERDICT_CARRIED_PASS x
 *   potential; a hash mode tested with fewer than two flows is
 *   inconclusive (one flow takes one slave); otherwise it fails on the
 *   largest gap below potential.
 *   Drivers reports what a mismatch between the slaves costs: installed -
 *   potential that the mismatch causes (balance-rr's slowest slave, 802.3ad
 *   ports kept out of the best aggregator by their keys) plus the selection
 *   loss it caused (802.3ad: the active aggregator has another key than the
 *   best one); it fails when that is > 20 % of installed.  A slowest slave
 *   whose ceiling is a qdisc's rate is a shaper's doing, named as such.
 *   Otherwise the measured per-link judgement (suite-drivers.c) stands.
 *   UDP gap compares the no-drop rate (carried) with potential, fails on
 *   the selection as Aggregation does, else passes at >=
 *   BC_VERDICT_CARRIED_PASS; without a model it compares with the UDP
 *   ceiling.  Its cause is where the over-rate probe lost datagrams: the
 *   ledger's loss finding (tx-loss ... rx-loss-socket), refused sends, a
 *   stage on no single link, or only the rate search.
 *
 * No sentences here: src/report/verdict-text.c renders them.
 */
#include <stdio.h>
#include <string.h>

#include "analyze/suite-int.h"
#include "bondcheck/model.h"
#include "bondcheck/units.h"

/* A gap larger than this share of the level above fails the verdict. */
#define GAP_FAIL (1 - BC_VERDICT_CARRIED_PASS)

static const char *rate(double bps, char *buf)
{
	return bc_format_rate(bps, buf, 32);
}

static void levels(struct bc_verdict *v, const struct bc_capacity *c, enum bc_cap_level lhs,
		   enum bc_cap_level rhs)
{
	v->has_levels = true;
	v->lhs = lhs;
	v->rhs = rhs;
	v->lhs_bps = c->level[lhs];
	v->rhs_bps = c->level[rhs];
	v->headline = v->lhs_bps >= 0 && v->rhs_bps > 0 ? v->lhs_bps / v->rhs_bps : -1;
}

/* The largest gap from level @from (NULL none). */
static const struct bc_cap_gap *largest(const struct bc_capacity *c, enum bc_cap_level from)
{
	const struct bc_cap_gap *g = NULL;

	for (size_t i = 0; i < c->n_gaps; i++)
		if (c->gap[i].from == from && (!g || c->gap[i].bps > g->bps))
			g = &c->gap[i];
	return g;
}

/* "eth0" of the ports in @set. */
static void names(const struct bc_suite_model *m, unsigned set, char *out, size_t len)
{
	size_t k = 0;

	out[0] = '\0';
	for (size_t i = 0; i < m->in.n && k < len; i++)
		if (set >> i & 1u) {
			int w = snprintf(out + k, len - k, "%s%s", k ? ", " : "",
					 m->in.port[i].name);

			k += w > 0 ? (size_t)w : 0;
		}
}

static int first_port(const struct bc_suite_model *m, unsigned set)
{
	for (size_t i = 0; i < m->in.n; i++)
		if (set >> i & 1u)
			return (int)i;
	return -1;
}

/*
 * Inconclusive when the document lacks an input of the model that the
 * verdict reads (@which, BC_SUITE_NEED_*; @idx its list in m->missing): a
 * member that a saved document predates is never a default to pass on.
 * Returns true when it decided.
 */
static bool missing_inputs(const struct bc_suite_model *m, unsigned which, int idx,
			   struct bc_verdict *v)
{
	if (!(m->missing_for & which))
		return false;
	v->status = BC_VERDICT_INCONCLUSIVE;
	v->basis = "capacity model";
	snprintf(v->mechanism, sizeof(v->mechanism), "missing-input");
	v->where[0] = '\0';
	v->n_evidence = 0;
	bc_verdict_add(v, "missing", "%s", m->missing[idx]);
	snprintf(v->next_step, sizeof(v->next_step),
		 "run the suite again with this version, which records them");
	return true;
}

/* The cause and next step of gap @g (the mechanisms below potential). */
static void cause_of(const struct bc_suite_model *m, const struct bc_cap_gap *g,
		     struct bc_verdict *v)
{
	const struct bc_capacity *c = &m->c;
	char r[32];

	snprintf(v->mechanism, sizeof(v->mechanism), "%s", bc_cap_mech_name(g->mech));
	snprintf(v->where, sizeof(v->where), "%s", g->where);
	/* the receiving agent's bond (suite-capacity.c): its slaves, not the client's */
	if (!strncmp(g->where, "agent: ", 7)) {
		snprintf(v->next_step, sizeof(v->next_step),
			 g->mech == BC_CAP_MECH_SLAVE_DOWN
				 ? "bring the agent's slave up (`ip link show` on the agent)"
			 : g->mech == BC_CAP_MECH_ACTIVE_SLAVE
				 ? "make the agent's best slave its active one (`ip link set BOND "
				   "type bond active_slave DEV` on the agent)"
				 : "");
		return;
	}
	switch (g->mech) {
	case BC_CAP_MECH_AGG_SELECTION: {
		int a = first_port(m, c->selected_ports), b = first_port(m, c->best_ports);
		char ports[96];

		names(m, c->selected_ports, ports, sizeof(ports));
		bc_verdict_add(v, "active_aggregator", "%d", m->in.active_aggregator_id);
		bc_verdict_add(v, "active_ports", "%s", ports[0] ? ports : "no port up");
		bc_verdict_add(v, "active_key", "%d", c->selected_key);
		bc_verdict_add(v, "best_aggregator", "%d",
			       b >= 0 ? m->in.port[b].aggregator_id : -1);
		bc_verdict_add(v, "best_key", "%d", c->best_key);
		bc_verdict_add(v, "ad_select", "%s", m->in.ad_select ? m->in.ad_select : "unknown");
		bc_verdict_add(v, "idle_bps", "%s", rate(g->bps, r));
		(void)a;
		snprintf(v->next_step, sizeof(v->next_step),
			 "set ad_select bandwidth on %s (with the bond down: `ip link set %s down; "
			 "ip link set %s type bond ad_select bandwidth`), which selects the faster "
			 "aggregator, or use slaves of one speed; ports of different speeds never "
			 "aggregate",
			 m->bond, m->bond, m->bond);
		break;
	}
	case BC_CAP_MECH_ACTIVE_SLAVE: {
		int b = -1;

		for (size_t i = 0; i < m->in.n; i++)
			if (b < 0 || m->in.port[i].ceiling_bps > m->in.port[b].ceiling_bps)
				b = (int)i;
		bc_verdict_add(v, "best_slave", "%s", b >= 0 ? m->in.port[b].name : "?");
		bc_verdict_add(v, "primary", "%s", m->in.primary ? m->in.primary : "none");
		bc_verdict_add(v, "primary_reselect", "%s",
			       m->in.primary_reselect ? m->in.primary_reselect : "unknown");
		snprintf(v->next_step, sizeof(v->next_step),
			 "make %s the primary (`ip link set %s type bond primary %s`) with "
			 "primary_reselect better",
			 b >= 0 ? m->in.port[b].name : "the best slave", m->bond,
			 b >= 0 ? m->in.port[b].name : "DEV");
		break;
	}
	case BC_CAP_MECH_SLAVE_DOWN:
		snprintf(v->next_step, sizeof(v->next_step),
			 "bring %s up (cable, `ip link show %s`, the switch port)", g->where,
			 g->where);
		break;
	case BC_CAP_MECH_HASH_PLACEMENT:
		bc_verdict_add(v, "flows", "%u", m->in.flows);
		snprintf(v->next_step, sizeof(v->next_step),
			 "run more flows (`--parallel`), or a xmit_hash_policy that reads the "
			 "ports (layer3+4)");
		break;
	case BC_CAP_MECH_CPU_BOUND:
		snprintf(v->next_step, sizeof(v->next_step), "rerun with idle hosts");
		break;
	case BC_CAP_MECH_REORDERING:
		bc_verdict_add(v, "reord_seen", "%lld", m->reord_seen);
		bc_verdict_add(v, "dsack_dups", "%lld", m->dsack_dups);
		snprintf(v->next_step, sizeof(v->next_step),
			 m->in.mode == BC_MODE_ROUNDROBIN
				 ? "balance-rr spreads each flow over every slave: for TCP use a "
				   "hash mode with several flows, or raise net.ipv4.tcp_reordering"
				 : "find the link that reorders (the per-link table, netem, "
				   "packets_per_slave)");
		break;
	default:
		break;
	}
}

void bc_suite_answer_aggregation(const struct bc_suite_facts *f, const struct bc_suite_model *m,
				 struct bc_verdict *v)
{
	const struct bc_capacity *c = &m->c;
	const struct bc_cap_gap *g;
	double pot, sel;
	unsigned best_n = 0;
	char r[32];

	bc_verdict_init(v, "aggregation");
	if (missing_inputs(m, BC_SUITE_NEED_AGG, 0, v) || !m->ok)
		return;
	v->basis = "capacity model";
	levels(v, c, BC_CAP_CARRIED, BC_CAP_POTENTIAL);
	pot = c->level[BC_CAP_POTENTIAL];
	sel = c->level[BC_CAP_SELECTED];
	bc_verdict_add(v, "flows", "%u%s", f->flows, f->placed ? " placed" : "");
	if (f->base_bps > 0)
		bc_verdict_add(v, "single_flow", "%s", rate(f->base_bps, r));
	if (pot <= 0)
		return; /* a ceiling is unknown: nothing to judge against */
	for (size_t i = 0; i < m->in.n; i++)
		best_n += m->in.mode == BC_MODE_8023AD ? (c->best_ports >> i & 1u) : 1u;
	/* the kernel's choice alone loses more than the pass margin */
	if (sel >= 0 && pot - sel > GAP_FAIL * pot && (g = largest(c, BC_CAP_POTENTIAL))) {
		v->status = BC_VERDICT_FAIL;
		levels(v, c, c->level[BC_CAP_CARRIED] >= 0 ? BC_CAP_CARRIED : BC_CAP_SELECTED,
		       BC_CAP_POTENTIAL);
		cause_of(m, g, v);
		return;
	}
	if (v->headline < 0)
		return; /* not measured */
	if (v->headline >= BC_VERDICT_CARRIED_PASS) {
		v->status = BC_VERDICT_PASS;
		return;
	}
	if (bc_cap_hash_mode(m->in.mode) && f->flows < 2 && best_n > 1) {
		snprintf(v->mechanism, sizeof(v->mechanism), "single-flow");
		snprintf(v->next_step, sizeof(v->next_step),
			 "run the suite with as many flows as "
			 "slaves");
		return;
	}
	g = largest(c, BC_CAP_POTENTIAL);
	if (!g || (largest(c, BC_CAP_SELECTED) && largest(c, BC_CAP_SELECTED)->bps > g->bps))
		g = largest(c, BC_CAP_SELECTED);
	v->status = BC_VERDICT_FAIL;
	if (g)
		cause_of(m, g, v);
	if (f->agg_cpu_bound) {
		v->status = BC_VERDICT_INCONCLUSIVE;
		snprintf(v->mechanism, sizeof(v->mechanism), "cpu-bound");
		v->where[0] = '\0';
		snprintf(v->next_step, sizeof(v->next_step), "rerun with idle hosts");
	}
}

/* The slowest port (lowest ceiling), or -1. */
static int slowest(const struct bc_suite_model *m)
{
	int s = -1;

	for (size_t i = 0; i < m->in.n; i++)
		if (s < 0 || m->in.port[i].ceiling_bps < m->in.port[s].ceiling_bps)
			s = (int)i;
	return s;
}

static bool qdisc_source(const char *src)
{
	return !strcmp(src, "tbf") || !strcmp(src, "htb");
}

/* 802.3ad: "eth0=7 (100 Mb/s), eth1=9 (1000 Mb/s)" */
static void keys_text(const struct bc_suite_model *m, char *out, size_t len)
{
	size_t k = 0;

	out[0] = '\0';
	for (size_t i = 0; i < m->in.n && k < len; i++) {
		const struct bc_cap_port *p = &m->in.port[i];
		int w = snprintf(out + k, len - k, "%s%s=%d (%lld Mb/s)", k ? ", " : "", p->name,
				 bc_cap_actor_key(p, m->in.ad_user_port_key), p->speed_mbps);

		k += w > 0 ? (size_t)w : 0;
	}
}

/* The measured per-link judgement of suite-drivers.c as a cause (@j NULL: none). */
static void drivers_from_legacy(const struct bc_suite_facts *f, const struct bc_suite_judgement *j,
				struct bc_verdict *v)
{
	const struct bc_suite_link *cl = j ? j->cause_link : NULL;
	const char *st = j && j->status ? j->status : "";
	char list[96] = "";
	size_t k = 0;

	v->status = !strcmp(st, "pass")	  ? BC_VERDICT_PASS
		    : !strcmp(st, "fail") ? BC_VERDICT_FAIL
					  : BC_VERDICT_INCONCLUSIVE;
	v->n_evidence = 0;
	if (cl && j->cause) {
		snprintf(v->mechanism, sizeof(v->mechanism), "%s", j->cause);
		snprintf(v->where, sizeof(v->where), "%s", cl->name);
	} else {
		v->where[0] = '\0';
		snprintf(v->mechanism, sizeof(v->mechanism), "%s",
			 j && j->judgement ? j->judgement : "");
	}
	for (size_t i = 0; i < f->n_mismatch && k < sizeof(list); i++) {
		int w = snprintf(list + k, sizeof(list) - k, "%s%s", i ? "; " : "", f->mismatch[i]);

		k += w > 0 ? (size_t)w : 0;
	}
	if (f->n_mismatch)
		bc_verdict_add(v, "mismatch", "%s", list);
	/* holds-back and falls-short come with their link (bc_suite_drivers_judge) */
	if (j && cl &&
	    (!strcmp(v->mechanism, "holds-back") || !strcmp(v->mechanism, "falls-short"))) {
		const char *end = j->agent ? "agent" : "client";
		double u = bc_suite_link_util(cl);

		bc_verdict_add(v, "end", "%s", end);
		bc_verdict_add(v, "test", "%s", j->test ? j->test : "");
		bc_verdict_add(v, "driver", "%s", cl->driver);
		/* an agent's slave below saturation is named for its NIC drops alone */
		if (u >= 0 && (strcmp(end, "agent") || u >= BC_VERDICT_LINK_NEAR))
			bc_verdict_add(v, "utilization", "%.0f %%", 100 * u);
		bc_verdict_add(v, "drops", "%lld", cl->drops);
		bc_verdict_add(v, "frames", "%lld", cl->frames);
	} else if (j && j->active_link && bc_suite_link_util(j->active_link) >= 0) {
		bc_verdict_add(v, "active_slave", "%s", f->active_slave ? f->active_slave : "?");
		bc_verdict_add(v, "utilization", "%.0f %%",
			       100 * bc_suite_link_util(j->active_link));
	}
	if (j && j->cpu_bound && v->status == BC_VERDICT_INCONCLUSIVE)
		bc_verdict_add(v, "cpu_bound", "yes");
}

void bc_suite_answer_drivers(const struct bc_suite_facts *f, const struct bc_suite_model *m,
			     const struct bc_suite_judgement *j, struct bc_verdict *v)
{
	const struct bc_capacity *c = &m->c;
	double inst = m->ok ? c->level[BC_CAP_INSTALLED] : -1, cost = 0, sel_cost = 0;
	enum bc_cap_level lhs = BC_CAP_POTENTIAL;
	char r[2][32];
	int s;

	bc_verdict_init(v, "drivers");
	if (f->mode < 0) {
		v->status = BC_VERDICT_NOT_APPLICABLE;
		snprintf(v->mechanism, sizeof(v->mechanism), "not-a-bond");
		return;
	}
	if (missing_inputs(m, BC_SUITE_NEED_DRV, 1, v))
		return;
	if (!f->n_mismatch) {
		v->status = BC_VERDICT_PASS;
		v->basis = "per-link evidence";
		snprintf(v->mechanism, sizeof(v->mechanism), "no-mismatch");
		return;
	}
	if (inst > 0) {
		cost = bc_cap_gap_sum(c, BC_CAP_INSTALLED, BC_CAP_MECH_LACP_KEY);
		if (m->in.mode == BC_MODE_ROUNDROBIN)
			cost = bc_cap_gap_sum(c, BC_CAP_INSTALLED, BC_CAP_MECH_EQUAL_SHARES);
		/* the active aggregator has another key: the mismatch made it */
		if (m->in.mode == BC_MODE_8023AD && c->selected_key >= 0 &&
		    c->selected_key != c->best_key) {
			sel_cost = bc_cap_gap_sum(c, BC_CAP_POTENTIAL, BC_CAP_MECH_AGG_SELECTION);
			lhs = BC_CAP_SELECTED;
		}
		if (m->in.mode == BC_MODE_ACTIVEBACKUP) {
			sel_cost = bc_cap_gap_sum(c, BC_CAP_POTENTIAL, BC_CAP_MECH_ACTIVE_SLAVE);
			lhs = BC_CAP_SELECTED;
		}
	}
	if (inst > 0 && cost + sel_cost > GAP_FAIL * inst) {
		levels(v, c, lhs, BC_CAP_INSTALLED);
		v->status = BC_VERDICT_FAIL;
		v->basis = "capacity model";
		s = slowest(m);
		if (m->in.mode == BC_MODE_8023AD) {
			char k[160];

			names(m, c->best_ports ^ ((1u << m->in.n) - 1), v->where, sizeof(v->where));
			snprintf(v->mechanism, sizeof(v->mechanism), "lacp-key");
			keys_text(m, k, sizeof(k));
			bc_verdict_add(v, "keys", "%s", k);
			bc_verdict_add(v, "cost", "%s", rate(cost, r[0]));
			if (sel_cost > 0)
				bc_verdict_add(v, "selection_cost", "%s", rate(sel_cost, r[1]));
			snprintf(v->next_step, sizeof(v->next_step),
				 "use slaves of one speed; ports of different speeds never share "
				 "an aggregator");
		} else if (m->in.mode == BC_MODE_ROUNDROBIN && s >= 0 &&
			   qdisc_source(m->x[s].rate_source)) {
			snprintf(v->mechanism, sizeof(v->mechanism), "shaper");
			snprintf(v->where, sizeof(v->where), "%s", m->in.port[s].name);
			bc_verdict_add(v, "qdisc", "%s", m->x[s].rate_source);
			bc_verdict_add(v, "rate", "%s", rate(m->x[s].rate_bps, r[0]));
			bc_verdict_add(v, "cap", "%s", rate(c->level[BC_CAP_POTENTIAL], r[1]));
			bc_verdict_add(v, "cost", "%s", rate(cost, r[1]));
			bc_verdict_add(v, "driver", "%s",
				       m->x[s].driver[0] ? m->x[s].driver : "unknown");
			snprintf(v->next_step, sizeof(v->next_step),
				 "raise or remove the %s on %s (`tc qdisc show dev %s`) if it is "
				 "not "
				 "meant to be there",
				 m->x[s].rate_source, m->in.port[s].name, m->in.port[s].name);
		} else if (m->in.mode == BC_MODE_ROUNDROBIN && s >= 0) {
			snprintf(v->mechanism, sizeof(v->mechanism), "equal-shares");
			snprintf(v->where, sizeof(v->where), "%s", m->in.port[s].name);
			bc_verdict_add(v, "ceiling", "%s", rate(m->in.port[s].ceiling_bps, r[0]));
			bc_verdict_add(v, "cap", "%s", rate(c->level[BC_CAP_POTENTIAL], r[1]));
			bc_verdict_add(v, "cost", "%s", rate(cost, r[1]));
			snprintf(v->next_step, sizeof(v->next_step),
				 "use slaves of one ceiling, or take %s out of the bond",
				 m->in.port[s].name);
		} else if (sel_cost > 0) {
			const struct bc_cap_gap *g = largest(c, BC_CAP_POTENTIAL);

			if (g)
				cause_of(m, g, v);
		}
		if (f->agg_cpu_bound && f->udp_cpu_bound)
			v->status = BC_VERDICT_INCONCLUSIVE;
		return;
	}
	if (inst > 0)
		levels(v, c, lhs, BC_CAP_INSTALLED);
	drivers_from_legacy(f, j, v);
	v->basis = "per-link evidence";
}

/* The over-rate probe's figures: offered, sent, received, refused sends. */
static void probe(const struct bc_suite_facts *f, struct bc_verdict *v)
{
	char r[32];

	bc_verdict_add(v, "offered", "%s", rate(f->udp_offered_bps, r));
	bc_verdict_add(v, "sent", "%llu", (unsigned long long)f->udp_sent);
	bc_verdict_add(v, "received", "%llu", (unsigned long long)f->udp_received);
	if (f->udp_send_errors > 0) {
		bc_verdict_add(v, "send_refused", "%llu", (unsigned long long)f->udp_send_errors);
		if (f->refused_counter && f->refused_counter[0])
			bc_verdict_add(v, "refused_counter", "%s", f->refused_counter);
	}
}

/* The next step for a loss at a ledger stage (finding id @id). */
static const char *loss_step(const char *id)
{
	if (!strcmp(id, "tx-loss"))
		return "find the sender's full queue (`tc -s qdisc show`, `ethtool -S` on the "
		       "slave)";
	if (!strcmp(id, "wire-loss"))
		return "check the link between the slaves (cable, switch port counters, `ethtool "
		       "-S` on both ends)";
	if (!strcmp(id, "rx-loss-nic"))
		return "check the receiving NIC's drops and rings (`ethtool -S`, `ethtool -g`)";
	if (!strcmp(id, "rx-loss-reassembly"))
		return "raise the receiver's net.ipv4.ipfrag_high_thresh (or ipfrag_time), or send "
		       "datagrams under the MTU";
	if (!strcmp(id, "rx-loss-socket"))
		return "raise the receiver's socket buffer (net.core.rmem_max, SO_RCVBUF) or read "
		       "faster";
	return "";
}

/*
 * Where the probe's datagrams were lost, from the ledger: the loss finding
 * at the stage that lost most (tx-loss, wire-loss, rx-loss-nic,
 * rx-loss-reassembly, rx-loss-socket) on its link; sends the sender's
 * kernel refused (send-refused); a stage that lost on no single link
 * (ledger-stage); or nothing located, so only the rate search speaks
 * (rate-search).
 */
static void udp_cause(const struct bc_suite_facts *f, struct bc_verdict *v)
{
	char r[2][32];

	v->where[0] = '\0';
	if (f->gap_finding) {
		snprintf(v->mechanism, sizeof(v->mechanism), "%s", f->gap_finding);
		snprintf(v->where, sizeof(v->where), "%s", f->gap_link ? f->gap_link : "");
		bc_verdict_add(v, "stage", "%s", f->gap_stage ? f->gap_stage : "?");
		bc_verdict_add(v, "count", "%lld", f->gap_count);
		if (f->gap_counter && f->gap_counter[0])
			bc_verdict_add(v, "counter", "%s", f->gap_counter);
		if (f->gap_host && f->gap_host[0])
			bc_verdict_add(v, "host", "%s", f->gap_host);
		snprintf(v->next_step, sizeof(v->next_step), "%s", loss_step(f->gap_finding));
	} else if (f->gap_stage && !strcmp(f->gap_stage, "refused_at_send")) {
		snprintf(v->mechanism, sizeof(v->mechanism), "send-refused");
		snprintf(v->where, sizeof(v->where), "%s", f->gap_link ? f->gap_link : "");
		snprintf(v->next_step, sizeof(v->next_step),
			 "find the full qdisc or socket buffer on the sender (`tc -s qdisc show`, "
			 "net.core.wmem_default)");
	} else if (f->gap_stage) {
		snprintf(v->mechanism, sizeof(v->mechanism), "ledger-stage");
		snprintf(v->where, sizeof(v->where), "%s", f->gap_stage);
		bc_verdict_add(v, "count", "%lld", f->gap_stage_drop);
	} else {
		snprintf(v->mechanism, sizeof(v->mechanism), "rate-search");
		if (f->no_drop_bps < 0)
			bc_verdict_add(v, "no_drop", "not searched");
		else if (f->no_drop_bps == 0)
			bc_verdict_add(v, "no_drop", "none: every trial lost datagrams");
		else
			bc_verdict_add(v, "no_drop", "%s", rate(f->no_drop_bps, r[0]));
		if (f->no_drop_resolution_bps > 0)
			bc_verdict_add(v, "resolution", "%s",
				       rate(f->no_drop_resolution_bps, r[1]));
	}
}

static bool loss_gap(enum bc_cap_mech m)
{
	return m >= BC_CAP_MECH_TX_LOSS && m <= BC_CAP_MECH_RX_LOSS_SOCKET;
}

/*
 * The model's leading named cause below selected (unattributed left out),
 * when it is a ledger stage's loss (capacity.h: lost messages x message
 * bits / duration, at most the gap): that stage on that link, with its
 * bits/s and share, and the finding's count and counter.  Returns false
 * when the leading named gap is another mechanism or there is none (then
 * the ledger's largest finding speaks, udp_cause()).
 */
static bool loss_cause(const struct bc_suite_facts *f, const struct bc_suite_model *mu,
		       struct bc_verdict *v)
{
	const struct bc_suite_doc_finding *fd = NULL;
	const struct bc_cap_gap *g = NULL;
	const char *id;
	char r[32];

	for (size_t i = 0; i < mu->c.n_gaps; i++) {
		const struct bc_cap_gap *x = &mu->c.gap[i];

		if (x->from == BC_CAP_SELECTED && x->mech != BC_CAP_MECH_UNATTRIBUTED &&
		    (!g || x->bps > g->bps))
			g = x;
	}
	if (!g || !loss_gap(g->mech))
		return false;
	id = bc_cap_mech_name(g->mech);
	/* the loss (and its finding) the gap was made from: its where leads the gap's */
	for (size_t i = 0; i < mu->in.n_losses && !fd; i++) {
		const struct bc_cap_loss *l = &mu->in.loss[i];

		if (l->mech == g->mech && !strncmp(g->where, l->where, strlen(l->where)))
			fd = mu->loss_finding[i];
	}
	snprintf(v->mechanism, sizeof(v->mechanism), "%s", id);
	snprintf(v->where, sizeof(v->where), "%s", g->where);
	/* the ledger's stage with the largest drop, when it is this finding's */
	if (f->gap_finding && !strcmp(f->gap_finding, id) && f->gap_stage)
		bc_verdict_add(v, "stage", "%s", f->gap_stage);
	if (fd) {
		bc_verdict_add(v, "count", "%lld", fd->count);
		if (fd->counter[0])
			bc_verdict_add(v, "counter", "%s", fd->counter);
		if (fd->host[0])
			bc_verdict_add(v, "host", "%s", fd->host);
	}
	bc_verdict_add(v, "lost", "%s", rate(g->bps, r));
	bc_verdict_add(v, "share", "%.0f %%", 100 * g->share);
	snprintf(v->next_step, sizeof(v->next_step), "%s", loss_step(id));
	return true;
}

void bc_suite_answer_udp_gap(const struct bc_suite_facts *f, const struct bc_suite_model *mu,
			     struct bc_verdict *v)
{
	const struct bc_capacity *c = &mu->c;
	const struct bc_cap_gap *g;
	double pot = mu->ok ? c->level[BC_CAP_POTENTIAL] : -1;
	double sel = mu->ok ? c->level[BC_CAP_SELECTED] : -1;

	bc_verdict_init(v, "udp_gap");
	if (!f->udp_measured) {
		snprintf(v->mechanism, sizeof(v->mechanism), "not-measured");
		return;
	}
	if (missing_inputs(mu, BC_SUITE_NEED_UDP, 2, v))
		return;
	if (mu->ok)
		levels(v, c, BC_CAP_CARRIED, BC_CAP_POTENTIAL);
	probe(f, v);
	if (f->udp_cpu_bound)
		bc_verdict_add(v, "cpu_bound", "yes");
	/* the kernel's choice alone keeps the no-drop rate far below potential */
	if (pot > 0 && sel >= 0 && pot - sel > GAP_FAIL * pot &&
	    (g = largest(c, BC_CAP_POTENTIAL))) {
		v->status = f->udp_cpu_bound ? BC_VERDICT_INCONCLUSIVE : BC_VERDICT_FAIL;
		v->basis = "capacity model";
		cause_of(mu, g, v);
		return;
	}
	/* the no-drop rate against potential, when both are known: a pass only
	 * when it is close */
	if (v->headline >= 0) {
		v->basis = "capacity model";
		v->status = v->headline >= BC_VERDICT_CARRIED_PASS ? BC_VERDICT_PASS
			    : f->udp_cpu_bound			   ? BC_VERDICT_INCONCLUSIVE
								   : BC_VERDICT_FAIL;
	} else if (f->udp_ceiling_bps > 0 && f->no_drop_bps >= 0) {
		/* no model (no slaves): the no-drop rate against the link's UDP ceiling */
		char r[32];
		double ratio = f->no_drop_bps / f->udp_ceiling_bps;

		v->basis = "ledger";
		bc_verdict_add(v, "ceiling", "%s", rate(f->udp_ceiling_bps, r));
		v->status = ratio >= BC_VERDICT_UDP_PASS ? BC_VERDICT_PASS
			    : f->udp_cpu_bound		 ? BC_VERDICT_INCONCLUSIVE
							 : BC_VERDICT_FAIL;
	} else {
		v->basis = "ledger";
		snprintf(v->mechanism, sizeof(v->mechanism), "ceiling-unknown");
		snprintf(v->next_step, sizeof(v->next_step), "give --link-rate");
		return;
	}
	if (v->status == BC_VERDICT_PASS)
		return;
	/* a schema-1 ledger counted reassembly from the captures alone */
	if (f->reasm_missing) {
		v->status = BC_VERDICT_INCONCLUSIVE;
		v->basis = "ledger";
		snprintf(v->mechanism, sizeof(v->mechanism), "missing-input");
		v->where[0] = '\0';
		bc_verdict_add(v, "missing",
			       "tests[udp-over].result.capture.analysis.reassembly (the receiver's "
			       "Ip Reasm* deltas)");
		snprintf(v->next_step, sizeof(v->next_step),
			 "run the suite again with this version, which records them");
		return;
	}
	if (mu->ok && loss_cause(f, mu, v))
		return;
	udp_cause(f, v);
}
