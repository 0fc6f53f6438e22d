// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The exit-status table (docs/bondcheck.8 "EXIT STATUS", issue 14 item 7)
 * for commands that report verdicts and findings, and the last line that
 * says which row applies.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/cli.h"

static const char *str(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, k, &v) && json_object_get_string(v)
		       ? json_object_get_string(v)
		       : "";
}

/* Appends "name" to @buf (", " between). */
static void append(char *buf, size_t len, const char *name)
{
	size_t n = strlen(buf);

	if (n < len)
		snprintf(buf + n, len - n, "%s%s", n ? ", " : "", name);
}

/* @item is already one of @buf's ", "-separated entries. */
static bool listed(const char *buf, const char *item)
{
	size_t n = strlen(item);

	for (const char *p = strstr(buf, item); p; p = strstr(p + 1, item))
		if ((p == buf || p[-1] == ' ') && (p[n] == '\0' || p[n] == ','))
			return true;
	return false;
}

int bc_cli_exit_status(FILE *out, const char *cmd, struct json_object *verdicts,
		       struct json_object *findings)
{
	char failed[256] = "", errors[512] = "", other[256] = "";
	size_t n_verdicts = 0, n_pass = 0;

	if (!json_object_is_type(verdicts, json_type_object))
		verdicts = NULL;
	for (struct lh_entry *e = verdicts ? json_object_get_object(verdicts)->head : NULL; e;
	     e = e->next) {
		const char *name = (const char *)lh_entry_k(e);
		struct json_object *v = (struct json_object *)lh_entry_v(e);
		const char *s = str(v, "status");
		char item[96];

		n_verdicts++;
		if (!strcmp(s, "fail")) {
			append(failed, sizeof(failed), name);
		} else if (!strcmp(s, "pass")) {
			n_pass++;
		} else {
			snprintf(item, sizeof(item), "%s %s", name, s);
			append(other, sizeof(other), item);
		}
	}
	for (size_t i = 0; findings && i < json_object_array_length(findings); i++) {
		struct json_object *f = json_object_array_get_idx(findings, i), *x = NULL;
		char item[160];

		if (strcmp(str(f, "severity"), "error") ||
		    (json_object_object_get_ex(f, "expected", &x) && json_object_get_boolean(x)))
			continue;
		snprintf(item, sizeof(item), "%s (%s)", str(f, "id"), str(f, "subject"));
		if (!listed(errors, item)) /* both ends' inspections report the same one */
			append(errors, sizeof(errors), item);
	}
	if (failed[0] || errors[0]) {
		fprintf(out, "exit 1: %s%s%s%s%s\n", failed[0] ? "failed: " : "", failed,
			failed[0] && errors[0] ? "; " : "", errors[0] ? "error findings: " : "",
			errors);
		return BC_EXIT_FINDINGS;
	}
	if (n_verdicts && !n_pass)
		fprintf(out, "exit 0: no verdict failed, but none passed: %s\n", other);
	else if (n_verdicts)
		fprintf(out, "exit 0: %s%s%s\n",
			other[0] ? "no verdict failed (" : "every verdict passed", other,
			other[0] ? ")" : "");
	else
		fprintf(out, "exit 0: %s: no error-level finding\n", cmd);
	return BC_EXIT_OK;
}
