// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scale document's analysis (bondcheck/scale-doc.h): statistics per
 * configuration, comparisons of each configuration against the next larger
 * one and against the smallest, verdict text, findings.  Pure: JSON in,
 * JSON out; the statistics are bondcheck/scale-stats.h.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/findings.h"
#include "bondcheck/ceiling.h"
#include "bondcheck/json-get.h"
#include "bondcheck/model.h"
#include "bondcheck/names.h"
#include "bondcheck/scale-doc.h"
#include "bondcheck/scale-stats.h"

#define MAX_CONFIGS 256

static struct json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static void put(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v);
}

/* Append to @buf (size @len, @at bytes used) without overrunning it. */
static void app(char *buf, size_t len, size_t *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void app(char *buf, size_t len, size_t *at, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	va_start(ap, fmt);
	if (*at < len)
		n = vsnprintf(buf + *at, len - *at, fmt, ap);
	va_end(ap);
	if (n > 0)
		*at += (size_t)n;
}

static bool has_slave(struct json_object *slaves, const char *name)
{
	for (size_t i = 0; i < bc_json_len(slaves); i++)
		if (!strcmp(json_object_get_string(json_object_array_get_idx(slaves, i)), name))
			return true;
	return false;
}

static const char *links_word(long long n)
{
	return n == 1 ? "link" : "links";
}

/* The sentence for one comparison, from its members; its cause appended when set. */
static void cmp_text(struct json_object *c, double margin, char *buf, size_t len)
{
	long long from = bc_json_i64(c, "from_n", 0), to = bc_json_i64(c, "to_n", 0);
	const char *v = bc_json_str(c, "verdict");
	double s = bc_json_dbl(c, "speedup", NAN), lo = bc_json_dbl(c, "ci_low", NAN),
	       hi = bc_json_dbl(c, "ci_high", NAN);
	struct json_object *cause = json_object_object_get(c, "cause");
	struct json_object *z = json_object_object_get(c, "zero_runs");
	size_t at = 0;

	buf[0] = '\0';
	if (!strcmp(v, "gain"))
		app(buf, len, &at, "%lld %s beat %lld by %.2fx (95 %% CI %.2f-%.2f)", to,
		    links_word(to), from, s, lo, hi);
	else if (!strcmp(v, "scaling-negative"))
		app(buf, len, &at,
		    "%lld %s are worse than %lld: %.2fx (95 %% CI %.2f-%.2f), scaling-negative", to,
		    links_word(to), from, s, lo, hi);
	else if (!strcmp(v, "scaling-flat"))
		app(buf, len, &at,
		    "%lld %s give no significant gain over %lld (more than the %.0f %% "
		    "margin): %.2fx (95 %% CI %.2f-%.2f), scaling-flat",
		    to, links_word(to), from, margin * 100, s, lo, hi);
	else if (bc_json_len(z)) {
		app(buf, len, &at, "%lld %s vs %lld: not compared, zero goodput in", to,
		    links_word(to), from);
		for (size_t i = 0; i < bc_json_len(z); i++)
			app(buf, len, &at, "%s N=%lld run %lld", i ? "," : "",
			    bc_json_i64(json_object_array_get_idx(z, i), "n", 0),
			    bc_json_i64(json_object_array_get_idx(z, i), "rep", 0));
	} else {
		app(buf, len, &at, "%lld %s vs %lld: not compared, %s", to, links_word(to), from,
		    bc_json_str(c, "invalid_reason"));
	}
	if (cause && bc_json_str(cause, "text")[0])
		app(buf, len, &at, "; cause: %s", bc_json_str(cause, "text"));
}

/* Mean of "retransmits" over the runs; NAN without runs. */
static double mean_retrans(struct json_object *cfg)
{
	struct json_object *runs = json_object_object_get(cfg, "runs");
	double s = 0;

	if (!bc_json_len(runs))
		return NAN;
	for (size_t i = 0; i < bc_json_len(runs); i++)
		s += (double)bc_json_i64(json_object_array_get_idx(runs, i), "retransmits", 0);
	return s / (double)bc_json_len(runs);
}

static void zero_runs(struct json_object *cfg, struct json_object *out)
{
	struct json_object *runs = json_object_object_get(cfg, "runs");

	for (size_t i = 0; i < bc_json_len(runs); i++) {
		struct json_object *r = json_object_array_get_idx(runs, i), *z;

		if (bc_json_dbl(r, "goodput_bps", 0) > 0)
			continue;
		z = json_object_new_object();
		put(z, "n", json_object_new_int64(bc_json_i64(cfg, "n", 0)));
		put(z, "rep", json_object_new_int64(bc_json_i64(r, "rep", (long long)i + 1)));
		json_object_array_add(out, z);
	}
}

static struct json_object *compare(struct json_object *ca, struct json_object *cb,
				   const struct bc_scale_sample *sa,
				   const struct bc_scale_sample *sb, double margin,
				   struct bc_error *err)
{
	struct json_object *c = json_object_new_object(), *added = json_object_new_array(), *z;
	struct json_object *sl_a = json_object_object_get(ca, "slaves"),
			   *sl_b = json_object_object_get(cb, "slaves");
	double ceil_a = bc_json_dbl(ca, "ceiling_bps", 0),
	       ceil_b = bc_json_dbl(cb, "ceiling_bps", 0);
	double added_ceil = ceil_a > 0 && ceil_b > ceil_a ? ceil_b - ceil_a : 0;
	struct bc_scale_cmp r;
	char text[1024];

	if (bc_scale_compare(sa, sb, margin, BC_SCALE_LEVEL, added_ceil, &r, err) < 0) {
		json_object_put(c);
		json_object_put(added);
		return NULL;
	}
	for (size_t i = 0; i < bc_json_len(sl_b); i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(sl_b, i));

		if (!has_slave(sl_a, s))
			json_object_array_add(added, json_object_new_string(s));
	}
	put(c, "protocol", json_object_new_string(bc_json_str(ca, "protocol")));
	put(c, "from_n", json_object_new_int64(bc_json_i64(ca, "n", 0)));
	put(c, "to_n", json_object_new_int64(bc_json_i64(cb, "n", 0)));
	put(c, "added", added);
	put(c, "added_ceiling_bps", num(added_ceil > 0 ? added_ceil : NAN));
	put(c, "speedup", num(r.speedup));
	put(c, "ci_low", num(r.ci_low));
	put(c, "ci_high", num(r.ci_high));
	put(c, "welch_t", num(r.welch_t));
	put(c, "df", num(r.df));
	put(c, "p", num(r.p));
	put(c, "t_quantile", num(r.t_quantile));
	put(c, "marginal_efficiency", num(r.marginal_efficiency));
	/* gain / added ceiling is not bounded by 1: the smaller configuration's
	 * shortfall from its own ceiling and the runs' spread count in the gain */
	if (r.marginal_efficiency > 1 + BC_EFFICIENCY_TOLERANCE && ceil_a > 0) {
		snprintf(text, sizeof(text),
			 "over 100 %%: the gain %.2f Mbit/s exceeds the added links' ceiling %.2f "
			 "Mbit/s because N=%lld ran at %.0f %% of its own %.2f Mbit/s ceiling (95 "
			 "%% "
			 "CI of its geometric mean %.2f-%.2f Mbit/s): the gain includes that "
			 "shortfall and "
			 "the spread, not only what the added links carried",
			 (sb->mean_bps - sa->mean_bps) / 1e6, added_ceil / 1e6,
			 (long long)bc_json_i64(ca, "n", 0), 100.0 * sa->mean_bps / ceil_a,
			 ceil_a / 1e6, sa->ci_low_bps / 1e6, sa->ci_high_bps / 1e6);
		put(c, "marginal_over_100", json_object_new_string(text));
	}
	if (!strcmp(bc_json_str(ca, "protocol"), "tcp")) {
		put(c, "retransmits_from", num(mean_retrans(ca)));
		put(c, "retransmits_to", num(mean_retrans(cb)));
	}
	put(c, "valid", json_object_new_boolean(r.valid));
	put(c, "invalid_reason", r.valid ? NULL : json_object_new_string(r.invalid_reason));
	z = json_object_new_array();
	zero_runs(ca, z);
	zero_runs(cb, z);
	put(c, "zero_runs", z);
	put(c, "verdict", json_object_new_string(bc_scale_verdict_name(r.verdict)));
	put(c, "cause", NULL);
	cmp_text(c, margin, text, sizeof(text));
	put(c, "text", json_object_new_string(text));
	return c;
}

