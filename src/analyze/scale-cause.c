// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a diagnostic `run --capture` shows about a scaling comparison
 * (bondcheck/scale-doc.h bc_scale_cause()): loss on a link, reordering on a
 * link, an idle link.  Reads the run's findings (the capture attribution's
 * and the live ledger's, docs/run.md) and capture.analysis, decoded once by
 * bc_scale_run_result_read() (scale-read.c); pure.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/scale-doc.h"

#define TX_CLIENT "tx:client/"

/*
 * The client slave behind a capture link name: "tx:client/eth1" is eth1; a
 * receive link is named by the client slave whose learned path ends there
 * (analysis links[].peer).  "" when neither (a host or bond subject).
 */
static const char *slave_of(const struct bc_scale_run_result_in *in, const char *link)
{
	if (!strncmp(link, TX_CLIENT, strlen(TX_CLIENT)))
		return link + strlen(TX_CLIENT);
	if (strncmp(link, "rx:", 3))
		return "";
	for (size_t i = 0; i < in->n_links; i++) {
		const char *name = in->links[i].name;

		if (!strncmp(name, TX_CLIENT, strlen(TX_CLIENT)) && !strcmp(in->links[i].peer, link))
			return name + strlen(TX_CLIENT);
	}
	return "";
}

static bool in_list(const char *s, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(s, list[i]))
			return true;
	return false;
}

static struct json_object *cause(const char *kind, const char *slave, const char *link, bool added,
				 const char *text, struct json_object *ev)
{
	struct json_object *c = json_object_new_object();

	json_object_object_add(c, "kind", json_object_new_string(kind));
	json_object_object_add(c, "slave", json_object_new_string(slave));
	json_object_object_add(c, "capture_link", json_object_new_string(link));
	json_object_object_add(c, "added", json_object_new_boolean(added));
	json_object_object_add(c, "text", json_object_new_string(text));
	json_object_object_add(c, "evidence", ev);
	return c;
}

struct found {
	struct json_object *cause;
	bool added;
};

static void loss_causes(const struct bc_scale_run_result_in *in, const char *const *added,
			size_t n_added, struct found *out, size_t *n_out)
{
	for (size_t i = 0; i < in->n_findings; i++) {
		const struct bc_scale_rfinding_in *f = &in->findings[i];
		const char *id = f->id, *link = f->subject, *slave;
		/* the ledger's findings carry count/of; the capture-only one lost/left_bracketed */
		bool ledger = f->count[0] != '\0';
		double cnt, of;
		struct json_object *e;
		char text[256];

		if (strcmp(id, "wire-loss") && strcmp(id, "tx-loss") && strcmp(id, "rx-loss-nic"))
			continue;
		slave = slave_of(in, link);
		if (!slave[0])
			continue; /* a host-wide counter: not a link */
		cnt = atof(ledger ? f->count : f->lost);
		of = atof(ledger ? f->of : f->left_bracketed);
		if (!(of > 0 && cnt / of >= BC_SCALE_CAUSE_LOSS_MIN))
			continue;
		if (ledger)
			snprintf(text, sizeof(text), "loss on %s: %s of %s datagrams (%s, %s)",
				 slave, f->count, f->of, id, link);
		else
			snprintf(text, sizeof(text), "loss on %s: %s of %s packets (%s, %s)", slave,
				 f->lost, f->left_bracketed, id, link);
		e = json_object_new_object();
		json_object_object_add(e, "finding", json_object_new_string(id));
		json_object_object_add(e, "finding_evidence", json_object_get(f->evidence));
		out[*n_out].added = in_list(slave, added, n_added);
		out[*n_out].cause = cause("loss", slave, link, out[*n_out].added, text, e);
		(*n_out)++;
	}
}

static bool has_finding(const struct bc_scale_run_result_in *in, const char *id)
{
	for (size_t i = 0; i < in->n_findings; i++)
		if (!strcmp(in->findings[i].id, id))
			return true;
	return false;
}

static struct json_object *i64_or_null(int64_t v)
{
	return v >= 0 ? json_object_new_int64(v) : NULL;
}

