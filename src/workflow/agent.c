// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The agent: control sessions and the agent's end of each test.  Message
 * sequence and error codes: docs/protocol.md; limits and deadlines:
 * docs/security.md.
 *
 * The main thread only accepts: each control connection gets a session
 * thread (at most cfg->max_sessions, cfg->max_sessions_per_host from one
 * address), so a slow or idle peer holds one slot and its own deadline,
 * never the agent.  One test runs at a time (struct agent.test); the bulk
 * connection after a capture is a session of its own that the test's
 * session hands its files to (struct bulk_offer).  A change session
 * (journal/change/restore) leaves its session thread for the change thread
 * (workflow/change-session.h), one at a time; a relayed test (`run-to`,
 * matrix) holds the test slot like a test.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bondcheck/agent.h"
#include "bondcheck/ctl.h"
#include "bondcheck/host-stats.h"
#include "traffic/bond-meta.h"
#include "traffic/egress.h"
#include "traffic/stream.h"
#include "traffic/test-end.h"
#include "workflow/agent-relay.h"
#include "workflow/bulk.h"
#include "workflow/change-session.h"
#include "workflow/end-inspect.h"
#include "workflow/link-events.h"
#include "workflow/place.h"
#include "workflow/run-capture.h"

/* error replies (malformed, unexpected, bad-plan, ...) before a session is closed */
#define MAX_REFUSED 8
/* a plan waits this long for the previous test's cleanup before `busy` */
#define SLOT_WAIT_MS 3000
/* ... and this long for a running test's session to say it is over */
#define RUNNING_WAIT_MS 300
/* after a capture result: how long the files wait for the bulk connection */
#define BULK_WAIT_MS 30000

enum test_state {
	TEST_IDLE,
	TEST_RUNNING, /* plan accepted .. test over: plans and run-to get `busy` */
	TEST_HELD,    /* result sent or client gone: bulk transfer, cleanup; plans wait */
};

/* The capture files of the finished test, offered to one bulk connection. */
struct bulk_offer {
	bool open;
	enum { BULK_WAITING, BULK_SERVING, BULK_DONE } state;
	uint32_t test_id;
	const char *token;
	const struct bc_capture *cap;
	const struct sockaddr_storage *peer; /* the control peer: only it may fetch */
	int r;
	struct bc_error err;
};

struct agent;

/* One control connection, served by its own thread. */
struct session {
	struct agent *ag;
	const struct bc_agent_cfg *c;
	bool used, done; /* slot taken; thread finished (the main thread joins it) */
	pthread_t th;
	int fd; /* closed by the main thread after the join, never by the session */
	struct sockaddr_storage peer;
	char host[INET6_ADDRSTRLEN + 8];
	int64_t start_ns;
	int64_t deadline_ns; /* whole-phase deadline, CLOCK_MONOTONIC */
	const char *phase;   /* what must finish by then, for the timeout reply */
	int phase_ms;
	unsigned refused;     /* error replies so far */
	int result;	      /* 1: a test ran */
	int64_t recv_time_ns; /* CLOCK_REALTIME when the request being answered arrived */
};

struct agent {
	const struct bc_agent_cfg *c;
	int listen_fd;
	pthread_mutex_t lock;
	pthread_cond_t cond; /* test state, bulk offer, session end */
	struct session *s;   /* c->max_sessions slots */
	volatile sig_atomic_t *quit;
	struct bc_change_srv cs; /* the change session; started under lock */
	enum test_state test;
	struct bulk_offer offer;
	bool ran_test; /* --once */
	bool stopping;
};

void bc_agent_cfg_defaults(struct bc_agent_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->port = BC_CTL_PORT;
	c->limits.max_streams = BC_PLAN_MAX_STREAMS;
	c->limits.max_duration_ms = 3600 * 1000;
	c->limits.max_rate_bps = 100000000000ull;
	c->idle_timeout_ms = 30000;
	c->handshake_timeout_ms = 10000;
	c->setup_timeout_ms = 60000;
	c->max_sessions = 32;
	c->max_sessions_per_host = 8;
	c->change_idle_timeout_ms = 3600 * 1000;
}

static void say(const struct bc_agent_cfg *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct bc_agent_cfg *c, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (!c->log)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	c->log(c->log_ctx, buf);
}

int bc_agent_listen(const struct bc_agent_cfg *c, struct bc_error *err)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd, r;

	r = bc_sockaddr_parse(c->bind_addr, c->port, &ss, &sl, err);
	if (r < 0)
		return r;
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return bc_error_set(err, -errno, "cannot create the control socket: %s",
				    strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &(int){1}, sizeof(int));
	if (ss.ss_family == AF_INET6 && !c->bind_addr)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &(int){0}, sizeof(int));
	if (bind(fd, (struct sockaddr *)&ss, sl) < 0 || listen(fd, 128) < 0) {
		r = -errno;
		close(fd);
		if (r == -EADDRINUSE)
			return bc_error_set(err, r,
					    "control port %u is in use (another bondcheck serve or "
					    "program); choose another with --port",
					    c->port);
		return bc_error_set(err, r, "cannot listen on %s port %u: %s",
				    c->bind_addr ? c->bind_addr : "any address", c->port,
				    strerror(-r));
	}
	return fd;
}

