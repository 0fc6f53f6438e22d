// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The matrix's verdicts in words (bondcheck/matrix.h, docs/matrix.md): the
 * answer block (Slow hosts, Loss, MTU) and each verdict's one-line
 * "answer", rendered from the structure bc_matrix_analyze() wrote into
 * doc.verdicts (bondcheck/verdict.h: status, cause {mechanism, where,
 * evidence}).  The analysis writes no sentences for them; the sentences
 * live here, one per mechanism.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/answer.h"
#include "bondcheck/json-get.h"
#include "bondcheck/matrix.h"
#include "bondcheck/verdict.h"
#include "report/line.h"

/* The questions: doc.verdicts key and the answer block's label. */
static const struct {
	const char *key, *label;
} questions[] = {
	{"slow_hosts", "Slow hosts"},
	{"loss", "Loss"},
	{"mtu", "MTU"},
};

#define N_QUESTIONS (sizeof(questions) / sizeof(questions[0]))

static const char *ev(const struct bc_verdict *v, const char *key)
{
	const char *s = bc_verdict_get(v, key);

	return s ? s : "?";
}

static bool is(const struct bc_verdict *v, const char *mech)
{
	return !strcmp(v->mechanism, mech);
}



/* Where a loss was located (evidence "located"), in a few words. */
static const char *located(const char *m)
{
	if (!strcmp(m, "queue-overflow-before-host"))
		return "a queue before it overflowed (its own drop counters stayed 0): its switch "
		       "port or the link towards it";
	if (!strcmp(m, "host-rx-drops"))
		return "its own interface dropped the frames (ring, backlog)";
	if (!strcmp(m, "queue-overflow-after-host"))
		return "a queue after it overflowed (its own send-side counters stayed 0): its "
		       "switch port or the link from it";
	if (!strcmp(m, "own-egress-queue"))
		return "its own qdisc or driver dropped what it sent, at a cost in goodput";
	return "not located: the drop counters are unknown";
}

/* The cause of @v in words, without the next step. */
static void cause(struct bc_line *l, const struct bc_verdict *v)
{
	const char *also = bc_verdict_get(v, "hosts");

	if (is(v, "host-slow") || is(v, "host-borderline")) {
		if (!strcmp(v->question, "loss")) {
			bc_line_put(l,
			    "loss %s %s is near the line: %s of its segments (median of its "
			    "pairs), %s elsewhere; not judged lossy",
			    strcmp(ev(v, "direction"), "sending") ? "into" : "out of", v->where,
			    ev(v, "share"), ev(v, "others_share"));
		} else {
			bc_line_put(l,
			    "%s is %s when %s: the median of its pairs is %s %s, %s of the "
			    "others' %s %s (slow below %s, borderline up to %s)",
			    v->where, is(v, "host-slow") ? "slow" : "near the slow line",
			    ev(v, "direction"), ev(v, "median"), ev(v, "unit"), ev(v, "ratio"),
			    ev(v, "others"), ev(v, "unit"), ev(v, "slow_below"),
			    ev(v, "borderline_below"));
		}
	} else if (is(v, "host-link-slower")) {
		bc_line_put(l,
		    "no host is slow against its own ceilings; %s's link is slower when %s "
		    "(%.1f of the others' %.1f Mbit/s), and only its pairs in that direction are "
		    "held to it",
		    v->where, ev(v, "direction"), strtod(ev(v, "ceiling_bps"), NULL) / 1e6,
		    strtod(ev(v, "others_bps"), NULL) / 1e6);
	} else if (is(v, "host-unreachable")) {
		bc_line_put(l, "%s could not be used (%s): its %s pairs were skipped", v->where,
		    ev(v, "status"), ev(v, "pairs_skipped"));
	} else if (is(v, "missing-input")) {
		bc_line_put(l, "a pair's figures are missing from the document (see matrix-inconclusive): "
		       "not judged");
	} else if (is(v, "host-mtu-mismatch")) {
		bc_line_put(l, "%s uses MTU %s, the other hosts %s", v->where, ev(v, "mtu"),
		    ev(v, "others_mtu"));
		if (bc_verdict_get(v, "lost_to"))
			bc_line_put(l, "; its %s-byte DF probes were lost towards %s (largest carried %s)",
			    ev(v, "mtu"), ev(v, "lost_to"), ev(v, "largest_carried"));
	} else if (is(v, "path-mtu-blackhole")) {
		bc_line_put(l,
		    "%s: no DF probe of %s bytes arrived although both ends take that size "
		    "(largest carried %s): a switch port, bridge or router on the path carries "
		    "less",
		    v->where, ev(v, "size"), ev(v, "largest_carried"));
	} else if (!strcmp(v->question, "loss") && v->mechanism[0]) {
		if (bc_verdict_get(v, "share"))
			bc_line_put(l, "loss %s %s: %s of its segments (median of its pairs, %s %s), %s "
			       "elsewhere; %s",
			    strcmp(ev(v, "direction"), "sending") ? "into" : "out of", v->where,
			    ev(v, "share"), ev(v, "count"), ev(v, "unit"), ev(v, "others_share"),
			    located(v->mechanism));
		else
			bc_line_put(l, "loss out of %s: %s (its pairs at %s of their ceilings)", v->where,
			    located(v->mechanism), ev(v, "efficiency"));
	} else if (v->status == BC_VERDICT_NOT_APPLICABLE) {
		bc_line_put(l, "fewer than 3 hosts: no pairs without a host to compare with");
	} else if (!strcmp(v->question, "slow_hosts")) {
		bc_line_put(l, "no host's pairs below %.2f of the others' in either direction",
		    BC_MATRIX_SLOW_RATIO + BC_MATRIX_SLOW_MARGIN);
	} else if (!strcmp(v->question, "loss")) {
		bc_line_put(l, "no host's pairs lose %.0f %% of their segments and %.0f times the others'",
		    100 * BC_MATRIX_LOSS_SHARE, BC_MATRIX_LOSS_FACTOR);
	} else {
		bc_line_put(l, "no MTU mismatch, no path MTU black hole");
	}
	if (also && strchr(also, ','))
		bc_line_put(l, " (hosts named: %s)", also);
}

