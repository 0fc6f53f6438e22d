/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A run's link state changes on one end (collect/link-watch.h) as JSON, and
 * the slave-down findings drawn from both ends' changes.
 */
#ifndef BC_WORKFLOW_LINK_EVENTS_H
#define BC_WORKFLOW_LINK_EVENTS_H

#include <json-c/json.h>
#include <stdint.h>

#include "collect/link-watch.h"

/*
 * bc_link_events_add() - put @w's changes into @counters (an end's counter
 * object) as "link_events": [{interface, time_ms, admin_up, carrier,
 * removed}], time_ms = ms from @start_ns (that end's CLOCK_MONOTONIC test
 * start; negative before it), and "link_events_overrun": true when
 * notifications were lost.  @w NULL or never started: nothing is added.
 */
void bc_link_events_add(struct json_object *counters, struct bc_link_watch *w, int64_t start_ns);

/*
 * bc_link_ended_down() - from an end's "link_events": true when the last
 * change of @ifname left it without carrier, admin down or removed; then
 * *@time_ms is when it went down for the last time (the first change of
 * that final down run).  False when it ended up, or nothing changed.
 */
bool bc_link_ended_down(struct json_object *end, const char *ifname, double *time_ms);

/*
 * bc_slave_down_findings() - a slave-down finding for every slave of either
 * end's bond (ends.X.metadata.bond.slaves) that went down during the run and
 * stayed down: subject "client/IF" or "agent/IF", evidence time_ms (from
 * that end's test start), mii_status at the end, carrier, admin_up; without
 * link events (an older agent) from the MII status, up before and not up
 * after, with time_ms null.  Returns how many were added to @findings.
 */
int bc_slave_down_findings(struct json_object *ends, struct json_object *findings);

#endif
