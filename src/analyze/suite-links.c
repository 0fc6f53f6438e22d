// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The suite's per-slave tables: each slave's rate and ceilings, and the
 * per-link and per-flow figures of the captured tests (docs/run.md "Suite").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/suite-int.h"
#include "bondcheck/ceiling.h"
#include "bondcheck/json-get.h"
#include "bondcheck/model.h"
#include "bondcheck/names.h"

struct json_object *bc_sj(struct json_object *o, const char *k)
{
	struct json_object *v;

	if (!o || !json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, k, &v))
		return NULL;
	return v;
}

struct json_object *bc_suite_test(struct json_object *doc, const char *name)
{
	struct json_object *a = bc_sj(doc, "tests");

	for (size_t i = 0; i < bc_json_len(a); i++) {
		struct json_object *t = json_object_array_get_idx(a, i);

		if (!strcmp(bc_json_str(t, "name"), name))
			return t;
	}
	return NULL;
}

struct json_object *bc_suite_result(struct json_object *doc, const char *name)
{
	return bc_sj(bc_suite_test(doc, name), "result");
}

bool bc_suite_cpu_bound(struct json_object *res)
{
	struct json_object *ends = bc_sj(res, "ends"), *s = bc_sj(res, "streams");

	if (json_object_get_boolean(bc_sj(bc_sj(bc_sj(ends, "client"), "counters"), "cpu_bound")) ||
	    json_object_get_boolean(bc_sj(bc_sj(bc_sj(ends, "agent"), "counters"), "cpu_bound")))
		return true;
	for (size_t i = 0; i < bc_json_len(s); i++)
		if (!strcmp(bc_json_str(json_object_array_get_idx(s, i), "limited_by"), "cpu"))
			return true;
	return false;
}

/* The inspect document's bond of one end (ends.END.bonds[0]), or NULL. */
static struct json_object *end_bond(struct json_object *doc, const char *end)
{
	struct json_object *b = bc_sj(bc_sj(bc_sj(doc, "ends"), end), "bonds");

	return bc_json_len(b) ? json_object_array_get_idx(b, 0) : NULL;
}

static struct json_object *find_name(struct json_object *arr, const char *name)
{
	for (size_t i = 0; i < bc_json_len(arr); i++) {
		struct json_object *o = json_object_array_get_idx(arr, i);

		if (!strcmp(bc_json_str(o, "name"), name))
			return o;
	}
	return NULL;
}

/* Mode of an end: the inspect document, else the egress bond's sysfs "mode" ("balance-rr 0"). */
static int end_mode(struct json_object *doc, const char *end)
{
	struct json_object *b = end_bond(doc, end), *eg = bc_sj(bc_sj(doc, "egress"), end);
	const char *m;

	if (b && bc_sj(b, "mode_number"))
		return (int)bc_json_i64(b, "mode_number", -1);
	m = bc_json_str(bc_sj(bc_sj(eg, "bond"), "options"), "mode");
	if (m[0]) {
		const char *sp = strchr(m, ' ');

		return sp ? atoi(sp + 1) : bc_mode_from_name(m);
	}
	return -1;
}

/* Whether the inspect document says slave @s of bond @b can transmit. */
static bool usable(struct json_object *b, struct json_object *s, int mode)
{
	const char *mii = bc_json_str(s, "mii_status");
	struct json_object *ad = bc_sj(b, "ad_info");

	if (!b || !s)
		return true;
	if (mii[0] && strcmp(mii, "up"))
		return false;
	if (mode == BC_MODE_ACTIVEBACKUP)
		return !strcmp(bc_json_str(b, "active_slave"), bc_json_str(s, "name"));
	if (mode == BC_MODE_8023AD && !strcmp(bc_json_str(ad, "status"), "known") &&
	    bc_sj(ad, "aggregator_id") && bc_sj(s, "aggregator_id"))
		return bc_json_i64(ad, "aggregator_id", -1) == bc_json_i64(s, "aggregator_id", -2);
	return true;
}

struct params {
	int ip_version;
	bool tcp_timestamps;
	uint32_t udp_payload;
	double option_bps;
	enum bc_rate_conv option_conv;
};

