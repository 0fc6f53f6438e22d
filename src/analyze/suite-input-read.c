// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The suite document's raw inputs, decoded once for the derive-tables
 * stage (suite-input.h): the only code of that stage that looks members up
 * by key.  Also the two public readers of a test result and a search trial
 * that src/report and src/workflow share (bondcheck/suite-analyze.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/suite-input.h"
#include "bondcheck/suite-analyze.h"

/* Problems of optional members (a wrong type): read, then dropped. */
static _Thread_local struct bc_doc_read scratch;

static struct json_object *obj(struct json_object *o, const char *key)
{
	return bc_doc_member(&scratch, o, "", key, BC_DOC_OPTIONAL);
}

/* Member @key there, a JSON null included. */
static bool present(struct json_object *o, const char *key)
{
	return o && json_object_is_type(o, json_type_object) &&
	       json_object_object_get_ex(o, key, NULL);
}

/* Member @key is a number (integer or double). */
static struct json_object *number(struct json_object *o, const char *key)
{
	struct json_object *v = obj(o, key);

	return json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)
		       ? v
		       : NULL;
}

static double dbl(struct json_object *o, const char *key, double dflt)
{
	struct json_object *v = number(o, key);

	return v ? json_object_get_double(v) : dflt;
}

static long long i64(struct json_object *o, const char *key, long long dflt)
{
	struct json_object *v = number(o, key);

	return v ? json_object_get_int64(v) : dflt;
}

static bool boolean(struct json_object *o, const char *key)
{
	struct json_object *v = obj(o, key);

	return v && json_object_get_boolean(v);
}

/* A string member, borrowed; "" when absent or of another type. */
static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v = obj(o, key);

	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

