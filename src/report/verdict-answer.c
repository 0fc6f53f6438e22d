// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A verdict (bondcheck/verdict.h) as one line of the answer block
 * (bondcheck/answer.h): the headline as "A of B unit", the mechanism in a
 * few words, a short next step.  The long sentences stay in verdict-text.c
 * for the Verdicts section; the block must fit 80 columns of text.  Also a
 * verdict back from its JSON, for reports rendered from a saved document.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/answer.h"
#include "bondcheck/units.h"
#include "bondcheck/verdict.h"

/* "4.3 Mbit/s" style: @bps at 3 significant digits, number and unit apart. */
static void short_rate(double bps, char *num, size_t nlen, char *unit, size_t ulen)
{
	char r[32], u[16] = "";
	double x = 0;

	bc_format_rate(bps, r, sizeof(r));
	if (sscanf(r, "%lf %15s", &x, u) != 2) {
		snprintf(num, nlen, "%s", r);
		unit[0] = '\0';
		return;
	}
	snprintf(num, nlen, x >= 999.5 || x < 0.001 ? "%.0f" : "%.3g", x);
	snprintf(unit, ulen, "%s", u);
}

/* "4.3 of 16.7 Mbit/s" (one unit when both share it) into @buf. */
static const char *pair(double a, double b, char *buf, size_t len)
{
	char na[16], ua[16], nb[16], ub[16];

	short_rate(a, na, sizeof(na), ua, sizeof(ua));
	short_rate(b, nb, sizeof(nb), ub, sizeof(ub));
	if (!strcmp(ua, ub))
		snprintf(buf, len, "%s of %s %s", na, nb, ub);
	else
		snprintf(buf, len, "%s %s of %s %s", na, ua, nb, ub);
	return buf;
}

/* An evidence rate ("1.50 Mbit/s") at 3 significant digits; other text as it is. */
static const char *ev_rate(const struct bc_verdict *v, const char *key, char *buf, size_t len)
{
	const char *s = bc_verdict_get(v, key);
	char u[16];
	double x;

	if (!s)
		return "?";
	if (sscanf(s, "%lf %15s", &x, u) == 2 && strstr(u, "bit/s"))
		snprintf(buf, len, x >= 999.5 ? "%.0f %s" : "%.3g %s", x, u);
	else
		snprintf(buf, len, "%s", s);
	return buf;
}

static const char *ev(const struct bc_verdict *v, const char *key)
{
	const char *s = bc_verdict_get(v, key);

	return s ? s : "?";
}

