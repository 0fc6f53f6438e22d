/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Renderers of the capture attribution (bondcheck/attrib.h) for
 * `bondcheck analyze`; schema in docs/analyze.md.  Pure: they read a
 * finished struct bc_attrib only.
 */
#ifndef BONDCHECK_ANALYZE_REPORT_H
#define BONDCHECK_ANALYZE_REPORT_H

#include <stdio.h>

#include <json-c/json.h>

#include "bondcheck/attrib.h"

/*
 * bc_analyze_json() - the analysis as a JSON object (links[], flows[],
 * streams[], paths[], reordering{reordered_ratio, pairs[]}, fragments{},
 * ledger{}, findings[]); NULL on ENOMEM.  The caller adds schema_version,
 * bondcheck_version and generated_at, and puts the object.
 */
struct json_object *bc_analyze_json(const struct bc_attrib *a);

/*
 * bc_analyze_text() - the answer block (bc_analyze_answers()), per-link
 * table, paths, reordering pairs, ledger, findings.
 */
void bc_analyze_text(FILE *out, const struct bc_attrib *a);

/*
 * bc_analyze_answers() - the answer block (bondcheck/answer.h): Loss (lost
 * of what left, the link with the most; UNSURE when nothing was
 * attributed), Reordering (late of what arrived, the largest pair of two
 * links), Capture (complete on every link, or which are not).
 */
void bc_analyze_answers(FILE *out, const struct bc_attrib *a);

#endif
