/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside `bondcheck sweep` (workflow/sweep.c, workflow/sweep-mtu.c). */
#ifndef BC_WORKFLOW_SWEEP_INT_H
#define BC_WORKFLOW_SWEEP_INT_H

#include <json-c/json.h>

#include "bondcheck/sweep.h"

/* A progress line through c->progress. */
void bc_sweep_say(const struct bc_sweep_cfg *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * bc_sweep_run_point() - one run of @point (its "value") as repetition @rep;
 * appends the run (or its error) to point.runs.  Returns bc_client_run()'s
 * result.
 */
int bc_sweep_run_point(const struct bc_sweep_cfg *c, struct json_object *point, unsigned rep);

/*
 * bc_sweep_mtu() - the MTU sweep: journal both ends, then per value set the
 * MTU on both ends, wait until stable, run the repetitions; restore both
 * ends at the end and on every error or interruption.  Adds doc.changes.
 * Returns 0; -EINTR interrupted (restored); -errno when journaling or a
 * change failed (restored).
 */
int bc_sweep_mtu(const struct bc_sweep_cfg *c, struct json_object *doc, struct bc_error *err);

#endif
