// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The scale document's analysis (bondcheck/scale-doc.h): statistics per
 * configuration, comparisons of each configuration against the next larger
 * one and against the smallest, verdict text, findings.  Pure: the document
 * is decoded once by bc_scale_doc_read() (scale-read.c) and reasoned on as
 * typed structs; this file only writes JSON.  The statistics are
 * bondcheck/scale-stats.h.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/findings.h"
#include "bondcheck/ceiling.h"
#include "bondcheck/model.h"
#include "bondcheck/names.h"
#include "bondcheck/scale-doc.h"
#include "bondcheck/scale-stats.h"

#define MAX_CONFIGS BC_SCALE_MAX_CONFIGS

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

static bool has_slave(const struct bc_scale_config_in *c, const char *name)
{
	for (size_t i = 0; i < c->n_slaves; i++)
		if (!strcmp(c->slaves[i], name))
			return true;
	return false;
}

static const char *links_word(long long n)
{
	return n == 1 ? "link" : "links";
}

/* The sentence for one comparison, from its members; its cause appended when set. */
static void cmp_text(const struct bc_scale_cmp_in *c, double margin, char *buf, size_t len)
{
	long long from = c->from_n, to = c->to_n;
	const char *v = c->verdict;
	double s = c->speedup, lo = c->ci_low, hi = c->ci_high;
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
	else if (c->n_zero) {
		app(buf, len, &at, "%lld %s vs %lld: not compared, zero goodput in", to,
		    links_word(to), from);
		for (size_t i = 0; i < c->n_zero_listed; i++)
			app(buf, len, &at, "%s N=%lld run %lld", i ? "," : "",
			    (long long)c->zero[i].n, (long long)c->zero[i].rep);
	} else {
		app(buf, len, &at, "%lld %s vs %lld: not compared, %s", to, links_word(to), from,
		    c->invalid_reason);
	}
	if (c->have_cause && c->cause_text[0])
		app(buf, len, &at, "; cause: %s", c->cause_text);
}

/* Mean of "retransmits" over the runs; NAN without runs. */
static double mean_retrans(const struct bc_scale_config_in *cfg)
{
	double s = 0;

	if (!cfg->n_runs)
		return NAN;
	for (size_t i = 0; i < cfg->n_runs; i++)
		s += cfg->runs[i].retransmits;
	return s / (double)cfg->n_runs;
}

static void zero_runs(const struct bc_scale_config_in *cfg, struct json_object *out,
		      struct bc_scale_cmp_in *t)
{
	for (size_t i = 0; i < cfg->n_runs; i++) {
		struct json_object *z;

		if (cfg->runs[i].goodput_bps > 0)
			continue;
		z = json_object_new_object();
		put(z, "n", json_object_new_int64(cfg->n));
		put(z, "rep", json_object_new_int64(cfg->runs[i].rep));
		json_object_array_add(out, z);
		if (t->n_zero_listed < sizeof(t->zero) / sizeof(t->zero[0])) {
			t->zero[t->n_zero_listed].n = cfg->n;
			t->zero[t->n_zero_listed++].rep = cfg->runs[i].rep;
		}
		t->n_zero++;
	}
}

/*
 * The larger configuration's own ceiling is lower (by more than the
 * margin): the mode's rule caps it, whatever the links do.  balance-rr
 * carries n x its slowest slave and broadcast its slowest (the capacity
 * model, bondcheck/capacity.h), so adding a slower link lowers what the
 * others may carry.  The cause names the added links; a capture run's
 * cause stays in the diagnosis (src/workflow/scale.c diagnose() keeps this
 * one as the comparison's cause).
 */
