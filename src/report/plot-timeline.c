// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Plots of the capture timeline (bondcheck/plot.h): per-link throughput
 * over time (bc_plot_link_timeline) and datagrams per bin around a failover
 * event (bc_plot_failover_timeline).  Both read the analysis' "timeline"
 * (bondcheck/attrib.h struct bc_attrib_timeline, docs/analyze.md).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/plot.h"
#include "report/plot-int.h"

#define MAX_LINKS  32 /* BC_ATTRIB_MAX_LINKS */
#define MAX_BINS   4096
#define MAX_EVENTS 16

enum { SIDE_TX = 0, SIDE_RX = 1 };
enum { FWD = 0, REV = 1 };

struct tl_link {
	char name[96]; /* escaped for PLplot */
	int side;
	double *v[2]; /* per bin, [FWD] and [REV] (NULL when absent) */
	double sum[2];
	double *tcp; /* failover --tcp: the flow's segments per bin (NULL when absent) */
	double tcp_sum;
};

struct tl {
	int64_t bin_ns, start_ns;
	size_t n_bins, n_links;
	struct tl_link links[MAX_LINKS];
};

static void tl_free(struct tl *t)
{
	for (size_t i = 0; i < t->n_links; i++) {
		free(t->links[i].v[FWD]);
		free(t->links[i].v[REV]);
		free(t->links[i].tcp);
	}
	t->n_links = 0;
}

static int tl_values(struct json_object *arr, const char *where, size_t n, double **out,
		     double *sum, struct bc_error *err)
{
	double *v;
	int rc;

	if (json_object_array_length(arr) != n)
		return bc_error_set(err, -EINVAL,
				    "%s: expected %zu values (as many as the first link's), "
				    "found %zu",
				    where, n, json_object_array_length(arr));
	v = calloc(n, sizeof(*v));
	if (!v)
		return bc_error_set(err, -ENOMEM, "out of memory for the plot");
	*sum = 0;
	for (size_t b = 0; b < n; b++) {
		rc = pj_num_at(arr, where, b, 0, 1e300, &v[b], err);
		if (rc) {
			free(v);
			return rc;
		}
		*sum += v[b];
	}
	*out = v;
	return 0;
}

/* Parse @doc's timeline (or @doc itself) with per-bin members @key/@rkey and, when
 * @tkey is not NULL, the optional per-bin member @tkey (failover's tcp_frames). */
static int tl_parse(struct json_object *doc, const char *key, const char *rkey, const char *tkey,
		    struct tl *t, struct bc_error *err)
{
	struct json_object *tj = NULL, *links = NULL;
	const char *top = "timeline";
	int rc;

