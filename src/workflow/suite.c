// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The suite of `bondcheck run --peer HOST` (bondcheck/suite.h): inspect
 * both ends, plan, run each test through bc_client_run(), search the UDP
 * no-drop rate, probe above it, and hand the document to the analysis.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "bondcheck/json-get.h"
#include "bondcheck/names.h"
#include "bondcheck/suite-analyze.h"
#include "bondcheck/suite.h"
#include "bondcheck/udp-search.h"
#include "bondcheck/verdict.h"
#include "bondcheck/xmit-hash.h"
#include "traffic/test-end.h"
#include "workflow/end-inspect.h"
#include "workflow/place.h"

struct timing {
	uint32_t omit_ms, base_ms, tcp_ms, trial_ms, over_ms, tmax_ms;
	size_t trials;
};

/* measurement.md 5: omit 2 s, measure >= 10 s; RFC 2544 trials shortened (udp-search.h) */
static const struct timing full = {2000, 10000, 10000, 5000, 5000, 1000, BC_UDP_SEARCH_MAX_TRIALS};
static const struct timing quick = {500, 1000, 1000, 750, 1000, 300, 3};

#define OVER_RATE 1.25 /* the probe offers this multiple of the no-drop rate */

struct suite {
	const struct bc_suite_cfg *c;
	struct timing tm;
	struct json_object *doc, *tests, *errors;
	unsigned index, total;
	double left_after_s; /* planned seconds after the running test */
	int64_t t0_ns, test_start_ns;
	uint32_t test_ms;
	const char *name;
	char what[96];
};

void bc_suite_cfg_defaults(struct bc_suite_cfg *c)
{
	memset(c, 0, sizeof(*c));
	bc_client_cfg_defaults(&c->client);
}

static double test_s(const struct suite *s, uint32_t ms)
{
	return (ms + s->tm.tmax_ms) / 1000.0 + 1.0; /* + ~1 s of setup */
}

static void progress(struct suite *s)
{
	struct bc_suite_progress p;
	double in = (double)s->test_ms / 1000.0 - (double)(bc_mono_ns() - s->test_start_ns) / 1e9;

	if (!s->c->progress)
		return;
	p = (struct bc_suite_progress){s->index, s->total, s->name, s->what,
				       (in > 0 ? in : 0) + s->left_after_s};
	s->c->progress(s->c->ctx, &p);
}

static void on_interval(void *ctx, struct json_object *ivl)
{
	progress(ctx);
	json_object_put(ivl);
}

/* Run one test; on success add {name, role, result} to doc.tests. */
static int run_one(struct suite *s, const char *name, const char *role, struct bc_client_cfg *cfg,
		   double left_after_s, struct json_object **res, struct bc_error *err)
{
	struct json_object *t;
	int r;

	s->index++;
	s->name = name;
	s->test_ms = cfg->plan.duration_ms;
	s->test_start_ns = bc_mono_ns();
	s->left_after_s = left_after_s;
	progress(s);
	cfg->on_interval = on_interval;
	cfg->ctx = s;
	*res = NULL;
	r = bc_client_run(cfg, res, err);
	if (r < 0) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "test", json_object_new_string(name));
		json_object_object_add(e, "errno", json_object_new_int(-r));
		json_object_object_add(e, "message", json_object_new_string(err->msg));
		json_object_array_add(s->errors, e);
		return r;
	}
	t = json_object_new_object();
	json_object_object_add(t, "name", json_object_new_string(name));
	json_object_object_add(t, "role", json_object_new_string(role));
	json_object_object_add(t, "started_s",
			       json_object_new_double((double)(s->test_start_ns - s->t0_ns) / 1e9));
	json_object_object_add(
		t, "seconds",
		json_object_new_double((double)(bc_mono_ns() - s->test_start_ns) / 1e9));
	json_object_object_add(t, "result", *res);
	json_object_array_add(s->tests, t);
	return 0;
}

/*
 * Whether ports can place one flow per usable slave (bondcheck/xmit-hash.h):
 * else the reason, for the report.
 */
