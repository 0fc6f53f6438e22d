// SPDX-License-Identifier: GPL-2.0-or-later
/* The suite's three verdicts; rules and thresholds in bondcheck/suite-verdict.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/model.h"
#include "bondcheck/names.h"
#include "bondcheck/suite-verdict.h"
#include "bondcheck/units.h"

void bc_suite_facts_init(struct bc_suite_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->mode = -1;
	f->agg_bps = -1;
	f->base_bps = -1;
	f->no_drop_bps = -1;
}

/* A growing sentence. */
struct text {
	char s[1600];
	size_t n;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (t->n >= sizeof(t->s) - 1)
		return;
	va_start(ap, fmt);
	w = vsnprintf(t->s + t->n, sizeof(t->s) - t->n, fmt, ap);
	va_end(ap);
	if (w > 0)
		t->n += (size_t)w < sizeof(t->s) - t->n ? (size_t)w : sizeof(t->s) - 1 - t->n;
}

/* "12.34 Mbit/s", rotating over a few buffers so one printf can use several. */
static const char *rate(double bps)
{
	static char buf[8][32];
	static unsigned i;
	char *b = buf[i++ % 8];

	return bc_format_rate(bps, b, 32);
}

static struct json_object *num_or_null(double v, bool known)
{
	return known ? json_object_new_double(v) : NULL;
}

static bool hash_mode(int mode)
{
	return mode == BC_MODE_XOR || mode == BC_MODE_8023AD || mode == BC_MODE_TLB ||
	       mode == BC_MODE_ALB;
}

static struct json_object *verdict(const char *status, const struct text *t)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "status", json_object_new_string(status));
	json_object_object_add(o, "text", json_object_new_string(t->s));
	return o;
}

static const char *cpu_note = " CPU-bound: a CPU was >= 90 % busy during the test, so the "
			      "figures may measure the host, not the bond.";

struct json_object *bc_verdict_aggregation(const struct bc_suite_facts *f)
{
	bool agg = f->agg_bps >= 0, base = f->base_bps > 0;
	bool link = f->link_ceiling_bps > 0, bond = f->bond_ceiling_bps > 0;
	double eff = bond && agg ? f->agg_bps / f->bond_ceiling_bps : 0;
	double speedup = link && agg ? f->agg_bps / f->link_ceiling_bps : 0;
	double speedup_base = base && agg ? f->agg_bps / f->base_bps : 0;
	struct json_object *o = json_object_new_object();

	/* the status and the answer come from the capacity model (suite-answers.c) */
	json_object_object_add(o, "status", json_object_new_string("inconclusive"));
	json_object_object_add(o, "goodput_bps", num_or_null(f->agg_bps, agg));
	json_object_object_add(o, "baseline_bps", num_or_null(f->base_bps, base));
	json_object_object_add(o, "link_ceiling_bps", num_or_null(f->link_ceiling_bps, link));
	json_object_object_add(o, "bond_ceiling_bps", num_or_null(f->bond_ceiling_bps, bond));
	json_object_object_add(o, "rr_cap_bps", num_or_null(f->rr_cap_bps, f->rr_cap_bps > 0));
	json_object_object_add(o, "efficiency", num_or_null(eff, bond && agg));
	json_object_object_add(o, "speedup", num_or_null(speedup, link && agg));
	json_object_object_add(o, "speedup_baseline", num_or_null(speedup_base, base && agg));
	json_object_object_add(o, "flows", json_object_new_int((int)f->flows));
	json_object_object_add(o, "placed", json_object_new_boolean(f->placed));
	json_object_object_add(o, "cpu_bound", json_object_new_boolean(f->agg_cpu_bound));
	json_object_object_add(o, "threshold", json_object_new_double(BC_VERDICT_AGG_PASS));
	return o;
}

struct json_object *bc_verdict_udp_gap(const struct bc_suite_facts *f)
{
	struct text t = {0};
	const char *status = "inconclusive";
	bool ceil = f->udp_ceiling_bps > 0, nd = f->no_drop_bps > 0;
	double ratio = ceil && nd ? f->no_drop_bps / f->udp_ceiling_bps : 0;
	struct json_object *o;