	memset(t, 0, sizeof(*t));
	rc = pj_is_obj(doc, "the plot's input", err);
	if (rc)
		return rc;
	rc = pj_obj(doc, "", "timeline", false, &tj, err);
	if (rc)
		return rc;
	if (!tj) {
		if (!json_object_object_get_ex(doc, "bin_ns", NULL))
			return bc_error_set(
				err, -EINVAL,
				"timeline: expected an object with bin_ns, start_ns and "
				"links[] (the capture analysis' \"timeline\"), found "
				"neither it nor its members");
		tj = doc;
		top = "";
	}
	rc = pj_i64(tj, top, "bin_ns", true, 1, INT64_MAX / MAX_BINS, &t->bin_ns, NULL, err);
	if (!rc)
		rc = pj_i64(tj, top, "start_ns", true, 0, INT64_MAX / 2, &t->start_ns, NULL, err);
	if (!rc)
		rc = pj_arr(tj, top, "links", true, 1, MAX_LINKS, &links, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < json_object_array_length(links); i++) {
		struct json_object *lj = json_object_array_get_idx(links, i), *a = NULL;
		struct tl_link *l = &t->links[i];
		char where[64], w2[96];
		const char *name = NULL, *side = NULL;

		snprintf(where, sizeof(where), "%s%slinks[%zu]", top, *top ? "." : "", i);
		rc = pj_is_obj(lj, where, err);
		if (!rc)
			rc = pj_str(lj, where, "name", true, &name, err);
		if (!rc)
			rc = pj_str(lj, where, "side", true, &side, err);
		if (!rc && strcmp(side, "tx") && strcmp(side, "rx"))
			rc = bc_error_set(err, -EINVAL,
					  "%s.side: expected \"tx\" or \"rx\", found \"%.20s\"",
					  where, side);
		if (!rc)
			rc = pj_arr(lj, where, key, true, 1, MAX_BINS, &a, err);
		if (rc) {
			tl_free(t);
			return rc;
		}
		t->n_links = i + 1;
		plot_text(l->name, sizeof(l->name), name);
		l->side = strcmp(side, "tx") ? SIDE_RX : SIDE_TX;
		if (!i)
			t->n_bins = json_object_array_length(a);
		snprintf(w2, sizeof(w2), "%s.%s", where, key);
		rc = tl_values(a, w2, t->n_bins, &l->v[FWD], &l->sum[FWD], err);
		a = NULL;
		if (!rc)
			rc = pj_arr(lj, where, rkey, false, 1, MAX_BINS, &a, err);
		if (!rc && a) {
			snprintf(w2, sizeof(w2), "%s.%s", where, rkey);
			rc = tl_values(a, w2, t->n_bins, &l->v[REV], &l->sum[REV], err);
		}
		a = NULL;
		if (!rc && tkey)
			rc = pj_arr(lj, where, tkey, false, 1, MAX_BINS, &a, err);
		if (!rc && a) {
			snprintf(w2, sizeof(w2), "%s.%s", where, tkey);
			rc = tl_values(a, w2, t->n_bins, &l->tcp, &l->tcp_sum, err);
		}
		if (rc) {
			tl_free(t);
			return rc;
		}
	}
	return 0;
}

static void bin_words(char *buf, size_t n, int64_t bin_ns)
{
	if (bin_ns % 1000000000 == 0)
		snprintf(buf, n, "%lld s", (long long)(bin_ns / 1000000000));
	else if (bin_ns % 1000000 == 0)
		snprintf(buf, n, "%lld ms", (long long)(bin_ns / 1000000));
	else
		snprintf(buf, n, "%.4g ms", (double)bin_ns / 1e6);
}

/* Panel geometry: @k of @n panels, top to bottom. */
static void panel_y(size_t k, size_t n, double *y0, double *y1)
{
	const double top = 0.80, bottom = 0.11, gap = 0.11;
	double h = (top - bottom - gap * (double)(n - 1)) / (double)n;

	*y1 = top - (double)k * (h + gap);
	*y0 = *y1 - h;
}

/* One series of bins b0..b0+nb-1 (NULL: zeros) into @x, @y; the point count. */
static size_t series(const double *v, double *x, double *y, double scale, double xl, double dx,
		     size_t b0, size_t nb, bool steps)
{
	size_t np = 0;

	for (size_t b = 0; b < nb; b++) {
		double val = v ? v[b0 + b] * scale : 0;

		if (steps || nb == 1) {
			x[np] = xl + (double)b * dx;
			y[np++] = val;
			x[np] = xl + (double)(b + 1) * dx;
			y[np++] = val;
		} else {
			x[np] = xl + ((double)b + 0.5) * dx;
			y[np++] = val;
		}
	}
	return np;
}

/*
 * One panel: the links of @side, direction @dir, y = v * @scale, bins
 * b0..b0+nb-1 at x = @xl + (b - b0) * @dx (left edges).  @steps: each bin
 * as a flat step (2 points), else a line through the bins' centres.  @tcp:
 * also each link's TCP segments (failover --tcp), dashed in its colour.
 * @x, @y hold 2 * nb values.
 */