static bool placeable(const struct bc_bond *b, const struct sockaddr_storage *local,
		      const struct sockaddr_storage *peer, char *why, size_t len)
{
	int mode = bc_u32_known(&b->mode) ? (int)b->mode.v : -1;
	struct bc_flow f = {.proto = IPPROTO_TCP, .connected = true, .sport = 40000, .dport = 5302};
	struct bc_error err = {0};
	enum bc_hash_kernel k;
	struct utsname u;
	size_t slave;

	switch (mode) {
	case BC_MODE_ROUNDROBIN:
		snprintf(why, len,
			 "balance-rr sends every flow over every slave, packet by packet");
		return false;
	case BC_MODE_ACTIVEBACKUP:
		snprintf(why, len, "active-backup sends every flow on the active slave");
		return false;
	case BC_MODE_BROADCAST:
		snprintf(why, len, "broadcast sends every frame on every slave");
		return false;
	default:
		break;
	}
	if (bc_xmit_single_path(b)) {
		snprintf(why, len,
			 "hash-single-path: xmit_hash_policy %s puts every flow between two hosts "
			 "on one link",
			 b->xmit_hash_policy_name[0] ? b->xmit_hash_policy_name : "?");
		return false;
	}
	uname(&u);
	if (bc_hash_kernel_from_release(u.release, &k, &err) < 0) {
		snprintf(why, len, "%s", err.msg);
		return false;
	}
	f.family = local->ss_family;
	if (local->ss_family == AF_INET) {
		memcpy(f.src, &((const struct sockaddr_in *)local)->sin_addr, 4);
		memcpy(f.dst, &((const struct sockaddr_in *)peer)->sin_addr, 4);
	} else {
		memcpy(f.src, &((const struct sockaddr_in6 *)local)->sin6_addr, 16);
		memcpy(f.dst, &((const struct sockaddr_in6 *)peer)->sin6_addr, 16);
	}
	if (bc_xmit_slave(b, k, &f, &slave, &err) < 0) {
		snprintf(why, len, "%s", err.msg);
		return false;
	}
	return true;
}

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v;

	return o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, k, &v)
		       ? v
		       : NULL;
}

/* Capture ring per interface: 0.5 s of the fastest client slave at full size, 2..64 MiB. */
static uint32_t capture_buffer(struct json_object *doc)
{
	struct json_object *sl = get(get(get(doc, "ceilings"), "client"), "slaves");
	double max = 0;

	for (size_t i = 0; i < bc_json_len(sl); i++) {
		double r = bc_json_dbl(json_object_array_get_idx(sl, i), "rate_bps", 0);

		if (r > max)
			max = r;
	}
	if (!(max > 0))
		return 0;
	max = max / 8 / 2;
	if (max < 2.0 * (1 << 20))
		return 2u << 20;
	if (max > 64.0 * (1 << 20))
		return 64u << 20;
	return (uint32_t)max;
}

/* The test of doc.tests named @name: its result's goodput, or -1. */
static double goodput(struct suite *s, const char *name)
{
	for (size_t i = 0; i < bc_json_len(s->tests); i++) {
		struct json_object *t = json_object_array_get_idx(s->tests, i);

		if (!strcmp(bc_json_str(t, "name"), name))
			return bc_json_dbl(get(t, "result"), "goodput_bps", 0);
	}
	return -1;
}

static void fmt_rate(char *buf, size_t len, double bps)
{
	if (bps >= 1e9)
		snprintf(buf, len, "%.2f Gbit/s", bps / 1e9);
	else if (bps >= 1e6)
		snprintf(buf, len, "%.2f Mbit/s", bps / 1e6);
	else
		snprintf(buf, len, "%.0f kbit/s", bps / 1e3);
}

/* A test's plan from the suite's base configuration. */
static void tcp_cfg(const struct suite *s, struct bc_client_cfg *cfg, uint32_t streams,
		    uint32_t place_k, uint32_t ms, bool capture)
{
	*cfg = s->c->client;
	cfg->plan.proto = BC_L4_TCP;
	cfg->plan.streams = streams;
	cfg->plan.length = 128 * 1024;
	cfg->plan.omit_ms = s->tm.omit_ms;
	cfg->plan.duration_ms = s->tm.omit_ms + ms;
	cfg->plan.tmax_ms = s->tm.tmax_ms;
	cfg->plan.interval_ms = 1000;
	cfg->plan.rate_bps = 0;
	cfg->total_rate_bps = 0;
	cfg->place_k = place_k;
	cfg->streams_given = false;
	cfg->capture = capture;
	/* the bond was inspected once; TCP captures need no driver counters (no ledger) */
	cfg->plan.no_bond_meta = true;
}