static size_t len(struct json_object *a)
{
	return a && json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

static struct json_object *at(struct json_object *a, size_t i)
{
	return i < len(a) ? json_object_array_get_idx(a, i) : NULL;
}

/* An array of @n elements of @size bytes (NULL for none); sets in->oom on failure. */
static void *alloc(struct bc_suite_input *in, size_t n, size_t size)
{
	void *p;

	if (!n)
		return NULL;
	p = calloc(n, size);
	if (!p)
		in->oom = true;
	return p;
}

/* The object findings of array @fs into a new array; its length in *@n. */
static struct bc_si_finding *findings(struct bc_suite_input *in, struct json_object *fs, size_t *n)
{
	struct bc_si_finding *out = alloc(in, len(fs), sizeof(*out));

	*n = 0;
	for (size_t i = 0; out && i < len(fs); i++) {
		struct json_object *f = at(fs, i);

		if (!json_object_is_type(f, json_type_object))
			continue;
		out[*n] = (struct bc_si_finding){.obj = f,
						 .id = str(f, "id"),
						 .subject = str(f, "subject"),
						 .severity = str(f, "severity")};
		(*n)++;
	}
	return out;
}

static void end(struct bc_suite_input *in, struct json_object *doc, int e)
{
	static const char *const ends[2] = {"client", "agent"};
	struct bc_si_end *x = &in->end[e];
	struct json_object *bs = obj(obj(obj(doc, "ends"), ends[e]), "bonds");
	struct json_object *b = at(bs, 0), *ad, *sl, *eg, *bond;
	size_t nf = 0;

	x->active_slave = x->ad_status = x->egress_name = x->egress_mode = "";
	for (size_t k = 0; k < len(bs); k++)
		nf += len(obj(at(bs, k), "findings"));
	x->finding = alloc(in, nf, sizeof(*x->finding));
	for (size_t k = 0; x->finding && k < len(bs); k++) {
		size_t m = 0;
		struct bc_si_finding *f = findings(in, obj(at(bs, k), "findings"), &m);

		if (f)
			memcpy(x->finding + x->n_findings, f, m * sizeof(*f));
		x->n_findings += m;
		free(f);
	}
	if (b) {
		x->have_bond = true;
		x->has_mode = number(b, "mode_number") != NULL;
		x->mode_number = i64(b, "mode_number", -1);
		x->active_slave = str(b, "active_slave");
		ad = obj(b, "ad_info");
		x->ad_status = str(ad, "status");
		x->has_ad_aggregator_id = number(ad, "aggregator_id") != NULL;
		x->ad_aggregator_id = i64(ad, "aggregator_id", -1);
		sl = obj(b, "slaves");
		x->slave = alloc(in, len(sl), sizeof(*x->slave));
		for (size_t i = 0; x->slave && i < len(sl); i++) {
			struct json_object *s = at(sl, i);
			struct bc_si_islave *y = &x->slave[x->n_slaves++];

			y->name = str(s, "name");
			y->mii_status = str(s, "mii_status");
			y->driver = str(s, "driver");
			y->speed_present = present(s, "speed_mbps");
			y->has_speed = number(s, "speed_mbps") != NULL;
			y->speed_mbps = i64(s, "speed_mbps", 0);
			y->has_aggregator_id = number(s, "aggregator_id") != NULL;
			y->aggregator_id = i64(s, "aggregator_id", -1);
		}
	}
	eg = obj(obj(doc, "egress"), ends[e]);
	if (!eg)
		return;
	x->have_egress = true;
	x->egress_name = str(eg, "name");
	bond = obj(eg, "bond");
	x->egress_is_bond = bond != NULL;
	x->egress_mode = str(obj(bond, "options"), "mode");
	sl = bond ? obj(bond, "slaves") : NULL;
	x->eslave = alloc(in, bond ? len(sl) : 1, sizeof(*x->eslave));
	for (size_t i = 0; x->eslave && i < (bond ? len(sl) : 1); i++) {
		struct json_object *s = bond ? at(sl, i) : eg;
		struct bc_si_eslave *y = &x->eslave[x->n_eslaves++];

		y->name = str(s, "name");
		y->driver = str(s, "driver");
		y->has_tbf = present(s, "tbf_bps");
		y->has_mtu = present(s, "mtu");
		y->has_speed = present(s, "speed_mbps");
		y->has_driver = present(s, "driver");
		y->has_virtual = present(s, "virtual");
		y->tbf_bps = dbl(s, "tbf_bps", 0);
		y->speed_mbps = i64(s, "speed_mbps", 0);
		y->mtu = i64(s, "mtu", 1500);
		y->virt = boolean(s, "virtual");
	}
}

static void stream(struct bc_suite_input *in, struct json_object *s, struct bc_si_stream *y)
{
	struct json_object *ti = obj(obj(s, "sender"), "tcp_info");
	struct json_object *d = obj(obj(s, "reordering"), "reorder_density");

	y->id = i64(s, "id", -1);
	y->client_port = i64(s, "client_port", -1);
	y->retransmits = i64(s, "retransmits", 0);
	y->received_packets = i64(s, "received_packets", 0);
	y->out_of_order_packets = i64(s, "out_of_order_packets", 0);
	y->reord_seen = i64(ti, "reord_seen", 0);
	y->dsack_dups = i64(ti, "dsack_dups", 0);
	y->j_client_port = obj(s, "client_port");
	y->j_agent_port = obj(s, "agent_port");
	y->j_goodput_bps = obj(s, "goodput_bps");
	y->j_retransmits = obj(s, "retransmits");
	y->j_reord_seen = obj(ti, "reord_seen");
	y->j_dsack_dups = obj(ti, "dsack_dups");
	y->j_reordering = obj(ti, "reordering");
	y->j_rtt_us = obj(ti, "rtt_us");
	if (!json_object_is_type(d, json_type_object))
		return;
	y->bin = alloc(in, (size_t)json_object_object_length(d), sizeof(*y->bin));
	if (!y->bin)
		return;
	json_object_object_foreach(d, k, v)
	{
		y->bin[y->n_bins++] =
			(struct bc_si_bin){.key = k, .count = json_object_get_int64(v)};
	}
}

static void ifcs(struct bc_suite_input *in, struct json_object *res, struct bc_si_result *r)
{
	static const char *const ends[2] = {"client", "agent"};

	for (int e = 0; e < 2; e++) {
		struct json_object *io =
			obj(obj(obj(obj(res, "ends"), ends[e]), "counters"), "interfaces");

		if (!json_object_is_type(io, json_type_object))
			continue;
		r->ifc[e] = alloc(in, (size_t)json_object_object_length(io), sizeof(*r->ifc[e]));
		if (!r->ifc[e])
			continue;
		json_object_object_foreach(io, k, v)
		{
			r->ifc[e][r->n_ifc[e]++] = (struct bc_si_ifc){
				.name = k,
				.qdisc_drops = i64(v, "qdisc_drops", 0),
				.tx_dropped = i64(v, "tx_dropped", 0),
				.rx_dropped = i64(v, "rx_dropped", 0),
				.rx_missed_errors = i64(v, "rx_missed_errors", 0),
				.rx_over_errors = i64(v, "rx_over_errors", 0),
			};
		}
	}
}

/*
 * The verdicts that read the per-link rows of test @name (bondcheck/suite-doc.h's
 * BC_SUITE_DOC_*, as bits): the model's per-slave shares of tcp-k (Aggregation)
 * and of udp-over (UDP gap), Drivers' per-link judgement of both; 0 for the others.
 */
static unsigned row_readers(const char *name)
{
	if (!strcmp(name, "tcp-k"))
		return 1u << BC_SUITE_DOC_AGG | 1u << BC_SUITE_DOC_DRV;
	if (!strcmp(name, "udp-over"))
		return 1u << BC_SUITE_DOC_UDP | 1u << BC_SUITE_DOC_DRV;
	return 0;
}

/*
 * What the rows of test @name need from its capture analysis @an: each
 * link's forward wire bytes (its share of the test's goodput; absent, the
 * link carried nothing, and the model blamed hash placement for it) and
 * the test's protocol (which ceiling a row is judged against; absent, a
 * UDP test's rows were judged against the TCP ceilings).  Recorded in
 * in->need[] of the verdicts that read those rows, when the client's
 * interface is a bond (one interface: its share is the whole, and neither
 * verdict reads it).  Called after end(): in->end[0] is decoded.
 */
static void analysis_need(struct bc_suite_input *in, const char *name, struct json_object *tp,
			  struct json_object *an)
{
	unsigned w = row_readers(name);
	struct json_object *ls = obj(an, "links");
	char p[96], pl[128];
	double v;

	if (!in->end[0].egress_is_bond)
		return;
	for (int k = 0; k < 3; k++) {
		char proto[8];

		if (!(w & 1u << k))
			continue;
		snprintf(p, sizeof(p), "tests[%s].result.test", name);
		if (k == BC_SUITE_DOC_DRV)
			bc_doc_str(&in->need[k], tp, p, "protocol", BC_DOC_REQUIRED, proto,
				   sizeof(proto));
		for (size_t i = 0; i < len(ls); i++) {
			snprintf(pl, sizeof(pl),
				 "tests[%s].result.capture.analysis.links[%zu].forward", name, i);
			bc_doc_dbl(&in->need[k], obj(at(ls, i), "forward"), pl, "wire_bytes",
				   BC_DOC_REQUIRED, &v);
		}
	}
}

static void analysis(struct bc_suite_input *in, struct json_object *an, struct bc_si_result *r)
{
	struct json_object *ls = obj(an, "links"), *fl = obj(an, "flows");

	if (!an)
		return;
	r->has_analysis = true;
	r->j_ledger = obj(an, "ledger");
	r->j_ledger_direction = obj(an, "ledger_direction");
	r->j_reordering = obj(an, "reordering");
	r->link = alloc(in, len(ls), sizeof(*r->link));
	for (size_t i = 0; r->link && i < len(ls); i++) {
		struct json_object *l = at(ls, i), *fw = obj(l, "forward");
		struct bc_si_link *y = &r->link[r->n_links++];

		y->name = str(l, "name");
		y->side = str(l, "side");
		y->peer = str(l, "peer");
		y->j_peer = obj(l, "peer");
		y->wire_bytes = dbl(fw, "wire_bytes", 0);
		y->wire_bps = dbl(fw, "wire_bps", 0);
		y->frames = i64(fw, "frames", 0);
		y->lost = i64(l, "lost", 0);
	}
	r->flow = alloc(in, len(fl), sizeof(*r->flow));
	for (size_t i = 0; r->flow && i < len(fl); i++) {
		struct json_object *f = at(fl, i), *fls = obj(f, "links");
		struct bc_si_flow *y = &r->flow[r->n_flows++];

		y->forward = !strcmp(str(f, "direction"), "forward");
		y->sport = i64(f, "sport", -1);
		y->link = alloc(in, len(fls), sizeof(*y->link));
		for (size_t k = 0; y->link && k < len(fls); k++)
			y->link[y->n_links++] = json_object_get_string(at(fls, k));
	}
}

static struct bc_si_result *result(struct bc_suite_input *in, const char *name,
				   struct json_object *res)
{
	struct bc_si_result *r = alloc(in, 1, sizeof(*r));
	struct json_object *tp = obj(res, "test"), *st = obj(res, "streams"), *ts, *pl;
	size_t nf = 0;

	if (!r)
		return NULL;
	r->protocol = str(tp, "protocol");
	r->has_ip_version = number(tp, "ip_version") != NULL;
	r->ip_version = i64(tp, "ip_version", 0);
	r->has_length = number(tp, "length") != NULL;
	r->length = i64(tp, "length", 0);
	ts = obj(obj(obj(obj(obj(res, "ends"), "client"), "metadata"), "sysctls"),
		 "net.ipv4.tcp_timestamps");
	r->tcp_timestamps =
		json_object_is_type(ts, json_type_string) ? json_object_get_string(ts) : NULL;
	r->goodput_bps = dbl(res, "goodput_bps", 0);
	r->stream = alloc(in, len(st), sizeof(*r->stream));
	for (size_t i = 0; r->stream && i < len(st); i++)
		stream(in, at(st, i), &r->stream[r->n_streams++]);
	ifcs(in, res, r);
	pl = obj(obj(res, "placement"), "streams");
	r->placed_id = alloc(in, len(pl), sizeof(*r->placed_id));
	r->placed_slave = alloc(in, len(pl), sizeof(*r->placed_slave));
	for (size_t i = 0; r->placed_id && r->placed_slave && i < len(pl); i++, r->n_placed++) {
		r->placed_id[i] = i64(at(pl, i), "id", -2);
		r->placed_slave[i] = str(at(pl, i), "predicted_slave");
	}
	analysis(in, obj(obj(res, "capture"), "analysis"), r);
	if (r->has_analysis)
		analysis_need(in, name, tp, obj(obj(res, "capture"), "analysis"));
	r->finding = findings(in, obj(res, "findings"), &nf);
	r->n_findings = nf;
	return r;
}

void bc_suite_trial_from_json(struct json_object *o, struct bc_udp_trial *t)
{
	*t = (struct bc_udp_trial){
		.rate_bps = dbl(o, "rate_bps", 0),
		.sent_bps = dbl(o, "sent_bps", 0),
		.sent = (uint64_t)i64(o, "sent_packets", 0),
		.received = (uint64_t)i64(o, "received_packets", 0),
		.refused = (uint64_t)i64(o, "refused", 0),
		.received_bps = dbl(o, "received_bps", 0),
	};
}

double bc_suite_sent_bps(struct json_object *res)
{
	struct json_object *st = obj(res, "streams"), *tp = obj(res, "test");
	double secs = (dbl(tp, "duration_ms", 0) - dbl(tp, "omit_ms", 0)) / 1000;
	double bytes = 0;

	for (size_t i = 0; i < len(st); i++)
		bytes += dbl(at(st, i), "sent_bytes", 0);
	return secs > 0 ? 8 * bytes / secs : 0;
}

int bc_suite_input_read(struct json_object *doc, struct bc_suite_input *in)
{
	struct json_object *opt = obj(doc, "options"), *ts = obj(doc, "tests"), *tr;
	size_t nf = 0;

	memset(in, 0, sizeof(*in));
	bc_doc_read_init(&scratch);
	for (int w = 0; w < 3; w++)
		bc_doc_read_init(&in->need[w]);
	in->kind = str(doc, "kind");
	in->has_ip_version = number(opt, "ip_version") != NULL;
	in->ip_version = i64(opt, "ip_version", 4);
	in->has_udp_length = number(opt, "udp_length") != NULL;
	in->udp_length = i64(opt, "udp_length", 0);
	in->link_rate_bps = dbl(opt, "link_rate_bps", 0);
	in->link_accounting = str(opt, "link_accounting");
	for (int e = 0; e < 2; e++)
		end(in, doc, e);
	in->test = alloc(in, len(ts), sizeof(*in->test));
	for (size_t i = 0; in->test && i < len(ts); i++) {
		struct json_object *t = at(ts, i), *res = obj(t, "result");
		struct bc_si_test *y = &in->test[in->n_tests++];

		y->name = str(t, "name");
		y->role = str(t, "role");
		y->res = res ? result(in, y->name, res) : NULL;
	}
	in->udp_search = obj(doc, "udp_search");
	tr = obj(in->udp_search, "trials");
	in->has_trial_length = number(at(tr, 0), "length") != NULL;
	in->trial_length = i64(at(tr, 0), "length", 0);
	in->trial = alloc(in, len(tr), sizeof(*in->trial));
	for (size_t i = 0; in->trial && i < len(tr); i++) {
		struct bc_si_trial *y = &in->trial[in->n_trials++];

		y->obj = at(tr, i);
		bc_suite_trial_from_json(y->obj, &y->t);
	}
	in->placement_finding = findings(in, obj(obj(doc, "placement"), "findings"), &nf);
	in->n_placement_findings = nf;
	return in->oom ? -ENOMEM : 0;
}

static void result_free(struct bc_si_result *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n_streams; i++)
		free(r->stream[i].bin);
	free(r->stream);
	free(r->ifc[0]);
	free(r->ifc[1]);
	free(r->placed_id);
	free(r->placed_slave);
	free(r->link);
	for (size_t i = 0; i < r->n_flows; i++)
		free(r->flow[i].link);
	free(r->flow);
	free(r->finding);
	free(r);
}

