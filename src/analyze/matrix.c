// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pure part of `bondcheck matrix`: the schedule of ordered pairs, each
 * pair's figures from its relayed run result and its DF probes
 * (bondcheck/matrix.h, docs/matrix.md).  The analysis of the whole document
 * is matrix-analyze.c, on the structs of matrix-read.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/ceiling.h"
#include "bondcheck/json-get.h"
#include "bondcheck/matrix.h"
#include "bondcheck/names.h"

int bc_matrix_schedule(unsigned n, unsigned concurrency, struct bc_matrix_slot **slots,
		       size_t *n_slots, unsigned *n_rounds, struct bc_error *err)
{
	unsigned m = n + (n & 1), round = 0;
	size_t k = 0;
	struct bc_matrix_slot *s;

	*slots = NULL;
	*n_slots = 0;
	*n_rounds = 0;
	if (n < 2 || n > BC_MATRIX_MAX_HOSTS)
		return bc_error_set(err, -EINVAL, "%u hosts; a matrix needs 2..%d", n,
				    BC_MATRIX_MAX_HOSTS);
	if (concurrency == 0)
		return bc_error_set(err, -EINVAL, "concurrency 0; expected at least 1");
	s = calloc((size_t)n * (n - 1), sizeof(*s));
	if (!s)
		return bc_error_set(err, -ENOMEM, "out of memory for %u x %u pairs", n, n - 1);
	/* circle method: host m-1 fixed, the others rotate; index n (odd n) is the bye */
	for (unsigned r = 0; r + 1 < m; r++) {
		for (int dir = 0; dir < 2; dir++) {
			unsigned in_round = 0;

			for (unsigned i = 0; i < m / 2; i++) {
				unsigned a = i == 0 ? m - 1 : (r + i) % (m - 1);
				unsigned b = i == 0 ? r : (r + (m - 1) - i) % (m - 1);

				if (a >= n || b >= n)
					continue;
				if (in_round == concurrency) {
					round++;
					in_round = 0;
				}
				s[k].from = dir ? b : a;
				s[k].to = dir ? a : b;
				s[k].round = round;
				k++;
				in_round++;
			}
			if (in_round)
				round++;
		}
	}
	*slots = s;
	*n_slots = k;
	*n_rounds = round;
	return 0;
}

size_t bc_matrix_probe_sizes(uint32_t mtu_from, uint32_t mtu_to, uint32_t sizes[2])
{
	size_t n = 0;
	uint32_t lo = mtu_from < mtu_to ? mtu_from : mtu_to;
	uint32_t hi = mtu_from < mtu_to ? mtu_to : mtu_from;

	if (lo)
		sizes[n++] = lo;
	if (hi != lo && hi <= mtu_from)
		sizes[n++] = hi;
	return n;
}

/* --- one pair from its run result ------------------------------------------------------- */

static struct json_object *get(struct json_object *o, const char *path)
{
	char key[64];

	while (o && *path) {
		size_t n = strcspn(path, ".");

		if (n >= sizeof(key))
			return NULL;
		memcpy(key, path, n);
		key[n] = '\0';
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n + (path[n] == '.');
	}
	return o;
}

/* Bond mode number from the sysfs text "balance-rr 0"; -1 when absent. */
static int bond_mode(struct json_object *egress)
{
	const char *m = bc_json_str(get(egress, "bond.options"), "mode");
	const char *sp = strchr(m, ' ');

	return sp ? atoi(sp + 1) : -1;
}

/* A link's rate from its egress object (tbf first, then NIC speed: bc_link_rate_choose). */
static int link_rate(struct json_object *l, struct bc_link_rate *r)
{
	double tbf = bc_json_dbl(l, "tbf_bps", 0), speed = bc_json_dbl(l, "speed_mbps", 0);

	return bc_link_rate_choose(tbf > 0 ? tbf : 0, 0, 0, speed > 0 ? (uint32_t)speed : 0, r);
}