/* One configuration's statistics into its object; 0 or -EINVAL. */
static int config_stats(struct json_object *cfg, size_t idx, struct bc_scale_sample *s,
			struct bc_error *err)
{
	struct json_object *runs = json_object_object_get(cfg, "runs");
	size_t n = bc_json_len(runs);
	double g[1024], ceil = bc_json_dbl(cfg, "ceiling_bps", 0);
	int r;

	if (!n || n > 1024)
		return bc_error_set(err, -EINVAL,
				    "configs[%zu] (%s N=%lld) has %zu runs; expected 1..1024", idx,
				    bc_json_str(cfg, "protocol"), bc_json_i64(cfg, "n", 0), n);
	for (size_t i = 0; i < n; i++)
		g[i] = bc_json_dbl(json_object_array_get_idx(runs, i), "goodput_bps", NAN);
	r = bc_scale_sample_stats(g, n, BC_SCALE_LEVEL, s, err);
	if (r < 0)
		return r;
	put(cfg, "mean_bps", num(s->mean_bps));
	put(cfg, "sd_bps", num(s->sd_bps));
	put(cfg, "geo_mean_bps", num(s->geo_mean_bps));
	put(cfg, "ci_low_bps", num(s->ci_low_bps));
	put(cfg, "ci_high_bps", num(s->ci_high_bps));
	put(cfg, "zero_runs", json_object_new_int64((int64_t)s->zeros));
	put(cfg, "efficiency", num(ceil > 0 ? s->mean_bps / ceil : NAN));
	return 0;
}

