/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A verdict as data (issue 14, item 4; DESIGN.md "Reports"): the question,
 * the status, the two capacity levels it compares (bondcheck/capacity.h)
 * and the headline number, the cause (mechanism, where, evidence values)
 * and the next step.  src/analyze fills it; src/report renders the text.
 *
 * JSON (docs/json.md "Verdicts", suite schema_version 2), beside the older
 * figures of each verdict:
 *   "question": "aggregation" | "udp_gap" | "drivers",
 *   "status": "pass" | "fail" | "inconclusive" | "not-applicable",
 *   "levels": {"compared": [LEVEL, LEVEL], "LEVEL_bps": number|null, ...},
 *   "headline": number|null (the first level over the second, 0..1),
 *   "cause": {"mechanism", "where", "evidence": {key: string}} or null,
 *   "next_step": string or null,
 *   "basis": "capacity model" | "per-link evidence" | "ledger" | null,
 *   "answer": the rendered one-line answer (bc_verdict_render()).
 */
#ifndef BONDCHECK_VERDICT_H
#define BONDCHECK_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "bondcheck/capacity.h"

#define BC_VERDICT_MAX_EVIDENCE 12

/* A verdict passes only when carried is at least this share of potential. */
#define BC_VERDICT_CARRIED_PASS 0.80
/*
 * Within this many points of BC_VERDICT_CARRIED_PASS, carried against
 * potential is borderline: the spread of one short run can put it on either
 * side (the demo's TCP over balance-rr with reordering: 70 % on one run,
 * 81 % on another).  The status stands; the report says "borderline".
 */
#define BC_VERDICT_BORDERLINE 0.08

enum bc_verdict_status {
	BC_VERDICT_PASS = 0,
	BC_VERDICT_FAIL,
	BC_VERDICT_INCONCLUSIVE,
	BC_VERDICT_NOT_APPLICABLE,
};

struct bc_verdict_kv {
	char key[32];
	char value[256];
};

struct bc_verdict {
	const char *question; /* "aggregation", "udp_gap", "drivers" */
	enum bc_verdict_status status;
	bool has_levels;
	enum bc_cap_level lhs, rhs; /* compared: lhs against rhs */
	double lhs_bps, rhs_bps;    /* bits/s; < 0 unknown */
	double headline;	    /* lhs / rhs; < 0 unknown */
	char mechanism[32];	    /* bc_cap_mech_name(), a finding id, or "" none */
	char where[96];		    /* link(s), host or ledger stage; "" the bond */
	size_t n_evidence;
	struct bc_verdict_kv evidence[BC_VERDICT_MAX_EVIDENCE];
	char next_step[320]; /* a command or setting; "" none */
	const char *basis;   /* what decided: "capacity model", "per-link evidence", "ledger" */
};

/* bc_verdict_init() - @question, inconclusive, nothing known. */
void bc_verdict_init(struct bc_verdict *v, const char *question);

/* bc_verdict_add() - one evidence value (printf-formatted); ignored past the 12th. */
void bc_verdict_add(struct bc_verdict *v, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* bc_verdict_get() - the evidence value of @key, or NULL. */
const char *bc_verdict_get(const struct bc_verdict *v, const char *key);

/*
 * bc_verdict_borderline() - @v compares carried with potential, passed or
 * failed on that comparison alone (not on the kernel's selection), and its
 * headline is within BC_VERDICT_BORDERLINE of BC_VERDICT_CARRIED_PASS.
 */
bool bc_verdict_borderline(const struct bc_verdict *v);

/* bc_verdict_status_name() - "pass", "fail", "inconclusive", "not-applicable". */
const char *bc_verdict_status_name(enum bc_verdict_status s);

/*
 * bc_verdict_json_data() - the members above but "answer" into object @o
 * (replacing "status"): the structure only, for src/analyze, which writes
 * no words (src/analyze/verdict.c).
 */
void bc_verdict_json_data(const struct bc_verdict *v, struct json_object *o);

/*
 * bc_verdict_json_put() - bc_verdict_json_data() and then "answer" rendered
 * by bc_verdict_render() (src/report/verdict-text.c).
 */
void bc_verdict_json_put(const struct bc_verdict *v, struct json_object *o);

/* The suite's three verdicts as data, as bc_suite_analyze() decided them. */
struct bc_suite_verdicts {
	struct bc_verdict aggregation, udp_gap, drivers;
};

/*
 * bc_suite_verdicts_answer() - each verdict's rendered "answer" into its
 * object doc.verdicts.{aggregation, udp_gap, drivers}, as its last member
 * (src/report/verdict-text.c).  The caller that assembles the suite
 * document calls it after bc_suite_analyze(): the analysis writes no words.
 */
void bc_suite_verdicts_answer(struct json_object *doc, const struct bc_suite_verdicts *vs);

/*
 * bc_verdict_render() - the one-line answer into @buf (@len bytes, always
 * terminated): the levels compared and the headline, the cause in words
 * (one sentence per mechanism, from its evidence values), the next step.
 * Returns the length it wanted (snprintf's convention).
 */
int bc_verdict_render(const struct bc_verdict *v, char *buf, size_t len);

struct bc_answer;

/*
 * bc_verdict_answer() - @v as one line of the answer block (bondcheck/answer.h)
 * under @label: the status, the two levels as "A of B unit" (3 significant
 * digits), the mechanism in a few words and a short next step, sized to fit
 * 80 columns of text for the report's 100.  bc_verdict_render() keeps the
 * long sentence for the report's Verdicts section and the JSON "answer".
 */
void bc_verdict_answer(const struct bc_verdict *v, const char *label, struct bc_answer *a);

/*
 * bc_verdict_from_json() - @v back from the members bc_verdict_json_put()
 * wrote into @o (a saved document's verdict), @question its key (kept, not
 * copied: a string that outlives @v).  Members that are absent stay unknown.
 * Returns 0, or -EINVAL when @o is not an object.
 */
int bc_verdict_from_json(struct json_object *o, const char *question, struct bc_verdict *v);

#endif
