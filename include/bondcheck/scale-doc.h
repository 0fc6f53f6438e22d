/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The `bondcheck scale` document (docs/scale.md "JSON"), pure: statistics per
 * configuration, the comparisons of N+1 against N, the cause a diagnostic
 * capture shows, the verdict and the findings.  The workflow (bondcheck/
 * scale.h) fills the measured part; these functions add the rest, so a saved
 * document can be re-analysed and the unit tests feed constructed ones.
 *
 * Input the functions read (bits/s everywhere):
 *   {"margin": 0.05, "bond": {"name"},
 *    "configs": [{"protocol": "tcp"|"udp", "n", "slaves": [names],
 *                 "ceiling_bps", "runs": [{"rep", "goodput_bps",
 *                 "retransmits", "zero", "cpu_bound"}]}]}
 */
#ifndef BONDCHECK_SCALE_DOC_H
#define BONDCHECK_SCALE_DOC_H

#include <stddef.h>

#include <json-c/json.h>

#include "bondcheck/error.h"

/*
 * bc_scale_doc_compare() - per configuration add "mean_bps", "sd_bps",
 * "geo_mean_bps", "ci_low_bps", "ci_high_bps" (95 % CI of the geometric
 * mean), "zero_runs", "efficiency" (mean / ceiling; null when the ceiling
 * is unknown); then, per protocol, "comparisons" of each configuration
 * against the next larger one: {protocol, from_n, to_n, added[], added_ceiling_bps,
 * speedup, ci_low, ci_high, welch_t, df, p, t_quantile, marginal_efficiency,
 * retransmits_from, retransmits_to (TCP: mean per run), valid,
 * invalid_reason, zero_runs[{n, rep}], verdict, text, cause: null}, and
 * "versus_baseline": the smallest configuration against each larger one
 * (same members).  Statistics that do not exist are null.  Replaces earlier
 * results, keeping the "diagnosis" and "cause" of an earlier comparison of
 * the same protocol and configurations (a saved document re-analysed with
 * another margin keeps what its capture showed).  Returns 0; -EINVAL when configs are missing or
 * malformed (a config without runs, a negative goodput), naming the config.
 */
int bc_scale_doc_compare(struct json_object *doc, struct bc_error *err);

/* Below these a capture's loss or reordering is noise, not the cause of a scaling verdict. */
#define BC_SCALE_CAUSE_LOSS_MIN	   0.001 /* lost / sent on the link */
#define BC_SCALE_CAUSE_REORDER_MIN 0.01	 /* RFC 4737 reordered ratio of the capture */

/*
 * bc_scale_cause() - what a diagnostic `run --capture` result (run JSON,
 * bondcheck/client.h, with "findings" and "capture.analysis") shows about
 * a comparison whose larger configuration it measured.  Looks, in this
 * order, for loss on a link (wire-loss, tx-loss, rx-loss-nic findings on a
 * slave, at least BC_SCALE_CAUSE_LOSS_MIN of what left on it), reordering
 * (the late link of the reordering pairs, when the `reordering` finding is
 * raised and the reordered ratio is at least BC_SCALE_CAUSE_REORDER_MIN)
 * and an idle link (link-idle on a client slave); receive links are named by the client slave whose
 * learned path ends there.  Returns a new array of causes {kind: "loss"|"reordering"| "idle-link",
 * slave, capture_link, added (slave is in @added), text, evidence{...}}, those on an @added slave
 * first; empty when the capture shows nothing.  NULL only when @run_result is NULL.
 */
struct json_object *bc_scale_cause(struct json_object *run_result, const char *const *added,
				   size_t n_added);

/*
 * bc_scale_doc_conclude() - from the comparisons (and their "cause", when
 * the workflow set one): append the comparison's cause to its "text", add
 * one finding per flat or negative comparison (ids scaling-flat,
 * scaling-negative; subject the bond; evidence protocol, from_n, to_n,
 * added, speedup, ci, p, cause) to "findings" (kept findings of other ids
 * stay), and set "verdict": {status, text}.  status: "fail" when any
 * comparison is scaling-negative, else "invalid" when any could not be
 * made (zero-goodput runs), else "flat" when any gave no significant gain,
 * else "pass".  Returns 0; -EINVAL when the comparisons are missing.
 */
int bc_scale_doc_conclude(struct json_object *doc, struct bc_error *err);

/*
 * bc_scale_doc_view() - the part of @doc about one @protocol ("tcp" or
 * "udp"), for a plot of one curve (bondcheck/plot.h bc_plot_scaling()): a
 * new object with "protocol", "method", "flows", "configs" (that protocol's,
 * shared with @doc), "link_ceiling_bps" (the first slave's ceiling for that
 * protocol) and "verdict": {"text": that protocol's comparison sentences}.
 * NULL when @doc has no configuration of @protocol.
 */
struct json_object *bc_scale_doc_view(struct json_object *doc, const char *protocol);

#endif
