// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bc_matrix_analyze(): the path MTU verdicts, host summaries, the matrix
 * grids and the per-host findings of a matrix document (bondcheck/matrix.h,
 * docs/matrix.md).  The document is decoded once (matrix-read.c,
 * bondcheck/matrix-doc.h); the reasoning works on those structs, and the
 * results (findings, pmtu.status, host summaries, "matrix") are written
 * through matrix-write.c.  A host or pair with a required member absent or
 * mistyped is not judged from a default: the answers that need it are
 * inconclusive, and a matrix-inconclusive finding names the member.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/ceiling.h"
#include "bondcheck/matrix-doc.h"
#include "bondcheck/matrix.h"

#include "matrix-int.h"

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median of @n values (sorted in place); NAN when n == 0. */
static double median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), cmp_dbl);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* An "ok" pair with every member the analysis reads. */
static bool pair_ok(const struct bc_matrix_pair_doc *p)
{
	return bc_matrix_pair_complete(p);
}

/* A pair that may have run but whose figures are not all known: its answers are inconclusive. */
static bool pair_unknown(const struct bc_matrix_pair_doc *p)
{
	return p->n_missing &&
	       (p->status == BC_MATRIX_PAIR_OK || p->status == BC_MATRIX_PAIR_OTHER);
}

/* --- the answers --------------------------------------------------------------------------- */

/* pmtu.status and largest_carried of one complete pair with probes; written into pair.pmtu. */
static void pmtu_status(const struct bc_matrix_pair_doc *p, const char **status, long long *largest)
{
	int64_t lo = p->client.mtu < p->agent.mtu ? p->client.mtu : p->agent.mtu;
	const char *st = "ok";

	*largest = 0;
	if (!p->n_probes)
		st = "not-run";
	for (size_t i = 0; i < p->n_probes; i++) {
		const struct bc_matrix_probe_doc *pr = &p->probes[i];

		if (pr->carried) {
			if (pr->size > *largest)
				*largest = pr->size;
		} else if (pr->size <= lo) {
			st = "blackhole";
		} else if (strcmp(st, "blackhole")) {
			st = "mismatch";
		}
	}
	*status = st;
}

/*
 * Each host's interface, MTU and link (sending ceiling) from its first
 * complete pair (as sender, else receiver); its receiving ceiling from its
 * first complete pair as receiver.
 */
static void host_summaries(struct bc_matrix_doc *d)
{
	for (size_t h = 0; h < d->n_hosts; h++) {
		struct bc_matrix_host_doc *ho = &d->hosts[h];
		bool found = false;

		for (int pass = 0; pass < 2 && !found; pass++) {
			const struct bc_matrix_end_doc *e = NULL;

			for (size_t k = 0; k < d->n_pairs && !e; k++) {
				const struct bc_matrix_pair_doc *p = &d->pairs[k];

				if (pair_ok(p) &&
				    (pass ? p->to_index : p->from_index) == (int64_t)h)
					e = pass ? &p->agent : &p->client;
			}
			if (!e)
				continue;
			snprintf(ho->interface, sizeof(ho->interface), "%s", e->interface);
			ho->mtu = e->mtu;
			ho->link_rate_bps = e->link_rate_bps;
			snprintf(ho->rate_source, sizeof(ho->rate_source), "%s", e->rate_source);
			ho->link_ceiling_bps = e->ceiling_bps;
			found = true;
		}
		/* the receiving side's ceiling from its first complete pair as receiver */
		ho->ingress_ceiling_bps = NAN;
		for (size_t k = 0; k < d->n_pairs && isnan(ho->ingress_ceiling_bps); k++) {
			const struct bc_matrix_pair_doc *p = &d->pairs[k];

			if (pair_ok(p) && p->to_index == (int64_t)h)
				ho->ingress_ceiling_bps = p->agent.ingress_ceiling_bps;
		}
		if (found)
			bc_matrix_host_summary_json(ho);
	}
}

static void find_unreachable(struct bc_matrix_findings *f, const struct bc_matrix_doc *d,
                             struct bc_matrix_verdicts *vs)
{
	for (size_t h = 0; h < d->n_hosts; h++) {
		const struct bc_matrix_host_doc *ho = &d->hosts[h];
		size_t skipped = 0;
		struct bc_matrix_fnd o;

		if (ho->n_missing || !strcmp(ho->status, "ok"))
			continue;
		for (size_t k = 0; k < d->n_pairs; k++) {
			const struct bc_matrix_pair_doc *p = &d->pairs[k];

			if (p->status == BC_MATRIX_PAIR_SKIPPED &&
			    (p->from_index == (int64_t)h || p->to_index == (int64_t)h))
				skipped++;
		}
		o = bc_matrix_finding(
			f, "host-unreachable", ho->name,
			"the controller could not use %s (%s): %s; its %zu pairs were skipped, "
			"the rest of the matrix ran",
			ho->name, ho->status, ho->error, skipped);
		bc_matrix_ev(o, "status", "%s", ho->status);
		bc_matrix_ev(o, "error", "%s", ho->error);
		bc_matrix_ev(o, "pairs_skipped", "%zu", skipped);
		if (bc_matrix_verdict_note(&vs->slow, 3, BC_VERDICT_FAIL, "host-unreachable", ho->name,
					   "")) {
			bc_verdict_add(&vs->slow.v, "status", "%s", ho->status);
			bc_verdict_add(&vs->slow.v, "pairs_skipped", "%zu", skipped);
		}
	}
}

