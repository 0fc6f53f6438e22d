// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The capacity model's input from an analysed suite document: the client's
 * slaves (ceilings, rate source, speed) from doc.ceilings, their LACP and
 * MII state from the client's inspection (doc.ends.client.bonds[0]), and the
 * aggregate TCP test (doc.links, tcp-k).  Writes doc.capacity.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analyze/suite-int.h"
#include "bondcheck/json-get.h"
#include "bondcheck/model.h"

/* The inspection's slave named @name, or NULL. */
static struct json_object *inspect_slave(struct json_object *bond, const char *name)
{
	struct json_object *sl = bc_sj(bond, "slaves");

	for (size_t i = 0; i < bc_json_len(sl); i++) {
		struct json_object *s = json_object_array_get_idx(sl, i);

		if (!strcmp(bc_json_str(s, "name"), name))
			return s;
	}
	return NULL;
}

/* The client's share of test @test's frames on @name; -1 unknown. */
static double test_share(struct json_object *doc, const char *test, const char *name)
{
	struct json_object *rows = bc_sj(doc, "links");

	for (size_t i = 0; i < bc_json_len(rows); i++) {
		struct json_object *r = json_object_array_get_idx(rows, i);

		if (!strcmp(bc_json_str(r, "test"), test) &&
		    !strcmp(bc_json_str(r, "end"), "client") &&
		    !strcmp(bc_json_str(r, "name"), name) && bc_sj(r, "share"))
			return bc_json_dbl(r, "share", -1);
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
 * Member @k of @o (a JSON object named @path) must be present, null or not:
 * a null records "unknown", an absent member a document older than the
 * member.  @o NULL (its parent absent or null) is recorded by the caller.
 */
static void need(struct bc_suite_model *m, unsigned for_mask, struct json_object *o,
		 const char *path, const char *k)
{
	char what[96];

	if (!o || json_object_object_get_ex(o, k, NULL))
		return;
	snprintf(what, sizeof(what), "%s.%s", path, k);
	missing_add(m, for_mask, what);
}

static int int_or(struct json_object *o, const char *k, int dflt)
{
	return bc_sj(o, k) ? (int)bc_json_i64(o, k, dflt) : dflt;
}

static void port_from_doc(struct json_object *doc, struct json_object *bond, struct json_object *cs,
			  struct bc_suite_model *m)
{
	const bool udp = m->udp;
	struct bc_cap_port *p = &m->in.port[m->in.n];
	struct bc_suite_port *x = &m->x[m->in.n];
	struct json_object *is, *pl, *ms;
	const char *dup;
	const bool lacp = m->in.mode == BC_MODE_8023AD;
	/* 802.3ad: speed and duplex make the ports' keys, which every verdict reads */
	const unsigned keys = lacp ? BC_SUITE_NEED_ALL : BC_SUITE_NEED_DRV;
	char ipath[64];

	memset(p, 0, sizeof(*p));
	memset(x, 0, sizeof(*x));
	snprintf(p->name, sizeof(p->name), "%s", bc_json_str(cs, "name"));
	p->ceiling_bps = bc_json_dbl(cs, udp ? "udp_ceiling_bps" : "tcp_ceiling_bps", 0);
	p->speed_mbps = bc_sj(cs, "speed_mbps") ? bc_json_i64(cs, "speed_mbps", -1) : -1;
	snprintf(x->driver, sizeof(x->driver), "%s", bc_json_str(cs, "driver"));
	snprintf(x->rate_source, sizeof(x->rate_source), "%s", bc_json_str(cs, "rate_source"));
	x->rate_bps = bc_json_dbl(cs, "rate_bps", 0);
	p->rate_source = x->rate_source[0] ? x->rate_source : NULL;
	is = inspect_slave(bond, p->name);
	dup = bc_json_str(is, "duplex");
	p->duplex = !strcmp(dup, "full") ? 1 : !strcmp(dup, "half") ? 0 : -1;
	/* a slave the inspection does not list is taken as up: the suite ran on it */
	p->up = !is || !bc_sj(is, "mii_status") || !strcmp(bc_json_str(is, "mii_status"), "up");
	p->aggregator_id = int_or(is, "aggregator_id", -1);
	pl = bc_sj(is, "partner_lacpdu");
	p->partner_key = int_or(pl, "oper_key", -1);
	p->partner_prio = int_or(pl, "system_priority", -1);
	snprintf(p->partner_mac, sizeof(p->partner_mac), "%s", bc_json_str(pl, "system_mac"));
	p->share = test_share(doc, udp ? "udp-over" : "tcp-k", p->name);
	m->in.n++;

	/* the egress members the slave's ceiling needs (suite-links.c): every
	 * level of the model sums ceilings */
	ms = bc_sj(cs, "missing");
	for (size_t i = 0; i < bc_json_len(ms); i++) {
		const char *w = json_object_get_string(json_object_array_get_idx(ms, i));

		missing_add(m, BC_SUITE_NEED_ALL, w ? w : "?");
	}
	if (!bond)
		return; /* recorded once by the caller */
	snprintf(ipath, sizeof(ipath), "ends.client.bonds[0].slaves[%.16s]", p->name);
	if (!is) {
		missing_add(m, BC_SUITE_NEED_ALL, ipath);
		return;
	}
	need(m, BC_SUITE_NEED_ALL, is, ipath, "mii_status");
	need(m, keys, is, ipath, "duplex");
	if (lacp) {
		need(m, BC_SUITE_NEED_ALL, is, ipath, "aggregator_id");
		need(m, BC_SUITE_NEED_ALL, is, ipath, "partner_lacpdu");
	}
}

int bc_suite_model_fill(struct json_object *doc, const struct bc_suite_facts *f, bool udp,
			struct bc_suite_model *m)
{
	struct json_object *sl = bc_sj(bc_sj(bc_sj(doc, "ceilings"), "client"), "slaves");
	struct json_object *bonds = bc_sj(bc_sj(bc_sj(doc, "ends"), "client"), "bonds");
	struct json_object *bond = bc_json_len(bonds) ? json_object_array_get_idx(bonds, 0) : NULL;
	struct bc_cap_input *in = &m->in;

	memset(m, 0, sizeof(*m));
	m->udp = udp;
	in->mode = f->mode;
	in->active_aggregator_id = -1;
	if (f->mode == BC_MODE_8023AD &&
	    !strcmp(bc_json_str(bc_sj(bond, "ad_info"), "status"), "known"))
		in->active_aggregator_id = int_or(bc_sj(bond, "ad_info"), "aggregator_id", -1);
	snprintf(m->ad_select, sizeof(m->ad_select), "%s", bc_json_str(bond, "ad_select"));
	in->ad_select = m->ad_select[0] ? m->ad_select : NULL;
	in->ad_user_port_key = int_or(bond, "ad_user_port_key", 0);
	snprintf(m->bond, sizeof(m->bond), "%s", bc_json_str(bond, "name"));
	snprintf(m->active_slave, sizeof(m->active_slave), "%s", bc_json_str(bond, "active_slave"));
	in->active_slave = m->active_slave[0] ? m->active_slave : NULL;
	snprintf(m->primary, sizeof(m->primary), "%s", bc_json_str(bond, "primary"));
	in->primary = m->primary[0] ? m->primary : NULL;
	snprintf(m->primary_reselect, sizeof(m->primary_reselect), "%s",
		 bc_json_str(bond, "primary_reselect"));
	in->primary_reselect = m->primary_reselect[0] ? m->primary_reselect : NULL;
	for (size_t i = 0; i < bc_json_len(sl) && in->n < BC_CAP_MAX_PORTS; i++)
		port_from_doc(doc, bond, json_object_array_get_idx(sl, i), m);
	in->flows = f->flows;
	in->placed = f->placed;
	in->carried_bps = udp ? f->no_drop_bps : f->agg_bps;
	in->cpu_bound = udp ? f->udp_cpu_bound : f->agg_cpu_bound;
	if (!udp) {
		struct json_object *ro = bc_sj(bc_sj(doc, "reordering"), "tcp");

		m->reord_seen = bc_json_i64(ro, "reord_seen", 0);
		m->dsack_dups = bc_json_i64(ro, "dsack_dups", 0);
		/* balance-rr reorders by design; elsewhere only DSACKs (spurious
		 * retransmits) show that reordering cost the sender anything */
		in->reordering =
			m->dsack_dups > 0 || (f->mode == BC_MODE_ROUNDROBIN && m->reord_seen > 0);
	}
	/* the slaves' ceilings come from the client's egress record (suite-links.c) */
	if (f->mode >= 0 && !in->n) {
		struct json_object *eg = bc_sj(bc_sj(doc, "egress"), "client");

		if (!eg)
			missing_add(m, BC_SUITE_NEED_ALL, "egress.client");
		else if (!bc_json_len(bc_sj(bc_sj(eg, "bond"), "slaves")))
			missing_add(m, BC_SUITE_NEED_ALL, "egress.client.bond.slaves");
	}
	if (f->mode < 0) {
		/* one interface, not a bond: no inspection of a bond to read */
	} else if (!bond) {
		missing_add(m, BC_SUITE_NEED_ALL, "ends.client.bonds[0]");
	} else {
		if (f->mode == BC_MODE_8023AD) {
			need(m, BC_SUITE_NEED_ALL, bond, "ends.client.bonds[0]", "ad_info");
			/* ad_user_port_key is not required: no document carries it
			 * (the inspection's JSON does not write it), and one bond-wide
			 * value shifts every port's key alike, so which ports share a
			 * key, and every verdict, stays the same */
			need(m, BC_SUITE_NEED_ALL, bond, "ends.client.bonds[0]", "ad_select");
		}
		if (f->mode == BC_MODE_ACTIVEBACKUP) {
			need(m, BC_SUITE_NEED_ALL, bond, "ends.client.bonds[0]", "active_slave");
			need(m, BC_SUITE_NEED_ALL, bond, "ends.client.bonds[0]", "primary");
			need(m, BC_SUITE_NEED_ALL, bond, "ends.client.bonds[0]",
			     "primary_reselect");
		}
	}
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
