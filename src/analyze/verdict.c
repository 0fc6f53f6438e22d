// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A verdict as data (bondcheck/verdict.h): filling it and writing its
 * structure into JSON.  No words: src/report/verdict-text.c renders the
 * answer from the same structure.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/verdict.h"

static const char *const status_names[] = {"pass", "fail", "inconclusive", "not-applicable"};

void bc_verdict_init(struct bc_verdict *v, const char *question)
{
	memset(v, 0, sizeof(*v));
	v->question = question;
	v->status = BC_VERDICT_INCONCLUSIVE;
	v->lhs_bps = v->rhs_bps = v->headline = -1;
}

void bc_verdict_add(struct bc_verdict *v, const char *key, const char *fmt, ...)
{
	struct bc_verdict_kv *kv;
	va_list ap;

	if (v->n_evidence >= BC_VERDICT_MAX_EVIDENCE)
		return;
	kv = &v->evidence[v->n_evidence++];
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(kv->value, sizeof(kv->value), fmt, ap);
	va_end(ap);
}

const char *bc_verdict_get(const struct bc_verdict *v, const char *key)
{
	for (size_t i = 0; i < v->n_evidence; i++)
		if (!strcmp(v->evidence[i].key, key))
			return v->evidence[i].value;
	return NULL;
}

bool bc_verdict_borderline(const struct bc_verdict *v)
{
	double d = v->headline - BC_VERDICT_CARRIED_PASS;

	return v->has_levels && v->lhs == BC_CAP_CARRIED && v->rhs == BC_CAP_POTENTIAL &&
	       (v->status == BC_VERDICT_PASS || v->status == BC_VERDICT_FAIL) && v->headline >= 0 &&
	       d <= BC_VERDICT_BORDERLINE && d >= -BC_VERDICT_BORDERLINE;
}

const char *bc_verdict_status_name(enum bc_verdict_status s)
{
	return (unsigned)s < 4 ? status_names[s] : "?";
}

void bc_verdict_json_data(const struct bc_verdict *v, struct json_object *o)
{
	struct json_object *lv = NULL, *c = NULL;

	json_object_object_add(o, "question", json_object_new_string(v->question));
	json_object_object_add(o, "status", json_object_new_string(status_names[v->status]));
	if (v->has_levels) {
		struct json_object *cmp = json_object_new_array();
		char k[32];

		lv = json_object_new_object();
		json_object_array_add(cmp, json_object_new_string(bc_cap_level_name(v->lhs)));
		json_object_array_add(cmp, json_object_new_string(bc_cap_level_name(v->rhs)));
		json_object_object_add(lv, "compared", cmp);
		snprintf(k, sizeof(k), "%s_bps", bc_cap_level_name(v->lhs));
		json_object_object_add(lv, k,
				       v->lhs_bps >= 0 ? json_object_new_double(v->lhs_bps) : NULL);
		snprintf(k, sizeof(k), "%s_bps", bc_cap_level_name(v->rhs));
		json_object_object_add(lv, k,
				       v->rhs_bps >= 0 ? json_object_new_double(v->rhs_bps) : NULL);
	}
	json_object_object_add(o, "levels", lv);
	json_object_object_add(o, "headline",
			       v->headline >= 0 ? json_object_new_double(v->headline) : NULL);
	if (v->mechanism[0]) {
		struct json_object *e = json_object_new_object();

		c = json_object_new_object();
		json_object_object_add(c, "mechanism", json_object_new_string(v->mechanism));
		json_object_object_add(c, "where", json_object_new_string(v->where));
		for (size_t i = 0; i < v->n_evidence; i++)
			json_object_object_add(e, v->evidence[i].key,
					       json_object_new_string(v->evidence[i].value));
		json_object_object_add(c, "evidence", e);
	}
	json_object_object_add(o, "cause", c);
	json_object_object_add(o, "next_step",
			       v->next_step[0] ? json_object_new_string(v->next_step) : NULL);
	json_object_object_add(o, "basis", v->basis ? json_object_new_string(v->basis) : NULL);
}