static int by_n(const void *a, const void *b)
{
	long long x = bc_json_i64(*(struct json_object *const *)a, "n", 0);
	long long y = bc_json_i64(*(struct json_object *const *)b, "n", 0);

	return (x > y) - (x < y);
}

/* Keep the diagnosis and cause of an earlier analysis of the same comparison. */
static void carry_diagnosis(struct json_object *old, struct json_object *cmps)
{
	for (size_t i = 0; i < bc_json_len(cmps); i++) {
		struct json_object *c = json_object_array_get_idx(cmps, i);

		for (size_t k = 0; k < bc_json_len(old); k++) {
			struct json_object *o = json_object_array_get_idx(old, k), *v;

			if (strcmp(bc_json_str(o, "protocol"), bc_json_str(c, "protocol")) ||
			    bc_json_i64(o, "from_n", -1) != bc_json_i64(c, "from_n", -2) ||
			    bc_json_i64(o, "to_n", -1) != bc_json_i64(c, "to_n", -2))
				continue;
			if ((v = json_object_object_get(o, "diagnosis")))
				put(c, "diagnosis", json_object_get(v));
			if ((v = json_object_object_get(o, "cause")))
				put(c, "cause", json_object_get(v));
		}
	}
}

int bc_scale_doc_compare(struct json_object *doc, struct bc_error *err)
{
	struct json_object *configs = json_object_object_get(doc, "configs");
	struct json_object *cmps = json_object_new_array(), *base = json_object_new_array();
	struct bc_scale_sample *s = NULL;
	double margin = bc_json_dbl(doc, "margin", BC_SCALE_MARGIN);
	size_t n = bc_json_len(configs);
	const char *protos[2] = {"tcp", "udp"};
	int r = 0;

	if (!n || n > MAX_CONFIGS) {
		r = bc_error_set(err, -EINVAL, "the scale document has %zu configs; expected 1..%d",
				 n, MAX_CONFIGS);
		goto out;
	}
	s = calloc(n, sizeof(*s));
	if (!s) {
		r = bc_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n && !r; i++)
		r = config_stats(json_object_array_get_idx(configs, i), i, &s[i], err);
	for (int p = 0; p < 2 && !r; p++) {
		struct json_object *sel[MAX_CONFIGS] = {NULL};
		size_t m = 0;

		for (size_t i = 0; i < n; i++) {
			struct json_object *c = json_object_array_get_idx(configs, i);

			if (!strcmp(bc_json_str(c, "protocol"), protos[p]))
				sel[m++] = c;
		}
		qsort(sel, m, sizeof(struct json_object *), by_n);
		for (size_t i = 0; i + 1 < m && !r; i++) {
			struct json_object *o[2] = {sel[i], sel[i + 1]}, *c;
			size_t ia = 0, ib = 0;

			for (size_t k = 0; k < n; k++) {
				if (json_object_array_get_idx(configs, k) == o[0])
					ia = k;
				if (json_object_array_get_idx(configs, k) == o[1])
					ib = k;
			}
			c = compare(o[0], o[1], &s[ia], &s[ib], margin, err);
			if (!c) {
				r = -EINVAL;
				break;
			}
			json_object_array_add(cmps, c);
			/* the smallest configuration against each larger one */
			for (size_t k = 0; k < n; k++)
				if (json_object_array_get_idx(configs, k) == sel[0])
					ia = k;
			c = compare(sel[0], o[1], &s[ia], &s[ib], margin, err);
			if (!c) {
				r = -EINVAL;
				break;
			}
			json_object_array_add(base, c);
		}
	}
out:
	free(s);
	if (r < 0) {
		json_object_put(cmps);
		json_object_put(base);
		return r;
	}
	carry_diagnosis(json_object_object_get(doc, "comparisons"), cmps);
	put(doc, "comparisons", cmps);
	put(doc, "versus_baseline", base);
	return 0;
}

