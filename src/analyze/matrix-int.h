/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the matrix analysis: the writers of its output JSON
 * (matrix-write.c), shared by matrix.c and matrix-analyze.c, which reason on
 * the structs of bondcheck/matrix-doc.h.
 */
#ifndef BONDCHECK_MATRIX_INT_H
#define BONDCHECK_MATRIX_INT_H

#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

#include "bondcheck/matrix-doc.h"
#include "bondcheck/verdict.h"

/* An "ok" pair with every member the analysis reads. */
static inline bool bc_matrix_pair_complete(const struct bc_matrix_pair_doc *p)
{
	return p->status == BC_MATRIX_PAIR_OK && !p->n_missing;
}

/* Members of @o: an integer, a double, a string (json_object_object_add, replacing). */
void bc_matrix_add_i64(struct json_object *o, const char *k, long long v);
void bc_matrix_add_dbl(struct json_object *o, const char *k, double v);
void bc_matrix_add_str(struct json_object *o, const char *k, const char *v);

/* The findings being written, by severity (info, warning, error). */
struct bc_matrix_findings {
	struct json_object *lists[3];
};

/* One finding being written: the finding and its evidence object. */
struct bc_matrix_fnd {
	struct json_object *o, *evidence;
};

void bc_matrix_findings_init(struct bc_matrix_findings *f);

/*
 * bc_matrix_finding() - a finding @id (severity from the catalog,
 * analyze/findings.c) about @subject with the advice @fmt, appended to @f.
 */
struct bc_matrix_fnd bc_matrix_finding(struct bc_matrix_findings *f, const char *id,
				       const char *subject, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* bc_matrix_ev() - evidence member @k of finding @f, as text. */
void bc_matrix_ev(struct bc_matrix_fnd f, const char *k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * bc_matrix_findings_json() - the findings of @f as one array, errors first,
 * then warnings, then info, each in the order written; empties @f.
 */
struct json_object *bc_matrix_findings_json(struct bc_matrix_findings *f);

/*
 * bc_matrix_grids_json() - doc.matrix: the host names and the grids (row =
 * sender) of goodput_bps, ceiling_bps, efficiency and pmtu_largest
 * (@largest[k], pair k's largest DF probe carried), from the complete pairs
 * of @d; null on the diagonal and where a pair has no value.
 */
struct json_object *bc_matrix_grids_json(const struct bc_matrix_doc *d, const long long *largest);

/*
 * The matrix's verdicts as data (bondcheck/verdict.h), filled by the
 * findings of matrix-analyze.c: questions "slow_hosts", "loss", "mtu".
 * Written into doc.verdicts by bc_verdict_json_data(); the words are
 * rendered from them by src/report/matrix-verdict.c.
 */
/* One verdict being filled: the rank of its leading mechanism (-1 none) and the hosts named. */
struct bc_matrix_vq {
	struct bc_verdict v;
	int rank;
	size_t n;
	char *hosts[128]; /* "name (direction)", malloc'd; freed by bc_matrix_verdicts_json() */
};

struct bc_matrix_verdicts {
	struct bc_matrix_vq slow, loss, mtu;
};

/* bc_matrix_verdicts_init() - the three questions, each "pass" until a finding says otherwise. */
void bc_matrix_verdicts_init(struct bc_matrix_verdicts *vs);

/*
 * bc_matrix_verdict_note() - host @host named by a finding whose mechanism
 * is @mech (its rank @rank: the verdict keeps the highest-ranked mechanism
 * and its evidence, the first host of that rank), in @direction ("" none),
 * with status @st (the worse of the verdict's and @st is kept: fail over
 * inconclusive over pass).  Returns true when this host now leads the
 * verdict (the caller then adds its evidence with bc_verdict_add()); every
 * host is listed, sorted, in evidence "hosts" by bc_matrix_verdicts_json().
 */
bool bc_matrix_verdict_note(struct bc_matrix_vq *q, int rank, enum bc_verdict_status st,
			    const char *mech, const char *host, const char *direction);

/*
 * bc_matrix_verdicts_json() - doc.verdicts {slow_hosts, loss, mtu}: each
 * verdict's structure (bc_verdict_json_data()), with "hosts" sorted; frees
 * the host lists.
 */
struct json_object *bc_matrix_verdicts_json(struct bc_matrix_verdicts *vs);

/* bc_matrix_host_summary_json() - writes @ho's summary (interface, mtu, link) into its host object.
 */
void bc_matrix_host_summary_json(const struct bc_matrix_host_doc *ho);

#endif