	if (!f->udp_measured) {
		add(&t, "not measured: the over-rate UDP probe did not run.");
		goto out;
	}
	add(&t, "at %s offered, sent %llu datagrams (%s), received %llu (%s)",
	    rate(f->udp_offered_bps), (unsigned long long)f->udp_sent, rate(f->udp_sent_bps),
	    (unsigned long long)f->udp_received, rate(f->udp_received_bps));
	if (f->udp_sent > f->udp_received) {
		add(&t, ": %llu missing", (unsigned long long)(f->udp_sent - f->udp_received));
		if (f->gap_stage && f->gap_finding)
			add(&t, ", %lld of them at %s: %s on %s (host %s; %s)", f->gap_count,
			    f->gap_stage, f->gap_finding, f->gap_link ? f->gap_link : "?",
			    f->gap_host && f->gap_host[0] ? f->gap_host : "?",
			    f->gap_counter && f->gap_counter[0] ? f->gap_counter : "no counter");
		else if (f->gap_stage)
			add(&t, ", the ledger's largest drop (%lld) at %s, on no single link",
			    f->gap_stage_drop, f->gap_stage);
		else
			add(&t, ", not located (no capture ledger)");
	} else {
		add(&t, ": nothing missing");
	}
	if (f->udp_send_errors > 0) {
		add(&t,
		    "; before that, the sender's kernel refused %llu sends (ENOBUFS: a full qdisc "
		    "or socket buffer",
		    (unsigned long long)f->udp_send_errors);
		if (f->refused_counter && f->refused_counter[0])
			add(&t, "; %s", f->refused_counter);
		add(&t, ")");
	}
	add(&t, ". No-drop rate ");
	if (f->no_drop_bps < 0)
		add(&t, "not searched");
	else if (!nd)
		add(&t, "not found: every trial lost datagrams");
	else if (f->no_drop_resolution_bps > 0)
		add(&t, "%s (resolution %s)", rate(f->no_drop_bps),
		    rate(f->no_drop_resolution_bps));
	else if (f->udp_equal_share_bps > 0 && f->no_drop_bps >= 0.99 * f->udp_equal_share_bps)
		add(&t,
		    "%s (all that equal shares can carry: %zu x the slowest slave's UDP "
		    "ceiling),",
		    rate(f->no_drop_bps), f->n_usable);
	else
		add(&t, "at least %s", rate(f->no_drop_bps));
	if (ceil && f->placed && hash_mode(f->mode))
		add(&t,
		    " against %s, what the placed flows can carry (equal rates: %zu x the "
		    "slowest slave's UDP ceiling)",
		    rate(f->udp_ceiling_bps), f->n_usable);
	else if (ceil)
		add(&t, " against the bond's UDP ceiling %s", rate(f->udp_ceiling_bps));
	if (ceil && nd)
		add(&t, " (%.0f %%)", 100 * ratio);
	add(&t, ".");
	if (ceil && f->no_drop_bps >= 0) {
		status = nd && ratio >= BC_VERDICT_UDP_PASS ? "pass" : "fail";
		add(&t, " Pass needs a no-drop rate >= %.0f %% of the ceiling.",
		    100 * BC_VERDICT_UDP_PASS);
	} else if (!ceil) {
		add(&t, " UDP ceiling unknown, so the no-drop rate cannot be judged: give "
			"--link-rate.");
	}
	if (f->udp_cpu_bound) {
		add(&t, "%s", cpu_note);
		if (!strcmp(status, "fail"))
			status = "inconclusive";
	}
out:
	o = verdict(status, &t);
	json_object_object_add(o, "offered_bps", num_or_null(f->udp_offered_bps, f->udp_measured));
	json_object_object_add(o, "sent_packets",
			       f->udp_measured ? json_object_new_int64((int64_t)f->udp_sent)
					       : NULL);
	json_object_object_add(o, "received_packets",
			       f->udp_measured ? json_object_new_int64((int64_t)f->udp_received)
					       : NULL);
	json_object_object_add(o, "sent_bps", num_or_null(f->udp_sent_bps, f->udp_measured));
	json_object_object_add(o, "send_errors",
			       f->udp_measured ? json_object_new_int64((int64_t)f->udp_send_errors)
					       : NULL);
	json_object_object_add(o, "received_bps",
			       num_or_null(f->udp_received_bps, f->udp_measured));
	json_object_object_add(o, "no_drop_rate_bps",
			       num_or_null(f->no_drop_bps, f->no_drop_bps >= 0));
	json_object_object_add(o, "udp_ceiling_bps", num_or_null(f->udp_ceiling_bps, ceil));
	json_object_object_add(o, "stage",
			       f->gap_stage ? json_object_new_string(f->gap_stage) : NULL);
	json_object_object_add(o, "finding",
			       f->gap_finding ? json_object_new_string(f->gap_finding) : NULL);
	json_object_object_add(o, "link", f->gap_link ? json_object_new_string(f->gap_link) : NULL);
	json_object_object_add(o, "host", f->gap_host ? json_object_new_string(f->gap_host) : NULL);
	json_object_object_add(o, "count",
			       f->gap_count > 0 ? json_object_new_int64(f->gap_count) : NULL);
	json_object_object_add(o, "cpu_bound", json_object_new_boolean(f->udp_cpu_bound));
	json_object_object_add(o, "threshold", json_object_new_double(BC_VERDICT_UDP_PASS));
	return o;
}
