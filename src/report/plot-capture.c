// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Plots of the capture analysis and the run (bondcheck/plot.h): the RFC
 * 5236 reorder density histogram and the loss ledger waterfall.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/plot.h"
#include "report/plot-int.h"

#define DMAX	   1000 /* |displacement| accepted */
#define MAX_STAGES 16

/* y axis labels of a log10 axis of shares: "100 %", "1 %", "0.01 %" */
static void percent_label(PLINT axis, PLFLT value, char *buf, PLINT len, PLPointer data)
{
	double pct = pow(10, value) * 100;

	(void)axis;
	(void)data;
	snprintf(buf, (size_t)len, "%.*f %%", pct >= 1 ? 0 : (int)ceil(-log10(pct) - 1e-9), pct);
}

static int parse_density(struct json_object *doc, uint64_t *count, int *dt, const char **obs,
			 double *ratio, bool *have_ratio, struct bc_error *err)
{
	struct json_object *r = doc, *rd = NULL;
	const char *where = "";
	int64_t thr = 0;
	bool have_thr = false;
	int rc, maxd = 0;

	rc = pj_is_obj(doc, "the plot's input", err);
	if (rc)
		return rc;
	if (!json_object_object_get_ex(doc, "reorder_density", NULL)) {
		rc = pj_obj(doc, "", "reordering", false, &r, err);
		if (rc)
			return rc;
		if (r == doc)
			return bc_error_set(err, -EINVAL,
					    "reorder_density: expected an object {\"D\": count} "
					    "(or \"reordering\" holding it), found neither");
		where = "reordering";
	}
	rc = pj_obj(r, where, "reorder_density", true, &rd, err);
	if (!rc)
		rc = pj_i64(r, where, "reorder_density_threshold", false, 1, DMAX, &thr, &have_thr,
			    err);
	if (!rc)
		rc = pj_str(r, where, "observation_point", false, obs, err);
	if (!rc)
		rc = pj_num(r, where, "reordered_ratio", false, 0, 1, ratio, have_ratio, err);
	if (rc)
		return rc;
	json_object_object_foreach(rd, k, v)
	{
		char *end, w[96];
		long d;
		double c;

		errno = 0;
		d = strtol(k, &end, 10);
		if (!*k || *end || errno || d < -DMAX || d > DMAX)
			return bc_error_set(err, -EINVAL,
					    "%s%sreorder_density: key \"%.20s\" is not a displacement "
					    "(an integer in -%d..%d)",
					    where, *where ? "." : "", k, DMAX, DMAX);
		snprintf(w, sizeof(w), "%s%sreorder_density", where, *where ? "." : "");
		rc = pj_num(rd, w, k, true, 0, 1e18, &c, NULL, err);
		if (rc)
			return rc;
		count[d + DMAX] = (uint64_t)c;
		if (c > 0 && labs(d) > maxd)
			maxd = (int)labs(d);
	}
	*dt = have_thr && thr > maxd ? (int)thr : maxd > 0 ? maxd : 1;
	return 0;
}