static void draw_panel(const struct tl *t, double *x, double *y, size_t k, size_t npanels, int side,
		       int dir, double scale, double xl, double dx, double ymax, size_t b0,
		       size_t nb, bool steps, bool tcp, const char *panel_title, const char *xlabel,
		       const char *ylabel)
{
	const char *names[2 * MAX_LINKS];
	char tcp_names[MAX_LINKS][112];
	int colors[2 * MAX_LINKS], kinds[2 * MAX_LINKS];
	double y0, y1, xr = xl + (double)nb * dx;
	size_t m = 0, s = 0, np;

	panel_y(k, npanels, &y0, &y1);
	plot_area(0.10, 0.80, y0, y1, xl, xr, 0, ymax, "bcnst", "bcnstv", xlabel, ylabel);
	plot_chr(0.95);
	plcol0(C_FG);
	plmtex("t", 1.0, 0.0, 0.0, panel_title);
	plot_chr(1.0);
	for (size_t i = 0; i < t->n_links; i++) {
		const struct tl_link *l = &t->links[i];

		if (l->side != side)
			continue;
		np = series(l->v[dir], x, y, scale, xl, dx, b0, nb, steps);
		plot_line(np, x, y, plot_series(s), 1.6, 1);
		names[m] = l->name;
		colors[m] = plot_series(s);
		kinds[m++] = LEG_LINE;
		if (tcp && l->tcp && l->tcp_sum > 0) {
			np = series(l->tcp, x, y, scale, xl, dx, b0, nb, steps);
			plot_line(np, x, y, plot_series(s), 1.2, 2);
			snprintf(tcp_names[s], sizeof(tcp_names[s]), "%s TCP", l->name);
			names[m] = tcp_names[s];
			colors[m] = plot_series(s);
			kinds[m++] = LEG_DASH;
		}
		s++;
	}
	plot_legend(m, names, colors, kinds);
}

static bool side_has(const struct tl *t, int side)
{
	for (size_t i = 0; i < t->n_links; i++)
		if (t->links[i].side == side)
			return true;
	return false;
}

int bc_plot_link_timeline(const char *path, struct json_object *doc, struct bc_error *err)
{
	double fwd = 0, rev = 0, peak = 0, scale, bin_s, *x = NULL, *y = NULL;
	char bw[32], sub1[200], ptitle[2][120];
	int sides[2], dir, rc;
	size_t np = 0;
	struct plot p;
	struct tl t;

	rc = tl_parse(doc, "wire_bytes", "reverse_wire_bytes", NULL, &t, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < t.n_links; i++) {
		fwd += t.links[i].sum[FWD];
		rev += t.links[i].sum[REV];
	}
	if (fwd <= 0 && rev <= 0) {
		tl_free(&t);
		return bc_error_set(err, -ENODATA,
				    "timeline: every wire byte count is 0; nothing to plot");
	}
	dir = rev > fwd ? REV : FWD;
	bin_s = (double)t.bin_ns / 1e9;
	scale = 8.0 / bin_s / 1e6; /* wire bytes per bin -> Mbit/s */
	for (size_t i = 0; i < t.n_links; i++)
		for (size_t b = 0; t.links[i].v[dir] && b < t.n_bins; b++)
			if (t.links[i].v[dir][b] * scale > peak)
				peak = t.links[i].v[dir][b] * scale;
	/* forward data leaves on tx: links and arrives on rx: links */
	if (side_has(&t, dir == FWD ? SIDE_TX : SIDE_RX))
		sides[np++] = dir == FWD ? SIDE_TX : SIDE_RX;
	if (side_has(&t, dir == FWD ? SIDE_RX : SIDE_TX))
		sides[np++] = dir == FWD ? SIDE_RX : SIDE_TX;
	x = calloc(2 * t.n_bins + 1, sizeof(*x));
	y = calloc(2 * t.n_bins + 1, sizeof(*y));
	if (!x || !y) {
		rc = bc_error_set(err, -ENOMEM, "out of memory for the plot");
		goto out;
	}
	for (size_t k = 0; k < np; k++)
		snprintf(ptitle[k], sizeof(ptitle[k]), "%s (%s: captures%s)",
			 (sides[k] == SIDE_TX) == (dir == FWD) ? "Leaving the sender"
							       : "Arriving at the receiver",
			 sides[k] == SIDE_TX ? "tx" : "rx",
			 dir == FWD ? "" : ", reverse direction");
	rc = plot_begin(&p, path, err);
	if (rc)
		goto out;
	bin_words(bw, sizeof(bw), t.bin_ns);
	snprintf(sub1, sizeof(sub1),
		 "Wire rate of each slave in %s bins (preamble, FCS and inter-frame gap included), "
		 "%s direction; the first and last bins may be partly empty",
		 bw, dir == FWD ? "forward" : "reverse");
	plot_titles(
		"Per-link throughput over time", sub1,
		"Similar heights: the bond spreads the load. Near 0: an idle link. A dip in one "
		"line: that link stalled.");
	for (size_t k = 0; k < np; k++)
		draw_panel(&t, x, y, k, np, sides[k], dir, scale, 0, bin_s,
			   plot_nice_max(peak * 1.05), 0, t.n_bins, false, false, ptitle[k],
			   k + 1 == np ? "time (s) from the start of the first bin" : NULL,
			   "Mbit/s");
	rc = plot_finish(&p, err);
out:
	free(x);
	free(y);
	tl_free(&t);
	return rc;
}