static int reply_error(int fd, const char *code, const char *msg)
{
	struct json_object *e = bc_ctl_error_msg(code, "%s", msg);
	int r = bc_ctl_send(fd, e, 2000, NULL);

	json_object_put(e);
	return r;
}

/*
 * An error reply that leaves the session open, counted: the MAX_REFUSED-th
 * also says so and ends the session.  Returns 0 (go on) or -EBADMSG (close).
 */
static int refused(struct session *s, const char *code)
{
	if (++s->refused < MAX_REFUSED)
		return 0;
	reply_error(s->fd, code, "too many malformed or refused messages (8); closing");
	say(s->c, "%s: closed after %d refused messages", s->host, MAX_REFUSED);
	return -EBADMSG;
}

static int refuse(struct session *s, const char *code, const char *msg)
{
	reply_error(s->fd, code, msg);
	return refused(s, code);
}

/* Start a phase that must end within @ms of @from_ns (whole, not per message). */
static void phase(struct session *s, const char *what, int64_t from_ns, int ms)
{
	s->phase = what;
	s->phase_ms = ms;
	s->deadline_ns = from_ns + (int64_t)ms * 1000000;
}

/*
 * Read the next message within @timeout_ms and the phase deadline,
 * answering malformed ones and giving up on a stream that is out of step.
 * Returns 0 with *@msg, or -errno (session over).
 */
static int next_msg(struct session *s, int timeout_ms, struct json_object **msg)
{
	for (;;) {
		struct bc_error err = {0};
		int64_t left = (s->deadline_ns - bc_mono_ns()) / 1000000;
		bool by_deadline = left < timeout_ms;
		int r;

		r = bc_ctl_recv(s->fd, BC_CTL_MAX_REQUEST,
				by_deadline ? (int)(left > 0 ? left : 0) : timeout_ms, msg, &err);
		if (r == 0)
			return 0;
		switch (r) {
		case -EBADMSG:
			if (strstr(err.msg, "does not speak")) {
				say(s->c, "%s: closing a connection that is not bondcheck: %s",
				    s->host, err.msg);
				return r;
			}
			say(s->c, "%s: malformed control message answered: %s", s->host, err.msg);
			if (refuse(s, BC_CTL_E_MALFORMED, err.msg) < 0)
				return r;
			continue;
		case -EMSGSIZE:
			reply_error(s->fd, BC_CTL_E_TOO_LARGE, err.msg);
			break;
		case -EPROTONOSUPPORT:
			reply_error(s->fd, BC_CTL_E_VERSION, err.msg);
			break;
		case -ETIMEDOUT:
			if (by_deadline) {
				bc_error_clear(&err);
				bc_error_set(&err, r,
					     "the %s did not complete within %d ms (a deadline for "
					     "the whole %s, however slowly bytes arrive)",
					     s->phase, s->phase_ms, s->phase);
			}
			reply_error(s->fd, BC_CTL_E_TIMEOUT, err.msg);
			break;
		default:
			break;
		}
		say(s->c, "%s: session ends: %s", s->host, err.msg);
		return r;
	}
}

/* CLOCK_REALTIME ns, with the test-only offset. */
static int64_t agent_time_ns(const struct bc_agent_cfg *c)
{
	return (int64_t)bc_real_ns() + c->test_clock_offset_ns;
}

/*
 * challenge -> auth -> welcome after the client's hello (@m, consumed).
 * Returns 0 when the client may send plans.
 */
