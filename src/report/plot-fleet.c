// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck fleet --plot DIR`: the host x finding heatmap (bondcheck/plot.h
 * bc_plot_fleet_findings(); issue 16 item 1).  One row per host, one column
 * per finding (the fleet's own and each host's inspect ids), a cell coloured
 * by the finding's severity where the host has it, with the count written
 * in it.  A column that is one colour from top to bottom is a fleet-wide
 * habit; a row full of colour is one host to look at.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/plot.h"
#include "report/plot-int.h"

#define MAX_ROWS  BC_PLOT_FLEET_MAX_HOSTS
#define MAX_COLS  BC_PLOT_FLEET_MAX_FINDINGS
#define LABEL_LEN 64
#define COUNT_MAX 1000000

/* Colours of the severities: error red, warning orange, info blue. */
static int severity_color(int sev)
{
	return sev == 2 ? C_LOSS : sev == 1 ? C_SERIES + 1 : C_SERIES + 0;
}

static int severity_of(const char *s)
{
	return !strcmp(s, "error") ? 2 : !strcmp(s, "warning") ? 1 : !strcmp(s, "info") ? 0 : -1;
}

struct grid {
	size_t rows, cols;
	char host[MAX_ROWS][LABEL_LEN];
	char label[MAX_COLS][LABEL_LEN];
	int sev[MAX_COLS];
	unsigned count[MAX_ROWS][MAX_COLS];
	const char *note;
};

static int read_labels(struct json_object *doc, struct grid *g, struct bc_error *err)
{
	struct json_object *hj = NULL, *fj = NULL;
	int rc;

	rc = pj_arr(doc, "", "hosts", true, 1, MAX_ROWS, &hj, err);
	if (!rc)
		rc = pj_arr(doc, "", "findings", true, 0, MAX_COLS, &fj, err);
	if (rc)
		return rc;
	g->rows = json_object_array_length(hj);
	g->cols = json_object_array_length(fj);
	for (size_t i = 0; i < g->rows; i++) {
		struct json_object *h = json_object_array_get_idx(hj, i);
		const char *s = json_object_get_string(h);

		if (!json_object_is_type(h, json_type_string) || !*s || strlen(s) >= LABEL_LEN)
			return bc_error_set(err, -EINVAL,
					    "hosts[%zu]: expected a host name (1 to %d characters)",
					    i, LABEL_LEN - 1);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(g->host[j], s))
				return bc_error_set(err, -EINVAL,
						    "hosts[%zu]: \"%.40s\" is listed twice", i, s);
		snprintf(g->host[i], LABEL_LEN, "%s", s);
	}
	for (size_t c = 0; c < g->cols; c++) {
		struct json_object *o = json_object_array_get_idx(fj, c);
		const char *label = NULL, *sev = NULL;
		char w[32];

		snprintf(w, sizeof(w), "findings[%zu]", c);
		rc = pj_is_obj(o, w, err);
		if (!rc)
			rc = pj_str(o, w, "label", true, &label, err);
		if (!rc)
			rc = pj_str(o, w, "severity", true, &sev, err);
		if (rc)
			return rc;
		if (!*label || strlen(label) >= LABEL_LEN)
			return bc_error_set(err, -EINVAL, "%s.label: expected 1 to %d characters",
					    w, LABEL_LEN - 1);
		g->sev[c] = severity_of(sev);
		if (g->sev[c] < 0)
			return bc_error_set(err, -EINVAL,
					    "%s.severity: expected error, warning or info, found "
					    "\"%.20s\"",
					    w, sev);
		snprintf(g->label[c], LABEL_LEN, "%s", label);
	}
	return 0;
}

static int read_grid(struct json_object *doc, struct grid *g, size_t *nonzero, struct bc_error *err)
{
	struct json_object *cj = NULL;
	int rc = read_labels(doc, g, err);

	if (!rc)
		rc = pj_arr(doc, "", "counts", true, g->rows, g->rows, &cj, err);
	if (!rc)
		rc = pj_str(doc, "", "note", false, &g->note, err);
	if (rc)
		return rc;
	*nonzero = 0;
	for (size_t r = 0; r < g->rows; r++) {
		struct json_object *row = json_object_array_get_idx(cj, r);
		char w[32];

		snprintf(w, sizeof(w), "counts[%zu]", r);
		if (!json_object_is_type(row, json_type_array) ||
		    json_object_array_length(row) != g->cols)
			return bc_error_set(err, -EINVAL,
					    "%s: expected an array of %zu counts (one per finding)",
					    w, g->cols);
		for (size_t c = 0; c < g->cols; c++) {
			double v;

			rc = pj_num_at(row, w, c, 0, COUNT_MAX, &v, err);
			if (rc)
				return rc;
			if (v != floor(v))
				return bc_error_set(err, -EINVAL,
						    "%s[%zu]: expected an integer, found %g", w, c,
						    v);
			g->count[r][c] = (unsigned)v;
			*nonzero += v > 0;
		}
	}
	return 0;
}