/* The next step of @v, "" none. */
static const char *next_step(const struct bc_verdict *v)
{
	if (is(v, "host-slow"))
		return "look at the host's link, NIC, driver, cable and switch port on that side";
	if (is(v, "host-borderline"))
		return "re-run with a longer -t; look at its retransmits and switch port";
	if (is(v, "queue-overflow-before-host") || is(v, "queue-overflow-after-host"))
		return "check the switch port's drop counters and buffers";
	if (is(v, "host-rx-drops"))
		return "check its ring (ethtool -g/-S) and netdev_max_backlog";
	if (is(v, "own-egress-queue"))
		return "check its qdisc (tc -s qdisc) and tx ring";
	if (is(v, "host-unreachable"))
		return "start `bondcheck serve` with the same key there";
	if (is(v, "host-mtu-mismatch"))
		return "set one MTU on every host, or jumbo frames on every host and switch port";
	if (is(v, "path-mtu-blackhole"))
		return "raise the path's MTU or lower both hosts'";
	return "";
}

int bc_matrix_verdict_render(const struct bc_verdict *v, char *buf, size_t len)
{
	struct bc_line l = {buf, len, 0};
	const char *n = next_step(v);

	if (len)
		buf[0] = '\0';
	cause(&l, v);
	if (n[0])
		bc_line_put(&l, ". Next: %s", n);
	bc_line_put(&l, ".");
	return (int)l.n;
}

void bc_matrix_verdicts_answer(struct json_object *doc)
{
	struct json_object *vd = NULL;
	char text[1200];

	if (!json_object_object_get_ex(doc, "verdicts", &vd))
		return;
	for (size_t i = 0; i < N_QUESTIONS; i++) {
		struct json_object *o = NULL;
		struct bc_verdict v;

		if (!json_object_object_get_ex(vd, questions[i].key, &o) ||
		    bc_verdict_from_json(o, questions[i].key, &v) < 0)
			continue;
		bc_matrix_verdict_render(&v, text, sizeof(text));
		json_object_object_add(o, "answer", json_object_new_string(text));
	}
}

/* Appends to @a's text (cut at its size). */
static void add_text(struct bc_answer *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_text(struct bc_answer *a, const char *fmt, ...)
{
	size_t n = strlen(a->text);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->text + n, sizeof(a->text) - n, fmt, ap);
	va_end(ap);
}

/* One answer line of @v: the status and a short cause. */
static void answer_line(const struct bc_verdict *v, const char *label, size_t n_hosts,
			struct bc_answer *a)
{
	enum bc_answer_status st = bc_answer_status_of(bc_verdict_status_name(v->status));
	const char *hosts = bc_verdict_get(v, "hosts");

