// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The plots' common ground (report/plot-int.h): a PLplot stream per plot on
 * the svg driver, written to a temporary file and renamed when complete;
 * palette, titles, plot areas and legends; JSON readers that name the
 * member they reject.  Never prints: PLplot's own error messages are routed
 * into a buffer with plsError() and the input is validated before any
 * PLplot call can see it.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/plot-int.h"

static const uint8_t palette[PLOT_COLORS][3] = {
	[C_BG] = {0xff, 0xff, 0xff},	 [C_FG] = {0x22, 0x22, 0x22},
	[C_GRID] = {0xdd, 0xdd, 0xdd},	 [C_MUTED] = {0xe3, 0xe3, 0xe3},
	[C_SUB] = {0x55, 0x55, 0x55},	 [C_LOSS] = {0xd6, 0x27, 0x28},
	[C_BAND] = {0xc6, 0xdb, 0xef},	 [C_FAIL] = {0xf6, 0xd0, 0xd0},	 [C_SERIES + 0] = {0x1f, 0x77, 0xb4},
	[C_SERIES + 1] = {0xff, 0x7f, 0x0e}, [C_SERIES + 2] = {0x2c, 0xa0, 0x2c},
	[C_SERIES + 3] = {0x94, 0x67, 0xbd}, [C_SERIES + 4] = {0x8c, 0x56, 0x4b},
	[C_SERIES + 5] = {0xe3, 0x77, 0xc2}, [C_SERIES + 6] = {0xbc, 0xbd, 0x22},
	[C_SERIES + 7] = {0x17, 0xbe, 0xcf}, [C_SERIES + 8] = {0x7f, 0x7f, 0x7f},
	[C_SERIES + 9] = {0x39, 0x3b, 0x79},
};

/* PLplot looks for its fonts here (PLPLOT_LIB overrides); plinit() exits
 * the process when they are missing, so check first. */
#ifndef BC_PLPLOT_DATA_DIR
#define BC_PLPLOT_DATA_DIR "/usr/share/plplot5.15.0"
#endif

static int check_plplot(struct bc_error *err)
{
	const char *menu_a[128], *devs_a[128], **menu = menu_a, **devs = devs_a;
	const char *lib = getenv("PLPLOT_LIB");
	char font[PATH_MAX];
	int n = 128;
	bool svg = false;

	plgDevs(&menu, &devs, &n);
	for (int i = 0; i < n; i++)
		svg |= devs[i] && !strcmp(devs[i], "svg");
	if (!svg)
		return bc_error_set(err, -ENODEV,
				    "PLplot has no svg driver (found %d other drivers); install "
				    "libplplot17, whose drivers/svg.so draws the plots",
				    n);
	snprintf(font, sizeof(font), "%s/plstnd5.fnt", lib && *lib ? lib : BC_PLPLOT_DATA_DIR);
	if (access(font, R_OK))
		return bc_error_set(err, -ENODEV,
				    "PLplot's font file %s is missing (%s); install libplplot-data",
				    font, strerror(errno));
	return 0;
}

int plot_begin(struct plot *p, const char *path, struct bc_error *err)
{
	FILE *f;
	int fd, rc;

	memset(p, 0, sizeof(*p));
	p->fd_check = -1;
	p->path = path;
	if (!path || !*path)
		return bc_error_set(err, -EINVAL, "no file name given for the plot");
	rc = check_plplot(err);
	if (rc)
		return rc;
	if ((size_t)snprintf(p->tmp, sizeof(p->tmp), "%s.tmp-XXXXXX", path) >= sizeof(p->tmp))
		return bc_error_set(err, -ENAMETOOLONG, "plot file name '%.80s...' is too long",
				    path);
	fd = mkstemp(p->tmp);
	if (fd < 0) {
		rc = -errno;
		p->tmp[0] = 0;
		return bc_error_set(err, rc,
				    "cannot write the plot '%s': %s; give a directory that exists "
				    "and that you can write to",
				    path, strerror(-rc));
	}
	fchmod(fd, 0644);
	p->fd_check = dup(fd);
	f = p->fd_check >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		rc = -errno;
		close(fd);
		plot_cancel(p);
		return bc_error_set(err, rc, "cannot write the plot '%s': %s", path,
				    strerror(-rc));
	}
	plgstrm(&p->prev);
	plmkstrm(&p->strm);
	if (p->strm < 0) {
		fclose(f);
		plsstrm(p->prev);
		plot_cancel(p);
		return bc_error_set(err, -EMFILE, "PLplot has no free stream for the plot '%s'",
				    path);
	}
	p->begun = true;
	plsError(&p->errcode, p->errmsg);
	plsdev("svg");
	plsfile(f); /* PLplot owns it now and closes it in plend1() */
	plspage(0, 0, PLOT_W, PLOT_H, 0, 0);
	plscmap0n(PLOT_COLORS);
	for (int i = 0; i < PLOT_COLORS; i++)
		plscol0(i, palette[i][0], palette[i][1], palette[i][2]);
	plinit();
	plfont(1);
	plot_chr(1.0);
	plsxax(9, 0);
	plsyax(9, 0);
	pladv(0);
	return 0;
}

