// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Plots of repeated measurements (bondcheck/plot.h): the scaling curve of
 * `bondcheck scale`, the parameter sweep of `bondcheck sweep` and the pair
 * matrix of `bondcheck matrix` as a heatmap.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/plot.h"
#include "report/plot-int.h"

#define MAX_CONFIGS 64
#define MAX_RUNS    1000
#define MAX_POINTS  256
#define MAX_HOSTS   32
#define BPS_MAX	    1e15 /* 1 Pbit/s: anything above is not a measurement */

/* One measured point: x, mean, optional CI and ceiling, optional runs. */
struct point {
	double x, mean, lo, hi, ceiling;
	bool ci, has_ceiling;
	double *runs;
	size_t n_runs;
};

static void append(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t n, const char *fmt, ...)
{
	size_t k = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	if (k + 1 < n)
		vsnprintf(buf + k, n - k, fmt, ap);
	va_end(ap);
}

static int cmp_point(const void *a, const void *b)
{
	const struct point *p = a, *q = b;

	return p->x < q->x ? -1 : p->x > q->x;
}

static void free_points(struct point *pt, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(pt[i].runs);
}

/* mean_bps, ci_low_bps/ci_high_bps (both or neither), ceiling_bps of @o. */
static int parse_stats(struct json_object *o, const char *w, struct point *pt,
		       struct bc_error *err)
{
	bool lo = false, hi = false;
	int rc = pj_num(o, w, "mean_bps", true, 0, BPS_MAX, &pt->mean, NULL, err);

	if (!rc)
		rc = pj_num(o, w, "ci_low_bps", false, 0, BPS_MAX, &pt->lo, &lo, err);
	if (!rc)
		rc = pj_num(o, w, "ci_high_bps", false, 0, BPS_MAX, &pt->hi, &hi, err);
	if (!rc && lo != hi)
		rc = bc_error_set(err, -EINVAL,
				  "%s: ci_low_bps and ci_high_bps come together; found only %s", w,
				  lo ? "ci_low_bps" : "ci_high_bps");
	if (!rc && lo && pt->lo > pt->hi)
		rc = bc_error_set(err, -EINVAL, "%s: ci_low_bps %.6g is above ci_high_bps %.6g", w,
				  pt->lo, pt->hi);
	if (!rc)
		rc = pj_num(o, w, "ceiling_bps", false, 0, BPS_MAX, &pt->ceiling, &pt->has_ceiling,
			    err);
	pt->ci = lo;
	return rc;
}

/* The mean line with dots, CI error bars, and the dashed ceiling. */
static void draw_points(const struct point *pt, size_t n, double xscale)
{
	double x[MAX_POINTS > MAX_CONFIGS ? MAX_POINTS : MAX_CONFIGS], y[MAX_POINTS];
	size_t m = 0;

	/* the ceiling, where known */
	for (size_t i = 0; i < n; i++)
		if (pt[i].has_ceiling) {
			x[m] = pt[i].x * xscale;
			y[m++] = plot_mbps(pt[i].ceiling);
		}
	if (m > 1)
		plot_line(m, x, y, C_FG, 1.4, 2);
	else if (m == 1) {
		PLFLT xs[2] = {x[0] - 0.3, x[0] + 0.3}, ys[2] = {y[0], y[0]};

		plot_line(2, xs, ys, C_FG, 1.4, 2);
	}
	for (size_t i = 0; i < n; i++) {
		x[i] = pt[i].x * xscale;
		y[i] = plot_mbps(pt[i].mean);
	}
	if (n > 1)
		plot_line(n, x, y, C_SERIES + 0, 2, 1);
	for (size_t i = 0; i < n; i++) {
		if (pt[i].ci) {
			PLFLT xe = x[i], lo = plot_mbps(pt[i].lo), hi = plot_mbps(pt[i].hi);

			plcol0(C_SERIES + 0);
			plwidth(1.4);
			plsmin(0, 1.6);
			plerry(1, &xe, &lo, &hi);
			plwidth(1);
		}
		plot_dot(x[i], y[i], 4, C_SERIES + 0);
	}
}

