// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The writers of the matrix analysis's output JSON (matrix-int.h): members,
 * findings, the grids of doc.matrix.  No reasoning here, and no reading.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/findings.h"
#include "bondcheck/names.h"

#include "matrix-int.h"

void bc_matrix_add_i64(struct json_object *o, const char *k, long long v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

void bc_matrix_add_dbl(struct json_object *o, const char *k, double v)
{
	json_object_object_add(o, k, json_object_new_double(v));
}

void bc_matrix_add_str(struct json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, json_object_new_string(v));
}

void bc_matrix_findings_init(struct bc_matrix_findings *f)
{
	for (int i = 0; i < 3; i++)
		f->lists[i] = json_object_new_array();
}

struct bc_matrix_fnd bc_matrix_finding(struct bc_matrix_findings *f, const char *id,
				       const char *subject, const char *fmt, ...)
{
	const struct bc_finding_def *d = bc_findings_lookup(id);
	struct bc_matrix_fnd r = {json_object_new_object(), json_object_new_object()};
	char buf[768];
	va_list ap;
	int sev = d ? (int)d->severity : BC_SEV_ERROR;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	bc_matrix_add_str(r.o, "id", id);
	bc_matrix_add_str(r.o, "severity", bc_severity_name(sev));
	bc_matrix_add_str(r.o, "subject", subject);
	json_object_object_add(r.o, "evidence", r.evidence);
	bc_matrix_add_str(r.o, "advice", buf);
	json_object_array_add(f->lists[sev], r.o);
	return r;
}

void bc_matrix_ev(struct bc_matrix_fnd f, const char *k, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	bc_matrix_add_str(f.evidence, k, buf);
}

struct json_object *bc_matrix_findings_json(struct bc_matrix_findings *f)
{
	struct json_object *all = json_object_new_array();

	for (int i = 2; i >= 0; i--) {
		for (size_t k = 0; k < json_object_array_length(f->lists[i]); k++)
			json_object_array_add(
				all, json_object_get(json_object_array_get_idx(f->lists[i], k)));
		json_object_put(f->lists[i]);
		f->lists[i] = NULL;
	}
	return all;
}

/* The grids of doc.matrix: one pair value each. */
enum cell {
	CELL_GOODPUT,
	CELL_CEILING,
	CELL_EFFICIENCY,
	CELL_PMTU_LARGEST, /* pmtu.largest_carried, when the probes ran */
};

/* Pair @k's value in grid @c, or NULL when the cell stays null. */
static struct json_object *cell(const struct bc_matrix_doc *d, size_t k, const long long *largest,
				enum cell c)
{
	const struct bc_matrix_pair_doc *p = &d->pairs[k];

	switch (c) {
	case CELL_GOODPUT:
		return json_object_new_double(p->goodput_bps);
	case CELL_CEILING:
		return json_object_new_double(p->ceiling_bps);
	case CELL_EFFICIENCY:
		return isnan(p->efficiency) ? NULL : json_object_new_double(p->efficiency);
	case CELL_PMTU_LARGEST:
		return p->pmtu_obj ? json_object_new_int64(largest[k]) : NULL;
	}
	return NULL;
}

/* Matrix arrays (row = sender) of one pair value; null where no value. */
static struct json_object *grid(const struct bc_matrix_doc *d, const long long *largest,
				enum cell c)
{
	struct json_object *rows = json_object_new_array();
	size_t n = d->n_hosts;

	for (size_t i = 0; i < n; i++) {
		struct json_object *row = json_object_new_array();

		for (size_t j = 0; j < n; j++)
			json_object_array_add(row, NULL);
		json_object_array_add(rows, row);
	}
	for (size_t k = 0; k < d->n_pairs; k++) {
		const struct bc_matrix_pair_doc *p = &d->pairs[k];
		long long f = p->from_index, t = p->to_index;
		struct json_object *v;

		if (!bc_matrix_pair_complete(p) || f < 0 || t < 0 || (size_t)f >= n ||
		    (size_t)t >= n)
			continue;
		v = cell(d, k, largest, c);
		if (v)
			json_object_array_put_idx(json_object_array_get_idx(rows, (size_t)f),
						  (size_t)t, v);
	}
	return rows;
}

struct json_object *bc_matrix_grids_json(const struct bc_matrix_doc *d, const long long *largest)
{
	struct json_object *m = json_object_new_object(), *names = json_object_new_array();