static void end_stream(struct plot *p)
{
	if (!p->begun)
		return;
	plend1();
	plsstrm(p->prev);
	p->begun = false;
}

void plot_cancel(struct plot *p)
{
	end_stream(p);
	if (p->fd_check >= 0)
		close(p->fd_check);
	p->fd_check = -1;
	if (p->tmp[0])
		unlink(p->tmp);
	p->tmp[0] = 0;
}

int plot_finish(struct plot *p, struct bc_error *err)
{
	char tail[32] = "";
	struct stat st;
	int rc = 0;

	end_stream(p);
	if (p->errcode) {
		char *nl;

		while ((nl = strchr(p->errmsg, '\n')))
			*nl = ' ';
		rc = bc_error_set(err, -EIO, "PLplot failed drawing '%s': %s", p->path,
				  p->errmsg);
	} else if (fstat(p->fd_check, &st) || st.st_size < (off_t)sizeof(tail) ||
		   pread(p->fd_check, tail, sizeof(tail) - 1, st.st_size - (off_t)sizeof(tail) + 1) <=
			   0 ||
		   !strstr(tail, "</svg>")) {
		rc = bc_error_set(err, -EIO,
				  "the plot '%s' was not written completely (disk full?); "
				  "nothing was kept",
				  p->path);
	} else if (rename(p->tmp, p->path)) {
		rc = -errno;
		bc_error_set(err, rc, "cannot write the plot '%s': %s", p->path, strerror(-rc));
	} else {
		p->tmp[0] = 0;
	}
	plot_cancel(p);
	return rc;
}

/* PLplot's default characters are too large for a 960 pt page */
#define CHR_BASE 0.62

void plot_chr(double rel)
{
	plschr(0, rel * CHR_BASE);
}

void plot_text(char *dst, size_t n, const char *src)
{
	size_t j = 0;

	for (; *src && j + 2 < n; src++) {
		if (*src == '#')
			dst[j++] = '#';
		dst[j++] = *src;
	}
	if (n)
		dst[j < n ? j : n - 1] = 0;
}

void plot_titles(const char *title, const char *sub1, const char *sub2)
{
	plvpor(0, 1, 0, 1);
	plwind(0, 1, 0, 1);
	plcol0(C_FG);
	plot_chr(1.25);
	plptex(0.5, 0.945, 1, 0, 0.5, title);
	plot_chr(0.9);
	plcol0(C_SUB);
	if (sub1 && *sub1)
		plptex(0.5, 0.905, 1, 0, 0.5, sub1);
	if (sub2 && *sub2)
		plptex(0.5, 0.872, 1, 0, 0.5, sub2);
	plot_chr(1.0);
}

void plot_area(double x0, double x1, double y0, double y1, double xmin, double xmax, double ymin,
	       double ymax, const char *xopt, const char *yopt, const char *xlabel,
	       const char *ylabel)
{
	plot_area_ticks(x0, x1, y0, y1, xmin, xmax, ymin, ymax, xopt, 0, yopt, 0, xlabel, ylabel);
}

void plot_area_ticks(double x0, double x1, double y0, double y1, double xmin, double xmax,
		     double ymin, double ymax, const char *xopt, double xtick, const char *yopt,
		     double ytick, const char *xlabel, const char *ylabel)
{
	char xg[8], yg[8];

	plvpor(x0, x1, y0, y1);
	plwind(xmin, xmax, ymin, ymax);
	plot_chr(0.85);
	plcol0(C_GRID);
	plwidth(0.5);
	snprintf(xg, sizeof(xg), "g%s", strchr(xopt, 'l') ? "l" : "");
	snprintf(yg, sizeof(yg), "g%s", strchr(yopt, 'l') ? "l" : "");
	plbox(xg, xtick, 0, yg, ytick, 0);
	plwidth(1);
	plcol0(C_FG);
	plbox(xopt, xtick, 0, yopt, ytick, 0);
	plot_chr(0.95);
	if (xlabel)
		plmtex("b", 3.0, 0.5, 0.5, xlabel);
	if (ylabel)
		plmtex("l", 5.4, 0.5, 0.5, ylabel);
	plot_chr(1.0);
}

