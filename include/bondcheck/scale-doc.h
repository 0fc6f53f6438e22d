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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/doc-read.h"
#include "bondcheck/error.h"

/*
 * The typed scale document (issue 14 item 1): bc_scale_doc_read() walks the
 * json-c tree once and fills these; the analysis below reasons on them only.
 * Unknown values are NAN, -1, "" or a false have_ flag, never a default.
 * The borrowed "node" pointers say where the writers put their results.
 */
#define BC_SCALE_MAX_CONFIGS 256
#define BC_SCALE_MAX_RUNS    1024
#define BC_SCALE_MAX_NAMES   32 /* slaves of a configuration, added links of a comparison */
#define BC_SCALE_NAME_LEN    64
#define BC_SCALE_TEXT_LEN    1024

struct bc_scale_run_in {
	int64_t rep;	    /* 1-based; the run's position when absent (a label only) */
	double goodput_bps; /* required; NAN when absent */
	double retransmits; /* TCP; NAN when absent (the mean is then unknown) or UDP */
};

struct bc_scale_config_in {
	struct json_object *node; /* configs[i], borrowed */
	char protocol[8];	  /* "tcp" or "udp"; "" when absent */
	int64_t n;		  /* links; -1 when absent */
	size_t n_slaves;
	char slaves[BC_SCALE_MAX_NAMES][BC_SCALE_NAME_LEN];
	double ceiling_bps; /* NAN when unknown (absent or null) */
	size_t n_runs;
	struct bc_scale_run_in *runs;
	struct bc_doc_read rd; /* problems of this configuration's required members */
};

struct bc_scale_zero_in {
	int64_t n, rep;
};

struct bc_scale_cmp_in {
	struct json_object *node; /* comparisons[i] or versus_baseline[i], borrowed */
	char protocol[8];
	int64_t from_n, to_n;	  /* -1 when absent */
	char verdict[24];	  /* bc_scale_verdict_name(); "" when absent */
	double speedup, ci_low, ci_high, p;
	size_t n_added;
	char added[BC_SCALE_MAX_NAMES][BC_SCALE_NAME_LEN];
	size_t n_zero, n_zero_listed;
	struct bc_scale_zero_in zero[128]; /* the first n_zero_listed of n_zero */
	char invalid_reason[256];
	bool have_cause;		  /* "cause" is an object */
	char cause_kind[32], cause_slave[BC_SCALE_NAME_LEN], cause_text[BC_SCALE_TEXT_LEN];
	char text[BC_SCALE_TEXT_LEN]; /* the sentence an earlier conclusion wrote; "" when absent */
	struct json_object *cause, *diagnosis; /* borrowed, carried over verbatim */
};

struct bc_scale_finding_in {
	char id[64];
	struct json_object *node; /* borrowed, carried over verbatim */
};

struct bc_scale_doc_in {
	bool have_margin;
	double margin;	     /* BC_SCALE_MARGIN when absent (a setting, not a measurement) */
	char bond_name[BC_SCALE_NAME_LEN]; /* "" when absent */
	char method[16];
	int64_t flows;	     /* -1 when absent */
	double slave0_ceiling_bps[2]; /* slaves[0].tcp_ceiling_bps, udp_; NAN when unknown */
	size_t n_configs;
	struct bc_scale_config_in *configs;
	bool have_comparisons; /* "comparisons" is an array */
	size_t n_cmps, n_base;
	struct bc_scale_cmp_in *cmps, *base;
	size_t n_findings;
	struct bc_scale_finding_in *findings;
	struct bc_doc_read rd; /* problems of the document's own members */
};

/*
 * bc_scale_doc_read() - decode @doc into *@out (which it initialises; free
 * it with bc_scale_doc_in_free()).  Required: "configs" (an array), per
 * configuration "protocol" ("tcp"/"udp"), "n" (>= 1), "slaves", "runs" and
 * per run "goodput_bps"; a problem with one of
 * them is recorded in that configuration's rd, one with "configs" in the
 * document's.  Optional: everything else.  Returns 0, or -ENOMEM.
 */
int bc_scale_doc_read(struct json_object *doc, struct bc_scale_doc_in *out);
void bc_scale_doc_in_free(struct bc_scale_doc_in *d);

/* One link of a `run --capture` analysis: capture link name and its learned peer. */
struct bc_scale_link_in {
	char name[BC_SCALE_NAME_LEN], peer[BC_SCALE_NAME_LEN];
};

struct bc_scale_pair_in {
	char late_link[BC_SCALE_NAME_LEN];
	int64_t count; /* 0 when absent: the pair then weighs nothing */
	struct json_object *node; /* borrowed, copied into the cause's evidence */
};

/* A run finding as the cause needs it; evidence values as the finding wrote them. */
struct bc_scale_rfinding_in {
	char id[64], subject[BC_SCALE_NAME_LEN];
	char count[32], of[32], lost[32], left_bracketed[32], frames[32]; /* "" when absent */
	struct json_object *evidence; /* borrowed */
};

/* The part of a `run --capture` result that bc_scale_cause() reads. */
struct bc_scale_run_result_in {
	size_t n_findings, n_links, n_pairs;
	struct bc_scale_rfinding_in *findings;
	struct bc_scale_link_in *links;
	struct bc_scale_pair_in *pairs;
	double reordered_ratio;	    /* NAN when absent */
	int64_t reordered, received; /* -1 when absent */
	struct bc_doc_read rd;
};

/*
 * bc_scale_run_result_read() - decode the members of a run result that
 * bc_scale_cause() uses (findings, capture.analysis.links and .reordering),
 * all optional: a capture without them shows no cause.  Returns 0 or -ENOMEM.
 */
int bc_scale_run_result_read(struct json_object *res, struct bc_scale_run_result_in *out);
void bc_scale_run_result_in_free(struct bc_scale_run_result_in *r);

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
 * another margin keeps what its capture showed).  A protocol with a
 * configuration that lacks a required member (bc_scale_doc_read()) is not
 * compared: its configurations get no statistics and bc_scale_doc_conclude()
 * makes it inconclusive.  Returns 0; -EINVAL when configs are missing or
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
 * else "inconclusive" when a protocol was not compared because a required
 * member is absent or of the wrong type (the verdict's "missing" names
 * them, jq paths), else "pass".  Returns 0; -EINVAL when the comparisons
 * are missing.
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