/*
 * One end's ceiling, bits/s, for the test @in (MTU already the pair's):
 * a single link, or a bond from its slaves and mode with every slave used
 * (active-backup: one).  0 when a rate is unknown.
 */
static double end_ceiling(struct json_object *egress, struct bc_ceiling_in in, double *rate_bps,
			  const char **source)
{
	struct json_object *slaves = get(egress, "bond.slaves");
	struct bc_link_rate r;
	struct bc_ceiling c;
	size_t n = bc_json_len(slaves);

	*rate_bps = 0;
	*source = "none";
	if (n > 0 && n <= 64) {
		double g[64], total = 0, sum_rate = 0;
		int mode = bond_mode(egress);
		uint64_t used = n == 64 ? ~0ull : (1ull << n) - 1;

		for (size_t i = 0; i < n; i++) {
			if (link_rate(json_object_array_get_idx(slaves, i), &r) < 0)
				return 0;
			in.rate_bps = r.rate_bps;
			in.conv = r.conv;
			if (bc_ceiling_link(&in, &c, NULL) < 0)
				return 0;
			g[i] = c.goodput_bps;
			sum_rate += r.rate_bps;
			*source = bc_rate_source_name(r.source);
		}
		if (bc_ceiling_bond(mode, g, n, mode == 1 ? 1 : used, &total, NULL) < 0)
			return 0;
		*rate_bps = sum_rate;
		return total;
	}
	if (link_rate(egress, &r) < 0)
		return 0;
	in.rate_bps = r.rate_bps;
	in.conv = r.conv;
	*rate_bps = r.rate_bps;
	*source = bc_rate_source_name(r.source);
	return bc_ceiling_link(&in, &c, NULL) == 0 ? c.goodput_bps : 0;
}