double plot_nice_max(double v)
{
	static const double steps[] = {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10};
	double e;

	if (!(v > 0) || !isfinite(v))
		return 1;
	e = pow(10, floor(log10(v)));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i] * e >= v * (1 - 1e-12))
			return steps[i] * e;
	return 10 * e;
}

void plot_legend(size_t n, const char *const *text, const int *colors, const int *kinds)
{
	PLINT opt[16], tcol[16], bcol[16], bpat[16], lcol[16], lsty[16], scol[16], snum[16];
	PLFLT bscale[16], bwidth[16], lwidth[16], sscale[16];
	const char *sym[16];
	PLFLT w, h;

	if (n > 16)
		n = 16;
	for (size_t i = 0; i < n; i++) {
		opt[i] = (kinds[i] & LEG_BOX ? PL_LEGEND_COLOR_BOX : 0) |
			 (kinds[i] & (LEG_LINE | LEG_DASH) ? PL_LEGEND_LINE : 0) |
			 (kinds[i] & LEG_DOT ? PL_LEGEND_SYMBOL : 0);
		tcol[i] = C_FG;
		bcol[i] = lcol[i] = scol[i] = colors[i];
		bpat[i] = 0;
		bscale[i] = 0.9;
		bwidth[i] = 1;
		lsty[i] = kinds[i] & LEG_DASH ? 2 : 1;
		lwidth[i] = 2;
		sscale[i] = 0.8 * CHR_BASE;
		snum[i] = 1;
		sym[i] = "#[0x25cf]"; /* a filled circle (Unicode BLACK CIRCLE) */
	}
	plot_chr(0.85);
	pllegend(&w, &h, PL_LEGEND_BACKGROUND, PL_POSITION_RIGHT | PL_POSITION_OUTSIDE,
		 0.015, 0.0, 0.06, C_BG, C_FG, 1, 0, 0, (PLINT)n, opt, 0.8, 0.85 * CHR_BASE, 2.0,
		 0.0, tcol,
		 text, bcol, bpat, bscale, bwidth, lcol, lsty, lwidth, scol, sscale, snum, sym);
	plot_chr(1.0);
}

void plot_rect(double x0, double y0, double x1, double y1, int color)
{
	PLFLT x[4] = {x0, x1, x1, x0}, y[4] = {y0, y0, y1, y1};

	plcol0(color);
	plfill(4, x, y);
}

void plot_dot(double x, double y, double r_pt, int color)
{
	PLFLT wx0, wx1, wy0, wy1, vx0, vx1, vy0, vy1, px[12], py[12];
	double rx, ry;

	plgvpw(&wx0, &wx1, &wy0, &wy1);
	plgvpd(&vx0, &vx1, &vy0, &vy1);
	rx = r_pt * (wx1 - wx0) / ((vx1 - vx0) * PLOT_W);
	ry = r_pt * (wy1 - wy0) / ((vy1 - vy0) * PLOT_H);
	for (int i = 0; i < 12; i++) {
		px[i] = x + rx * cos(i * M_PI / 6);
		py[i] = y + ry * sin(i * M_PI / 6);
	}
	plcol0(color);
	plfill(12, px, py);
}

void plot_line(size_t n, const double *x, const double *y, int color, double width, int style)
{
	plcol0(color);
	plwidth(width);
	pllsty(style);
	plline((PLINT)n, x, y);
	pllsty(1);
	plwidth(1);
}

/* ---- JSON readers ---- */

static const char *found(struct json_object *v, char *buf, size_t n)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return json_object_get_boolean(v) ? "true" : "false";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		snprintf(buf, n, "the string \"%.40s\"", json_object_get_string(v));
		return buf;
	case json_type_int:
	case json_type_double:
		snprintf(buf, n, "%.10g", json_object_get_double(v));
		return buf;
	}
	return "something else";
}

static void member_name(char *buf, size_t n, const char *where, const char *key)
{
	if (where && *where)
		snprintf(buf, n, "%s.%s", where, key);
	else
		snprintf(buf, n, "%s", key);
}

/* The member @key of @o, or NULL when absent or null. */
static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

static int missing(const char *where, const char *key, const char *want, struct bc_error *err)
{
	char name[160];

	member_name(name, sizeof(name), where, key);
	return bc_error_set(err, -EINVAL, "%s: expected %s, found nothing (missing or null)",
			    name, want);
}

