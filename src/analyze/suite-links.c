// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The suite's per-slave tables: each slave's rate and ceilings, and the
 * per-link and per-flow figures of the captured tests (docs/run.md "Suite").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/suite-input.h"
#include "analyze/suite-int.h"
#include "bondcheck/ceiling.h"
#include "bondcheck/model.h"
#include "bondcheck/names.h"

/* The inspected slave named @name of @x, or NULL. */
static const struct bc_si_islave *find_islave(const struct bc_si_end *x, const char *name)
{
	for (size_t i = 0; i < x->n_slaves; i++)
		if (!strcmp(x->slave[i].name, name))
			return &x->slave[i];
	return NULL;
}

/* Mode of an end: the inspect document, else the egress bond's sysfs "mode" ("balance-rr 0"). */
static int end_mode(const struct bc_si_end *x)
{
	const char *m = x->egress_mode;

	if (x->have_bond && x->has_mode)
		return (int)x->mode_number;
	if (m[0]) {
		const char *sp = strchr(m, ' ');

		return sp ? atoi(sp + 1) : bc_mode_from_name(m);
	}
	return -1;
}

/* Whether the inspection of end @x says its slave @s can transmit. */
static bool usable(const struct bc_si_end *x, const struct bc_si_islave *s, int mode)
{
	if (!x || !x->have_bond || !s)
		return true;
	if (s->mii_status[0] && strcmp(s->mii_status, "up"))
		return false;
	if (mode == BC_MODE_ACTIVEBACKUP)
		return !strcmp(x->active_slave, s->name);
	if (mode == BC_MODE_8023AD && !strcmp(x->ad_status, "known") && x->has_ad_aggregator_id &&
	    s->has_aggregator_id)
		return x->ad_aggregator_id == s->aggregator_id;
	return true;
}

struct params {
	int ip_version;
	bool tcp_timestamps;
	uint32_t udp_payload;
	double option_bps;
	enum bc_rate_conv option_conv;
};

static void params(const struct bc_suite_input *in, struct params *p)
{
	const struct bc_si_result *over = bc_suite_input_result(in, "udp-over"), *any = NULL;

	if (in->n_tests)
		any = in->test[0].res;
	p->ip_version = any && any->has_ip_version ? (int)any->ip_version : (int)in->ip_version;
	p->tcp_timestamps = !any || !any->tcp_timestamps || strcmp(any->tcp_timestamps, "0") != 0;
	p->udp_payload = (uint32_t)(over && over->has_length ? over->length : in->udp_length);
	if (!p->udp_payload && in->n_trials)
		p->udp_payload = (uint32_t)in->trial_length;
	p->option_bps = in->link_rate_bps;
	p->option_conv = !strcmp(in->link_accounting, "tbf") ? BC_CONV_QDISC : BC_CONV_ETHERNET;
}

static struct json_object *dbl_or_null(double v)
{
	return v > 0 ? json_object_new_double(v) : NULL;
}

/* Member @k, named "@path.@k", into @miss when the egress record lacks it (null is present). */
static void need(struct json_object *miss, bool has, const char *path, const char *k)
{
	char what[128];

	if (has)
		return;
	snprintf(what, sizeof(what), "%s.%s", path, k);
	json_object_array_add(miss, json_object_new_string(what));
}

/*
 * One slave's rate and ceilings into @c and its JSON row; @path names @es
 * in the document ("egress.client.bond.slaves[eth0]"), @x is the end's
 * inspection (NULL for a single interface).  "missing" lists the members of
 * the egress record the rate needs and the document lacks (a document saved
 * before they existed): the ceiling is then not to be trusted.
 */
static struct json_object *slave_ceiling(const struct params *p, const struct bc_si_eslave *es,
					 const char *path, const struct bc_si_end *x, int mode,
					 struct bc_si_ceiling *c)
{
	struct json_object *o = json_object_new_object(), *miss = json_object_new_array();
	const struct bc_si_islave *is = x ? find_islave(x, es->name) : NULL;
	struct bc_link_rate r;
	struct bc_ceiling_in in = {.ip_version = p->ip_version,
				   .tcp_timestamps = p->tcp_timestamps};
	struct bc_ceiling cl;
	long long speed = es->speed_mbps;
	double tcp = 0, udp = 0;
	const char *drv;