static void params(struct json_object *doc, struct params *p)
{
	struct json_object *over = bc_suite_result(doc, "udp-over"), *any = NULL, *tests;
	struct json_object *opt = bc_sj(doc, "options");
	const char *ts;

	tests = bc_sj(doc, "tests");
	if (bc_json_len(tests))
		any = bc_sj(json_object_array_get_idx(tests, 0), "result");
	p->ip_version = (int)bc_json_i64(bc_sj(any, "test"), "ip_version",
					 bc_json_i64(opt, "ip_version", 4));
	ts = bc_json_str(bc_sj(bc_sj(bc_sj(bc_sj(any, "ends"), "client"), "metadata"), "sysctls"),
			 "net.ipv4.tcp_timestamps");
	p->tcp_timestamps = strcmp(ts, "0") != 0;
	p->udp_payload = (uint32_t)bc_json_i64(bc_sj(over, "test"), "length",
					       bc_json_i64(opt, "udp_length", 0));
	if (!p->udp_payload) {
		struct json_object *tr = bc_sj(bc_sj(doc, "udp_search"), "trials");

		if (bc_json_len(tr))
			p->udp_payload = (uint32_t)bc_json_i64(json_object_array_get_idx(tr, 0),
							       "length", 0);
	}
	p->option_bps = bc_json_dbl(opt, "link_rate_bps", 0);
	p->option_conv = !strcmp(bc_json_str(opt, "link_accounting"), "tbf") ? BC_CONV_QDISC
									     : BC_CONV_ETHERNET;
}

static struct json_object *dbl_or_null(double v)
{
	return v > 0 ? json_object_new_double(v) : NULL;
}

/* Member @k of @o, named "@path.@k", into @miss when @o lacks it (null is present). */
static void need(struct json_object *miss, struct json_object *o, const char *path, const char *k)
{
	char what[128];

	if (!o || json_object_object_get_ex(o, k, NULL))
		return;
	snprintf(what, sizeof(what), "%s.%s", path, k);
	json_object_array_add(miss, json_object_new_string(what));
}

/*
 * One slave's rate and ceilings; @path names @eg_slave in the document
 * ("egress.client.bond.slaves[eth0]").  "missing" lists the members of
 * the egress record the rate needs and the document lacks (a document
 * saved before they existed): the ceiling is then not to be trusted.
 */
static struct json_object *slave_ceiling(const struct params *p, struct json_object *eg_slave,
					 const char *path, struct json_object *bond, int mode)
{
	struct json_object *o = json_object_new_object(), *is, *miss = json_object_new_array();
	const char *name = bc_json_str(eg_slave, "name");
	struct bc_link_rate r;
	struct bc_ceiling_in in = {.ip_version = p->ip_version,
				   .tcp_timestamps = p->tcp_timestamps};
	struct bc_ceiling c;
	long long speed = bc_json_i64(eg_slave, "speed_mbps", 0);
	double tcp = 0, udp = 0;

	is = find_name(bc_sj(bond, "slaves"), name);
	if (is && bc_sj(is, "speed_mbps"))
		speed = bc_json_i64(is, "speed_mbps", speed);
	/* a virtual device's speed (veth: 10000) is nominal, enforced by nothing */
	bc_link_rate_choose(bc_json_dbl(eg_slave, "tbf_bps", 0), 0, p->option_bps,
			    speed > 0 && speed < UINT32_MAX &&
					    !json_object_get_boolean(bc_sj(eg_slave, "virtual"))
				    ? (uint32_t)speed
				    : 0,
			    &r);
	if (r.source == BC_RATE_OPTION)
		r.conv = p->option_conv;
	/* the qdisc's rate decides first: without it a shaped slave looks unshaped */
	need(miss, eg_slave, path, "tbf_bps");
	need(miss, eg_slave, path, "mtu");
	if (!is || !json_object_object_get_ex(is, "speed_mbps", NULL))
		need(miss, eg_slave, path, "speed_mbps");
	/* a rate from the speed is a nominal one on a virtual device (veth); an
	 * egress "driver" is written only for a bus device, which is not virtual */
	if (r.source == BC_RATE_ETHTOOL && !json_object_object_get_ex(eg_slave, "driver", NULL))
		need(miss, eg_slave, path, "virtual");
	in.rate_bps = r.rate_bps;
	in.conv = r.conv;
	in.mtu = (uint32_t)bc_json_i64(eg_slave, "mtu", 1500);
	if (r.rate_bps > 0) {
		in.proto = BC_L4_TCP;
		if (bc_ceiling_link(&in, &c, NULL) == 0)
			tcp = c.goodput_bps;
		in.proto = BC_L4_UDP;
		in.udp_payload = p->udp_payload;
		if (bc_ceiling_link(&in, &c, NULL) == 0)
			udp = c.goodput_bps;
	}
	json_object_object_add(o, "name", json_object_new_string(name));
	{
		const char *drv = bc_json_str(is, "driver");

		if (!drv[0])
			drv = bc_json_str(eg_slave, "driver");
		json_object_object_add(o, "driver", drv[0] ? json_object_new_string(drv) : NULL);
	}
	json_object_object_add(o, "speed_mbps", speed > 0 ? json_object_new_int64(speed) : NULL);
	json_object_object_add(o, "mtu", json_object_new_int((int)in.mtu));
	json_object_object_add(o, "rate_bps", dbl_or_null(r.rate_bps));
	json_object_object_add(o, "rate_source",
			       json_object_new_string(bc_rate_source_name(r.source)));
	json_object_object_add(
		o, "accounting",
		json_object_new_string(r.conv == BC_CONV_QDISC ? "tbf" : "ethernet"));
	json_object_object_add(o, "tcp_ceiling_bps", dbl_or_null(tcp));
	json_object_object_add(o, "udp_ceiling_bps", dbl_or_null(udp));
	json_object_object_add(o, "usable", json_object_new_boolean(usable(bond, is, mode)));
	json_object_object_add(o, "missing", miss);
	return o;
}