static double points_peak(const struct point *pt, size_t n)
{
	double peak = 0;

	for (size_t i = 0; i < n; i++) {
		peak = fmax(peak, pt[i].mean);
		if (pt[i].ci)
			peak = fmax(peak, pt[i].hi);
		if (pt[i].has_ceiling)
			peak = fmax(peak, pt[i].ceiling);
		for (size_t r = 0; r < pt[i].n_runs; r++)
			peak = fmax(peak, pt[i].runs[r]);
	}
	return plot_mbps(peak);
}

int bc_plot_scaling(const char *path, struct json_object *doc, struct bc_error *err)
{
	static const char *const legend[4] = {"each run", "mean goodput", "95 % CI of the mean",
					      "ceiling (N x link ceiling)"};
	static const int colors[4] = {C_SERIES + 1, C_SERIES + 0, C_BAND, C_FG};
	static const int kinds[4] = {LEG_DOT, LEG_LINE, LEG_BOX, LEG_DASH};
	struct point pt[MAX_CONFIGS];
	struct json_object *configs = NULL, *verdict = NULL;
	const char *proto = NULL, *method = NULL, *vtext = NULL;
	double link_ceiling = 0, xmin, xmax;
	int64_t flows = 0;
	bool have_lc = false, have_flows = false;
	char sub1[200], sub2[240], proto_t[16] = "", method_t[24] = "";
	size_t n = 0, total_runs = 0;
	struct plot p;
	int rc;

	memset(pt, 0, sizeof(pt));
	rc = pj_is_obj(doc, "the scale document", err);
	if (!rc)
		rc = pj_arr(doc, "", "configs", true, 1, MAX_CONFIGS, &configs, err);
	if (!rc)
		rc = pj_num(doc, "", "link_ceiling_bps", false, 1, BPS_MAX, &link_ceiling, &have_lc,
			    err);
	if (!rc)
		rc = pj_str(doc, "", "protocol", false, &proto, err);
	if (!rc)
		rc = pj_str(doc, "", "method", false, &method, err);
	if (!rc)
		rc = pj_i64(doc, "", "flows", false, 1, 1000000, &flows, &have_flows, err);
	if (!rc)
		rc = pj_obj(doc, "", "verdict", false, &verdict, err);
	if (!rc && verdict)
		rc = pj_str(verdict, "verdict", "text", false, &vtext, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < json_object_array_length(configs); i++) {
		struct json_object *c = json_object_array_get_idx(configs, i), *runs = NULL;
		int64_t nl = 0;
		char w[32];

		snprintf(w, sizeof(w), "configs[%zu]", i);
		rc = pj_is_obj(c, w, err);
		if (!rc)
			rc = pj_i64(c, w, "n", true, 1, 1024, &nl, NULL, err);
		if (!rc)
			rc = parse_stats(c, w, &pt[i], err);
		if (!rc)
			rc = pj_arr(c, w, "runs", false, 0, MAX_RUNS, &runs, err);
		n = i + 1;
		pt[i].x = (double)nl;
		for (size_t j = 0; j < n - 1 && !rc; j++)
			if (pt[j].x == pt[i].x)
				rc = bc_error_set(err, -EINVAL,
						  "%s.n: %lld links appears twice (configs[%zu] too)",
						  w, (long long)nl, j);
		if (!rc && !pt[i].has_ceiling && have_lc) {
			pt[i].ceiling = link_ceiling * (double)nl;
			pt[i].has_ceiling = true;
		}
		if (!rc && runs) {
			pt[i].runs = calloc(json_object_array_length(runs) + 1, sizeof(double));
			if (!pt[i].runs)
				rc = bc_error_set(err, -ENOMEM, "out of memory for the plot");
			for (size_t r = 0; !rc && r < json_object_array_length(runs); r++) {
				struct json_object *ro = json_object_array_get_idx(runs, r);
				char wr[48];

				snprintf(wr, sizeof(wr), "%s.runs[%zu]", w, r);
				rc = pj_is_obj(ro, wr, err);
				if (!rc)
					rc = pj_num(ro, wr, "goodput_bps", true, 0, BPS_MAX,
						    &pt[i].runs[r], NULL, err);
				pt[i].n_runs = r + 1;
			}
			total_runs += pt[i].n_runs;
		}
		if (rc) {
			free_points(pt, n);
			return rc;
		}
	}
	qsort(pt, n, sizeof(pt[0]), cmp_point);
	xmin = pt[0].x - 0.5;
	xmax = pt[n - 1].x + 0.5;
	if (proto)
		plot_text(proto_t, sizeof(proto_t), proto);
	if (method)
		plot_text(method_t, sizeof(method_t), method);
	sub1[0] = 0;
	if (proto)
		append(sub1, sizeof(sub1), "%s", proto_t);
	if (have_flows)
		append(sub1, sizeof(sub1), "%s%lld flows", *sub1 ? ", " : "", (long long)flows);
	if (method)
		append(sub1, sizeof(sub1), "%smethod %s", *sub1 ? ", " : "", method_t);
	append(sub1, sizeof(sub1), "%s%zu configurations, %zu runs", *sub1 ? "; " : "", n,
	       total_runs);
	if (vtext)
		plot_text(sub2, sizeof(sub2), vtext);
	else
		snprintf(sub2, sizeof(sub2),
			 "N+1 beats N when its band sits above N's; the dashed line is what the "
			 "links could carry");
	rc = plot_begin(&p, path, err);
	if (rc) {
		free_points(pt, n);
		return rc;
	}
	plot_titles("Scaling: goodput against the number of links", sub1, sub2);
	plot_area_ticks(0.10, 0.76, 0.12, 0.80, xmin, xmax, 0, plot_nice_max(points_peak(pt, n) * 1.08),
			"bcnt", 1, "bcnstv", 0, "active links N", "goodput (Mbit/s)");
	/* the CI band between neighbouring configurations that both have one */
	for (size_t i = 0; i + 1 < n; i++)
		if (pt[i].ci && pt[i + 1].ci) {
			PLFLT bx[4] = {pt[i].x, pt[i + 1].x, pt[i + 1].x, pt[i].x};
			PLFLT by[4] = {plot_mbps(pt[i].lo), plot_mbps(pt[i + 1].lo),
				       plot_mbps(pt[i + 1].hi), plot_mbps(pt[i].hi)};

			plcol0(C_BAND);
			plfill(4, bx, by);
		}
	for (size_t i = 0; i < n; i++)
		for (size_t r = 0; r < pt[i].n_runs; r++)
			plot_dot(pt[i].x + 0.16 * ((double)r - (double)(pt[i].n_runs - 1) / 2) /
						  (double)(pt[i].n_runs > 1 ? pt[i].n_runs - 1 : 1),
				 plot_mbps(pt[i].runs[r]), 2.2, C_SERIES + 1);
	draw_points(pt, n, 1.0);
	plot_legend(4, legend, colors, kinds);
	rc = plot_finish(&p, err);
	free_points(pt, n);
	return rc;
}