static void udp_cfg(const struct suite *s, struct bc_client_cfg *cfg, uint32_t streams,
		    uint32_t place_k, uint32_t length, double rate, uint32_t ms, bool capture)
{
	*cfg = s->c->client;
	cfg->plan.proto = BC_L4_UDP;
	cfg->plan.streams = streams;
	cfg->plan.length = length;
	cfg->plan.omit_ms = 0;
	cfg->plan.duration_ms = ms;
	cfg->plan.tmax_ms = s->tm.tmax_ms;
	cfg->plan.interval_ms = 1000;
	cfg->total_rate_bps = rate;
	cfg->plan.rate_bps = (uint64_t)(rate / streams);
	cfg->place_k = place_k;
	cfg->streams_given = false;
	cfg->capture = capture;
	cfg->plan.no_bond_meta = !capture; /* the probe's ledger reads the NICs' drop counters */
}

/*
 * One trial of the search as doc.udp_search.trials[] has it: the offered
 * rate, what the senders achieved, the sends the kernel refused (the
 * larger of the senders' own count and the client's Udp SndbufErrors
 * delta: a sender counts a failed batch once), sent and received.
 */
static struct json_object *trial_json(const char *name, double rate, uint32_t length,
				      struct json_object *res, struct bc_udp_trial *t)
{
	struct json_object *o = json_object_new_object(), *st = get(res, "streams");
	struct json_object *snmp = get(get(get(get(res, "ends"), "client"), "counters"), "snmp");
	long long errs = 0, sndbuf = bc_json_i64(snmp, "Udp.SndbufErrors", 0);
	const char *lim = "none";
	double sent_bps = 0;

	for (size_t i = 0; i < bc_json_len(st); i++) {
		struct json_object *x = json_object_array_get_idx(st, i);

		errs += bc_json_i64(x, "send_errors", 0);
		if (strcmp(bc_json_str(x, "limited_by"), "none") && bc_json_str(x, "limited_by")[0])
			lim = bc_json_str(x, "limited_by");
	}
	json_object_object_add(o, "test", json_object_new_string(name));
	json_object_object_add(o, "rate_bps", json_object_new_double(rate));
	sent_bps = bc_suite_sent_bps(res);
	json_object_object_add(o, "sent_bps", json_object_new_double(sent_bps));
	json_object_object_add(o, "limited_by", json_object_new_string(lim));
	json_object_object_add(o, "length", json_object_new_int((int)length));
	{
		long long sent = 0, rcv = 0;

		for (size_t i = 0; i < bc_json_len(st); i++) {
			sent += bc_json_i64(json_object_array_get_idx(st, i), "sent_packets", 0);
			rcv += bc_json_i64(json_object_array_get_idx(st, i), "received_packets", 0);
		}
		json_object_object_add(o, "sent_packets", json_object_new_int64(sent));
		json_object_object_add(o, "received_packets", json_object_new_int64(rcv));
	}
	json_object_object_add(o, "refused", json_object_new_int64(errs > sndbuf ? errs : sndbuf));
	json_object_object_add(o, "received_bps",
			       json_object_new_double(bc_json_dbl(res, "goodput_bps", 0)));
	json_object_object_add(
		o, "cpu_bound",
		json_object_new_boolean(
			!strcmp(lim, "cpu") ||
			json_object_get_boolean(get(
				get(get(get(res, "ends"), "client"), "counters"), "cpu_bound"))));
	bc_suite_trial_from_json(o, t);
	json_object_object_add(o, "effective_bps", json_object_new_double(bc_udp_trial_rate(t)));
	json_object_object_add(o, "loss_ratio", json_object_new_double(bc_udp_trial_loss(t)));
	json_object_object_add(o, "no_drop", json_object_new_boolean(bc_udp_trial_no_drop(t)));
	return o;
}

/* This end's view, taken while the agent takes its own (bc_client_peer_inspect()). */
struct local_view {
	struct bc_snapshot *snap;
	struct json_object *doc, *egress;
	bool done;
};

static void inspect_local(void *ctx, const struct sockaddr_storage *local)
{
	struct local_view *v = ctx;

	bc_end_inspect(local, v->snap, &v->doc, &v->egress);
	v->done = true;
}