static struct json_object *end_ceilings(struct json_object *doc, const struct params *p,
					const char *end)
{
	struct json_object *eg = bc_sj(bc_sj(doc, "egress"), end), *bond = end_bond(doc, end);
	struct json_object *o = json_object_new_object(), *a = json_object_new_array(), *sl;
	int mode = end_mode(doc, end);

	json_object_object_add(o, "interface",
			       eg ? json_object_new_string(bc_json_str(eg, "name")) : NULL);
	json_object_object_add(o, "mode",
			       mode >= 0 && bc_mode_name(mode)
				       ? json_object_new_string(bc_mode_name(mode))
				       : NULL);
	json_object_object_add(o, "mode_number", mode >= 0 ? json_object_new_int(mode) : NULL);
	sl = bc_sj(bc_sj(eg, "bond"), "slaves");
	if (bc_sj(eg, "bond")) {
		for (size_t i = 0; i < bc_json_len(sl); i++) {
			struct json_object *s = json_object_array_get_idx(sl, i);
			char path[80];

			snprintf(path, sizeof(path), "egress.%s.bond.slaves[%.16s]", end,
				 bc_json_str(s, "name"));
			json_object_array_add(a, slave_ceiling(p, s, path, bond, mode));
		}
	} else if (eg) {
		char path[40];

		snprintf(path, sizeof(path), "egress.%s", end);
		json_object_array_add(a, slave_ceiling(p, eg, path, NULL, -1));
	}
	json_object_object_add(o, "slaves", a);
	return o;
}

struct json_object *bc_suite_ceilings(struct json_object *doc)
{
	struct json_object *o = json_object_new_object();
	struct params p;

	params(doc, &p);
	json_object_object_add(o, "ip_version", json_object_new_int(p.ip_version));
	json_object_object_add(o, "tcp_timestamps", json_object_new_boolean(p.tcp_timestamps));
	json_object_object_add(o, "udp_payload", json_object_new_int((int)p.udp_payload));
	json_object_object_add(o, "client", end_ceilings(doc, &p, "client"));
	json_object_object_add(o, "agent", end_ceilings(doc, &p, "agent"));
	return o;
}

/* Sum of the forward wire bytes of the analysis links of @side ("tx"/"rx"). */
static double side_bytes(struct json_object *links, const char *side)
{
	double sum = 0;

	for (size_t i = 0; i < bc_json_len(links); i++) {
		struct json_object *l = json_object_array_get_idx(links, i);

		if (!strcmp(bc_json_str(l, "side"), side))
			sum += bc_json_dbl(bc_sj(l, "forward"), "wire_bytes", 0);
	}
	return sum;
}

/* The tx links (names without "tx:client/") that the forward flow from @cport crossed. */
static size_t flow_links(struct json_object *analysis, long long cport, const char **out,
			 size_t max)
{
	struct json_object *fl = bc_sj(analysis, "flows");
	size_t n = 0;

	for (size_t i = 0; i < bc_json_len(fl); i++) {
		struct json_object *f = json_object_array_get_idx(fl, i), *ls;

		if (strcmp(bc_json_str(f, "direction"), "forward") ||
		    bc_json_i64(f, "sport", -1) != cport)
			continue;
		ls = bc_sj(f, "links");
		for (size_t k = 0; k < bc_json_len(ls) && n < max; k++) {
			const char *s = json_object_get_string(json_object_array_get_idx(ls, k));

			if (s && !strncmp(s, "tx:client/", 10))
				out[n++] = s + 10;
		}
	}
	return n;
}

/* TCP retransmits of the flows whose frames all left on slave @name; -1 when none kept to one link.
 */