static int handshake(struct session *s, struct json_object *m)
{
	const struct bc_agent_cfg *c = s->c;
	char anonce[BC_AUTH_HEX], proof[BC_AUTH_HEX];
	struct json_object *o, *v;
	const char *cnonce, *mac;
	int r, ver;

	ver = json_object_object_get_ex(m, "protocol", &v) ? json_object_get_int(v) : -1;
	json_object_put(m);
	if (ver != BC_CTL_VERSION) {
		char msg[160];

		snprintf(msg, sizeof(msg),
			 "client speaks control protocol %d, this agent speaks %d", ver,
			 BC_CTL_VERSION);
		reply_error(s->fd, BC_CTL_E_VERSION, msg);
		say(c, "%s: %s", s->host, msg);
		return -EPROTONOSUPPORT;
	}
	if (bc_auth_nonce(anonce) < 0)
		return -EIO;
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("challenge"));
	json_object_object_add(o, "protocol", json_object_new_int(BC_CTL_VERSION));
	json_object_object_add(o, "nonce", json_object_new_string(anonce));
	json_object_object_add(o, "auth_required", json_object_new_boolean(c->key.len > 0));
	/* this host's clock, for the client's offset estimate (docs/protocol.md):
	 * when the request arrived and when the reply leaves */
	json_object_object_add(o, "recv_time_ns", json_object_new_int64(s->recv_time_ns));
	json_object_object_add(o, "time_ns", json_object_new_int64(agent_time_ns(c)));
	r = bc_ctl_send(s->fd, o, 5000, NULL);
	json_object_put(o);
	if (r < 0)
		return r;
	r = next_msg(s, c->idle_timeout_ms, &m);
	if (r < 0)
		return r;
	if (strcmp(bc_ctl_type(m), "auth")) {
		reply_error(s->fd, BC_CTL_E_UNEXPECTED,
			    "expected an auth message after the challenge");
		json_object_put(m);
		return -EPROTO;
	}
	cnonce = json_object_object_get_ex(m, "nonce", &v) ? json_object_get_string(v) : NULL;
	mac = json_object_object_get_ex(m, "mac", &v) ? json_object_get_string(v) : NULL;
	if (c->key.len) {
		if (!mac) {
			reply_error(
				s->fd, BC_CTL_E_AUTH_REQUIRED,
				"this agent requires a pre-shared key: run with --auth-key FILE");
			say(c, "%s: refused a client without a key", s->host);
			json_object_put(m);
			return -EACCES;
		}
		if (bc_auth_check(&c->key, "client", anonce, cnonce, mac) < 0) {
			reply_error(
				s->fd, BC_CTL_E_AUTH_FAILED,
				"authentication failed: the client's key differs from the agent's");
			say(c, "%s: refused a client with a wrong key", s->host);
			json_object_put(m);
			return -EACCES;
		}
	}
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("welcome"));
	json_object_object_add(o, "software", json_object_new_string("bondcheck " BC_VERSION));
	if (c->key.len && cnonce && bc_auth_proof(&c->key, "agent", cnonce, anonce, proof) == 0)
		json_object_object_add(o, "mac", json_object_new_string(proof));
	json_object_put(m);
	r = bc_ctl_send(s->fd, o, 5000, NULL);
	json_object_put(o);
	return r;
}

static struct json_object *snapshot_msg(struct bc_test *t, unsigned index)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string("interval"));
	json_object_object_add(o, "index", json_object_new_int((int)index));
	json_object_object_add(o, "seconds",
			       json_object_new_double((double)(bc_mono_ns() - t->start_ns) / 1e9));
	json_object_object_add(o, "streams", bc_test_snap_json(t));
	return o;
}

/*
 * Before the session ends: shut our side and read what the peer still
 * sends (at most 200 ms), so that a final error reply is delivered: a
 * close() with unread input would reset the connection and discard it.
 */
static void linger_drain(int fd)
{
	char buf[4096];
	int64_t deadline = bc_mono_ns() + 200000000;

	shutdown(fd, SHUT_WR);
	while (bc_mono_ns() < deadline) {
		struct pollfd p = {.fd = fd, .events = POLLIN};

		if (poll(&p, 1, 50) <= 0)
			continue;
		if (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) <= 0)
			break;
	}
}

/* pthread_cond_timedwait on CLOCK_REALTIME for at most @ms; under ag->lock. */
static void wait_ms(struct agent *ag, int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += (long)(ms % 1000) * 1000000;
	ts.tv_sec += ms / 1000 + ts.tv_nsec / 1000000000;
	ts.tv_nsec %= 1000000000;
	pthread_cond_timedwait(&ag->cond, &ag->lock, &ts);
}

/*
 * Claim the one test slot for a plan or a relayed test: -EBUSY while a test
 * runs (after RUNNING_WAIT_MS, the time a session that has just answered
 * its client needs to mark its test over); a finished test's bulk transfer
 * and cleanup are waited out (at most SLOT_WAIT_MS).  0 or -EBUSY.
 */
static int test_claim(struct agent *ag)
{
	int64_t t0 = bc_mono_ns(), held_end = t0 + (int64_t)SLOT_WAIT_MS * 1000000,
		run_end = t0 + (int64_t)RUNNING_WAIT_MS * 1000000;
	int r = -EBUSY;

	pthread_mutex_lock(&ag->lock);
	while (!ag->stopping && ((ag->test == TEST_HELD && bc_mono_ns() < held_end) ||
				 (ag->test == TEST_RUNNING && bc_mono_ns() < run_end)))
		wait_ms(ag, 20);
	if (ag->test == TEST_IDLE && !ag->stopping) {
		ag->test = TEST_RUNNING;
		r = 0;
	}
	pthread_mutex_unlock(&ag->lock);
	return r;
}

static void test_set(struct agent *ag, enum test_state st)
{
	pthread_mutex_lock(&ag->lock);
	ag->test = st;
	pthread_cond_broadcast(&ag->cond);
	pthread_mutex_unlock(&ag->lock);
}

/*
 * Offer the capture files to the bulk connection (a session of its own,
 * bulk_session()) and wait until it has them, at most BULK_WAIT_MS for it
 * to arrive.  Returns 0, -ETIMEDOUT, or the transfer's error (in @err).
 */
