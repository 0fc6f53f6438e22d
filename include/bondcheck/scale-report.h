/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Renderers of the `bondcheck scale` document (bondcheck/scale-doc.h,
 * docs/scale.md).  Pure: JSON in, text to the stream the caller gives.
 */
#ifndef BONDCHECK_SCALE_REPORT_H
#define BONDCHECK_SCALE_REPORT_H

#include <stdio.h>

#include <json-c/json.h>

/*
 * bc_scale_report_text() - the report: the answer block, what was measured, a table of the
 * configurations (goodput per run in Mbit/s, mean, geometric mean and its
 * 95 % CI, efficiency against the configuration's ceiling), a table of the
 * comparisons (speed-up, CI, Welch's t, df, p, marginal efficiency,
 * verdict), the diagnoses with their causes, notes, findings, and the
 * verdict line.
 */
void bc_scale_report_text(FILE *out, struct json_object *doc);

/*
 * bc_scale_report_answers() - the answer block (bondcheck/answer.h): does
 * N+1 beat N, one line per adjacent comparison ("TCP 2 -> 3": PASS gain,
 * WARN flat, FAIL negative, UNSURE not compared) with the speed-up, its
 * 95 % CI and the capture's cause; bc_scale_report_text() opens with it.
 */
void bc_scale_report_answers(FILE *out, struct json_object *doc);

/*
 * bc_scale_report_csv() - one table (RFC 4180, comma separated, header
 * first, a row per run, per configuration and per comparison, told apart by
 * the first column "kind": run|config|comparison|baseline).  Rates in
 * bits/s, ratios as decimals, slave lists separated by spaces, absent
 * values empty.  Columns: kind, protocol, from_n, n, slaves, rep,
 * goodput_bps, retransmits, zero, cpu_bound, ceiling_bps, mean_bps,
 * geo_mean_bps, ci_low, ci_high, efficiency, speedup, welch_t, df, p,
 * marginal_efficiency, verdict.  For run and config rows ci_low/ci_high
 * are the CI of the geometric mean in bits/s; for comparisons the CI of
 * the speed-up.
 */
void bc_scale_report_csv(FILE *out, struct json_object *doc);

#endif