/* The client's end and the agent's, into doc.ends and doc.egress. */
static int inspect_ends(struct suite *s, struct bc_snapshot *snap, struct sockaddr_storage *local,
			struct sockaddr_storage *peer, struct bc_error *err)
{
	struct json_object *reply = NULL, *ends, *eg, *doc;
	struct local_view v = {.snap = snap};
	struct bc_error ierr = {0};
	int r;

	s->name = "inspect";
	snprintf(s->what, sizeof(s->what), "both ends' bonds");
	s->test_ms = 0;
	s->test_start_ns = bc_mono_ns();
	progress(s);
	r = bc_client_peer_inspect(&s->c->client, &reply, local, peer, inspect_local, &v, &ierr);
	if (r < 0 && (r != -EOPNOTSUPP || !v.done)) {
		json_object_put(v.doc);
		json_object_put(v.egress);
		*err = ierr;
		return r;
	}
	ends = json_object_new_object();
	eg = json_object_new_object();
	json_object_object_add(ends, "client", v.doc);
	json_object_object_add(eg, "client", v.egress);
	if (reply) {
		json_object_object_add(ends, "agent", json_object_get(get(reply, "end")));
		json_object_object_add(eg, "agent", json_object_get(get(reply, "egress")));
	} else {
		doc = json_object_new_object();
		json_object_object_add(doc, "bonds", json_object_new_array());
		json_object_object_add(doc, "error", json_object_new_string(ierr.msg));
		json_object_object_add(ends, "agent", doc);
		json_object_object_add(eg, "agent", NULL);
	}
	json_object_put(reply);
	json_object_object_add(s->doc, "ends", ends);
	json_object_object_add(s->doc, "egress", eg);
	return 0;
}

/* doc.placement and the aggregate flow count from the client's bond. */
static void plan_flows(struct suite *s, const struct bc_snapshot *snap,
		       const struct sockaddr_storage *local, const struct sockaddr_storage *peer,
		       uint32_t *k, uint32_t *place_k)
{
	struct json_object *o = json_object_new_object();
	char why[256] = "";
	bool placed = false;

	*k = 1;
	*place_k = 0;
	if (snap->n_bonds == 1) {
		const struct bc_bond *b = &snap->bonds[0];
		size_t idx[64], n = bc_xmit_usable(b, idx, 64);

		placed = n > 0 && placeable(b, local, peer, why, sizeof(why));
		if (!n)
			snprintf(why, sizeof(why), "no usable slave");
		*k = placed ? (uint32_t)n : b->n_slaves ? (uint32_t)b->n_slaves : 1;
		*place_k = placed ? 1 : 0;
		if (bc_xmit_single_path(b)) { /* tcp-k is light: the suite says it once */
			struct json_object *fs = json_object_new_array();

			bc_place_single_path_finding(fs, b, *k);
			json_object_object_add(o, "findings", fs);
		}
		json_object_object_add(o, "bond", json_object_new_string(b->name));
		json_object_object_add(o, "xmit_hash_policy",
				       b->xmit_hash_policy_name[0]
					       ? json_object_new_string(b->xmit_hash_policy_name)
					       : NULL);
	} else {
		const char *r = bc_json_str(get(get(s->doc, "ends"), "client"), "reason");
		const char *e = bc_json_str(get(get(s->doc, "ends"), "client"), "error");

		snprintf(why, sizeof(why), "%s", r[0] ? r : e[0] ? e : "no bond");
	}
	json_object_object_add(o, "placed", json_object_new_boolean(placed));
	json_object_object_add(o, "flows", json_object_new_int((int)*k));
	json_object_object_add(o, "reason", placed ? NULL : json_object_new_string(why));
	json_object_object_add(s->doc, "placement", o);
}

