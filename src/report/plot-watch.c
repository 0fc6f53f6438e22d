// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck watch --plot DIR`: the flows' placement (bondcheck/plot.h
 * bc_plot_watch_flows(); docs/watch.md).  One row per flow, busiest at the
 * top; in the left panel what it sent, in the right what it received, each
 * a bar stacked by slave (one colour per slave), grey for the bytes whose
 * slave is unknown.  After each bar the source of its slave: observed
 * (slave taps), predicted (the bond's hash) or unknown.  A flow crowded on
 * one slave beside an idle one shows as bars of a single colour.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/plot.h"
#include "report/plot-int.h"

#define MAX_SLAVES 16
#define LABEL_LEN  64

enum src { SRC_UNKNOWN, SRC_PREDICTED, SRC_OBSERVED };

struct side {
	double on[MAX_SLAVES]; /* bytes on each slave */
	double bytes;	       /* the flow's bytes this way; the rest of on[] is unknown */
	enum src src;
};

struct flows {
	size_t n_slaves, n;
	char slave[MAX_SLAVES][LABEL_LEN];
	char label[BC_PLOT_WATCH_MAX_FLOWS][LABEL_LEN];
	struct side way[BC_PLOT_WATCH_MAX_FLOWS][2]; /* [0] tx, [1] rx */
	const char *bond;
	double max[2]; /* the longest bar each way, bytes */
};

static int read_side(struct json_object *o, const char *w, int k, struct flows *g,
		     struct side *s, struct bc_error *err)
{
	static const char *const names[2][3] = {{"tx_source", "tx_on", "tx_bytes"},
						{"rx_source", "rx_on", "rx_bytes"}};
	struct json_object *on = NULL;
	const char *src = NULL;
	double sum = 0;
	int rc;

	rc = pj_str(o, w, names[k][0], true, &src, err);
	if (!rc)
		rc = pj_arr(o, w, names[k][1], true, g->n_slaves, g->n_slaves, &on, err);
	if (!rc)
		rc = pj_num(o, w, names[k][2], true, 0, 1e18, &s->bytes, NULL, err);
	if (rc)
		return rc;
	s->src = !strcmp(src, "observed")    ? SRC_OBSERVED
		 : !strcmp(src, "predicted") ? SRC_PREDICTED
		 : !strcmp(src, "unknown")   ? SRC_UNKNOWN
					     : (enum src)-1;
	if ((int)s->src < 0)
		return bc_error_set(err, -EINVAL,
				    "%s.%s: expected observed, predicted or unknown, found \"%.20s\"",
				    w, names[k][0], src);
	for (size_t i = 0; i < g->n_slaves; i++) {
		char wi[64];

		snprintf(wi, sizeof(wi), "%s.%s", w, names[k][1]);
		rc = pj_num_at(on, wi, i, 0, 1e18, &s->on[i], err);
		if (rc)
			return rc;
		sum += s->on[i];
	}
	if (sum > s->bytes * (1 + 1e-9))
		return bc_error_set(err, -EINVAL,
				    "%s: %s sums to %.0f bytes, more than %s (%.0f)", w, names[k][1],
				    sum, names[k][2], s->bytes);
	g->max[k] = fmax(g->max[k], s->bytes);
	return 0;
}

static int read_flows(struct json_object *doc, struct flows *g, struct bc_error *err)
{
	struct json_object *sj = NULL, *fj = NULL;
	int rc;

	rc = pj_arr(doc, "", "slaves", true, 1, MAX_SLAVES, &sj, err);
	if (!rc)
		rc = pj_arr(doc, "", "flows", true, 0, BC_PLOT_WATCH_MAX_FLOWS, &fj, err);
	if (!rc)
		rc = pj_str(doc, "", "bond", false, &g->bond, err);
	if (rc)
		return rc;
	g->n_slaves = json_object_array_length(sj);
	g->n = json_object_array_length(fj);
	for (size_t i = 0; i < g->n_slaves; i++) {
		struct json_object *x = json_object_array_get_idx(sj, i);
		const char *s = json_object_get_string(x);

		if (!json_object_is_type(x, json_type_string) || !*s || strlen(s) >= LABEL_LEN)
			return bc_error_set(err, -EINVAL,
					    "slaves[%zu]: expected a slave name (1 to %d characters)",
					    i, LABEL_LEN - 1);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(g->slave[j], s))
				return bc_error_set(err, -EINVAL,
						    "slaves[%zu]: \"%.20s\" is listed twice", i, s);
		snprintf(g->slave[i], LABEL_LEN, "%s", s);
	}
	for (size_t f = 0; f < g->n; f++) {
		struct json_object *o = json_object_array_get_idx(fj, f);
		const char *label = NULL;
		char w[32];

		snprintf(w, sizeof(w), "flows[%zu]", f);
		rc = pj_is_obj(o, w, err);
		if (!rc)
			rc = pj_str(o, w, "label", true, &label, err);
		if (rc)
			return rc;
		if (!*label || strlen(label) >= LABEL_LEN)
			return bc_error_set(err, -EINVAL, "%s.label: expected 1 to %d characters",
					    w, LABEL_LEN - 1);
		snprintf(g->label[f], LABEL_LEN, "%s", label);
		for (int k = 0; k < 2; k++) {
			rc = read_side(o, w, k, g, &g->way[f][k], err);
			if (rc)
				return rc;
		}
	}
	return 0;
}

