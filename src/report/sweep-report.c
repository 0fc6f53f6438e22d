// SPDX-License-Identifier: GPL-2.0-or-later
/* Text and CSV of the sweep document (bondcheck/sweep.h).  Pure. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/json-get.h"
#include "bondcheck/plot.h"
#include "bondcheck/sweep.h"
#include "bondcheck/wrap.h"

static struct json_object *member(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* The value of a point as the parameter shows it: bytes, streams, Mbit/s. */
static void value_text(struct json_object *doc, double v, char *buf, size_t len)
{
	if (!strcmp(bc_json_str(doc, "param"), "rate"))
		snprintf(buf, len, "%gM", v / 1e6);
	else
		snprintf(buf, len, "%.0f", v);
}

static double num(struct json_object *o, const char *k)
{
	struct json_object *v = member(o, k);

	return v && !json_object_is_type(v, json_type_null) ? json_object_get_double(v) : NAN;
}

void bc_sweep_report_text(FILE *out, struct json_object *doc)
{
	struct json_object *points = member(doc, "points"), *base = member(doc, "base");
	bool udp = !strcmp(bc_json_str(doc, "protocol"), "udp");
	const char *param = bc_json_str(doc, "param");

	bc_sweep_report_answers(out, doc);
	fprintf(out, "\nSweep of %s against %s: %s, ", param, bc_json_str(doc, "peer"),
		udp ? "UDP" : "TCP");
	if (strcmp(param, "streams"))
		fprintf(out, "%lld stream(s), ", bc_json_i64(base, "streams", 1));
	if (udp && strcmp(param, "rate"))
		fprintf(out, "%.2f Mbit/s offered, ", bc_json_dbl(base, "rate_bps", 0) / 1e6);
	if (strcmp(param, "size") && strcmp(param, "mtu"))
		fprintf(out, "%lld-byte %s, ", bc_json_i64(base, "length", 0),
			udp ? "datagrams" : "writes");
	fprintf(out, "%lld x %.1f s per point, %.0f %% CI (Student's t)%s\n\n",
		bc_json_i64(doc, "repetitions", 1), bc_json_dbl(doc, "duration_ms", 0) / 1000,
		100 * bc_json_dbl(doc, "confidence", 0.95),
		json_object_get_boolean(member(doc, "incomplete")) ? " (INCOMPLETE)" : "");
	fprintf(out, "%10s %3s %10s %23s %10s %10s%s\n", param, "n", "Mbit/s", "95 % CI", "ceiling",
		"efficiency", udp ? "      loss" : "");
	for (size_t i = 0; i < bc_json_len(points); i++) {
		struct json_object *p = json_object_array_get_idx(points, i);
		double lo = num(p, "ci_low_bps"), hi = num(p, "ci_high_bps");
		double c = num(p, "ceiling_bps"), e = num(p, "efficiency"), m = num(p, "mean_bps");
		char v[32], ci[48] = "-", cs[24] = "?", es[24] = "?", ms[24] = "-";

		value_text(doc, bc_json_dbl(p, "value", 0), v, sizeof(v));
		if (isfinite(m))
			snprintf(ms, sizeof(ms), "%.3f", m / 1e6);
		if (isfinite(lo) && isfinite(hi))
			snprintf(ci, sizeof(ci), "%.3f .. %.3f", lo / 1e6, hi / 1e6);
		if (isfinite(c))
			snprintf(cs, sizeof(cs), "%.3f", c / 1e6);
		if (isfinite(e))
			snprintf(es, sizeof(es), "%.1f %%", 100 * e);
		fprintf(out, "%10s %3lld %10s %23s %10s %10s", v, bc_json_i64(p, "n", 0), ms, ci,
			cs, es);
		if (udp)
			fprintf(out, " %8.2f %%", 100 * bc_json_dbl(p, "loss_ratio", 0));
		fputc('\n', out);
		for (size_t k = 0; k < bc_json_len(member(p, "runs")); k++) {
			struct json_object *r = json_object_array_get_idx(member(p, "runs"), k);

			if (member(r, "error"))
				fprintf(out, "%10s run %lld failed: %s\n", "",
					bc_json_i64(r, "rep", 0), bc_json_str(r, "error"));
		}
	}
	if (member(doc, "changes")) {
		struct json_object *ch = member(doc, "changes");

		fputc('\n', out);
		bc_wrapf(out, 4, "Changes: %s", bc_json_str(ch, "summary"));
	}
	for (size_t i = 0; i < bc_json_len(member(doc, "notes")); i++) {
		if (!i)
			fputc('\n', out);
		bc_wrapf(
			out, 6, "note: %s",
			json_object_get_string(json_object_array_get_idx(member(doc, "notes"), i)));
	}
}

