// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The suite document's analysis: search summary, ceilings, per-link and
 * per-flow tables, ledger, reordering, merged findings, verdicts and the
 * summary (bondcheck/suite-analyze.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/suite-input.h"
#include "analyze/suite-int.h"
#include "bondcheck/suite-analyze.h"
#include "bondcheck/udp-search.h"

/* The search's per-trial figures written into each trial, and its summary into @in->udp_search. */
static void search_summary(const struct bc_suite_input *in)
{
	struct bc_udp_trial t[32];
	struct bc_udp_search_result r;
	size_t n = 0;

	if (!in->udp_search)
		return;
	for (size_t i = 0; i < in->n_trials && n < 32; i++, n++) {
		struct json_object *o = in->trial[i].obj;

		t[n] = in->trial[i].t;
		json_object_object_add(o, "effective_bps",
				       json_object_new_double(bc_udp_trial_rate(&t[n])));
		json_object_object_add(o, "loss_ratio",
				       json_object_new_double(bc_udp_trial_loss(&t[n])));
		json_object_object_add(o, "no_drop",
				       json_object_new_boolean(bc_udp_trial_no_drop(&t[n])));
	}
	bc_udp_search_result(t, n, &r);
	json_object_object_add(in->udp_search, "no_drop_rate_bps",
			       json_object_new_double(r.no_drop_bps));
	json_object_object_add(in->udp_search, "drop_rate_bps",
			       r.drop_bps > 0 ? json_object_new_double(r.drop_bps) : NULL);
	json_object_object_add(in->udp_search, "resolution_bps",
			       r.resolution_bps > 0 ? json_object_new_double(r.resolution_bps)
						    : NULL);
	json_object_object_add(in->udp_search, "pdr_rate_bps", json_object_new_double(r.pdr_bps));
	json_object_object_add(in->udp_search, "pdr_loss", json_object_new_double(BC_UDP_PDR_LOSS));
}

bool bc_suite_loss_id(const char *id)
{
	static const char *const ids[] = {"tx-loss", "wire-loss", "rx-loss-nic",
					  "rx-loss-reassembly", "rx-loss-socket"};

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (!strcmp(id, ids[i]))
			return true;
	return false;
}

/* One finding of doc.findings as merged, with what the merge and the summary compare. */
struct merged {
	struct json_object *o, *sources;
	const char *id, *subject, *end, *severity;
	bool expected;
};

struct merge {
	struct json_object *out; /* doc.findings */
	struct merged *m;
	size_t n, max;
};

/* Add @f once per (id, subject, end); later sources are listed. */
static void merge_one(struct merge *mg, const struct bc_si_finding *f, const char *source,
		      const char *end, bool expected)
{
	struct json_object *o;
	struct merged *m;

	for (size_t i = 0; i < mg->n; i++) {
		m = &mg->m[i];
		if (!strcmp(m->id, f->id) && !strcmp(m->subject, f->subject) &&
		    !strcmp(m->end, end)) {
			json_object_array_add(m->sources, json_object_new_string(source));
			if (!expected) {
				json_object_object_add(m->o, "expected",
						       json_object_new_boolean(0));
				m->expected = false;
			}
			return;
		}
	}
	if (mg->n >= mg->max)
		return;
	m = &mg->m[mg->n++];
	o = json_object_new_object();
	/* a verbatim copy: the finding's members are not interpreted here */
	json_object_object_foreach(f->obj, k, v) json_object_object_add(o, k, json_object_get(v));
	json_object_object_add(o, "source", json_object_new_string(source));
	m->sources = json_object_new_array();
	json_object_object_add(o, "sources", m->sources);
	json_object_array_add(m->sources, json_object_new_string(source));
	json_object_object_add(o, "end", json_object_new_string(end));
	json_object_object_add(o, "expected", json_object_new_boolean(expected));
	json_object_array_add(mg->out, o);
	*m = (struct merged){.o = o,
			     .sources = m->sources,
			     .id = f->id,
			     .subject = f->subject,
			     .end = end,
			     .severity = f->severity,
			     .expected = expected};
}

/*
 * Inspect findings of both ends, then each test's (run findings are about
 * the client's view: capture links carry their side in the subject).  Loss
 * findings of the over-rate probe and the search trials are "expected":
 * they offer more than the bond carries on purpose.  *@errs: the merged
 * error-level findings that are not expected (doc.summary.error_findings).
 */
static struct json_object *merged_findings(const struct bc_suite_input *in, int *errs)
{
	static const char *const ends[2] = {"client", "agent"};
	struct merge mg = {.out = json_object_new_array()};

	*errs = 0;
	mg.max = in->end[0].n_findings + in->end[1].n_findings + in->n_placement_findings;
	for (size_t t = 0; t < in->n_tests; t++)
		mg.max += in->test[t].res ? in->test[t].res->n_findings : 0;
	mg.m = mg.max ? calloc(mg.max, sizeof(*mg.m)) : NULL;
	if (!mg.m)
		return mg.out;
	for (int e = 0; e < 2; e++) {
		char src[32];

		snprintf(src, sizeof(src), "inspect:%s", ends[e]);
		for (size_t i = 0; i < in->end[e].n_findings; i++)
			merge_one(&mg, &in->end[e].finding[i], src, ends[e], false);
	}
	for (size_t i = 0; i < in->n_placement_findings; i++)
		merge_one(&mg, &in->placement_finding[i], "placement", "client", false);
	for (size_t t = 0; t < in->n_tests; t++) {
		const struct bc_si_test *to = &in->test[t];
		bool probe = !strcmp(to->role, "over-rate") || !strcmp(to->role, "search");

		for (size_t i = 0; to->res && i < to->res->n_findings; i++) {
			const struct bc_si_finding *f = &to->res->finding[i];
			const char *end = strstr(f->subject, "agent/") ? "agent" : "client";

			merge_one(&mg, f, to->name, end, probe && bc_suite_loss_id(f->id));
		}
	}
	for (size_t i = 0; i < mg.n; i++)
		*errs += !strcmp(mg.m[i].severity, "error") && !mg.m[i].expected;
	free(mg.m);
	return mg.out;
}

/* The over-rate probe's loss ledger (its capture analysis' "ledger" stages, copied), or NULL. */
static struct json_object *ledger(const struct bc_suite_input *in, struct json_object *doc)
{
	const struct bc_si_result *over = bc_suite_input_result(in, "udp-over");
	bool an = over && over->has_analysis;

	json_object_object_add(doc, "ledger_test", an ? json_object_new_string("udp-over") : NULL);
	json_object_object_add(doc, "ledger_direction",
			       an ? json_object_get(over->j_ledger_direction) : NULL);
	return an ? json_object_get(over->j_ledger) : NULL;
}

/* TCP: the aggregate test's tcp_info reordering per flow; UDP: the probe's pairs and density. */
static struct json_object *reordering(const struct bc_suite_input *in)
{
	struct json_object *o = json_object_new_object(), *tcp, *udp = NULL, *dens;
	const struct bc_si_result *agg = bc_suite_input_result(in, "tcp-k"),
				  *over = bc_suite_input_result(in, "udp-over");
	long long seen = 0, dsack = 0;

	tcp = agg ? json_object_new_object() : NULL;
	if (agg) {
		for (size_t i = 0; i < agg->n_streams; i++) {
			seen += agg->stream[i].reord_seen;
			dsack += agg->stream[i].dsack_dups;
		}
		json_object_object_add(tcp, "test", json_object_new_string("tcp-k"));
		json_object_object_add(tcp, "observation_point",
				       json_object_new_string("sender tcp_info"));
		json_object_object_add(tcp, "reord_seen", json_object_new_int64(seen));
		json_object_object_add(tcp, "dsack_dups", json_object_new_int64(dsack));
		json_object_object_add(tcp, "capture", json_object_get(agg->j_reordering));
	}
	if (over) {
		long long rx = 0, ooo = 0;
		struct bc_si_bin *sum = NULL;
		size_t nb = 0, max = 0;

		for (size_t i = 0; i < over->n_streams; i++)
			max += over->stream[i].n_bins;
		sum = max ? calloc(max, sizeof(*sum)) : NULL;
		udp = json_object_new_object();
		dens = json_object_new_object();
		for (size_t i = 0; i < over->n_streams; i++) {
			const struct bc_si_stream *st = &over->stream[i];

			rx += st->received_packets;
			ooo += st->out_of_order_packets;
			/* the bins summed over streams, in the order they first appear */
			for (size_t b = 0; sum && b < st->n_bins; b++) {
				size_t k = 0;

				while (k < nb && strcmp(sum[k].key, st->bin[b].key))
					k++;
				if (k == nb)
					sum[nb++].key = st->bin[b].key;
				sum[k].count += st->bin[b].count;
			}
		}
		for (size_t k = 0; k < nb; k++)
			json_object_object_add(dens, sum[k].key,
					       json_object_new_int64(sum[k].count));
		free(sum);
		json_object_object_add(udp, "test", json_object_new_string("udp-over"));
		json_object_object_add(udp, "received", json_object_new_int64(rx));
		json_object_object_add(udp, "out_of_order", json_object_new_int64(ooo));
		json_object_object_add(udp, "reorder_density", dens);
		json_object_object_add(udp, "density_observation_point",
				       json_object_new_string("receiver app"));
		json_object_object_add(udp, "capture", json_object_get(over->j_reordering));
	}
	json_object_object_add(o, "tcp", tcp);
	json_object_object_add(o, "udp", udp);
	return o;
}

static struct json_object *summary(int errs, const struct bc_suite_verdicts *w)
{
	const struct bc_verdict *v[3] = {&w->aggregation, &w->udp_gap, &w->drivers};
	struct json_object *o = json_object_new_object();
	int pass = 0, fail = 0, inc = 0, na = 0;

	for (size_t i = 0; i < 3; i++) {
		pass += v[i]->status == BC_VERDICT_PASS;
		fail += v[i]->status == BC_VERDICT_FAIL;
		inc += v[i]->status == BC_VERDICT_INCONCLUSIVE;
		na += v[i]->status == BC_VERDICT_NOT_APPLICABLE;
	}
	json_object_object_add(o, "pass", json_object_new_int(pass));
	json_object_object_add(o, "fail", json_object_new_int(fail));
	json_object_object_add(o, "inconclusive", json_object_new_int(inc));
	json_object_object_add(o, "not_applicable", json_object_new_int(na));
	json_object_object_add(o, "error_findings", json_object_new_int(errs));
	return o;
}

/*
 * The older verdict text (per-link evidence in sentences) stays beside the
 * answer only where its judgement is the verdict's: when the status differs,
 * or (@model_replaces) when the model decided, its conclusion (judged
 * against the usable slaves) could contradict the answer.
 */
static void keep_text(struct json_object *legacy, const struct bc_suite_judgement *j,
		      const struct bc_verdict *v, bool model_replaces)
{
	if (strcmp(j->status, bc_verdict_status_name(v->status)) ||
	    (model_replaces && v->basis && !strcmp(v->basis, "capacity model")))
		json_object_object_del(legacy, "text");
}

int bc_suite_analyze(struct json_object *doc, struct bc_suite_verdicts *vs, struct bc_error *err)
{
	struct bc_suite_facts f;
	struct bc_suite_model m, mu;
	struct bc_suite_doc *d;
	struct bc_suite_judgement j;
	struct bc_suite_verdicts own = {0}, *w = vs ? vs : &own;
	struct json_object *ceil, *v, *b, *a;
	struct bc_suite_input in;
	struct bc_si_ceilings c;
	int errs;

	/* the raw inputs decoded once: the tables below are built from @in */
	if (bc_suite_input_read(doc, &in)) {
		bc_suite_input_free(&in);
		return bc_error_set(err, -ENOMEM, "no memory for the suite document's decode");
	}
	if (strcmp(in.kind, "run-suite")) {
		bc_error_set(err, -EINVAL,
			     "not a run suite document: kind is '%s', expected 'run-suite'",
			     in.kind);
		bc_suite_input_free(&in);
		return -EINVAL;
	}
	search_summary(&in);
	ceil = bc_suite_ceilings(&in, &c);
	json_object_object_add(doc, "ceilings", ceil);
	json_object_object_add(doc, "links", bc_suite_links(&in, &c));
	bc_suite_ceilings_free(&c);
	json_object_object_add(doc, "flows", bc_suite_flows(&in));
	json_object_object_add(doc, "ledger", ledger(&in, doc));
	json_object_object_add(doc, "reordering", reordering(&in));
	json_object_object_add(doc, "findings", merged_findings(&in, &errs));
	/* decoded once: the facts, the model and the verdicts read the struct */
	d = calloc(1, sizeof(*d));
	if (!d) {
		bc_suite_input_free(&in);
		return bc_error_set(err, -ENOMEM, "no memory for the suite document's decode");
	}
	bc_suite_doc_read(doc, d);
	bc_suite_input_need(&in, d);
	bc_suite_input_free(&in);
	bc_suite_facts_fill(d, &f);
	b = json_object_new_object();
	json_object_object_add(b, "tcp_bps",
			       f.bond_ceiling_bps > 0 ? json_object_new_double(f.bond_ceiling_bps)
						      : NULL);
	json_object_object_add(b, "udp_bps",
			       f.udp_ceiling_bps > 0 ? json_object_new_double(f.udp_ceiling_bps)
						     : NULL);
	json_object_object_add(b, "link_tcp_bps",
			       f.link_ceiling_bps > 0 ? json_object_new_double(f.link_ceiling_bps)
						      : NULL);
	json_object_object_add(b, "rr_cap_tcp_bps",
			       f.rr_cap_bps > 0 ? json_object_new_double(f.rr_cap_bps) : NULL);
	json_object_object_add(
		b, "udp_equal_share_bps",
		f.udp_equal_share_bps > 0 ? json_object_new_double(f.udp_equal_share_bps) : NULL);
	/* where the UDP search starts: what the suite's flows can carry */
	{
		double st = f.udp_equal_share_bps > 0 ? f.udp_equal_share_bps : f.udp_ceiling_bps;

		json_object_object_add(b, "udp_search_start_bps",
				       st > 0 ? json_object_new_double(st) : NULL);
	}
	json_object_object_add(ceil, "bond", b);
	bc_suite_model_fill(d, &f, false, &m);
	bc_suite_model_fill(d, &f, true, &mu);
	b = json_object_new_object();
	json_object_object_add(b, "tcp", bc_suite_model_json(&m));
	json_object_object_add(b, "udp", bc_suite_model_json(&mu));
	json_object_object_add(doc, "capacity", b);
	v = json_object_new_object();
	a = bc_verdict_aggregation(&f);
	bc_suite_answer_aggregation(&f, &m, &w->aggregation);
	bc_verdict_json_data(&w->aggregation, a);
	/* its older sentence judged against the usable slaves: the answer replaces it */
	json_object_object_del(a, "text");
	json_object_object_add(v, "aggregation", a);
	a = bc_verdict_udp_gap(&f);
	bc_suite_answer_udp_gap(&f, &mu, &w->udp_gap);
	bc_verdict_json_data(&w->udp_gap, a);
	json_object_object_add(v, "udp_gap", a);
	a = bc_verdict_drivers(&f);
	bc_suite_drivers_judge(&f, &j);
	bc_suite_answer_drivers(&f, &m, &j, &w->drivers);
	keep_text(a, &j, &w->drivers, true);
	bc_verdict_json_data(&w->drivers, a);
	json_object_object_add(v, "drivers", a);
	json_object_object_add(doc, "verdicts", v);
	free(d);
	json_object_object_add(doc, "schema_version", json_object_new_int(BC_SUITE_SCHEMA));
	json_object_object_add(doc, "summary", summary(errs, w));
	return 0;
}
