// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readers of the scale analysis (bondcheck/scale-doc.h, issue 14 item
 * 1): the scale document and the part of a `run --capture` result that a
 * scaling cause reads, each decoded once with bondcheck/doc-read.h into
 * typed structs.  The only place in the scale analysis that looks JSON
 * members up by key.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/scale-doc.h"
#include "bondcheck/scale-stats.h"

/*
 * Static helper: the strings of array @a (path @path) into @out (at most
 * @max of @len bytes each); an element that is not a string is a problem
 * when @need is BC_DOC_REQUIRED, and is left out.  Returns the count kept.
 */
static size_t str_array(struct bc_doc_read *r, struct json_object *a, size_t n, const char *path,
			enum bc_doc_need need, char (*out)[BC_SCALE_NAME_LEN], size_t max)
{
	size_t k = 0;
	char p[BC_DOC_PROBLEM_LEN];

	for (size_t i = 0; i < n && k < max; i++) {
		struct json_object *v = json_object_array_get_idx(a, i);

		if (!json_object_is_type(v, json_type_string) ||
		    strlen(json_object_get_string(v)) >= BC_SCALE_NAME_LEN) {
			if (need == BC_DOC_REQUIRED)
				bc_doc_problem(r, bc_doc_path(p, sizeof(p), path, NULL, i), NULL,
					       "expected a name");
			continue;
		}
		snprintf(out[k++], BC_SCALE_NAME_LEN, "%s", json_object_get_string(v));
	}
	return k;
}

/*
 * Static helper: a finding's evidence value, which findings write as
 * strings (a number is taken in its JSON spelling); "" when absent.
 */
static void ev_text(struct bc_doc_read *r, struct json_object *ev, const char *path,
		    const char *key, char *out, size_t len)
{
	struct json_object *v = bc_doc_member(r, ev, path, key, BC_DOC_OPTIONAL);

	out[0] = '\0';
	if (v && (json_object_is_type(v, json_type_int) ||
		  json_object_is_type(v, json_type_double))) {
		snprintf(out, len, "%s", json_object_get_string(v));
		return;
	}
	bc_doc_str(r, ev, path, key, BC_DOC_OPTIONAL, out, len);
}

static void read_run(struct json_object *o, const char *path, size_t i, bool tcp,
		     struct bc_scale_run_in *run, struct bc_doc_read *r)
{
	char p[BC_DOC_PROBLEM_LEN];

	bc_doc_path(p, sizeof(p), path, NULL, i);
	run->rep = (int64_t)i + 1;
	run->goodput_bps = NAN;
	run->retransmits = NAN;
	bc_doc_i64(r, o, p, "rep", BC_DOC_OPTIONAL, &run->rep);
	bc_doc_dbl(r, o, p, "goodput_bps", BC_DOC_REQUIRED, &run->goodput_bps);
	if (tcp)
		bc_doc_dbl(r, o, p, "retransmits", BC_DOC_OPTIONAL, &run->retransmits);
}

static int read_config(struct json_object *o, size_t i, struct bc_scale_config_in *c)
{
	struct bc_doc_read *r = &c->rd;
	struct json_object *a;
	char p[BC_DOC_PROBLEM_LEN], rp[BC_DOC_PROBLEM_LEN];
	size_t n;

	bc_doc_read_init(r);
	bc_doc_path(p, sizeof(p), "configs", NULL, i);
	c->node = o;
	c->n = -1;
	c->ceiling_bps = NAN;
	if (!json_object_is_type(o, json_type_object))
		bc_doc_problem(r, p, NULL, "expected an object");
	if (bc_doc_str(r, o, p, "protocol", BC_DOC_REQUIRED, c->protocol, sizeof(c->protocol)) &&
	    strcmp(c->protocol, "tcp") && strcmp(c->protocol, "udp")) {
		bc_doc_problem(r, p, "protocol", "expected tcp or udp");
		c->protocol[0] = '\0';
	}
	if (bc_doc_i64(r, o, p, "n", BC_DOC_REQUIRED, &c->n) && c->n < 1) {
		bc_doc_problem(r, p, "n", "expected a link count >= 1");
		c->n = -1;
	}
	a = bc_doc_array(r, o, p, "slaves", BC_DOC_REQUIRED, &n);
	c->n_slaves = str_array(r, a, n, bc_doc_path(rp, sizeof(rp), p, "slaves", 0),
				BC_DOC_REQUIRED, c->slaves, BC_SCALE_MAX_NAMES);
	bc_doc_dbl(r, o, p, "ceiling_bps", BC_DOC_OPTIONAL, &c->ceiling_bps);
	a = bc_doc_array(r, o, p, "runs", BC_DOC_REQUIRED, &n);
	c->n_runs = n;
	if (!n || n > BC_SCALE_MAX_RUNS)
		return 0; /* bc_scale_doc_compare() says how many runs it expects */
	c->runs = calloc(n, sizeof(*c->runs));
	if (!c->runs)
		return -ENOMEM;
	bc_doc_path(rp, sizeof(rp), p, "runs", 0);
	for (size_t k = 0; k < n; k++)
		read_run(json_object_array_get_idx(a, k), rp, k, !strcmp(c->protocol, "tcp"),
			 &c->runs[k], r);
	return 0;
}