int bc_plot_reorder_density(const char *path, struct json_object *doc, struct bc_error *err)
{
	static const char *const legend[3] = {"early (D < 0)", "in order (D = 0)", "late (D > 0)"};
	static const int colors[3] = {C_SERIES + 0, C_SERIES + 2, C_SERIES + 1};
	static const int kinds[3] = {LEG_BOX, LEG_BOX, LEG_BOX};
	uint64_t *count, total = 0, reordered = 0;
	const char *obs = NULL;
	double ratio = 0, ymin, minshare = 1;
	bool have_ratio = false;
	char sub1[200], obs_t[64] = "", label[32];
	int dt = 1, rc, bars = 0;
	struct plot p;

	count = calloc(2 * DMAX + 1, sizeof(*count));
	if (!count)
		return bc_error_set(err, -ENOMEM, "out of memory for the plot");
	rc = parse_density(doc, count, &dt, &obs, &ratio, &have_ratio, err);
	if (rc)
		goto out;
	for (int d = -DMAX; d <= DMAX; d++) {
		total += count[d + DMAX];
		reordered += d ? count[d + DMAX] : 0;
		bars += count[d + DMAX] > 0;
	}
	if (!total) {
		rc = bc_error_set(err, -ENODATA,
				  "reorder_density: every count is 0; nothing to plot");
		goto out;
	}
	for (int d = -dt; d <= dt; d++)
		if (count[d + DMAX] && (double)count[d + DMAX] / (double)total < minshare)
			minshare = (double)count[d + DMAX] / (double)total;
	ymin = floor(log10(minshare) - 0.3);
	if (ymin > -1)
		ymin = -1;
	if (obs)
		plot_text(obs_t, sizeof(obs_t), obs);
	snprintf(sub1, sizeof(sub1), "%llu datagrams, %llu (%.3g %%) not at their place", (unsigned long long)total,
		 (unsigned long long)reordered, 100.0 * (double)reordered / (double)total);
	if (have_ratio)
		snprintf(sub1 + strlen(sub1), sizeof(sub1) - strlen(sub1),
			 "; RFC 4737 reordered ratio %.3g %%", 100 * ratio);
	if (obs)
		snprintf(sub1 + strlen(sub1), sizeof(sub1) - strlen(sub1), "; observed at %s",
			 obs_t);
	rc = plot_begin(&p, path, err);
	if (rc)
		goto out;
	plot_titles("Reorder density (RFC 5236): how far datagrams arrived from their place",
		    sub1,
		    "D = receive index - sequence number; D > 0: late by D positions. Over TCP, "
		    "D >= 3 triggers a fast retransmit at the default tcp_reordering of 3.");
	plslabelfunc(percent_label, NULL);
	plot_area_ticks(0.10, 0.80, 0.12, 0.80, -dt - 0.7, dt + 0.7, ymin, 0.25, "bcnst", dt <= 12 ? 1 : dt <= 30 ? 2 : 0,
			"bcnstvlo", 1, "displacement D (packets)", "share of datagrams (log scale)");
	for (int d = -dt; d <= dt; d++) {
		double share = (double)count[d + DMAX] / (double)total, top;

		if (!count[d + DMAX])
			continue;
		top = log10(share);
		plot_rect(d - 0.38, ymin, d + 0.38, top, d < 0 ? colors[0] : d ? colors[2] : colors[1]);
		if (bars <= 41) {
			snprintf(label, sizeof(label), "%llu", (unsigned long long)count[d + DMAX]);
			plcol0(C_FG);
			plot_chr(bars > 21 ? 0.5 : bars > 12 ? 0.62 : 0.75);
			plptex(d, top + 0.04 * (0.25 - ymin), 1, 0, 0.5, label);
			plot_chr(1);
		}
	}
	plot_legend(3, legend, colors, kinds);
	rc = plot_finish(&p, err);
out:
	free(count);
	return rc;
}

struct stage {
	char name[48]; /* escaped, '_' shown as ' ' */
	char raw[32];
	bool known;
	double count, drop;
	char counter[120];
};

static int parse_ledger(struct json_object *doc, struct stage *st, size_t *n,
			struct bc_error *err)
{
	struct json_object *arr = doc;
	const char *where = "ledger";
	int rc;

	if (json_object_is_type(doc, json_type_object)) {
		rc = pj_arr(doc, "", "ledger", true, 2, MAX_STAGES, &arr, err);
		if (rc)
			return rc;
	} else if (!json_object_is_type(doc, json_type_array)) {
		return pj_is_obj(doc, "ledger: expected an array of stages or an object with "
				      "\"ledger\"; the plot's input",
				 err);
	} else if (json_object_array_length(doc) < 2 ||
		   json_object_array_length(doc) > MAX_STAGES) {
		return bc_error_set(err, -EINVAL,
				    "ledger: expected an array of 2 to %d stages, found %zu",
				    MAX_STAGES, json_object_array_length(doc));
	}
	*n = json_object_array_length(arr);
	for (size_t i = 0; i < *n; i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);
		const char *name = NULL, *counter = NULL;
		char w[32];

		snprintf(w, sizeof(w), "%s[%zu]", where, i);
		rc = pj_is_obj(s, w, err);
		if (!rc)
			rc = pj_str(s, w, "stage", true, &name, err);
		if (!rc)
			rc = pj_num(s, w, "count", false, 0, 1e18, &st[i].count, &st[i].known, err);
		if (!rc)
			rc = pj_str(s, w, "counter", false, &counter, err);
		if (rc)
			return rc;
		snprintf(st[i].raw, sizeof(st[i].raw), "%s", name);
		plot_text(st[i].name, sizeof(st[i].name), name);
		for (char *c = st[i].name; *c; c++)
			if (*c == '_')
				*c = ' ';
		if (counter)
			plot_text(st[i].counter, sizeof(st[i].counter), counter);
	}
	return 0;
}

/* A round step of about a fifth of @range. */
static double round_step(double range)
{
	return range > 0 ? pow(10, floor(log10(range))) : 1;
}

