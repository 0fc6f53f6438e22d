/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `bondcheck watch` output (src/report/watch-text.c, watch-json.c):
 * a line (or, on a terminal, a block redrawn in place) per interval, and at
 * the end the answer block, the whole watch's slaves and flows, and the
 * verdicts.  JSON: one object per line, {"type": "interval", ...} per
 * interval and {"type": "summary", ...} at the end (docs/watch.md).
 */
#ifndef BONDCHECK_WATCH_REPORT_H
#define BONDCHECK_WATCH_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <json-c/json.h>

#include "bondcheck/watch.h"

/* What the summary says about the watch as a whole. */
struct bc_watch_run_info {
	const char *bond;
	int mode;		/* enum bc_bond_mode */
	const char *policy;	/* "" n/a */
	double elapsed_s;	/* first sample to last */
	size_t n_intervals;
	size_t top;		/* flows listed */
	const char *flows_error;/* the last sample's, "" none */
	size_t flows_dropped;
	bool taps;		/* the slave taps gave the flows' slaves */
	const struct bc_watch_flow_sums *sums; /* the JSON summary's "placement"; NULL: null */
	uint64_t tap_flow_entries, tap_flow_capacity, tap_flow_fail;
	uint64_t tap_flow_evicted; /* LRU evictions, the intervals' sum */
};

/*
 * bc_watch_text_interval() - interval @i (1-based) of @iv ending @t_s after
 * the start: one line, or with @redraw (a terminal) a block of the slaves
 * and the @top busiest flows that replaces the previous block (@lines_prev
 * lines; returns the lines printed, for the next call).
 */
int bc_watch_text_interval(FILE *out, const struct bc_watch_interval *iv, double t_s, bool redraw,
			   int lines_prev, size_t top);

/* bc_watch_text_summary() - the answer block (or only it with @brief), tables, verdicts. */
void bc_watch_text_summary(FILE *out, const struct bc_watch_run_info *ri,
			   const struct bc_watch_interval *total, const struct bc_watch_verdicts *v,
			   bool brief);

/* bc_watch_json_interval() / _summary() - one JSON object each (the caller prints it). */
struct json_object *bc_watch_json_interval(const struct bc_watch_interval *iv, double t_s);
struct json_object *bc_watch_json_summary(const struct bc_watch_run_info *ri,
					  const struct bc_watch_interval *total,
					  const struct bc_watch_verdicts *v);

/*
 * bc_watch_json_placement() - the document of bc_plot_watch_flows()
 * (bondcheck/plot.h) from the watch's sums @t: the slaves seen (t->slave),
 * and the @max flows that carried the most bytes (TX + RX) over the whole
 * watch, busiest first, each with its label ("tcp 10.0.0.1:40000 >
 * 10.0.0.2:5201", at most 63 characters), the source of its slaves (the last
 * interval's), its bytes each way and the bytes on each slave (tx_on,
 * rx_on; what no slave holds is unknown).  Flows without a byte are left
 * out.  The caller puts the object.
 */
struct json_object *bc_watch_json_placement(const struct bc_watch_flow_sums *t, const char *bond,
					    size_t max);

/* bc_watch_failed() - true when a verdict failed (exit status 1). */
bool bc_watch_failed(const struct bc_watch_verdicts *v);

#endif
