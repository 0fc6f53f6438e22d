// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The suite document's reader (bondcheck/suite-doc.h): one walk of the
 * json-c tree into struct bc_suite_doc, with the strict readers of
 * bondcheck/doc-read.h.  The only place in the suite's verdict path that
 * looks members up by key.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/model.h"
#include "bondcheck/suite-doc.h"

/* Problems of optional members (a wrong type): read, then dropped. */
static _Thread_local struct bc_doc_read scratch;

/* Member @key of object @o is there, a JSON null included (doc-read.h takes null as absent). */
static bool present(struct json_object *o, const char *key)
{
	return o && json_object_is_type(o, json_type_object) &&
	       json_object_object_get_ex(o, key, NULL);
}

/* Element @i of array @a (borrowed), NULL past its end. */
static struct json_object *at(struct json_object *a, size_t i)
{
	return a && json_object_is_type(a, json_type_array) && i < json_object_array_length(a)
		       ? json_object_array_get_idx(a, i)
		       : NULL;
}

/* Optional members with the struct's own unknown. */
static double dbl(struct json_object *o, const char *path, const char *key, double unknown)
{
	double v = unknown;

	bc_doc_dbl(&scratch, o, path, key, BC_DOC_OPTIONAL, &v);
	return v;
}

static long long i64(struct json_object *o, const char *path, const char *key, long long unknown)
{
	int64_t v = unknown;

	bc_doc_i64(&scratch, o, path, key, BC_DOC_OPTIONAL, &v);
	return v;
}

static bool boolean(struct json_object *o, const char *path, const char *key)
{
	bool v = false;

	bc_doc_bool(&scratch, o, path, key, BC_DOC_OPTIONAL, &v);
	return v;
}

static void str(struct json_object *o, const char *path, const char *key, char *out, size_t len)
{
	out[0] = '\0';
	bc_doc_str(&scratch, o, path, key, BC_DOC_OPTIONAL, out, len);
}

static struct json_object *obj(struct json_object *o, const char *path, const char *key)
{
	return bc_doc_member(&scratch, o, path, key, BC_DOC_OPTIONAL);
}

static struct json_object *arr(struct json_object *o, const char *path, const char *key, size_t *n)
{
	return bc_doc_array(&scratch, o, path, key, BC_DOC_OPTIONAL, n);
}

/* A number that verdict @w needs: absent or mistyped is recorded in d->need[@w]. */
static double need_dbl(struct bc_suite_doc *d, enum bc_suite_doc_for w, struct json_object *o,
		       const char *path, const char *key)
{
	double v = NAN;

	bc_doc_dbl(&d->need[w], o, path, key, BC_DOC_REQUIRED, &v);
	return v;
}

static long long need_i64(struct bc_suite_doc *d, enum bc_suite_doc_for w, struct json_object *o,
			  const char *path, const char *key)
{
	int64_t v = -1;

	bc_doc_i64(&d->need[w], o, path, key, BC_DOC_REQUIRED, &v);
	return v;
}

static void finding(struct json_object *o, const char *path, struct bc_suite_doc_finding *f)
{
	struct json_object *ev, *c;
	char p[96];
	size_t k = 0;

	memset(f, 0, sizeof(*f));
	str(o, path, "id", f->id, sizeof(f->id));
	str(o, path, "subject", f->subject, sizeof(f->subject));
	bc_doc_path(p, sizeof(p), path, "evidence", 0);
	ev = obj(o, path, "evidence");
	f->count = -1;
	c = obj(ev, p, "count");
	/* the ledger's findings write their counts as decimal strings */
	if (json_object_is_type(c, json_type_string))
		f->count = atoll(json_object_get_string(c));
	else if (c)
		f->count = i64(ev, p, "count", -1);
	str(ev, p, "host", f->host, sizeof(f->host));
	str(ev, p, "counter", f->counter, sizeof(f->counter));
	str(ev, p, "drivers", f->drivers, sizeof(f->drivers));
	str(ev, p, "speeds_mbps", f->speeds_mbps, sizeof(f->speeds_mbps));
	if (json_object_is_type(ev, json_type_object)) {
		json_object_object_foreach(ev, key, val)
		{
			int w;

			(void)val;
			if (k >= sizeof(f->evidence_keys))
				break;
			w = snprintf(f->evidence_keys + k, sizeof(f->evidence_keys) - k, "%s%s",
				     k ? ", " : "", key);
			k += w > 0 ? (size_t)w : 0;
		}
	}
}

