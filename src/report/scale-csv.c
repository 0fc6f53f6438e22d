// SPDX-License-Identifier: GPL-2.0-or-later
/* CSV of `bondcheck scale`; see bondcheck/scale-report.h for the columns. */
#include <math.h>
#include <string.h>

#include "bondcheck/csv.h"
#include "bondcheck/json-get.h"
#include "bondcheck/scale-report.h"

static const char *const cols[] = {
	"kind",
	"protocol",
	"from_n",
	"n",
	"slaves",
	"rep",
	"goodput_bps",
	"retransmits",
	"zero",
	"cpu_bound",
	"ceiling_bps",
	"mean_bps",
	"geo_mean_bps",
	"ci_low",
	"ci_high",
	"efficiency",
	"speedup",
	"welch_t",
	"df",
	"p",
	"marginal_efficiency",
	"verdict",
};
#define NCOLS (sizeof(cols) / sizeof(cols[0]))

/* One cell from a JSON value: numbers with 17 significant digits, strings
 * quoted only when they hold a comma, quote or line break (RFC 4180 2.6). */
static void cell(FILE *out, struct json_object *v)
{
	const char *s;

	if (!v || json_object_is_type(v, json_type_null))
		return;
	switch (json_object_get_type(v)) {
	case json_type_double:
		fprintf(out, "%.17g", json_object_get_double(v));
		return;
	case json_type_int:
		fprintf(out, "%lld", (long long)json_object_get_int64(v));
		return;
	case json_type_boolean:
		fputs(json_object_get_boolean(v) ? "true" : "false", out);
		return;
	case json_type_array:
		for (size_t i = 0; i < json_object_array_length(v); i++)
			fprintf(out, "%s%s", i ? " " : "",
				json_object_get_string(json_object_array_get_idx(v, i)));
		return;
	default:
		break;
	}
	s = json_object_get_string(v);
	bc_csv_text(out, s);
}

/* A row from @row, whose members are named as the columns. */
static void row(FILE *out, struct json_object *r)
{
	for (size_t i = 0; i < NCOLS; i++) {
		if (i)
			fputc(',', out);
		cell(out, json_object_object_get(r, cols[i]));
	}
	fputc('\n', out);
}

static void set(struct json_object *r, const char *k, struct json_object *src, const char *sk)
{
	struct json_object *v = json_object_object_get(src, sk);

	if (v)
		json_object_object_add(r, k, json_object_get(v));
}

static void cmp_rows(FILE *out, struct json_object *arr, const char *kind)
{
	static const char *const same[] = {"protocol", "from_n",  "speedup",
					   "ci_low",   "ci_high", "welch_t",
					   "df",       "p",	  "marginal_efficiency",
					   "verdict"};

	for (size_t i = 0; i < bc_json_len(arr); i++) {
		struct json_object *c = json_object_array_get_idx(arr, i);
		struct json_object *r = json_object_new_object();

		json_object_object_add(r, "kind", json_object_new_string(kind));
		for (size_t k = 0; k < sizeof(same) / sizeof(same[0]); k++)
			set(r, same[k], c, same[k]);
		set(r, "n", c, "to_n");
		set(r, "slaves", c, "added");
		row(out, r);
		json_object_put(r);
	}
}

void bc_scale_report_csv(FILE *out, struct json_object *doc)
{
	struct json_object *cfgs = json_object_object_get(doc, "configs");

	for (size_t i = 0; i < NCOLS; i++)
		fprintf(out, "%s%s", i ? "," : "", cols[i]);
	fputc('\n', out);
	for (size_t i = 0; i < bc_json_len(cfgs); i++) {
		struct json_object *c = json_object_array_get_idx(cfgs, i);
		struct json_object *runs = json_object_object_get(c, "runs");
		struct json_object *r = json_object_new_object();
		static const char *const same[] = {"protocol",	  "n",	      "slaves",
						   "ceiling_bps", "mean_bps", "geo_mean_bps",
						   "efficiency"};

		for (size_t k = 0; k < bc_json_len(runs); k++) {
			struct json_object *run = json_object_array_get_idx(runs, k);
			struct json_object *o = json_object_new_object();
			static const char *const rk[] = {"rep", "goodput_bps", "retransmits",
							 "zero", "cpu_bound"};

			json_object_object_add(o, "kind", json_object_new_string("run"));
			set(o, "protocol", c, "protocol");
			set(o, "n", c, "n");
			set(o, "slaves", c, "slaves");
			set(o, "ceiling_bps", c, "ceiling_bps");
			for (size_t j = 0; j < sizeof(rk) / sizeof(rk[0]); j++)
				set(o, rk[j], run, rk[j]);
			row(out, o);
			json_object_put(o);
		}
		json_object_object_add(r, "kind", json_object_new_string("config"));
		for (size_t k = 0; k < sizeof(same) / sizeof(same[0]); k++)
			set(r, same[k], c, same[k]);
		set(r, "ci_low", c, "ci_low_bps");
		set(r, "ci_high", c, "ci_high_bps");
		row(out, r);
		json_object_put(r);
	}
	cmp_rows(out, json_object_object_get(doc, "comparisons"), "comparison");
	cmp_rows(out, json_object_object_get(doc, "versus_baseline"), "baseline");
}