int bc_plot_ledger(const char *path, struct json_object *doc, struct bc_error *err)
{
	static const char *const legend[3] = {"counted here", "lost on the way here",
					      "not measured"};
	static const int colors[3] = {C_SERIES + 0, C_LOSS, C_MUTED};
	static const int kinds[3] = {LEG_BOX, LEG_BOX, LEG_BOX};
	struct stage st[MAX_STAGES];
	double lo = INFINITY, hi = 0, prev = -1, ymin = 0, ymax, first = -1, last = -1;
	char sub1[200], sub2[200], note[3][200], label[48];
	size_t n = 0, n_notes = 0, first_i = 0, last_i = 0, n_known = 0;
	struct plot p;
	int rc;

	memset(st, 0, sizeof(st));
	rc = parse_ledger(doc, st, &n, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (!st[i].known)
			continue;
		n_known++;
		if (prev >= 0 && prev > st[i].count)
			st[i].drop = prev - st[i].count;
		prev = st[i].count;
		lo = fmin(lo, st[i].count);
		hi = fmax(hi, st[i].count);
		if (first < 0) {
			first = st[i].count;
			first_i = i;
		}
		last = st[i].count;
		last_i = i;
		if (st[i].drop > 0 && st[i].counter[0] && n_notes < 3)
			snprintf(note[n_notes++], sizeof(note[0]), "%s: -%.0f (%s)", st[i].name,
				 st[i].drop, st[i].counter);
	}
	if (first < 0)
		return bc_error_set(err, -ENODATA,
				    "ledger: no stage has a count (all null); nothing to plot");
	if (hi <= 0)
		return bc_error_set(err, -ENODATA, "ledger: every count is 0; nothing to plot");
	/* small losses against large counts: start the axis above 0 so they show */
	if (hi > lo && hi - lo < 0.25 * hi) {
		double step = round_step(hi - lo);

		ymin = floor(fmax(0, lo - 1.5 * (hi - lo)) / step) * step;
		ymax = ceil((hi + 0.22 * (hi - ymin)) / step) * step;
	} else {
		ymax = plot_nice_max(hi * 1.18);
	}
	snprintf(sub1, sizeof(sub1), "%s %.0f -> %s %.0f: %.0f lost (%.3g %%)", st[first_i].name,
		 first, st[last_i].name, last, first - last > 0 ? first - last : 0,
		 first > 0 && first > last ? 100.0 * (first - last) / first : 0.0);
	snprintf(sub2, sizeof(sub2),
		 "Each bar counts the datagrams at one stage; red is what was lost since the "
		 "stage before%s",
		 ymin > 0 ? " (the y axis starts above 0 so small losses show)" : "");
	rc = plot_begin(&p, path, err);
	if (rc)
		return rc;
	plot_titles("Loss ledger: at which stage the datagrams were lost", sub1, sub2);
	plot_area(0.10, 0.80, n_notes ? 0.22 : 0.14, 0.80, -0.6, (double)n - 0.4, ymin, ymax, "bc",
		  "bcnstv", NULL, "datagrams");
	/* the x axis names the stages instead of numbers: redraw it without them */
	plcol0(C_FG);
	plot_chr(n > 8 ? 0.6 : 0.8);
	for (size_t i = 0; i < n; i++)
		plmtex("b", 1.4, ((double)i + 0.6) / ((double)n + 0.2), 0.5, st[i].name);
	plot_chr(1.0);
	prev = -1;
	for (size_t i = 0; i < n; i++) {
		double x = (double)i, top, h = ymax - ymin;

		if (!st[i].known) {
			/* no count: a pale bar at the level around it, never a number */
			top = prev >= 0 ? prev : first;
			plot_rect(x - 0.35, ymin, x + 0.35, top, C_MUTED);
			plcol0(C_SUB);
			plot_chr(0.75);
			plptex(x, ymin + (top - ymin) / 2, 0, 1, 0.5, "not measured");
			plot_chr(1);
			continue;
		}
		plot_rect(x - 0.35, ymin, x + 0.35, st[i].count, C_SERIES + 0);
		top = st[i].count + st[i].drop;
		if (st[i].drop > 0)
			plot_rect(x - 0.35, st[i].count, x + 0.35, top, C_LOSS);
		plot_chr(0.75);
		plcol0(C_FG);
		snprintf(label, sizeof(label), "%.0f", st[i].count);
		plptex(x, top + 0.025 * h, 1, 0, 0.5, label);
		if (st[i].drop > 0) {
			bool inside = st[i].drop > 0.07 * h;

			snprintf(label, sizeof(label), "-%.0f (%.3g %%)", st[i].drop,
				 100.0 * st[i].drop / (st[i].count + st[i].drop));
			plcol0(inside ? C_BG : C_LOSS);
			plptex(x, inside ? st[i].count + st[i].drop / 2 - 0.01 * h : top + 0.075 * h,
			       1, 0, 0.5, label);
		}
		plot_chr(1);
		if (prev >= 0 && i > 0) {
			/* the level carried over from the previous stage */
			PLFLT xs[2] = {x - 0.65, x - 0.35}, ys[2] = {prev, prev};

			plot_line(2, xs, ys, C_SUB, 0.8, 2);
		}
		prev = st[i].count;
	}
	plot_legend(n_known < n ? 3 : 2, legend, colors, kinds);
	if (n_notes) {
		plvpor(0, 1, 0, 1);
		plwind(0, 1, 0, 1);
		plot_chr(0.75);
		plcol0(C_LOSS);
		for (size_t k = 0; k < n_notes; k++)
			plptex(0.09, 0.125 - 0.03 * (double)k, 1, 0, 0, note[k]);
		plot_chr(1);
	}
	return plot_finish(&p, err);
}