static void offer_open(struct session *s, struct bc_test *t, struct bc_run_capture *cap)
{
	struct agent *ag = s->ag;

	pthread_mutex_lock(&ag->lock);
	ag->offer = (struct bulk_offer){.open = true,
					.state = BULK_WAITING,
					.test_id = t->plan.test_id,
					.token = cap->token,
					.cap = &cap->offer,
					.peer = &s->peer};
	pthread_mutex_unlock(&ag->lock);
}

/* The result could not be sent: nobody will fetch the files. */
static void offer_close(struct agent *ag)
{
	pthread_mutex_lock(&ag->lock);
	if (ag->offer.state == BULK_SERVING) {
		/* a bulk session already has the files: let it finish with them */
		while (ag->offer.state == BULK_SERVING)
			wait_ms(ag, 200);
	}
	ag->offer.open = false;
	pthread_mutex_unlock(&ag->lock);
}

/*
 * The offer is opened (offer_open()) before the result goes out: the client
 * opens the bulk connection as soon as it has the result, and a session
 * that found no offer would refuse it.
 */
static int offer_bulk(struct session *s, struct bc_error *err)
{
	struct agent *ag = s->ag;
	int64_t end = bc_mono_ns() + (int64_t)BULK_WAIT_MS * 1000000;
	int r;

	pthread_mutex_lock(&ag->lock);
	/* once serving, wait for the end whatever happens: the files are ours */
	while (ag->offer.state != BULK_DONE &&
	       (ag->offer.state == BULK_SERVING || (!ag->stopping && bc_mono_ns() < end)))
		wait_ms(ag, 200);
	if (ag->offer.state == BULK_DONE) {
		r = ag->offer.r;
		if (r < 0)
			bc_error_set(err, r, "%s", ag->offer.err.msg);
	} else {
		r = bc_error_set(err, -ETIMEDOUT,
				 "the client did not fetch the capture files within %d ms",
				 BULK_WAIT_MS);
	}
	ag->offer.open = false;
	pthread_mutex_unlock(&ag->lock);
	return r;
}

/* A connection whose first message is a bulk-hello (@m, consumed).  0 or -errno. */
static int bulk_session(struct session *s, struct json_object *m)
{
	struct agent *ag = s->ag;
	const struct bc_capture *cap = NULL;
	struct bc_error err = {0};
	int r;

	pthread_mutex_lock(&ag->lock);
	if (!ag->offer.open) {
		pthread_mutex_unlock(&ag->lock);
		json_object_put(m);
		reply_error(s->fd, BC_CTL_E_UNSUPPORTED,
			    "no capture files are waiting: a bulk connection follows the result "
			    "of a test with capture");
		return -EPROTO;
	}
	if (ag->offer.state == BULK_WAITING &&
	    bc_bulk_hello_check(m, ag->offer.test_id, ag->offer.token) == 0 &&
	    bc_sockaddr_same_host(&s->peer, ag->offer.peer)) {
		ag->offer.state = BULK_SERVING;
		cap = ag->offer.cap;
	}
	pthread_mutex_unlock(&ag->lock);
	json_object_put(m);
	if (!cap) {
		reply_error(s->fd, BC_CTL_E_AUTH_FAILED,
			    "bulk-hello for another test, with a wrong token or from another host");
		say(s->c, "%s: refused a bulk connection", s->host);
		return -EACCES;
	}
	r = bc_bulk_send_files(s->fd, cap, &err);
	pthread_mutex_lock(&ag->lock);
	ag->offer.state = BULK_DONE;
	ag->offer.r = r;
	ag->offer.err = err;
	pthread_cond_broadcast(&ag->cond);
	pthread_mutex_unlock(&ag->lock);
	return r;
}

