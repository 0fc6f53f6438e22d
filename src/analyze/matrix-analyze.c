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

/* Each host's interface, MTU and link from its first complete pair (as sender, else receiver). */
static void host_summaries(struct bc_matrix_doc *d)
{
	for (size_t h = 0; h < d->n_hosts; h++) {
		struct bc_matrix_host_doc *ho = &d->hosts[h];

		for (int pass = 0; pass < 2; pass++) {
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
			bc_matrix_host_summary_json(ho);
			break;
		}
	}
}

static void find_unreachable(struct bc_matrix_findings *f, const struct bc_matrix_doc *d)
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

/*
 * host-slow: per host the median metric of its pairs as sender and as
 * receiver against the median of the pairs without it.  Not judged at all
 * when a pair that may have run lacks its figures (every median needs it).
 */
static void find_slow(struct bc_matrix_findings *f, const struct bc_matrix_doc *d)
{
	size_t np = d->n_pairs, nh = d->n_hosts, with_ceiling = 0, ok = 0;
	double *tx = calloc(np + 1, sizeof(double)), *rx = calloc(np + 1, sizeof(double));
	double *other = calloc(np + 1, sizeof(double));
	bool eff;

	if (!tx || !rx || !other || nh < 3)
		goto out;
	for (size_t k = 0; k < np; k++) {
		const struct bc_matrix_pair_doc *p = &d->pairs[k];

		if (pair_unknown(p))
			goto out;
		if (!pair_ok(p))
			continue;
		ok++;
		with_ceiling += p->ceiling_bps > 0;
	}
	eff = ok && with_ceiling == ok;
	for (size_t h = 0; h < nh; h++) {
		size_t nt = 0, nr = 0, no = 0;
		double mt, mr, mo;
		struct bc_matrix_fnd o;
		const char *name = d->hosts[h].name;

		for (size_t k = 0; k < np; k++) {
			const struct bc_matrix_pair_doc *p = &d->pairs[k];
			/* efficiency is null only without a ceiling, and then eff is false */
			double v = eff ? p->efficiency : p->goodput_bps;

			if (!pair_ok(p))
				continue;
			if (p->from_index == (int64_t)h)
				tx[nt++] = v;
			else if (p->to_index == (int64_t)h)
				rx[nr++] = v;
			else
				other[no++] = v;
		}
		mt = median(tx, nt);
		mr = median(rx, nr);
		mo = median(other, no);
		if (!no || !(mo > 0))
			continue;
		if (!(nt && mt < BC_MATRIX_SLOW_RATIO * mo) &&
		    !(nr && mr < BC_MATRIX_SLOW_RATIO * mo))
			continue;
		{
			char stx[80] = "not slow", srx[80] = "not slow";
			const char *unit = eff ? "%" : "Mbit/s";
			double k = eff ? 100 : 1e-6;

			if (nt)
				snprintf(stx, sizeof(stx), "%.1f %s%s", mt * k, unit,
					 mt < BC_MATRIX_SLOW_RATIO * mo ? "" : " (not slow)");
			if (nr)
				snprintf(srx, sizeof(srx), "%.1f %s%s", mr * k, unit,
					 mr < BC_MATRIX_SLOW_RATIO * mo ? "" : " (not slow)");
			o = bc_matrix_finding(
				f, "host-slow", name,
				"%s's pairs are slow: as sender %s, as receiver %s (medians "
				"%s), while the pairs among the other hosts reach %.1f %s: "
				"look at %s's link, NIC, driver, cable and switch port",
				name, stx, srx,
				eff ? "of efficiency against each pair's ceiling" : "of goodput",
				mo * k, unit, name);
			bc_matrix_ev(o, "metric", "%s", eff ? "efficiency" : "goodput_bps");
			if (nt)
				bc_matrix_ev(o, "as_sender", "%.4g", mt);
			if (nr)
				bc_matrix_ev(o, "as_receiver", "%.4g", mr);
			bc_matrix_ev(o, "others", "%.4g", mo);
			bc_matrix_ev(o, "ratio", "%.2f", BC_MATRIX_SLOW_RATIO);
		}
	}
out:
	free(tx);
	free(rx);
	free(other);
}