static void csv_num(FILE *out, struct json_object *o, const char *k, const char *fmt, bool last)
{
	double v = num(o, k);

	if (isfinite(v))
		fprintf(out, fmt, v);
	fputs(last ? "\r\n" : ",", out);
}

void bc_sweep_report_csv(FILE *out, struct json_object *doc)
{
	struct json_object *points = member(doc, "points");

	fputs("param,value,n,mean_bps,sd_bps,ci_low_bps,ci_high_bps,ceiling_bps,efficiency,"
	      "loss_ratio,mtu\r\n",
	      out);
	for (size_t i = 0; i < bc_json_len(points); i++) {
		struct json_object *p = json_object_array_get_idx(points, i);
		struct json_object *r0 = json_object_array_get_idx(member(p, "runs"), 0);

		fprintf(out, "%s,", bc_json_str(doc, "param"));
		csv_num(out, p, "value", "%.0f", false);
		csv_num(out, p, "n", "%.0f", false);
		csv_num(out, p, "mean_bps", "%.0f", false);
		csv_num(out, p, "sd_bps", "%.0f", false);
		csv_num(out, p, "ci_low_bps", "%.0f", false);
		csv_num(out, p, "ci_high_bps", "%.0f", false);
		csv_num(out, p, "ceiling_bps", "%.0f", false);
		csv_num(out, p, "efficiency", "%.4f", false);
		csv_num(out, p, "loss_ratio", "%.6f", false);
		csv_num(out, r0, "mtu", "%.0f", true);
	}
}

int bc_sweep_report_plot(const char *path, struct json_object *doc, struct bc_error *err)
{
	struct json_object *v = json_object_new_object(), *pts = json_object_new_array();
	struct json_object *src = member(doc, "points");
	int r;

	/* bc_plot_sweep's input: the points that have a mean, CI and ceiling when known */
	json_object_object_add(v, "param", json_object_new_string(bc_json_str(doc, "param")));
	json_object_object_add(v, "unit", json_object_new_string(bc_json_str(doc, "unit")));
	json_object_object_add(v, "protocol", json_object_new_string(bc_json_str(doc, "protocol")));
	for (size_t i = 0; i < bc_json_len(src); i++) {
		struct json_object *p = json_object_array_get_idx(src, i), *o;
		double m = num(p, "mean_bps"), lo = num(p, "ci_low_bps"),
		       hi = num(p, "ci_high_bps");
		double c = num(p, "ceiling_bps");

		if (!isfinite(m))
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "value",
				       json_object_new_double(bc_json_dbl(p, "value", 0)));
		json_object_object_add(o, "mean_bps", json_object_new_double(m));
		if (isfinite(lo) && isfinite(hi)) {
			json_object_object_add(o, "ci_low_bps", json_object_new_double(lo));
			json_object_object_add(o, "ci_high_bps", json_object_new_double(hi));
		}
		if (isfinite(c))
			json_object_object_add(o, "ceiling_bps", json_object_new_double(c));
		json_object_array_add(pts, o);
	}
	json_object_object_add(v, "points", pts);
	r = bc_json_len(pts) ? bc_plot_sweep(path, v, err)
			     : bc_error_set(err, -ENODATA, "no point has a mean: nothing to draw");
	json_object_put(v);
	return r;
}
