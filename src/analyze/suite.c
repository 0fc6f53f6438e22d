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

#include "analyze/suite-int.h"
#include "bondcheck/json-get.h"
#include "bondcheck/suite-analyze.h"
#include "bondcheck/udp-search.h"

double bc_suite_sent_bps(struct json_object *res)
{
	struct json_object *st = bc_sj(res, "streams"), *tp = bc_sj(res, "test");
	double secs = (bc_json_dbl(tp, "duration_ms", 0) - bc_json_dbl(tp, "omit_ms", 0)) / 1000;
	double bytes = 0;

	for (size_t i = 0; i < bc_json_len(st); i++)
		bytes += bc_json_dbl(json_object_array_get_idx(st, i), "sent_bytes", 0);
	return secs > 0 ? 8 * bytes / secs : 0;
}

void bc_suite_trial_from_json(struct json_object *o, struct bc_udp_trial *t)
{
	*t = (struct bc_udp_trial){
		.rate_bps = bc_json_dbl(o, "rate_bps", 0),
		.sent_bps = bc_json_dbl(o, "sent_bps", 0),
		.sent = (uint64_t)bc_json_i64(o, "sent_packets", 0),
		.received = (uint64_t)bc_json_i64(o, "received_packets", 0),
		.refused = (uint64_t)bc_json_i64(o, "refused", 0),
		.received_bps = bc_json_dbl(o, "received_bps", 0),
	};
}

