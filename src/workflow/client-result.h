/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The client's result assembly (workflow/client-result.c), used by workflow/client.c. */
#ifndef BC_WORKFLOW_CLIENT_RESULT_H
#define BC_WORKFLOW_CLIENT_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/client.h"
#include "traffic/test-end.h"

/*
 * Interval pairing state: the previous cumulative snapshots of both ends, and
 * per UDP stream the cumulative messages counted lost so far (lost_cum[id],
 * allocated on the first interval, freed by the caller).
 */
struct bc_ivl_state {
	struct json_object *prev_local, *prev_agent, *all;
	double prev_t;
	uint64_t *lost_cum;
};

/*
 * bc_client_interval() - one interval from the agent's "interval" message
 * and this end's snapshot taken now: per-stream goodput (bits/s) and
 * deltas; appended to st->all and passed to cfg->on_interval.  A UDP
 * interval's lost_packets are the messages newly counted lost: a message
 * is lost once a later one has arrived (a sequence gap), or once it was sent
 * before the previous interval ended and has still not arrived (so a stream
 * whose every message dies still shows its loss; a message more than one
 * interval late is counted lost, and the test's final figures stay exact).
 */
void bc_client_interval(const struct bc_client_cfg *c, struct bc_test *t, struct bc_ivl_state *st,
			struct json_object *msg);

/* bc_client_merge_streams() - streams[]: sender fields from the sender's end, receiver's from the
 * receiver's. */
struct json_object *bc_client_merge_streams(struct bc_test *t, struct json_object *agent_streams);

/* bc_client_summarize() - per-direction sums, ceiling_bps, efficiency and the link description. */
void bc_client_summarize(const struct bc_client_cfg *c, struct bc_test *t, struct json_object *res,
			 struct json_object *streams, struct json_object *notes);

/* bc_client_end_json() - {"counters":..., "metadata":...}; takes both references. */
struct json_object *bc_client_end_json(struct json_object *counters, struct json_object *meta);

/*
 * The agent's clock relative to ours, from request/reply exchanges on the
 * control connection (hello/challenge, start/started): the agent says its
 * CLOCK_REALTIME (time_ns) when it replies, we note ours when we sent (t1)
 * and got the reply (t4).  By causality the agent's reading was taken
 * between t1 and t4, so its offset (agent minus client) lies within
 * time_ns - (t1 + t4) / 2 +- (t4 - t1) / 2 (the NTP bound, RFC 5905 8, with
 * no server processing split out).  The exchange with the smallest bound
 * is kept.
 */
struct bc_clock_est {
	int n;		   /* exchanges with an agent time */
	int64_t offset_ns; /* agent minus client, ns */
	int64_t bound_ns;  /* the offset lies within offset_ns +- bound_ns */
};

/*
 * bc_clock_sample() - one exchange: our t1 (request sent) and t4 (reply
 * read), CLOCK_REALTIME ns, and @reply's "time_ns" (t3, the agent's reply;
 * absent: ignored) and "recv_time_ns" (t2, when the agent read the request;
 * absent in older agents).  With t2: RFC 5905 section 8's offset
 * ((t2 - t1) + (t3 - t4)) / 2 within +- ((t4 - t1) - (t3 - t2)) / 2; without
 * it, t3 - (t1 + t4) / 2 within +- (t4 - t1) / 2.  The tightest bound wins.
 */
void bc_clock_sample(struct bc_clock_est *ce, struct json_object *reply, uint64_t t1, uint64_t t4);

/*
 * bc_client_clock() - res "clock" {agent_minus_client_ms, bound_ms,
 * exchanges, synchronized, shared} from the exchanges on the control
 * connection, and per UDP stream of @streams "one_way_delay"
 * {variation_ms, clock: "shared"|"separate"} from the receiver's transit
 * times (its receive time minus the sender's stamp).  The ends share a
 * clock when they share a boot_id (@shared_clock): only then is the transit
 * the delay, and min_ms, max_ms (bound_ms 0) are given.  Between separate
 * clocks only the variation (max - min) is given, with a note: an offset
 * estimated over the network holds only to half a round trip, which is the
 * size of the delay itself.  The raw transit_* members leave the receiver
 * objects; an offset larger than its bound gets a note.
 */
void bc_client_clock(const struct bc_clock_est *ce, bool shared_clock, struct json_object *res,
		     struct json_object *streams, struct json_object *notes);

/*
 * bc_client_flaps() - a link-flap finding (warning) in @findings for every
 * interface of either end (@ends: {client, agent} with counters.interfaces)
 * whose carrier_changes moved during the run: subject "client/IF" or
 * "agent/IF", evidence carrier_changes and flaps (down-and-up pairs,
 * rounded up).  A link whose link events show it ended down has its final
 * loss of carrier left out (that is slave-down, workflow/link-events.h):
 * one that went down once and stayed down is no flap.  Returns how many.
 */
int bc_client_flaps(struct json_object *ends, struct json_object *findings);

/* bc_client_notes() - clamped buffers, stream errors, shared kernel, CPU-bound. */
void bc_client_notes(struct json_object *streams, struct json_object *ends,
		     struct json_object *notes);

#endif