/* Run one test after "ready": start, intervals, stop, result.  1 or -errno. */
static int run_test(struct session *s, struct bc_test *t, struct bc_run_capture *cap)
{
	const struct bc_agent_cfg *c = s->c;
	int fd = s->fd;
	struct bc_host_sample a, b;
	struct bc_bond_meta bm;
	struct bc_link_watch lw;
	struct json_object *m = NULL, *o, *v, *counters;
	int64_t next, hard_end;
	unsigned idx = 0;
	int r;

	r = next_msg(s, c->idle_timeout_ms, &m);
	if (r < 0)
		return r;
	s->recv_time_ns = agent_time_ns(c); /* t2 of the start/started exchange */
	if (strcmp(bc_ctl_type(m), "start")) {
		reply_error(fd, BC_CTL_E_UNEXPECTED, "expected start after ready");
		json_object_put(m);
		return -EPROTO;
	}
	json_object_put(m);
	if (t->plan.no_bond_meta) /* the client's suite inspected the bond already */
		memset(&bm, 0, sizeof(bm));
	else
		bc_bond_meta_begin(&bm, &t->local);
	bc_host_sample_take(&a);
	/* a slave that goes down during the run: when (slave-down); no watch, no time */
	if (bc_link_watch_start(&lw, NULL) < 0)
		memset(&lw, 0, sizeof(lw));
	if (cap && bc_run_capture_start(cap, &t->err) < 0) {
		reply_error(fd, BC_CTL_E_CAPTURE, t->err.msg);
		bc_link_watch_free(&lw);
		bc_host_sample_free(&a);
		bc_bond_meta_free(&bm);
		return -EIO;
	}
	r = bc_test_start(t, NULL);
	if (r < 0) {
		reply_error(fd, BC_CTL_E_BAD_PLAN, t->err.msg);
		bc_link_watch_free(&lw);
		bc_host_sample_free(&a);
		bc_bond_meta_free(&bm);
		return r;
	}
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("started"));
	json_object_object_add(o, "recv_time_ns", json_object_new_int64(s->recv_time_ns));
	json_object_object_add(o, "time_ns", json_object_new_int64(agent_time_ns(c)));
	bc_ctl_send(fd, o, 5000, NULL);
	json_object_put(o);
	say(c, "test %u running: %u stream(s), %u ms", t->plan.test_id,
	    bc_plan_all_streams(&t->plan), t->plan.duration_ms);
	next = t->start_ns + (int64_t)t->plan.interval_ms * 1000000;
	hard_end = t->start_ns + ((int64_t)t->plan.duration_ms + t->plan.tmax_ms + 30000) * 1000000;
	/* messages during the test: the test's own end is the deadline */
	phase(s, "test", t->start_ns, (int)((hard_end - t->start_ns) / 1000000));
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int64_t now = bc_mono_ns(), wait = (next - now) / 1000000;

		if (now >= hard_end) {
			say(c, "test %u: the client never said stop; ending it", t->plan.test_id);
			r = -ETIMEDOUT;
			goto out;
		}
		if (poll(&p, 1, wait > 0 ? (int)wait : 0) > 0) {
			r = next_msg(s, 5000, &m);
			if (r < 0) {
				say(c, "test %u: control connection lost; cleaning up",
				    t->plan.test_id);
				goto out;
			}
			if (!strcmp(bc_ctl_type(m), "stop"))
				break;
			json_object_put(m);
			m = NULL;
			if (refuse(s, BC_CTL_E_UNEXPECTED, "expected stop during a test") < 0) {
				r = -EPROTO;
				goto out;
			}
			continue;
		}
		if (bc_mono_ns() >= next) {
			o = snapshot_msg(t, idx++);
			bc_ctl_send(fd, o, 2000, NULL);
			json_object_put(o);
			next += (int64_t)t->plan.interval_ms * 1000000;
		}
	}
	/* a stop that came before the interval ending at the test's duration
	 * (the client's clock starts after ours; a busy host sends late): that
	 * interval is sent now, so that the client has duration / interval
	 * of them */
	if (t->plan.interval_ms && idx < t->plan.duration_ms / t->plan.interval_ms) {
		o = snapshot_msg(t, idx++);
		bc_ctl_send(fd, o, 2000, NULL);
		json_object_put(o);
	}
	/* the client's final sequence numbers: loss at the tail counts after Tmax */
	if (json_object_object_get_ex(m, "sent", &v))
		bc_test_set_peer_sent(t, v);
	json_object_put(m);
	bc_test_finish(t);
	if (cap)
		bc_run_capture_stop(cap);
	bc_host_sample_take(&b);
	bc_bond_meta_end(&bm);
	/* the next client may start its handshake; its plan waits for our cleanup */
	test_set(s->ag, TEST_HELD);
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("result"));
	json_object_object_add(o, "tmax_ms", json_object_new_int64(t->plan.tmax_ms));
	json_object_object_add(o, "streams", bc_test_results_json(t));
	counters = bc_host_delta_json(&a, &b);
	bc_link_events_add(counters, &lw, t->start_ns);
	bc_link_watch_free(&lw);
	json_object_object_add(o, "counters", counters);
	{
		struct json_object *meta = bc_host_metadata_json();
		struct bc_egress e;

		/* a test clock offset plays another host's clock: not this boot's */
		if (c->test_clock_offset_ns)
			json_object_object_add(
				meta, "boot_id",
				json_object_new_string(
					"test-clock-offset (not this boot's clock)"));

		if (bc_egress_find(&t->local, &e) == 0)
			json_object_object_add(meta, "egress", bc_egress_json(&e));
		if (bm.is_bond)
			json_object_object_add(meta, "bond", bc_bond_meta_json(&bm));
		json_object_object_add(o, "metadata", meta);
	}
	if (cap) {
		json_object_object_add(o, "capture", bc_run_capture_json(cap));
		bc_run_capture_offer(cap);
		offer_open(s, t, cap);
	}
	r = bc_ctl_send(fd, o, 10000, NULL);
	json_object_put(o);
	if (r == 0 && cap) {
		struct bc_error be = {0};

		/* the pcap files go on the bulk connection, never in the result */
		if (offer_bulk(s, &be) < 0)
			say(c, "test %u: capture files not fetched: %s", t->plan.test_id, be.msg);
	} else if (cap) {
		offer_close(s->ag);
	}
	bc_host_sample_free(&b);
	say(c, "test %u done", t->plan.test_id);
	bc_host_sample_free(&a);
	bc_bond_meta_free(&bm);
	return r < 0 ? r : 1;
