// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Strict member readers for the typed document decoders (doc-read.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/doc-read.h"

void bc_doc_read_init(struct bc_doc_read *r)
{
	memset(r, 0, sizeof(*r));
}

void bc_doc_problem(struct bc_doc_read *r, const char *path, const char *key, const char *why)
{
	size_t i = r->n_problems++;

	if (i >= BC_DOC_MAX_PROBLEMS)
		return;
	snprintf(r->problem[i], BC_DOC_PROBLEM_LEN, "%s%s%s (%s)", path ? path : "",
		 key && path && *path ? "." : "", key ? key : "", why);
}

static const char *type_word(struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_boolean:
		return "boolean";
	case json_type_double:
	case json_type_int:
		return "number";
	case json_type_object:
		return "object";
	case json_type_array:
		return "array";
	case json_type_string:
		return "string";
	default:
		return "null";
	}
}

static void wrong(struct bc_doc_read *r, const char *path, const char *key, struct json_object *v,
		  const char *want)
{
	char why[64];

	snprintf(why, sizeof(why), "%s, expected %s", type_word(v), want);
	bc_doc_problem(r, path, key, why);
}

struct json_object *bc_doc_member(struct bc_doc_read *r, struct json_object *o, const char *path,
				  const char *key, enum bc_doc_need need)
{
	struct json_object *v = NULL;

	if (o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v) &&
	    v)
		return v;
	if (need == BC_DOC_REQUIRED)
		bc_doc_problem(r, path, key, "absent");
	return NULL;
}

bool bc_doc_dbl(struct bc_doc_read *r, struct json_object *o, const char *path, const char *key,
		enum bc_doc_need need, double *out)
{
	struct json_object *v = bc_doc_member(r, o, path, key, need);

	if (!v)
		return false;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int)) {
		wrong(r, path, key, v, "a number");
		return false;
	}
	*out = json_object_get_double(v);
	return true;
}

bool bc_doc_i64(struct bc_doc_read *r, struct json_object *o, const char *path, const char *key,
		enum bc_doc_need need, int64_t *out)
{
	struct json_object *v = bc_doc_member(r, o, path, key, need);
	double d;

	if (!v)
		return false;
	if (json_object_is_type(v, json_type_int)) {
		*out = json_object_get_int64(v);
		return true;
	}
	d = json_object_is_type(v, json_type_double) ? json_object_get_double(v) : NAN;
	if (isfinite(d) && d == floor(d) && fabs(d) < 9.0e15) {
		*out = (int64_t)d;
		return true;
	}
	wrong(r, path, key, v, "an integer");
	return false;
}

bool bc_doc_bool(struct bc_doc_read *r, struct json_object *o, const char *path, const char *key,
		 enum bc_doc_need need, bool *out)
{
	struct json_object *v = bc_doc_member(r, o, path, key, need);

	if (!v)
		return false;
	if (!json_object_is_type(v, json_type_boolean)) {
		wrong(r, path, key, v, "true or false");
		return false;
	}
	*out = json_object_get_boolean(v);
	return true;
}

bool bc_doc_str(struct bc_doc_read *r, struct json_object *o, const char *path, const char *key,
		enum bc_doc_need need, char *out, size_t len)
{
	struct json_object *v = bc_doc_member(r, o, path, key, need);
	const char *s;

	if (!v)
		return false;
	if (!json_object_is_type(v, json_type_string)) {
		wrong(r, path, key, v, "a string");
		return false;
	}
	s = json_object_get_string(v);
	if (strlen(s) >= len) {
		char why[64];

		snprintf(why, sizeof(why), "longer than %zu bytes", len ? len - 1 : 0);
		bc_doc_problem(r, path, key, why);
		return false;
	}
	memcpy(out, s, strlen(s) + 1);
	return true;
}

struct json_object *bc_doc_array(struct bc_doc_read *r, struct json_object *o, const char *path,
				 const char *key, enum bc_doc_need need, size_t *n)
{
	struct json_object *v = bc_doc_member(r, o, path, key, need);

	*n = 0;
	if (!v)
		return NULL;
	if (!json_object_is_type(v, json_type_array)) {
		wrong(r, path, key, v, "an array");
		return NULL;
	}
	*n = json_object_array_length(v);
	return v;
}

char *bc_doc_path(char *buf, size_t len, const char *path, const char *key, size_t index)
{
	if (key)
		snprintf(buf, len, "%s%s%s", path ? path : "", path && *path ? "." : "", key);
	else
		snprintf(buf, len, "%s[%zu]", path ? path : "", index);
	return buf;
}

char *bc_doc_problems_text(const struct bc_doc_read *r, char *buf, size_t len)
{
	size_t kept = r->n_problems < BC_DOC_MAX_PROBLEMS ? r->n_problems : BC_DOC_MAX_PROBLEMS;
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < kept && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s", i ? "; " : "", r->problem[i]);

		if (w < 0)
			break;
		used += (size_t)w;
	}
	if (r->n_problems > kept && used < len)
		snprintf(buf + used, len - used, " (and %zu more)", r->n_problems - kept);
	return buf;
}
