/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `bondcheck sweep`: goodput against one parameter of the test (message
 * size, stream count, UDP rate, MTU), each point repeated, with a 95 %
 * confidence interval and the ceiling at that point (docs/sweep.md).
 *
 * The sweep document (JSON, `sweep -j`; bc_plot_sweep() draws it):
 *
 *   {"schema_version": 1, "bondcheck_version", "generated_at", "kind": "sweep",
 *    "peer", "protocol": "tcp"|"udp", "param": "size"|"streams"|"rate"|"mtu",
 *    "unit": "bytes"|"streams"|"bit/s", "repetitions", "duration_ms",
 *    "omit_ms", "confidence": 0.95, "incomplete": bool,
 *    "base": {"streams", "length", "rate_bps" (UDP offered, all streams)},
 *    "changes": {...} (mtu only: each end's interface, journal, restore report),
 *    "points": [{"value", "n", "mean_bps", "sd_bps", "ci_low_bps",
 *                "ci_high_bps", "t_quantile", "ceiling_bps", "efficiency",
 *                "loss_ratio" (UDP), "mtu" (the client's egress MTU),
 *                "runs": [{"rep", "goodput_bps", "ceiling_bps",
 *                          "sent_packets", "received_packets",
 *                          "lost_packets", "retransmits", "cpu_bound",
 *                          "error"?, "tcp_metrics_error"? (the peer's
 *                          TCP metrics could not be cleared before the
 *                          run: bondcheck/tcp-metrics.h)}]}],
 *    "notes": [...]}
 *
 * The CI is mean +- t(0.975, n - 1) x sd / sqrt(n) (Student's t, GSL
 * gsl_cdf_tdist_Pinv); null with fewer than 2 good runs.  The ceiling is
 * bc_client_run()'s (bondcheck/ceiling.h: a tbf limit with the qdisc
 * convention, IP length + 14 per segment; a NIC speed with the Ethernet
 * one, + 38 per frame), at the point's size and MTU.
 * Units: bits/s, bytes, ms.
 */
#ifndef BONDCHECK_SWEEP_H
#define BONDCHECK_SWEEP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "bondcheck/client.h"
#include "bondcheck/doc-read.h"
#include "bondcheck/error.h"

#define BC_SWEEP_MAX_VALUES 64
#define BC_SWEEP_MAX_REPS   100
#define BC_SWEEP_CONFIDENCE 0.95

enum bc_sweep_param {
	BC_SWEEP_SIZE = 0, /* UDP payload / TCP write size, bytes */
	BC_SWEEP_STREAMS,  /* streams per direction */
	BC_SWEEP_RATE,	   /* UDP offered rate, all streams, bits/s */
	BC_SWEEP_MTU,	   /* both ends' MTU, bytes (--allow-changes) */
};

struct bc_sweep_spec {
	enum bc_sweep_param param;
	double values[BC_SWEEP_MAX_VALUES];
	size_t n;
};

/* bc_sweep_param_name() - "size", "streams", "rate", "mtu". */
const char *bc_sweep_param_name(enum bc_sweep_param p);

/*
 * bc_sweep_spec_parse() - "NAME=v1,v2,...": NAME one of size (aliases
 * length, msg-size, message-size), streams (parallel), rate, mtu; values
 * sizes in bytes (binary suffixes: 9K), stream counts 1..128, rates in bit/s
 * (SI suffixes: 50M), MTUs 68..65535; 1..64 distinct values, kept in the
 * order given.  Returns 0; -EINVAL with the name or value and what is
 * allowed in @err.
 */
int bc_sweep_spec_parse(const char *arg, struct bc_sweep_spec *out, struct bc_error *err);

struct bc_sweep_stats {
	size_t n;
	double mean, sd;	/* bits/s */
	double ci_low, ci_high; /* NAN with n < 2 */
	double t;		/* t(1 - (1 - conf) / 2, n - 1); NAN with n < 2 */
};

/*
 * bc_sweep_stats() - mean, sample sd and the @conf two-sided CI of the mean
 * of @n values (Student's t with n - 1 degrees of freedom, GSL).  n == 0
 * gives mean NAN.
 */
void bc_sweep_stats(const double *x, size_t n, double conf, struct bc_sweep_stats *out);

/*
 * The typed sweep point (issue 14 item 1): bc_sweep_point_read() decodes a
 * point's runs once; bc_sweep_point_finish() reasons on this only.
 */
struct bc_sweep_run_in {
	bool failed;	    /* the run has an "error": not counted */
	double goodput_bps; /* required unless failed; NAN when absent */
	double ceiling_bps; /* NAN when absent */
	bool udp;	    /* the run has "sent_packets" */
	double sent_packets, lost_packets; /* NAN when absent (lost is required with sent) */
};

struct bc_sweep_point_in {
	size_t n_runs;
	struct bc_sweep_run_in *runs;
	struct bc_doc_read rd; /* the required members that are absent or mistyped */
};

/*
 * bc_sweep_point_read() - decode @point's "runs" into *@out (free it with
 * bc_sweep_point_in_free()).  Required: "runs", per run that did not fail
 * "goodput_bps", and "lost_packets" beside "sent_packets".  Returns 0 or
 * -ENOMEM.
 */
int bc_sweep_point_read(struct json_object *point, struct bc_sweep_point_in *out);
void bc_sweep_point_in_free(struct bc_sweep_point_in *p);

/*
 * bc_sweep_point_finish() - pure: compute a point's n, mean, sd, CI,
 * ceiling (mean of its good runs'), efficiency and UDP loss ratio from its
 * "runs" (runs with "error" are left out).  A run without "goodput_bps" is
 * left out too, and a required member that is absent or mistyped is named
 * in the point's "missing" (jq paths under the point), which makes the
 * point inconclusive; a ceiling or a loss ratio whose inputs are not all
 * there is null, never a sum with zeros.
 */
void bc_sweep_point_finish(struct json_object *point, double conf);

/* Output (pure; report/sweep-report.c). */
/*
 * The answer block (bc_sweep_report_answers()), then a table: value, n,
 * mean, CI, ceiling, efficiency (and loss for UDP), notes.
 */
void bc_sweep_report_text(FILE *out, struct json_object *doc);
/*
 * bc_sweep_report_answers() - the answer block (bondcheck/answer.h): the
 * point with the highest mean against its ceiling (PASS >= 80 %, WARN
 * below, UNSURE when the ceiling is unknown).
 */
void bc_sweep_report_answers(FILE *out, struct json_object *doc);
/*
 * One CSV row per point (RFC 4180), header:
 * param,value,n,mean_bps,sd_bps,ci_low_bps,ci_high_bps,ceiling_bps,efficiency,loss_ratio,mtu
 */
void bc_sweep_report_csv(FILE *out, struct json_object *doc);
/*
 * bc_sweep_report_plot() - the curve (bc_plot_sweep, PLplot SVG) of @doc at
 * @path: each point's mean with its 95 % CI as an error bar and the ceiling
 * at each value dashed.  Points without a mean are left out; -ENODATA when
 * none has one; otherwise bc_plot_sweep()'s result.
 */
int bc_sweep_report_plot(const char *path, struct json_object *doc, struct bc_error *err);

/* The workflow (workflow/sweep.c). */
struct bc_sweep_cfg {
	struct bc_client_cfg client; /* peer, key, base plan, --link-rate, --rate total */
	struct bc_sweep_spec spec;
	unsigned repetitions;
	bool length_given; /* -l given: an MTU sweep keeps it; else UDP payload = MTU - 28/48 */
	bool allow_changes;
	int stable_timeout_ms;		    /* wait for the bond to be stable after an MTU change */
	volatile sig_atomic_t *interrupted; /* set by the caller's SIGINT/SIGTERM handler */
	void (*progress)(void *ctx, const char *line);
	void *ctx;
};

void bc_sweep_cfg_defaults(struct bc_sweep_cfg *c);

/*
 * bc_sweep_run() - every point @repetitions times (rounds over the values,
 * so drift spreads over all points; an MTU sweep does a value's runs
 * together after changing both ends).  A failed run is kept with its error
 * and left out of the statistics.  Returns 0 and the document; -EINVAL bad
 * configuration (MTU without allow_changes, rate with TCP); -EINTR when
 * *interrupted was set (both ends restored first, *@doc holds what ran);
 * for an MTU sweep the errors of journaling and changing (-EPERM, -ENODEV,
 * -EIO) with nothing left changed.
 */
int bc_sweep_run(const struct bc_sweep_cfg *c, struct json_object **doc, struct bc_error *err);

#endif