/* The late link that holds most reordering pairs, when the `reordering` finding is raised. */
static void reorder_cause(const struct bc_scale_run_result_in *in, const char *const *added,
			  size_t n_added, struct found *out, size_t *n_out)
{
	struct json_object *ev, *top;
	long long total = 0, best = 0;
	const char *late = NULL, *slave;
	char text[320];

	if (!has_finding(in, "reordering") || !in->n_pairs ||
	    !(in->reordered_ratio >= BC_SCALE_CAUSE_REORDER_MIN))
		return;
	for (size_t i = 0; i < in->n_pairs; i++)
		total += in->pairs[i].count;
	/* sum per late link: a link late behind several others is one cause */
	for (size_t i = 0; i < in->n_pairs; i++) {
		const char *l = in->pairs[i].late_link;
		long long sum = 0;

		for (size_t j = 0; j < in->n_pairs; j++)
			if (!strcmp(in->pairs[j].late_link, l))
				sum += in->pairs[j].count;
		if (sum > best) {
			best = sum;
			late = l;
		}
	}
	if (!late || total <= 0)
		return;
	slave = slave_of(in, late);
	ev = json_object_new_object();
	json_object_object_add(ev, "reordered", i64_or_null(in->reordered));
	json_object_object_add(ev, "received", i64_or_null(in->received));
	json_object_object_add(ev, "reordered_ratio", json_object_new_double(in->reordered_ratio));
	json_object_object_add(ev, "late_link", json_object_new_string(late));
	json_object_object_add(ev, "late_share",
			       json_object_new_double((double)best / (double)total));
	top = json_object_new_array();
	for (size_t i = 0; i < in->n_pairs && i < 4; i++)
		json_object_array_add(top, json_object_get(in->pairs[i].node));
	json_object_object_add(ev, "pairs", top);
	snprintf(text, sizeof(text),
		 "reordering: %lld of %lld datagrams arrived out of order, %.0f %% of the "
		 "reordering pairs late on %s (%s)",
		 (long long)in->reordered, (long long)in->received,
		 100.0 * (double)best / (double)total, slave[0] ? slave : late, late);
	out[*n_out].added = in_list(slave, added, n_added);
	out[*n_out].cause =
		cause("reordering", slave[0] ? slave : late, late, out[*n_out].added, text, ev);
	(*n_out)++;
}

static void idle_causes(const struct bc_scale_run_result_in *in, const char *const *added,
			size_t n_added, struct found *out, size_t *n_out)
{
	for (size_t i = 0; i < in->n_findings; i++) {
		const struct bc_scale_rfinding_in *f = &in->findings[i];
		const char *link = f->subject, *slave;
		struct json_object *e;
		char text[256];

		if (strcmp(f->id, "link-idle"))
			continue;
		slave = slave_of(in, link);
		if (!slave[0])
			continue;
		snprintf(text, sizeof(text), "idle link: %s carried %s test frames (%s)", slave,
			 f->frames[0] ? f->frames : "almost no", link);
		e = json_object_new_object();
		json_object_object_add(e, "finding", json_object_new_string("link-idle"));
		json_object_object_add(e, "finding_evidence", json_object_get(f->evidence));
		out[*n_out].added = in_list(slave, added, n_added);
		out[*n_out].cause = cause("idle-link", slave, link, out[*n_out].added, text, e);
		(*n_out)++;
	}
}

struct json_object *bc_scale_cause(struct json_object *res, const char *const *added,
				   size_t n_added)
{
	struct bc_scale_run_result_in in;
	struct found *all;
	struct json_object *out;
	size_t n = 0;

	if (!res)
		return NULL;
	out = json_object_new_array();
	if (bc_scale_run_result_read(res, &in) < 0)
		goto done;
	/* at most one cause per finding, and one for the reordering */
	all = calloc(in.n_findings + 1, sizeof(*all));
	if (!all)
		goto done;
	loss_causes(&in, added, n_added, all, &n);
	reorder_cause(&in, added, n_added, all, &n);
	idle_causes(&in, added, n_added, all, &n);
	/* stable: causes on an added slave first, each group in the order above */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < n; i++)
			if (all[i].added == (pass == 0))
				json_object_array_add(out, all[i].cause);
	free(all);
done:
	bc_scale_run_result_in_free(&in);
	return out;
}