out:
	/* nobody waits for a result: no Tmax, free the agent for the next client now */
	test_set(s->ag, TEST_HELD);
	bc_test_stop_senders(t);
	bc_test_stop_receivers(t, 0);
	bc_link_watch_free(&lw);
	bc_host_sample_free(&a);
	bc_bond_meta_free(&bm);
	return r;
}

/*
 * A change-session message (@m, consumed): refused (0), or the connection
 * becomes a change session (2: the change thread owns the socket now).
 */
static int change_request(struct session *s, struct json_object *m)
{
	const struct bc_agent_cfg *c = s->c;
	struct agent *ag = s->ag;
	int fd = s->fd, r;

	if (!c->allow_changes) {
		reply_error(fd, BC_CTL_E_CHANGES_NOT_ALLOWED,
			    "this agent does not change its bond: run it with `bondcheck serve "
			    "--allow-changes` to allow journal, change and restore");
		say(c, "refused a change request from %s (no --allow-changes)", s->host);
		json_object_put(m);
		return 0;
	}
	pthread_mutex_lock(&ag->lock);
	if (ag->stopping) {
		json_object_put(m);
		r = -EAGAIN;
	} else {
		r = bc_change_srv_start(&ag->cs, c, fd, m, s->host, ag->quit);
	}
	if (r == 0)
		s->fd = -1; /* the change thread's now: not ours to drain or close */
	pthread_mutex_unlock(&ag->lock);
	if (r == -EBUSY) {
		reply_error(fd, BC_CTL_E_BUSY,
			    "another change session holds this agent; try again when it ends");
		return 0;
	}
	if (r < 0) {
		reply_error(fd, BC_CTL_E_BUSY, "cannot start a change session now");
		return 0;
	}
	say(c, "change session from %s", s->host);
	return 2;
}

static bool is_change_msg(struct json_object *m)
{
	const char *t = bc_ctl_type(m);

	return !strcmp(t, "changes") || !strcmp(t, "journal") || !strcmp(t, "change") ||
	       !strcmp(t, "restore");
}

/*
 * `run-to` (@m, consumed; matrix, workflow/agent-relay.c): a test this agent
 * runs as a client, holding the test slot like a test of its own.  1 when
 * it ran, 0 refused (the session goes on), -errno.
 */
static int relay(struct session *s, struct json_object *m)
{
	int r;

	if (test_claim(s->ag) < 0) {
		json_object_put(m);
		reply_error(s->fd, BC_CTL_E_BUSY,
			    "this agent is running another test; try again later");
		return -EBUSY;
	}
	r = bc_agent_relay(s->c, s->fd, m);
	json_object_put(m);
	test_set(s->ag, TEST_IDLE);
	return r;
}

/*
 * Plans until one runs (after the welcome).  Returns 1 when a test ran, 2
 * when the connection became a change session, or -errno.
 */
