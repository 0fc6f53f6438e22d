// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The workflow of `bondcheck sweep` (bondcheck/sweep.h): one bc_client_run()
 * per point and repetition; for an MTU sweep both ends' MTU is changed
 * first (workflow/sweep-mtu.c).  Statistics: analyze/sweep.c.
 */
#include <errno.h>
#include <math.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/json-get.h"
#include "bondcheck/sweep.h"
#include "bondcheck/tcp-metrics.h"
#include "workflow/sweep-int.h"

void bc_sweep_cfg_defaults(struct bc_sweep_cfg *c)
{
	memset(c, 0, sizeof(*c));
	bc_client_cfg_defaults(&c->client);
	c->repetitions = 3;
	c->stable_timeout_ms = 60000;
}

void bc_sweep_say(const struct bc_sweep_cfg *c, const char *fmt, ...)
{
	char buf[700];
	va_list ap;

	if (!c->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	c->progress(c->ctx, buf);
}

/* The client configuration of the point @v. */
static int apply(const struct bc_sweep_cfg *c, double v, struct bc_client_cfg *cc,
		 struct bc_error *err)
{
	*cc = c->client;
	switch (c->spec.param) {
	case BC_SWEEP_SIZE:
		cc->plan.length = (uint32_t)v;
		break;
	case BC_SWEEP_STREAMS:
		cc->plan.streams = (uint32_t)v;
		cc->streams_given = true;
		if (cc->total_rate_bps > 0)
			cc->plan.rate_bps = (uint64_t)(cc->total_rate_bps / v);
		break;
	case BC_SWEEP_RATE:
		cc->total_rate_bps = v;
		cc->plan.rate_bps = (uint64_t)(v / cc->plan.streams);
		break;
	case BC_SWEEP_MTU:
		/* UDP without -l: the largest unfragmented payload at this MTU */
		if (cc->plan.proto == BC_L4_UDP && !c->length_given)
			cc->plan.length = bc_plan_length_for_mtu((uint32_t)v, cc->plan.family);
		break;
	}
	return bc_plan_check(&cc->plan, NULL, err);
}

static struct json_object *run_json(unsigned rep, struct json_object *res)
{
	struct json_object *r = json_object_new_object(), *streams, *l;
	bool udp = !strcmp(bc_json_str(json_object_object_get(res, "test"), "protocol"), "udp");
	long long sent = 0, recv = 0, lost = 0, retr = 0;

	streams = json_object_object_get(res, "streams");
	for (size_t i = 0; i < bc_json_len(streams); i++) {
		struct json_object *s = json_object_array_get_idx(streams, i);

		sent += bc_json_i64(s, "sent_packets", 0);
		recv += bc_json_i64(s, "received_packets", 0);
		lost += bc_json_i64(s, "lost_packets", 0);
		retr += bc_json_i64(s, "retransmits", 0);
	}
	json_object_object_add(r, "rep", json_object_new_int((int)rep));
	json_object_object_add(r, "goodput_bps",
			       json_object_new_double(bc_json_dbl(res, "goodput_bps", 0)));
	json_object_object_add(r, "ceiling_bps",
			       json_object_new_double(bc_json_dbl(res, "ceiling_bps", 0)));
	if (udp) {
		json_object_object_add(r, "sent_packets", json_object_new_int64(sent));
		json_object_object_add(r, "received_packets", json_object_new_int64(recv));
		json_object_object_add(r, "lost_packets", json_object_new_int64(lost));
	} else {
		json_object_object_add(r, "retransmits", json_object_new_int64(retr));
	}
	l = json_object_object_get(res, "link");
	json_object_object_add(r, "mtu", json_object_new_int64(bc_json_i64(l, "mtu", 0)));
	json_object_object_add(
		r, "cpu_bound",
		json_object_new_boolean(
			json_object_get_boolean(json_object_object_get(
				json_object_object_get(
					json_object_object_get(json_object_object_get(res, "ends"),
							       "client"),
					"counters"),
				"cpu_bound")) ||
			json_object_get_boolean(json_object_object_get(
				json_object_object_get(
					json_object_object_get(json_object_object_get(res, "ends"),
							       "agent"),
					"counters"),
				"cpu_bound"))));
	return r;
}

/*
 * Every TCP run starts from the same state: forget the kernel's cached
 * metrics (cwnd, ssthresh, reordering; bondcheck/tcp-metrics.h) of the
 * peer, or the previous point's run would seed this one.  Returns 0 or a
 * negative errno with @e set (no CAP_NET_ADMIN, no tcp_metrics family, a
 * peer name that does not resolve).
 */
static int forget_tcp_metrics(const struct bc_sweep_cfg *c, struct bc_error *e)
{
	struct addrinfo hints = {0}, *ai = NULL;
	struct sockaddr_storage dst = {0};
	int r;

	hints.ai_family = c->client.family == 4 ? AF_INET :
			  c->client.family == 6 ? AF_INET6 : AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	r = getaddrinfo(c->client.peer, NULL, &hints, &ai);
	if (r != 0 || !ai)
		return bc_error_set(e, -ENOENT, "%s: %s", c->client.peer, gai_strerror(r));
	memcpy(&dst, ai->ai_addr, ai->ai_addrlen < sizeof(dst) ? ai->ai_addrlen : sizeof(dst));
	freeaddrinfo(ai);
	return bc_tcp_metrics_forget(&dst, e);
}

int bc_sweep_run_point(const struct bc_sweep_cfg *c, struct json_object *point, unsigned rep)
{
	struct bc_client_cfg cc;
	struct bc_error err = {0}, me = {0};
	struct json_object *res = NULL, *r;
	double v = bc_json_dbl(point, "value", 0);
	int rc;

	rc = apply(c, v, &cc, &err);
	if (rc == 0 && cc.plan.proto == BC_L4_TCP && forget_tcp_metrics(c, &me) < 0)
		bc_sweep_say(c, "TCP metrics not cleared: %s", me.msg);
	if (rc == 0)
		rc = bc_client_run(&cc, &res, &err);
	if (rc < 0) {
		r = json_object_new_object();
		json_object_object_add(r, "rep", json_object_new_int((int)rep));
		json_object_object_add(r, "error", json_object_new_string(err.msg));
		bc_sweep_say(c, "%s=%g run %u/%u: failed: %s", bc_sweep_param_name(c->spec.param),
			     v, rep, c->repetitions, err.msg);
	} else {
		r = run_json(rep, res);
		bc_sweep_say(c, "%s=%g run %u/%u: %.3f Mbit/s (ceiling %.3f)",
			     bc_sweep_param_name(c->spec.param), v, rep, c->repetitions,
			     bc_json_dbl(r, "goodput_bps", 0) / 1e6,
			     bc_json_dbl(r, "ceiling_bps", 0) / 1e6);
		json_object_put(res);
	}
	if (me.msg[0])
		json_object_object_add(r, "tcp_metrics_error", json_object_new_string(me.msg));
	json_object_array_add(json_object_object_get(point, "runs"), r);
	return rc;
}

static struct json_object *new_doc(const struct bc_sweep_cfg *c)
{
	struct json_object *d = json_object_new_object(), *b = json_object_new_object();
	const struct bc_plan *p = &c->client.plan;
	static const char *const units[] = {"bytes", "streams", "bit/s", "bytes"};
	char stamp[32];

	bc_json_generated_at(stamp, sizeof(stamp));
	json_object_object_add(d, "schema_version", json_object_new_int(1));
	json_object_object_add(d, "bondcheck_version", json_object_new_string(BC_VERSION));
	json_object_object_add(d, "generated_at", json_object_new_string(stamp));
	json_object_object_add(d, "kind", json_object_new_string("sweep"));
	json_object_object_add(d, "peer", json_object_new_string(c->client.peer));
	json_object_object_add(d, "protocol",
			       json_object_new_string(p->proto == BC_L4_UDP ? "udp" : "tcp"));
	json_object_object_add(d, "param",
			       json_object_new_string(bc_sweep_param_name(c->spec.param)));
	json_object_object_add(d, "unit", json_object_new_string(units[c->spec.param]));
	json_object_object_add(d, "repetitions", json_object_new_int((int)c->repetitions));
	json_object_object_add(d, "duration_ms", json_object_new_int64(p->duration_ms));
	json_object_object_add(d, "omit_ms", json_object_new_int64(p->omit_ms));
	json_object_object_add(d, "confidence", json_object_new_double(BC_SWEEP_CONFIDENCE));
	json_object_object_add(b, "streams", json_object_new_int64(p->streams));
	json_object_object_add(b, "length", json_object_new_int64(p->length));
	if (p->proto == BC_L4_UDP)
		json_object_object_add(
			b, "rate_bps",
			json_object_new_double(c->client.total_rate_bps > 0
						       ? c->client.total_rate_bps
						       : (double)p->rate_bps * p->streams));
	json_object_object_add(d, "base", b);
	return d;
}

int bc_sweep_run(const struct bc_sweep_cfg *c, struct json_object **doc, struct bc_error *err)
{
	struct json_object *d, *points, *notes;
	bool incomplete = false, cpu = false;
	const char *metrics_error = NULL;
	int r = 0;

	*doc = NULL;
	if (!c->spec.n || !c->repetitions || c->repetitions > BC_SWEEP_MAX_REPS)
		return bc_error_set(err, -EINVAL,
				    "%zu values x %u repetitions; expected 1..%d "
				    "values and 1..%d repetitions",
				    c->spec.n, c->repetitions, BC_SWEEP_MAX_VALUES,
				    BC_SWEEP_MAX_REPS);
	if (c->spec.param == BC_SWEEP_RATE && c->client.plan.proto != BC_L4_UDP)
		return bc_error_set(err, -EINVAL,
				    "--param rate sweeps the UDP offered rate; add -u (TCP runs "
				    "unpaced)");
	if (c->spec.param == BC_SWEEP_MTU && !c->allow_changes)
		return bc_error_set(err, -EINVAL,
				    "--param mtu changes the MTU on both ends; it needs "
				    "--allow-changes (and `serve --allow-changes` on the peer)");
	d = new_doc(c);
	points = json_object_new_array();
	for (size_t i = 0; i < c->spec.n; i++) {
		struct json_object *p = json_object_new_object();

		json_object_object_add(p, "value", json_object_new_double(c->spec.values[i]));
		json_object_object_add(p, "runs", json_object_new_array());
		json_object_array_add(points, p);
	}
	json_object_object_add(d, "points", points);
	if (c->spec.param == BC_SWEEP_MTU) {
		r = bc_sweep_mtu(c, d, err);
	} else {
		/* rounds over the values: drift spreads over every point */
		for (unsigned rep = 1; rep <= c->repetitions && !*c->interrupted; rep++)
			for (size_t i = 0; i < c->spec.n && !*c->interrupted; i++)
				bc_sweep_run_point(c, json_object_array_get_idx(points, i), rep);
		if (*c->interrupted)
			r = bc_error_set(err, -EINTR, "interrupted; the runs so far are reported");
	}
	notes = json_object_new_array();
	for (size_t i = 0; i < c->spec.n; i++) {
		struct json_object *p = json_object_array_get_idx(points, i);
		struct json_object *runs = json_object_object_get(p, "runs");

		bc_sweep_point_finish(p, BC_SWEEP_CONFIDENCE);
		if (bc_json_i64(p, "n", 0) < (long long)c->repetitions)
			incomplete = true;
		for (size_t k = 0; k < bc_json_len(runs); k++) {
			struct json_object *run = json_object_array_get_idx(runs, k);
			struct json_object *me = json_object_object_get(run, "tcp_metrics_error");

			cpu |= json_object_get_boolean(json_object_object_get(run, "cpu_bound"));
			if (me && !metrics_error)
				metrics_error = json_object_get_string(me);
		}
	}
	if (metrics_error) {
		char note[400];

		snprintf(note, sizeof(note),
			 "the kernel's TCP metrics of the peer could not be cleared before each "
			 "run (%s): a run may start from the cwnd, ssthresh and reordering an "
			 "earlier run taught the kernel",
			 metrics_error);
		json_object_array_add(notes, json_object_new_string(note));
	}
	if (cpu)
		json_object_array_add(notes, json_object_new_string(
						     "some runs were CPU-bound (a CPU >= 90 % busy "
						     "on an end): those points may measure the "
						     "host, not the link"));
	json_object_object_add(d, "notes", notes);
	json_object_object_add(d, "incomplete", json_object_new_boolean(incomplete));
	*doc = d;
	return r;
}