static struct json_object *finding(struct json_object *doc, struct json_object *c, double margin)
{
	const char *id = bc_json_str(c, "verdict");
	const struct bc_finding_def *d = bc_findings_lookup(id);
	struct json_object *f = json_object_new_object(), *ev = json_object_new_object();
	struct json_object *bond = json_object_object_get(doc, "bond"), *cause, *added;
	char buf[512], what[128] = "";
	size_t at = 0, wl = 0;

	added = json_object_object_get(c, "added");
	for (size_t i = 0; i < bc_json_len(added); i++)
		app(what, sizeof(what), &wl, "%s%s", i ? ", " : "",
		    json_object_get_string(json_object_array_get_idx(added, i)));
	if (!wl)
		app(what, sizeof(what), &wl, "a link");
	put(f, "id", json_object_new_string(id));
	put(f, "severity", json_object_new_string(d ? bc_severity_name(d->severity) : "warning"));
	put(f, "subject",
	    json_object_new_string(bc_json_str(bond, "name")[0] ? bc_json_str(bond, "name")
								: "bond"));
	put(ev, "protocol", json_object_new_string(bc_json_str(c, "protocol")));
	put(ev, "from_n", json_object_new_int64(bc_json_i64(c, "from_n", 0)));
	put(ev, "to_n", json_object_new_int64(bc_json_i64(c, "to_n", 0)));
	put(ev, "added", json_object_get(added));
	snprintf(buf, sizeof(buf), "%.3f", bc_json_dbl(c, "speedup", NAN));
	put(ev, "speedup", json_object_new_string(buf));
	snprintf(buf, sizeof(buf), "%.3f-%.3f", bc_json_dbl(c, "ci_low", NAN),
		 bc_json_dbl(c, "ci_high", NAN));
	put(ev, "ci95", json_object_new_string(buf));
	snprintf(buf, sizeof(buf), "%.3g", bc_json_dbl(c, "p", NAN));
	put(ev, "p", json_object_new_string(buf));
	cause = json_object_object_get(c, "cause");
	if (cause) {
		put(ev, "cause", json_object_new_string(bc_json_str(cause, "kind")));
		put(ev, "cause_slave", json_object_new_string(bc_json_str(cause, "slave")));
		put(ev, "cause_text", json_object_new_string(bc_json_str(cause, "text")));
	}
	put(f, "evidence", ev);
	if (!strcmp(id, "scaling-negative"))
		app(buf, sizeof(buf), &at, "adding %s lowered goodput", what);
	else
		app(buf, sizeof(buf), &at,
		    "adding %s did not raise goodput by more than the %.0f %% margin", what,
		    margin * 100);
	if (cause)
		app(buf, sizeof(buf), &at, " (the capture shows %s on %s)",
		    bc_json_str(cause, "kind"), bc_json_str(cause, "slave"));
	if (!strcmp(id, "scaling-negative"))
		app(buf, sizeof(buf), &at,
		    ": fix that link or leave it out; with balance-rr and TCP, reordering "
		    "across links can cost more than a link adds (raise "
		    "net.ipv4.tcp_reordering or use a hash mode with placed flows)");
	else
		app(buf, sizeof(buf), &at,
		    ": check that the flows reach the added link (placement, active "
		    "aggregator), that the far end can take more, and that no host is "
		    "CPU-bound");
	put(f, "advice", json_object_new_string(buf));
	return f;
}

static const char *status_of(struct json_object *cmps)
{
	bool neg = false, inval = false, flat = false;

	for (size_t i = 0; i < bc_json_len(cmps); i++) {
		const char *v = bc_json_str(json_object_array_get_idx(cmps, i), "verdict");

		neg |= !strcmp(v, "scaling-negative");
		inval |= !strcmp(v, "invalid");
		flat |= !strcmp(v, "scaling-flat");
	}
	return neg ? "fail" : inval ? "invalid" : flat ? "flat" : "pass";
}

