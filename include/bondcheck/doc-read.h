/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Strict readers for the typed decode of bondcheck's own documents (suite,
 * scale, matrix: issue 14 item 1).  One reader per document kind walks the
 * json-c tree once and fills a typed struct; the analysis then reasons on
 * that struct only.  Unlike json-get.h's tolerant getters, these never turn
 * an absent member into a default: each call says whether the value was
 * there and of the expected type, and records the member's path when it was
 * not, so that a verdict that needs it can be inconclusive and name it.
 *
 * Shapes:
 *   struct bc_doc_read r;  bc_doc_read_init(&r);
 *   double rate = NAN;
 *   bc_doc_dbl(&r, stream, "streams[0]", "goodput_bps", BC_DOC_REQUIRED, &rate);
 *   ... r.missing[] holds "streams[0].goodput_bps (absent)" or
 *       "streams[0].goodput_bps (string, expected a number)".
 *
 * Paths are dotted member names with [i] for array elements, the form jq
 * prints, so a message can be pasted into `jq`.
 */
#ifndef BONDCHECK_DOC_READ_H
#define BONDCHECK_DOC_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/* How many problems one reader keeps (the first ones; n_problems counts all). */
#define BC_DOC_MAX_PROBLEMS 16
/* Longest path plus reason kept per problem, bytes with the NUL. */
#define BC_DOC_PROBLEM_LEN 160

enum bc_doc_need {
	BC_DOC_OPTIONAL, /* absent is normal (older schema, feature not used); not recorded */
	BC_DOC_REQUIRED, /* absent or wrong type is recorded as a problem */
};

struct bc_doc_read {
	size_t n_problems;	/* every problem seen, even past the kept ones */
	char problem[BC_DOC_MAX_PROBLEMS][BC_DOC_PROBLEM_LEN];
};

/* bc_doc_read_init() - empties @r. */
void bc_doc_read_init(struct bc_doc_read *r);

/*
 * bc_doc_problem() - records "@path.@key (@why)" in @r (@key may be NULL for
 * the path itself, @path may be "" for the document's top level).  For
 * readers with checks of their own (a value out of range, an unknown enum
 * word).
 */
void bc_doc_problem(struct bc_doc_read *r, const char *path, const char *key, const char *why);

/*
 * bc_doc_member() - member @key of object @o (NULL when @o is not an object
 * or the member is absent or JSON null).  Records a problem when @need is
 * BC_DOC_REQUIRED and it is missing.  The returned object is borrowed from @o.
 */
struct json_object *bc_doc_member(struct bc_doc_read *r, struct json_object *o, const char *path,
				  const char *key, enum bc_doc_need need);

/*
 * bc_doc_dbl(), bc_doc_i64(), bc_doc_bool(), bc_doc_str() - member @key of
 * @o into *@out.  Return true when it was present and of the type asked
 * (a JSON integer is a number for bc_doc_dbl; bc_doc_i64 takes a double only
 * when it is integral).  On false *@out is left as the caller set it (NAN,
 * -1, ...: the struct's own "unknown") and, with BC_DOC_REQUIRED, the
 * problem is recorded.  bc_doc_str copies at most @len - 1 bytes and
 * records a problem when the string did not fit.
 */
bool bc_doc_dbl(struct bc_doc_read *r, struct json_object *o, const char *path, const char *key,
		enum bc_doc_need need, double *out);
bool bc_doc_i64(struct bc_doc_read *r, struct json_object *o, const char *path, const char *key,
		enum bc_doc_need need, int64_t *out);
bool bc_doc_bool(struct bc_doc_read *r, struct json_object *o, const char *path, const char *key,
		 enum bc_doc_need need, bool *out);
bool bc_doc_str(struct bc_doc_read *r, struct json_object *o, const char *path, const char *key,
		enum bc_doc_need need, char *out, size_t len);

/*
 * bc_doc_array() - member @key of @o as an array: its length in *@n (0 when
 * absent), the array (borrowed) or NULL.  A member of another type is a
 * problem whatever @need says.
 */
struct json_object *bc_doc_array(struct bc_doc_read *r, struct json_object *o, const char *path,
				 const char *key, enum bc_doc_need need, size_t *n);

/*
 * bc_doc_path() - writes "@path.@key" (or "@path[@index]" when @key is NULL)
 * into @buf of @len bytes, for the path of a nested object; returns @buf.
 */
char *bc_doc_path(char *buf, size_t len, const char *path, const char *key, size_t index);

/*
 * bc_doc_problems_text() - the kept problems joined by "; " into @buf of
 * @len bytes, with "(and N more)" when some were not kept; returns @buf
 * ("" when there are none).
 */
char *bc_doc_problems_text(const struct bc_doc_read *r, char *buf, size_t len);

#endif
