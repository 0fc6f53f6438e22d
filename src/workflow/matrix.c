// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The controller of `bondcheck matrix` (bondcheck/matrix.h): authenticate to
 * every agent, relay each ordered pair's test with `run-to`, then the DF
 * probes, in rounds of disjoint pairs; the analysis is analyze/matrix.c.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bondcheck/client.h"
#include "bondcheck/ctl.h"
#include "bondcheck/json-get.h"
#include "bondcheck/matrix.h"
#include "workflow/agent-relay.h"
#include "workflow/client-conn.h"

/* DF probe: this many datagrams in PROBE_MS, then Tmax PROBE_MS (the plan's estimate counts it). */
#define PROBE_COUNT 10
#define PROBE_MS    BC_MATRIX_PROBE_MS

void bc_matrix_cfg_defaults(struct bc_matrix_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->port = BC_CTL_PORT;
	c->concurrency = 1;
	c->pmtu = true;
	c->connect_timeout_ms = 5000;
	bc_plan_defaults(&c->plan);
	c->plan.duration_ms = 5000;
}

struct ctl {
	const struct bc_matrix_cfg *c;
	pthread_mutex_t mu; /* progress lines from the pair threads */
	struct json_object *hosts;
	size_t done, total;
};

static void progress(struct ctl *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void progress(struct ctl *x, const char *fmt, ...)
{
	char buf[900];
	va_list ap;

	if (!x->c->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&x->mu);
	x->c->progress(x->c->ctx, buf);
	pthread_mutex_unlock(&x->mu);
}

static void client_cfg(const struct bc_matrix_cfg *c, const char *host, struct bc_client_cfg *cc)
{
	bc_client_cfg_defaults(cc);
	cc->peer = host;
	cc->port = c->port;
	cc->key = c->key;
	cc->connect_timeout_ms = c->connect_timeout_ms;
}

static const char *host_status(int r)
{
	switch (r) {
	case -EACCES:
		return "auth-failed";
	case -EBUSY:
		return "busy";
	case -EHOSTUNREACH:
	case -ENETUNREACH:
	case -ECONNREFUSED:
	case -ETIMEDOUT:
	case -ENOENT:
	case -ECONNRESET:
		return "unreachable";
	default:
		return "error";
	}
}

/* The controller's own authentication to @host: open a session, close it. */
static int check_host(const struct bc_matrix_cfg *c, const char *host, struct bc_error *err)
{
	struct bc_client_cfg cc;
	struct sockaddr_storage peer;
	int fd;

	client_cfg(c, host, &cc);
	fd = bc_client_connect(&cc, &peer, err);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/*
 * Ask agent @from to run @plan towards @to.  Returns 0 and the relayed result
 * in *@result; or -errno with the error code (the agent's, or "controller")
 * in @code and the sentence in @err.
 */
static int relay(const struct bc_matrix_cfg *c, const char *from, const char *to,
		 const struct bc_plan *plan, struct json_object **result, char *code,
		 size_t code_len, struct bc_error *err)
{
	struct bc_client_cfg cc;
	struct sockaddr_storage peer;
	struct json_object *o, *m = NULL;
	int fd, r, timeout = (int)(plan->duration_ms + plan->tmax_ms) + 60000;

	*result = NULL;
	snprintf(code, code_len, "controller");
	client_cfg(c, from, &cc);
	fd = bc_client_connect(&cc, &peer, err);
	if (fd < 0) {
		snprintf(code, code_len, "%s", host_status(fd));
		return fd;
	}
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("run-to"));
	json_object_object_add(o, "peer", json_object_new_string(to));
	json_object_object_add(o, "port", json_object_new_int(c->port));
	json_object_object_add(o, "plan", bc_plan_to_json(plan));
	r = bc_ctl_send(fd, o, 5000, err);
	json_object_put(o);
	if (r == 0)
		r = bc_ctl_recv(fd, BC_CTL_MAX_REPLY, timeout, &m, err);
	close(fd);
	if (r < 0)
		return r;
	if (!strcmp(bc_ctl_type(m), "error")) {
		snprintf(code, code_len, "%s", bc_json_str(m, "code"));
		r = bc_error_set(err, -EPROTO, "%s", bc_json_str(m, "message"));
	} else if (strcmp(bc_ctl_type(m), "relayed") ||
		   !json_object_object_get_ex(m, "result", &o)) {
		snprintf(code, code_len, "unexpected");
		r = bc_error_set(err, -EPROTO,
				 "agent %s answered run-to with '%s'; expected 'relayed' (is it an "
				 "older bondcheck without run-to?)",
				 from, bc_ctl_type(m));
	} else {
		*result = json_object_get(o);
	}
	json_object_put(m);
	return r;
}

static void pair_error(struct json_object *pair, const char *status, const char *code,
		       const char *msg)
{
	struct json_object *e = json_object_new_object();

	json_object_object_add(pair, "status", json_object_new_string(status));
	json_object_object_add(e, "code", json_object_new_string(code));
	json_object_object_add(e, "message", json_object_new_string(msg));
	json_object_object_add(pair, "error", e);
}

/* The DF probes of one pair (bc_matrix_probe_sizes) after its test. */
static void probes(struct ctl *x, struct json_object *pair, const char *from, const char *to,
		   int ip_version)
{
	const struct bc_matrix_cfg *c = x->c;
	uint32_t sizes[2];
	uint32_t mf = (uint32_t)bc_json_i64(json_object_object_get(pair, "client"), "mtu", 0);
	uint32_t mt = (uint32_t)bc_json_i64(json_object_object_get(pair, "agent"), "mtu", 0);
	size_t n = bc_matrix_probe_sizes(mf, mt, sizes);
	uint32_t hdr = ip_version == 6 ? 48 : 28;

	for (size_t i = 0; i < n; i++) {
		struct bc_plan p;
		struct bc_error err = {0};
		struct json_object *res;
		char code[64];

		if (sizes[i] <= hdr + 32) /* below the test header: nothing to probe */
			continue;
		bc_plan_defaults(&p);
		p.proto = BC_L4_UDP;
		p.family = ip_version;
		p.streams = 1;
		p.dir = BC_DIR_FORWARD;
		p.length = sizes[i] - hdr;
		p.duration_ms = PROBE_MS;
		p.interval_ms = PROBE_MS;
		p.tmax_ms = PROBE_MS;
		p.rate_bps = (uint64_t)p.length * 8 * PROBE_COUNT * 1000 / PROBE_MS;
		p.dport = c->plan.dport;
		p.df = true;
		if (relay(c, from, to, &p, &res, code, sizeof(code), &err) < 0) {
			bc_matrix_probe_add(pair, sizes[i], NULL, err.msg);
			continue;
		}
		bc_matrix_probe_add(pair, sizes[i], res, NULL);
		json_object_put(res);
	}
}

struct job {
	struct ctl *x;
	struct json_object *pair;
	unsigned from, to;
};

static void *run_pair(void *arg)
{
	struct job *j = arg;
	struct ctl *x = j->x;
	const struct bc_matrix_cfg *c = x->c;
	const char *from = c->hosts[j->from], *to = c->hosts[j->to];
	struct json_object *res = NULL;
	struct bc_error err = {0};
	char code[64], line[700];
	size_t k;

	if (relay(c, from, to, &c->plan, &res, code, sizeof(code), &err) < 0) {
		pair_error(j->pair, "failed", code, err.msg);
	} else if (bc_matrix_pair_fill(j->pair, res, &err) < 0) {
		pair_error(j->pair, "failed", "malformed", err.msg);
	} else if (c->pmtu) {
		probes(x, j->pair, from, to,
		       (int)bc_json_i64(json_object_object_get(res, "test"), "ip_version", 4));
	}
	json_object_put(res);
	pthread_mutex_lock(&x->mu);
	k = ++x->done;
	pthread_mutex_unlock(&x->mu);
	if (strcmp(bc_json_str(j->pair, "status"), "ok")) {
		progress(x, "pair %zu/%zu %s -> %s: failed (%s): %s", k, x->total, from, to, code,
			 err.msg);
	} else {
		struct json_object *eff = json_object_object_get(j->pair, "efficiency");

		snprintf(line, sizeof(line), "%.2f Mbit/s",
			 bc_json_dbl(j->pair, "goodput_bps", 0) / 1e6);
		if (eff)
			snprintf(line + strlen(line), sizeof(line) - strlen(line),
				 " (%.1f %% of %.2f)", 100 * json_object_get_double(eff),
				 bc_json_dbl(j->pair, "ceiling_bps", 0) / 1e6);
		progress(x, "pair %zu/%zu %s -> %s: %s", k, x->total, from, to, line);
	}
	return NULL;
}

static struct json_object *new_doc(const struct bc_matrix_cfg *c)
{
	struct json_object *d = json_object_new_object();
	char stamp[32], rule[32];

	bc_json_generated_at(stamp, sizeof(stamp));
	json_object_object_add(d, "schema_version", json_object_new_int(3));
	json_object_object_add(d, "bondcheck_version", json_object_new_string(BC_VERSION));
	json_object_object_add(d, "generated_at", json_object_new_string(stamp));
	json_object_object_add(d, "kind", json_object_new_string("matrix"));
	json_object_object_add(d, "protocol",
			       json_object_new_string(c->plan.proto == BC_L4_UDP ? "udp" : "tcp"));
	json_object_object_add(d, "streams", json_object_new_int64(c->plan.streams));
	json_object_object_add(d, "duration_ms", json_object_new_int64(c->plan.duration_ms));
	json_object_object_add(d, "length", json_object_new_int64(c->plan.length));
	json_object_object_add(d, "rate_bps_per_stream", json_object_new_uint64(c->plan.rate_bps));
	json_object_object_add(d, "pairs_rule",
			       json_object_new_string(bc_matrix_rule_text(&c->rule, rule, sizeof(rule))));
	json_object_object_add(d, "seed", c->rule.kind == BC_MATRIX_PAIRS_RANDOM
						  ? json_object_new_uint64(c->rule.seed)
						  : NULL);
	json_object_object_add(d, "concurrency", json_object_new_int64(c->concurrency));
	json_object_object_add(d, "port", json_object_new_int(c->port));
	json_object_object_add(d, "pmtu_probes", json_object_new_boolean(c->pmtu));
	return d;
}

/* A pair that cannot run: one of its hosts failed the controller's check. */
static struct json_object *skipped_pair(const struct bc_matrix_cfg *c, struct json_object *hosts,
					unsigned a, unsigned b)
{
	struct json_object *p = json_object_new_object();
	struct json_object *ha = json_object_array_get_idx(hosts, a);
	struct json_object *hb = json_object_array_get_idx(hosts, b);
	bool a_bad = strcmp(bc_json_str(ha, "status"), "ok") != 0;
	char line[300];

	json_object_object_add(p, "from", json_object_new_string(c->hosts[a]));
	json_object_object_add(p, "to", json_object_new_string(c->hosts[b]));
	json_object_object_add(p, "from_index", json_object_new_int((int)a));
	json_object_object_add(p, "to_index", json_object_new_int((int)b));
	json_object_object_add(p, "round", NULL);
	json_object_object_add(p, "step", NULL);
	snprintf(line, sizeof(line), "%s was not usable (%s)", c->hosts[a_bad ? a : b],
		 bc_json_str(a_bad ? ha : hb, "status"));
	pair_error(p, "skipped", "host-unreachable", line);
	return p;
}

/*
 * Run the pairs of steps [@k, @e) of the plan: one pair in this thread,
 * several in one thread each (their hosts are disjoint).
 */
static void run_step(struct job *jobs, size_t k, size_t e)
{
	pthread_t *th;
	bool *started;

	if (e - k == 1) {
		run_pair(&jobs[k]);
		return;
	}
	th = calloc(e - k, sizeof(*th));
	started = calloc(e - k, sizeof(*started));
	for (size_t i = k; th && started && i < e; i++)
		started[i - k] = pthread_create(&th[i - k], NULL, run_pair, &jobs[i]) == 0;
	for (size_t i = k; i < e; i++) {
		if (th && started && started[i - k])
			pthread_join(th[i - k], NULL);
		else
			run_pair(&jobs[i]); /* no thread: this pair runs after the others */
	}
	free(th);
	free(started);
}

int bc_matrix_run(const struct bc_matrix_cfg *c, struct json_object **doc, struct bc_error *err)
{
	struct bc_matrix_plan plan = {0};
	struct ctl x = {.c = c};
	struct json_object *d, *pairs;
	struct job *jobs = NULL;
	unsigned *usable = NULL, n_usable = 0;
	bool incomplete = false;
	int r;

	*doc = NULL;
	if (!c->key.len)
		return bc_error_set(err, -EINVAL,
				    "matrix needs --auth-key: agents relay tests only between "
				    "hosts that prove the same key");
	if (c->n_hosts < 2 || c->n_hosts > BC_MATRIX_MAX_HOSTS || !c->concurrency ||
	    c->concurrency > BC_MATRIX_MAX_CONCURRENCY)
		return bc_error_set(err, -EINVAL,
				    "%u hosts at concurrency %u; expected 2..%d hosts "
				    "and a concurrency of 1..%d",
				    c->n_hosts, c->concurrency, BC_MATRIX_MAX_HOSTS,
				    BC_MATRIX_MAX_CONCURRENCY);
	/* the plan of every host bounds the plan of those that answer */
	r = bc_matrix_plan_make(c->n_hosts, &c->rule, c->concurrency, &plan, err);
	if (r < 0)
		return r;
	if (plan.n_slots > BC_MATRIX_MAX_PAIRS) {
		char name[32];

		r = bc_error_set(err, -EINVAL,
				 "--pairs %s over %u hosts makes %zu ordered pairs; a run takes at "
				 "most %d (use --pairs ring, random:K or bisection; --plan shows "
				 "any plan)",
				 bc_matrix_rule_text(&c->rule, name, sizeof(name)), c->n_hosts,
				 plan.n_slots, BC_MATRIX_MAX_PAIRS);
		bc_matrix_plan_free(&plan);
		return r;
	}
	bc_matrix_plan_free(&plan);
	usable = calloc(c->n_hosts, sizeof(*usable));
	if (!usable)
		return bc_error_set(err, -ENOMEM, "out of memory");
	pthread_mutex_init(&x.mu, NULL);
	d = new_doc(c);
	x.hosts = json_object_new_array();
	json_object_object_add(d, "hosts", x.hosts);
	for (unsigned h = 0; h < c->n_hosts; h++) {
		struct json_object *ho = json_object_new_object();
		struct bc_error he = {0};

		json_object_object_add(ho, "name", json_object_new_string(c->hosts[h]));
		json_object_object_add(ho, "index", json_object_new_int((int)h));
		r = check_host(c, c->hosts[h], &he);
		json_object_object_add(ho, "status",
				       json_object_new_string(r < 0 ? host_status(r) : "ok"));
		if (r < 0) {
			json_object_object_add(ho, "error", json_object_new_string(he.msg));
			incomplete = true;
		} else {
			usable[n_usable++] = h;
		}
		progress(&x, "host %s: %s%s%s", c->hosts[h],
			 r < 0 ? host_status(r) : "authenticated", r < 0 ? ": " : "",
			 r < 0 ? he.msg : "");
		json_object_array_add(x.hosts, ho);
	}
	/* the rounds are made of the usable hosts only, so no step waits on a dead host */
	if (n_usable >= 2) {
		struct bc_matrix_rule rule = c->rule;
		char name[32];

		/* random:K among fewer hosts than K + 1: every other host */
		if (rule.kind == BC_MATRIX_PAIRS_RANDOM && rule.k > n_usable - 1) {
			rule.k = n_usable - 1;
			json_object_object_add(d, "pairs_rule",
					       json_object_new_string(bc_matrix_rule_text(
						       &rule, name, sizeof(name))));
		}
		r = bc_matrix_plan_make(n_usable, &rule, c->concurrency, &plan, err);
		if (r < 0)
			goto fail;
		jobs = calloc(plan.n_slots ? plan.n_slots : 1, sizeof(*jobs));
		if (!jobs) {
			r = bc_error_set(err, -ENOMEM, "out of memory");
			goto fail;
		}
	}
	json_object_object_add(d, "rounds", json_object_new_int((int)plan.n_rounds));
	json_object_object_add(d, "steps", json_object_new_int((int)plan.n_steps));
	json_object_object_add(d, "concurrent_pairs_max", json_object_new_int((int)plan.step_max));
	pairs = json_object_new_array();
	json_object_object_add(d, "pairs", pairs);
	for (size_t k = 0; jobs && k < plan.n_slots; k++) {
		struct json_object *p = json_object_new_object();
		unsigned a = usable[plan.slots[k].from], b = usable[plan.slots[k].to];

		json_object_object_add(p, "from", json_object_new_string(c->hosts[a]));
		json_object_object_add(p, "to", json_object_new_string(c->hosts[b]));
		json_object_object_add(p, "from_index", json_object_new_int((int)a));
		json_object_object_add(p, "to_index", json_object_new_int((int)b));
		json_object_object_add(p, "round", json_object_new_int((int)plan.slots[k].round));
		json_object_object_add(p, "step", json_object_new_int((int)plan.slots[k].step));
		json_object_array_add(pairs, p);
		jobs[k] = (struct job){&x, p, a, b};
	}
	/* "all": the ordered pairs of an unusable host are listed, skipped; the
	 * other rules were planned without it */
	for (unsigned a = 0; c->rule.kind == BC_MATRIX_PAIRS_ALL && a < c->n_hosts; a++)
		for (unsigned b = 0; b < c->n_hosts; b++) {
			struct json_object *ha = json_object_array_get_idx(x.hosts, a);
			struct json_object *hb = json_object_array_get_idx(x.hosts, b);

			if (a != b && (strcmp(bc_json_str(ha, "status"), "ok") ||
				       strcmp(bc_json_str(hb, "status"), "ok")))
				json_object_array_add(pairs, skipped_pair(c, x.hosts, a, b));
		}
	x.total = plan.n_slots;
	for (size_t k = 0; jobs && k < plan.n_slots;) {
		size_t e = k;

		while (e < plan.n_slots && plan.slots[e].step == plan.slots[k].step)
			e++;
		run_step(jobs, k, e);
		k = e;
	}
	for (size_t k = 0; k < bc_json_len(pairs); k++)
		if (strcmp(bc_json_str(json_object_array_get_idx(pairs, k), "status"), "ok"))
			incomplete = true;
	json_object_object_add(d, "incomplete", json_object_new_boolean(incomplete));
	r = bc_matrix_analyze(d, err);
	if (r == 0)
		bc_matrix_verdicts_answer(d);
fail:
	pthread_mutex_destroy(&x.mu);
	free(jobs);
	free(usable);
	bc_matrix_plan_free(&plan);
	if (r < 0) {
		json_object_put(d);
		return r;
	}
	*doc = d;
	return 0;
}
