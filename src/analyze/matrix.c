// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The pure part of `bondcheck matrix`: the schedule of ordered pairs, each
 * pair's figures from its relayed run result, the path MTU verdicts and the
 * per-host findings (bondcheck/matrix.h, docs/matrix.md).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/ceiling.h"
#include "bondcheck/findings.h"
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

/* --- analysis -------------------------------------------------------------------------- */

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

struct fctx {
	struct json_object *lists[3]; /* by severity: info, warning, error */
};

static struct json_object *finding(struct fctx *f, const char *id, const char *subject,
				   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static struct json_object *finding(struct fctx *f, const char *id, const char *subject,
				   const char *fmt, ...)
{
	const struct bc_finding_def *d = bc_findings_lookup(id);
	struct json_object *o = json_object_new_object();
	char buf[768];
	va_list ap;
	int sev = d ? (int)d->severity : BC_SEV_ERROR;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	add_str(o, "id", id);
	add_str(o, "severity", bc_severity_name(sev));
	add_str(o, "subject", subject);
	json_object_object_add(o, "evidence", json_object_new_object());
	add_str(o, "advice", buf);
	json_object_array_add(f->lists[sev], o);
	return o;
}

static void ev(struct json_object *f, const char *k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void ev(struct json_object *f, const char *k, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	add_str(get(f, "evidence"), k, buf);
}

static bool pair_ok(struct json_object *p)
{
	return !strcmp(bc_json_str(p, "status"), "ok");
}

static const char *host_name(struct json_object *hosts, long long i)
{
	return bc_json_str(json_object_array_get_idx(hosts, (size_t)i), "name");
}

/* pmtu.status and largest_carried of one pair. */
static void pmtu_status(struct json_object *p)
{
	struct json_object *pm = get(p, "pmtu"), *probes = get(pm, "probes");
	uint32_t mf = (uint32_t)bc_json_i64(get(p, "client"), "mtu", 0);
	uint32_t mt = (uint32_t)bc_json_i64(get(p, "agent"), "mtu", 0);
	uint32_t lo = mf < mt ? mf : mt;
	long long largest = 0;
	const char *st = "ok";

	if (!pm)
		return;
	if (!bc_json_len(probes))
		st = "not-run";
	for (size_t i = 0; i < bc_json_len(probes); i++) {
		struct json_object *pr = json_object_array_get_idx(probes, i);
		long long size = bc_json_i64(pr, "size", 0);

		if (json_object_get_boolean(get(pr, "carried"))) {
			if (size > largest)
				largest = size;
		} else if (size <= lo) {
			st = "blackhole";
		} else if (strcmp(st, "blackhole")) {
			st = "mismatch";
		}
	}
	add_str(pm, "status", st);
	add_i64(pm, "largest_carried", largest);
}

/* Matrix arrays (row = sender) of one pair member; null where no value. */
static struct json_object *grid(struct json_object *pairs, size_t n, const char *member)
{
	struct json_object *rows = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		struct json_object *row = json_object_new_array();

		for (size_t j = 0; j < n; j++)
			json_object_array_add(row, NULL);
		json_object_array_add(rows, row);
	}
	for (size_t k = 0; k < bc_json_len(pairs); k++) {
		struct json_object *p = json_object_array_get_idx(pairs, k), *v;
		long long f = bc_json_i64(p, "from_index", -1), t = bc_json_i64(p, "to_index", -1);

		if (!pair_ok(p) || f < 0 || t < 0 || (size_t)f >= n || (size_t)t >= n)
			continue;
		v = get(p, member);
		if (v)
			json_object_array_put_idx(json_object_array_get_idx(rows, (size_t)f),
						  (size_t)t, json_object_get(v));
	}
	return rows;
}

static void host_summaries(struct json_object *hosts, struct json_object *pairs)
{
	for (size_t h = 0; h < bc_json_len(hosts); h++) {
		struct json_object *ho = json_object_array_get_idx(hosts, h);

		for (int pass = 0; pass < 2; pass++) {
			bool done = false;

			for (size_t k = 0; k < bc_json_len(pairs) && !done; k++) {
				struct json_object *p = json_object_array_get_idx(pairs, k), *e;

				if (!pair_ok(p) || bc_json_i64(p, pass ? "to_index" : "from_index",
							       -1) != (long long)h)
					continue;
				e = get(p, pass ? "agent" : "client");
				add_str(ho, "interface", bc_json_str(e, "interface"));
				add_i64(ho, "mtu", bc_json_i64(e, "mtu", 0));
				add_dbl(ho, "link_rate_bps", bc_json_dbl(e, "link_rate_bps", 0));
				add_str(ho, "rate_source", bc_json_str(e, "rate_source"));
				add_dbl(ho, "link_ceiling_bps", bc_json_dbl(e, "ceiling_bps", 0));
				done = true;
			}
			if (done)
				break;
		}
	}
}

static void find_unreachable(struct fctx *f, struct json_object *hosts, struct json_object *pairs)
{
	for (size_t h = 0; h < bc_json_len(hosts); h++) {
		struct json_object *ho = json_object_array_get_idx(hosts, h), *o;
		const char *st = bc_json_str(ho, "status");
		size_t skipped = 0;

		if (!strcmp(st, "ok"))
			continue;
		for (size_t k = 0; k < bc_json_len(pairs); k++) {
			struct json_object *p = json_object_array_get_idx(pairs, k);

			if (!strcmp(bc_json_str(p, "status"), "skipped") &&
			    (bc_json_i64(p, "from_index", -1) == (long long)h ||
			     bc_json_i64(p, "to_index", -1) == (long long)h))
				skipped++;
		}
		o = finding(f, "host-unreachable", bc_json_str(ho, "name"),
			    "the controller could not use %s (%s): %s; its %zu pairs were skipped, "
			    "the rest of the matrix ran",
			    bc_json_str(ho, "name"), st, bc_json_str(ho, "error"), skipped);
		ev(o, "status", "%s", st);
		ev(o, "error", "%s", bc_json_str(ho, "error"));
		ev(o, "pairs_skipped", "%zu", skipped);
	}
}

static void find_failed(struct fctx *f, struct json_object *pairs)
{
	for (size_t k = 0; k < bc_json_len(pairs); k++) {
		struct json_object *p = json_object_array_get_idx(pairs, k), *o;
		char subj[600];

		if (strcmp(bc_json_str(p, "status"), "failed"))
			continue;
		snprintf(subj, sizeof(subj), "%s->%s", bc_json_str(p, "from"),
			 bc_json_str(p, "to"));
		o = finding(f, "pair-failed", subj, "the test from %s to %s failed (%s): %s",
			    bc_json_str(p, "from"), bc_json_str(p, "to"),
			    bc_json_str(get(p, "error"), "code"),
			    bc_json_str(get(p, "error"), "message"));
		ev(o, "code", "%s", bc_json_str(get(p, "error"), "code"));
	}
}

/*
 * host-slow: per host the median metric of its pairs as sender and as
 * receiver against the median of the pairs without it.
 */
static void find_slow(struct fctx *f, struct json_object *hosts, struct json_object *pairs)
{
	size_t np = bc_json_len(pairs), nh = bc_json_len(hosts), with_ceiling = 0, ok = 0;
	double *tx = calloc(np + 1, sizeof(double)), *rx = calloc(np + 1, sizeof(double));
	double *other = calloc(np + 1, sizeof(double));
	bool eff;

	if (!tx || !rx || !other || nh < 3)
		goto out;
	for (size_t k = 0; k < np; k++) {
		struct json_object *p = json_object_array_get_idx(pairs, k);

		if (!pair_ok(p))
			continue;
		ok++;
		with_ceiling += bc_json_dbl(p, "ceiling_bps", 0) > 0;
	}
	eff = ok && with_ceiling == ok;
	for (size_t h = 0; h < nh; h++) {
		size_t nt = 0, nr = 0, no = 0;
		double mt, mr, mo;
		struct json_object *o;
		const char *name = host_name(hosts, (long long)h);

		for (size_t k = 0; k < np; k++) {
			struct json_object *p = json_object_array_get_idx(pairs, k);
			long long a = bc_json_i64(p, "from_index", -1),
				  b = bc_json_i64(p, "to_index", -1);
			double v = bc_json_dbl(p, eff ? "efficiency" : "goodput_bps", 0);

			if (!pair_ok(p))
				continue;
			if (a == (long long)h)
				tx[nt++] = v;
			else if (b == (long long)h)
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
			o = finding(f, "host-slow", name,
				    "%s's pairs are slow: as sender %s, as receiver %s (medians "
				    "%s), while the pairs among the other hosts reach %.1f %s: "
				    "look at %s's link, NIC, driver, cable and switch port",
				    name, stx, srx,
				    eff ? "of efficiency against each pair's ceiling"
					: "of goodput",
				    mo * k, unit, name);
			ev(o, "metric", "%s", eff ? "efficiency" : "goodput_bps");
			if (nt)
				ev(o, "as_sender", "%.4g", mt);
			if (nr)
				ev(o, "as_receiver", "%.4g", mr);
			ev(o, "others", "%.4g", mo);
			ev(o, "ratio", "%.2f", BC_MATRIX_SLOW_RATIO);
		}
	}
out:
	free(tx);
	free(rx);
	free(other);
}

/* host-link-slower: link ceilings (host summaries) below half the others' median. */
static void find_link_slower(struct fctx *f, struct json_object *hosts)
{
	size_t nh = bc_json_len(hosts);
	double *v = calloc(nh + 1, sizeof(double));

	if (!v)
		return;
	for (size_t h = 0; h < nh; h++) {
		struct json_object *ho = json_object_array_get_idx(hosts, h), *o;
		double mine = bc_json_dbl(ho, "link_ceiling_bps", 0), m;
		size_t n = 0;

		if (!(mine > 0))
			continue;
		for (size_t j = 0; j < nh; j++) {
			double x = bc_json_dbl(json_object_array_get_idx(hosts, j),
					       "link_ceiling_bps", 0);

			if (j != h && x > 0)
				v[n++] = x;
		}
		m = median(v, n);
		if (!n || !(mine < BC_MATRIX_LINK_RATIO * m))
			continue;
		o = finding(
			f, "host-link-slower", bc_json_str(ho, "name"),
			"%s's link carries at most %.1f Mbit/s (%s %s, rate from %s), the other "
			"hosts' %.1f Mbit/s (median): every pair with %s is held to its rate",
			bc_json_str(ho, "name"), mine / 1e6, bc_json_str(ho, "interface"),
			bc_json_dbl(ho, "link_rate_bps", 0) > 0 ? "link" : "",
			bc_json_str(ho, "rate_source"), m / 1e6, bc_json_str(ho, "name"));
		ev(o, "link_ceiling_bps", "%.0f", mine);
		ev(o, "others_median_bps", "%.0f", m);
	}
	free(v);
}

/* The most common MTU among the hosts that have one (ties: the smaller). */
static long long common_mtu(struct json_object *hosts)
{
	long long best = 0;
	size_t best_n = 0, nh = bc_json_len(hosts);

	for (size_t h = 0; h < nh; h++) {
		long long m = bc_json_i64(json_object_array_get_idx(hosts, h), "mtu", 0);
		size_t n = 0;

		if (m <= 0)
			continue;
		for (size_t j = 0; j < nh; j++)
			n += bc_json_i64(json_object_array_get_idx(hosts, j), "mtu", 0) == m;
		if (n > best_n || (n == best_n && m < best)) {
			best = m;
			best_n = n;
		}
	}
	return best;
}

static void find_mtu(struct fctx *f, struct json_object *hosts, struct json_object *pairs)
{
	long long mode = common_mtu(hosts);
	size_t nh = bc_json_len(hosts), np = bc_json_len(pairs);

	for (size_t h = 0; h < nh && mode > 0; h++) {
		struct json_object *ho = json_object_array_get_idx(hosts, h), *o;
		long long mine = bc_json_i64(ho, "mtu", 0), largest = 0;
		const char *name = bc_json_str(ho, "name");
		char lost[512] = "", reached[512] = "";
		size_t nl = 0, nr = 0;

		if (mine <= 0 || mine == mode)
			continue;
		/* its own-size DF probes towards each peer */
		for (size_t k = 0; k < np; k++) {
			struct json_object *p = json_object_array_get_idx(pairs, k);
			struct json_object *probes = get(get(p, "pmtu"), "probes");

			if (!pair_ok(p) || bc_json_i64(p, "from_index", -1) != (long long)h)
				continue;
			for (size_t i = 0; i < bc_json_len(probes); i++) {
				struct json_object *pr = json_object_array_get_idx(probes, i);
				bool carried = json_object_get_boolean(get(pr, "carried"));
				char *dst = carried ? reached : lost;
				size_t len = strlen(dst);

				if (carried && bc_json_i64(pr, "size", 0) > largest)
					largest = bc_json_i64(pr, "size", 0);
				if (bc_json_i64(pr, "size", 0) != mine)
					continue;
				snprintf(dst + len, sizeof(lost) - len, "%s%s", len ? ", " : "",
					 bc_json_str(p, "to"));
				*(carried ? &nr : &nl) += 1;
			}
		}
		if (mine > mode && nl)
			o = finding(
				f, "host-mtu-mismatch", name,
				"%s uses MTU %lld, the other hosts %lld; %lld-byte DF probes "
				"from %s were lost towards %s (largest carried %lld): frames "
				"above %lld bytes from %s are dropped on the path, so UDP, "
				"tunnels and anything without TCP's MSS negotiation black-hole; "
				"set MTU %lld on %s, or jumbo frames on every host and switch port",
				name, mine, mode, mine, name, lost, largest, mode, name, mode,
				name);
		else if (mine > mode)
			o = finding(
				f, "host-mtu-mismatch", name,
				"%s uses MTU %lld, the other hosts %lld; its %lld-byte DF probes "
				"reached %s, but the others send at most %lld bytes: set the "
				"same MTU on every host",
				name, mine, mode, mine, nr ? reached : "no peer (not probed)",
				mode);
		else
			o = finding(
				f, "host-mtu-mismatch", name,
				"%s uses MTU %lld, the other hosts %lld: frames larger than %lld "
				"bytes towards %s are dropped or fragmented (TCP adapts its MSS, "
				"UDP and tunnels do not); set the same MTU on every host",
				name, mine, mode, mine, name);
		ev(o, "mtu", "%lld", mine);
		ev(o, "others_mtu", "%lld", mode);
		if (nl)
			ev(o, "probe_lost_to", "%s", lost);
		if (nr)
			ev(o, "probe_reached", "%s", reached);
		ev(o, "largest_carried", "%lld", largest);
	}
}

static void find_blackhole(struct fctx *f, struct json_object *pairs)
{
	for (size_t k = 0; k < bc_json_len(pairs); k++) {
		struct json_object *p = json_object_array_get_idx(pairs, k), *pm = get(p, "pmtu");
		struct json_object *probes = get(pm, "probes"), *o;
		long long mf = bc_json_i64(get(p, "client"), "mtu", 0);
		long long mt = bc_json_i64(get(p, "agent"), "mtu", 0);
		long long lo = mf < mt ? mf : mt, size = 0, sent = 0;
		char subj[600];

		if (!pair_ok(p) || strcmp(bc_json_str(pm, "status"), "blackhole"))
			continue;
		for (size_t i = 0; i < bc_json_len(probes); i++) {
			struct json_object *pr = json_object_array_get_idx(probes, i);

			if (!json_object_get_boolean(get(pr, "carried")) &&
			    bc_json_i64(pr, "size", 0) <= lo && bc_json_i64(pr, "size", 0) > size) {
				size = bc_json_i64(pr, "size", 0);
				sent = bc_json_i64(pr, "sent", 0);
			}
		}
		snprintf(subj, sizeof(subj), "%s->%s", bc_json_str(p, "from"),
			 bc_json_str(p, "to"));
		o = finding(
			f, "path-mtu-blackhole", subj,
			"%s (MTU %lld) and %s (MTU %lld) both take %lld-byte frames, but none of "
			"%lld DF probes of %lld bytes from %s reached %s (largest carried %lld): "
			"a switch port, bridge or router on the path carries less; raise the "
			"path's MTU or lower both hosts'",
			bc_json_str(p, "from"), mf, bc_json_str(p, "to"), mt, size, sent, size,
			bc_json_str(p, "from"), bc_json_str(p, "to"),
			bc_json_i64(pm, "largest_carried", 0));
		ev(o, "size", "%lld", size);
		ev(o, "from_mtu", "%lld", mf);
		ev(o, "to_mtu", "%lld", mt);
		ev(o, "largest_carried", "%lld", bc_json_i64(pm, "largest_carried", 0));
	}
}

static void find_rx_drops(struct fctx *f, struct json_object *hosts, struct json_object *pairs)
{
	for (size_t h = 0; h < bc_json_len(hosts); h++) {
		long long drops = 0, tests = 0, dr = 0, mi = 0, ov = 0;
		const char *ifname = "";
		struct json_object *o;

		for (size_t k = 0; k < bc_json_len(pairs); k++) {
			struct json_object *p = json_object_array_get_idx(pairs, k), *a;

			if (!pair_ok(p) || bc_json_i64(p, "to_index", -1) != (long long)h)
				continue;
			a = get(p, "agent");
			dr += bc_json_i64(a, "rx_dropped", 0);
			mi += bc_json_i64(a, "rx_missed_errors", 0);
			ov += bc_json_i64(a, "rx_over_errors", 0);
			ifname = bc_json_str(a, "interface");
			tests++;
		}
		drops = dr + mi + ov;
		if (drops <= 0)
			continue;
		o = finding(f, "host-rx-drops", host_name(hosts, (long long)h),
			    "%s's %s dropped %lld received frames in the %lld tests it received "
			    "(rx_dropped %lld, rx_missed_errors %lld, rx_over_errors %lld): ring "
			    "or backlog overflow; check ethtool -g/-S and netdev_max_backlog",
			    host_name(hosts, (long long)h), ifname, drops, tests, dr, mi, ov);
		ev(o, "interface", "%s", ifname);
		ev(o, "rx_dropped", "%lld", dr);
		ev(o, "rx_missed_errors", "%lld", mi);
		ev(o, "rx_over_errors", "%lld", ov);
	}
}

int bc_matrix_analyze(struct json_object *doc, struct bc_error *err)
{
	struct json_object *hosts = get(doc, "hosts"), *pairs = get(doc, "pairs"), *m, *names, *all;
	struct fctx f;
	size_t n;

	if (!hosts || !pairs || !json_object_is_type(hosts, json_type_array) ||
	    !json_object_is_type(pairs, json_type_array))
		return bc_error_set(err, -EINVAL,
				    "matrix document without \"hosts\" and \"pairs\"");
	n = bc_json_len(hosts);
	for (size_t k = 0; k < bc_json_len(pairs); k++)
		pmtu_status(json_object_array_get_idx(pairs, k));
	host_summaries(hosts, pairs);
	for (int i = 0; i < 3; i++)
		f.lists[i] = json_object_new_array();
	find_unreachable(&f, hosts, pairs);
	find_failed(&f, pairs);
	find_slow(&f, hosts, pairs);
	find_link_slower(&f, hosts);
	find_mtu(&f, hosts, pairs);
	find_blackhole(&f, pairs);
	find_rx_drops(&f, hosts, pairs);
	all = json_object_new_array();
	for (int i = 2; i >= 0; i--) {
		for (size_t k = 0; k < bc_json_len(f.lists[i]); k++)
			json_object_array_add(
				all, json_object_get(json_object_array_get_idx(f.lists[i], k)));
		json_object_put(f.lists[i]);
	}
	json_object_object_add(doc, "findings", all);
	m = json_object_new_object();
	names = json_object_new_array();
	for (size_t h = 0; h < n; h++)
		json_object_array_add(names,
				      json_object_new_string(host_name(hosts, (long long)h)));
	json_object_object_add(m, "hosts", names);
	json_object_object_add(m, "goodput_bps", grid(pairs, n, "goodput_bps"));
	json_object_object_add(m, "ceiling_bps", grid(pairs, n, "ceiling_bps"));
	json_object_object_add(m, "efficiency", grid(pairs, n, "efficiency"));
	{
		/* pmtu.largest_carried, lifted for grid() */
		for (size_t k = 0; k < bc_json_len(pairs); k++) {
			struct json_object *p = json_object_array_get_idx(pairs, k),
					   *pm = get(p, "pmtu");

			if (pm)
				json_object_object_add(p, "pmtu_largest",
						       json_object_get(get(pm, "largest_carried")));
		}
		json_object_object_add(m, "pmtu_largest", grid(pairs, n, "pmtu_largest"));
		for (size_t k = 0; k < bc_json_len(pairs); k++)
			json_object_object_del(json_object_array_get_idx(pairs, k), "pmtu_largest");
	}
	json_object_object_add(doc, "matrix", m);
	return 0;
}