	/* a slower link is a warning-level finding: the answer does not hide it */
	if (v->status == BC_VERDICT_PASS && v->mechanism[0])
		st = BC_ANSWER_WARN;
	if (is(v, "host-slow") || is(v, "host-borderline")) {
		if (!strcmp(v->question, "loss"))
			bc_answer_set(a, label, st, "%s (%s) near the line: %s lost (median), %s elsewhere",
				      v->where, ev(v, "direction"), ev(v, "share"),
				      ev(v, "others_share"));
		else
			bc_answer_set(a, label, st, "%s (%s)%s at %s of the others' median%s",
				      v->where, ev(v, "direction"),
				      is(v, "host-slow") ? "" : " near the line", ev(v, "ratio"),
				      is(v, "host-slow") ? "" : " (slow below 0.60)");
		if (hosts && strchr(hosts, ','))
			add_text(a, "; named: %s", hosts);
	} else if (is(v, "host-link-slower")) {
		bc_answer_set(a, label, st, "none slow; %s: a slower link (%.1f of %.1f Mbit/s)",
			      hosts ? hosts : v->where, strtod(ev(v, "ceiling_bps"), NULL) / 1e6,
			      strtod(ev(v, "others_bps"), NULL) / 1e6);
	} else if (is(v, "host-unreachable")) {
		bc_answer_set(a, label, st, "%s unreachable", hosts ? hosts : v->where);
	} else if (is(v, "missing-input")) {
		bc_answer_set(a, label, st, "not judged: a pair's figures are missing");
	} else if (is(v, "host-mtu-mismatch") || is(v, "path-mtu-blackhole")) {
		bc_answer_set(a, label, st, "mismatch or black hole: %s", hosts ? hosts : v->where);
	} else if (!strcmp(v->question, "loss") && v->mechanism[0]) {
		bc_answer_set(a, label, st, "%s (%s): %s%s%s", v->where, ev(v, "direction"),
			      bc_verdict_get(v, "share") ? ev(v, "share") : "",
			      bc_verdict_get(v, "share") ? " lost, " : "",
			      is(v, "queue-overflow-before-host") ? "a queue before it overflowed"
			      : is(v, "queue-overflow-after-host")
				      ? "a queue after it overflowed"
			      : is(v, "host-rx-drops")	  ? "its interface dropped"
			      : is(v, "own-egress-queue") ? "its own queue dropped"
							  : "not located");
		if (hosts && strchr(hosts, ','))
			add_text(a, "; named: %s", hosts);
	} else if (v->status == BC_VERDICT_NOT_APPLICABLE) {
		bc_answer_set(a, label, st, "fewer than 3 hosts: not compared");
	} else if (!strcmp(v->question, "slow_hosts")) {
		bc_answer_set(a, label, st, "none of %zu hosts", n_hosts);
	} else if (!strcmp(v->question, "loss")) {
		bc_answer_set(a, label, st, "no host stands out");
	} else {
		bc_answer_set(a, label, st, "no mismatch, no path MTU black hole");
	}
	if (st != BC_ANSWER_PASS && st != BC_ANSWER_NA)
		bc_answer_next(a, "see the findings");
}

void bc_matrix_report_answers(FILE *out, struct json_object *doc)
{
	struct json_object *vd = NULL, *m = NULL, *names = NULL;
	struct bc_answer a[N_QUESTIONS];
	size_t n = 0, nh;

	if (json_object_object_get_ex(doc, "matrix", &m))
		json_object_object_get_ex(m, "hosts", &names);
	nh = bc_json_len(names);
	json_object_object_get_ex(doc, "verdicts", &vd);
	for (size_t i = 0; i < N_QUESTIONS; i++) {
		struct json_object *o = NULL;
		struct bc_verdict v;

		if (!json_object_object_get_ex(vd, questions[i].key, &o) ||
		    bc_verdict_from_json(o, questions[i].key, &v) < 0) {
			bc_answer_set(&a[n++], questions[i].label, BC_ANSWER_UNSURE,
				      "not analysed (the document has no verdicts.%s)",
				      questions[i].key);
			continue;
		}
		answer_line(&v, questions[i].label, nh, &a[n++]);
	}
	bc_answer_print(out, a, n, bc_answer_width(out));
}