struct event {
	int64_t t_ns;
	char label[64];
};

static int cmp_event(const void *a, const void *b)
{
	const struct event *x = a, *y = b;

	return x->t_ns < y->t_ns ? -1 : x->t_ns > y->t_ns;
}

static int parse_events(struct json_object *doc, struct event *ev, size_t *n, struct bc_error *err)
{
	struct json_object *arr = NULL;
	int rc = pj_arr(doc, "", "events", true, 1, MAX_EVENTS, &arr, err);

	if (rc)
		return rc;
	*n = json_object_array_length(arr);
	for (size_t i = 0; i < *n; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		const char *label = NULL;
		char where[32];

		snprintf(where, sizeof(where), "events[%zu]", i);
		rc = pj_is_obj(e, where, err);
		if (!rc)
			rc = pj_i64(e, where, "time_ns", true, 0, INT64_MAX / 2, &ev[i].t_ns, NULL,
				    err);
		if (!rc)
			rc = pj_str(e, where, "label", true, &label, err);
		if (rc)
			return rc;
		plot_text(ev[i].label, sizeof(ev[i].label), label);
	}
	qsort(ev, *n, sizeof(*ev), cmp_event);
	return 0;
}

int bc_plot_failover_timeline(const char *path, struct json_object *doc, struct bc_error *err)
{
	struct event ev[MAX_EVENTS];
	int64_t from = 0, to = INT64_MAX;
	double *x = NULL, *y = NULL, peak = 0, xmin, xmax;
	size_t n_ev = 0, b0, b1, np = 0;
	char bw[32], title[96], xlabel[120], ptitle[2][120];
	int dirs[2], rc;
	bool has[2] = {false, false}, tcp = false;
	struct plot p;
	struct tl t;

	rc = pj_is_obj(doc, "the plot's input", err);
	if (!rc)
		rc = parse_events(doc, ev, &n_ev, err);
	if (!rc)
		rc = pj_i64(doc, "", "from_ns", false, 0, INT64_MAX / 2, &from, NULL, err);
	if (!rc)
		rc = pj_i64(doc, "", "to_ns", false, 0, INT64_MAX / 2, &to, NULL, err);
	if (!rc && from >= to)
		rc = bc_error_set(err, -EINVAL, "from_ns (%lld) must be below to_ns (%lld)",
				  (long long)from, (long long)to);
	if (rc)
		return rc;
	if (!json_object_object_get_ex(doc, "timeline", NULL))
		return bc_error_set(err, -EINVAL,
				    "timeline: expected the capture analysis' timeline object "
				    "(bin_ns, start_ns, links[] with frames[]), found nothing");
	rc = tl_parse(doc, "frames", "reverse_frames", "tcp_frames", &t, err);
	if (rc)
		return rc;
	/* the bins whose start lies in [from, to) */
	b0 = 0;
	while (b0 < t.n_bins && t.start_ns + (int64_t)b0 * t.bin_ns < from)
		b0++;
	b1 = b0;
	while (b1 < t.n_bins && t.start_ns + (int64_t)b1 * t.bin_ns < to)
		b1++;
	/* forward datagrams arrive on rx: links, reverse ones on tx: links */
	for (size_t i = 0; i < t.n_links; i++)
		for (int d = FWD; d <= REV; d++) {
			const struct tl_link *l = &t.links[i];

			if (!l->v[d] || l->side != (d == FWD ? SIDE_RX : SIDE_TX))
				continue;
			for (size_t b = b0; b < b1; b++) {
				has[d] |= l->v[d][b] > 0;
				peak = l->v[d][b] > peak ? l->v[d][b] : peak;
				/* the TCP flow goes client -> agent: forward, on the rx: links */
				if (d == FWD && l->tcp && l->tcp[b] > peak)
					peak = l->tcp[b];
				tcp |= d == FWD && l->tcp && l->tcp[b] > 0;
			}
		}
	if (has[FWD])
		dirs[np++] = FWD;
	if (has[REV])
		dirs[np++] = REV;
	if (!np) {
		tl_free(&t);
		return bc_error_set(err, -ENODATA,
				    "timeline: no datagram arrived on any slave%s; nothing to plot",
				    b1 - b0 < t.n_bins ? " between from_ns and to_ns" : "");
	}
	x = calloc(2 * t.n_bins + 1, sizeof(*x));
	y = calloc(2 * t.n_bins + 1, sizeof(*y));
	if (!x || !y) {
		rc = bc_error_set(err, -ENOMEM, "out of memory for the plot");
		goto out;
	}
	/* ms from the first event; the difference is taken in integers (ns
	 * epochs lose precision as doubles) */
	xmin = ((double)(t.start_ns - ev[0].t_ns) + (double)b0 * (double)t.bin_ns) / 1e6;
	xmax = ((double)(t.start_ns - ev[0].t_ns) + (double)b1 * (double)t.bin_ns) / 1e6;
	for (size_t k = 0; k < np; k++)
		snprintf(ptitle[k], sizeof(ptitle[k]), "%s: %s arriving on the %s slaves",
			 dirs[k] == FWD ? "Forward" : "Reverse",
			 dirs[k] == FWD && tcp ? "datagrams (solid) and TCP segments (dashed)"
					       : "datagrams",
			 dirs[k] == FWD ? "receiver's (rx:)" : "sender's (tx:)");
	rc = plot_begin(&p, path, err);
	if (rc)
		goto out;
	bin_words(bw, sizeof(bw), t.bin_ns);
	snprintf(title, sizeof(title), "Failover timeline: %s per %s on each slave",
		 tcp ? "datagrams and TCP segments" : "datagrams", bw);
	snprintf(xlabel, sizeof(xlabel), "time from \"%s\" (ms)", ev[0].label);
	plot_titles(title,
		    "Each line is a slave; red dashed lines are the events. Where every line "
		    "drops to 0, traffic stopped:",
		    "that gap is the failover time. A line that takes over after the event is "
		    "the slave the bond moved to.");
	for (size_t k = 0; k < np; k++) {
		double ymax = plot_nice_max(peak * 1.1);

		draw_panel(&t, x, y, k, np, dirs[k] == FWD ? SIDE_RX : SIDE_TX, dirs[k], 1.0, xmin,
			   (double)t.bin_ns / 1e6, ymax, b0, b1 - b0, true, dirs[k] == FWD && tcp,
			   ptitle[k], k + 1 == np ? xlabel : NULL,
			   tcp ? "packets per bin" : "datagrams per bin");
		for (size_t e = 0; e < n_ev; e++) {
			double xe = (double)(ev[e].t_ns - ev[0].t_ns) / 1e6;
			PLFLT xs[2] = {xe, xe}, ys[2] = {0, ymax};

			if (xe < xmin || xe > xmax)
				continue;
			plcol0(C_LOSS);
			pllsty(2);
			plwidth(1.4);
			plline(2, xs, ys);
			pllsty(1);
			plwidth(1);
			plot_chr(0.8);
			plptex(xe + (xmax - xmin) * 0.005, ymax * (0.93 - 0.08 * (double)(e % 3)),
			       1, 0, 0, ev[e].label);
			plot_chr(1.0);
		}
	}
	rc = plot_finish(&p, err);
out:
	free(x);
	free(y);
	tl_free(&t);
	return rc;
}
