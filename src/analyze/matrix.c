// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pure part of `bondcheck matrix`: each pair's figures from its relayed
 * run result and its DF probes (bondcheck/matrix.h, docs/matrix.md).  The
 * planner of the pairs is matrix-plan.c; the analysis of the whole document
 * is matrix-analyze.c, on the structs of matrix-read.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/ceiling.h"
#include "bondcheck/matrix-doc.h"
#include "bondcheck/matrix.h"
#include "bondcheck/names.h"

#include "matrix-int.h"

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

/*
 * A link's rate in one direction (bc_link_rate_choose): sending, a tbf
 * first, then the NIC speed; receiving (@ingress), the NIC speed alone: an
 * egress qdisc shapes only what the host sends, and no ingress policer is
 * in the agent's metadata.
 */
static int link_rate(const struct bc_matrix_link_doc *l, bool ingress, struct bc_link_rate *r)
{
	return bc_link_rate_choose(!ingress && l->tbf_bps > 0 ? l->tbf_bps : 0, 0, 0,
				   l->speed_mbps > 0 ? (uint32_t)l->speed_mbps : 0, r);
}

/*
 * One end's ceiling in one direction (@ingress: receiving), bits/s, for the
 * test @in (MTU already the pair's): a single link, or a bond from its
 * slaves and mode with every slave used (active-backup: one).  0 when a
 * rate is unknown.
 */
static double end_ceiling(const struct bc_matrix_run_end *e, bool ingress, struct bc_ceiling_in in,
			  double *rate_bps, const char **source)
{
	struct bc_link_rate r;
	struct bc_ceiling c;
	size_t n = e->n_slaves;

	*rate_bps = 0;
	*source = "none";
	if (e->is_bond) {
		double g[BC_MATRIX_MAX_SLAVES], total = 0, sum_rate = 0;
		uint64_t used = n == 64 ? ~0ull : (1ull << n) - 1;

		for (size_t i = 0; i < n; i++) {
			if (link_rate(&e->slaves[i], ingress, &r) < 0)
				return 0;
			in.rate_bps = r.rate_bps;
			in.conv = r.conv;
			if (bc_ceiling_link(&in, &c, NULL) < 0)
				return 0;
			g[i] = c.goodput_bps;
			sum_rate += r.rate_bps;
			*source = bc_rate_source_name(r.source);
		}
		if (bc_ceiling_bond(e->mode, g, n, e->mode == 1 ? 1 : used, &total, NULL) < 0)
			return 0;
		*rate_bps = sum_rate;
		return total;
	}
	if (link_rate(&e->link, ingress, &r) < 0)
		return 0;
	in.rate_bps = r.rate_bps;
	in.conv = r.conv;
	*rate_bps = r.rate_bps;
	*source = bc_rate_source_name(r.source);
	return bc_ceiling_link(&in, &c, NULL) == 0 ? c.goodput_bps : 0;
}

/*
 * {end} of bondcheck/matrix.h from one end of a run result: its sending
 * (egress, "ceiling_bps") and receiving ("ingress_ceiling_bps") ceilings.
 * A ceiling is unknown (0) without an egress, an MTU, or with an egress
 * member missing.
 */
static struct json_object *end_json(const struct bc_matrix_run_end *e, struct bc_ceiling_in in,
				    double *egress, double *ingress)
{
	struct json_object *o = json_object_new_object();
	const char *src = "none", *isrc = "none";
	double rate = 0, irate = 0;

	bc_matrix_add_str(o, "host", e->hostname);
	bc_matrix_add_str(o, "interface", e->ifname);
	bc_matrix_add_i64(o, "mtu", e->mtu);
	*egress = *ingress = 0;
	if (e->have_egress && !e->egress_problems && in.mtu) {
		*egress = end_ceiling(e, false, in, &rate, &src);
		*ingress = end_ceiling(e, true, in, &irate, &isrc);
	}
	bc_matrix_add_dbl(o, "link_rate_bps", rate);
	bc_matrix_add_str(o, "rate_source", src);
	bc_matrix_add_dbl(o, "ceiling_bps", *egress);
	bc_matrix_add_dbl(o, "ingress_rate_bps", irate);
	bc_matrix_add_str(o, "ingress_rate_source", isrc);
	bc_matrix_add_dbl(o, "ingress_ceiling_bps", *ingress);
	for (size_t i = 0; i < 5; i++)
		bc_matrix_add_i64(o, bc_matrix_end_counters[i], e->counters[i]);
	return o;
}

