/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Renderers of the failover analysis (bondcheck/failover.h) for
 * `bondcheck failover`; the document is described in docs/failover.md.
 * Pure: a finished struct bc_failover or its JSON in, JSON or text out.
 */
#ifndef BONDCHECK_FAILOVER_REPORT_H
#define BONDCHECK_FAILOVER_REPORT_H

#include <stdio.h>

#include <json-c/json.h>

#include "bondcheck/failover.h"

/*
 * bc_failover_json() - the analysis as a new JSON object: "cut" {bond,
 * slave, mode, hold_ms, cut_ns, restore_ns, cut_done_ns, restore_done_ns},
 * "host_stall_ms" (the measuring host's longest pause), "clock_offset_ns", "expected" {detector,
 * nominal_ms, min_ms, worst_ms, limit_ms, tolerance_ms, recovery_ms, basis,
 * black_hole, missing, agent_assumed: the slowest end, what the hold
 * covers; ends_differ (null when alike), per_end {client, agent} each
 * {detector, sees (carrier, far-carrier, arp, lacpdus, nothing,
 * not-needed), sight, nominal_ms, min_ms, worst_ms, basis, lacp_timeout_ms,
 * missing}, directions [{direction, detected_by [client, agent], detector,
 * slowest, nominal_ms, min_ms, worst_ms, limit_ms, basis, black_hole,
 * far_carrier, missing}]: one range per direction} (null without an
 * expectation), "saw" {client, agent} (bc_failover.saw),
 * "directions" [{direction, verdict, why, streams, interrupted, black_holed,
 * used_cut_slave, gap_ms (longest down gap of the interrupted streams),
 * moved, moved_gap_ms (of the streams that changed links), unaffected_gap_ms
 * (of the others: a pause, not a failover), up_gap_ms, lost, lost_in_gap,
 * duplicates, reordered, tx_before[], tx_after_failover[] (the sender's
 * last departures before the restore), tx_end[], sender_moved,
 * returned_after_restore_ms, not_recovered}], "streams" [{id, direction,
 * sport, dport, left, arrived, delivered, not_delivered, lost, duplicates,
 * reordered, used_cut_slave, interrupted, black_hole, moved, down, up (each
 * {gap_ms, last_before_ms, first_after_ms, last_seq, first_seq, last_link,
 * first_link, first_left_link, lost_in_gap, open} or null), left_before,
 * left_after, left_end, arrived_before, arrived_after, arrived_end}],
 * "links" [{name, host, left, arrived, gratuitous_arp {client, agent,
 * other}, gratuitous_arp_after_cut, unsolicited_na, unsolicited_na_after_cut,
 * first_announcement_after_cut_ms, arp_other, lacpdus, lacp_timeout_ms,
 * lacp_silence_ms (the partner's last LACPDU to the timeout),
 * lacp_partner_last_ms (that LACPDU, relative to the cut),
 * lacp_timeout_expected_ms (the link's host's LACP timeout), lacp_partner_heard_late,
 * lacp_defaulted_ms (after the cut), lacp_resync_ms, returned_ms {client-to-agent,
 * agent-to-client}, truncated}], "recovery" {slave, carries_again_ms, lacp_resync_ms,
 * expected_up_ms (miimon + updelay: the longest before the returned slave
 * counts as up)}, "tcp" (only when cfg.tcp_dport: struct bc_fo_tcp) {direction,
 * sport, dport, verdict (within, longer, shorter, not-recovered, no-stall,
 * no-data), segments_left, segments_arrived, not_delivered, bytes_sent,
 * bytes_delivered, stall_ms, stall_open, last_before_ms, first_after_ms,
 * retransmissions_seen, retransmissions_seen_in_hold, sender_retransmissions
 * (TCP_INFO, null unknown), first_retransmission_ms, goodput_before_bps,
 * goodput_after_bps, left_before, left_after, arrived_before, arrived_after,
 * expected {udp_gap_ms, rto_ms, min_ms, max_ms, rule}}, "timeline" {bin_ns, start_ns, start_ms,
 * cut_ms, restore_ms, links [{name, side ("tx" for the client's links, "rx" for the agent's),
 * frames[] (client-to-agent datagrams per bin: left on a client link, arrived on an agent link),
 * reverse_frames[] (agent-to-client ones), with --tcp tcp_frames[] (the flow's data segments per
 * bin: left on a client link, arrived on an agent link)]}, "events" [{time_ns, label}] (the cut and
 * the restore began, and when their commands finished if that took 20 ms or more, on the capture
 * clock; timeline + events are bc_plot_failover_timeline()'s
 * input), "findings" [...], "notes" [...].  Times named *_ms are ms relative to the cut
 * (last_before, first_after, lacp_timeout, first_announcement, timeline start), to the restore
 * (returned, carries_again, lacp_resync), or durations (gap); null when the event did not happen.
 * Verdicts (struct bc_fo_dirsum): "within" (gap <= the direction's limit_ms), "slow",
 * "black-hole", "inconclusive", "not-interrupted", "no-expectation".
 * NULL on ENOMEM.
 */
struct json_object *bc_failover_json(const struct bc_failover *f);

/*
 * bc_failover_reread() - a document saved by an earlier bondcheck (its
 * "expected" without "directions") read again with the per-end reasoning:
 * "expected", the directions' "verdict" and "why", and "findings" replaced
 * by what bc_failover_expect() and bc_failover_judge() make of its "ends"
 * and its directions' figures (gap_ms, interrupted, black_holed,
 * lost_in_gap, not_recovered, cut.hold), and a note.  What it did not keep
 * stays unknown: who saw the cut, the senders' departures.  A document of
 * this version, or one without the client's configuration, is left as it
 * is.  0, or -ENOMEM (@err).
 */
int bc_failover_reread(struct json_object *doc, struct bc_error *err);

/*
 * bc_failover_report_text() - the text report of a `bondcheck failover`
 * document (bc_failover_json() members plus the workflow's peer, bond,
 * slave, cut, hold_ms, plots, restore, notes): the answer block
 * (bc_failover_report_answers()), what the configuration
 * implies (the ends' difference first, each end's detection and sight, one
 * range per direction; a document without expected.directions, from an
 * older bondcheck, gets its single combined line), one line per direction
 * (gap, loss, slaves before -> after -> end, the verdict's reason), the
 * streams when several, who saw the cut, neighbour announcements, LACP
 * ("last LACPDU from the partner at T, port expired at T + x (timeout y)"),
 * recovery, findings and notes.
 */
void bc_failover_report_text(FILE *out, struct json_object *doc);

/*
 * bc_failover_report_answers() - the answer block (bondcheck/answer.h): per
 * direction ("To agent", "To client") the gap against the expected range
 * (expected.directions[]: min_ms..limit_ms and the detector); PASS within,
 * FAIL black-hole or slow, UNSURE inconclusive, INFO not interrupted.
 */
void bc_failover_report_answers(FILE *out, struct json_object *doc);

#endif
