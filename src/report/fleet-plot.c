// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck fleet --plot DIR`: the host x finding table that
 * bc_plot_fleet_findings() (plot-fleet.c) draws, built from the analysed
 * fleet (fleet-report.h bc_fleet_plot_doc()).
 */
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "bondcheck/fleet-report.h"
#include "bondcheck/plot.h"

#define MAX_ROWS BC_PLOT_FLEET_MAX_HOSTS
#define MAX_COLS BC_PLOT_FLEET_MAX_FINDINGS

struct column {
	char label[64];
	int sev;      /* 0 info, 1 warning, 2 error */
	size_t hosts; /* rows with a count */
	bool fleet;   /* a fleet finding (kept first, in the fleet's order) */
	size_t at;    /* its index in the table's counts */
};

struct row {
	const char *host;
	size_t index; /* position in name order */
	int worst;    /* worst severity of its findings, -1 none */
	unsigned total;
};

struct table {
	struct row *row;
	size_t n_rows;
	struct column *col;
	size_t n_cols, cap_cols;
	unsigned *count; /* n_rows x cap_cols, grown with the columns */
};

static int by_host(const void *a, const void *b)
{
	return strcmp(((const struct row *)a)->host, ((const struct row *)b)->host);
}

static struct row *find_row(const struct table *t, const char *host)
{
	struct row key = {.host = host};

	return bsearch(&key, t->row, t->n_rows, sizeof(key), by_host);
}

static int sev_of(const char *word)
{
	return !strcmp(word, "error") ? 2 : !strcmp(word, "warning") ? 1 : 0;
}

/* The column of @label (created with severity @sev), or -1 on ENOMEM. */
static long column(struct table *t, const char *label, int sev, bool fleet)
{
	for (size_t c = 0; c < t->n_cols; c++)
		if (!strcmp(t->col[c].label, label) && t->col[c].fleet == fleet) {
			if (sev > t->col[c].sev)
				t->col[c].sev = sev;
			return (long)c;
		}
	if (t->n_cols == t->cap_cols) {
		size_t cap = t->cap_cols ? 2 * t->cap_cols : 16;
		struct column *col = realloc(t->col, cap * sizeof(*col));
		unsigned *count;

		if (!col)
			return -1;
		t->col = col;
		count = calloc(t->n_rows ? t->n_rows * cap : 1, sizeof(*count));
		if (!count)
			return -1;
		for (size_t r = 0; t->count && r < t->n_rows; r++)
			memcpy(count + r * cap, t->count + r * t->cap_cols,
			       t->cap_cols * sizeof(*count));
		free(t->count);
		t->count = count;
		t->cap_cols = cap;
	}
	memset(&t->col[t->n_cols], 0, sizeof(t->col[0]));
	snprintf(t->col[t->n_cols].label, sizeof(t->col[0].label), "%s", label);
	t->col[t->n_cols].sev = sev;
	t->col[t->n_cols].fleet = fleet;
	t->col[t->n_cols].at = t->n_cols;
	return (long)t->n_cols++;
}

static void add(struct table *t, struct row *r, size_t c, int sev)
{
	unsigned *n = &t->count[(size_t)(r - t->row) * t->cap_cols + c];

	t->col[c].hosts += !*n;
	(*n)++;
	r->total++;
	if (sev > r->worst)
		r->worst = sev;
}

static int build(struct table *t, const struct bc_fleet *f)
{
	size_t n = f->n_hosts;

	/* rows: the hosts read or failed, and those --expect named that never answered */
	for (size_t i = 0; i < f->n_findings; i++)
		if (f->finding[i].kind == BC_FLEET_HOST_MISSING)
			n += f->finding[i].n_hosts;
	t->row = calloc(n ? n : 1, sizeof(*t->row));
	if (!t->row)
		return -1;
	for (size_t i = 0; i < f->n_hosts; i++)
		t->row[t->n_rows++].host = f->host[i].host;
	for (size_t i = 0; i < f->n_findings; i++)
		for (size_t k = 0;
		     f->finding[i].kind == BC_FLEET_HOST_MISSING && k < f->finding[i].n_hosts; k++)
			t->row[t->n_rows++].host = f->finding[i].hosts[k];
	qsort(t->row, t->n_rows, sizeof(*t->row), by_host);
	for (size_t r = 0; r < t->n_rows; r++) {
		t->row[r].index = r;
		t->row[r].worst = -1;
	}
	for (size_t i = 0; i < f->n_findings; i++) {
		const struct bc_fleet_finding *x = &f->finding[i];
		const char *sev = "";
		const char *id = bc_fleet_kind_id(x->kind, &sev);
		const char *attr = bc_fleet_attr_name(x->attr);
		char label[64];
		long c;

		snprintf(label, sizeof(label), "%s%s%s", id, attr ? " " : "", attr ? attr : "");
		c = column(t, label, sev_of(sev), true);
		if (c < 0)
			return -1;
		for (size_t k = 0; k < x->n_hosts; k++) {
			struct row *r = find_row(t, x->hosts[k]);

			if (r)
				add(t, r, (size_t)c, sev_of(sev));
		}
	}
	for (size_t i = 0; i < f->n_hosts; i++) {
		struct row *r = find_row(t, f->host[i].host);

		for (size_t b = 0; r && !f->host[i].failed && b < f->host[i].n_bonds; b++)
			for (size_t k = 0; k < f->host[i].bonds[b].n_findings; k++) {
				const struct bc_fleet_inspect_finding *x =
					&f->host[i].bonds[b].findings[k];
				long c = column(t, x->id, x->severity, false);

				if (c < 0)
					return -1;
				add(t, r, (size_t)c, x->severity);
			}
	}
	return 0;
}

