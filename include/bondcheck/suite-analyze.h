/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The analysis of a `bondcheck run` suite document (docs/run.md "Suite",
 * /work contract API-reports.md).  Pure: JSON in, JSON members added.
 *
 * The workflow (bondcheck/suite.h) records what it measured:
 *   ends {client, agent}: inspect documents of each end's egress bond
 *     (docs/inspect-json.md; "bonds": [] and "reason" when not a bond),
 *   egress {client, agent}: the egress interface as run metadata has it
 *     (name, mtu, speed_mbps, tbf_bps, driver, bond {options, slaves[]}),
 *   options {link_rate_bps, link_accounting}, placement {placed, flows,
 *   reason}, tests[] {name, role, result}, udp_search {trials[], ...}.
 * bc_suite_analyze() derives, replacing earlier copies (idempotent):
 *   udp_search {no_drop_rate_bps, resolution_bps, pdr_rate_bps, drop_rate_bps},
 *   ceilings {client, agent: per slave rate, source, TCP/UDP ceiling, usable},
 *   links[] (per captured test and slave), flows[] (aggregate test),
 *   ledger (the over-rate probe's stages), ledger_test, ledger_direction,
 *   reordering {tcp, udp},
 *   findings[] (merged; each with source, end, expected),
 *   verdicts {aggregation, udp_gap, drivers} (bondcheck/suite-verdict.h),
 *   capacity {test, levels, gaps[], selected_ports} (bondcheck/capacity.h),
 *   verdicts: each also as data (bondcheck/verdict.h),
 *   summary {pass, fail, inconclusive, not_applicable, error_findings},
 *   schema_version BC_SUITE_SCHEMA.
 * The verdicts and the capacity model do not read the JSON: once the tables
 * are derived, the document is decoded once into typed structs
 * (bondcheck/suite-doc.h), and a member a verdict needs that is absent or
 * of the wrong type makes it inconclusive, naming the member.  The
 * verdicts' rendered "answer" is the caller's (bc_suite_verdicts_answer()).
 */
#ifndef BONDCHECK_SUITE_ANALYZE_H
#define BONDCHECK_SUITE_ANALYZE_H

#include <json-c/json.h>

#include "bondcheck/error.h"
#include "bondcheck/suite-verdict.h"
#include "bondcheck/udp-search.h"
#include "bondcheck/verdict.h"

/* The suite document's schema: 2 adds capacity and the verdicts' structure. */
#define BC_SUITE_SCHEMA 2

/*
 * bc_suite_analyze() - add the derived members to @doc, and the three
 * verdicts as data into @vs (may be NULL).  The verdicts' rendered
 * "answer" is not written here: the caller puts it with
 * bc_suite_verdicts_answer() (bondcheck/verdict.h, src/report).  Returns 0;
 * -EINVAL when @doc is not a suite document (kind != "run-suite"), said
 * in @err.
 */
int bc_suite_analyze(struct json_object *doc, struct bc_suite_verdicts *vs, struct bc_error *err);

/*
 * bc_suite_trial_from_json() - a search trial of udp_search.trials[] as
 * bondcheck/udp-search.h wants it: rate_bps, sent_bps, sent_packets,
 * received_packets, refused, received_bps.
 */
void bc_suite_trial_from_json(struct json_object *trial, struct bc_udp_trial *t);

/*
 * bc_suite_sent_bps() - what a UDP test's senders sent, bits/s of payload:
 * the streams' sent_bytes over the test's duration after --omit (the
 * senders' own send_rate_bps is over each thread's shorter wall time).
 */
double bc_suite_sent_bps(struct json_object *result);

#endif
