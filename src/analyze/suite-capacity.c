// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The capacity model's input from the decoded suite document
 * (bondcheck/suite-doc.h): the client's slaves (ceilings, rate source,
 * speed) from doc.ceilings, their LACP and MII state from the client's
 * inspection (doc.ends.client.bonds[0]), and the aggregate TCP test
 * (doc.links, tcp-k).  Writes doc.capacity.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/suite-int.h"
#include "bondcheck/model.h"

/* The inspection's slave named @name, or NULL. */
static const struct bc_suite_doc_islave *inspect_slave(const struct bc_suite_doc_bond *bond,
						       const char *name)
{
	for (size_t i = 0; bond && i < bond->n_slaves; i++)
		if (!strcmp(bond->slave[i].name, name))
			return &bond->slave[i];
	return NULL;
}

/* The client's share of test @test's frames on @name; -1 unknown. */
static double test_share(const struct bc_suite_doc *d, const char *test, const char *name)
{
	for (size_t i = 0; i < d->n_rows; i++) {
		const struct bc_suite_doc_row *r = &d->row[i];

		if (!strcmp(r->test, test) && !strcmp(r->end, "client") && !strcmp(r->name, name) &&
		    !isnan(r->share))
			return r->share;
	}
	return -1;
}

/* Append @what to the missing list of each verdict in @for_mask. */
static void missing_add(struct bc_suite_model *m, unsigned for_mask, const char *what)
{
	m->n_missing++;
	m->missing_for |= for_mask;
	for (int i = 0; i < 3; i++) {
		char *s = m->missing[i];
		size_t k = strlen(s);

		if (!(for_mask >> i & 1u) || k + 1 >= sizeof(m->missing[i]))
			continue;
		snprintf(s + k, sizeof(m->missing[i]) - k, "%s%s", k ? ", " : "", what);
	}
}

/*
 * A member the model needs must be present (@has), null or not: a null
 * records "unknown", an absent member a document older than the member.
 */
static void need(struct bc_suite_model *m, unsigned for_mask, bool has, const char *path,
		 const char *k)
{
	char what[96];

	if (has)
		return;
	snprintf(what, sizeof(what), "%s.%s", path, k);
	missing_add(m, for_mask, what);
}

static void port_from_doc(const struct bc_suite_doc *d, const struct bc_suite_doc_bond *bond,
			  const struct bc_suite_doc_ceiling *cs, struct bc_suite_model *m)
{
	const bool udp = m->udp;
	struct bc_cap_port *p = &m->in.port[m->in.n];
	struct bc_suite_port *x = &m->x[m->in.n];
	const struct bc_suite_doc_islave *is;
	const bool lacp = m->in.mode == BC_MODE_8023AD;
	/* 802.3ad: speed and duplex make the ports' keys, which every verdict reads */
	const unsigned keys = lacp ? BC_SUITE_NEED_ALL : BC_SUITE_NEED_DRV;
	char ipath[64];
	double c = udp ? cs->udp_ceiling_bps : cs->tcp_ceiling_bps;

	memset(p, 0, sizeof(*p));
	memset(x, 0, sizeof(*x));
	snprintf(p->name, sizeof(p->name), "%s", cs->name);
	p->ceiling_bps = isnan(c) ? 0 : c; /* the model's unknown */
	p->speed_mbps = cs->speed_mbps;
	snprintf(x->driver, sizeof(x->driver), "%s", cs->driver);
	snprintf(x->rate_source, sizeof(x->rate_source), "%s", cs->rate_source);
	x->rate_bps = isnan(cs->rate_bps) ? 0 : cs->rate_bps;
	p->rate_source = x->rate_source[0] ? x->rate_source : NULL;
	is = inspect_slave(bond, p->name);
	p->duplex = !is				  ? -1
		    : !strcmp(is->duplex, "full") ? 1
		    : !strcmp(is->duplex, "half") ? 0
						  : -1;
	/* a slave the inspection does not list is taken as up: the suite ran on it */
	p->up = !is || !is->mii_status[0] || !strcmp(is->mii_status, "up");
	p->aggregator_id = is ? (int)is->aggregator_id : -1;
	p->partner_key = is ? (int)is->partner_key : -1;
	p->partner_prio = is ? (int)is->partner_prio : -1;
	snprintf(p->partner_mac, sizeof(p->partner_mac), "%s", is ? is->partner_mac : "");
	p->share = test_share(d, udp ? "udp-over" : "tcp-k", p->name);
	m->in.n++;

	/* the egress members the slave's ceiling needs (suite-links.c): every
	 * level of the model sums ceilings */
	for (size_t i = 0; i < cs->n_missing; i++)
		missing_add(m, BC_SUITE_NEED_ALL, cs->missing[i]);
	if (!bond)
		return; /* recorded once by the caller */
	snprintf(ipath, sizeof(ipath), "ends.client.bonds[0].slaves[%.16s]", p->name);
	if (!is) {
		missing_add(m, BC_SUITE_NEED_ALL, ipath);
		return;
	}
	need(m, BC_SUITE_NEED_ALL, is->has_mii_status, ipath, "mii_status");
	need(m, keys, is->has_duplex, ipath, "duplex");
	if (lacp) {
		need(m, BC_SUITE_NEED_ALL, is->has_aggregator_id, ipath, "aggregator_id");
		need(m, BC_SUITE_NEED_ALL, is->has_partner, ipath, "partner_lacpdu");
	}
}