	for (size_t h = 0; h < d->n_hosts; h++)
		json_object_array_add(names, json_object_new_string(d->hosts[h].name));
	json_object_object_add(m, "hosts", names);
	json_object_object_add(m, "goodput_bps", grid(d, largest, CELL_GOODPUT));
	json_object_object_add(m, "ceiling_bps", grid(d, largest, CELL_CEILING));
	json_object_object_add(m, "efficiency", grid(d, largest, CELL_EFFICIENCY));
	json_object_object_add(m, "pmtu_largest", grid(d, largest, CELL_PMTU_LARGEST));
	return m;
}

void bc_matrix_host_summary_json(const struct bc_matrix_host_doc *ho)
{
	if (!ho->obj)
		return;
	bc_matrix_add_str(ho->obj, "interface", ho->interface);
	bc_matrix_add_i64(ho->obj, "mtu", ho->mtu);
	bc_matrix_add_dbl(ho->obj, "link_rate_bps", ho->link_rate_bps);
	bc_matrix_add_str(ho->obj, "rate_source", ho->rate_source);
	bc_matrix_add_dbl(ho->obj, "link_ceiling_bps", ho->link_ceiling_bps);
	if (isnan(ho->ingress_ceiling_bps))
		json_object_object_add(ho->obj, "ingress_ceiling_bps", NULL);
	else
		bc_matrix_add_dbl(ho->obj, "ingress_ceiling_bps", ho->ingress_ceiling_bps);
}

void bc_matrix_verdicts_init(struct bc_matrix_verdicts *vs)
{
	struct bc_matrix_vq *q[3] = {&vs->slow, &vs->loss, &vs->mtu};
	static const char *const names[3] = {"slow_hosts", "loss", "mtu"};

	memset(vs, 0, sizeof(*vs));
	for (size_t i = 0; i < 3; i++) {
		bc_verdict_init(&q[i]->v, names[i]);
		q[i]->v.status = BC_VERDICT_PASS;
		q[i]->rank = -1;
	}
}

bool bc_matrix_verdict_note(struct bc_matrix_vq *q, int rank, enum bc_verdict_status st,
			    const char *mech, const char *host, const char *direction)
{
	struct bc_verdict *v = &q->v;
	char entry[BC_MATRIX_NAME_LEN + 40];
	bool lead = rank > q->rank;

	/* fail over inconclusive over pass */
	if (st == BC_VERDICT_FAIL || (st == BC_VERDICT_INCONCLUSIVE && v->status != BC_VERDICT_FAIL))
		v->status = st;
	snprintf(entry, sizeof(entry), "%s%s%s%s", host, direction[0] ? " (" : "", direction,
		 direction[0] ? ")" : "");
	if (q->n < sizeof(q->hosts) / sizeof(q->hosts[0])) {
		q->hosts[q->n] = strdup(entry);
		if (q->hosts[q->n])
			q->n++;
	}
	if (lead) {
		q->rank = rank;
		snprintf(v->mechanism, sizeof(v->mechanism), "%s", mech);
		snprintf(v->where, sizeof(v->where), "%s", host);
		v->n_evidence = 0;
	}
	return lead;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct json_object *bc_matrix_verdicts_json(struct bc_matrix_verdicts *vs)
{
	struct json_object *o = json_object_new_object();
	struct bc_matrix_vq *q[3] = {&vs->slow, &vs->loss, &vs->mtu};

	for (size_t i = 0; i < 3; i++) {
		struct json_object *vo = json_object_new_object();
		char list[256] = "";
		size_t at = 0;

		qsort(q[i]->hosts, q[i]->n, sizeof(q[i]->hosts[0]), cmp_str);
		for (size_t k = 0; k < q[i]->n; k++) {
			int w = at < sizeof(list) ? snprintf(list + at, sizeof(list) - at, "%s%s",
							     k ? ", " : "", q[i]->hosts[k])
						  : 0;

			at += w > 0 ? (size_t)w : 0;
			free(q[i]->hosts[k]);
			q[i]->hosts[k] = NULL;
		}
		if (q[i]->n)
			bc_verdict_add(&q[i]->v, "hosts", "%s", list);
		q[i]->n = 0;
		bc_verdict_json_data(&q[i]->v, vo);
		json_object_object_add(o, q[i]->v.question, vo);
	}
	return o;
}
