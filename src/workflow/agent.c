// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The agent: control sessions and the agent's end of each test.  Message
 * sequence and error codes: docs/protocol.md.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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
#include "workflow/place.h"
#include "workflow/run-capture.h"

#define MAX_MALFORMED 8

void bc_agent_cfg_defaults(struct bc_agent_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->port = BC_CTL_PORT;
	c->limits.max_streams = BC_PLAN_MAX_STREAMS;
	c->limits.max_duration_ms = 3600 * 1000;
	c->limits.max_rate_bps = 100000000000ull;
	c->idle_timeout_ms = 30000;
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
	if (bind(fd, (struct sockaddr *)&ss, sl) < 0 || listen(fd, 16) < 0) {
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
 * Read the next message, answering malformed ones and giving up on a
 * stream that is out of step.  Returns 0 with *@msg, or -errno (session over).
 */
static int next_msg(const struct bc_agent_cfg *c, int fd, int timeout_ms, struct json_object **msg)
{
	for (int bad = 0; bad < MAX_MALFORMED; bad++) {
		struct bc_error err = {0};
		int r = bc_ctl_recv(fd, BC_CTL_MAX_REQUEST, timeout_ms, msg, &err);

		if (r == 0)
			return 0;
		switch (r) {
		case -EBADMSG:
			if (strstr(err.msg, "does not speak")) {
				say(c, "closing a connection that is not bondcheck: %s", err.msg);
				return r;
			}
			reply_error(fd, BC_CTL_E_MALFORMED, err.msg);
			say(c, "malformed control message answered: %s", err.msg);
			continue;
		case -EMSGSIZE:
			reply_error(fd, BC_CTL_E_TOO_LARGE, err.msg);
			break;
		case -EPROTONOSUPPORT:
			reply_error(fd, BC_CTL_E_VERSION, err.msg);
			break;
		case -ETIMEDOUT:
			reply_error(fd, BC_CTL_E_TIMEOUT, err.msg);
			break;
		default:
			break;
		}
		say(c, "session ends: %s", err.msg);
		return r;
	}
	reply_error(fd, BC_CTL_E_MALFORMED, "too many malformed messages; closing");
	return -EBADMSG;
}

/* hello -> challenge -> auth -> welcome.  Returns 0 when the client may send plans. */
static int handshake(const struct bc_agent_cfg *c, int fd)
{
	char anonce[BC_AUTH_HEX], proof[BC_AUTH_HEX];
	struct json_object *m = NULL, *o, *v;
	const char *cnonce, *mac;
	int r, ver;

	r = next_msg(c, fd, c->idle_timeout_ms, &m);
	if (r < 0)
		return r;
	if (strcmp(bc_ctl_type(m), "hello")) {
		reply_error(fd, BC_CTL_E_UNEXPECTED, "expected a hello message first");
		json_object_put(m);
		return -EPROTO;
	}
	ver = json_object_object_get_ex(m, "protocol", &v) ? json_object_get_int(v) : -1;
	json_object_put(m);
	if (ver != BC_CTL_VERSION) {
		char msg[160];

		snprintf(msg, sizeof(msg),
			 "client speaks control protocol %d, this agent speaks %d", ver,
			 BC_CTL_VERSION);
		reply_error(fd, BC_CTL_E_VERSION, msg);
		say(c, "%s", msg);
		return -EPROTONOSUPPORT;
	}
	if (bc_auth_nonce(anonce) < 0)
		return -EIO;
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("challenge"));
	json_object_object_add(o, "protocol", json_object_new_int(BC_CTL_VERSION));
	json_object_object_add(o, "nonce", json_object_new_string(anonce));
	json_object_object_add(o, "auth_required", json_object_new_boolean(c->key.len > 0));
	r = bc_ctl_send(fd, o, 5000, NULL);
	json_object_put(o);
	if (r < 0)
		return r;
	r = next_msg(c, fd, c->idle_timeout_ms, &m);
	if (r < 0)
		return r;
	if (strcmp(bc_ctl_type(m), "auth")) {
		reply_error(fd, BC_CTL_E_UNEXPECTED,
			    "expected an auth message after the challenge");
		json_object_put(m);
		return -EPROTO;
	}
	cnonce = json_object_object_get_ex(m, "nonce", &v) ? json_object_get_string(v) : NULL;
	mac = json_object_object_get_ex(m, "mac", &v) ? json_object_get_string(v) : NULL;
	if (c->key.len) {
		if (!mac) {
			reply_error(
				fd, BC_CTL_E_AUTH_REQUIRED,
				"this agent requires a pre-shared key: run with --auth-key FILE");
			say(c, "refused a client without a key");
			json_object_put(m);
			return -EACCES;
		}
		if (bc_auth_check(&c->key, "client", anonce, cnonce, mac) < 0) {
			reply_error(
				fd, BC_CTL_E_AUTH_FAILED,
				"authentication failed: the client's key differs from the agent's");
			say(c, "refused a client with a wrong key");
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
	r = bc_ctl_send(fd, o, 5000, NULL);
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
 * Close so that a final error reply is delivered: a close() with unread
 * input would reset the connection and discard the reply.
 */
static void linger_close(int fd)
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
	close(fd);
}

/* The responder that answers other clients `busy` while a test runs. */
struct busy_ctx {
	int listen_fd;
	atomic_int done;
	pthread_t th;
	bool running;
};

/* While a test runs, answer every other control connection with `busy`. */
static void *busy_main(void *arg)
{
	struct busy_ctx *b = arg;

	while (!atomic_load(&b->done)) {
		struct pollfd p = {.fd = b->listen_fd, .events = POLLIN};
		int fd;

		if (poll(&p, 1, 100) <= 0 || atomic_load(&b->done))
			continue; /* after the test the newcomer waits for the main loop */
		fd = accept4(b->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0)
			continue;
		reply_error(fd, BC_CTL_E_BUSY,
			    "this agent is running another test; try again later");
		linger_close(fd);
	}
	return NULL;
}

static void busy_start(struct busy_ctx *b, int listen_fd)
{
	b->listen_fd = listen_fd;
	atomic_init(&b->done, 0);
	b->running = pthread_create(&b->th, NULL, busy_main, b) == 0;
}

/* Stop answering `busy` before the result goes out, so the next client is served. */
static void busy_stop(struct busy_ctx *b)
{
	atomic_store(&b->done, 1);
	if (b->running)
		pthread_join(b->th, NULL);
	b->running = false;
}

/* Run one test after "ready": start, intervals, stop, result.  0 or -errno. */
static int run_test(const struct bc_agent_cfg *c, int fd, int listen_fd, struct bc_test *t,
		    struct bc_run_capture *cap)
{
	struct busy_ctx busy;
	struct bc_host_sample a, b;
	struct bc_bond_meta bm;
	struct json_object *m = NULL, *o, *v;
	int64_t next, hard_end;
	unsigned idx = 0;
	int r;

	r = next_msg(c, fd, c->idle_timeout_ms, &m);
	if (r < 0)
		return r;
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
	busy_start(&busy, listen_fd);
	if (cap && bc_run_capture_start(cap, &t->err) < 0) {
		busy_stop(&busy);
		reply_error(fd, BC_CTL_E_CAPTURE, t->err.msg);
		bc_host_sample_free(&a);
		bc_bond_meta_free(&bm);
		return -EIO;
	}
	r = bc_test_start(t, NULL);
	if (r < 0) {
		busy_stop(&busy);
		reply_error(fd, BC_CTL_E_BAD_PLAN, t->err.msg);
		bc_host_sample_free(&a);
		bc_bond_meta_free(&bm);
		return r;
	}
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("started"));
	bc_ctl_send(fd, o, 5000, NULL);
	json_object_put(o);
	say(c, "test %u running: %u stream(s), %u ms", t->plan.test_id,
	    bc_plan_total_streams(&t->plan), t->plan.duration_ms);
	next = t->start_ns + (int64_t)t->plan.interval_ms * 1000000;
	hard_end = t->start_ns + ((int64_t)t->plan.duration_ms + t->plan.tmax_ms + 30000) * 1000000;
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int64_t now = bc_mono_ns(), wait = (next - now) / 1000000;

		if (now >= hard_end) {
			say(c, "test %u: the client never said stop; ending it", t->plan.test_id);
			r = -ETIMEDOUT;
			goto out;
		}
		if (poll(&p, 1, wait > 0 ? (int)wait : 0) > 0) {
			r = next_msg(c, fd, 5000, &m);
			if (r < 0) {
				say(c, "test %u: control connection lost; cleaning up",
				    t->plan.test_id);
				goto out;
			}
			if (!strcmp(bc_ctl_type(m), "stop"))
				break;
			reply_error(fd, BC_CTL_E_UNEXPECTED, "expected stop during a test");
			json_object_put(m);
			m = NULL;
			continue;
		}
		if (bc_mono_ns() >= next) {
			o = snapshot_msg(t, idx++);
			bc_ctl_send(fd, o, 2000, NULL);
			json_object_put(o);
			next += (int64_t)t->plan.interval_ms * 1000000;
		}
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
	busy_stop(&busy);
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("result"));
	json_object_object_add(o, "tmax_ms", json_object_new_int64(t->plan.tmax_ms));
	json_object_object_add(o, "streams", bc_test_results_json(t));
	json_object_object_add(o, "counters", bc_host_delta_json(&a, &b));
	{
		struct json_object *meta = bc_host_metadata_json();
		struct bc_egress e;

		if (bc_egress_find(&t->local, &e) == 0)
			json_object_object_add(meta, "egress", bc_egress_json(&e));
		if (bm.is_bond)
			json_object_object_add(meta, "bond", bc_bond_meta_json(&bm));
		json_object_object_add(o, "metadata", meta);
	}
	if (cap)
		json_object_object_add(o, "capture", bc_run_capture_json(cap));
	r = bc_ctl_send(fd, o, 10000, NULL);
	json_object_put(o);
	if (r == 0 && cap) {
		struct bc_error be = {0};

		/* the pcap files go on the bulk connection, never in the result */
		if (bc_bulk_serve(listen_fd, t->plan.test_id, cap->token, &cap->cap, 30000, &be) <
		    0)
			say(c, "test %u: capture files not fetched: %s", t->plan.test_id, be.msg);
	}
	bc_host_sample_free(&b);
	say(c, "test %u done", t->plan.test_id);
	bc_host_sample_free(&a);
	bc_bond_meta_free(&bm);
	return r < 0 ? r : 1;
out:
	/* nobody waits for a result: no Tmax, free the agent for the next client now */
	bc_test_stop_senders(t);
	bc_test_stop_receivers(t, 0);
	busy_stop(&busy);
	bc_host_sample_free(&a);
	bc_bond_meta_free(&bm);
	return r;
}

/* A change-session message: refused, or the connection becomes a change session (2). */
static int change_request(const struct bc_agent_cfg *c, int fd, struct json_object *m,
			  struct bc_change_srv *cs, const char *host, volatile sig_atomic_t *quit)
{
	int r;

	if (!c->allow_changes) {
		reply_error(fd, BC_CTL_E_CHANGES_NOT_ALLOWED,
			    "this agent does not change its bond: run it with `bondcheck serve "
			    "--allow-changes` to allow journal, change and restore");
		say(c, "refused a change request from %s (no --allow-changes)", host);
		json_object_put(m);
		return 0;
	}
	r = bc_change_srv_start(cs, c, fd, m, host, quit);
	if (r == -EBUSY) {
		reply_error(fd, BC_CTL_E_BUSY,
			    "another change session holds this agent; try again when it ends");
		return 0;
	}
	if (r < 0) {
		reply_error(fd, BC_CTL_E_BUSY, "cannot start a change session now");
		return 0;
	}
	say(c, "change session from %s", host);
	return 2;
}

static bool is_change_msg(struct json_object *m)
{
	const char *t = bc_ctl_type(m);

	return !strcmp(t, "changes") || !strcmp(t, "journal") || !strcmp(t, "change") ||
	       !strcmp(t, "restore");
}

/*
 * One control connection.  Returns 1 when a test ran, 2 when the connection
 * became a change session (the change thread owns @fd now), 0 or -errno
 * otherwise.
 */
static int session(const struct bc_agent_cfg *c, int fd, int listen_fd,
		   const struct sockaddr_storage *peer, struct bc_change_srv *cs, const char *host,
		   volatile sig_atomic_t *quit)
{
	struct sockaddr_storage local;
	socklen_t ll = sizeof(local);
	int r;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &(int){1}, sizeof(int));
	getsockname(fd, (struct sockaddr *)&local, &ll);
	r = handshake(c, fd);
	if (r < 0)
		return r;
	for (;;) {
		struct json_object *m, *v, *o;
		struct bc_test t;
		struct bc_run_capture cap;
		struct bc_error err = {0};

		r = next_msg(c, fd, c->idle_timeout_ms, &m);
		if (r < 0)
			return r;
		if (!strcmp(bc_ctl_type(m), "bulk-hello")) {
			reply_error(
				fd, BC_CTL_E_UNSUPPORTED,
				"the bulk connection is reserved for per-packet records and not "
				"served by this version");
			json_object_put(m);
			continue;
		}
		if (!strcmp(bc_ctl_type(m), "run-to")) { /* matrix: workflow/agent-relay.c */
			r = bc_agent_relay(c, fd, m);
			json_object_put(m);
			if (r != 0)
				return r;
			continue;
		}
		if (is_change_msg(m)) {
			r = change_request(c, fd, m, cs, host, quit);
			if (r == 2)
				return r;
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
			r = bc_ctl_send(fd, o, 10000, NULL);
			json_object_put(o);
			say(c, "inspect answered");
			if (r < 0)
				return r;
			continue;
		}
		if (strcmp(bc_ctl_type(m), "test")) {
			reply_error(fd, BC_CTL_E_UNEXPECTED, "expected a test plan");
			json_object_put(m);
			continue;
		}
		bc_test_init(&t, false);
		v = json_object_object_get_ex(m, "plan", &v) ? v : NULL;
		r = bc_plan_from_json(v, &c->limits, &t.plan, &err);
		json_object_put(m);
		if (r < 0) {
			reply_error(fd, BC_CTL_E_BAD_PLAN, err.msg);
			continue;
		}
		t.peer = *peer;
		t.local = local;
		t.test_read_stall_ms = c->test_read_stall_ms;
		t.test_rcvbuf = c->test_rcvbuf;
		r = bc_test_open(&t, &err);
		if (r < 0) {
			reply_error(fd, r == -EADDRINUSE ? BC_CTL_E_PORT_IN_USE : BC_CTL_E_BAD_PLAN,
				    err.msg);
			say(c, "test refused: %s", err.msg);
			bc_test_free(&t);
			continue;
		}
		if (t.plan.capture) {
			r = bc_run_capture_open(&cap, "agent", &local, peer, c->port, NULL,
						t.plan.capture_buffer,
						t.plan.capture_neigh ? BC_CAPTURE_NEIGH : 0, &err);
			if (r < 0) {
				reply_error(fd, BC_CTL_E_CAPTURE, err.msg);
				say(c, "test refused: %s", err.msg);
				bc_test_free(&t);
				continue;
			}
		}
		o = json_object_new_object();
		json_object_object_add(o, "type", json_object_new_string("ready"));
		json_object_object_add(o, "streams", bc_test_ports_json(&t));
		v = bc_agent_place(&t); /* -R/--bidir with --place: reverse client ports */
		if (v)
			json_object_object_add(o, "placement", v);
		r = bc_ctl_send(fd, o, 5000, NULL);
		json_object_put(o);
		if (r == 0)
			r = run_test(c, fd, listen_fd, &t, t.plan.capture ? &cap : NULL);
		if (t.plan.capture)
			bc_run_capture_free(&cap);
		bc_test_free(&t);
		return r;
	}
}