/* The capacity mechanism of ledger finding id @id, or -1 (not a loss finding). */
static int loss_mech(const char *id)
{
	static const struct {
		const char *id;
		enum bc_cap_mech m;
	} map[] = {
		{"tx-loss", BC_CAP_MECH_TX_LOSS},
		{"rx-loss-nic", BC_CAP_MECH_RX_LOSS_NIC},
		{"wire-loss", BC_CAP_MECH_WIRE_LOSS},
		{"rx-loss-reassembly", BC_CAP_MECH_RX_LOSS_REASM},
		{"rx-loss-socket", BC_CAP_MECH_RX_LOSS_SOCKET},
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(id, map[i].id))
			return (int)map[i].m;
	return -1;
}

/*
 * The UDP model's ledger losses: the over-rate probe's loss findings
 * (tests[udp-over].result.findings, one per stage and link, counted in
 * messages over the whole test), its message size (test.length, the UDP
 * payload) and duration (test.duration_ms: the ledger counts every message
 * sent, the omitted warm-up included).
 */
static void losses_from_doc(const struct bc_suite_doc *d, struct bc_suite_model *m)
{
	const struct bc_suite_doc_result *r = &d->udp_over;
	struct bc_cap_input *in = &m->in;
	size_t n_reasm = 0;

	for (size_t i = 0; i < r->n_findings; i++)
		n_reasm += loss_mech(r->finding[i].id) == BC_CAP_MECH_RX_LOSS_REASM;
	for (size_t i = 0; i < r->n_findings && in->n_losses < BC_CAP_MAX_LOSSES; i++) {
		const struct bc_suite_doc_finding *f = &r->finding[i];
		int mech = loss_mech(f->id);
		struct bc_cap_loss *l;

		if (mech < 0 || f->count <= 0)
			continue;
		m->loss_finding[in->n_losses] = f;
		l = &in->loss[in->n_losses++];
		l->mech = (enum bc_cap_mech)mech;
		snprintf(l->where, sizeof(l->where), "%s", f->subject);
		/* the stage's one reason belongs to its one finding */
		if (mech == BC_CAP_MECH_RX_LOSS_REASM && n_reasm == 1)
			snprintf(l->reason, sizeof(l->reason), "%s", r->reasm_reason);
		l->messages = (double)f->count;
	}
	if (!in->n_losses)
		return;
	in->msg_bits = isnan(r->length_bytes) ? 0 : 8 * r->length_bytes;
	in->duration_s = isnan(r->duration_ms) ? 0 : r->duration_ms / 1000;
	/* without them the losses have no bits/s: the gap would stay unattributed */
	need(m, BC_SUITE_NEED_UDP, !isnan(r->length_bytes), "tests[udp-over].result.test",
	     "length");
	need(m, BC_SUITE_NEED_UDP, !isnan(r->duration_ms), "tests[udp-over].result.test",
	     "duration_ms");
}