static void add_i64(struct json_object *o, const char *k, long long v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

static void add_dbl(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

static void add_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

/* {end} of bondcheck/matrix.h from ends.<which> of a run result. */
static struct json_object *end_json(struct json_object *result, const char *which,
				    struct bc_ceiling_in in, double *ceiling)
{
	static const char *const counters[] = {"rx_dropped", "rx_missed_errors", "rx_over_errors",
					       "tx_dropped", "qdisc_drops"};
	struct json_object *end = get(get(result, "ends"), which), *o = json_object_new_object();
	struct json_object *eg = get(end, "metadata.egress");
	const char *name = bc_json_str(eg, "name"), *src;
	struct json_object *ifc = get(get(end, "counters.interfaces"), name);
	double rate;

	add_str(o, "host", bc_json_str(get(end, "metadata"), "hostname"));
	add_str(o, "interface", name);
	add_i64(o, "mtu", bc_json_i64(eg, "mtu", 0));
	*ceiling = eg && in.mtu ? end_ceiling(eg, in, &rate, &src) : 0;
	if (!eg || !in.mtu) {
		rate = 0;
		src = "none";
	}
	add_dbl(o, "link_rate_bps", rate);
	add_str(o, "rate_source", src);
	add_dbl(o, "ceiling_bps", *ceiling);
	for (size_t i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
		add_i64(o, counters[i], bc_json_i64(ifc, counters[i], 0));
	return o;
}

int bc_matrix_pair_fill(struct json_object *pair, struct json_object *result, struct bc_error *err)
{
	struct json_object *streams = get(result, "streams"), *test = get(result, "test");
	struct json_object *ce, *ae, *notes;
	struct bc_ceiling_in in = {0};
	long long retr = 0, sent = 0, recv = 0, lost = 0;
	uint32_t mc, ma;
	double cc, ca, pc, gp = bc_json_dbl(result, "goodput_bps", 0);
	bool udp = !strcmp(bc_json_str(test, "protocol"), "udp");
	const char *ts =
		bc_json_str(get(result, "ends.client.metadata.sysctls"), "net.ipv4.tcp_timestamps");

	if (!streams || !json_object_is_type(streams, json_type_array))
		return bc_error_set(err, -EINVAL, "the relayed result has no \"streams\" array");
	for (size_t i = 0; i < bc_json_len(streams); i++) {
		struct json_object *s = json_object_array_get_idx(streams, i);

		retr += bc_json_i64(s, "retransmits", 0);
		sent += bc_json_i64(s, "sent_packets", 0);
		recv += bc_json_i64(s, "received_packets", 0);
		lost += bc_json_i64(s, "lost_packets", 0);
	}
	mc = (uint32_t)bc_json_i64(get(result, "ends.client.metadata.egress"), "mtu", 0);
	ma = (uint32_t)bc_json_i64(get(result, "ends.agent.metadata.egress"), "mtu", 0);
	in.ip_version = (int)bc_json_i64(test, "ip_version", 4);
	in.proto = udp ? BC_L4_UDP : BC_L4_TCP;
	in.tcp_timestamps = !ts[0] || atoi(ts) != 0;
	in.udp_payload = udp ? (uint32_t)bc_json_i64(test, "length", 0) : 0;
	/* TCP's MSS and what both ends can carry: the smaller MTU */
	in.mtu = mc && ma ? (mc < ma ? mc : ma) : (mc ? mc : ma);
	ce = end_json(result, "client", in, &cc);
	ae = end_json(result, "agent", in, &ca);
	pc = cc > 0 && ca > 0 ? (cc < ca ? cc : ca) : 0;
	add_str(pair, "status", "ok");
	add_dbl(pair, "goodput_bps", gp);
	add_dbl(pair, "ceiling_bps", pc);
	if (pc > 0) {
		add_dbl(pair, "efficiency", bc_efficiency(gp, pc));
		add_str(pair, "limited_by", cc <= ca ? "sender" : "receiver");
	} else {
		json_object_object_add(pair, "efficiency", NULL);
	}
	add_dbl(pair, "run_ceiling_bps", bc_json_dbl(result, "ceiling_bps", 0));
	if (udp) {
		add_i64(pair, "sent_packets", sent);
		add_i64(pair, "received_packets", recv);
		add_i64(pair, "lost_packets", lost);
	} else {
		add_i64(pair, "retransmits", retr);
	}
	json_object_object_add(
		pair, "cpu_bound",
		json_object_new_boolean(
			json_object_get_boolean(get(result, "ends.client.counters.cpu_bound")) ||
			json_object_get_boolean(get(result, "ends.agent.counters.cpu_bound"))));
	notes = get(result, "notes");
	json_object_object_add(pair, "notes",
			       notes ? json_object_get(notes) : json_object_new_array());
	json_object_object_add(pair, "client", ce);
	json_object_object_add(pair, "agent", ae);
	return 0;
}

void bc_matrix_probe_add(struct json_object *pair, uint32_t size, struct json_object *result,
			 const char *error)
{
	struct json_object *pm = get(pair, "pmtu"), *probes, *p = json_object_new_object();
	struct json_object *streams = get(result, "streams");
	/* a failed probe has no result; an agent's result may hold anything */
	struct json_object *s = bc_json_len(streams) ? json_object_array_get_idx(streams, 0) : NULL;
	int v6 = bc_json_i64(get(result, "test"), "ip_version", 4) == 6;

	if (!pm) {
		pm = json_object_new_object();
		json_object_object_add(pm, "probes", json_object_new_array());
		json_object_object_add(pair, "pmtu", pm);
	}
	probes = get(pm, "probes");
	add_i64(p, "size", size);
	add_i64(p, "payload", (long long)size - (v6 ? 48 : 28));
	if (result) {
		add_i64(p, "sent", bc_json_i64(s, "sent_packets", 0));
		add_i64(p, "received", bc_json_i64(s, "received_packets", 0));
		add_i64(p, "send_errors", bc_json_i64(get(s, "sender"), "send_errors", 0));
		json_object_object_add(
			p, "carried",
			json_object_new_boolean(bc_json_i64(s, "received_packets", 0) > 0));
	} else {
		json_object_object_add(p, "carried", json_object_new_boolean(false));
		add_str(p, "error", error ? error : "probe failed");
	}
	json_object_array_add(probes, p);
}