static size_t findings(struct json_object *o, const char *path, struct bc_suite_doc_finding *out)
{
	struct json_object *fs;
	size_t n = 0, m = 0;
	char p[96], pi[112];

	fs = arr(o, path, "findings", &n);
	bc_doc_path(p, sizeof(p), path, "findings", 0);
	for (size_t i = 0; i < n && m < BC_SUITE_DOC_FINDINGS; i++, m++)
		finding(at(fs, i), bc_doc_path(pi, sizeof(pi), p, NULL, i), &out[m]);
	return m;
}

static void ceilings(struct json_object *doc, struct bc_suite_doc *d)
{
	static const char *const ends[2] = {"client", "agent"};
	struct json_object *c = obj(doc, "", "ceilings");

	d->mode = d->agent_mode = -1;
	for (int e = 0; e < 2; e++) {
		struct json_object *ce = obj(c, "ceilings", ends[e]), *sl;
		char p[64], pl[80], ps[96];
		size_t n = 0;

		snprintf(p, sizeof(p), "ceilings.%s", ends[e]);
		if (!e)
			d->mode = (int)i64(ce, p, "mode_number", -1);
		else
			d->agent_mode = (int)i64(ce, p, "mode_number", -1);
		sl = arr(ce, p, "slaves", &n);
		bc_doc_path(pl, sizeof(pl), p, "slaves", 0);
		for (size_t i = 0; i < n && d->n_ceil[e] < BC_SUITE_DOC_SLAVES; i++) {
			struct bc_suite_doc_ceiling *s = &d->ceil[e][d->n_ceil[e]++];
			struct json_object *o = at(sl, i), *ms;
			size_t nm = 0;

			bc_doc_path(ps, sizeof(ps), pl, NULL, i);
			str(o, ps, "name", s->name, sizeof(s->name));
			s->usable = boolean(o, ps, "usable");
			s->tcp_ceiling_bps = dbl(o, ps, "tcp_ceiling_bps", NAN);
			s->udp_ceiling_bps = dbl(o, ps, "udp_ceiling_bps", NAN);
			s->speed_mbps = i64(o, ps, "speed_mbps", -1);
			str(o, ps, "driver", s->driver, sizeof(s->driver));
			str(o, ps, "rate_source", s->rate_source, sizeof(s->rate_source));
			s->rate_bps = dbl(o, ps, "rate_bps", NAN);
			ms = arr(o, ps, "missing", &nm);
			for (size_t k = 0; k < nm && s->n_missing < BC_SUITE_DOC_MISSING; k++) {
				const char *w = json_object_get_string(at(ms, k));

				snprintf(s->missing[s->n_missing++], sizeof(s->missing[0]), "%s",
					 w ? w : "?");
			}
		}
	}
}

static void islave(struct json_object *o, const char *path, struct bc_suite_doc_islave *s)
{
	struct json_object *pl;
	char p[96];

	str(o, path, "name", s->name, sizeof(s->name));
	s->has_mii_status = present(o, "mii_status");
	s->has_duplex = present(o, "duplex");
	s->has_aggregator_id = present(o, "aggregator_id");
	s->has_partner = present(o, "partner_lacpdu");
	str(o, path, "mii_status", s->mii_status, sizeof(s->mii_status));
	str(o, path, "duplex", s->duplex, sizeof(s->duplex));
	s->aggregator_id = i64(o, path, "aggregator_id", -1);
	pl = obj(o, path, "partner_lacpdu");
	bc_doc_path(p, sizeof(p), path, "partner_lacpdu", 0);
	s->partner_key = i64(pl, p, "oper_key", -1);
	s->partner_prio = i64(pl, p, "system_priority", -1);
	str(pl, p, "system_mac", s->partner_mac, sizeof(s->partner_mac));
}