static void header(struct suite *s)
{
	const struct bc_client_cfg *cc = &s->c->client;
	struct json_object *o = json_object_new_object();
	char when[32];

	bc_json_generated_at(when, sizeof(when));
	json_object_object_add(s->doc, "schema_version", json_object_new_int(1));
	json_object_object_add(s->doc, "bondcheck_version", json_object_new_string(BC_VERSION));
	json_object_object_add(s->doc, "generated_at", json_object_new_string(when));
	json_object_object_add(s->doc, "kind", json_object_new_string("run-suite"));
	json_object_object_add(s->doc, "quick", json_object_new_boolean(s->c->quick));
	json_object_object_add(s->doc, "peer", json_object_new_string(cc->peer ? cc->peer : ""));
	json_object_object_add(s->doc, "incomplete", json_object_new_boolean(0));
	json_object_object_add(s->doc, "errors", json_object_get(s->errors));
	json_object_object_add(o, "omit_s", json_object_new_double(s->tm.omit_ms / 1000.0));
	json_object_object_add(o, "tcp_s", json_object_new_double(s->tm.tcp_ms / 1000.0));
	json_object_object_add(o, "trial_s", json_object_new_double(s->tm.trial_ms / 1000.0));
	json_object_object_add(o, "max_trials", json_object_new_int((int)s->tm.trials));
	json_object_object_add(o, "over_s", json_object_new_double(s->tm.over_ms / 1000.0));
	json_object_object_add(o, "base_s", json_object_new_double(s->tm.base_ms / 1000.0));
	json_object_object_add(o, "tmax_s", json_object_new_double(s->tm.tmax_ms / 1000.0));
	json_object_object_add(o, "over_rate", json_object_new_double(OVER_RATE));
	json_object_object_add(s->doc, "timing", o);
	o = json_object_new_object();
	json_object_object_add(o, "link_rate_bps",
			       cc->link_rate_bps > 0 ? json_object_new_double(cc->link_rate_bps)
						     : NULL);
	json_object_object_add(
		o, "link_accounting",
		json_object_new_string(cc->link_conv == BC_CONV_QDISC ? "tbf" : "ethernet"));
	json_object_object_add(s->doc, "options", o);
	json_object_object_add(s->doc, "tests", json_object_get(s->tests));
}

/* The search's note: RFC 2544's trial length, and what a short trial misses. */
static struct json_object *search_note(const struct suite *s)
{
	char n[400];

	snprintf(n, sizeof(n),
		 "RFC 2544 (26.1) asks for zero-loss trials of at least 60 s; this search runs at "
		 "most %zu trials of %g s, so loss that builds up over more than %g s is "
		 "missed: confirm with `bondcheck run -u -b RATE -t 60`.",
		 s->tm.trials, s->tm.trial_ms / 1000.0, s->tm.trial_ms / 1000.0);
	return json_object_new_string(n);
}

/* The suite's analysis, then the verdicts' rendered answers beside their data. */
static void analyze(struct json_object *doc)
{
	struct bc_suite_verdicts vs;

	if (bc_suite_analyze(doc, &vs, NULL) == 0)
		bc_suite_verdicts_answer(doc, &vs);
}