static void read_cmp(struct json_object *o, const char *path, size_t i, struct bc_scale_cmp_in *c,
		     struct bc_doc_read *r)
{
	struct json_object *a;
	char p[BC_DOC_PROBLEM_LEN], zp[BC_DOC_PROBLEM_LEN], ap[BC_DOC_PROBLEM_LEN];
	size_t n;

	bc_doc_path(p, sizeof(p), path, NULL, i);
	bc_doc_path(ap, sizeof(ap), p, "zero_runs", 0);
	c->node = o;
	c->from_n = c->to_n = -1;
	c->speedup = c->ci_low = c->ci_high = c->p = NAN;
	bc_doc_str(r, o, p, "protocol", BC_DOC_REQUIRED, c->protocol, sizeof(c->protocol));
	bc_doc_i64(r, o, p, "from_n", BC_DOC_REQUIRED, &c->from_n);
	bc_doc_i64(r, o, p, "to_n", BC_DOC_REQUIRED, &c->to_n);
	bc_doc_str(r, o, p, "verdict", BC_DOC_REQUIRED, c->verdict, sizeof(c->verdict));
	bc_doc_dbl(r, o, p, "speedup", BC_DOC_OPTIONAL, &c->speedup);
	bc_doc_dbl(r, o, p, "ci_low", BC_DOC_OPTIONAL, &c->ci_low);
	bc_doc_dbl(r, o, p, "ci_high", BC_DOC_OPTIONAL, &c->ci_high);
	bc_doc_dbl(r, o, p, "p", BC_DOC_OPTIONAL, &c->p);
	a = bc_doc_array(r, o, p, "added", BC_DOC_OPTIONAL, &n);
	c->n_added = str_array(r, a, n, bc_doc_path(zp, sizeof(zp), p, "added", 0), BC_DOC_OPTIONAL, c->added, BC_SCALE_MAX_NAMES);
	a = bc_doc_array(r, o, p, "zero_runs", BC_DOC_OPTIONAL, &n);
	c->n_zero = n;
	for (size_t k = 0; k < n && k < sizeof(c->zero) / sizeof(c->zero[0]); k++) {
		struct json_object *z = json_object_array_get_idx(a, k);

		bc_doc_path(zp, sizeof(zp), ap, NULL, k);
		c->zero[k].n = c->zero[k].rep = -1;
		bc_doc_i64(r, z, zp, "n", BC_DOC_REQUIRED, &c->zero[k].n);
		bc_doc_i64(r, z, zp, "rep", BC_DOC_REQUIRED, &c->zero[k].rep);
		c->n_zero_listed = k + 1;
	}
	bc_doc_str(r, o, p, "text", BC_DOC_OPTIONAL, c->text, sizeof(c->text));
	bc_doc_str(r, o, p, "invalid_reason", BC_DOC_OPTIONAL, c->invalid_reason,
		   sizeof(c->invalid_reason));
	c->diagnosis = bc_doc_member(r, o, p, "diagnosis", BC_DOC_OPTIONAL);
	c->cause = bc_doc_member(r, o, p, "cause", BC_DOC_OPTIONAL);
	if (c->cause && json_object_is_type(c->cause, json_type_object)) {
		bc_doc_path(zp, sizeof(zp), p, "cause", 0);
		c->have_cause = true;
		bc_doc_str(r, c->cause, zp, "kind", BC_DOC_OPTIONAL, c->cause_kind,
			   sizeof(c->cause_kind));
		bc_doc_str(r, c->cause, zp, "slave", BC_DOC_OPTIONAL, c->cause_slave,
			   sizeof(c->cause_slave));
		bc_doc_str(r, c->cause, zp, "text", BC_DOC_OPTIONAL, c->cause_text,
			   sizeof(c->cause_text));
	}
}