int bc_matrix_pair_fill(struct json_object *pair, struct json_object *result, struct bc_error *err)
{
	struct bc_matrix_run_doc *d = malloc(sizeof(*d));
	struct json_object *ce, *ae;
	struct bc_ceiling_in in = {0};
	uint32_t mc, ma;
	double cc, ca, ci, ai, pc, gp;

	if (!d)
		return bc_error_set(err, -ENOMEM, "out of memory for a pair's result");
	bc_matrix_run_read(result, false, d);
	if (!d->have_streams) {
		free(d);
		return bc_error_set(err, -EINVAL, "the relayed result has no \"streams\" array");
	}
	gp = d->goodput_bps;
	mc = (uint32_t)d->client.mtu;
	ma = (uint32_t)d->agent.mtu;
	in.ip_version = d->ip_version;
	in.proto = d->udp ? BC_L4_UDP : BC_L4_TCP;
	in.tcp_timestamps = d->tcp_timestamps;
	in.udp_payload = d->udp ? (uint32_t)d->length : 0;
	/* TCP's MSS and what both ends can carry: the smaller MTU */
	in.mtu = mc && ma ? (mc < ma ? mc : ma) : (mc ? mc : ma);
	ce = end_json(&d->client, in, &cc, &ci);
	ae = end_json(&d->agent, in, &ca, &ai);
	/*
	 * The pair's ceiling per direction: what the sender can send (its
	 * egress) and what the receiver can take in (its ingress), the smaller
	 * of those known.  The receiver's egress shaper does not count: it
	 * shapes only the receiver's own sending (a host shaped only when
	 * sending would otherwise hold the pairs towards it to its rate).
	 */
	pc = cc > 0 && ai > 0 ? (cc < ai ? cc : ai) : (cc > 0 ? cc : ai);
	/* an end whose egress the result gave incompletely: unknown, not a default */
	if (d->client.egress_problems || d->agent.egress_problems)
		pc = 0;
	bc_matrix_add_str(pair, "status", "ok");
	if (isnan(gp))
		json_object_object_add(pair, "goodput_bps", NULL);
	else
		bc_matrix_add_dbl(pair, "goodput_bps", gp);
	bc_matrix_add_dbl(pair, "ceiling_bps", pc);
	bc_matrix_add_dbl(pair, "sender_ceiling_bps", cc);
	bc_matrix_add_dbl(pair, "receiver_ceiling_bps", ai);
	if (pc > 0 && !isnan(gp)) {
		bc_matrix_add_dbl(pair, "efficiency", bc_efficiency(gp, pc));
		bc_matrix_add_str(pair, "limited_by", cc > 0 && cc <= pc ? "sender" : "receiver");
	} else {
		json_object_object_add(pair, "efficiency", NULL);
	}
	bc_matrix_add_dbl(pair, "run_ceiling_bps", d->ceiling_bps);
	if (d->udp) {
		bc_matrix_add_i64(pair, "sent_packets", d->sent);
		bc_matrix_add_i64(pair, "received_packets", d->received);
		bc_matrix_add_i64(pair, "lost_packets", d->lost);
	} else {
		bc_matrix_add_i64(pair, "retransmits", d->retransmits);
	}
	json_object_object_add(pair, "cpu_bound",
			       json_object_new_boolean(d->client.cpu_bound || d->agent.cpu_bound));
	json_object_object_add(pair, "notes",
			       d->notes ? json_object_get(d->notes) : json_object_new_array());
	json_object_object_add(pair, "client", ce);
	json_object_object_add(pair, "agent", ae);
	if (d->r.n_problems) {
		/* what the result lacked: the pair is inconclusive (bc_matrix_analyze) */
		struct json_object *m = json_object_new_array();
		size_t kept = d->r.n_problems < BC_DOC_MAX_PROBLEMS ? d->r.n_problems
								    : BC_DOC_MAX_PROBLEMS;

		for (size_t i = 0; i < kept; i++)
			json_object_array_add(m, json_object_new_string(d->r.problem[i]));
		json_object_object_add(pair, "missing", m);
	}
	free(d);
	return 0;
}

void bc_matrix_probe_add(struct json_object *pair, uint32_t size, struct json_object *result,
			 const char *error)
{
	struct json_object *pm = NULL, *probes = NULL, *p = json_object_new_object();
	struct bc_matrix_run_doc *d = result ? malloc(sizeof(*d)) : NULL;
	char why[2 * BC_DOC_PROBLEM_LEN + 64], text[2 * BC_DOC_PROBLEM_LEN];

	/* the writer finds its own output member */
	if (!json_object_object_get_ex(pair, "pmtu", &pm) || !pm) {
		pm = json_object_new_object();
		json_object_object_add(pm, "probes", json_object_new_array());
		json_object_object_add(pair, "pmtu", pm);
	}
	json_object_object_get_ex(pm, "probes", &probes);
	if (d)
		bc_matrix_run_read(result, true, d);
	bc_matrix_add_i64(p, "size", size);
	bc_matrix_add_i64(p, "payload", (long long)size - (d && d->ip_version == 6 ? 48 : 28));
	if (d && !d->r.n_problems) {
		bc_matrix_add_i64(p, "sent", d->probe_sent);
		bc_matrix_add_i64(p, "received", d->probe_received);
		bc_matrix_add_i64(p, "send_errors", d->probe_send_errors);
		json_object_object_add(p, "carried",
				       json_object_new_boolean(d->probe_received > 0));
	} else if (d) {
		/* an agent's result may hold anything: whether it arrived is unknown */
		json_object_object_add(p, "carried", NULL);
		snprintf(why, sizeof(why), "the probe's result lacks %s",
			 bc_doc_problems_text(&d->r, text, sizeof(text)));
		bc_matrix_add_str(p, "error", why);
	} else {
		json_object_object_add(p, "carried", json_object_new_boolean(false));
		bc_matrix_add_str(p, "error", error ? error : "probe failed");
	}
	if (probes && json_object_is_type(probes, json_type_array))
		json_object_array_add(probes, p);
	else
		json_object_put(p);
	free(d);
}