static long long link_retransmits(struct json_object *res, const char *name)
{
	struct json_object *s = bc_sj(res, "streams"),
			   *an = bc_sj(bc_sj(res, "capture"), "analysis");
	long long sum = -1;

	if (strcmp(bc_json_str(bc_sj(res, "test"), "protocol"), "tcp"))
		return -1;
	for (size_t i = 0; i < bc_json_len(s); i++) {
		struct json_object *st = json_object_array_get_idx(s, i);
		const char *ls[8];
		size_t n = flow_links(an, bc_json_i64(st, "client_port", -1), ls, 8);

		if (n == 1 && !strcmp(ls[0], name))
			sum = (sum < 0 ? 0 : sum) + bc_json_i64(st, "retransmits", 0);
	}
	return sum;
}

/*
 * The ceiling of the client slave whose frames arrived on the agent's capture link
 * @al (its learned "peer", "tx:client/NAME"), for the test's protocol; 0 unknown.
 */
static double sender_ceiling(struct json_object *al, struct json_object *client_slaves, bool udp,
			     const char **peer)
{
	const char *p = bc_json_str(al, "peer");

	*peer = p;
	if (strncmp(p, "tx:client/", 10))
		return 0;
	return bc_json_dbl(find_name(client_slaves, p + 10),
			   udp ? "udp_ceiling_bps" : "tcp_ceiling_bps", 0);
}

/* One row of doc.links. */
static struct json_object *link_row(struct json_object *t, const char *end, struct json_object *cs,
				    struct json_object *client_slaves, double total)
{
	struct json_object *res = bc_sj(t, "result"),
			   *an = bc_sj(bc_sj(res, "capture"), "analysis");
	struct json_object *o = json_object_new_object(), *al, *ifc;
	bool client = !strcmp(end, "client"), udp;
	const char *name = bc_json_str(cs, "name");
	char lname[64];
	double bytes, share, gp, ceil, sc;
	const char *from = "own", *peer = "";
	long long drops, retr;

	snprintf(lname, sizeof(lname), "%s/%s", client ? "tx:client" : "rx:agent", name);
	al = find_name(bc_sj(an, "links"), lname);
	udp = !strcmp(bc_json_str(bc_sj(res, "test"), "protocol"), "udp");
	bytes = bc_json_dbl(bc_sj(al, "forward"), "wire_bytes", 0);
	share = total > 0 ? bytes / total : 0;
	gp = share * bc_json_dbl(res, "goodput_bps", 0);
	ifc = bc_sj(bc_sj(bc_sj(bc_sj(bc_sj(res, "ends"), end), "counters"), "interfaces"), name);
	if (client)
		drops = bc_json_i64(ifc, "qdisc_drops", 0) + bc_json_i64(ifc, "tx_dropped", 0) +
			bc_json_i64(al, "lost", 0);
	else
		drops = bc_json_i64(ifc, "rx_dropped", 0) +
			bc_json_i64(ifc, "rx_missed_errors", 0) +
			bc_json_i64(ifc, "rx_over_errors", 0);
	/* the agent receives: a tbf/htb rate shapes only what it sends, the negotiated
	 * speed and --link-rate bound both directions */
	ceil = client || (strcmp(bc_json_str(cs, "rate_source"), "tbf") &&
			  strcmp(bc_json_str(cs, "rate_source"), "htb"))
		       ? bc_json_dbl(cs, udp ? "udp_ceiling_bps" : "tcp_ceiling_bps", 0)
		       : 0;
	/* what arrives on an agent slave left on its peer client slave: the path's
	 * ceiling is the smaller of the two (a 10 Gbit/s veth behind a 10 Mbit/s
	 * sender is judged against 10 Mbit/s) */
	sc = client ? 0 : sender_ceiling(al, client_slaves, udp, &peer);
	if (sc > 0 && (ceil <= 0 || sc < ceil)) {
		ceil = sc;
		from = peer;
	}
	json_object_object_add(o, "test", json_object_new_string(bc_json_str(t, "name")));
	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "end", json_object_new_string(end));
	json_object_object_add(o, "capture_link", json_object_new_string(lname));
	json_object_object_add(o, "driver", json_object_get(bc_sj(cs, "driver")));
	json_object_object_add(o, "speed_mbps", json_object_get(bc_sj(cs, "speed_mbps")));
	json_object_object_add(o, "ceiling_bps", dbl_or_null(ceil));
	json_object_object_add(o, "ceiling_from", ceil > 0 ? json_object_new_string(from) : NULL);
	json_object_object_add(o, "goodput_bps", json_object_new_double(gp));
	json_object_object_add(
		o, "wire_bps",
		json_object_new_double(bc_json_dbl(bc_sj(al, "forward"), "wire_bps", 0)));
	json_object_object_add(
		o, "frames", json_object_new_int64(bc_json_i64(bc_sj(al, "forward"), "frames", 0)));
	json_object_object_add(o, "share", json_object_new_double(share));
	retr = client ? link_retransmits(res, name) : -1;
	json_object_object_add(o, "retransmits", retr >= 0 ? json_object_new_int64(retr) : NULL);
	json_object_object_add(o, "drops", json_object_new_int64(drops));
	json_object_object_add(o, "lost",
			       udp ? json_object_new_int64(bc_json_i64(al, "lost", 0)) : NULL);
	json_object_object_add(o, "peer", json_object_get(bc_sj(al, "peer")));
	json_object_object_add(o, "efficiency",
			       ceil > 0 ? json_object_new_double(gp / ceil) : NULL);
	return o;
}