int bc_scale_doc_conclude(struct json_object *doc, struct bc_error *err)
{
	struct json_object *cmps = json_object_object_get(doc, "comparisons");
	struct json_object *base = json_object_object_get(doc, "versus_baseline");
	struct json_object *old = json_object_object_get(doc, "findings");
	struct json_object *findings = json_object_new_array(), *v;
	double margin = bc_json_dbl(doc, "margin", BC_SCALE_MARGIN);
	const char *protos[2] = {"tcp", "udp"}, *names[2] = {"TCP", "UDP"};
	char text[4096] = "", line[1024];
	size_t tl = 0;

	if (!cmps || !json_object_is_type(cmps, json_type_array)) {
		json_object_put(findings);
		return bc_error_set(err, -EINVAL,
				    "the scale document has no comparisons; run the comparison "
				    "first (bc_scale_doc_compare)");
	}
	for (size_t i = 0; i < bc_json_len(old); i++) {
		struct json_object *f = json_object_array_get_idx(old, i);

		if (strncmp(bc_json_str(f, "id"), "scaling-", 8))
			json_object_array_add(findings, json_object_get(f));
	}
	for (int p = 0; p < 2; p++) {
		struct json_object *last = NULL;
		size_t k = 0;

		for (size_t i = 0; i < bc_json_len(cmps); i++) {
			struct json_object *c = json_object_array_get_idx(cmps, i);
			const char *vd = bc_json_str(c, "verdict");

			if (strcmp(bc_json_str(c, "protocol"), protos[p]))
				continue;
			cmp_text(c, margin, line, sizeof(line));
			put(c, "text", json_object_new_string(line));
			if (!strcmp(vd, "scaling-flat") || !strcmp(vd, "scaling-negative"))
				json_object_array_add(findings, finding(doc, c, margin));
			app(text, sizeof(text), &tl, "%s%s",
			    k	 ? "; "
			    : tl ? ". "
				 : "",
			    k ? "" : names[p]);
			app(text, sizeof(text), &tl, "%s%s", k ? "" : ": ", line);
			k++;
		}
		/* the largest configuration against the smallest, when they are not adjacent */
		for (size_t i = 0; i < bc_json_len(base); i++) {
			struct json_object *c = json_object_array_get_idx(base, i);

			if (!strcmp(bc_json_str(c, "protocol"), protos[p]))
				last = c;
		}
		if (k > 1 && last && strcmp(bc_json_str(last, "verdict"), "invalid"))
			app(text, sizeof(text), &tl,
			    "; %lld %s against %lld: %.2fx (95 %% CI %.2f-%.2f)",
			    bc_json_i64(last, "to_n", 0), links_word(bc_json_i64(last, "to_n", 0)),
			    bc_json_i64(last, "from_n", 0), bc_json_dbl(last, "speedup", NAN),
			    bc_json_dbl(last, "ci_low", NAN), bc_json_dbl(last, "ci_high", NAN));
	}
	if (tl && tl < sizeof(text) - 1)
		app(text, sizeof(text), &tl, ".");
	v = json_object_new_object();
	put(v, "status", json_object_new_string(status_of(cmps)));
	put(v, "text", json_object_new_string(text));
	put(doc, "verdict", v);
	put(doc, "findings", findings);
	return 0;
}

struct json_object *bc_scale_doc_view(struct json_object *doc, const char *protocol)
{
	struct json_object *cfgs = json_object_object_get(doc, "configs");
	struct json_object *cmps = json_object_object_get(doc, "comparisons");
	struct json_object *slaves = json_object_object_get(doc, "slaves");
	struct json_object *v, *a = json_object_new_array(), *vd;
	char text[2048] = "", key[32];
	size_t at = 0;

	for (size_t i = 0; i < bc_json_len(cfgs); i++) {
		struct json_object *c = json_object_array_get_idx(cfgs, i);

		if (!strcmp(bc_json_str(c, "protocol"), protocol))
			json_object_array_add(a, json_object_get(c));
	}
	if (!bc_json_len(a)) {
		json_object_put(a);
		return NULL;
	}
	v = json_object_new_object();
	put(v, "protocol", json_object_new_string(protocol));
	put(v, "method", json_object_new_string(bc_json_str(doc, "method")));
	put(v, "flows", json_object_new_int64(bc_json_i64(doc, "flows", 0)));
	put(v, "configs", a);
	snprintf(key, sizeof(key), "%s_ceiling_bps", protocol);
	if (bc_json_dbl(json_object_array_get_idx(slaves, 0), key, 0) > 0)
		put(v, "link_ceiling_bps",
		    json_object_new_double(
			    bc_json_dbl(json_object_array_get_idx(slaves, 0), key, 0)));
	for (size_t i = 0; i < bc_json_len(cmps); i++) {
		struct json_object *c = json_object_array_get_idx(cmps, i);

		if (!strcmp(bc_json_str(c, "protocol"), protocol))
			app(text, sizeof(text), &at, "%s%s", at ? "; " : "",
			    bc_json_str(c, "text"));
	}
	vd = json_object_new_object();
	put(vd, "text", json_object_new_string(text));
	put(v, "verdict", vd);
	return v;
}