static void add(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

static bool is(const struct bc_verdict *v, const char *m)
{
	return !strcmp(v->mechanism, m);
}

/*
 * The headline: "3.01 of 4.3 Mbit/s potential" (the first level is the
 * question's own: carried, or the potential of installed), "no-drop ..." for
 * the UDP gap; "" when unknown.
 */
static void headline(const struct bc_verdict *v, char *buf, size_t len)
{
	bool udp = !strcmp(v->question, "udp_gap");
	char p[64];

	buf[0] = '\0';
	if (v->has_levels && v->lhs_bps >= 0 && v->rhs_bps > 0)
		snprintf(buf, len, "%s%s%s%s", udp ? "no-drop " : "",
			 pair(v->lhs_bps, v->rhs_bps, p, sizeof(p)), udp ? "" : " ",
			 udp ? "" : bc_cap_level_name(v->rhs));
	else if (v->has_levels)
		snprintf(buf, len, "%s against %s unknown", bc_cap_level_name(v->lhs),
			 bc_cap_level_name(v->rhs));
}

/*
 * The cause in a few words and its next step: 0 when the mechanism has no
 * short form, 1 for a cause to follow the headline @h, 2 for a cause that
 * holds it.
 */
static int short_cause(const struct bc_verdict *v, const char *h, char *c, size_t clen, char *next,
		       size_t nlen)
{
	char r[32], p[64];

	c[0] = next[0] = '\0';
	if (is(v, "aggregator-selection")) {
		snprintf(c, clen, "%s idle (ad_select %s)", v->where, ev(v, "ad_select"));
		snprintf(next, nlen, "ad_select bandwidth");
	} else if (is(v, "active-slave")) {
		snprintf(c, clen, "active %s, not the best (%s)", v->where, ev(v, "best_slave"));
		snprintf(next, nlen, "make %s primary", ev(v, "best_slave"));
	} else if (is(v, "slave-down")) {
		snprintf(c, clen, "%s is down", v->where);
		snprintf(next, nlen, "bring it up");
	} else if (is(v, "hash-placement")) {
		snprintf(c, clen, "%s flows' hashes left %s idle", ev(v, "flows"), v->where);
		snprintf(next, nlen, "use layer3+4");
	} else if (is(v, "lacp-key")) {
		/* the ports whose speed key differs from the best aggregator's (they may
		 * be the ones the kernel selected: Aggregation names the idle ones) */
		snprintf(c, clen, "%s's speed key differs", v->where);
		snprintf(next, nlen, "use slaves of one speed");
	} else if (is(v, "shaper")) {
		if (!h[0])
			return 0;
		snprintf(c, clen, "%s's %s (%s) caps the bond at %s", v->where, ev(v, "qdisc"),
			 ev_rate(v, "rate", r, sizeof(r)),
			 pair(v->lhs_bps, v->rhs_bps, p, sizeof(p)));
		snprintf(next, nlen, "raise or remove it");
		return 2;
	} else if (is(v, "equal-shares")) {
		if (!h[0])
			return 0;
		snprintf(c, clen, "%s (%s) caps balance-rr at %s", v->where,
			 ev_rate(v, "ceiling", r, sizeof(r)),
			 pair(v->lhs_bps, v->rhs_bps, p, sizeof(p)));
		snprintf(next, nlen, "remove it");
		return 2;
	} else if (is(v, "reordering")) {
		snprintf(c, clen, "TCP reordering (%s seen)", ev(v, "reord_seen"));
		snprintf(next, nlen, "%s",
			 strstr(v->next_step, "balance-rr") ? "use a hash mode"
							    : "raise tcp_reordering");
	} else if (is(v, "cpu-bound")) {
		snprintf(c, clen, "a CPU >= 90 %% busy");
		snprintf(next, nlen, "rerun with idle hosts");
	} else if (is(v, "single-flow")) {
		snprintf(c, clen, "%s flow on a hash mode: not a test", ev(v, "flows"));
		snprintf(next, nlen, "run more flows");
	} else if (is(v, "holds-back")) {
		/* the shape of issue 15: "eth1 (8139cp) holds the bond to 4.3 of 16.7 Mbit/s" */
		snprintf(c, clen, "%s%s%s%s holds the bond %s%s", v->where,
			 bc_verdict_get(v, "driver") ? " (" : "",
			 bc_verdict_get(v, "driver") ? ev(v, "driver") : "",
			 bc_verdict_get(v, "driver") ? ")" : "", h[0] ? "to " : "back",
			 h[0] ? pair(v->lhs_bps, v->rhs_bps, p, sizeof(p)) : "");
		snprintf(next, nlen, "replace it");
		return 2;
	} else if (is(v, "falls-short")) {
		snprintf(c, clen, "%s short: %s of its ceiling", v->where, ev(v, "utilization"));
		snprintf(next, nlen, "check its driver");
	} else if (is(v, "no-mismatch")) {
		snprintf(c, clen, "no mismatch between the slaves");
	} else if (is(v, "cost-nothing") || is(v, "active-ok")) {
		snprintf(c, clen, "%s mismatch, no measurable cost", ev(v, "mismatch"));
	} else if (is(v, "ceilings-unknown") || is(v, "ceiling-unknown")) {
		snprintf(c, clen, "ceilings unknown");
		snprintf(next, nlen, "give --link-rate");
	} else if (is(v, "no-evidence") || is(v, "not-measured")) {
		snprintf(c, clen, "not measured");
	} else if (is(v, "unplaced")) {
		snprintf(c, clen, "flows not placed: shares do not compare");
	} else if (is(v, "active-low")) {
		snprintf(c, clen, "active %s at %s of its ceiling", ev(v, "active_slave"),
			 ev(v, "utilization"));
	} else if (is(v, "active-missing")) {
		snprintf(c, clen, "the active slave's evidence is missing");
	} else if (is(v, "missing-input")) {
		snprintf(c, clen, "not judged: an input is missing");
		snprintf(next, nlen, "rerun the suite");
	} else if (is(v, "not-a-bond")) {
		snprintf(c, clen, "one interface, not a bond");
	} else if (!strcmp(v->mechanism, "tx-loss") || !strcmp(v->mechanism, "wire-loss") ||
		   !strncmp(v->mechanism, "rx-loss-", 8)) {
		snprintf(c, clen, "%s lost%s%s (%s)", ev(v, "count"), v->where[0] ? " on " : "",
			 v->where, v->mechanism);
	} else if (is(v, "send-refused")) {
		snprintf(c, clen, "the sender's kernel refused sends (ENOBUFS)");
	} else if (is(v, "ledger-stage")) {
		snprintf(c, clen, "%s lost at %s", ev(v, "count"), v->where);
	} else if (is(v, "rate-search")) {
		snprintf(c, clen, "no-drop rate %s, loss not located", ev(v, "no_drop"));
	} else if (is(v, "unattributed")) {
		snprintf(c, clen, "no known mechanism");
		snprintf(next, nlen, "see the per-link table");
	} else if (v->mechanism[0]) {
		snprintf(c, clen, "%s%s%s", v->mechanism, v->where[0] ? " on " : "", v->where);
	} else {
		return 0;
	}
	return 1;
}

void bc_verdict_answer(const struct bc_verdict *v, const char *label, struct bc_answer *a)
{
	char h[96], c[200], next[96];
	int have;

	headline(v, h, sizeof(h));
	have = short_cause(v, h, c, sizeof(c), next, sizeof(next));
	bc_answer_set(a, label, bc_answer_status_of(bc_verdict_status_name(v->status)), "%s%s%s",
		      have == 2 ? "" : h, h[0] && have == 1 ? ", " : "", have ? c : "");
	if (!a->text[0])
		snprintf(a->text, sizeof(a->text), "%s", bc_verdict_status_name(v->status));
	/* a probe's loss, when the UDP gap has no cause of its own */
	if (!strcmp(v->question, "udp_gap") && bc_verdict_get(v, "sent") && !v->mechanism[0]) {
		unsigned long long s = strtoull(ev(v, "sent"), NULL, 10),
				   r = strtoull(ev(v, "received"), NULL, 10);

		if (s > r)
			add(a->text, sizeof(a->text), ", probe lost %llu of %llu", s - r, s);
		else
			add(a->text, sizeof(a->text), ", probe lost none of %llu", s);
	}
	if (bc_verdict_get(v, "cpu_bound") && !is(v, "cpu-bound"))
		add(a->text, sizeof(a->text), "; CPU-bound");
	if (bc_verdict_borderline(v))
		add(a->text, sizeof(a->text), "; borderline (%.0f %%)",
		    100 * v->headline);
	if (v->status != BC_VERDICT_PASS && next[0])
		bc_answer_next(a, "%s", next);
}

static const char *jstr(struct json_object *o, const char *k)
{
	struct json_object *x;

	return json_object_object_get_ex(o, k, &x) && json_object_is_type(x, json_type_string)
		       ? json_object_get_string(x)
		       : NULL;
}

static double jnum(struct json_object *o, const char *k)
{
	struct json_object *x;

	return json_object_object_get_ex(o, k, &x) && (json_object_is_type(x, json_type_double) ||
						       json_object_is_type(x, json_type_int))
		       ? json_object_get_double(x)
		       : -1;
}

static int level_of(const char *name)
{
	for (int l = 0; l < BC_CAP_N_LEVELS; l++)
		if (name && !strcmp(name, bc_cap_level_name((enum bc_cap_level)l)))
			return l;
	return -1;
}

int bc_verdict_from_json(struct json_object *o, const char *question, struct bc_verdict *v)
{
	struct json_object *lv, *cmp, *c, *e;
	const char *s;

	bc_verdict_init(v, question);
	if (!json_object_is_type(o, json_type_object))
		return -EINVAL;
	s = jstr(o, "status");
	for (int i = 0; s && i < 4; i++)
		if (!strcmp(s, bc_verdict_status_name((enum bc_verdict_status)i)))
			v->status = (enum bc_verdict_status)i;
	if (json_object_object_get_ex(o, "levels", &lv) &&
	    json_object_object_get_ex(lv, "compared", &cmp) &&
	    json_object_is_type(cmp, json_type_array) && json_object_array_length(cmp) == 2) {
		int a = level_of(json_object_get_string(json_object_array_get_idx(cmp, 0))),
		    b = level_of(json_object_get_string(json_object_array_get_idx(cmp, 1)));
		char k[32];

		if (a >= 0 && b >= 0) {
			v->has_levels = true;
			v->lhs = (enum bc_cap_level)a;
			v->rhs = (enum bc_cap_level)b;
			snprintf(k, sizeof(k), "%s_bps", bc_cap_level_name(v->lhs));
			v->lhs_bps = jnum(lv, k);
			snprintf(k, sizeof(k), "%s_bps", bc_cap_level_name(v->rhs));
			v->rhs_bps = jnum(lv, k);
		}
	}
	v->headline = jnum(o, "headline");
	if (json_object_object_get_ex(o, "cause", &c) && json_object_is_type(c, json_type_object)) {
		snprintf(v->mechanism, sizeof(v->mechanism), "%s",
			 jstr(c, "mechanism") ? jstr(c, "mechanism") : "");
		snprintf(v->where, sizeof(v->where), "%s",
			 jstr(c, "where") ? jstr(c, "where") : "");
		if (json_object_object_get_ex(c, "evidence", &e) &&
		    json_object_is_type(e, json_type_object)) {
			json_object_object_foreach(e, k, x)
				bc_verdict_add(v, k, "%s", x ? json_object_get_string(x) : "");
		}
	}
	snprintf(v->next_step, sizeof(v->next_step), "%s",
		 jstr(o, "next_step") ? jstr(o, "next_step") : "");
	return 0;
}