static int read_cmps(struct json_object *doc, const char *key, struct bc_scale_cmp_in **out,
		     size_t *count, struct bc_doc_read *r)
{
	size_t n;
	struct json_object *a = bc_doc_array(r, doc, "", key, BC_DOC_OPTIONAL, &n);

	*count = 0;
	if (!n)
		return 0;
	*out = calloc(n, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	*count = n;
	for (size_t i = 0; i < n; i++)
		read_cmp(json_object_array_get_idx(a, i), key, i, &(*out)[i], r);
	return 0;
}

int bc_scale_doc_read(struct json_object *doc, struct bc_scale_doc_in *out)
{
	struct bc_doc_read *r = &out->rd;
	struct json_object *a, *o;
	size_t n;
	int rc;

	memset(out, 0, sizeof(*out));
	bc_doc_read_init(r);
	out->margin = BC_SCALE_MARGIN;
	out->flows = -1;
	out->slave0_ceiling_bps[0] = out->slave0_ceiling_bps[1] = NAN;
	out->have_margin = bc_doc_dbl(r, doc, "", "margin", BC_DOC_OPTIONAL, &out->margin);
	o = bc_doc_member(r, doc, "", "bond", BC_DOC_OPTIONAL);
	bc_doc_str(r, o, "bond", "name", BC_DOC_OPTIONAL, out->bond_name, sizeof(out->bond_name));
	bc_doc_str(r, doc, "", "method", BC_DOC_OPTIONAL, out->method, sizeof(out->method));
	bc_doc_i64(r, doc, "", "flows", BC_DOC_OPTIONAL, &out->flows);
	a = bc_doc_array(r, doc, "", "slaves", BC_DOC_OPTIONAL, &n);
	if (n) {
		o = json_object_array_get_idx(a, 0);
		bc_doc_dbl(r, o, "slaves[0]", "tcp_ceiling_bps", BC_DOC_OPTIONAL,
			   &out->slave0_ceiling_bps[0]);
		bc_doc_dbl(r, o, "slaves[0]", "udp_ceiling_bps", BC_DOC_OPTIONAL,
			   &out->slave0_ceiling_bps[1]);
	}
	a = bc_doc_array(r, doc, "", "configs", BC_DOC_REQUIRED, &n);
	out->n_configs = n;
	if (n && n <= BC_SCALE_MAX_CONFIGS) {
		out->configs = calloc(n, sizeof(*out->configs));
		if (!out->configs)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++) {
			rc = read_config(json_object_array_get_idx(a, i), i, &out->configs[i]);
			if (rc < 0)
				return rc;
		}
	}
	o = bc_doc_member(r, doc, "", "comparisons", BC_DOC_OPTIONAL);
	out->have_comparisons = o && json_object_is_type(o, json_type_array);
	rc = read_cmps(doc, "comparisons", &out->cmps, &out->n_cmps, r);
	if (!rc)
		rc = read_cmps(doc, "versus_baseline", &out->base, &out->n_base, r);
	if (rc < 0)
		return rc;
	a = bc_doc_array(r, doc, "", "findings", BC_DOC_OPTIONAL, &n);
	if (n) {
		out->findings = calloc(n, sizeof(*out->findings));
		if (!out->findings)
			return -ENOMEM;
		out->n_findings = n;
		for (size_t i = 0; i < n; i++) {
			char p[BC_DOC_PROBLEM_LEN];

			o = json_object_array_get_idx(a, i);
			out->findings[i].node = o;
			bc_doc_str(r, o, bc_doc_path(p, sizeof(p), "findings", NULL, i), "id",
				   BC_DOC_OPTIONAL, out->findings[i].id,
				   sizeof(out->findings[i].id));
		}
	}
	return 0;
}

void bc_scale_doc_in_free(struct bc_scale_doc_in *d)
{
	for (size_t i = 0; d->configs && i < d->n_configs; i++)
		free(d->configs[i].runs);
	free(d->configs);
	free(d->cmps);
	free(d->base);
	free(d->findings);
	memset(d, 0, sizeof(*d));
}