static void draw_cells(const struct grid *g)
{
	double chr = fmin(1.0, fmin(14.0 / (double)g->rows, 20.0 / (double)g->cols));
	char label[2 * LABEL_LEN];

	plvpor(0.17, 0.84, 0.34, 0.84);
	plwind(0, (double)g->cols, 0, (double)g->rows);
	for (size_t r = 0; r < g->rows; r++)
		for (size_t c = 0; c < g->cols; c++) {
			double x0 = (double)c, y0 = (double)(g->rows - 1 - r);

			if (!g->count[r][c])
				continue;
			plot_rect(x0 + 0.04, y0 + 0.06, x0 + 0.96, y0 + 0.94,
				  severity_color(g->sev[c]));
			snprintf(label, sizeof(label), "%u", g->count[r][c]);
			plcol0(C_BG);
			plot_chr(0.8 * chr);
			plptex(x0 + 0.5, y0 + 0.32, 1, 0, 0.5, label);
		}
	/* a light grid between cells, then the frame */
	plcol0(C_GRID);
	plwidth(0.5);
	for (size_t c = 1; c < g->cols; c++) {
		double x[2] = {(double)c, (double)c}, y[2] = {0, (double)g->rows};

		plline(2, x, y);
	}
	for (size_t r = 1; r < g->rows; r++) {
		double x[2] = {0, (double)g->cols}, y[2] = {(double)r, (double)r};

		plline(2, x, y);
	}
	plwidth(1);
	plcol0(C_FG);
	plbox("bc", 0, 0, "bc", 0, 0);
	plot_chr(fmin(0.85, 1.3 * chr));
	for (size_t r = 0; r < g->rows; r++) {
		plot_text(label, sizeof(label), g->host[r]);
		plmtex("lv", 0.8, 1.0 - ((double)r + 0.5) / (double)g->rows, 1.0, label);
	}
	for (size_t c = 0; c < g->cols; c++) {
		plot_text(label, sizeof(label), g->label[c]);
		plcol0(severity_color(g->sev[c]));
		plmtex("bv", 0.8, ((double)c + 0.5) / (double)g->cols, 1.0, label);
	}
	plcol0(C_FG);
	plot_chr(1.0);
}

int bc_plot_fleet_findings(const char *path, struct json_object *doc, struct bc_error *err)
{
	static const char *const legend[3] = {"error", "warning", "info"};
	static const int colors[3] = {C_LOSS, C_SERIES + 1, C_SERIES + 0};
	static const int kinds[3] = {LEG_BOX, LEG_BOX, LEG_BOX};
	struct grid *g;
	size_t nonzero = 0;
	char sub1[200], note[300] = "";
	struct plot p;
	int rc;

	rc = pj_is_obj(doc, "the fleet findings document", err);
	if (rc)
		return rc;
	g = calloc(1, sizeof(*g));
	if (!g)
		return bc_error_set(err, -ENOMEM, "out of memory for the plot");
	rc = read_grid(doc, g, &nonzero, err);
	if (!rc && !nonzero)
		rc = bc_error_set(err, -ENODATA, "no host has a finding; nothing to plot");
	if (rc)
		goto out;
	snprintf(sub1, sizeof(sub1),
		 "%zu host%s (rows) x %zu finding%s (columns); each cell: how many times the host "
		 "has it",
		 g->rows, g->rows == 1 ? "" : "s", g->cols, g->cols == 1 ? "" : "s");
	if (g->note)
		plot_text(note, sizeof(note), g->note);
	rc = plot_begin(&p, path, err);
	if (rc)
		goto out;
	plot_titles(
		"Fleet: which host has which finding", sub1,
		note[0] ? note
			: "A full column is a fleet-wide habit; a full row is one host to look at");
	draw_cells(g);
	plvpor(0.17, 0.84, 0.34, 0.84);
	plot_legend(3, legend, colors, kinds);
	rc = plot_finish(&p, err);
out:
	free(g);
	return rc;
}
