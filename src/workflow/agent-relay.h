/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `run-to` (docs/protocol.md "Relayed tests"): on an authenticated control
 * session the controller (`bondcheck matrix`) asks this agent to run one
 * test as a client towards another agent and to return that test's result.
 *
 * Security (DESIGN.md "Security model of the agent", docs/security.md): the
 * agent relays only when it has a pre-shared key (so the controller proved
 * it), and it runs the test with the same key, so it sends test traffic
 * only after the other agent proved that key and accepted the plan on its
 * own authenticated control connection.  The plan is checked against this
 * agent's own limits (--max-streams, --max-duration, --max-rate); captures
 * and placement are not relayed.
 */
#ifndef BC_WORKFLOW_AGENT_RELAY_H
#define BC_WORKFLOW_AGENT_RELAY_H

#include <json-c/json.h>

#include "bondcheck/agent.h"

/* Error codes of a relayed test (the other agent's failure, named). */
#define BC_CTL_E_PEER_UNREACHABLE "peer-unreachable"
#define BC_CTL_E_PEER_AUTH	  "peer-auth-failed"
#define BC_CTL_E_PEER_BUSY	  "peer-busy"
#define BC_CTL_E_PEER_FAILED	  "peer-failed"

/*
 * bc_agent_relay() - serve one `run-to` message @msg on the session socket
 * @fd: validate it, run the test with bc_client_run() towards the named
 * agent, reply {"type":"relayed","peer","port","result"} or an error.
 * Returns 1 when a relayed test ran and its result was sent, 0 when the
 * request was refused or the test failed (an error reply was sent; the
 * session may continue), -errno when the session socket failed.
 */
int bc_agent_relay(const struct bc_agent_cfg *c, int fd, struct json_object *msg);

#endif