int bc_suite_run(const struct bc_suite_cfg *c, struct json_object **out, struct bc_error *err)
{
	struct suite s = {.c = c, .tm = c->quick ? quick : full, .t0_ns = bc_mono_ns()};
	struct bc_snapshot snap = {0};
	struct sockaddr_storage local, peer;
	struct bc_client_cfg cfg;
	struct bc_udp_trial tr[BC_UDP_SEARCH_MAX_TRIALS];
	struct bc_udp_search_result sr;
	struct json_object *res, *us, *trials, *o;
	uint32_t k, place_k, udp_len, buf, mtu;
	double start, rate, trial_s, agg_left;
	bool start_is_ceiling;
	size_t nt = 0;
	char r1[32];
	int r;

	*out = NULL;
	s.doc = json_object_new_object();
	s.tests = json_object_new_array();
	s.errors = json_object_new_array();
	s.total = 3 + (unsigned)s.tm.trials;
	header(&s);
	r = inspect_ends(&s, &snap, &local, &peer, err);
	if (r < 0)
		goto unreachable;
	plan_flows(&s, &snap, &local, &peer, &k, &place_k);
	bc_snapshot_free(&snap);
	mtu = (uint32_t)bc_json_i64(get(get(s.doc, "egress"), "client"), "mtu", 1500);
	udp_len = bc_plan_length_for_mtu(mtu, local.ss_family == AF_INET6 ? 6 : 4);
	o = get(s.doc, "options");
	json_object_object_add(o, "udp_length", json_object_new_int((int)udp_len));
	json_object_object_add(o, "ip_version",
			       json_object_new_int(local.ss_family == AF_INET6 ? 6 : 4));
	/* the ceilings before any test: where the search starts, how big the rings are */
	analyze(s.doc);
	start = bc_json_dbl(get(get(s.doc, "ceilings"), "bond"), "udp_search_start_bps", 0);
	/* --capture-buffer, else sized to the slaves */
	buf = c->client.plan.capture_buffer ? c->client.plan.capture_buffer : capture_buffer(s.doc);
	trial_s = test_s(&s, s.tm.trial_ms);
	agg_left = test_s(&s, s.tm.omit_ms + s.tm.tcp_ms) + trial_s * (double)s.tm.trials +
		   test_s(&s, s.tm.over_ms);

	snprintf(s.what, sizeof(s.what), "TCP 1 flow, %.1f s omitted + %.1f s",
		 s.tm.omit_ms / 1000.0, s.tm.base_ms / 1000.0);
	tcp_cfg(&s, &cfg, 1, 0, s.tm.base_ms, false);
	r = run_one(&s, "tcp-1", "baseline", &cfg, agg_left, &res, err);
	if (r < 0)
		goto partial;

	snprintf(s.what, sizeof(s.what), "TCP %u flows %s, capture", k,
		 place_k ? "placed one per slave" : "unplaced");
	tcp_cfg(&s, &cfg, k, place_k, s.tm.tcp_ms, true);
	cfg.plan.capture_buffer = buf;
	r = run_one(&s, "tcp-k", "aggregate", &cfg,
		    trial_s * (double)s.tm.trials + test_s(&s, s.tm.over_ms), &res, err);
	if (r < 0)
		goto partial;

	start_is_ceiling = start > 0;
	if (!start_is_ceiling)
		start = 1.1 *
			(goodput(&s, "tcp-k") > 0 ? goodput(&s, "tcp-k") : goodput(&s, "tcp-1"));
	us = json_object_new_object();
	trials = json_object_new_array();
	json_object_object_add(us, "trials", trials);
	json_object_object_add(us, "start_bps", json_object_new_double(start));
	json_object_object_add(us, "start_is_ceiling", json_object_new_boolean(start_is_ceiling));
	json_object_object_add(us, "trial_s", json_object_new_double(s.tm.trial_ms / 1000.0));
	json_object_object_add(us, "max_trials", json_object_new_int((int)s.tm.trials));
	json_object_object_add(us, "length", json_object_new_int((int)udp_len));
	json_object_object_add(us, "note", search_note(&s));
	json_object_object_add(s.doc, "udp_search", us);
	while ((rate = bc_udp_search_next(start, start_is_ceiling, tr, nt, s.tm.trials)) > 0) {
		char name[32];

		snprintf(name, sizeof(name), "udp-trial-%zu", nt + 1);
		fmt_rate(r1, sizeof(r1), rate);
		snprintf(s.what, sizeof(s.what), "UDP %u flows at %s (search, trial %zu of <= %zu)",
			 k, r1, nt + 1, s.tm.trials);
		udp_cfg(&s, &cfg, k, place_k, udp_len, rate, s.tm.trial_ms, false);
		r = run_one(&s, name, "search", &cfg,
			    trial_s * (double)(s.tm.trials - nt - 1) + test_s(&s, s.tm.over_ms),
			    &res, err);
		if (r < 0)
			goto partial;
		json_object_array_add(trials, trial_json(name, rate, udp_len, res, &tr[nt]));
		nt++;
	}
	bc_udp_search_result(tr, nt, &sr);
	rate = OVER_RATE * (sr.no_drop_bps > 0 ? sr.no_drop_bps
			    : sr.drop_bps > 0  ? sr.drop_bps
					       : start);
	fmt_rate(r1, sizeof(r1), rate);
	snprintf(s.what, sizeof(s.what), "UDP %u flows at %s (%.2fx the no-drop rate), capture", k,
		 r1, OVER_RATE);
	s.total = s.index + 1;
	udp_cfg(&s, &cfg, k, place_k, udp_len, rate, s.tm.over_ms, true);
	cfg.plan.capture_buffer = buf;
	r = run_one(&s, "udp-over", "over-rate", &cfg, 0, &res, err);
	if (r < 0)
		goto partial;
	r = 0;
	goto done;
partial:
	json_object_object_add(s.doc, "incomplete", json_object_new_boolean(1));
done:
	json_object_object_add(s.doc, "elapsed_s",
			       json_object_new_double((double)(bc_mono_ns() - s.t0_ns) / 1e9));
	analyze(s.doc);
	*out = s.doc;
	json_object_put(s.tests);
	json_object_put(s.errors);
	return r;
unreachable:
	bc_snapshot_free(&snap);
	json_object_put(s.doc);
	json_object_put(s.tests);
	json_object_put(s.errors);
	return r;
}