static void ceiling_cause(struct json_object *c, struct bc_scale_cmp_in *t, double ceil_a,
			  double ceil_b, double margin)
{
	struct json_object *o, *ev;
	char what[128] = "";
	size_t wl = 0;

	if (!(ceil_a > 0 && ceil_b > 0 && ceil_b < ceil_a * (1 - margin)) || !t->n_added)
		return;
	for (size_t i = 0; i < t->n_added; i++)
		app(what, sizeof(what), &wl, "%s%s", i ? ", " : "", t->added[i]);
	t->have_cause = true;
	snprintf(t->cause_kind, sizeof(t->cause_kind), "ceiling");
	snprintf(t->cause_slave, sizeof(t->cause_slave), "%s", t->added[0]);
	snprintf(t->cause_text, sizeof(t->cause_text),
		 "adding %s lowers the bond's own ceiling from %.2f to %.2f Mbit/s: the mode "
		 "holds every slave to the slowest one's rate (balance-rr: n x the slowest)",
		 what, ceil_a / 1e6, ceil_b / 1e6);
	o = json_object_new_object();
	ev = json_object_new_object();
	put(ev, "from_ceiling_bps", num(ceil_a));
	put(ev, "to_ceiling_bps", num(ceil_b));
	put(o, "kind", json_object_new_string("ceiling"));
	put(o, "slave", json_object_new_string(t->added[0]));
	put(o, "capture_link", json_object_new_string(""));
	put(o, "added", json_object_new_boolean(1));
	put(o, "text", json_object_new_string(t->cause_text));
	put(o, "evidence", ev);
	put(c, "cause", o);
}

/*
 * One comparison of @ca against @cb as a new object; *@t gets its typed
 * copy (for the sentence and carry_diagnosis()).  NULL on a statistics error.
 */
static struct json_object *compare(const struct bc_scale_config_in *ca,
				   const struct bc_scale_config_in *cb,
				   const struct bc_scale_sample *sa,
				   const struct bc_scale_sample *sb, double margin,
				   struct bc_scale_cmp_in *t, struct bc_error *err)
{
	struct json_object *c = json_object_new_object(), *added = json_object_new_array(), *z;
	double ceil_a = isfinite(ca->ceiling_bps) ? ca->ceiling_bps : 0,
	       ceil_b = isfinite(cb->ceiling_bps) ? cb->ceiling_bps : 0;
	double added_ceil = ceil_a > 0 && ceil_b > ceil_a ? ceil_b - ceil_a : 0;
	struct bc_scale_cmp r;
	char text[1024];

	memset(t, 0, sizeof(*t));
	if (bc_scale_compare(sa, sb, margin, BC_SCALE_LEVEL, added_ceil, &r, err) < 0) {
		json_object_put(c);
		json_object_put(added);
		return NULL;
	}
	for (size_t i = 0; i < cb->n_slaves; i++) {
		const char *s = cb->slaves[i];

		if (has_slave(ca, s))
			continue;
		json_object_array_add(added, json_object_new_string(s));
		if (t->n_added < BC_SCALE_MAX_NAMES)
			snprintf(t->added[t->n_added++], BC_SCALE_NAME_LEN, "%s", s);
	}
	snprintf(t->protocol, sizeof(t->protocol), "%s", ca->protocol);
	t->from_n = ca->n;
	t->to_n = cb->n;
	t->speedup = r.speedup;
	t->ci_low = r.ci_low;
	t->ci_high = r.ci_high;
	t->p = r.p;
	snprintf(t->verdict, sizeof(t->verdict), "%s", bc_scale_verdict_name(r.verdict));
	if (!r.valid)
		snprintf(t->invalid_reason, sizeof(t->invalid_reason), "%s", r.invalid_reason);
	put(c, "protocol", json_object_new_string(ca->protocol));
	put(c, "from_n", json_object_new_int64(ca->n));
	put(c, "to_n", json_object_new_int64(cb->n));
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
			 (sb->mean_bps - sa->mean_bps) / 1e6, added_ceil / 1e6, (long long)ca->n,
			 100.0 * sa->mean_bps / ceil_a, ceil_a / 1e6, sa->ci_low_bps / 1e6,
			 sa->ci_high_bps / 1e6);
		put(c, "marginal_over_100", json_object_new_string(text));
	}
	if (!strcmp(ca->protocol, "tcp")) {
		put(c, "retransmits_from", num(mean_retrans(ca)));
		put(c, "retransmits_to", num(mean_retrans(cb)));
	}
	put(c, "valid", json_object_new_boolean(r.valid));
	put(c, "invalid_reason", r.valid ? NULL : json_object_new_string(r.invalid_reason));
	z = json_object_new_array();
	zero_runs(ca, z, t);
	zero_runs(cb, z, t);
	put(c, "zero_runs", z);
	put(c, "verdict", json_object_new_string(bc_scale_verdict_name(r.verdict)));
	put(c, "cause", NULL);
	ceiling_cause(c, t, ceil_a, ceil_b, margin);
	cmp_text(t, margin, text, sizeof(text));
	put(c, "text", json_object_new_string(text));
	return c;
}