/* Inspect's columns: by severity, then hosts concerned, then name. */
static int col_order(const void *a, const void *b)
{
	const struct column *x = a, *y = b;

	if (x->sev != y->sev)
		return y->sev - x->sev;
	if (x->hosts != y->hosts)
		return x->hosts > y->hosts ? -1 : 1;
	return strcmp(x->label, y->label);
}

/* The rows worth drawing first: worst severity, then most findings, then name. */
static int row_rank(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->worst != y->worst)
		return y->worst - x->worst;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int by_index(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

struct json_object *bc_fleet_plot_doc(const struct bc_fleet *f)
{
	struct table t = {0};
	struct json_object *o = NULL, *hosts, *fs, *counts;
	struct column *sorted = NULL;
	size_t n_rows, n_cols, n_findings = 0, n_fleet = 0;
	char note[160] = "";

	if (build(&t, f))
		goto out;
	/* the fleet's columns were made first, in its order; inspect's are sorted
	 * after them; each keeps its counts through .at */
	sorted = malloc((t.n_cols ? t.n_cols : 1) * sizeof(*sorted));
	if (!sorted)
		goto out;
	if (t.n_cols)
		memcpy(sorted, t.col, t.n_cols * sizeof(*sorted));
	while (n_fleet < t.n_cols && sorted[n_fleet].fleet)
		n_fleet++;
	qsort(sorted + n_fleet, t.n_cols - n_fleet, sizeof(*sorted), col_order);
	n_cols = t.n_cols < MAX_COLS ? t.n_cols : MAX_COLS;
	/* rows: all when they fit; else those with findings, the worst first */
	n_rows = t.n_rows;
	if (n_rows > MAX_ROWS) {
		for (size_t r = 0; r < t.n_rows; r++)
			n_findings += t.row[r].total > 0;
		qsort(t.row, t.n_rows, sizeof(*t.row), row_rank);
		n_rows = MAX_ROWS;
		snprintf(note, sizeof(note),
			 "%zu of %zu hosts drawn: %s (the text report lists every one)", n_rows,
			 t.n_rows,
			 n_findings > MAX_ROWS ? "those with the most severe findings"
					       : "every host with a finding, then others");
		/* each row's counts stay at its .index */
	}
	if (t.n_cols > MAX_COLS) {
		size_t used = strlen(note);

		snprintf(note + used, sizeof(note) - used, "%s%zu of %zu findings drawn",
			 used ? "; " : "", n_cols, t.n_cols);
	}
	o = json_object_new_object();
	hosts = json_object_new_array();
	fs = json_object_new_array();
	counts = json_object_new_array();
	json_object_object_add(o, "hosts", hosts);
	json_object_object_add(o, "findings", fs);
	json_object_object_add(o, "counts", counts);
	if (note[0])
		json_object_object_add(o, "note", json_object_new_string(note));
	for (size_t c = 0; c < n_cols; c++) {
		struct json_object *x = json_object_new_object();
		static const char *const words[3] = {"info", "warning", "error"};

		json_object_object_add(x, "label", json_object_new_string(sorted[c].label));
		json_object_object_add(x, "severity", json_object_new_string(words[sorted[c].sev]));
		json_object_array_add(fs, x);
	}
	/* the rows drawn, in name order */
	qsort(t.row, n_rows, sizeof(*t.row), by_index);
	for (size_t r = 0; r < n_rows; r++) {
		struct json_object *row = json_object_new_array();
		const unsigned *n = n_cols ? t.count + t.row[r].index * t.cap_cols : NULL;

		json_object_array_add(hosts, json_object_new_string(t.row[r].host));
		for (size_t c = 0; c < n_cols; c++)
			json_object_array_add(row, json_object_new_int64(n[sorted[c].at]));
		json_object_array_add(counts, row);
	}
out:
	free(sorted);
	free(t.row);
	free(t.col);
	free(t.count);
	return o;
}