/* x label and scale of a sweep parameter */
static void param_axis(const char *param, const char *unit, char *label, size_t n, double *scale)
{
	char p[64], u[32] = "";

	plot_text(p, sizeof(p), param);
	if (unit)
		plot_text(u, sizeof(u), unit);
	*scale = 1;
	if (strstr(param, "size"))
		snprintf(label, n, "message size (bytes)");
	else if (!strcmp(param, "mtu"))
		snprintf(label, n, "MTU (bytes)");
	else if (strstr(param, "stream"))
		snprintf(label, n, "parallel streams");
	else if (!strcmp(param, "rate")) {
		snprintf(label, n, "offered rate (Mbit/s)");
		*scale = 1e-6;
	} else if (unit)
		snprintf(label, n, "%s (%s)", p, u);
	else
		snprintf(label, n, "%s", p);
}

int bc_plot_sweep(const char *path, struct json_object *doc, struct bc_error *err)
{
	static const char *const legend[3] = {"mean goodput", "95 % CI", "ceiling"};
	static const int colors[3] = {C_SERIES + 0, C_SERIES + 0, C_FG};
	static const int kinds[3] = {LEG_LINE | LEG_DOT, LEG_LINE, LEG_DASH};
	struct point pt[MAX_POINTS];
	struct json_object *points = NULL;
	const char *param = NULL, *unit = NULL, *proto = NULL;
	char xlabel[120], title[160], sub1[160], proto_t[16] = "";
	double scale, xmin, xmax, pad;
	size_t n = 0;
	struct plot p;
	int rc;

	memset(pt, 0, sizeof(pt));
	rc = pj_is_obj(doc, "the sweep document", err);
	if (!rc)
		rc = pj_str(doc, "", "param", true, &param, err);
	if (!rc)
		rc = pj_str(doc, "", "unit", false, &unit, err);
	if (!rc)
		rc = pj_str(doc, "", "protocol", false, &proto, err);
	if (!rc)
		rc = pj_arr(doc, "", "points", true, 1, MAX_POINTS, &points, err);
	if (rc)
		return rc;
	n = json_object_array_length(points);
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(points, i);
		char w[32];

		snprintf(w, sizeof(w), "points[%zu]", i);
		rc = pj_is_obj(o, w, err);
		if (!rc)
			rc = pj_num(o, w, "value", true, -1e18, 1e18, &pt[i].x, NULL, err);
		if (!rc)
			rc = parse_stats(o, w, &pt[i], err);
		for (size_t j = 0; j < i && !rc; j++)
			if (pt[j].x == pt[i].x)
				rc = bc_error_set(err, -EINVAL,
						  "%s.value: %.10g appears twice (points[%zu] too)",
						  w, pt[i].x, j);
		if (rc)
			return rc;
	}
	qsort(pt, n, sizeof(pt[0]), cmp_point);
	param_axis(param, unit, xlabel, sizeof(xlabel), &scale);
	pad = (pt[n - 1].x - pt[0].x) * scale * 0.06;
	if (pad <= 0)
		pad = fabs(pt[0].x * scale) * 0.1 + 1;
	xmin = pt[0].x * scale - pad;
	xmax = pt[n - 1].x * scale + pad;
	if (proto)
		plot_text(proto_t, sizeof(proto_t), proto);
	snprintf(title, sizeof(title), "Sweep: goodput against %s", xlabel);
	snprintf(sub1, sizeof(sub1), "%s%s%zu values; dots: the mean at each value, bars: its 95 %% CI",
		 proto_t, proto ? ", " : "", n);
	rc = plot_begin(&p, path, err);
	if (rc)
		return rc;
	plot_titles(title, sub1,
		    "The dashed line is the ceiling at each value (what the links can carry): a "
		    "good point sits just under it");
	plot_area(0.10, 0.80, 0.12, 0.80, xmin, xmax, 0, plot_nice_max(points_peak(pt, n) * 1.08),
		  "bcnst", "bcnstv", xlabel, "goodput (Mbit/s)");
	draw_points(pt, n, scale);
	plot_legend(3, legend, colors, kinds);
	return plot_finish(&p, err);
}