static int plans(struct session *s)
{
	const struct bc_agent_cfg *c = s->c;
	struct sockaddr_storage local;
	socklen_t ll = sizeof(local);
	int r;

	getsockname(s->fd, (struct sockaddr *)&local, &ll);
	for (;;) {
		struct json_object *m, *v, *o;
		struct bc_test t;
		struct bc_run_capture cap;
		struct bc_error err = {0};

		r = next_msg(s, c->idle_timeout_ms, &m);
		if (r < 0)
			return r;
		if (!strcmp(bc_ctl_type(m), "bulk-hello")) {
			json_object_put(m);
			r = refuse(s, BC_CTL_E_UNSUPPORTED,
				   "a bulk-hello opens its own connection after a capture result, "
				   "not a message of a control session");
			if (r < 0)
				return r;
			continue;
		}
		if (!strcmp(bc_ctl_type(m), "run-to")) {
			r = relay(s, m);
			if (r != 0)
				return r;
			if (refused(s, BC_CTL_E_BAD_PLAN) < 0)
				return -EBADMSG;
			continue;
		}
		if (is_change_msg(m)) {
			r = change_request(s, m);
			if (r == 2)
				return r;
			if (refused(s, BC_CTL_E_BUSY) < 0)
				return -EBADMSG;
			continue;
		}
		if (!strcmp(bc_ctl_type(m), "inspect")) {
			struct json_object *doc, *eg;

			/* the suite's view of this end: its bond, findings, slave rates */
			json_object_put(m);
			bc_end_inspect(&local, NULL, &doc, &eg);
			o = json_object_new_object();
			json_object_object_add(o, "type", json_object_new_string("inspect"));
			json_object_object_add(o, "end", doc);
			json_object_object_add(o, "egress", eg);
			r = bc_ctl_send(s->fd, o, 10000, NULL);
			json_object_put(o);
			say(c, "inspect answered");
			if (r < 0)
				return r;
			continue;
		}
		if (strcmp(bc_ctl_type(m), "test")) {
			json_object_put(m);
			if (refuse(s, BC_CTL_E_UNEXPECTED, "expected a test plan") < 0)
				return -EPROTO;
			continue;
		}
		bc_test_init(&t, false);
		v = json_object_object_get_ex(m, "plan", &v) ? v : NULL;
		r = bc_plan_from_json(v, &c->limits, &t.plan, &err);
		json_object_put(m);
		if (r < 0) {
			if (refuse(s, BC_CTL_E_BAD_PLAN, err.msg) < 0)
				return r;
			continue;
		}
		if (test_claim(s->ag) < 0) {
			reply_error(s->fd, BC_CTL_E_BUSY,
				    "this agent is running another test; try again later");
			say(c, "%s: plan refused: another test runs", s->host);
			return -EBUSY;
		}
		t.peer = s->peer;
		t.local = local;
		t.test_read_stall_ms = c->test_read_stall_ms;
		t.test_rcvbuf = c->test_rcvbuf;
		t.test_clock_offset_ns = c->test_clock_offset_ns;
		r = bc_test_open(&t, &err);
		if (r < 0) {
			test_set(s->ag, TEST_IDLE);
			say(c, "test refused: %s", err.msg);
			bc_test_free(&t);
			if (refuse(s, r == -EADDRINUSE ? BC_CTL_E_PORT_IN_USE : BC_CTL_E_BAD_PLAN,
				   err.msg) < 0)
				return r;
			continue;
		}
		if (t.plan.capture) {
			r = bc_run_capture_open(&cap, "agent", &local, &s->peer, c->port, NULL,
						t.plan.capture_buffer,
						t.plan.capture_neigh ? BC_CAPTURE_NEIGH : 0,
						(enum bc_capsrc)t.plan.capture_source, &err);
			if (r < 0) {
				test_set(s->ag, TEST_IDLE);
				say(c, "test refused: %s", err.msg);
				bc_test_free(&t);
				if (refuse(s, BC_CTL_E_CAPTURE, err.msg) < 0)
					return r;
				continue;
			}
		}
		o = json_object_new_object();
		json_object_object_add(o, "type", json_object_new_string("ready"));
		json_object_object_add(o, "streams", bc_test_ports_json(&t));
		v = bc_agent_place(&t); /* -R/--bidir with --place: reverse client ports */
		if (v)
			json_object_object_add(o, "placement", v);
		r = bc_ctl_send(s->fd, o, 5000, NULL);
		json_object_put(o);
		if (r == 0)
			r = run_test(s, &t, t.plan.capture ? &cap : NULL);
		test_set(s->ag, TEST_HELD); /* a plan arriving now waits for the cleanup */
		if (t.plan.capture)
			bc_run_capture_free(&cap);
		bc_test_free(&t);
		test_set(s->ag, TEST_IDLE);
		return r;
	}
}

/* One control connection.  Returns 1 when a test ran, 0 or -errno otherwise. */
static int session(struct session *s)
{
	const struct bc_agent_cfg *c = s->c;
	struct json_object *m;
	int r;

	setsockopt(s->fd, IPPROTO_TCP, TCP_NODELAY, &(int){1}, sizeof(int));
	/* hello to welcome, all of it, within the handshake deadline */
	phase(s, "handshake", s->start_ns, c->handshake_timeout_ms);
	r = next_msg(s, c->idle_timeout_ms, &m);
	if (r < 0)
		return r;
	if (!strcmp(bc_ctl_type(m), "bulk-hello"))
		return bulk_session(s, m);
	if (strcmp(bc_ctl_type(m), "hello")) {
		reply_error(s->fd, BC_CTL_E_UNEXPECTED, "expected a hello message first");
		json_object_put(m);
		return -EPROTO;
	}
	s->recv_time_ns = agent_time_ns(c); /* the hello arrived: t2 of the exchange */
	r = handshake(s, m);
	if (r < 0)
		return r;
	/* from the connection to the test's start, all of it, within the setup deadline */
	phase(s, "test setup", s->start_ns, c->setup_timeout_ms);
	return plans(s);
}

static void *session_main(void *arg)
{
	struct session *s = arg;
	int r = session(s);

	if (s->fd >= 0)
		linger_drain(s->fd);
	pthread_mutex_lock(&s->ag->lock);
	s->result = r;
	if (r > 0)
		s->ag->ran_test = true;
	s->done = true;
	pthread_cond_broadcast(&s->ag->cond);
	pthread_mutex_unlock(&s->ag->lock);
	return NULL;
}

/* --once: a session has run a test (set by the session threads). */
static bool ran_test(struct agent *ag)
{
	bool r;

	pthread_mutex_lock(&ag->lock);
	r = ag->ran_test;
	pthread_mutex_unlock(&ag->lock);
	return r;
}

/* Join the finished sessions and close their connections. */
static void reap(struct agent *ag, bool all)
{
	for (unsigned i = 0; i < ag->c->max_sessions; i++) {
		struct session *s = &ag->s[i];
		bool done;

		pthread_mutex_lock(&ag->lock);
		done = s->used && (s->done || all);
		pthread_mutex_unlock(&ag->lock);
		if (!done)
			continue;
		pthread_join(s->th, NULL);
		if (s->fd >= 0)
			close(s->fd);
		pthread_mutex_lock(&ag->lock);
		s->used = false;
		pthread_mutex_unlock(&ag->lock);
	}
}

