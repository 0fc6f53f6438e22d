// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdlib.h>
#include <time.h>

#include "bondcheck/json-get.h"

long long bc_json_i64(struct json_object *o, const char *k, long long dflt)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? json_object_get_int64(v) : dflt;
}

double bc_json_dbl(struct json_object *o, const char *k, double dflt)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? json_object_get_double(v) : dflt;
}

const char *bc_json_str(struct json_object *o, const char *k)
{
	struct json_object *v;
	const char *s;

	s = o && json_object_object_get_ex(o, k, &v) ? json_object_get_string(v) : NULL;
	return s ? s : "";
}

size_t bc_json_len(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

void bc_json_generated_at(char *buf, size_t len)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t t = time(NULL);
	struct tm tm;

	if (sde && *sde) {
		char *end;
		long long v = strtoll(sde, &end, 10);

		if (!*end && v >= 0)
			t = (time_t)v;
	}
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