/* The unit of the byte axis: 10^3 steps, so that the longest bar is 1..999 of it. */
static double byte_unit(double max, const char **name)
{
	static const char *const names[] = {"bytes", "kB", "MB", "GB", "TB"};
	double u = 1;
	size_t i = 0;

	while (max >= 1000 * u && i + 1 < sizeof(names) / sizeof(names[0])) {
		u *= 1000;
		i++;
	}
	*name = names[i];
	return u;
}

static const char *mark(const struct side *s)
{
	if (s->src == SRC_OBSERVED)
		return "observed (taps)";
	if (s->src == SRC_PREDICTED)
		return "predicted (hash)";
	return "slave unknown";
}

/*
 * One panel: the flows' bars of direction @k at page fractions [@x0, @x1],
 * on a scale of its own (RX is often only the ACKs of a sending host).
 */
static void draw_panel(const struct flows *g, int k, double x0, double x1, bool labels)
{
	const char *uname;
	double unit = byte_unit(g->max[k], &uname), n = (double)g->n;
	double xmax = plot_nice_max(g->max[k] / unit) * 1.45;
	char xl[96], text[2 * LABEL_LEN];

	snprintf(xl, sizeof(xl), "%s, %s", k ? "received (RX)" : "sent (TX)", uname);
	plot_area(x0, x1, 0.12, 0.80, 0, xmax, 0, n, "bcnst", "bc", xl, NULL);
	plot_chr(0.95);
	plmtex("t", 1.0, 0.0, 0.0, k ? "RX: what the peer sent, by the slave it arrived on"
				     : "TX: what this host sent, by the slave it left on");
	for (size_t f = 0; f < g->n; f++) {
		const struct side *s = &g->way[f][k];
		double y = n - 1 - (double)f, x = 0, rest = s->bytes;

		for (size_t i = 0; i < g->n_slaves; i++) {
			if (s->on[i] <= 0)
				continue;
			plot_rect(x, y + 0.2, x + s->on[i] / unit, y + 0.8, plot_series(i));
			x += s->on[i] / unit;
			rest -= s->on[i];
		}
		/* bytes whose slave is unknown: grey, never drawn as nothing */
		if (rest > 0) {
			plot_rect(x, y + 0.2, x + rest / unit, y + 0.8, C_MUTED);
			x += rest / unit;
		}
		plot_chr(0.7);
		plcol0(s->src == SRC_UNKNOWN ? C_FG : C_SUB);
		plptex(x + xmax * 0.01, y + 0.5, 1, 0, 0, mark(s));
		if (labels) {
			plot_text(text, sizeof(text), g->label[f]);
			plcol0(C_FG);
			plot_chr(0.75);
			plmtex("lv", 0.8, 1.0 - ((double)f + 0.5) / n, 1.0, text);
		}
	}
	plcol0(C_FG);
	plot_chr(1.0);
}

int bc_plot_watch_flows(const char *path, struct json_object *doc, struct bc_error *err)
{
	const char *legend[MAX_SLAVES + 1];
	int colors[MAX_SLAVES + 1], kinds[MAX_SLAVES + 1];
	char title[160], sub1[200], names[MAX_SLAVES][LABEL_LEN * 2];
	struct flows *g;
	struct plot p;
	int rc;

	rc = pj_is_obj(doc, "the watch flows document", err);
	if (rc)
		return rc;
	g = calloc(1, sizeof(*g));
	if (!g)
		return bc_error_set(err, -ENOMEM, "out of memory for the plot");
	rc = read_flows(doc, g, err);
	if (!rc && g->max[0] <= 0 && g->max[1] <= 0)
		rc = bc_error_set(err, -ENODATA, "no flow carried a byte; nothing to plot");
	if (rc)
		goto out;
	snprintf(title, sizeof(title), "Watch%s%.40s: which slave carried each flow",
		 g->bond ? " " : "", g->bond ? g->bond : "");
	snprintf(sub1, sizeof(sub1),
		 "The %zu busiest flow%s over the whole watch, bytes by slave; grey: the slave is "
		 "unknown",
		 g->n, g->n == 1 ? "" : "s");
	rc = plot_begin(&p, path, err);
	if (rc)
		goto out;
	plot_titles(title, sub1,
		    "observed: seen by the slave taps; predicted: the bond's transmit hash (TX "
		    "only); without taps RX is unknown");
	draw_panel(g, 0, 0.27, 0.55, true);
	draw_panel(g, 1, 0.58, 0.86, false);
	for (size_t i = 0; i < g->n_slaves; i++) {
		plot_text(names[i], sizeof(names[i]), g->slave[i]);
		legend[i] = names[i];
		colors[i] = plot_series(i);
		kinds[i] = LEG_BOX;
	}
	legend[g->n_slaves] = "slave unknown";
	colors[g->n_slaves] = C_MUTED;
	kinds[g->n_slaves] = LEG_BOX;
	plot_legend(g->n_slaves + 1, legend, colors, kinds);
	rc = plot_finish(&p, err);
out:
	free(g);
	return rc;
}
