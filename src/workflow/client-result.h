/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The client's result assembly (workflow/client-result.c), used by workflow/client.c. */
#ifndef BC_WORKFLOW_CLIENT_RESULT_H
#define BC_WORKFLOW_CLIENT_RESULT_H

#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/client.h"
#include "traffic/test-end.h"

/* Interval pairing state: the previous cumulative snapshots of both ends. */
struct bc_ivl_state {
	struct json_object *prev_local, *prev_agent, *all;
	double prev_t;
};

/*
 * bc_client_interval() - one interval from the agent's "interval" message
 * and this end's snapshot taken now: per-stream goodput (bits/s) and
 * deltas; appended to st->all and passed to cfg->on_interval.
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

/* bc_client_notes() - clamped buffers, stream errors, shared kernel, CPU-bound. */
void bc_client_notes(struct json_object *streams, struct json_object *ends,
		     struct json_object *notes);

#endif