static bool tlb_alb(int mode)
{
	return mode == BC_MODE_TLB || mode == BC_MODE_ALB;
}

/*
 * The receiving side of balance-tlb/alb (bondcheck/capacity.h): the test's
 * "direction" says which end sent ("forward": the client).  The client's
 * bond receives a reverse test (one peer: the agent); a forward test is
 * received by the agent's bond, whose own model (its slaves' ceilings, MII
 * state and active slave, BC_CAP_DIR_RX, one peer) caps the client's.  A
 * direction the model cannot take (absent, "bidir") is recorded as missing.
 */
static void direction_from_doc(const struct bc_suite_doc *d, struct bc_suite_model *m)
{
	const struct bc_suite_doc_result *r = m->udp ? &d->udp_over : &d->tcp_k;
	const char *path = m->udp ? "tests[udp-over].result.test" : "tests[tcp-k].result.test";
	const struct bc_suite_doc_bond *ab = d->bond[1].have ? &d->bond[1] : NULL;
	struct bc_cap_input *in = &m->in, a;
	struct bc_capacity ac;
	char w[96];

	if (!tlb_alb(d->mode) && !tlb_alb(d->agent_mode))
		return;
	if (strcmp(r->direction, "forward") && strcmp(r->direction, "reverse")) {
		char what[96];

		snprintf(what, sizeof(what), "%s.direction%s", path,
			 r->direction[0] ? " (one way, not bidir)" : "");
		missing_add(m, BC_SUITE_NEED_ALL, what);
		return;
	}
	if (!strcmp(r->direction, "reverse")) {
		in->dir = BC_CAP_DIR_RX;
		in->rx_peers = 1;
		return;
	}
	if (!tlb_alb(d->agent_mode))
		return;
	/* forward to a tlb/alb agent: its receive side */
	memset(&a, 0, sizeof(a));
	a.mode = d->agent_mode;
	a.dir = BC_CAP_DIR_RX;
	a.rx_peers = 1;
	a.active_aggregator_id = -1;
	a.carried_bps = -1;
	a.active_slave = ab && ab->active_slave[0] ? ab->active_slave : NULL;
	for (size_t i = 0; i < d->n_ceil[1] && a.n < BC_CAP_MAX_PORTS; i++) {
		const struct bc_suite_doc_ceiling *cs = &d->ceil[1][i];
		const struct bc_suite_doc_islave *is = inspect_slave(ab, cs->name);
		struct bc_cap_port *p = &a.port[a.n++];
		double c = m->udp ? cs->udp_ceiling_bps : cs->tcp_ceiling_bps;

		snprintf(p->name, sizeof(p->name), "%s", cs->name);
		p->ceiling_bps = isnan(c) ? 0 : c;
		p->speed_mbps = cs->speed_mbps;
		p->duplex = -1;
		p->up = !is || !is->mii_status[0] || !strcmp(is->mii_status, "up");
		p->share = -1;
	}
	if (bc_capacity_model(&a, &ac) || ac.level[BC_CAP_POTENTIAL] < 0) {
		missing_add(m, BC_SUITE_NEED_ALL,
			    m->udp ? "ceilings.agent.slaves[].udp_ceiling_bps"
				   : "ceilings.agent.slaves[].tcp_ceiling_bps");
		return;
	}
	/* what the agent's tlb selected decides Aggregation and UDP gap, not Drivers */
	if (a.mode == BC_MODE_TLB && !a.active_slave)
		missing_add(m, BC_SUITE_NEED_AGG | BC_SUITE_NEED_UDP,
			    "ends.agent.bonds[0].active_slave");
	in->rx_end.potential_bps = ac.level[BC_CAP_POTENTIAL];
	in->rx_end.selected_bps = ac.level[BC_CAP_SELECTED];
	in->rx_end.mech = a.mode == BC_MODE_ALB ? BC_CAP_MECH_ALB_RX_PEERS : BC_CAP_MECH_ONE_SLAVE;
	in->rx_end.sel_mech = BC_CAP_MECH_SLAVE_DOWN;
	for (size_t i = 0; i < ac.n_gaps; i++)
		if (ac.gap[i].from == BC_CAP_POTENTIAL) {
			in->rx_end.sel_mech = ac.gap[i].mech;
			snprintf(in->rx_end.sel_where, sizeof(in->rx_end.sel_where), "agent: %.80s",
				 ac.gap[i].where);
			break;
		}
	/* the agent's ports that do not receive (tlb: the bond, one slave receives) */
	snprintf(w, sizeof(w), "%s", ab && a.mode == BC_MODE_TLB ? ab->name : "");
	for (size_t i = 0, k = 0; i < a.n && k < sizeof(w) && a.mode == BC_MODE_ALB; i++)
		if (!(ac.best_ports >> i & 1u)) {
			int n = snprintf(w + k, sizeof(w) - k, "%s%s", k ? ", " : "",
					 a.port[i].name);

			k += n > 0 ? (size_t)n : 0;
		}
	snprintf(in->rx_end.where, sizeof(in->rx_end.where), "agent: %.80s", w);
}