struct cell {
	int state; /* 0 not tested, 1 no answer (null), 2 measured */
	double bps, eff;
	bool has_eff;
};

static int host_index(char hosts[][64], size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(hosts[i], name))
			return (int)i;
	return -1;
}

int bc_plot_heatmap(const char *path, struct json_object *doc, struct bc_error *err)
{
	struct json_object *hj = NULL, *pj = NULL;
	char hosts[MAX_HOSTS][64], label[64], htext[MAX_HOSTS][64];
	struct cell *cells = NULL;
	double vmax = 0, chr;
	size_t n, measured = 0;
	struct plot p;
	int rc;

	rc = pj_is_obj(doc, "the matrix document", err);
	if (!rc)
		rc = pj_arr(doc, "", "hosts", true, 2, MAX_HOSTS, &hj, err);
	if (!rc)
		rc = pj_arr(doc, "", "pairs", true, 0, MAX_HOSTS * MAX_HOSTS, &pj, err);
	if (rc)
		return rc;
	n = json_object_array_length(hj);
	for (size_t i = 0; i < n; i++) {
		struct json_object *h = json_object_array_get_idx(hj, i);

		if (!json_object_is_type(h, json_type_string) || !*json_object_get_string(h) ||
		    strlen(json_object_get_string(h)) >= sizeof(hosts[0]))
			return bc_error_set(err, -EINVAL,
					    "hosts[%zu]: expected a host name (1 to 63 characters)",
					    i);
		snprintf(hosts[i], sizeof(hosts[i]), "%s", json_object_get_string(h));
		if (host_index(hosts, i, hosts[i]) >= 0)
			return bc_error_set(err, -EINVAL, "hosts[%zu]: \"%s\" is listed twice", i,
					    hosts[i]);
		plot_text(htext[i], sizeof(htext[i]), hosts[i]);
	}
	cells = calloc(n * n + 1, sizeof(*cells));
	if (!cells)
		return bc_error_set(err, -ENOMEM, "out of memory for the plot");
	for (size_t i = 0; i < json_object_array_length(pj); i++) {
		struct json_object *o = json_object_array_get_idx(pj, i), *g = NULL;
		const char *from = NULL, *to = NULL;
		int f = -1, t = -1;
		struct cell *c;
		char w[32];

		snprintf(w, sizeof(w), "pairs[%zu]", i);
		rc = pj_is_obj(o, w, err);
		if (!rc)
			rc = pj_str(o, w, "from", true, &from, err);
		if (!rc)
			rc = pj_str(o, w, "to", true, &to, err);
		if (!rc && (f = host_index(hosts, n, from)) < 0)
			rc = bc_error_set(err, -EINVAL, "%s.from: \"%.40s\" is not in hosts[]", w,
					  from);
		if (!rc && (t = host_index(hosts, n, to)) < 0)
			rc = bc_error_set(err, -EINVAL, "%s.to: \"%.40s\" is not in hosts[]", w, to);
		if (!rc && f == t)
			rc = bc_error_set(err, -EINVAL, "%s: from and to are both \"%.40s\"", w,
					  from);
		if (!rc && cells[(size_t)f * n + (size_t)t].state)
			rc = bc_error_set(err, -EINVAL, "%s: the pair %.40s -> %.40s appears twice",
					  w, from, to);
		if (rc)
			goto out;
		c = &cells[(size_t)f * n + (size_t)t];
		c->state = 1;
		if (json_object_object_get_ex(o, "goodput_bps", &g) && g) {
			rc = pj_num(o, w, "goodput_bps", true, 0, BPS_MAX, &c->bps, NULL, err);
			if (!rc)
				rc = pj_num(o, w, "efficiency", false, 0, 10, &c->eff, &c->has_eff,
					    err);
			if (rc)
				goto out;
			c->state = 2;
			measured++;
			vmax = fmax(vmax, plot_mbps(c->bps));
		}
	}
	if (!measured) {
		rc = bc_error_set(err, -ENODATA, "pairs: no pair has a goodput; nothing to plot");
		goto out;
	}
	vmax = plot_nice_max(vmax);
	rc = plot_begin(&p, path, err);
	if (rc)
		goto out;
	plot_titles("Cluster matrix: goodput of every ordered pair of hosts",
		    "Row: the host that sends; column: the host that receives; in each cell: "
		    "Mbit/s (efficiency against the pair's ceiling)",
		    "A pale row or column points at one host (a slow link, RX drops); compare a "
		    "pair with its reverse");
	/* white (0) to dark blue (vmax) */
	{
		PLFLT pos[2] = {0, 1}, r[2] = {0.94, 0.03}, g[2] = {0.96, 0.26}, b[2] = {1.0, 0.58};

		plscmap1l(1, 2, pos, r, g, b, NULL);
	}
	plvpor(0.16, 0.72, 0.10, 0.80);
	plwind(0, (double)n, 0, (double)n);
	chr = n > 8 ? 8.0 / (double)n : 1.0;
	for (size_t f = 0; f < n; f++)
		for (size_t t = 0; t < n; t++) {
			const struct cell *c = &cells[f * n + t];
			double x0 = (double)t, y0 = (double)(n - 1 - f), frac;
			PLFLT bx[4] = {x0, x0 + 1, x0 + 1, x0}, by[4] = {y0, y0, y0 + 1, y0 + 1};

			if (f == t) {
				plot_rect(x0, y0, x0 + 1, y0 + 1, C_GRID);
				continue;
			}
			plot_chr(0.8 * chr);
			if (c->state != 2) {
				plot_rect(x0, y0, x0 + 1, y0 + 1, c->state ? C_FAIL : C_BG);
				plcol0(C_SUB);
				plptex(x0 + 0.5, y0 + 0.45, 1, 0, 0.5,
				       c->state ? "no answer" : "not tested");
				continue;
			}
			frac = plot_mbps(c->bps) / vmax;
			plcol1(frac);
			plfill(4, bx, by);
			plcol0(frac > 0.55 ? C_BG : C_FG);
			snprintf(label, sizeof(label), "%.0f", plot_mbps(c->bps));
			plot_chr(1.0 * chr);
			plptex(x0 + 0.5, y0 + (c->has_eff ? 0.52 : 0.42), 1, 0, 0.5, label);
			if (c->has_eff) {
				snprintf(label, sizeof(label), "(%.0f %%)", c->eff * 100);
				plot_chr(0.75 * chr);
				plptex(x0 + 0.5, y0 + 0.25, 1, 0, 0.5, label);
			}
		}
	plot_chr(1.0);
	plcol0(C_FG);
	plbox("bc", 1, 0, "bc", 1, 0);
	plot_chr(fmin(0.9, chr));
	for (size_t i = 0; i < n; i++) {
		double pos = ((double)i + 0.5) / (double)n;

		plmtex("b", 1.2, pos, 0.5, htext[i]);
		plmtex("lv", 0.8, 1.0 - pos, 1.0, htext[i]);
	}
	plot_chr(0.95);
	plmtex("b", 2.8, 0.5, 0.5, "receiving host");
	plmtex("l", 6.5, 0.5, 0.5, "sending host");
	{
		PLFLT cw, ch, values[2] = {0, vmax};
		PLINT n_vals = 2, lab_opt = PL_COLORBAR_LABEL_RIGHT, axis_n = 1;
		PLINT opt = PL_COLORBAR_GRADIENT;
		const char *labels[1] = {"goodput (Mbit/s)"}, *axis_opts[1] = {"bcvmt"};
		PLFLT ticks[1] = {0};
		PLINT sub[1] = {0};
		const PLFLT *vals[1] = {values};

		plot_chr(0.85);
		plcolorbar(&cw, &ch, opt, PL_POSITION_RIGHT | PL_POSITION_OUTSIDE, 0.06, 0, 0.04,
			   0.7, C_BG, C_FG, 1, 0, 0, 0, 0, 1, &lab_opt, labels, axis_n, axis_opts,
			   ticks, sub, &n_vals, vals);
	}
	rc = plot_finish(&p, err);
out:
	free(cells);
	return rc;
}