/* A host's link ceiling from its summary, 0 when unknown (then it is not compared). */
static double link_ceiling(const struct bc_matrix_host_doc *ho)
{
	return isnan(ho->link_ceiling_bps) ? 0 : ho->link_ceiling_bps;
}

/* host-link-slower: link ceilings (host summaries) below half the others' median. */
static void find_link_slower(struct bc_matrix_findings *f, const struct bc_matrix_doc *d)
{
	size_t nh = d->n_hosts;
	double *v = calloc(nh + 1, sizeof(double));

	if (!v)
		return;
	for (size_t h = 0; h < nh; h++) {
		const struct bc_matrix_host_doc *ho = &d->hosts[h];
		double mine = link_ceiling(ho), m;
		size_t n = 0;
		struct bc_matrix_fnd o;

		if (!(mine > 0))
			continue;
		for (size_t j = 0; j < nh; j++) {
			double x = link_ceiling(&d->hosts[j]);

			if (j != h && x > 0)
				v[n++] = x;
		}
		m = median(v, n);
		if (!n || !(mine < BC_MATRIX_LINK_RATIO * m))
			continue;
		o = bc_matrix_finding(
			f, "host-link-slower", ho->name,
			"%s's link carries at most %.1f Mbit/s (%s %s, rate from %s), the other "
			"hosts' %.1f Mbit/s (median): every pair with %s is held to its rate",
			ho->name, mine / 1e6, ho->interface, ho->link_rate_bps > 0 ? "link" : "",
			ho->rate_source, m / 1e6, ho->name);
		bc_matrix_ev(o, "link_ceiling_bps", "%.0f", mine);
		bc_matrix_ev(o, "others_median_bps", "%.0f", m);
	}
	free(v);
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

static void find_mtu(struct bc_matrix_findings *f, const struct bc_matrix_doc *d)
{
	long long mode = common_mtu(d);
	size_t nh = d->n_hosts, np = d->n_pairs;

	for (size_t h = 0; h < nh && mode > 0; h++) {
		const struct bc_matrix_host_doc *ho = &d->hosts[h];
		long long mine = host_mtu(ho), largest = 0;
		const char *name = ho->name;
		char lost[512] = "", reached[512] = "";
		size_t nl = 0, nr = 0;
		struct bc_matrix_fnd o;

		if (mine <= 0 || mine == mode || host_unknown(d, h, false))
			continue;
		/* its own-size DF probes towards each peer */
		for (size_t k = 0; k < np; k++) {
			const struct bc_matrix_pair_doc *p = &d->pairs[k];

			if (!pair_ok(p) || p->from_index != (int64_t)h)
				continue;
			for (size_t i = 0; i < p->n_probes; i++) {
				const struct bc_matrix_probe_doc *pr = &p->probes[i];
				char *dst = pr->carried ? reached : lost;
				size_t len = strlen(dst);

				if (pr->carried && pr->size > largest)
					largest = pr->size;
				if (pr->size != mine)
					continue;
				snprintf(dst + len, sizeof(lost) - len, "%s%s", len ? ", " : "",
					 p->to);
				*(pr->carried ? &nr : &nl) += 1;
			}
		}
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
	}
}

static void find_blackhole(struct bc_matrix_findings *f, const struct bc_matrix_doc *d,
			   const char **status, const long long *largest)
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
	host_summaries(&d);
	bc_matrix_findings_init(&f);
	find_unreachable(&f, &d);
	find_failed(&f, &d);
	find_slow(&f, &d);
	find_link_slower(&f, &d);
	find_mtu(&f, &d);
	find_blackhole(&f, &d, status, largest);
	find_rx_drops(&f, &d);
	find_inconclusive(&f, &d);
	json_object_object_add(doc, "findings", bc_matrix_findings_json(&f));
	json_object_object_add(doc, "matrix", bc_matrix_grids_json(&d, largest));
	r = 0;
out:
	free(status);
	free(largest);
	bc_matrix_doc_free(&d);
	return r;
}