	if (is && is->has_speed)
		speed = is->speed_mbps;
	/* a virtual device's speed (veth: 10000) is nominal, enforced by nothing */
	bc_link_rate_choose(es->tbf_bps, 0, p->option_bps,
			    speed > 0 && speed < UINT32_MAX && !es->virt ? (uint32_t)speed : 0, &r);
	if (r.source == BC_RATE_OPTION)
		r.conv = p->option_conv;
	/* the qdisc's rate decides first: without it a shaped slave looks unshaped */
	need(miss, es->has_tbf, path, "tbf_bps");
	need(miss, es->has_mtu, path, "mtu");
	if (!is || !is->speed_present)
		need(miss, es->has_speed, path, "speed_mbps");
	/* a rate from the speed is a nominal one on a virtual device (veth); an
	 * egress "driver" is written only for a bus device, which is not virtual */
	if (r.source == BC_RATE_ETHTOOL && !es->has_driver)
		need(miss, es->has_virtual, path, "virtual");
	in.rate_bps = r.rate_bps;
	in.conv = r.conv;
	in.mtu = (uint32_t)es->mtu;
	if (r.rate_bps > 0) {
		in.proto = BC_L4_TCP;
		if (bc_ceiling_link(&in, &cl, NULL) == 0)
			tcp = cl.goodput_bps;
		in.proto = BC_L4_UDP;
		in.udp_payload = p->udp_payload;
		if (bc_ceiling_link(&in, &cl, NULL) == 0)
			udp = cl.goodput_bps;
	}
	drv = is && is->driver[0] ? is->driver : es->driver;
	*c = (struct bc_si_ceiling){.name = es->name,
				    .driver = drv[0] ? drv : NULL,
				    .speed_mbps = speed,
				    .rate_source = bc_rate_source_name(r.source),
				    .tcp_ceiling_bps = tcp,
				    .udp_ceiling_bps = udp,
				    .usable = usable(x, is, mode)};
	json_object_object_add(o, "name", json_object_new_string(c->name));
	json_object_object_add(o, "driver", c->driver ? json_object_new_string(c->driver) : NULL);
	json_object_object_add(o, "speed_mbps", speed > 0 ? json_object_new_int64(speed) : NULL);
	json_object_object_add(o, "mtu", json_object_new_int((int)in.mtu));
	json_object_object_add(o, "rate_bps", dbl_or_null(r.rate_bps));
	json_object_object_add(o, "rate_source", json_object_new_string(c->rate_source));
	json_object_object_add(
		o, "accounting",
		json_object_new_string(r.conv == BC_CONV_QDISC ? "tbf" : "ethernet"));
	json_object_object_add(o, "tcp_ceiling_bps", dbl_or_null(tcp));
	json_object_object_add(o, "udp_ceiling_bps", dbl_or_null(udp));
	json_object_object_add(o, "usable", json_object_new_boolean(c->usable));
	json_object_object_add(o, "missing", miss);
	return o;
}

static struct json_object *end_ceilings(const struct bc_suite_input *in, const struct params *p,
					int e, struct bc_si_ceilings *c)
{
	static const char *const ends[2] = {"client", "agent"};
	const struct bc_si_end *x = &in->end[e];
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	int mode = end_mode(x);

	json_object_object_add(o, "interface",
			       x->have_egress ? json_object_new_string(x->egress_name) : NULL);
	json_object_object_add(o, "mode",
			       mode >= 0 && bc_mode_name(mode)
				       ? json_object_new_string(bc_mode_name(mode))
				       : NULL);
	json_object_object_add(o, "mode_number", mode >= 0 ? json_object_new_int(mode) : NULL);
	c->slave[e] = x->n_eslaves ? calloc(x->n_eslaves, sizeof(*c->slave[e])) : NULL;
	for (size_t i = 0; c->slave[e] && i < x->n_eslaves; i++) {
		char path[80];

		if (x->egress_is_bond)
			snprintf(path, sizeof(path), "egress.%s.bond.slaves[%.16s]", ends[e],
				 x->eslave[i].name);
		else
			snprintf(path, sizeof(path), "egress.%s", ends[e]);
		json_object_array_add(
			a, slave_ceiling(p, &x->eslave[i], path, x->egress_is_bond ? x : NULL,
					 x->egress_is_bond ? mode : -1, &c->slave[e][c->n[e]++]));
	}
	json_object_object_add(o, "slaves", a);
	return o;
}

struct json_object *bc_suite_ceilings(const struct bc_suite_input *in, struct bc_si_ceilings *c)
{
	struct json_object *o = json_object_new_object();
	struct params p;

	memset(c, 0, sizeof(*c));
	params(in, &p);
	json_object_object_add(o, "ip_version", json_object_new_int(p.ip_version));
	json_object_object_add(o, "tcp_timestamps", json_object_new_boolean(p.tcp_timestamps));
	json_object_object_add(o, "udp_payload", json_object_new_int((int)p.udp_payload));
	json_object_object_add(o, "client", end_ceilings(in, &p, 0, c));
	json_object_object_add(o, "agent", end_ceilings(in, &p, 1, c));
	return o;
}

