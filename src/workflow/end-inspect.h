/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One end's view of the bond its test traffic leaves by, for the suite
 * (bondcheck/suite.h) and the agent's `inspect` message (docs/protocol.md):
 * the live collector's snapshot of that bond with its findings, as the
 * inspect JSON document (docs/inspect-json.md), and the egress interface as
 * run metadata describes it (traffic/egress.h).
 */
#ifndef BC_WORKFLOW_END_INSPECT_H
#define BC_WORKFLOW_END_INSPECT_H

#include <sys/socket.h>

#include <json-c/json.h>

#include "bondcheck/model.h"

/*
 * bc_end_inspect() - for the interface that carries @local: *@doc = the
 * inspect document of its bond plus "interface" (when it is no bond:
 * {"interface", "bonds": [], "reason"}; when the collector fails: the same
 * with "error"), *@egress = bc_egress_json() (null when no interface has
 * @local).  @snap (may be NULL; zeroed by the caller) keeps the collector
 * snapshot for the caller, who frees it.  Never fails: what went wrong is
 * in the document.
 */
void bc_end_inspect(const struct sockaddr_storage *local, struct bc_snapshot *snap,
		    struct json_object **doc, struct json_object **egress);

#endif