static void find_failed(struct bc_matrix_findings *f, const struct bc_matrix_doc *d)
{
	for (size_t k = 0; k < d->n_pairs; k++) {
		const struct bc_matrix_pair_doc *p = &d->pairs[k];
		char subj[600];
		struct bc_matrix_fnd o;

		if (p->status != BC_MATRIX_PAIR_FAILED || p->n_missing)
			continue;
		snprintf(subj, sizeof(subj), "%s->%s", p->from, p->to);
		o = bc_matrix_finding(f, "pair-failed", subj,
				      "the test from %s to %s failed (%s): %s", p->from, p->to,
				      p->error_code, p->error_message);
		bc_matrix_ev(o, "code", "%s", p->error_code);
	}
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* @n host names, sorted, joined with ", " into @buf (cut at @len). */
static const char *names_join(const char **names, size_t n, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	qsort(names, n, sizeof(*names), cmp_name);
	for (size_t i = 0; i < n && at < len; i++) {
		int w = snprintf(buf + at, len - at, "%s%s", i ? ", " : "", names[i]);

		if (w < 0)
			break;
		at += (size_t)w;
	}
	return buf;
}

/* How a host's median in one direction compares with the others'. */
enum judgement {
	J_NONE, /* no pairs in that direction, or nothing to compare with */
	J_OK,
	J_BORDERLINE,
	J_BAD, /* slow, or lossy */
};

static const char *judgement_name(enum judgement j)
{
	static const char *const n[] = {"not judged", "ok", "borderline", "yes"};

	return n[j];
}

/* host-slow: @ratio of a host's median to the others' (BC_MATRIX_SLOW_*). */
static enum judgement judge_slow(double ratio)
{
	if (isnan(ratio))
		return J_NONE;
	if (ratio < BC_MATRIX_SLOW_RATIO - BC_MATRIX_SLOW_MARGIN)
		return J_BAD;
	if (ratio < BC_MATRIX_SLOW_RATIO + BC_MATRIX_SLOW_MARGIN)
		return J_BORDERLINE;
	return J_OK;
}

/* host-loss: a host's median loss share @m against the others' @mo (BC_MATRIX_LOSS_*). */
static enum judgement judge_loss(double m, double mo)
{
	if (isnan(m) || isnan(mo))
		return J_NONE;
	if (m >= BC_MATRIX_LOSS_SHARE && m >= BC_MATRIX_LOSS_FACTOR * mo)
		return J_BAD;
	if (m >= BC_MATRIX_LOSS_SHARE / 2 && m >= BC_MATRIX_LOSS_FACTOR / 2 * mo)
		return J_BORDERLINE;
	return J_OK;
}

/* "sending", "receiving", or both, of the directions judged @j. */
static const char *directions(enum judgement tx, enum judgement rx, enum judgement j)
{
	if (tx == j && rx == j)
		return "sending and receiving";
	return tx == j ? "sending" : "receiving";
}

/*
 * One host's pairs in both directions and the pairs without it: the values
 * of @d's complete pairs (efficiency when @eff, else goodput).
 */
struct host_split {
	size_t nt, nr, no;
	double *tx, *rx, *other; /* each n_pairs + 1 long */
};

static void split(const struct bc_matrix_doc *d, size_t h, bool eff, struct host_split *s)
{
	s->nt = s->nr = s->no = 0;
	for (size_t k = 0; k < d->n_pairs; k++) {
		const struct bc_matrix_pair_doc *p = &d->pairs[k];
		/* efficiency is null only without a ceiling, and then eff is false */
		double v = eff ? p->efficiency : p->goodput_bps;

		if (!pair_ok(p))
			continue;
		if (p->from_index == (int64_t)h)
			s->tx[s->nt++] = v;
		else if (p->to_index == (int64_t)h)
			s->rx[s->nr++] = v;
		else
			s->other[s->no++] = v;
	}
}

/*
 * host-slow / host-borderline: per host and direction the median metric of
 * its pairs against the median of the pairs without it (BC_MATRIX_SLOW_*).
 * Not judged at all when a pair that may have run lacks its figures (every
 * median needs it).
 */
static void find_slow(struct bc_matrix_findings *f, const struct bc_matrix_doc *d,
                      struct bc_matrix_verdicts *vs)
{
	size_t np = d->n_pairs, nh = d->n_hosts, with_ceiling = 0, ok = 0;
	struct host_split s = {0, 0, 0, calloc(np + 1, sizeof(double)),
			       calloc(np + 1, sizeof(double)), calloc(np + 1, sizeof(double))};
	bool eff;

	if (!s.tx || !s.rx || !s.other || nh < 3)
		goto out;
	for (size_t k = 0; k < np; k++) {
		const struct bc_matrix_pair_doc *p = &d->pairs[k];

		if (pair_unknown(p)) {
			bc_matrix_verdict_note(&vs->slow, 0, BC_VERDICT_INCONCLUSIVE,
					       "missing-input", p->from, "");
			goto out;
		}
		if (!pair_ok(p))
			continue;
		ok++;
		with_ceiling += p->ceiling_bps > 0;
	}
	eff = ok && with_ceiling == ok;
	for (size_t h = 0; h < nh; h++) {
		double mt, mr, mo, rt = NAN, rr = NAN;
		enum judgement jt, jr, worst;
		struct bc_matrix_fnd o;
		const char *name = d->hosts[h].name, *unit = eff ? "%" : "Mbit/s";
		double k = eff ? 100 : 1e-6;
		char stx[96] = "no pairs", srx[96] = "no pairs";

		split(d, h, eff, &s);
		mt = median(s.tx, s.nt);
		mr = median(s.rx, s.nr);
		mo = median(s.other, s.no);
		if (!s.no || !(mo > 0))
			continue;
		if (s.nt)
			rt = mt / mo;
		if (s.nr)
			rr = mr / mo;
		jt = judge_slow(rt);
		jr = judge_slow(rr);
		worst = jt > jr ? jt : jr;
		if (worst < J_BORDERLINE)
			continue;
		if (s.nt)
			snprintf(stx, sizeof(stx), "%.1f %s (%s, ratio %.2f)", mt * k, unit,
				 jt == J_BAD ? "slow" : judgement_name(jt), rt);
		if (s.nr)
			snprintf(srx, sizeof(srx), "%.1f %s (%s, ratio %.2f)", mr * k, unit,
				 jr == J_BAD ? "slow" : judgement_name(jr), rr);
		if (worst == J_BAD)
			o = bc_matrix_finding(
				f, "host-slow", name,
				"%s's pairs are slow when %s: as sender %s, as receiver %s (medians "
				"%s), while the pairs among the other hosts reach %.1f %s (slow "
				"below %.2f of it): look at %s's link, NIC, driver, cable and "
				"switch port on its %s side",
				name, directions(jt, jr, J_BAD), stx, srx,
				eff ? "of efficiency against each pair's ceiling" : "of goodput",
				mo * k, unit, BC_MATRIX_SLOW_RATIO - BC_MATRIX_SLOW_MARGIN, name,
				directions(jt, jr, J_BAD));
		else
			o = bc_matrix_finding(
				f, "host-borderline", name,
				"%s's pairs are near the slow line when %s: as sender %s, as "
				"receiver %s (medians %s), the pairs among the other hosts %.1f %s; "
				"slow below %.2f of it, borderline up to %.2f: not judged slow, "
				"not dropped; re-run with a longer -t and look at the retransmits",
				name, directions(jt, jr, J_BORDERLINE), stx, srx,
				eff ? "of efficiency against each pair's ceiling" : "of goodput",
				mo * k, unit, BC_MATRIX_SLOW_RATIO - BC_MATRIX_SLOW_MARGIN,
				BC_MATRIX_SLOW_RATIO + BC_MATRIX_SLOW_MARGIN);
		bc_matrix_ev(o, "question", "slow");
		bc_matrix_ev(o, "direction", "%s", directions(jt, jr, worst));
		bc_matrix_ev(o, "sending", "%s", judgement_name(jt));
		bc_matrix_ev(o, "receiving", "%s", judgement_name(jr));
		bc_matrix_ev(o, "metric", "%s", eff ? "efficiency" : "goodput_bps");
		bc_matrix_ev(o, "statistic", "median of the host's pairs per direction / median "
					     "of the pairs without it");
		if (s.nt) {
			bc_matrix_ev(o, "as_sender", "%.4g", mt);
			bc_matrix_ev(o, "sender_ratio", "%.3f", rt);
			bc_matrix_ev(o, "pairs_as_sender", "%zu", s.nt);
		}
		if (s.nr) {
			bc_matrix_ev(o, "as_receiver", "%.4g", mr);
			bc_matrix_ev(o, "receiver_ratio", "%.3f", rr);
			bc_matrix_ev(o, "pairs_as_receiver", "%zu", s.nr);
		}
		bc_matrix_ev(o, "others", "%.4g", mo);
		bc_matrix_ev(o, "ratio", "%.2f", BC_MATRIX_SLOW_RATIO);
		bc_matrix_ev(o, "slow_below", "%.2f", BC_MATRIX_SLOW_RATIO - BC_MATRIX_SLOW_MARGIN);
		bc_matrix_ev(o, "borderline_below", "%.2f",
			     BC_MATRIX_SLOW_RATIO + BC_MATRIX_SLOW_MARGIN);
		if (bc_matrix_verdict_note(&vs->slow, worst == J_BAD ? 4 : 2,
					   worst == J_BAD ? BC_VERDICT_FAIL : BC_VERDICT_INCONCLUSIVE,
					   worst == J_BAD ? "host-slow" : "host-borderline", name,
					   directions(jt, jr, worst))) {
			/* the direction at the verdict's level, its worse ratio */
			bool tx = jt == worst && (jr != worst || rt <= rr);
			struct bc_verdict *v = &vs->slow.v;

			bc_verdict_add(v, "direction", "%s", directions(jt, jr, worst));
			bc_verdict_add(v, "ratio", "%.2f", tx ? rt : rr);
			bc_verdict_add(v, "median", "%.1f", (tx ? mt : mr) * k);
			bc_verdict_add(v, "others", "%.1f", mo * k);
			bc_verdict_add(v, "unit", "%s", unit);
			bc_verdict_add(v, "slow_below", "%.2f",
				       BC_MATRIX_SLOW_RATIO - BC_MATRIX_SLOW_MARGIN);
			bc_verdict_add(v, "borderline_below", "%.2f",
				       BC_MATRIX_SLOW_RATIO + BC_MATRIX_SLOW_MARGIN);
			v->headline = tx ? rt : rr;
		}
	}
out:
	free(s.tx);
	free(s.rx);
	free(s.other);
}

/* A ceiling from a summary, 0 when unknown (then it is not compared). */
static double known(double c)
{
	return isnan(c) ? 0 : c;
}

/* Host @h's link ceiling when sending (@ingress false) or receiving. */
static double link_ceiling(const struct bc_matrix_host_doc *ho, bool ingress)
{
	return known(ingress ? ho->ingress_ceiling_bps : ho->link_ceiling_bps);
}

/*
 * The peers of host @h's complete pairs, as receivers (@as_receiver false:
 * the pairs it sends) or as senders, sorted and joined into @buf.
 */
static const char *peers(const struct bc_matrix_doc *d, size_t h, bool as_receiver, char *buf,
			 size_t len)
{
	const char **v = calloc(d->n_pairs + 1, sizeof(*v));
	size_t n = 0;

	buf[0] = '\0';
	if (!v)
		return buf;
	for (size_t k = 0; k < d->n_pairs; k++) {
		const struct bc_matrix_pair_doc *p = &d->pairs[k];

		if (!pair_ok(p))
			continue;
		if (!as_receiver && p->from_index == (int64_t)h)
			v[n++] = p->to;
		else if (as_receiver && p->to_index == (int64_t)h)
			v[n++] = p->from;
	}
	names_join(v, n, buf, len);
	free(v);
	return buf;
}

/*
 * host-link-slower: per direction, a host's link ceiling (host summaries:
 * sending from its egress, receiving from its NIC speed) below
 * BC_MATRIX_LINK_RATIO of the others' median in that direction.
 */
static void find_link_slower(struct bc_matrix_findings *f, const struct bc_matrix_doc *d,
                             struct bc_matrix_verdicts *vs)
{
	size_t nh = d->n_hosts;
	double *v = calloc(nh + 1, sizeof(double));

	if (!v)
		return;
	for (size_t h = 0; h < nh; h++) {
		const struct bc_matrix_host_doc *ho = &d->hosts[h];
		double mine[2], m[2] = {NAN, NAN};
		bool slower[2] = {false, false};
		char held[2][512];
		struct bc_matrix_fnd o;

		for (int dir = 0; dir < 2; dir++) {
			size_t n = 0;

			mine[dir] = link_ceiling(ho, dir);
			if (!(mine[dir] > 0))
				continue;
			for (size_t j = 0; j < nh; j++) {
				double x = link_ceiling(&d->hosts[j], dir);

				if (j != h && x > 0)
					v[n++] = x;
			}
			m[dir] = median(v, n);
			slower[dir] = n && mine[dir] < BC_MATRIX_LINK_RATIO * m[dir];
			peers(d, h, dir, held[dir], sizeof(held[dir]));
		}
		if (slower[0] && slower[1])
			o = bc_matrix_finding(
				f, "host-link-slower", ho->name,
				"%s's link carries at most %.1f Mbit/s sending (%s, rate from %s) "
				"and %.1f Mbit/s receiving, the other hosts' %.1f and %.1f Mbit/s "
				"(medians): the pairs from %s (to %s) and towards it (from %s) are "
				"held to its rate",
				ho->name, mine[0] / 1e6, ho->interface, ho->rate_source,
				mine[1] / 1e6, m[0] / 1e6, m[1] / 1e6, ho->name, held[0], held[1]);
		else if (slower[0])
			o = bc_matrix_finding(
				f, "host-link-slower", ho->name,
				"%s's link carries at most %.1f Mbit/s when sending (%s, rate from "
				"%s), the other hosts' %.1f Mbit/s (median): the pairs from %s (to "
				"%s) are held to its rate; the pairs towards it are not",
				ho->name, mine[0] / 1e6, ho->interface, ho->rate_source, m[0] / 1e6,
				ho->name, held[0]);
		else if (slower[1])
			o = bc_matrix_finding(
				f, "host-link-slower", ho->name,
				"%s's link takes in at most %.1f Mbit/s when receiving (%s), the "
				"other hosts' %.1f Mbit/s (median): the pairs towards %s (from %s) "
				"are held to its rate; the pairs from it are not",
				ho->name, mine[1] / 1e6, ho->interface, m[1] / 1e6, ho->name,
				held[1]);
		else
			continue;
		bc_matrix_ev(o, "direction", "%s",
			     slower[0] && slower[1] ? "sending and receiving"
			     : slower[0]	    ? "sending"
						    : "receiving");
		if (slower[0]) {
			bc_matrix_ev(o, "link_ceiling_bps", "%.0f", mine[0]);
			bc_matrix_ev(o, "others_median_bps", "%.0f", m[0]);
			bc_matrix_ev(o, "held_pairs_to", "%s", held[0]);
		}
		if (slower[1]) {
			bc_matrix_ev(o, "ingress_ceiling_bps", "%.0f", mine[1]);
			bc_matrix_ev(o, "others_ingress_median_bps", "%.0f", m[1]);
			bc_matrix_ev(o, "held_pairs_from", "%s", held[1]);
		}
		if (bc_matrix_verdict_note(&vs->slow, 1, BC_VERDICT_PASS, "host-link-slower",
					   ho->name,
					   slower[0] && slower[1] ? "sending and receiving"
					   : slower[0]		  ? "sending"
								  : "receiving")) {
			int dir = slower[0] ? 0 : 1;

			bc_verdict_add(&vs->slow.v, "direction", "%s",
				       slower[0] && slower[1] ? "sending and receiving"
				       : slower[0]	      ? "sending"
							      : "receiving");
			bc_verdict_add(&vs->slow.v, "ceiling_bps", "%.0f", mine[dir]);
			bc_verdict_add(&vs->slow.v, "others_bps", "%.0f", m[dir]);
		}
	}
	free(v);
}

/*
 * A pair's loss share: UDP lost / sent; TCP retransmits per segment sent,
 * the segments estimated as goodput x duration / 8 / MSS (MSS = the
 * smaller MTU - 52: IPv4 and TCP headers with timestamps) plus the
 * retransmits.  NAN when a figure is unknown.
 */
static double loss_share(const struct bc_matrix_doc *d, const struct bc_matrix_pair_doc *p)
{
	int64_t mtu = p->client.mtu < p->agent.mtu ? p->client.mtu : p->agent.mtu;
	double segs;

	if (d->udp)
		return p->sent_packets > 0 && p->lost_packets >= 0
			       ? (double)p->lost_packets / (double)p->sent_packets
			       : NAN;
	if (p->retransmits < 0 || d->duration_ms <= 0 || mtu <= 52 || isnan(p->goodput_bps))
		return NAN;
	segs = p->goodput_bps * (double)d->duration_ms / 1000 / 8 / (double)(mtu - 52) +
	       (double)p->retransmits;
	return segs > 0 ? (double)p->retransmits / segs : NAN;
}

/* The sender's own send-side drops of a pair (tx_dropped + qdisc_drops); -1 unknown. */
static long long sender_drops(const struct bc_matrix_pair_doc *p)
{
	if (p->client.tx_dropped < 0 || p->client.qdisc_drops < 0)
		return -1;
	return p->client.tx_dropped + p->client.qdisc_drops;
}

/* The receiver's own drops of a pair (rx_dropped + rx_missed_errors + rx_over_errors); -1. */
static long long receiver_drops(const struct bc_matrix_pair_doc *p)
{
	if (p->agent.rx_dropped < 0 || p->agent.rx_missed_errors < 0 || p->agent.rx_over_errors < 0)
		return -1;
	return p->agent.rx_dropped + p->agent.rx_missed_errors + p->agent.rx_over_errors;
}

/*
 * A pair's loss share on the path: its loss share (loss_share()) less what
 * its sender's own queue dropped, counted twice (TCP retransmits more than
 * its queue dropped after a burst of local drops: 1 to 4 times in the
 * netns tests), never below 0.  A sender overfilling its own shaper is TCP
 * finding its bottleneck, not the path losing.  The share as it is when the
 * sender's drops are unknown; NAN when the share is.
 */
static double path_share(const struct bc_matrix_doc *d, const struct bc_matrix_pair_doc *p)
{
	double x = loss_share(d, p);
	long long sd = sender_drops(p), lost = d->udp ? p->lost_packets : p->retransmits;

	if (isnan(x) || sd <= 0 || lost <= 0)
		return x;
	return lost > 2 * sd ? x * (double)(lost - 2 * sd) / (double)lost : 0;
}

/* What find_loss() judges of one host in one direction. */
struct loss_view {
	size_t n, no, nl;
	double m, mo;	    /* medians: the host's pairs, the pairs without it */
	double eff;	    /* median efficiency of the host's pairs; NAN unknown */
	long long count;    /* retransmits or datagrams lost in its pairs */
	long long drops;    /* its own drop counters in that direction; -1 unknown */
	long long other;    /* the other ends' own counters (evidence) */
	size_t own_queue;   /* sending: its pairs in which its own queue dropped */
	enum judgement j;
};

/*
 * One host's loss in one direction (@rx: into it), on the path shares of
 * its pairs (path_share()) against those of every pair without it.  At
 * least 2 pairs are needed: one pair does not make a host lossy.  Sending,
 * the pairs in which its own queue dropped are counted as its own queue's
 * (lv->own_queue) and left out.  @bad_rx
 * (may be NULL): hosts judged lossy when receiving, whose pairs are left
 * out of the judgement of their senders (the loss is theirs).  @v, @o,
 * @eff: scratch (n_pairs + 1), @lossy the peers of its lossy pairs.
 */
static bool loss_of(const struct bc_matrix_doc *d, size_t h, bool rx, const bool *bad_rx,
		    double *v, double *o, double *eff, const char **lossy, struct loss_view *lv)
{
	bool drops_known = true;

	memset(lv, 0, sizeof(*lv));
	for (size_t k = 0; k < d->n_pairs; k++) {
		const struct bc_matrix_pair_doc *p = &d->pairs[k];
		bool mine = (rx ? p->to_index : p->from_index) == (int64_t)h;
		bool without = p->to_index != (int64_t)h && p->from_index != (int64_t)h;
		long long sd = sender_drops(p), rd = receiver_drops(p);
		double x;

		if (!pair_ok(p) || (!mine && !without))
			continue;
		x = path_share(d, p);
		if (isnan(x))
			return false;
		if (!mine) {
			/* the reference: every pair without it, whatever dropped */
			o[lv->no++] = x;
			continue;
		}
		if (rx) {
			if (rd < 0)
				drops_known = false;
			else
				lv->drops += rd;
		} else {
			if (sd < 0)
				drops_known = false;
			else
				lv->drops += sd;
			/* any drop of its own queue: its sending loss is judged as its own */
			if (sd > 0) {
				lv->own_queue++;
				continue;
			}
			if (bad_rx && p->to_index >= 0 && (size_t)p->to_index < d->n_hosts &&
			    bad_rx[p->to_index])
				continue;
			if (rd > 0)
				lv->other += rd;
		}
		if (rx)
			lv->other += sd > 0 ? sd : 0;
		eff[lv->n] = p->efficiency;
		v[lv->n++] = x;
		lv->count += d->udp ? p->lost_packets : p->retransmits;
		if (x >= BC_MATRIX_LOSS_SHARE)
			lossy[lv->nl++] = rx ? p->from : p->to;
	}
	if (!drops_known)
		lv->drops = -1;
	lv->m = median(v, lv->n);
	lv->mo = median(o, lv->no);
	lv->eff = median(eff, lv->n);
	lv->j = lv->n >= 2 && lv->no ? judge_loss(lv->m, lv->mo) : J_NONE;
	return true;
}

/*
 * host-loss / host-borderline: per host and direction the median loss share
 * of its pairs against the median of the pairs without it
 * (BC_MATRIX_LOSS_*), with the mechanism its own counters support.  Into a
 * host whose drop counters (rx_dropped, rx_missed_errors, rx_over_errors)
 * stayed 0, a queue before it overflowed (a switch port or link towards
 * it); with them moving, the host dropped.  Out of a host, judged after
 * the receivers (their pairs left out), the loss on the path after it.  A
 * sender's own queue dropping (a shaper TCP overfills) is TCP finding its
 * bottleneck: reported (own-egress-queue) only when most of its pairs saw
 * it and it cost goodput (their median efficiency below the borderline).
 */
static void find_loss(struct bc_matrix_findings *f, const struct bc_matrix_doc *d,
                      struct bc_matrix_verdicts *vs)
{
	size_t np = d->n_pairs, nh = d->n_hosts;
	double *v = calloc(np + 1, sizeof(double)), *o = calloc(np + 1, sizeof(double));
	double *eff = calloc(np + 1, sizeof(double));
	const char **lossy = calloc(np + 1, sizeof(*lossy));
	bool *bad_rx = calloc(nh + 1, sizeof(bool));

	if (!v || !o || !eff || !lossy || !bad_rx || nh < 3)
		goto out;
	for (size_t k = 0; k < np; k++)
		if (pair_unknown(&d->pairs[k])) {
			bc_matrix_verdict_note(&vs->loss, 0, BC_VERDICT_INCONCLUSIVE,
					       "missing-input", d->pairs[k].from, "");
			goto out;
		}
	for (size_t h = 0; h < nh; h++) {
		struct loss_view lv;

		if (loss_of(d, h, true, NULL, v, o, eff, lossy, &lv))
			bad_rx[h] = lv.j == J_BAD;
	}
	for (int rx = 1; rx >= 0; rx--) {
		for (size_t h = 0; h < nh; h++) {
			const char *name = d->hosts[h].name, *mech;
			const char *unit = d->udp ? "datagrams lost" : "retransmits";
			char list[512];
			struct loss_view lv;
			struct bc_matrix_fnd fo;
			size_t mine = 0;

			if (!loss_of(d, h, rx, rx ? NULL : bad_rx, v, o, eff, lossy, &lv))
				continue;
			for (size_t k = 0; k < np; k++)
				mine += pair_ok(&d->pairs[k]) &&
					d->pairs[k].from_index == (int64_t)h;
			if (!rx && lv.own_queue && 2 * lv.own_queue >= mine && lv.drops > 0) {
				/* its own queue: judged by what it cost */
				double e = NAN;
				size_t ne = 0;

				for (size_t k = 0; k < np; k++) {
					const struct bc_matrix_pair_doc *p = &d->pairs[k];

					if (pair_ok(p) && p->from_index == (int64_t)h)
						eff[ne++] = p->efficiency;
				}
				e = median(eff, ne);
				if (!(e < BC_MATRIX_SLOW_RATIO + BC_MATRIX_SLOW_MARGIN))
					continue;
				lv.j = J_BAD;
				lv.eff = e;
				mech = "own-egress-queue";
			} else if (lv.j < J_BORDERLINE) {
				continue;
			} else if (lv.drops < 0) {
				mech = "unlocated";
			} else if (rx) {
				mech = lv.drops ? "host-rx-drops" : "queue-overflow-before-host";
			} else {
				mech = "queue-overflow-after-host";
			}
			names_join(lossy, lv.nl, list, sizeof(list));
			if (lv.j == J_BAD)
				fo = bc_matrix_finding(
					f, "host-loss", name,
					"loss %s %s: its pairs %s lost %.2f %% (median; %s per "
					"segment sent), the pairs without it %.2f %%; %lld %s in "
					"%zu of its pairs%s%s; %s",
					rx ? "into" : "out of", name, rx ? "towards it" : "from it",
					100 * lv.m, unit, 100 * lv.mo, lv.count, unit, lv.n,
					lv.nl ? (rx ? ", the worst from " : ", the worst towards ") : "",
					list,
					!strcmp(mech, "queue-overflow-before-host")
						? "its own drop counters stayed 0, so a queue before "
						  "it overflowed: its switch port or the link towards "
						  "it drops bursts; check the port's drop counters and "
						  "buffers"
					: !strcmp(mech, "host-rx-drops")
						? "its own interface dropped frames: check its ring "
						  "(ethtool -g/-S) and netdev_max_backlog"
					: !strcmp(mech, "queue-overflow-after-host")
						? "its own send-side drop counters stayed 0, so a "
						  "queue after it overflowed: its switch port or the "
						  "link from it drops bursts"
					: !strcmp(mech, "own-egress-queue")
						? "its own qdisc or driver dropped what it sent and "
						  "it cost goodput: check its qdisc (tc -s qdisc) and "
						  "tx ring"
						: "the drop counters are unknown: the loss is not "
						  "located");
			else
				fo = bc_matrix_finding(
					f, "host-borderline", name,
					"loss %s %s is near the line: its pairs %s lost %.2f %% "
					"(median), the pairs without it %.2f %% (loss from %.1f %% "
					"and %.0f times the others'; borderline from half of each): "
					"not judged lossy, not dropped",
					rx ? "into" : "out of", name, rx ? "towards it" : "from it",
					100 * lv.m, 100 * lv.mo, 100 * BC_MATRIX_LOSS_SHARE,
					BC_MATRIX_LOSS_FACTOR);
			bc_matrix_ev(fo, "question", "loss");
			bc_matrix_ev(fo, "direction", "%s", rx ? "receiving" : "sending");
			bc_matrix_ev(fo, "mechanism", "%s", mech);
			if (strcmp(mech, "own-egress-queue")) {
				bc_matrix_ev(fo, "loss_share", "%.4g", lv.m);
				bc_matrix_ev(fo, "others_loss_share", "%.4g", lv.mo);
				bc_matrix_ev(fo, d->udp ? "lost_packets" : "retransmits", "%lld",
					     lv.count);
				bc_matrix_ev(fo, "pairs", "%zu", lv.n);
			} else {
				bc_matrix_ev(fo, "own_queue_pairs", "%zu", lv.own_queue);
				bc_matrix_ev(fo, "pairs", "%zu", mine);
			}
			if (!isnan(lv.eff))
				bc_matrix_ev(fo, "efficiency", "%.4g", lv.eff);
			if (lv.nl)
				bc_matrix_ev(fo, "lossy_peers", "%s", list);
			if (lv.drops >= 0)
				bc_matrix_ev(fo, rx ? "host_rx_drops" : "host_tx_drops", "%lld",
					     lv.drops);
			bc_matrix_ev(fo, rx ? "senders_tx_drops" : "receivers_rx_drops", "%lld",
				     lv.other);
			bc_matrix_ev(fo, "statistic",
				     "median of the host's pairs' loss shares per direction");
			if (bc_matrix_verdict_note(
				    &vs->loss, lv.j == J_BAD ? 2 : 1,
				    lv.j == J_BAD ? BC_VERDICT_FAIL : BC_VERDICT_INCONCLUSIVE,
				    lv.j == J_BAD ? mech : "host-borderline", name,
				    rx ? "receiving" : "sending")) {
				struct bc_verdict *vv = &vs->loss.v;

				bc_verdict_add(vv, "direction", "%s", rx ? "receiving" : "sending");
				bc_verdict_add(vv, "located", "%s", mech);
				if (strcmp(mech, "own-egress-queue")) {
					bc_verdict_add(vv, "share", "%.2f %%", 100 * lv.m);
					bc_verdict_add(vv, "others_share", "%.2f %%", 100 * lv.mo);
					bc_verdict_add(vv, "count", "%lld", lv.count);
					bc_verdict_add(vv, "unit", "%s", unit);
				}
				if (!isnan(lv.eff))
					bc_verdict_add(vv, "efficiency", "%.0f %%", 100 * lv.eff);
				if (lv.drops >= 0)
					bc_verdict_add(vv, "drops", "%lld", lv.drops);
			}
		}
	}
out:
	free(v);
	free(o);
	free(eff);
	free(lossy);
	free(bad_rx);
}

/*
 * pair-over-ceiling: a pair whose goodput exceeds its ceiling by more than
 * BC_EFFICIENCY_TOLERANCE: the ceiling is wrong for it (a defect of the
 * model or of the rates the agents saw), never a fact about the network.
 */
static void find_over_ceiling(struct bc_matrix_findings *f, const struct bc_matrix_doc *d)
{
	for (size_t k = 0; k < d->n_pairs; k++) {
		const struct bc_matrix_pair_doc *p = &d->pairs[k];
		char subj[600];
		struct bc_matrix_fnd o;

		if (!pair_ok(p) || isnan(p->efficiency) ||
		    !(p->efficiency > 1 + BC_EFFICIENCY_TOLERANCE))
			continue;
		snprintf(subj, sizeof(subj), "%s->%s", p->from, p->to);
		o = bc_matrix_finding(
			f, "pair-over-ceiling", subj,
			"%s to %s carried %.2f Mbit/s, %.1f %% of its ceiling %.2f Mbit/s (over by "
			"more than %.0f %%): the ceiling is wrong for this pair (a rate neither "
			"agent sees, such as a shaper on the path, or a burst allowance); its "
			"efficiency does not judge the hosts",
			p->from, p->to, p->goodput_bps / 1e6, 100 * p->efficiency,
			p->ceiling_bps / 1e6, 100 * BC_EFFICIENCY_TOLERANCE);
		bc_matrix_ev(o, "efficiency", "%.4g", p->efficiency);
		bc_matrix_ev(o, "ceiling_bps", "%.0f", p->ceiling_bps);
		bc_matrix_ev(o, "tolerance", "%.2f", BC_EFFICIENCY_TOLERANCE);
	}
}

/* A host's MTU from its summary, 0 when unknown. */
static long long host_mtu(const struct bc_matrix_host_doc *ho)
{
	return ho->mtu > 0 ? ho->mtu : 0;
}

/* The most common MTU among the hosts that have one (ties: the smaller). */
static long long common_mtu(const struct bc_matrix_doc *d)
{
	long long best = 0;
	size_t best_n = 0, nh = d->n_hosts;

	for (size_t h = 0; h < nh; h++) {
		long long m = host_mtu(&d->hosts[h]);
		size_t n = 0;

		if (m <= 0)
			continue;
		for (size_t j = 0; j < nh; j++)
			n += host_mtu(&d->hosts[j]) == m;
		if (n > best_n || (n == best_n && m < best)) {
			best = m;
			best_n = n;
		}
	}
	return best;
}

/* A pair that may have run from (@to false) or to (@to true) host @h lacks its figures. */
static bool host_unknown(const struct bc_matrix_doc *d, size_t h, bool to)
{
	for (size_t k = 0; k < d->n_pairs; k++) {
		const struct bc_matrix_pair_doc *p = &d->pairs[k];
		int64_t x = to ? p->to_index : p->from_index;

		if (pair_unknown(p) && (x == (int64_t)h || x < 0))
			return true;
	}
	return false;
}

static void find_mtu(struct bc_matrix_findings *f, const struct bc_matrix_doc *d,
                     struct bc_matrix_verdicts *vs)
{
	long long mode = common_mtu(d);
	size_t nh = d->n_hosts, np = d->n_pairs;
	const char **lost_to = calloc(np + 1, sizeof(*lost_to));
	const char **reached_to = calloc(np + 1, sizeof(*reached_to));

	for (size_t h = 0; h < nh && mode > 0; h++) {
		const struct bc_matrix_host_doc *ho = &d->hosts[h];
		long long mine = host_mtu(ho), largest = 0;
		const char *name = ho->name;
		char lost[512] = "", reached[512] = "";
		size_t nl = 0, nr = 0;
		struct bc_matrix_fnd o;

		if (mine <= 0 || mine == mode || host_unknown(d, h, false))
			continue;
		if (!lost_to || !reached_to)
			break;
		/* its own-size DF probes towards each peer */
		for (size_t k = 0; k < np; k++) {
			const struct bc_matrix_pair_doc *p = &d->pairs[k];

			if (!pair_ok(p) || p->from_index != (int64_t)h)
				continue;
			for (size_t i = 0; i < p->n_probes; i++) {
				const struct bc_matrix_probe_doc *pr = &p->probes[i];

				if (pr->carried && pr->size > largest)
					largest = pr->size;
				if (pr->size != mine)
					continue;
				if (pr->carried && nr < np)
					reached_to[nr++] = p->to;
				else if (!pr->carried && nl < np)
					lost_to[nl++] = p->to;
			}
		}
		/* the peer lists sorted, whatever order the rounds ran in */
		names_join(lost_to, nl, lost, sizeof(lost));
		names_join(reached_to, nr, reached, sizeof(reached));
		if (mine > mode && nl)
			o = bc_matrix_finding(
				f, "host-mtu-mismatch", name,
				"%s uses MTU %lld, the other hosts %lld; %lld-byte DF probes "
				"from %s were lost towards %s (largest carried %lld): frames "
				"above %lld bytes from %s are dropped on the path, so UDP, "
				"tunnels and anything without TCP's MSS negotiation black-hole; "
				"set MTU %lld on %s, or jumbo frames on every host and switch port",
				name, mine, mode, mine, name, lost, largest, mode, name, mode,
				name);
		else if (mine > mode)
			o = bc_matrix_finding(
				f, "host-mtu-mismatch", name,
				"%s uses MTU %lld, the other hosts %lld; its %lld-byte DF probes "
				"reached %s, but the others send at most %lld bytes: set the "
				"same MTU on every host",
				name, mine, mode, mine, nr ? reached : "no peer (not probed)",
				mode);
		else
			o = bc_matrix_finding(
				f, "host-mtu-mismatch", name,
				"%s uses MTU %lld, the other hosts %lld: frames larger than %lld "
				"bytes towards %s are dropped or fragmented (TCP adapts its MSS, "
				"UDP and tunnels do not); set the same MTU on every host",
				name, mine, mode, mine, name);
		bc_matrix_ev(o, "mtu", "%lld", mine);
		bc_matrix_ev(o, "others_mtu", "%lld", mode);
		if (nl)
			bc_matrix_ev(o, "probe_lost_to", "%s", lost);
		if (nr)
			bc_matrix_ev(o, "probe_reached", "%s", reached);
		bc_matrix_ev(o, "largest_carried", "%lld", largest);
		if (bc_matrix_verdict_note(&vs->mtu, 1, BC_VERDICT_FAIL, "host-mtu-mismatch", name,
					   "")) {
			bc_verdict_add(&vs->mtu.v, "mtu", "%lld", mine);
			bc_verdict_add(&vs->mtu.v, "others_mtu", "%lld", mode);
			if (nl)
				bc_verdict_add(&vs->mtu.v, "lost_to", "%s", lost);
			bc_verdict_add(&vs->mtu.v, "largest_carried", "%lld", largest);
		}
	}
	free(lost_to);
	free(reached_to);
}

static void find_blackhole(struct bc_matrix_findings *f, const struct bc_matrix_doc *d,
			   const char **status, const long long *largest,
			   struct bc_matrix_verdicts *vs)
{
	for (size_t k = 0; k < d->n_pairs; k++) {
		const struct bc_matrix_pair_doc *p = &d->pairs[k];
		long long mf = p->client.mtu, mt = p->agent.mtu;
		long long lo = mf < mt ? mf : mt, size = 0, sent = 0;
		char subj[600];
		struct bc_matrix_fnd o;

		if (!pair_ok(p) || !status[k] || strcmp(status[k], "blackhole"))
			continue;
		for (size_t i = 0; i < p->n_probes; i++) {
			const struct bc_matrix_probe_doc *pr = &p->probes[i];

			if (!pr->carried && pr->size <= lo && pr->size > size) {
				size = pr->size;
				sent = pr->sent;
			}
		}
		snprintf(subj, sizeof(subj), "%s->%s", p->from, p->to);
		o = bc_matrix_finding(
			f, "path-mtu-blackhole", subj,
			"%s (MTU %lld) and %s (MTU %lld) both take %lld-byte frames, but none of "
			"%lld DF probes of %lld bytes from %s reached %s (largest carried %lld): "
			"a switch port, bridge or router on the path carries less; raise the "
			"path's MTU or lower both hosts'",
			p->from, mf, p->to, mt, size, sent, size, p->from, p->to, largest[k]);
		bc_matrix_ev(o, "size", "%lld", size);
		bc_matrix_ev(o, "from_mtu", "%lld", mf);
		bc_matrix_ev(o, "to_mtu", "%lld", mt);
		bc_matrix_ev(o, "largest_carried", "%lld", largest[k]);
		if (bc_matrix_verdict_note(&vs->mtu, 2, BC_VERDICT_FAIL, "path-mtu-blackhole", subj,
					   "")) {
			bc_verdict_add(&vs->mtu.v, "size", "%lld", size);
			bc_verdict_add(&vs->mtu.v, "largest_carried", "%lld", largest[k]);
		}
	}
}

static void find_rx_drops(struct bc_matrix_findings *f, const struct bc_matrix_doc *d)
{
	for (size_t h = 0; h < d->n_hosts; h++) {
		long long drops = 0, tests = 0, dr = 0, mi = 0, ov = 0;
		const char *ifname = "", *name = d->hosts[h].name;
		struct bc_matrix_fnd o;

		if (host_unknown(d, h, true))
			continue;
		for (size_t k = 0; k < d->n_pairs; k++) {
			const struct bc_matrix_pair_doc *p = &d->pairs[k];

			if (!pair_ok(p) || p->to_index != (int64_t)h)
				continue;
			dr += p->agent.rx_dropped;
			mi += p->agent.rx_missed_errors;
			ov += p->agent.rx_over_errors;
			ifname = p->agent.interface;
			tests++;
		}
		drops = dr + mi + ov;
		if (drops <= 0)
			continue;
		o = bc_matrix_finding(
			f, "host-rx-drops", name,
			"%s's %s dropped %lld received frames in the %lld tests it received "
			"(rx_dropped %lld, rx_missed_errors %lld, rx_over_errors %lld): ring "
			"or backlog overflow; check ethtool -g/-S and netdev_max_backlog",
			name, ifname, drops, tests, dr, mi, ov);
		bc_matrix_ev(o, "interface", "%s", ifname);
		bc_matrix_ev(o, "rx_dropped", "%lld", dr);
		bc_matrix_ev(o, "rx_missed_errors", "%lld", mi);
		bc_matrix_ev(o, "rx_over_errors", "%lld", ov);
	}
}

/*
 * matrix-inconclusive: one per host or pair whose required members are
 * absent or mistyped, naming them and the answers that were not judged.
 */
static void find_inconclusive(struct bc_matrix_findings *f, const struct bc_matrix_doc *d)
{
	char subj[600], what[800];
	struct bc_matrix_fnd o;

	for (size_t h = 0; h < d->n_hosts; h++) {
		const struct bc_matrix_host_doc *ho = &d->hosts[h];

		if (!ho->n_missing)
			continue;
		if (ho->name[0])
			snprintf(subj, sizeof(subj), "%s", ho->name);
		else
			snprintf(subj, sizeof(subj), "hosts[%zu]", h);
		o = bc_matrix_finding(
			f, "matrix-inconclusive", subj,
			"the matrix document's host %s lacks %s: host-unreachable for it is "
			"inconclusive (not judged from a default); repair or re-run the matrix",
			subj, ho->missing);
		bc_matrix_ev(o, "missing", "%s", ho->missing);
		bc_matrix_ev(o, "inconclusive", "host-unreachable");
	}
	for (size_t k = 0; k < d->n_pairs; k++) {
		const struct bc_matrix_pair_doc *p = &d->pairs[k];

		if (!p->n_missing)
			continue;
		if (p->from[0] && p->to[0])
			snprintf(subj, sizeof(subj), "%s->%s", p->from, p->to);
		else
			snprintf(subj, sizeof(subj), "pairs[%zu]", k);
		if (p->status == BC_MATRIX_PAIR_FAILED)
			snprintf(what, sizeof(what), "pair-failed for it");
		else if (p->status == BC_MATRIX_PAIR_SKIPPED)
			snprintf(what, sizeof(what), "the skipped pairs of host-unreachable");
		else
			snprintf(what, sizeof(what),
				 "its figures, host-slow (every host), host-rx-drops of %s, "
				 "host-mtu-mismatch of %s and its path-mtu-blackhole",
				 p->to[0] ? p->to : "its receiver",
				 p->from[0] ? p->from : "its sender");
		o = bc_matrix_finding(
			f, "matrix-inconclusive", subj,
			"the matrix document's pair %s lacks %s: %s are inconclusive (not "
			"judged from a default); repair or re-run the matrix",
			subj, p->missing, what);
		bc_matrix_ev(o, "missing", "%s", p->missing);
		bc_matrix_ev(o, "inconclusive", "%s", what);
	}
}

int bc_matrix_analyze(struct json_object *doc, struct bc_error *err)
{
	struct bc_matrix_doc d;
	const char **status = NULL;
	long long *largest = NULL;
	struct bc_matrix_findings f;
	struct bc_matrix_verdicts vs;
	int r;

	r = bc_matrix_doc_read(doc, &d, err);
	if (r < 0)
		goto out;
	status = calloc(d.n_pairs + 1, sizeof(*status));
	largest = calloc(d.n_pairs + 1, sizeof(*largest));
	if (!status || !largest) {
		r = bc_error_set(err, -ENOMEM, "out of memory for %zu pairs", d.n_pairs);
		goto out;
	}
	for (size_t k = 0; k < d.n_pairs; k++) {
		const struct bc_matrix_pair_doc *p = &d.pairs[k];

		if (!p->pmtu_obj || p->n_missing)
			continue;
		pmtu_status(p, &status[k], &largest[k]);
		bc_matrix_add_str(p->pmtu_obj, "status", status[k]);
		bc_matrix_add_i64(p->pmtu_obj, "largest_carried", largest[k]);
	}
	/* each pair's loss share, for the text and the CSV (null when unknown) */
	for (size_t k = 0; k < d.n_pairs; k++) {
		const struct bc_matrix_pair_doc *p = &d.pairs[k];
		double x = pair_ok(p) ? loss_share(&d, p) : NAN;

		if (pair_ok(p) && p->obj)
			json_object_object_add(p->obj, "loss_share",
					       isnan(x) ? NULL : json_object_new_double(x));
	}
	host_summaries(&d);
	bc_matrix_findings_init(&f);
	bc_matrix_verdicts_init(&vs);
	find_unreachable(&f, &d, &vs);
	find_failed(&f, &d);
	find_slow(&f, &d, &vs);
	find_link_slower(&f, &d, &vs);
	find_loss(&f, &d, &vs);
	find_over_ceiling(&f, &d);
	find_mtu(&f, &d, &vs);
	find_blackhole(&f, &d, status, largest, &vs);
	find_rx_drops(&f, &d);
	find_inconclusive(&f, &d);
	json_object_object_add(doc, "findings", bc_matrix_findings_json(&f));
	/* fewer than 3 hosts: no pairs without a host to compare with */
	if (d.n_hosts < 3) {
		if (vs.slow.v.status == BC_VERDICT_PASS && !vs.slow.v.mechanism[0])
			vs.slow.v.status = BC_VERDICT_NOT_APPLICABLE;
		if (vs.loss.v.status == BC_VERDICT_PASS)
			vs.loss.v.status = BC_VERDICT_NOT_APPLICABLE;
	}
	json_object_object_add(doc, "verdicts", bc_matrix_verdicts_json(&vs));
	json_object_object_add(doc, "matrix", bc_matrix_grids_json(&d, largest));
	r = 0;
out:
	free(status);
	free(largest);
	bc_matrix_doc_free(&d);
	return r;
}