static const char *const stat_keys[] = {"mean_bps",    "sd_bps",    "geo_mean_bps", "ci_low_bps",
					"ci_high_bps", "zero_runs", "efficiency"};

/* One configuration's statistics into its object; 0 or -EINVAL. */
static int config_stats(const struct bc_scale_config_in *cfg, size_t idx,
			struct bc_scale_sample *s, struct bc_error *err)
{
	size_t n = cfg->n_runs;
	double g[BC_SCALE_MAX_RUNS], ceil = isfinite(cfg->ceiling_bps) ? cfg->ceiling_bps : 0;
	int r;

	if (!n || n > BC_SCALE_MAX_RUNS)
		return bc_error_set(err, -EINVAL,
				    "configs[%zu] (%s N=%lld) has %zu runs; expected 1..%d", idx,
				    cfg->protocol, (long long)cfg->n, n, BC_SCALE_MAX_RUNS);
	if (cfg->rd.n_problems) {
		/* not compared (bc_scale_doc_conclude() says why): no statistics, not even
		 * those of an earlier analysis */
		for (size_t i = 0; i < sizeof(stat_keys) / sizeof(stat_keys[0]); i++)
			json_object_object_del(cfg->node, stat_keys[i]);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		g[i] = cfg->runs[i].goodput_bps;
	r = bc_scale_sample_stats(g, n, BC_SCALE_LEVEL, s, err);
	if (r < 0)
		return r;
	put(cfg->node, "mean_bps", num(s->mean_bps));
	put(cfg->node, "sd_bps", num(s->sd_bps));
	put(cfg->node, "geo_mean_bps", num(s->geo_mean_bps));
	put(cfg->node, "ci_low_bps", num(s->ci_low_bps));
	put(cfg->node, "ci_high_bps", num(s->ci_high_bps));
	put(cfg->node, "zero_runs", json_object_new_int64((int64_t)s->zeros));
	put(cfg->node, "efficiency", num(ceil > 0 ? s->mean_bps / ceil : NAN));
	return 0;
}

static int by_n(const void *a, const void *b)
{
	long long x = (*(const struct bc_scale_config_in *const *)a)->n;
	long long y = (*(const struct bc_scale_config_in *const *)b)->n;

	return (x > y) - (x < y);
}

static const char *const protos[2] = {"tcp", "udp"};

/*
 * Which protocols cannot be compared: those with a configuration that lacks
 * a required member.  A configuration without a known protocol spoils every
 * protocol the document has (it may be either).
 */
static void incomplete_protocols(const struct bc_scale_doc_in *d, bool bad[2])
{
	bool present[2] = {false, false}, unknown = false;

	bad[0] = bad[1] = false;
	for (size_t i = 0; i < d->n_configs; i++) {
		const struct bc_scale_config_in *c = &d->configs[i];

		for (int p = 0; p < 2; p++)
			if (!strcmp(c->protocol, protos[p])) {
				present[p] = true;
				bad[p] |= c->rd.n_problems > 0;
			}
		unknown |= !c->protocol[0];
	}
	if (unknown) {
		bad[0] |= present[0] || !present[1];
		bad[1] |= present[1];
	}
}

/* Keep the diagnosis and cause of an earlier analysis of the same comparison. */
static void carry_diagnosis(const struct bc_scale_doc_in *d, struct json_object *cmps,
			    const struct bc_scale_cmp_in *t)
{
	if (!t)
		return; /* no comparison was made */
	for (size_t i = 0; i < json_object_array_length(cmps); i++) {
		struct json_object *c = json_object_array_get_idx(cmps, i);

		for (size_t k = 0; k < d->n_cmps; k++) {
			const struct bc_scale_cmp_in *o = &d->cmps[k];

			if (strcmp(o->protocol, t[i].protocol) || o->from_n != t[i].from_n ||
			    o->to_n != t[i].to_n)
				continue;
			if (o->diagnosis)
				put(c, "diagnosis", json_object_get(o->diagnosis));
			/* a ceiling cause, from the configurations, is decided anew */
			if (o->cause && !t[i].have_cause)
				put(c, "cause", json_object_get(o->cause));
		}
	}
}

int bc_scale_doc_compare(struct json_object *doc, struct bc_error *err)
{
	struct json_object *cmps = json_object_new_array(), *base = json_object_new_array();
	struct bc_scale_sample *s = NULL;
	struct bc_scale_cmp_in *t = NULL;
	struct bc_scale_doc_in d;
	size_t n, nt = 0;
	bool bad[2];
	int r;

	r = bc_scale_doc_read(doc, &d);
	if (r < 0) {
		r = bc_error_set(err, r, "out of memory");
		goto out;
	}
	n = d.n_configs;
	if (!n || n > MAX_CONFIGS) {
		r = bc_error_set(err, -EINVAL, "the scale document has %zu configs; expected 1..%d",
				 n, MAX_CONFIGS);
		goto out;
	}
	s = calloc(n, sizeof(*s));
	/* at most two comparisons per configuration */
	t = calloc(2 * n, sizeof(*t));
	if (!s || !t) {
		r = bc_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n && !r; i++)
		r = config_stats(&d.configs[i], i, &s[i], err);
	incomplete_protocols(&d, bad);
	for (int p = 0; p < 2 && !r; p++) {
		const struct bc_scale_config_in *sel[MAX_CONFIGS] = {NULL};
		size_t m = 0;

		if (bad[p])
			continue; /* inconclusive: bc_scale_doc_conclude() names the members */
		for (size_t i = 0; i < n; i++)
			if (!strcmp(d.configs[i].protocol, protos[p]))
				sel[m++] = &d.configs[i];
		/* an array of pointers to configurations is sorted */
		qsort(sel, m, sizeof(sel[0]), by_n); // NOLINT(bugprone-sizeof-expression)
		for (size_t i = 0; i + 1 < m && !r; i++) {
			size_t ia = (size_t)(sel[i] - d.configs), ib = (size_t)(sel[i + 1] - d.configs);
			size_t i0 = (size_t)(sel[0] - d.configs);
			struct bc_scale_cmp_in unused;
			struct json_object *c;

			c = compare(sel[i], sel[i + 1], &s[ia], &s[ib], d.margin, &t[nt], err);
			if (!c) {
				r = -EINVAL;
				break;
			}
			json_object_array_add(cmps, c);
			nt++;
			/* the smallest configuration against each larger one */
			c = compare(sel[0], sel[i + 1], &s[i0], &s[ib], d.margin, &unused, err);
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
		free(t);
		bc_scale_doc_in_free(&d);
		json_object_put(cmps);
		json_object_put(base);
		return r;
	}
	carry_diagnosis(&d, cmps, t);
	free(t);
	bc_scale_doc_in_free(&d);
	put(doc, "comparisons", cmps);
	put(doc, "versus_baseline", base);
	return 0;
}

static struct json_object *finding(const struct bc_scale_doc_in *d,
				   const struct bc_scale_cmp_in *c, double margin)
{
	const char *id = c->verdict;
	const struct bc_finding_def *def = bc_findings_lookup(id);
	struct json_object *f = json_object_new_object(), *ev = json_object_new_object();
	struct json_object *added = json_object_new_array();
	char buf[512], what[128] = "";
	size_t at = 0, wl = 0;

	for (size_t i = 0; i < c->n_added; i++) {
		app(what, sizeof(what), &wl, "%s%s", i ? ", " : "", c->added[i]);
		json_object_array_add(added, json_object_new_string(c->added[i]));
	}
	if (!wl)
		app(what, sizeof(what), &wl, "a link");
	put(f, "id", json_object_new_string(id));
	put(f, "severity",
	    json_object_new_string(def ? bc_severity_name(def->severity) : "warning"));
	put(f, "subject", json_object_new_string(d->bond_name[0] ? d->bond_name : "bond"));
	put(ev, "protocol", json_object_new_string(c->protocol));
	put(ev, "from_n", json_object_new_int64(c->from_n));
	put(ev, "to_n", json_object_new_int64(c->to_n));
	put(ev, "added", added);
	snprintf(buf, sizeof(buf), "%.3f", c->speedup);
	put(ev, "speedup", json_object_new_string(buf));
	snprintf(buf, sizeof(buf), "%.3f-%.3f", c->ci_low, c->ci_high);
	put(ev, "ci95", json_object_new_string(buf));
	snprintf(buf, sizeof(buf), "%.3g", c->p);
	put(ev, "p", json_object_new_string(buf));
	if (c->cause) {
		put(ev, "cause", json_object_new_string(c->cause_kind));
		put(ev, "cause_slave", json_object_new_string(c->cause_slave));
		put(ev, "cause_text", json_object_new_string(c->cause_text));
	}
	put(f, "evidence", ev);
	if (!strcmp(id, "scaling-negative"))
		app(buf, sizeof(buf), &at, "adding %s lowered goodput", what);
	else
		app(buf, sizeof(buf), &at,
		    "adding %s did not raise goodput by more than the %.0f %% margin", what,
		    margin * 100);
	if (c->cause && !strcmp(c->cause_kind, "ceiling"))
		app(buf, sizeof(buf), &at, " (%s caps the mode's ceiling: every slave carries "
		    "its rate)", c->cause_slave);
	else if (c->cause)
		app(buf, sizeof(buf), &at, " (the capture shows %s on %s)", c->cause_kind,
		    c->cause_slave);
	if (c->cause && !strcmp(c->cause_kind, "ceiling"))
		app(buf, sizeof(buf), &at,
		    ": balance-rr sends an equal share on every slave, so the slowest sets "
		    "every slave's rate; leave %s out, raise its rate, or use a hash mode "
		    "(802.3ad, balance-xor) in which each slave carries its own ceiling",
		    c->cause_slave);
	else if (!strcmp(id, "scaling-negative"))
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

static const char *status_of(const struct bc_scale_doc_in *d, const bool bad[2])
{
	bool neg = false, inval = false, flat = false;

	for (size_t i = 0; i < d->n_cmps; i++) {
		const char *v = d->cmps[i].verdict;

		if ((bad[0] && !strcmp(d->cmps[i].protocol, "tcp")) ||
		    (bad[1] && !strcmp(d->cmps[i].protocol, "udp")))
			continue;
		neg |= !strcmp(v, "scaling-negative");
		inval |= !strcmp(v, "invalid");
		flat |= !strcmp(v, "scaling-flat");
	}
	return neg	      ? "fail"
	       : inval	      ? "invalid"
	       : flat	      ? "flat"
	       : bad[0] || bad[1] ? "inconclusive"
				  : "pass";
}

int bc_scale_doc_conclude(struct json_object *doc, struct bc_error *err)
{
	struct json_object *findings, *v, *missing = NULL;
	struct bc_scale_doc_in d;
	const char *names[2] = {"TCP", "UDP"};
	char text[4096] = "", line[1024];
	size_t tl = 0;
	bool bad[2];
	int r;

	r = bc_scale_doc_read(doc, &d);
	if (r < 0) {
		bc_scale_doc_in_free(&d);
		return bc_error_set(err, r, "out of memory");
	}
	if (!d.have_comparisons) {
		bc_scale_doc_in_free(&d);
		return bc_error_set(err, -EINVAL,
				    "the scale document has no comparisons; run the comparison "
				    "first (bc_scale_doc_compare)");
	}
	findings = json_object_new_array();
	incomplete_protocols(&d, bad);
	for (size_t i = 0; i < d.n_findings; i++)
		if (strncmp(d.findings[i].id, "scaling-", 8))
			json_object_array_add(findings, json_object_get(d.findings[i].node));
	for (int p = 0; p < 2; p++) {
		const struct bc_scale_cmp_in *last = NULL;
		size_t k = 0;

		if (bad[p]) {
			/* a required member is absent or mistyped: name it, compare nothing */
			if (!missing)
				missing = json_object_new_array();
			app(text, sizeof(text), &tl, "%s%s: inconclusive, the document lacks ",
			    tl ? ". " : "", names[p]);
			for (size_t i = 0, w = 0; i < d.n_configs; i++) {
				const struct bc_scale_config_in *c = &d.configs[i];
				size_t kept = c->rd.n_problems < BC_DOC_MAX_PROBLEMS
						      ? c->rd.n_problems
						      : BC_DOC_MAX_PROBLEMS;

				if (c->protocol[0] && strcmp(c->protocol, protos[p]))
					continue;
				for (size_t j = 0; j < kept; j++, w++) {
					app(text, sizeof(text), &tl, "%s%s", w ? "; " : "",
					    c->rd.problem[j]);
					json_object_array_add(
						missing, json_object_new_string(c->rd.problem[j]));
				}
			}
			continue;
		}
		for (size_t i = 0; i < d.n_cmps; i++) {
			const struct bc_scale_cmp_in *c = &d.cmps[i];

			if (strcmp(c->protocol, protos[p]))
				continue;
			cmp_text(c, d.margin, line, sizeof(line));
			put(c->node, "text", json_object_new_string(line));
			if (!strcmp(c->verdict, "scaling-flat") ||
			    !strcmp(c->verdict, "scaling-negative"))
				json_object_array_add(findings, finding(&d, c, d.margin));
			app(text, sizeof(text), &tl, "%s%s",
			    k	 ? "; "
			    : tl ? ". "
				 : "",
			    k ? "" : names[p]);
			app(text, sizeof(text), &tl, "%s%s", k ? "" : ": ", line);
			k++;
		}
		/* the largest configuration against the smallest, when they are not adjacent */
		for (size_t i = 0; i < d.n_base; i++)
			if (!strcmp(d.base[i].protocol, protos[p]))
				last = &d.base[i];
		if (k > 1 && last && strcmp(last->verdict, "invalid"))
			app(text, sizeof(text), &tl,
			    "; %lld %s against %lld: %.2fx (95 %% CI %.2f-%.2f)",
			    (long long)last->to_n, links_word(last->to_n), (long long)last->from_n,
			    last->speedup, last->ci_low, last->ci_high);
	}
	if (tl && tl < sizeof(text) - 1)
		app(text, sizeof(text), &tl, ".");
	v = json_object_new_object();
	put(v, "status", json_object_new_string(status_of(&d, bad)));
	put(v, "text", json_object_new_string(text));
	if (missing)
		put(v, "missing", missing);
	put(doc, "verdict", v);
	put(doc, "findings", findings);
	bc_scale_doc_in_free(&d);
	return 0;
}

struct json_object *bc_scale_doc_view(struct json_object *doc, const char *protocol)
{
	struct json_object *v, *a = json_object_new_array(), *vd;
	struct bc_scale_doc_in d;
	char text[2048] = "";
	size_t at = 0;
	int pi = strcmp(protocol, "tcp") ? 1 : 0;

	if (bc_scale_doc_read(doc, &d) < 0) {
		bc_scale_doc_in_free(&d);
		json_object_put(a);
		return NULL;
	}
	for (size_t i = 0; i < d.n_configs; i++)
		if (!strcmp(d.configs[i].protocol, protocol))
			json_object_array_add(a, json_object_get(d.configs[i].node));
	if (!json_object_array_length(a)) {
		bc_scale_doc_in_free(&d);
		json_object_put(a);
		return NULL;
	}
	v = json_object_new_object();
	put(v, "protocol", json_object_new_string(protocol));
	put(v, "method", json_object_new_string(d.method));
	put(v, "flows", d.flows >= 0 ? json_object_new_int64(d.flows) : NULL);
	put(v, "configs", a);
	if (d.slave0_ceiling_bps[pi] > 0)
		put(v, "link_ceiling_bps", json_object_new_double(d.slave0_ceiling_bps[pi]));
	for (size_t i = 0; i < d.n_cmps; i++)
		if (!strcmp(d.cmps[i].protocol, protocol))
			app(text, sizeof(text), &at, "%s%s", at ? "; " : "", d.cmps[i].text);
	vd = json_object_new_object();
	put(vd, "text", json_object_new_string(text));
	put(v, "verdict", vd);
	bc_scale_doc_in_free(&d);
	return v;
}