void bc_suite_input_free(struct bc_suite_input *in)
{
	for (int e = 0; e < 2; e++) {
		free(in->end[e].slave);
		free(in->end[e].finding);
		free(in->end[e].eslave);
	}
	for (size_t i = 0; i < in->n_tests; i++)
		result_free(in->test[i].res);
	free(in->test);
	free(in->trial);
	free(in->placement_finding);
	memset(in, 0, sizeof(*in));
}

const struct bc_si_result *bc_suite_input_result(const struct bc_suite_input *in, const char *name)
{
	for (size_t i = 0; i < in->n_tests; i++)
		if (!strcmp(in->test[i].name, name))
			return in->test[i].res;
	return NULL;
}

void bc_suite_input_need(const struct bc_suite_input *in, struct bc_suite_doc *d)
{
	for (int w = 0; w < 3; w++) {
		const struct bc_doc_read *s = &in->need[w];

		for (size_t i = 0; i < s->n_problems; i++) {
			struct bc_doc_read *t = &d->need[w];
			size_t k = t->n_problems++;

			if (k < BC_DOC_MAX_PROBLEMS && i < BC_DOC_MAX_PROBLEMS)
				memcpy(t->problem[k], s->problem[i], BC_DOC_PROBLEM_LEN);
		}
	}
}