static void bonds(struct json_object *doc, struct bc_suite_doc *d)
{
	static const char *const ends[2] = {"client", "agent"};
	struct json_object *en = obj(doc, "", "ends");

	for (int e = 0; e < 2; e++) {
		struct bc_suite_doc_bond *b = &d->bond[e];
		struct json_object *bs, *o, *ai, *sl;
		char p[64], ps[96];
		size_t n = 0;

		snprintf(p, sizeof(p), "ends.%s", ends[e]);
		bs = arr(obj(en, "ends", ends[e]), p, "bonds", &n);
		o = at(bs, 0);
		b->ad_info_aggregator_id = -1;
		if (!o)
			continue;
		b->have = true;
		snprintf(p, sizeof(p), "ends.%s.bonds[0]", ends[e]);
		str(o, p, "name", b->name, sizeof(b->name));
		b->has_active_slave = present(o, "active_slave");
		b->has_ad_select = present(o, "ad_select");
		b->has_primary = present(o, "primary");
		b->has_primary_reselect = present(o, "primary_reselect");
		b->has_ad_info = present(o, "ad_info");
		str(o, p, "active_slave", b->active_slave, sizeof(b->active_slave));
		str(o, p, "ad_select", b->ad_select, sizeof(b->ad_select));
		str(o, p, "primary", b->primary, sizeof(b->primary));
		str(o, p, "primary_reselect", b->primary_reselect, sizeof(b->primary_reselect));
		b->ad_user_port_key = i64(o, p, "ad_user_port_key", 0);
		ai = obj(o, p, "ad_info");
		bc_doc_path(ps, sizeof(ps), p, "ad_info", 0);
		str(ai, ps, "status", b->ad_info_status, sizeof(b->ad_info_status));
		b->ad_info_aggregator_id = i64(ai, ps, "aggregator_id", -1);
		n = 0;
		sl = arr(o, p, "slaves", &n);
		for (size_t i = 0; i < n && b->n_slaves < BC_SUITE_DOC_SLAVES; i++) {
			char pp[96];

			snprintf(pp, sizeof(pp), "%s.slaves[%zu]", p, i);
			islave(at(sl, i), pp, &b->slave[b->n_slaves++]);
		}
		b->n_findings = findings(o, p, b->finding);
	}
}

/* Either end's counters say cpu_bound, or a stream was limited by its CPU. */
static bool cpu_bound(struct json_object *res, const char *path)
{
	static const char *const ends[2] = {"client", "agent"};
	struct json_object *en = obj(res, path, "ends"), *st;
	size_t n = 0;

	for (int e = 0; e < 2; e++)
		if (boolean(obj(obj(en, path, ends[e]), path, "counters"), path, "cpu_bound"))
			return true;
	st = arr(res, path, "streams", &n);
	for (size_t i = 0; i < n; i++) {
		char lim[16];

		str(at(st, i), path, "limited_by", lim, sizeof(lim));
		if (!strcmp(lim, "cpu"))
			return true;
	}
	return false;
}

/* doc.tests[] member named @name: its result into @r. */
static void result(struct bc_suite_doc *d, struct json_object *doc, const char *name,
		   struct bc_suite_doc_result *r)
{
	struct json_object *ts, *res = NULL, *st, *an, *led, *fr, *tp, *snmp;
	enum bc_suite_doc_for w = !strncmp(name, "udp", 3) ? BC_SUITE_DOC_UDP : BC_SUITE_DOC_AGG;
	double bytes = 0, secs;
	char p[64], pa[96], ps[112], pi[128];
	size_t n = 0;