/* Over a connection limit: say so at once and close (no thread, no linger). */
static void turn_away(int fd, const char *msg)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	reply_error(fd, BC_CTL_E_BUSY, msg);
	shutdown(fd, SHUT_WR);
	close(fd);
}

/*
 * A free slot for a connection from @peer, or NULL with @why set: the agent
 * or this host is at its limit.  Under ag->lock.
 */
static struct session *slot_for(struct agent *ag, const struct sockaddr_storage *peer,
				const char *host, char *why, size_t n)
{
	struct session *free_slot = NULL;
	unsigned same = 0;

	for (unsigned i = 0; i < ag->c->max_sessions; i++) {
		struct session *s = &ag->s[i];

		if (!s->used) {
			if (!free_slot)
				free_slot = s;
		} else if (bc_sockaddr_same_host(&s->peer, peer)) {
			same++;
		}
	}
	if (same >= ag->c->max_sessions_per_host) {
		snprintf(why, n,
			 "too many control connections from %s (at most %u at a time); try "
			 "again later",
			 host, ag->c->max_sessions_per_host);
		return NULL;
	}
	if (!free_slot)
		snprintf(why, n,
			 "this agent serves at most %u control connections at a time; try again "
			 "later",
			 ag->c->max_sessions);
	return free_slot;
}

int bc_agent_serve(const struct bc_agent_cfg *c, int listen_fd, volatile sig_atomic_t *quit,
		   struct bc_error *err)
{
	struct agent ag = {.c = c, .listen_fd = listen_fd, .quit = quit};
	pthread_attr_t ta;
	sigset_t block, old;
	int r = 0;

	if (!c->max_sessions || !c->max_sessions_per_host)
		return bc_error_set(err, -EINVAL,
				    "max_sessions and max_sessions_per_host must be > 0");
	ag.s = calloc(c->max_sessions, sizeof(*ag.s));
	if (!ag.s)
		return bc_error_set(err, -ENOMEM, "out of memory");
	pthread_mutex_init(&ag.lock, NULL);
	pthread_cond_init(&ag.cond, NULL);
	pthread_attr_init(&ta);
	/* sessions handle no signals: SIGINT/SIGTERM reach this thread */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	/* --once: a test ran; stay while a change session still holds its bond */
	while (!*quit && !(c->once && ran_test(&ag) && !bc_change_srv_busy(&ag.cs))) {
		struct sockaddr_storage peer;
		socklen_t pl = sizeof(peer);
		struct pollfd p = {.fd = listen_fd, .events = POLLIN};
		char host[INET6_ADDRSTRLEN + 8] = "?", why[160];
		struct session *s;
		int fd;

		reap(&ag, false);
		if (poll(&p, 1, 200) <= 0)
			continue;
		fd = accept4(listen_fd, (struct sockaddr *)&peer, &pl, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED || errno == EAGAIN ||
			    errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			    errno == ENOMEM)
				continue;
			r = bc_error_set(err, -errno, "accept on the control socket failed: %s",
					 strerror(errno));
			break;
		}
		bc_sockaddr_unmap(&peer);
		getnameinfo((struct sockaddr *)&peer, pl, host, sizeof(host), NULL, 0,
			    NI_NUMERICHOST);
		reap(&ag, false);
		pthread_mutex_lock(&ag.lock);
		s = slot_for(&ag, &peer, host, why, sizeof(why));
		if (s) {
			*s = (struct session){.ag = &ag,
					      .c = c,
					      .used = true,
					      .fd = fd,
					      .peer = peer,
					      .start_ns = bc_mono_ns()};
			snprintf(s->host, sizeof(s->host), "%s", host);
			pthread_sigmask(SIG_BLOCK, &block, &old);
			if (pthread_create(&s->th, &ta, session_main, s)) {
				s->used = false;
				s = NULL;
				snprintf(why, sizeof(why), "this agent cannot start a session now");
			}
			pthread_sigmask(SIG_SETMASK, &old, NULL);
		}
		pthread_mutex_unlock(&ag.lock);
		if (s) {
			say(c, "control connection from %s", host);
		} else {
			say(c, "turned away %s: %s", host, why);
			turn_away(fd, why);
		}
	}
	/* wake every session (a running test ends as if its client had gone) */
	pthread_mutex_lock(&ag.lock);
	ag.stopping = true;
	for (unsigned i = 0; i < c->max_sessions; i++)
		if (ag.s[i].used && !ag.s[i].done && ag.s[i].fd >= 0)
			shutdown(ag.s[i].fd, SHUT_RDWR);
	pthread_cond_broadcast(&ag.cond);
	pthread_mutex_unlock(&ag.lock);
	reap(&ag, true);
	/* SIGINT/SIGTERM or --once: the change session restores its bond first */
	bc_change_srv_stop(&ag.cs);
	pthread_attr_destroy(&ta);
	pthread_cond_destroy(&ag.cond);
	pthread_mutex_destroy(&ag.lock);
	free(ag.s);
	return r;
}
