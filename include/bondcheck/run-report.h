/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text rendering of `bondcheck run` results (the JSON of bondcheck/client.h).
 * Pure: JSON in, text to the stream the caller gives.
 */
#ifndef BONDCHECK_RUN_REPORT_H
#define BONDCHECK_RUN_REPORT_H

#include <stdio.h>

#include <json-c/json.h>

#include "bondcheck/error.h"

/* One line per stream and a sum line for an interval object. */
void bc_run_report_interval(FILE *out, struct json_object *interval);

/*
 * The final report: the answer block (bc_run_report_answers()), then per
 * stream, per direction sum with ceiling and efficiency, notes.
 */
void bc_run_report_text(FILE *out, struct json_object *result);

/*
 * bc_run_report_answers() - the answer block of a run (bondcheck/answer.h):
 * Goodput (of the first direction's ceiling; PASS at >= 80 %, INFO when the
 * offered rate was lower, WARN else), Loss (datagrams, the link with the
 * most; the status of a loss finding), Reordering (out of order, the late
 * link and the early one of the largest pair, never a link behind itself),
 * wrapped to @out's width.  What `run --brief` prints.
 */
void bc_run_report_answers(FILE *out, struct json_object *result);

/*
 * bc_run_report_capture() - the "capture" member of a run --capture result:
 * pcap_stats per interface and end, per-link attribution, paths, reordering
 * pairs, the loss ledger.  Called by bc_run_report_text().
 */
void bc_run_report_capture(FILE *out, struct json_object *capture);

/*
 * bc_run_doc_check() - whether @doc is a whole single-run document (the -j
 * output of `bondcheck run` with single-test options), strictly
 * (bondcheck/doc-read.h): schema_version; test.protocol, .direction,
 * .streams, .duration_ms; streams[] (at least one) with id, protocol "tcp"
 * or "udp", direction, goodput_bps and the datagram counts of UDP or the
 * retransmits of TCP; findings[] with severity, id, subject and advice
 * strings; sum, notes and capture of their types when present.  Returns 0,
 * or -EINVAL with every problem's jq path in @err.  What `run --from-json`
 * checks before it renders a saved run.
 */
int bc_run_doc_check(struct json_object *doc, struct bc_error *err);

#endif