	ts = arr(doc, "", "tests", &n);
	for (size_t i = 0; i < n && !res; i++) {
		char nm[32];

		str(at(ts, i), "tests", "name", nm, sizeof(nm));
		if (!strcmp(nm, name))
			res = obj(at(ts, i), "tests", "result");
	}
	r->goodput_bps = r->length_bytes = r->duration_ms = NAN;
	if (!res)
		return;
	r->have = true;
	snprintf(p, sizeof(p), "tests[%s].result", name);
	/* the carried level of the test's verdict; the baseline is evidence only */
	if (!strcmp(name, "tcp-1"))
		r->goodput_bps = dbl(res, p, "goodput_bps", NAN);
	else
		r->goodput_bps = need_dbl(d, w, res, p, "goodput_bps");
	r->cpu_bound = cpu_bound(res, p);
	st = arr(res, p, "streams", &r->n_streams);
	for (size_t i = 0; i < r->n_streams; i++) {
		struct json_object *s = at(st, i);

		bc_doc_path(ps, sizeof(ps), p, "streams", 0);
		bc_doc_path(pi, sizeof(pi), ps, NULL, i);
		r->offered_bps += dbl(s, pi, "offered_bps", 0);
		bytes += dbl(s, pi, "sent_bytes", 0);
		if (w == BC_SUITE_DOC_UDP && !strcmp(name, "udp-over")) {
			long long v = need_i64(d, w, s, pi, "sent_packets");

			r->sent_packets += v > 0 ? (uint64_t)v : 0;
			v = need_i64(d, w, s, pi, "received_packets");
			r->received_packets += v > 0 ? (uint64_t)v : 0;
		}
		r->send_errors += (uint64_t)i64(s, pi, "send_errors", 0);
	}
	tp = obj(res, p, "test");
	secs = (dbl(tp, p, "duration_ms", 0) - dbl(tp, p, "omit_ms", 0)) / 1000;
	str(tp, p, "direction", r->direction, sizeof(r->direction));
	r->length_bytes = dbl(tp, p, "length", NAN);
	r->duration_ms = dbl(tp, p, "duration_ms", NAN);
	r->sent_bps = secs > 0 ? 8 * bytes / secs : 0;
	snmp = obj(obj(obj(obj(res, p, "ends"), p, "client"), p, "counters"), p, "snmp");
	r->snd_buf_errors = i64(snmp, p, "Udp.SndbufErrors", 0);
	snprintf(pa, sizeof(pa), "%s.capture.analysis", p);
	an = obj(obj(res, p, "capture"), p, "analysis");
	led = arr(an, pa, "ledger", &n);
	for (size_t i = 0; i < n && r->n_stages < BC_SUITE_DOC_STAGES; i++) {
		struct bc_suite_doc_stage *s = &r->stage[r->n_stages++];

		bc_doc_path(ps, sizeof(ps), pa, "ledger", 0);
		bc_doc_path(pi, sizeof(pi), ps, NULL, i);
		str(at(led, i), pi, "stage", s->stage, sizeof(s->stage));
		s->drop = i64(at(led, i), pi, "drop", 0);
		str(at(led, i), pi, "counter", s->counter, sizeof(s->counter));
	}
	fr = obj(an, pa, "fragments");
	r->fragmented =
		i64(fr, pa, "messages_arrived", 0) > 0 || i64(fr, pa, "fragments_arrived", 0) > 0;
	r->has_reassembly = present(an, "reassembly");
	str(obj(an, pa, "reassembly"), pa, "reason", r->reasm_reason, sizeof(r->reasm_reason));
	r->n_findings = findings(res, p, r->finding);
}

static void search(struct json_object *doc, struct bc_suite_doc *d)
{
	struct json_object *us = obj(doc, "", "udp_search"), *tr;
	size_t n = 0;

	d->no_drop_bps = d->resolution_bps = NAN;
	tr = arr(us, "udp_search", "trials", &n);
	d->has_search = n > 0;
	if (!n)
		return;
	/* written by the analysis (suite.c's search summary) */
	d->no_drop_bps = need_dbl(d, BC_SUITE_DOC_UDP, us, "udp_search", "no_drop_rate_bps");
	d->resolution_bps = dbl(us, "udp_search", "resolution_bps", NAN);
	for (size_t i = 0; i < n && d->n_trials < BC_SUITE_DOC_TRIALS; i++) {
		struct bc_suite_trial *t = &d->trial[d->n_trials++];
		char p[48];

		snprintf(p, sizeof(p), "udp_search.trials[%zu]", i);
		/* the search's no-drop rate (suite.c) is computed from these: an
		 * absent one there was 0, and an absent "refused" a clean trial */
		need_dbl(d, BC_SUITE_DOC_UDP, at(tr, i), p, "rate_bps");
		need_i64(d, BC_SUITE_DOC_UDP, at(tr, i), p, "sent_packets");
		need_i64(d, BC_SUITE_DOC_UDP, at(tr, i), p, "received_packets");
		need_i64(d, BC_SUITE_DOC_UDP, at(tr, i), p, "refused");
		t->no_drop = boolean(at(tr, i), p, "no_drop");
		t->cpu_bound = boolean(at(tr, i), p, "cpu_bound");
		t->effective_bps = dbl(at(tr, i), p, "effective_bps", NAN);
	}
}