int bc_scale_run_result_read(struct json_object *res, struct bc_scale_run_result_in *out)
{
	struct bc_doc_read *r = &out->rd;
	struct json_object *a, *an, *ro;
	char p[BC_DOC_PROBLEM_LEN];
	size_t n;

	memset(out, 0, sizeof(*out));
	bc_doc_read_init(r);
	out->reordered_ratio = NAN;
	out->reordered = out->received = -1;
	a = bc_doc_array(r, res, "", "findings", BC_DOC_OPTIONAL, &n);
	if (n) {
		out->findings = calloc(n, sizeof(*out->findings));
		if (!out->findings)
			return -ENOMEM;
		out->n_findings = n;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *f = json_object_array_get_idx(a, i);
		struct bc_scale_rfinding_in *fi = &out->findings[i];
		char ep[BC_DOC_PROBLEM_LEN];

		bc_doc_path(p, sizeof(p), "findings", NULL, i);
		bc_doc_str(r, f, p, "id", BC_DOC_OPTIONAL, fi->id, sizeof(fi->id));
		bc_doc_str(r, f, p, "subject", BC_DOC_OPTIONAL, fi->subject, sizeof(fi->subject));
		fi->evidence = bc_doc_member(r, f, p, "evidence", BC_DOC_OPTIONAL);
		bc_doc_path(ep, sizeof(ep), p, "evidence", 0);
		ev_text(r, fi->evidence, ep, "count", fi->count, sizeof(fi->count));
		ev_text(r, fi->evidence, ep, "of", fi->of, sizeof(fi->of));
		ev_text(r, fi->evidence, ep, "lost", fi->lost, sizeof(fi->lost));
		ev_text(r, fi->evidence, ep, "left_bracketed", fi->left_bracketed,
			sizeof(fi->left_bracketed));
		ev_text(r, fi->evidence, ep, "frames", fi->frames, sizeof(fi->frames));
	}
	an = bc_doc_member(r, bc_doc_member(r, res, "", "capture", BC_DOC_OPTIONAL), "capture",
			   "analysis", BC_DOC_OPTIONAL);
	a = bc_doc_array(r, an, "capture.analysis", "links", BC_DOC_OPTIONAL, &n);
	if (n) {
		out->links = calloc(n, sizeof(*out->links));
		if (!out->links)
			return -ENOMEM;
		out->n_links = n;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *l = json_object_array_get_idx(a, i);

		bc_doc_path(p, sizeof(p), "capture.analysis.links", NULL, i);
		bc_doc_str(r, l, p, "name", BC_DOC_OPTIONAL, out->links[i].name,
			   sizeof(out->links[i].name));
		bc_doc_str(r, l, p, "peer", BC_DOC_OPTIONAL, out->links[i].peer,
			   sizeof(out->links[i].peer));
	}
	ro = bc_doc_member(r, an, "capture.analysis", "reordering", BC_DOC_OPTIONAL);
	bc_doc_dbl(r, ro, "capture.analysis.reordering", "reordered_ratio", BC_DOC_OPTIONAL,
		   &out->reordered_ratio);
	bc_doc_i64(r, ro, "capture.analysis.reordering", "reordered", BC_DOC_OPTIONAL,
		   &out->reordered);
	bc_doc_i64(r, ro, "capture.analysis.reordering", "received", BC_DOC_OPTIONAL,
		   &out->received);
	a = bc_doc_array(r, ro, "capture.analysis.reordering", "pairs", BC_DOC_OPTIONAL, &n);
	if (n) {
		out->pairs = calloc(n, sizeof(*out->pairs));
		if (!out->pairs)
			return -ENOMEM;
		out->n_pairs = n;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *pr = json_object_array_get_idx(a, i);

		bc_doc_path(p, sizeof(p), "capture.analysis.reordering.pairs", NULL, i);
		out->pairs[i].node = pr;
		bc_doc_str(r, pr, p, "late_link", BC_DOC_OPTIONAL, out->pairs[i].late_link,
			   sizeof(out->pairs[i].late_link));
		bc_doc_i64(r, pr, p, "count", BC_DOC_OPTIONAL, &out->pairs[i].count);
	}
	return 0;
}

void bc_scale_run_result_in_free(struct bc_scale_run_result_in *r)
{
	free(r->findings);
	free(r->links);
	free(r->pairs);
	memset(r, 0, sizeof(*r));
}
