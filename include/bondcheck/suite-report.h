/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Renderers of the `bondcheck run` suite document (bondcheck/suite-analyze.h,
 * docs/run.md "The suite").  Pure: the analysed JSON in, text to the stream
 * the caller gives; they never read the clock or the kernel.
 */
#ifndef BONDCHECK_SUITE_REPORT_H
#define BONDCHECK_SUITE_REPORT_H

#include <stdio.h>

#include <json-c/json.h>

/*
 * bc_suite_report_text() - the report for people: the answer block
 * (bc_suite_report_answers()), header, bond summary of both ends (slaves,
 * rates, ceilings), tests, per-link table, per-flow table, loss ledger,
 * reordering, findings, then the three verdicts in full.
 * Returns 0, or -EIO when writing failed.
 */
int bc_suite_report_text(FILE *out, struct json_object *doc);

/*
 * bc_suite_report_answers() - the answer block alone (bondcheck/answer.h):
 * Aggregation, UDP gap and Drivers, one line each, wrapped to @out's width
 * (bc_answer_width()).  What `run --brief` prints.  Returns 0 or -EIO.
 */
int bc_suite_report_answers(FILE *out, struct json_object *doc);

/*
 * bc_suite_report_csv() - one table, RFC 4180, a header line then one row
 * per test for the whole bond (link = the egress interface, end "client")
 * and one row per test and slave of either end for the captured tests:
 *   test,role,end,link,driver,speed_mbps,ceiling_bps,offered_bps,
 *   goodput_bps,wire_bps,share,efficiency,sent_packets,received_packets,
 *   retransmits,drops,lost,cpu_bound
 * Rates in bits/s (integers), share and efficiency as fractions (4
 * decimals), an empty field where the figure does not apply or is unknown.
 * Returns 0, or -EIO.
 */
int bc_suite_report_csv(FILE *out, struct json_object *doc);

#endif
