/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Flow placement for `run --place per-slave[=K]` (workflow/place.c). */
#ifndef BC_WORKFLOW_PLACE_H
#define BC_WORKFLOW_PLACE_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/error.h"
#include "traffic/test-end.h"

/*
 * bc_run_place() - when the route to the agent leaves by a bond: add a
 * `hash-single-path` finding to @findings if its mode and policy put every
 * flow on one link; with @k > 0 (--place per-slave=K) set the stream count
 * to K x usable slaves and choose client ports (t->cports, owned by the
 * caller through *@ports) so each slave transmits K forward streams.
 * @streams_given: -P was on the command line.  Returns 0; -EINVAL for a
 * conflicting -P or a fragmenting --length (usage); -ENOTSUP when the
 * egress is not a bond or placement is unpredictable (environment).
 */
int bc_run_place(struct bc_test *t, uint32_t k, bool streams_given, uint16_t port_base,
		 uint16_t port_stride, uint16_t **ports, struct json_object *findings,
		 struct json_object **placement, struct bc_error *err);

#endif