void bc_suite_ceilings_free(struct bc_si_ceilings *c)
{
	free(c->slave[0]);
	free(c->slave[1]);
	memset(c, 0, sizeof(*c));
}

/* Sum of the forward wire bytes of the analysis links of @side ("tx"/"rx"). */
static double side_bytes(const struct bc_si_result *r, const char *side)
{
	double sum = 0;

	for (size_t i = 0; i < r->n_links; i++)
		if (!strcmp(r->link[i].side, side))
			sum += r->link[i].wire_bytes;
	return sum;
}

/* The tx links (names without "tx:client/") that the forward flow from @cport crossed. */
static size_t flow_links(const struct bc_si_result *r, long long cport, const char **out,
			 size_t max)
{
	size_t n = 0;

	for (size_t i = 0; r && i < r->n_flows; i++) {
		const struct bc_si_flow *f = &r->flow[i];

		if (!f->forward || f->sport != cport)
			continue;
		for (size_t k = 0; k < f->n_links && n < max; k++) {
			const char *s = f->link[k];

			if (s && !strncmp(s, "tx:client/", 10))
				out[n++] = s + 10;
		}
	}
	return n;
}

/* TCP retransmits of the flows whose frames all left on slave @name; -1 when none kept to one link.
 */
static long long link_retransmits(const struct bc_si_result *r, const char *name)
{
	long long sum = -1;

	if (strcmp(r->protocol, "tcp"))
		return -1;
	for (size_t i = 0; i < r->n_streams; i++) {
		const struct bc_si_stream *st = &r->stream[i];
		const char *ls[8];
		size_t n = flow_links(r, st->client_port, ls, 8);

		if (n == 1 && !strcmp(ls[0], name))
			sum = (sum < 0 ? 0 : sum) + st->retransmits;
	}
	return sum;
}

/* The capture link named @name of @r, or NULL. */
static const struct bc_si_link *find_link(const struct bc_si_result *r, const char *name)
{
	for (size_t i = 0; i < r->n_links; i++)
		if (!strcmp(r->link[i].name, name))
			return &r->link[i];
	return NULL;
}

/* The drop counters of interface @name at end @e of @r, or NULL. */
static const struct bc_si_ifc *find_ifc(const struct bc_si_result *r, int e, const char *name)
{
	for (size_t i = 0; i < r->n_ifc[e]; i++)
		if (!strcmp(r->ifc[e][i].name, name))
			return &r->ifc[e][i];
	return NULL;
}

/*
 * The ceiling of the client slave whose frames arrived on the agent's capture link
 * @al (its learned "peer", "tx:client/NAME"), for the test's protocol; 0 unknown.
 */
static double sender_ceiling(const struct bc_si_link *al, const struct bc_si_ceilings *c, bool udp,
			     const char **peer)
{
	const char *p = al ? al->peer : "";

	*peer = p;
	if (strncmp(p, "tx:client/", 10))
		return 0;
	for (size_t i = 0; i < c->n[0]; i++)
		if (!strcmp(c->slave[0][i].name, p + 10))
			return udp ? c->slave[0][i].udp_ceiling_bps
				   : c->slave[0][i].tcp_ceiling_bps;
	return 0;
}

