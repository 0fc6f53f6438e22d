/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tolerant readers of json-c documents (run results, agent replies): a
 * missing member, a NULL object or a member of another type gives the
 * caller's default instead of a crash.  Used by the run renderers and the
 * run analysis steps that read the merged result document.
 */
#ifndef BONDCHECK_JSON_GET_H
#define BONDCHECK_JSON_GET_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* Member @k of object @o as a 64-bit integer (long long, printable with %lld), or @dflt when @o or the member is absent. */
long long bc_json_i64(struct json_object *o, const char *k, long long dflt);

/* Member @k of object @o as double, or @dflt when absent. */
double bc_json_dbl(struct json_object *o, const char *k, double dflt);

/* Member @k of object @o as a string; "" when absent or JSON null (never NULL). */
const char *bc_json_str(struct json_object *o, const char *k);

/* Length of array @a; 0 when @a is NULL or not an array. */
size_t bc_json_len(struct json_object *a);

/*
 * bc_json_generated_at() - the report's `generated_at` time, RFC 3339 UTC
 * ("2026-11-30T09:00:00Z"), written to @buf (>= 21 bytes).  SOURCE_DATE_EPOCH,
 * when set to a non-negative integer, replaces the current time, so reports
 * are reproducible (reproducible-builds.org convention).
 */
void bc_json_generated_at(char *buf, size_t len);

#endif
