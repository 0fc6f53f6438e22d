/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `bondcheck run --peer HOST` without single-test options: the test plan
 * that answers the three questions (docs/run.md "The suite").
 *
 *   1. inspect both ends: this host's egress bond (live collector) and the
 *      agent's (the `inspect` message, docs/protocol.md);
 *   2. tcp-1: one TCP flow, 2 s omitted + 10 s (the baseline);
 *   3. tcp-k: K TCP flows placed one per usable slave (--place per-slave)
 *      when the mode and hash can be steered, else K = the slave count
 *      unplaced, with the reason; per-slave capture on both ends;
 *   4. udp-trial-1..6: the no-drop rate search (bondcheck/udp-search.h),
 *      5 s trials, the same flows as tcp-k;
 *   5. udp-over: 1.25 x the no-drop rate, with capture: the loss ledger.
 * --quick: omit 0.5 s, TCP 1 s, at most 3 trials of 0.75 s, probe 1 s, Tmax 0.3 s.
 * Then bc_suite_analyze() (bondcheck/suite-analyze.h) adds the tables,
 * findings and verdicts.  Units: bits/s, seconds in the document.
 */
#ifndef BONDCHECK_SUITE_H
#define BONDCHECK_SUITE_H

#include <stdbool.h>

#include <json-c/json.h>

#include "bondcheck/client.h"
#include "bondcheck/error.h"

struct bc_suite_progress {
	unsigned index, total; /* this test (1-based) of at most @total */
	const char *name;      /* "tcp-k" */
	const char *what;      /* "TCP 3 flows placed per slave" */
	double left_s;	       /* estimated seconds left in the suite */
};

struct bc_suite_cfg {
	/* peer, port, key, family, link_rate_bps, link_conv and plan.dport
	 * apply to every test; the rest of the plan is the suite's */
	struct bc_client_cfg client;
	bool quick;
	/* called at each test's start and each of its intervals (may be NULL) */
	void (*progress)(void *ctx, const struct bc_suite_progress *p);
	void *ctx;
};

void bc_suite_cfg_defaults(struct bc_suite_cfg *c);

/*
 * bc_suite_run() - run the suite.  Returns 0 and the analysed document in
 * *@doc.  When the agent cannot be reached at all: the errors of
 * bc_client_run() and *@doc NULL.  When a test fails after the suite
 * started (the peer was lost, it refused a plan): that -errno, @err says
 * which test and why, and *@doc holds the partial document with
 * "incomplete": true and the error in "errors".
 */
int bc_suite_run(const struct bc_suite_cfg *c, struct json_object **doc, struct bc_error *err);

#endif
