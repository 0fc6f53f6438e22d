/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The findings engine for `inspect`: DESIGN.md "The findings catalog".
 *
 * Findings are computed from the model alone (struct bc_snapshot), never
 * from a source, so a live snapshot and a saved /proc file of the same bond
 * give the same findings.  A field that is not BC_KNOWN never triggers a
 * mismatch: "not reported" and "hidden" are absence, not disagreement.
 * docs/inspect.md lists every id with its severity and trigger; the exact
 * semantics are in the comment above each check in src/analyze/.
 */
#ifndef BONDCHECK_FINDINGS_H
#define BONDCHECK_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "bondcheck/model.h"

/* One catalog entry: the id never changes meaning. */
struct bc_finding_def {
	const char *id;
	enum bc_severity severity;
	const char *summary; /* one line: what triggers it */
};

/*
 * bc_findings_catalog() - the static catalog entries that inspect can report,
 * in documentation order.  @n receives the count.
 */
const struct bc_finding_def *bc_findings_catalog(size_t *n);

/* bc_findings_lookup() - catalog entry for @id, or NULL. */
const struct bc_finding_def *bc_findings_lookup(const char *id);

/*
 * bc_findings_evaluate() - (re)compute snap->findings for every bond.
 *
 * Replaces any findings already in @snap (so it is idempotent), turns
 * snap->disagreements into `source-disagreement` findings, and orders the
 * result by bond, then severity (error first), then evaluation order.
 * Reads snap->tcp_reordering (NOT_REPORTED: the default 3 is assumed).
 *
 * Return: 0, or -ENOMEM (snap->findings then holds what was added so far).
 */
int bc_findings_evaluate(struct bc_snapshot *snap);

/*
 * bc_findings_add_disagreement() - record that two sources disagree on
 * @field of @bond (or of its slave @slave when non-NULL), for example
 * ("netlink", "up") vs ("proc", "down").  Callers must not record a hidden
 * or not-reported side: that is absence, not disagreement (see
 * bc_findings_compare_u32(), which checks this for them).
 * The finding appears at the next bc_findings_evaluate().
 *
 * Return: 0 or -ENOMEM.
 */
int bc_findings_add_disagreement(struct bc_snapshot *snap, const char *bond, const char *slave,
				 const char *field, const char *source_a, const char *value_a,
				 const char *source_b, const char *value_b);

/*
 * bc_findings_compare_u32() - record a disagreement on a numeric field only
 * when both sides carry it (neither BC_NOT_REPORTED nor BC_HIDDEN) and they
 * differ in status (e.g. KNOWN vs UNKNOWN) or value.
 *
 * Return: 1 when a disagreement was recorded, 0 when none, -ENOMEM.
 */
int bc_findings_compare_u32(struct bc_snapshot *snap, const char *bond, const char *slave,
			    const char *field, const char *source_a, const struct bc_u32 *a,
			    const char *source_b, const struct bc_u32 *b);

/* bc_findings_count() - findings of severity @sev in @snap. */
size_t bc_findings_count(const struct bc_snapshot *snap, enum bc_severity sev);

/*
 * bc_finding_is_about() - whether @f's subject is bond @bond ("bond0") or one
 * of its slaves ("bond0/eth1").
 */
bool bc_finding_is_about(const struct bc_finding *f, const char *bond);

#endif
