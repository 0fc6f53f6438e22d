/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the plot renderers (bondcheck/plot.h): one PLplot stream per
 * plot writing a temporary file that is renamed when complete, the palette
 * and page layout, and JSON readers that name the member they reject.
 */
#ifndef BC_REPORT_PLOT_INT_H
#define BC_REPORT_PLOT_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>
#include <plplot.h>

#include "bondcheck/error.h"

/* cmap0 indices (plot.c sets the colours) */
enum {
	C_BG = 0,     /* white page */
	C_FG = 1,     /* axes, labels, titles */
	C_GRID = 2,   /* grid lines */
	C_MUTED = 3,  /* "not measured", diagonal cells */
	C_SUB = 4,    /* subtitles, notes */
	C_LOSS = 5,   /* losses, events */
	C_BAND = 6,   /* confidence bands */
	C_FAIL = 7,   /* a measurement that failed (no answer) */
	C_SERIES = 8, /* first of PLOT_N_SERIES series colours */
};
#define PLOT_N_SERIES 10
#define PLOT_COLORS   (C_SERIES + PLOT_N_SERIES)

/* Page in points and the plot area of a single-panel plot (page fractions). */
#define PLOT_W 960
#define PLOT_H 560

struct plot {
	const char *path;
	char tmp[PATH_MAX];
	int fd_check; /* our own descriptor of the file PLplot writes and closes */
	PLINT strm, prev;
	PLINT errcode;
	char errmsg[1024]; /* PLplot's plabort() writes here instead of stderr */
	bool begun;
};

/* Start a plot writing @path (through a temporary file); 0 or -errno. */
int plot_begin(struct plot *p, const char *path, struct bc_error *err);
/* End the stream, check the file is complete, rename it to its path. */
int plot_finish(struct plot *p, struct bc_error *err);
/* End the stream (if any) and remove the temporary file. */
void plot_cancel(struct plot *p);

/* Character height relative to the plots' base size (1.0: axis labels). */
void plot_chr(double rel);

/* PLplot text: '#' starts an escape sequence; double it. */
void plot_text(char *dst, size_t n, const char *src);

/* Title (large) and up to two subtitle lines at the top of the page. */
void plot_titles(const char *title, const char *sub1, const char *sub2);

/*
 * A plot area at page fractions [x0, x1] x [y0, y1] with world window
 * [xmin, xmax] x [ymin, ymax]: grid, then the box with the PLplot plbox
 * options @xopt/@yopt ("bcnst", "bcnstv"; 'l' log axes get a log grid),
 * axis labels (NULL: none).
 */
void plot_area(double x0, double x1, double y0, double y1, double xmin, double xmax, double ymin,
	       double ymax, const char *xopt, const char *yopt, const char *xlabel,
	       const char *ylabel);
/* The same with tick intervals (0: PLplot chooses). */
void plot_area_ticks(double x0, double x1, double y0, double y1, double xmin, double xmax,
		     double ymin, double ymax, const char *xopt, double xtick, const char *yopt,
		     double ytick, const char *xlabel, const char *ylabel);

/* A filled dot of radius @r_pt points at world (@x, @y) in the current plot area. */
void plot_dot(double x, double y, double r_pt, int color);

/* A line in world coordinates: colour, width, style (1 solid, 2 dashed). */
void plot_line(size_t n, const double *x, const double *y, int color, double width, int style);

/* A "nice" axis maximum >= @v: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 x 10^k
 * (1 when @v <= 0). */
double plot_nice_max(double v);

/* Legend entry kinds */
enum { LEG_LINE = 1, LEG_BOX = 2, LEG_DOT = 4, LEG_DASH = 8 };

/* Legend of @n entries, outside the plot area on the right, top-aligned. */
void plot_legend(size_t n, const char *const *text, const int *colors, const int *kinds);

/* An axis-aligned filled rectangle in world coordinates, colour @color. */
void plot_rect(double x0, double y0, double x1, double y1, int color);

/* Series colour of the i-th series. */
static inline int plot_series(size_t i)
{
	return C_SERIES + (int)(i % PLOT_N_SERIES);
}

/* Mbit/s from bits/s. */
static inline double plot_mbps(double bps)
{
	return bps / 1e6;
}

/*
 * JSON readers.  @where names the enclosing member ("configs[2]"), "" at
 * the top.  A member that is absent or null is "missing": an error when
 * @required, else *out is left as it was and *present (when given) false.
 * Numbers are json ints or doubles (not strings, not booleans), finite,
 * inside [lo, hi].
 */
int pj_obj(struct json_object *o, const char *where, const char *key, bool required,
	   struct json_object **out, struct bc_error *err);
int pj_arr(struct json_object *o, const char *where, const char *key, bool required,
	   size_t min, size_t max, struct json_object **out, struct bc_error *err);
int pj_str(struct json_object *o, const char *where, const char *key, bool required,
	   const char **out, struct bc_error *err);
int pj_num(struct json_object *o, const char *where, const char *key, bool required, double lo,
	   double hi, double *out, bool *present, struct bc_error *err);
int pj_i64(struct json_object *o, const char *where, const char *key, bool required, int64_t lo,
	   int64_t hi, int64_t *out, bool *present, struct bc_error *err);
/* An array element that must be a number in [lo, hi]. */
int pj_num_at(struct json_object *arr, const char *where, size_t i, double lo, double hi,
	      double *out, struct bc_error *err);
/* The object itself must be a JSON object: -EINVAL naming @what otherwise. */
int pj_is_obj(struct json_object *o, const char *what, struct bc_error *err);

#endif