static void search_summary(struct json_object *us)
{
	struct json_object *tr = bc_sj(us, "trials");
	struct bc_udp_trial t[32];
	struct bc_udp_search_result r;
	size_t n = 0;

	if (!us)
		return;
	for (size_t i = 0; i < bc_json_len(tr) && n < 32; i++, n++) {
		struct json_object *o = json_object_array_get_idx(tr, i);

		bc_suite_trial_from_json(o, &t[n]);
		json_object_object_add(o, "effective_bps",
				       json_object_new_double(bc_udp_trial_rate(&t[n])));
		json_object_object_add(o, "loss_ratio",
				       json_object_new_double(bc_udp_trial_loss(&t[n])));
		json_object_object_add(o, "no_drop",
				       json_object_new_boolean(bc_udp_trial_no_drop(&t[n])));
	}
	bc_udp_search_result(t, n, &r);
	json_object_object_add(us, "no_drop_rate_bps", json_object_new_double(r.no_drop_bps));
	json_object_object_add(us, "drop_rate_bps",
			       r.drop_bps > 0 ? json_object_new_double(r.drop_bps) : NULL);
	json_object_object_add(us, "resolution_bps",
			       r.resolution_bps > 0 ? json_object_new_double(r.resolution_bps)
						    : NULL);
	json_object_object_add(us, "pdr_rate_bps", json_object_new_double(r.pdr_bps));
	json_object_object_add(us, "pdr_loss", json_object_new_double(BC_UDP_PDR_LOSS));
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

/* Add @f (a finding object) once per (id, subject, end); later sources are listed. */
static void merge_one(struct json_object *out, struct json_object *f, const char *source,
		      const char *end, bool expected)
{
	struct json_object *o;

	for (size_t i = 0; i < bc_json_len(out); i++) {
		o = json_object_array_get_idx(out, i);
		if (!strcmp(bc_json_str(o, "id"), bc_json_str(f, "id")) &&
		    !strcmp(bc_json_str(o, "subject"), bc_json_str(f, "subject")) &&
		    !strcmp(bc_json_str(o, "end"), end)) {
			json_object_array_add(bc_sj(o, "sources"), json_object_new_string(source));
			if (!expected)
				json_object_object_add(o, "expected", json_object_new_boolean(0));
			return;
		}
	}
	o = json_object_new_object();
	json_object_object_foreach(f, k, v) json_object_object_add(o, k, json_object_get(v));
	json_object_object_add(o, "source", json_object_new_string(source));
	json_object_object_add(o, "sources", json_object_new_array());
	json_object_array_add(bc_sj(o, "sources"), json_object_new_string(source));
	json_object_object_add(o, "end", json_object_new_string(end));
	json_object_object_add(o, "expected", json_object_new_boolean(expected));
	json_object_array_add(out, o);
}

/*
 * Inspect findings of both ends, then each test's (run findings are about
 * the client's view: capture links carry their side in the subject).  Loss
 * findings of the over-rate probe and the search trials are "expected":
 * they offer more than the bond carries on purpose.
 */
static struct json_object *merged_findings(struct json_object *doc)
{
	static const char *const ends[2] = {"client", "agent"};
	struct json_object *out = json_object_new_array(), *tests = bc_sj(doc, "tests");

	for (int e = 0; e < 2; e++) {
		struct json_object *b = bc_sj(bc_sj(bc_sj(doc, "ends"), ends[e]), "bonds");
		char src[32];

		snprintf(src, sizeof(src), "inspect:%s", ends[e]);
		for (size_t k = 0; k < bc_json_len(b); k++) {
			struct json_object *fs = bc_sj(json_object_array_get_idx(b, k), "findings");

			for (size_t i = 0; i < bc_json_len(fs); i++)
				merge_one(out, json_object_array_get_idx(fs, i), src, ends[e],
					  false);
		}
	}
	{
		struct json_object *fs = bc_sj(bc_sj(doc, "placement"), "findings");

		for (size_t i = 0; i < bc_json_len(fs); i++)
			merge_one(out, json_object_array_get_idx(fs, i), "placement", "client",
				  false);
	}
	for (size_t t = 0; t < bc_json_len(tests); t++) {
		struct json_object *to = json_object_array_get_idx(tests, t);
		struct json_object *fs = bc_sj(bc_sj(to, "result"), "findings");
		const char *role = bc_json_str(to, "role");
		bool probe = !strcmp(role, "over-rate") || !strcmp(role, "search");

		for (size_t i = 0; i < bc_json_len(fs); i++) {
			struct json_object *f = json_object_array_get_idx(fs, i);
			const char *subj = bc_json_str(f, "subject");
			const char *end = strstr(subj, "agent/") ? "agent" : "client";

			merge_one(out, f, bc_json_str(to, "name"), end,
				  probe && bc_suite_loss_id(bc_json_str(f, "id")));
		}
	}
	return out;
}

/* The over-rate probe's loss ledger (its capture analysis' "ledger" stages), or NULL. */
static struct json_object *ledger(struct json_object *doc)
{
	struct json_object *an =
		bc_sj(bc_sj(bc_suite_result(doc, "udp-over"), "capture"), "analysis");

	json_object_object_add(doc, "ledger_test", an ? json_object_new_string("udp-over") : NULL);
	json_object_object_add(doc, "ledger_direction",
			       json_object_get(bc_sj(an, "ledger_direction")));
	return json_object_get(bc_sj(an, "ledger"));
}

/* TCP: the aggregate test's tcp_info reordering per flow; UDP: the probe's pairs and density. */
static struct json_object *reordering(struct json_object *doc)
{
	struct json_object *o = json_object_new_object(), *tcp, *udp = NULL, *dens;
	struct json_object *agg = bc_suite_result(doc, "tcp-k"),
			   *over = bc_suite_result(doc, "udp-over");
	long long seen = 0, dsack = 0;

	tcp = agg ? json_object_new_object() : NULL;
	if (agg) {
		struct json_object *s = bc_sj(agg, "streams");

		for (size_t i = 0; i < bc_json_len(s); i++) {
			struct json_object *ti =
				bc_sj(bc_sj(json_object_array_get_idx(s, i), "sender"), "tcp_info");

			seen += bc_json_i64(ti, "reord_seen", 0);
			dsack += bc_json_i64(ti, "dsack_dups", 0);
		}
		json_object_object_add(tcp, "test", json_object_new_string("tcp-k"));
		json_object_object_add(tcp, "observation_point",
				       json_object_new_string("sender tcp_info"));
		json_object_object_add(tcp, "reord_seen", json_object_new_int64(seen));
		json_object_object_add(tcp, "dsack_dups", json_object_new_int64(dsack));
		json_object_object_add(
			tcp, "capture",
			json_object_get(
				bc_sj(bc_sj(bc_sj(agg, "capture"), "analysis"), "reordering")));
	}
	if (over) {
		struct json_object *s = bc_sj(over, "streams");
		long long rx = 0, ooo = 0;

		udp = json_object_new_object();
		dens = json_object_new_object();
		for (size_t i = 0; i < bc_json_len(s); i++) {
			struct json_object *st = json_object_array_get_idx(s, i);
			struct json_object *d = bc_sj(bc_sj(st, "reordering"), "reorder_density");

			rx += bc_json_i64(st, "received_packets", 0);
			ooo += bc_json_i64(st, "out_of_order_packets", 0);
			json_object_object_foreach(d, k, v)
			{
				long long c = bc_json_i64(dens, k, 0) + json_object_get_int64(v);

				json_object_object_add(dens, k, json_object_new_int64(c));
			}
		}
		json_object_object_add(udp, "test", json_object_new_string("udp-over"));
		json_object_object_add(udp, "received", json_object_new_int64(rx));
		json_object_object_add(udp, "out_of_order", json_object_new_int64(ooo));
		json_object_object_add(udp, "reorder_density", dens);
		json_object_object_add(udp, "density_observation_point",
				       json_object_new_string("receiver app"));
		json_object_object_add(
			udp, "capture",
			json_object_get(
				bc_sj(bc_sj(bc_sj(over, "capture"), "analysis"), "reordering")));
	}
	json_object_object_add(o, "tcp", tcp);
	json_object_object_add(o, "udp", udp);
	return o;
}

static struct json_object *summary(struct json_object *doc, const struct bc_suite_verdicts *w)
{
	const struct bc_verdict *v[3] = {&w->aggregation, &w->udp_gap, &w->drivers};
	struct json_object *o = json_object_new_object();
	struct json_object *fs = bc_sj(doc, "findings");
	int pass = 0, fail = 0, inc = 0, na = 0, errs = 0;

	for (size_t i = 0; i < 3; i++) {
		pass += v[i]->status == BC_VERDICT_PASS;
		fail += v[i]->status == BC_VERDICT_FAIL;
		inc += v[i]->status == BC_VERDICT_INCONCLUSIVE;
		na += v[i]->status == BC_VERDICT_NOT_APPLICABLE;
	}
	for (size_t i = 0; i < bc_json_len(fs); i++) {
		struct json_object *f = json_object_array_get_idx(fs, i);

		errs += !strcmp(bc_json_str(f, "severity"), "error") &&
			!json_object_get_boolean(bc_sj(f, "expected"));
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

	if (strcmp(bc_json_str(doc, "kind"), "run-suite"))
		return bc_error_set(err, -EINVAL,
				    "not a run suite document: kind is '%s', expected 'run-suite'",
				    bc_json_str(doc, "kind"));
	search_summary(bc_sj(doc, "udp_search"));
	ceil = bc_suite_ceilings(doc);
	json_object_object_add(doc, "ceilings", ceil);
	json_object_object_add(doc, "links", bc_suite_links(doc, ceil));
	json_object_object_add(doc, "flows", bc_suite_flows(doc));
	json_object_object_add(doc, "ledger", ledger(doc));
	json_object_object_add(doc, "reordering", reordering(doc));
	json_object_object_add(doc, "findings", merged_findings(doc));
	/* decoded once: the facts, the model and the verdicts read the struct */
	d = calloc(1, sizeof(*d));
	if (!d)
		return bc_error_set(err, -ENOMEM, "no memory for the suite document's decode");
	bc_suite_doc_read(doc, d);
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
	json_object_object_add(doc, "summary", summary(doc, w));
	return 0;
}
