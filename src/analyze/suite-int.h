/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the suite analysis files (suite.c, suite-links.c, suite-facts.c). */
#ifndef BC_ANALYZE_SUITE_INT_H
#define BC_ANALYZE_SUITE_INT_H

#include <stdbool.h>

#include <json-c/json.h>

#include "bondcheck/suite-verdict.h"

/* Member @k of @o (NULL when @o is not an object or lacks it). */
struct json_object *bc_sj(struct json_object *o, const char *k);

/* The test named @name in doc.tests (its object {name, role, result}), or NULL. */
struct json_object *bc_suite_test(struct json_object *doc, const char *name);

/* The result of test @name, or NULL. */
struct json_object *bc_suite_result(struct json_object *doc, const char *name);

/* Either end's counters say cpu_bound, or a UDP sender was limited by its CPU. */
bool bc_suite_cpu_bound(struct json_object *result);

/*
 * bc_suite_ceilings() - doc.ceilings from doc.egress, doc.ends and
 * doc.options: per end and slave the rate (tbf, --link-rate, negotiated
 * speed), its accounting, the TCP and UDP ceilings (bondcheck/ceiling.h)
 * and whether the slave is usable; the mode-aware bond ceilings.
 */
struct json_object *bc_suite_ceilings(struct json_object *doc);

/*
 * bc_suite_links() - doc.links: one row per captured test and slave of
 * either end (capture share x goodput, wire rate, drops, retransmits of
 * flows that kept to one link, efficiency against the slave's ceiling).
 */
struct json_object *bc_suite_links(struct json_object *doc, struct json_object *ceilings);

/* bc_suite_flows() - doc.flows: the aggregate test's flows with their links. */
struct json_object *bc_suite_flows(struct json_object *doc);

/* bc_suite_loss_id() - a loss-ledger finding id (tx-loss, wire-loss, rx-loss-*). */
bool bc_suite_loss_id(const char *id);

/* bc_suite_facts_fill() - the verdict inputs from the analysed document. */
void bc_suite_facts_fill(struct json_object *doc, struct bc_suite_facts *f);

#endif