/* The decoded document's own problems with members a verdict needs. */
static void doc_problems(const struct bc_suite_doc *d, struct bc_suite_model *m)
{
	static const unsigned tag[3] = {BC_SUITE_NEED_AGG, BC_SUITE_NEED_DRV, BC_SUITE_NEED_UDP};

	for (int w = 0; w < 3; w++)
		for (size_t i = 0; i < d->need[w].n_problems && i < BC_DOC_MAX_PROBLEMS; i++)
			missing_add(m, tag[w], d->need[w].problem[i]);
}

int bc_suite_model_fill(const struct bc_suite_doc *d, const struct bc_suite_facts *f, bool udp,
			struct bc_suite_model *m)
{
	const struct bc_suite_doc_bond *bond = d->bond[0].have ? &d->bond[0] : NULL;
	struct bc_cap_input *in = &m->in;

	memset(m, 0, sizeof(*m));
	m->udp = udp;
	in->mode = f->mode;
	in->active_aggregator_id = -1;
	if (bond && f->mode == BC_MODE_8023AD && !strcmp(bond->ad_info_status, "known"))
		in->active_aggregator_id = (int)bond->ad_info_aggregator_id;
	if (bond) {
		snprintf(m->ad_select, sizeof(m->ad_select), "%s", bond->ad_select);
		in->ad_user_port_key = (int)bond->ad_user_port_key;
		snprintf(m->bond, sizeof(m->bond), "%s", bond->name);
		snprintf(m->active_slave, sizeof(m->active_slave), "%s", bond->active_slave);
		snprintf(m->primary, sizeof(m->primary), "%s", bond->primary);
		snprintf(m->primary_reselect, sizeof(m->primary_reselect), "%s",
			 bond->primary_reselect);
	}
	in->ad_select = m->ad_select[0] ? m->ad_select : NULL;
	in->active_slave = m->active_slave[0] ? m->active_slave : NULL;
	in->primary = m->primary[0] ? m->primary : NULL;
	in->primary_reselect = m->primary_reselect[0] ? m->primary_reselect : NULL;
	for (size_t i = 0; i < d->n_ceil[0] && in->n < BC_CAP_MAX_PORTS; i++)
		port_from_doc(d, bond, &d->ceil[0][i], m);
	in->flows = f->flows;
	in->placed = f->placed;
	in->carried_bps = udp ? f->no_drop_bps : f->agg_bps;
	in->cpu_bound = udp ? f->udp_cpu_bound : f->agg_cpu_bound;
	if (!udp) {
		m->reord_seen = d->reord_seen;
		m->dsack_dups = d->dsack_dups;
		/* balance-rr reorders by design; elsewhere only DSACKs (spurious
		 * retransmits) show that reordering cost the sender anything */
		in->reordering =
			m->dsack_dups > 0 || (f->mode == BC_MODE_ROUNDROBIN && m->reord_seen > 0);
	}
	/* the slaves' ceilings come from the client's egress record (suite-links.c) */
	if (f->mode >= 0 && !in->n) {
		if (!d->has_egress_client)
			missing_add(m, BC_SUITE_NEED_ALL, "egress.client");
		else if (!d->n_egress_client_slaves)
			missing_add(m, BC_SUITE_NEED_ALL, "egress.client.bond.slaves");
	}
	if (f->mode < 0) {
		/* one interface, not a bond: no inspection of a bond to read */
	} else if (!bond) {
		missing_add(m, BC_SUITE_NEED_ALL, "ends.client.bonds[0]");
	} else {
		if (f->mode == BC_MODE_8023AD) {
			need(m, BC_SUITE_NEED_ALL, bond->has_ad_info, "ends.client.bonds[0]",
			     "ad_info");
			/* ad_user_port_key is not required: no document carries it
			 * (the inspection's JSON does not write it), and one bond-wide
			 * value shifts every port's key alike, so which ports share a
			 * key, and every verdict, stays the same */
			need(m, BC_SUITE_NEED_ALL, bond->has_ad_select, "ends.client.bonds[0]",
			     "ad_select");
		}
		if (f->mode == BC_MODE_ACTIVEBACKUP) {
			need(m, BC_SUITE_NEED_ALL, bond->has_active_slave, "ends.client.bonds[0]",
			     "active_slave");
			need(m, BC_SUITE_NEED_ALL, bond->has_primary, "ends.client.bonds[0]",
			     "primary");
			need(m, BC_SUITE_NEED_ALL, bond->has_primary_reselect,
			     "ends.client.bonds[0]", "primary_reselect");
		}
	}
	if (udp)
		losses_from_doc(d, m);
	direction_from_doc(d, m);
	doc_problems(d, m);
	m->ok = bc_capacity_model(in, &m->c) == 0;
	return m->ok ? 0 : -EINVAL;
}