struct json_object *bc_suite_links(struct json_object *doc, struct json_object *ceilings)
{
	struct json_object *rows = json_object_new_array(), *tests = bc_sj(doc, "tests");
	static const char *const ends[2] = {"client", "agent"};

	for (size_t i = 0; i < bc_json_len(tests); i++) {
		struct json_object *t = json_object_array_get_idx(tests, i);
		struct json_object *an = bc_sj(bc_sj(bc_sj(t, "result"), "capture"), "analysis");

		if (!an)
			continue;
		for (int e = 0; e < 2; e++) {
			struct json_object *sl = bc_sj(bc_sj(ceilings, ends[e]), "slaves");
			struct json_object *csl = bc_sj(bc_sj(ceilings, "client"), "slaves");
			double total = side_bytes(bc_sj(an, "links"), e ? "rx" : "tx");

			for (size_t k = 0; k < bc_json_len(sl); k++)
				json_object_array_add(
					rows, link_row(t, ends[e], json_object_array_get_idx(sl, k),
						       csl, total));
		}
	}
	return rows;
}

struct json_object *bc_suite_flows(struct json_object *doc)
{
	struct json_object *res = bc_suite_result(doc, "tcp-k"), *rows = json_object_new_array();
	struct json_object *s = bc_sj(res, "streams"),
			   *an = bc_sj(bc_sj(res, "capture"), "analysis");
	struct json_object *pl = bc_sj(bc_sj(res, "placement"), "streams");

	for (size_t i = 0; i < bc_json_len(s); i++) {
		struct json_object *st = json_object_array_get_idx(s, i), *o, *a;
		struct json_object *ti = bc_sj(bc_sj(st, "sender"), "tcp_info");
		long long id = bc_json_i64(st, "id", -1);
		const char *ls[8], *pred = NULL;
		size_t n = flow_links(an, bc_json_i64(st, "client_port", -1), ls, 8);

		for (size_t k = 0; k < bc_json_len(pl); k++)
			if (bc_json_i64(json_object_array_get_idx(pl, k), "id", -2) == id)
				pred = bc_json_str(json_object_array_get_idx(pl, k),
						   "predicted_slave");
		o = json_object_new_object();
		json_object_object_add(o, "test", json_object_new_string("tcp-k"));
		json_object_object_add(o, "id", json_object_new_int64(id));
		json_object_object_add(o, "client_port", json_object_get(bc_sj(st, "client_port")));
		json_object_object_add(o, "agent_port", json_object_get(bc_sj(st, "agent_port")));
		json_object_object_add(o, "predicted_slave",
				       pred ? json_object_new_string(pred) : NULL);
		a = json_object_new_array();
		for (size_t k = 0; k < n; k++)
			json_object_array_add(a, json_object_new_string(ls[k]));
		json_object_object_add(o, "observed_slaves", an ? a : NULL);
		if (!an)
			json_object_put(a);
		json_object_object_add(o, "goodput_bps", json_object_get(bc_sj(st, "goodput_bps")));
		json_object_object_add(o, "retransmits", json_object_get(bc_sj(st, "retransmits")));
		json_object_object_add(o, "reord_seen", json_object_get(bc_sj(ti, "reord_seen")));
		json_object_object_add(o, "dsack_dups", json_object_get(bc_sj(ti, "dsack_dups")));
		json_object_object_add(o, "tcp_reordering",
				       json_object_get(bc_sj(ti, "reordering")));
		json_object_object_add(o, "rtt_us", json_object_get(bc_sj(ti, "rtt_us")));
		json_object_array_add(rows, o);
	}
	return rows;
}