static void rows(struct json_object *doc, struct bc_suite_doc *d)
{
	struct json_object *a;
	size_t n = 0;

	a = arr(doc, "", "links", &n);
	for (size_t i = 0; i < n && d->n_rows < BC_SUITE_DOC_ROWS; i++) {
		struct bc_suite_doc_row *r = &d->row[d->n_rows];
		struct json_object *o = at(a, i);
		char p[32];

		snprintf(p, sizeof(p), "links[%zu]", i);
		str(o, p, "test", r->test, sizeof(r->test));
		/* the verdicts read the aggregate test and the over-rate probe only
		 * (the search trials' rows would crowd them out) */
		if (strcmp(r->test, "tcp-k") && strcmp(r->test, "udp-over"))
			continue;
		d->n_rows++;
		str(o, p, "end", r->end, sizeof(r->end));
		str(o, p, "name", r->name, sizeof(r->name));
		str(o, p, "driver", r->driver, sizeof(r->driver));
		r->share = dbl(o, p, "share", NAN);
		r->speed_mbps = i64(o, p, "speed_mbps", -1);
		r->ceiling_bps = dbl(o, p, "ceiling_bps", NAN);
		r->goodput_bps = dbl(o, p, "goodput_bps", NAN);
		r->retransmits = i64(o, p, "retransmits", -1);
		r->frames = i64(o, p, "frames", 0);
		r->drops = i64(o, p, "drops", 0);
	}
}

void bc_suite_doc_read(struct json_object *doc, struct bc_suite_doc *d)
{
	struct json_object *pl, *tcp, *eg;
	size_t n = 0;

	memset(d, 0, sizeof(*d));
	for (int i = 0; i < 3; i++)
		bc_doc_read_init(&d->need[i]);
	bc_doc_read_init(&scratch);
	ceilings(doc, d);
	bonds(doc, d);
	pl = obj(doc, "", "placement");
	d->placed = boolean(pl, "placement", "placed");
	if (d->mode >= 0) {
		/* a bond: whether the flows were placed decides the potential of
		 * the hash modes, the UDP ceiling and Drivers' judgement */
		for (int w = 0; w < 3; w++)
			bc_doc_bool(&d->need[w], pl, "placement", "placed", BC_DOC_REQUIRED,
				    &d->placed);
	}
	str(pl, "placement", "reason", d->unplaced_reason, sizeof(d->unplaced_reason));
	d->placement_flows = i64(pl, "placement", "flows", 0);
	result(d, doc, "tcp-k", &d->tcp_k);
	result(d, doc, "tcp-1", &d->tcp_1);
	result(d, doc, "udp-over", &d->udp_over);
	search(doc, d);
	rows(doc, d);
	tcp = obj(obj(doc, "", "reordering"), "reordering", "tcp");
	d->reord_seen = i64(tcp, "reordering.tcp", "reord_seen", 0);
	d->dsack_dups = i64(tcp, "reordering.tcp", "dsack_dups", 0);
	eg = obj(obj(doc, "", "egress"), "egress", "client");
	d->has_egress_client = eg != NULL;
	arr(obj(eg, "egress.client", "bond"), "egress.client.bond", "slaves", &n);
	d->n_egress_client_slaves = n;
}
