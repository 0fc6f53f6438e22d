/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Flow placement for `run --place per-slave[=K]` (workflow/place.c). */
#ifndef BC_WORKFLOW_PLACE_H
#define BC_WORKFLOW_PLACE_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/error.h"
#include "bondcheck/xmit-hash.h"
#include "traffic/test-end.h"

/*
 * bc_run_place() - when the route to the agent leaves by a bond: add a
 * `hash-single-path` finding to @findings if its mode and policy put every
 * flow on one link; with @k > 0 (--place per-slave=K) set the stream count
 * to K x usable slaves and choose client ports (t->cports, owned by the
 * caller through *@ports) so each slave transmits K forward streams.
 * @streams_given: -P was on the command line.  With @n_onto > 0 (`scale
 * --method placement`) @k is ignored: the plan's stream count stays and
 * stream i leaves on the slave named @onto[i % @n_onto] (placement member
 * "onto" lists them).  Returns 0; -EINVAL for a conflicting -P, a
 * fragmenting --length, or an @onto name that is not a usable slave
 * (usage); -ENOTSUP when the egress is not a bond or placement is
 * unpredictable (environment).
 */
int bc_run_place(struct bc_test *t, uint32_t k, bool streams_given, const char *const *onto,
		 size_t n_onto, uint16_t port_base, uint16_t port_stride, uint16_t **ports,
		 struct json_object *findings, struct json_object **placement,
		 struct bc_error *err);

/*
 * bc_place_single_path_finding() - add to @findings the `hash-single-path`
 * finding for bond @b (its mode and policy put every flow between two hosts
 * on one link) with @streams in its evidence.
 */
void bc_place_single_path_finding(struct json_object *findings, const struct bc_bond *b,
				  uint32_t streams);

/* First client port the agent considers for reverse streams (above 40000 + i). */
#define BC_PLACE_REVERSE_BASE 50000

/*
 * bc_place_reverse_flows() - the agent's flow templates for the reverse
 * streams of @t (plan, local and peer addresses set): source = the agent's
 * address and data port (TCP: dport; UDP: dport + stream id), destination =
 * the client, dport left 0 for the search.  Writes one flow and its stream
 * id per reverse stream to @flows and @ids (room for every stream); returns
 * their count.
 */
int bc_place_reverse_flows(const struct bc_test *t, struct bc_flow *flows, uint32_t *ids);

/*
 * bc_agent_place() - the agent's half of --place: with plan.place_k and
 * reverse streams, read the agent's bond with the live collector and choose
 * for each reverse stream the client port that makes the agent's bond send
 * it on usable slave (stream order % n) (bc_place_peer_ports).  Returns a
 * new object {direction, placed, bond, xmit_hash_policy, kernel_release,
 * streams[{id, client_port, agent_port, predicted_slave}]}, or with placed
 * false a "reason" (no bond, hash-single-path, fragments, ...); NULL when
 * nothing is to be placed.  It does not fail the test.
 */
struct json_object *bc_agent_place(struct bc_test *t);

/*
 * bc_run_place_reverse() - the client's half: from the agent's "ready"
 * message take placement.streams[].client_port into t->cports (allocating
 * *@ports for all streams when the forward placement did not) and attach
 * the agent's object as @placement "reverse" (creating @placement when
 * NULL).  0; -EPROTO for a port given to a stream that is not reverse.
 */
int bc_run_place_reverse(struct bc_test *t, struct json_object *ready, uint16_t **ports,
			 struct json_object **placement, struct bc_error *err);

#endif