/* One row of doc.links: test @t, end @e, slave @cs. */
static struct json_object *link_row(const struct bc_si_test *t, int e,
				    const struct bc_si_ceiling *cs, const struct bc_si_ceilings *c,
				    double total)
{
	const struct bc_si_result *res = t->res;
	struct json_object *o = json_object_new_object();
	const struct bc_si_link *al;
	const struct bc_si_ifc *ifc;
	bool client = e == 0, udp;
	const char *name = cs->name, *end = client ? "client" : "agent";
	char lname[64];
	double bytes, share, gp, ceil, sc;
	const char *from = "own", *peer = "";
	long long drops, retr;

	snprintf(lname, sizeof(lname), "%s/%s", client ? "tx:client" : "rx:agent", name);
	al = find_link(res, lname);
	udp = !strcmp(res->protocol, "udp");
	bytes = al ? al->wire_bytes : 0;
	share = total > 0 ? bytes / total : 0;
	gp = share * res->goodput_bps;
	ifc = find_ifc(res, e, name);
	if (client)
		drops = (ifc ? ifc->qdisc_drops + ifc->tx_dropped : 0) + (al ? al->lost : 0);
	else
		drops = ifc ? ifc->rx_dropped + ifc->rx_missed_errors + ifc->rx_over_errors : 0;
	/* the agent receives: a tbf/htb rate shapes only what it sends, the negotiated
	 * speed and --link-rate bound both directions */
	ceil = client || (strcmp(cs->rate_source, "tbf") && strcmp(cs->rate_source, "htb"))
		       ? (udp ? cs->udp_ceiling_bps : cs->tcp_ceiling_bps)
		       : 0;
	/* what arrives on an agent slave left on its peer client slave: the path's
	 * ceiling is the smaller of the two (a 10 Gbit/s veth behind a 10 Mbit/s
	 * sender is judged against 10 Mbit/s) */
	sc = client ? 0 : sender_ceiling(al, c, udp, &peer);
	if (sc > 0 && (ceil <= 0 || sc < ceil)) {
		ceil = sc;
		from = peer;
	}
	json_object_object_add(o, "test", json_object_new_string(t->name));
	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "end", json_object_new_string(end));
	json_object_object_add(o, "capture_link", json_object_new_string(lname));
	json_object_object_add(o, "driver", cs->driver ? json_object_new_string(cs->driver) : NULL);
	json_object_object_add(o, "speed_mbps",
			       cs->speed_mbps > 0 ? json_object_new_int64(cs->speed_mbps) : NULL);
	json_object_object_add(o, "ceiling_bps", dbl_or_null(ceil));
	json_object_object_add(o, "ceiling_from", ceil > 0 ? json_object_new_string(from) : NULL);
	json_object_object_add(o, "goodput_bps", json_object_new_double(gp));
	json_object_object_add(o, "wire_bps", json_object_new_double(al ? al->wire_bps : 0));
	json_object_object_add(o, "frames", json_object_new_int64(al ? al->frames : 0));
	json_object_object_add(o, "share", json_object_new_double(share));
	retr = client ? link_retransmits(res, name) : -1;
	json_object_object_add(o, "retransmits", retr >= 0 ? json_object_new_int64(retr) : NULL);
	json_object_object_add(o, "drops", json_object_new_int64(drops));
	json_object_object_add(o, "lost", udp ? json_object_new_int64(al ? al->lost : 0) : NULL);
	json_object_object_add(o, "peer", al ? json_object_get(al->j_peer) : NULL);
	json_object_object_add(o, "efficiency",
			       ceil > 0 ? json_object_new_double(gp / ceil) : NULL);
	return o;
}

struct json_object *bc_suite_links(const struct bc_suite_input *in, const struct bc_si_ceilings *c)
{
	struct json_object *rows = json_object_new_array();

	for (size_t i = 0; i < in->n_tests; i++) {
		const struct bc_si_test *t = &in->test[i];

		if (!t->res || !t->res->has_analysis)
			continue;
		for (int e = 0; e < 2; e++) {
			double total = side_bytes(t->res, e ? "rx" : "tx");

			for (size_t k = 0; k < c->n[e]; k++)
				json_object_array_add(rows,
						      link_row(t, e, &c->slave[e][k], c, total));
		}
	}
	return rows;
}

struct json_object *bc_suite_flows(const struct bc_suite_input *in)
{
	const struct bc_si_result *res = bc_suite_input_result(in, "tcp-k");
	struct json_object *rows = json_object_new_array();

	for (size_t i = 0; res && i < res->n_streams; i++) {
		const struct bc_si_stream *st = &res->stream[i];
		struct json_object *o, *a;
		const char *ls[8], *pred = NULL;
		size_t n = flow_links(res->has_analysis ? res : NULL, st->client_port, ls, 8);

		for (size_t k = 0; k < res->n_placed; k++)
			if (res->placed_id[k] == st->id)
				pred = res->placed_slave[k];
		o = json_object_new_object();
		json_object_object_add(o, "test", json_object_new_string("tcp-k"));
		json_object_object_add(o, "id", json_object_new_int64(st->id));
		json_object_object_add(o, "client_port", json_object_get(st->j_client_port));
		json_object_object_add(o, "agent_port", json_object_get(st->j_agent_port));
		json_object_object_add(o, "predicted_slave",
				       pred ? json_object_new_string(pred) : NULL);
		a = json_object_new_array();
		for (size_t k = 0; k < n; k++)
			json_object_array_add(a, json_object_new_string(ls[k]));
		json_object_object_add(o, "observed_slaves", res->has_analysis ? a : NULL);
		if (!res->has_analysis)
			json_object_put(a);
		json_object_object_add(o, "goodput_bps", json_object_get(st->j_goodput_bps));
		json_object_object_add(o, "retransmits", json_object_get(st->j_retransmits));
		json_object_object_add(o, "reord_seen", json_object_get(st->j_reord_seen));
		json_object_object_add(o, "dsack_dups", json_object_get(st->j_dsack_dups));
		json_object_object_add(o, "tcp_reordering", json_object_get(st->j_reordering));
		json_object_object_add(o, "rtt_us", json_object_get(st->j_rtt_us));
		json_object_array_add(rows, o);
	}
	return rows;
}