int bc_agent_serve(const struct bc_agent_cfg *c, int listen_fd, volatile sig_atomic_t *quit,
		   struct bc_error *err)
{
	struct bc_change_srv cs = {0};
	bool ran = false;

	while (!*quit) {
		struct sockaddr_storage peer;
		socklen_t pl = sizeof(peer);
		struct pollfd p = {.fd = listen_fd, .events = POLLIN};
		char host[INET6_ADDRSTRLEN + 8] = "?";
		int fd, r;

		/* --once: a test ran; stay while a change session still holds its bond */
		if (ran && !bc_change_srv_busy(&cs))
			break;
		if (poll(&p, 1, 200) <= 0)
			continue;
		fd = accept4(listen_fd, (struct sockaddr *)&peer, &pl, SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED || errno == EAGAIN)
				continue;
			r = bc_error_set(err, -errno, "accept on the control socket failed: %s",
					 strerror(errno));
			bc_change_srv_stop(&cs);
			return r;
		}
		bc_sockaddr_unmap(&peer);
		getnameinfo((struct sockaddr *)&peer, pl, host, sizeof(host), NULL, 0,
			    NI_NUMERICHOST);
		say(c, "control connection from %s", host);
		r = session(c, fd, listen_fd, &peer, &cs, host, quit);
		if (r == 2)
			continue; /* the change session's thread owns fd */
		linger_close(fd);
		if (r == 1 && c->once)
			ran = true;
	}
	/* SIGINT/SIGTERM or --once: the change session restores its bond first */
	bc_change_srv_stop(&cs);
	return 0;
}