static int wrong(const char *where, const char *key, const char *want, struct json_object *v,
		 struct bc_error *err)
{
	char name[160], buf[80];

	member_name(name, sizeof(name), where, key);
	return bc_error_set(err, -EINVAL, "%s: expected %s, found %s", name, want,
			    found(v, buf, sizeof(buf)));
}

int pj_is_obj(struct json_object *o, const char *what, struct bc_error *err)
{
	char buf[80];

	if (json_object_is_type(o, json_type_object))
		return 0;
	return bc_error_set(err, -EINVAL, "%s: expected a JSON object, found %s", what,
			    o ? found(o, buf, sizeof(buf)) : "nothing");
}

int pj_obj(struct json_object *o, const char *where, const char *key, bool required,
	   struct json_object **out, struct bc_error *err)
{
	struct json_object *v = member(o, key);

	if (!v)
		return required ? missing(where, key, "an object", err) : 0;
	if (!json_object_is_type(v, json_type_object))
		return wrong(where, key, "an object", v, err);
	*out = v;
	return 0;
}

int pj_arr(struct json_object *o, const char *where, const char *key, bool required,
	   size_t min, size_t max, struct json_object **out, struct bc_error *err)
{
	struct json_object *v = member(o, key);
	char want[64], name[160];
	size_t n;

	snprintf(want, sizeof(want), "an array of %zu to %zu elements", min, max);
	if (!v)
		return required ? missing(where, key, want, err) : 0;
	if (!json_object_is_type(v, json_type_array))
		return wrong(where, key, want, v, err);
	n = json_object_array_length(v);
	if (n < min || n > max) {
		member_name(name, sizeof(name), where, key);
		return bc_error_set(err, -EINVAL, "%s: expected %s, found %zu", name, want, n);
	}
	*out = v;
	return 0;
}

int pj_str(struct json_object *o, const char *where, const char *key, bool required,
	   const char **out, struct bc_error *err)
{
	struct json_object *v = member(o, key);

	if (!v)
		return required ? missing(where, key, "a string", err) : 0;
	if (!json_object_is_type(v, json_type_string))
		return wrong(where, key, "a string", v, err);
	*out = json_object_get_string(v);
	return 0;
}

static bool is_number(struct json_object *v)
{
	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
}

static int check_num(struct json_object *v, const char *where, const char *key, double lo,
		     double hi, double *out, struct bc_error *err)
{
	char want[96];
	double d;

	snprintf(want, sizeof(want), "a number in [%.10g, %.10g]", lo, hi);
	if (!is_number(v))
		return wrong(where, key, want, v, err);
	d = json_object_get_double(v);
	if (!isfinite(d) || d < lo || d > hi)
		return wrong(where, key, want, v, err);
	*out = d;
	return 0;
}

int pj_num(struct json_object *o, const char *where, const char *key, bool required, double lo,
	   double hi, double *out, bool *present, struct bc_error *err)
{
	struct json_object *v = member(o, key);

	if (present)
		*present = false;
	if (!v)
		return required ? missing(where, key, "a number", err) : 0;
	if (present)
		*present = true;
	return check_num(v, where, key, lo, hi, out, err);
}

int pj_num_at(struct json_object *arr, const char *where, size_t i, double lo, double hi,
	      double *out, struct bc_error *err)
{
	struct json_object *v = json_object_array_get_idx(arr, i);
	char want[96], buf[80];
	double d = 0;

	snprintf(want, sizeof(want), "a number in [%.10g, %.10g]", lo, hi);
	if (v && is_number(v))
		d = json_object_get_double(v);
	if (!v || !is_number(v) || !isfinite(d) || d < lo || d > hi)
		return bc_error_set(err, -EINVAL, "%s[%zu]: expected %s, found %s", where, i, want,
				    v ? found(v, buf, sizeof(buf)) : "null");
	*out = d;
	return 0;
}

int pj_i64(struct json_object *o, const char *where, const char *key, bool required, int64_t lo,
	   int64_t hi, int64_t *out, bool *present, struct bc_error *err)
{
	struct json_object *v = member(o, key);
	char want[96];
	int64_t x;

	if (present)
		*present = false;
	snprintf(want, sizeof(want), "an integer in [%lld, %lld]", (long long)lo, (long long)hi);
	if (!v)
		return required ? missing(where, key, want, err) : 0;
	if (present)
		*present = true;
	if (!json_object_is_type(v, json_type_int))
		return wrong(where, key, want, v, err);
	errno = 0;
	x = json_object_get_int64(v);
	if (errno || x < lo || x > hi)
		return wrong(where, key, want, v, err);
	*out = x;
	return 0;
}
