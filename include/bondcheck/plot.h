/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SVG plots of bondcheck's JSON documents, drawn by PLplot's svg driver
 * (DESIGN.md "Reports"; docs/analyze.md "Plots").
 *
 * Pure: each function reads one JSON document (json-c) and writes one SVG
 * file at @path, nothing else.  The input is validated completely before
 * PLplot is called, so bad input never reaches PLplot (which would print or
 * exit): it gives -EINVAL with a bc_error naming the member
 * ("timeline.links[2].wire_bytes[7]: expected a number >= 0, found
 * \"x\""), and no file.  A document that is valid but holds nothing to draw
 * (no bins, every count zero) gives -ENODATA, and no file.  The SVG is
 * written to a temporary file in @path's directory and renamed over @path
 * only when complete: on any error nothing is left at @path.
 *
 * Other errors: -errno when the file cannot be created or written (EACCES,
 * ENOENT, ENOSPC, ...); -ENODEV when PLplot has no svg driver or its data
 * files are missing (install libplplot-data); -EIO when PLplot reported an
 * error while drawing.
 *
 * Units: rates in the JSON are bits/s and are plotted in Mbit/s (10^6
 * bits/s); times in the JSON are ns and are plotted in s or ms, as the axis
 * label says; counts are plotted as they are.
 *
 * State: PLplot keeps global state.  Each call creates its own PLplot
 * stream (plmkstrm), ends it (plend1) and restores the caller's current
 * stream, so the functions can be called any number of times in one
 * process; they are not thread-safe (call them from one thread).  PLplot
 * formats numbers with the C locale's conventions: do not switch
 * LC_NUMERIC in the calling process.
 *
 * Look: white page, 960 x 560 pt; data series in a fixed colour order
 * (blue #1F77B4, orange #FF7F0E, green #2CA02C, purple #9467BD, brown
 * #8C564B, pink #E377C2, olive #BCBD22, cyan #17BECF, grey #7F7F7F, navy
 * #393B79), losses in red (#D62728).
 */
#ifndef BONDCHECK_PLOT_H
#define BONDCHECK_PLOT_H

#include <json-c/json.h>

#include "bondcheck/error.h"

/*
 * bc_plot_link_timeline() - per-link throughput over time: one line per
 * link, a panel for the links the data left on and one for the links it
 * arrived on.
 * @doc: the capture analysis (`bondcheck analyze -j`, run's
 *       capture.analysis) with member "timeline", or the timeline object.
 *   timeline.bin_ns              integer > 0, ns
 *   timeline.start_ns            integer >= 0, ns (shown as the time origin)
 *   timeline.links[]             1..32 objects:
 *     .name                      string ("tx:client/eth0")
 *     .side                      "tx" | "rx"
 *     .wire_bytes[]              numbers >= 0, wire bytes per bin (forward)
 *     .reverse_wire_bytes[]      optional, the same for the reverse direction
 *   Every array has the same length, 1..BC_ATTRIB_MAX_BINS (4096).
 * The direction with more bytes is drawn (forward: left on tx: links,
 * arrived on rx: links; reverse: the other way round).  Plotted: Mbit/s =
 * wire_bytes x 8 / bin width, at the bins' centres.  -ENODATA when every
 * byte count is 0.
 */
int bc_plot_link_timeline(const char *path, struct json_object *doc, struct bc_error *err);

/*
 * bc_plot_reorder_density() - RFC 5236 reorder density: the share of
 * datagrams at each displacement D (receive index minus sequence number:
 * D > 0 late, D < 0 early, 0 in order), log scale.
 * @doc: an object with "reorder_density" (run's per-stream "reordering",
 *       the analysis' "reordering"), or an object whose "reordering" has it
 *       (the capture analysis).
 *   reorder_density              object {"D": count}: D an integer in
 *                                -1000..1000 written in decimal, count a
 *                                number >= 0; at least one count > 0
 *                                (else -ENODATA)
 *   reorder_density_threshold    optional integer 1..1000, DT: the x axis
 *                                spans -DT..DT (default: the largest |D|)
 *   observation_point            optional string, shown in the subtitle
 *   reordered_ratio              optional number 0..1, shown in the subtitle
 */
int bc_plot_reorder_density(const char *path, struct json_object *doc, struct bc_error *err);

/*
 * bc_plot_ledger() - the UDP loss ledger as a waterfall: one bar per stage
 * with its count, and in red on top of it what was lost since the previous
 * measured stage.
 * @doc: the ledger array, or an object with member "ledger" (the capture
 *       analysis).  2..16 stages, in order:
 *   [].stage                     string ("sent_by_app", "left_on_link", ...)
 *   [].count                     number >= 0, or null when not measured
 *                                (drawn as a grey "not measured" bar)
 *   [].counter                   optional string: the counters that moved,
 *                                printed under the stage's loss
 * The drop of a stage is the previous measured count minus its count
 * (never below 0).  At least one count must be measured (else -ENODATA).
 * When the losses are small against the counts, the y axis starts above 0
 * so the red parts can be seen, and the subtitle says so.
 */
int bc_plot_ledger(const char *path, struct json_object *doc, struct bc_error *err);

/*
 * bc_plot_scaling() - `bondcheck scale`: goodput against the number of
 * links N, each run as a dot, the mean as a line, its 95 % CI as a band,
 * and the ceiling as a dashed line.
 * @doc: the scale document (API-reports.md):
 *   configs[]                    1..64 objects:
 *     .n                         integer 1..1024, links
 *     .mean_bps                  number >= 0, bits/s
 *     .ci_low_bps, .ci_high_bps  optional (both or neither), numbers >= 0
 *     .ceiling_bps               optional number >= 0
 *     .runs[].goodput_bps        optional, numbers >= 0
 *   link_ceiling_bps             optional number > 0: the ceiling of a
 *                                config without its own is n x this
 *   protocol, method             optional strings, in the title
 *   flows                        optional integer, in the title
 *   verdict.text                 optional string, the subtitle
 */
int bc_plot_scaling(const char *path, struct json_object *doc, struct bc_error *err);

/*
 * bc_plot_heatmap() - `bondcheck matrix`: goodput of every ordered pair of
 * hosts as coloured cells (row sends to column), with the value in Mbit/s
 * and the efficiency written in each cell.
 * @doc:
 *   hosts[]                      2..32 distinct strings
 *   pairs[]                      objects, at most one per ordered pair:
 *     .from, .to                 strings from hosts[], different
 *     .goodput_bps               number >= 0, or null (no answer: grey)
 *     .efficiency                optional number 0..10 (goodput / ceiling)
 *   A pair that is not listed is drawn as "not tested".  -ENODATA when no
 *   pair has a goodput.
 */
int bc_plot_heatmap(const char *path, struct json_object *doc, struct bc_error *err);

/*
 * bc_plot_fleet_findings() - `bondcheck fleet --plot`: a host x finding
 * heatmap, one row per host, one column per finding, a cell coloured by
 * the finding's severity (error red, warning orange, info blue) with the
 * count written in it where the host has the finding.
 * @doc:
 *   hosts[]                      1..BC_PLOT_FLEET_MAX_HOSTS distinct strings
 *   findings[]                   0..BC_PLOT_FLEET_MAX_FINDINGS objects:
 *     .label                     string (the finding id, "fleet-drift driver")
 *     .severity                  "error", "warning" or "info"
 *   counts[]                     one array per host of one integer >= 0 per finding
 *   note                         optional string, the second subtitle
 *   -ENODATA when every count is 0.
 */
#define BC_PLOT_FLEET_MAX_HOSTS	   40
#define BC_PLOT_FLEET_MAX_FINDINGS 40
int bc_plot_fleet_findings(const char *path, struct json_object *doc, struct bc_error *err);

/*
 * bc_plot_sweep() - `bondcheck sweep`: goodput against a parameter, the
 * mean of each point with its 95 % CI as an error bar, and the ceiling at
 * each value as a dashed line.
 * @doc:
 *   param                        string: "size"/"msg-size"/"message-size"
 *                                (bytes), "streams", "rate" (bits/s, plotted
 *                                in Mbit/s), "mtu" (bytes), or another name
 *   unit                         optional string for the x label of another
 *                                parameter
 *   points[]                     1..256 objects:
 *     .value                     number (distinct; drawn in ascending order)
 *     .mean_bps                  number >= 0
 *     .ci_low_bps, .ci_high_bps  optional (both or neither), numbers >= 0
 *     .ceiling_bps               optional number >= 0
 *   protocol                     optional string, in the title
 */
int bc_plot_sweep(const char *path, struct json_object *doc, struct bc_error *err);

/*
 * bc_plot_failover_timeline() - `bondcheck failover`: datagrams per bin
 * (10 ms) arriving on each slave around the event, one panel per
 * direction, the events as vertical lines; time relative to the first
 * event.
 * @doc:
 *   timeline                     as in bc_plot_link_timeline(), with
 *                                .links[].frames[] (and optional
 *                                .reverse_frames[]) instead of the bytes:
 *                                frames per bin, numbers >= 0; optional
 *                                .tcp_frames[] (failover --tcp): the TCP
 *                                flow's segments per bin, drawn dashed on
 *                                the rx: links in the forward panel
 *   events[]                     1..16 objects:
 *     .time_ns                   integer >= 0, on the capture clock (the
 *                                clock of timeline.start_ns)
 *     .label                     string ("eth1 down")
 *   from_ns, to_ns               optional integers: draw only the bins
 *                                inside [from_ns, to_ns)
 * Forward datagrams are drawn as they arrived on the rx: links, reverse
 * ones as they arrived on the tx: links; a direction without frames is left
 * out (both without: -ENODATA).
 */
int bc_plot_failover_timeline(const char *path, struct json_object *doc, struct bc_error *err);

/*
 * bc_plot_watch_flows() - `bondcheck watch --plot`: which slave carried
 * each flow.  One row per flow (the first at the top), two panels: the
 * bytes it sent (TX) and received (RX), each a horizontal bar stacked by
 * slave (a series colour per slave, in the order of slaves[]), then in grey
 * the bytes whose slave is unknown (never drawn as zero: an RX without the
 * taps is a grey bar of its bytes), and after the bar the source of the
 * slave: "observed (taps)", "predicted (hash)" or "slave unknown".
 * @doc (bc_watch_json_placement()):
 *   bond                         optional string, in the title
 *   slaves[]                     1..16 distinct strings
 *   flows[]                      0..BC_PLOT_WATCH_MAX_FLOWS objects:
 *     .label                     string, 1..63 characters (the short 5-tuple)
 *     .tx_source, .rx_source     "observed", "predicted" or "unknown"
 *     .tx_bytes, .rx_bytes       numbers >= 0: the flow's bytes each way
 *     .tx_on[], .rx_on[]         one number >= 0 per slave: the bytes that
 *                                slave carried; their sum <= .tx_bytes
 *                                (.rx_bytes), the rest is unknown
 * Plotted in bytes, kB, MB, GB or TB (powers of 1000, as the axis says),
 * each panel on its own scale (RX is often only the ACKs of a sender).
 * -ENODATA when there is no flow or every flow's bytes are 0.
 */
#define BC_PLOT_WATCH_MAX_FLOWS 12
int bc_plot_watch_flows(const char *path, struct json_object *doc, struct bc_error *err);

#endif
