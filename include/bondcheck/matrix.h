/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `bondcheck matrix`: every ordered pair of a cluster's hosts, each running
 * `bondcheck serve` with the same pre-shared key (docs/matrix.md).
 *
 * The controller authenticates to every agent, then for each ordered pair
 * (A, B) asks agent A with `run-to` (docs/protocol.md "Relayed tests") to run
 * one test as a client towards agent B; B accepts A's authenticated control
 * connection, so no agent sends to a host that did not consent (DESIGN.md
 * "Security model of the agent").  After the throughput test A sends DF
 * probes (plan member "df") of both hosts' configured MTU sizes towards B:
 * the path MTU check.
 *
 * The matrix document (JSON, `matrix -j`):
 *
 *   {"schema_version": 2, "bondcheck_version", "generated_at", "kind": "matrix",
 *    "protocol": "tcp"|"udp", "streams", "duration_ms", "length",
 *    "rate_bps_per_stream", "pairs_rule": "all"|"ring"|"random:K"|"bisection",
 *    "seed": n|null (random only), "concurrency" (the limit, pairs at once),
 *    "concurrent_pairs_max" (the most pairs that ran at once), "port",
 *    "incomplete": bool,
 *    "hosts": [{"name", "index", "status": "ok"|"unreachable"|"auth-failed"|
 *               "busy"|"error", "error"?, "interface"?, "mtu"?,
 *               "link_rate_bps"?, "rate_source"?, "link_ceiling_bps"? (sending),
 *               "ingress_ceiling_bps"? (receiving; null unknown)}],
 *    "rounds": n (rounds of disjoint pairs), "steps": n (runs of at most
 *    "concurrency" pairs at once; a round has one or more),
 *    "pairs": [{"from", "to", "from_index", "to_index", "round", "step",
 *               "status": "ok"|"failed"|"skipped", "error"?: {"code", "message"},
 *               "goodput_bps", "ceiling_bps", "efficiency", "limited_by":
 *               "sender"|"receiver", "sender_ceiling_bps" (the sender's
 *               egress), "receiver_ceiling_bps" (the receiver's ingress),
 *               "run_ceiling_bps", "retransmits",
 *               "sent_packets", "received_packets", "lost_packets",
 *               "loss_share" (retransmits per segment or lost / sent; null),
 *               "cpu_bound", "notes": [...], "missing"?: [...],
 *               "client": {end}, "agent": {end},
 *               "pmtu": {"status": "ok"|"blackhole"|"mismatch"|"not-run",
 *                        "largest_carried", "probes": [{"size", "payload",
 *                        "sent", "received", "send_errors", "carried"}]}}],
 *    "matrix": {"hosts": [names], "goodput_bps": [[...]], "ceiling_bps":
 *               [[...]], "efficiency": [[...]], "pmtu_largest": [[...]]}
 *               (row = sender, column = receiver; null on the diagonal and
 *               for pairs that did not run),
 *    "findings": [{"id", "severity", "subject", "evidence": {...}, "advice"}],
 *    "verdicts": {"slow_hosts", "loss", "mtu"} (bondcheck/verdict.h, docs/json.md
 *               "Matrix verdicts")}
 *
 * where {end} = {"host", "interface", "mtu", "link_rate_bps", "rate_source",
 * "ceiling_bps" (sending), "ingress_rate_bps", "ingress_rate_source",
 * "ingress_ceiling_bps" (receiving), "rx_dropped", "rx_missed_errors",
 * "rx_over_errors", "tx_dropped", "qdisc_drops"} (counter deltas over the
 * test, summed over the interface and, for a bond, its slaves).  A skipped
 * pair has "round" and "step" null.  Schema 3 (was 1): "round" is the round
 * of disjoint pairs (1: the pairs that ran at once, now "step"), "rounds"
 * counts them; "steps", "pairs_rule", "seed", "concurrent_pairs_max" are
 * new; pair ceilings per direction ("ceiling_bps", "efficiency" and
 * "limited_by" changed meaning) and "verdicts".
 *
 * Units: bits/s, bytes, ms.
 */
#ifndef BONDCHECK_MATRIX_H
#define BONDCHECK_MATRIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "bondcheck/ctl-auth.h"
#include "bondcheck/error.h"
#include "bondcheck/matrix-plan.h"
#include "bondcheck/plan.h"

#define BC_MATRIX_MAX_HOSTS BC_MATRIX_PLAN_MAX_HOSTS
/*
 * Most ordered pairs a run holds (its document and analysis keep every
 * pair); --plan has the planner's larger limit.
 */
#define BC_MATRIX_MAX_PAIRS 16384

/*
 * A host is "slow" in one direction when the median efficiency of its pairs
 * in that direction is below BC_MATRIX_SLOW_RATIO - BC_MATRIX_SLOW_MARGIN of
 * the median of the pairs without it, and "borderline" up to
 * BC_MATRIX_SLOW_RATIO + BC_MATRIX_SLOW_MARGIN: a result near the line is
 * reported with its numbers (host-borderline), never dropped, so that the
 * host is named in every one of repeated runs whichever side of 0.7 its
 * median falls.
 */
#define BC_MATRIX_SLOW_RATIO  0.7
#define BC_MATRIX_SLOW_MARGIN 0.1
/* A host's link is "slower" below this share of the other hosts' median link ceiling. */
#define BC_MATRIX_LINK_RATIO 0.5
/*
 * Loss into (or out of) one host: the median loss share of its pairs in one
 * direction (TCP: retransmits per segment sent, the segments estimated from
 * goodput x duration at the pair's MSS, MTU - 52; UDP: lost / sent) is at
 * least BC_MATRIX_LOSS_SHARE and BC_MATRIX_LOSS_FACTOR times the median of
 * the pairs without it; borderline from half of each.  5 %: a TCP sender
 * overfilling its own shaper loses 1-4 % in some pairs at random (netns,
 * 40 Mbit/s tbf, 1 s tests); a port that drops bursts, 10-35 % in all the
 * pairs through it (issue 16: 2,400 retransmits in ~21,000 segments).
 */
#define BC_MATRIX_LOSS_SHARE  0.05
#define BC_MATRIX_LOSS_FACTOR 5.0

/*
 * bc_matrix_pair_fill() - pure: fill pair object @pair from the `run`
 * result @result that agent "from" relayed (bondcheck/client.h): goodput,
 * retransmits, UDP counts, both ends' interface, MTU and link rate (from
 * ends.*.metadata.egress), their counter deltas, the pair's ceiling and
 * efficiency.  The pair ceiling is per direction: the smaller of the
 * sender's egress ceiling (its tbf, else its NIC speed) and the receiver's
 * ingress ceiling (its NIC speed alone: its egress shaper does not limit
 * what it receives; no ingress policer is in the agent's metadata), each
 * by bc_ceiling_link / bc_ceiling_bond at the smaller MTU of the two ends,
 * the plan's protocol and length, each rate's convention (tbf -> qdisc, NIC
 * speed -> Ethernet); the known one when the other is unknown, 0 when
 * neither is or an end's egress is incomplete (then efficiency is null).
 * "limited_by" says which of the two held the pair.  Sets "status": "ok".  The result is decoded once by
 * bc_matrix_run_read() (bondcheck/matrix-doc.h, which lists the required
 * members); what it lacks or has mistyped is listed in pair.missing (jq
 * paths in the result), goodput_bps is null when it is missing, the
 * ceiling unknown (0) when an end's egress is incomplete, and
 * bc_matrix_analyze() makes the pair inconclusive.  Returns 0, -EINVAL when
 * @result lacks a "streams" array, -ENOMEM.
 */
int bc_matrix_pair_fill(struct json_object *pair, struct json_object *result, struct bc_error *err);

/*
 * bc_matrix_probe_sizes() - the DF probe sizes (IP packet bytes) for a pair
 * whose ends have MTUs @mtu_from and @mtu_to: each distinct value no larger
 * than @mtu_from (a larger one cannot leave the sender), ascending.  Writes
 * at most 2 to @sizes and returns the count.
 */
size_t bc_matrix_probe_sizes(uint32_t mtu_from, uint32_t mtu_to, uint32_t sizes[2]);

/*
 * bc_matrix_probe_add() - pure: record the result of a DF probe of @size
 * bytes (a relayed UDP `run` result, or NULL with @error when it failed)
 * in pair.pmtu.probes.  "carried" is true when at least one datagram
 * arrived; null, with "error" naming the members, when @result lacks
 * streams[0].sent_packets or received_packets (bc_matrix_run_read()).
 */
void bc_matrix_probe_add(struct json_object *pair, uint32_t size, struct json_object *result,
			 const char *error);

/*
 * bc_matrix_analyze() - pure: from doc.hosts and doc.pairs compute each
 * pair's pmtu.status, the host summaries, doc.matrix and doc.findings
 * (replacing any).  Findings (docs/matrix.md; catalog in analyze/findings.c):
 *   host-unreachable  a host the controller could not use (status != ok);
 *   pair-failed       a pair whose test failed;
 *   host-slow         a host whose pairs in one direction (as sender, as
 *                     receiver) reach, as their median, less than
 *                     BC_MATRIX_SLOW_RATIO - BC_MATRIX_SLOW_MARGIN of the
 *                     median of the pairs without it (efficiency when every
 *                     pair has a ceiling, else goodput; needs 3 hosts);
 *   host-borderline   the same between that and BC_MATRIX_SLOW_RATIO +
 *                     BC_MATRIX_SLOW_MARGIN, or a loss near its line: the
 *                     numbers reported, not judged;
 *   host-link-slower  a host whose link ceiling when sending (egress) or
 *                     receiving (NIC speed) is below BC_MATRIX_LINK_RATIO
 *                     of the others' median in that direction;
 *   host-loss         the pairs into (or out of) a host lose
 *                     (BC_MATRIX_LOSS_*), with where: a queue before it
 *                     when its own drop counters stay 0, its interface,
 *                     a queue after it, its own egress queue;
 *   pair-over-ceiling a pair over its ceiling by > BC_EFFICIENCY_TOLERANCE;
 *   host-mtu-mismatch a host whose MTU differs from the most common one,
 *                     with the peers its own-size DF probes did not reach;
 *   path-mtu-blackhole a pair whose DF probe no larger than both ends' MTU
 *                     was lost entirely;
 *   host-rx-drops     a host whose interface dropped received frames
 *                     (rx_dropped + rx_missed_errors + rx_over_errors) in
 *                     the tests it received.
 * Peer lists in findings are sorted by name.  doc.verdicts holds the three
 * verdicts as data (no words: bc_matrix_verdicts_answer() renders them).
 * Returns 0, or -EINVAL when doc lacks "hosts" or "pairs".
 */
int bc_matrix_analyze(struct json_object *doc, struct bc_error *err);

/* Output (pure; report/matrix-report.c). */
/*
 * The answer block (bc_matrix_report_answers()), the matrix of goodput and
 * efficiency, the path MTU table, hosts, findings.
 */
void bc_matrix_report_text(FILE *out, struct json_object *doc);
/*
 * bc_matrix_report_answers() - the answer block (bondcheck/answer.h), one
 * line per verdict of doc.verdicts (report/matrix-verdict.c): Slow hosts
 * (host-slow, host-borderline, host-unreachable; a slower link is WARN),
 * Loss (host-loss, borderline), MTU (host-mtu-mismatch, path-mtu-blackhole);
 * FAIL, UNSURE for borderline or not judged, PASS.
 */
void bc_matrix_report_answers(FILE *out, struct json_object *doc);

struct bc_verdict;

/*
 * bc_matrix_verdict_render() - one matrix verdict (question "slow_hosts",
 * "loss" or "mtu", as bc_matrix_analyze() filled it) as one line into @buf
 * (@len bytes, always terminated): the cause from its mechanism and
 * evidence, and the next step.  Returns the length it wanted.
 */
int bc_matrix_verdict_render(const struct bc_verdict *v, char *buf, size_t len);

/*
 * bc_matrix_verdicts_answer() - each verdict of doc.verdicts gets its
 * rendered "answer" (bc_matrix_verdict_render()); called by whoever
 * assembles the document, after bc_matrix_analyze() (which writes no words).
 */
void bc_matrix_verdicts_answer(struct json_object *doc);
/*
 * One CSV row per ordered pair, RFC 4180 quoting, header:
 * from,to,status,goodput_bps,ceiling_bps,efficiency,limited_by,retransmits,
 * lost_packets,from_mtu,to_mtu,pmtu_largest_carried,pmtu_status,error,
 * loss_share,sender_ceiling_bps,receiver_ceiling_bps
 */
void bc_matrix_report_csv(FILE *out, struct json_object *doc);
/*
 * bc_matrix_report_plot() - the goodput heatmap (bc_plot_heatmap, PLplot SVG)
 * of @doc at @path: row sends to column, each cell's Mbit/s and efficiency,
 * pairs that did not run grey.  Returns bc_plot_heatmap()'s result (-EINVAL
 * for more than 32 hosts, -ENODATA when no pair ran).
 */
int bc_matrix_report_plot(const char *path, struct json_object *doc, struct bc_error *err);

/* The controller (workflow/matrix.c). */
struct bc_matrix_cfg {
	const char *const *hosts; /* names or addresses, as the agents are reached */
	unsigned n_hosts;
	uint16_t port; /* every agent's control port */
	struct bc_auth_key key;
	struct bc_plan plan; /* per pair; test_id is drawn by each agent */
	struct bc_matrix_rule rule; /* which pairs (bondcheck/matrix-plan.h) */
	bool seed_given;            /* random: --seed N, else drawn (reported either way) */
	unsigned concurrency;       /* pairs at once, at most BC_MATRIX_MAX_CONCURRENCY */
	bool pmtu; /* the DF probes after each pair's test */
	int connect_timeout_ms;
	/* progress (one line per event); NULL: silent */
	void (*progress)(void *ctx, const char *line);
	void *ctx;
};

void bc_matrix_cfg_defaults(struct bc_matrix_cfg *c);

/*
 * bc_matrix_run() - authenticate to every host, plan the pairs of the
 * hosts that answered (bc_matrix_plan_make() with c.rule), run them round
 * by round, at most c.concurrency at a time, with the probes, analyze.  A
 * host that does not answer or refuses the key is reported in doc.hosts
 * (and a finding); with the rule "all" its ordered pairs are listed as
 * "skipped", with the other rules the plan is made without it.  Returns 0
 * and the document in *@doc; -EINVAL for a bad configuration (fewer than 2
 * hosts, no key, a plan of more than BC_MATRIX_MAX_PAIRS pairs); -ENOMEM.
 */
int bc_matrix_run(const struct bc_matrix_cfg *c, struct json_object **doc, struct bc_error *err);

#endif