static struct json_object *num(double v)
{
	return v >= 0 ? json_object_new_double(v) : NULL;
}

static struct json_object *port_names(const struct bc_suite_model *m, unsigned set)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < m->in.n; i++)
		if (set >> i & 1u)
			json_object_array_add(a, json_object_new_string(m->in.port[i].name));
	return a;
}

struct json_object *bc_suite_model_json(const struct bc_suite_model *m)
{
	struct json_object *o = json_object_new_object(), *lv = json_object_new_object();
	struct json_object *gaps = json_object_new_array();

	json_object_object_add(o, "test", json_object_new_string(m->udp ? "udp-search" : "tcp-k"));
	if (!m->ok) {
		json_object_object_add(o, "levels", NULL);
		json_object_object_add(o, "gaps", gaps);
		json_object_put(lv);
		return o;
	}
	for (int l = 0; l < BC_CAP_N_LEVELS; l++) {
		char k[32];

		snprintf(k, sizeof(k), "%s_bps", bc_cap_level_name((enum bc_cap_level)l));
		json_object_object_add(lv, k, num(m->c.level[l]));
	}
	json_object_object_add(o, "levels", lv);
	for (size_t i = 0; i < m->c.n_gaps; i++) {
		const struct bc_cap_gap *g = &m->c.gap[i];
		struct json_object *x = json_object_new_object();

		json_object_object_add(x, "from",
				       json_object_new_string(bc_cap_level_name(g->from)));
		json_object_object_add(x, "to",
				       json_object_new_string(bc_cap_level_name(g->from + 1)));
		json_object_object_add(x, "mechanism",
				       json_object_new_string(bc_cap_mech_name(g->mech)));
		json_object_object_add(x, "where", json_object_new_string(g->where));
		json_object_object_add(x, "bps", json_object_new_double(g->bps));
		json_object_object_add(x, "share", json_object_new_double(g->share));
		json_object_array_add(gaps, x);
	}
	json_object_object_add(o, "gaps", gaps);
	if (m->in.mode == BC_MODE_8023AD) {
		json_object_object_add(o, "best_aggregator_ports", port_names(m, m->c.best_ports));
		json_object_object_add(o, "selected_ports", port_names(m, m->c.selected_ports));
	} else {
		json_object_object_add(o, "selected_ports", port_names(m, m->c.selected_ports));
	}
	return o;
}
