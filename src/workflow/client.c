// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The client's end of a test: handshake, plan, streams, intervals, stop,
 * and the merged result of both ends (bondcheck/client.h, docs/protocol.md).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "bondcheck/json-get.h"
#include "bondcheck/client.h"
#include "bondcheck/ctl.h"
#include "bondcheck/host-stats.h"
#include "traffic/bond-meta.h"
#include "traffic/egress.h"
#include "traffic/test-end.h"
#include "workflow/client-conn.h"
#include "workflow/client-result.h"
#include "workflow/link-events.h"
#include "workflow/place.h"
#include "bondcheck/tap.h"
#include "workflow/run-capture.h"

void bc_client_cfg_defaults(struct bc_client_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->port = BC_CTL_PORT;
	c->connect_timeout_ms = 5000;
	bc_plan_defaults(&c->plan);
}

static int dial(const struct bc_client_cfg *c, struct sockaddr_storage *peer, struct bc_error *err)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res, *ai;
	char port[8];
	int r, fd = -1, last = -EHOSTUNREACH;

	hints.ai_family = c->family == 6 ? AF_INET6 : c->family == 4 ? AF_INET : AF_UNSPEC;
	snprintf(port, sizeof(port), "%u", c->port);
	r = getaddrinfo(c->peer, port, &hints, &res);
	if (r)
		return bc_error_set(err, -ENOENT, "cannot resolve the agent '%s': %s", c->peer,
				    gai_strerror(r));
	for (ai = res; ai; ai = ai->ai_next) {
		struct pollfd p;
		int e = 0;
		socklen_t l = sizeof(e);

		fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0 && errno != EINPROGRESS) {
			last = -errno;
			close(fd);
			fd = -1;
			continue;
		}
		p = (struct pollfd){.fd = fd, .events = POLLOUT};
		if (poll(&p, 1, c->connect_timeout_ms) <= 0) {
			last = -ETIMEDOUT;
		} else {
			getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &l);
			if (!e) {
				memcpy(peer, ai->ai_addr, ai->ai_addrlen);
				break;
			}
			last = -e;
		}
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return bc_error_set(err, last,
				    "agent %s port %u is unreachable: %s; is `bondcheck serve` "
				    "running there and the port open?",
				    c->peer, c->port, strerror(-last));
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &(int){1}, sizeof(int));
	return fd;
}

/* Map an agent's error reply to an errno and a sentence. */
static int agent_error(struct json_object *m, struct bc_error *err)
{
	/* "" for an absent or null member: an agent's reply is untrusted */
	const char *code = bc_json_str(m, "code");
	const char *msg = bc_json_str(m, "message");
	int r = -EPROTO;

	if (!strcmp(code, BC_CTL_E_VERSION))
		r = -EPROTONOSUPPORT;
	else if (!strcmp(code, BC_CTL_E_AUTH_FAILED) || !strcmp(code, BC_CTL_E_AUTH_REQUIRED))
		r = -EACCES;
	else if (!strcmp(code, BC_CTL_E_PORT_IN_USE))
		r = -EADDRINUSE;
	else if (!strcmp(code, BC_CTL_E_BAD_PLAN))
		r = -EINVAL;
	else if (!strcmp(code, BC_CTL_E_BUSY))
		r = -EBUSY;
	return bc_error_set(err, r, "agent: %s (%s)", *msg ? msg : "an error without a message",
			    *code ? code : "no code");
}

/* Receive a message of @type; an error reply or another type fails. */
/* Any stream of @t sent by this end (the client): forward or bidirectional. */
static bool client_sends(const struct bc_test *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		if (!bc_plan_stream_reverse(&t->plan, i))
			return true;
	return false;
}

static int expect(int fd, const char *type, int timeout_ms, struct json_object **out,
		  struct bc_error *err)
{
	int r = bc_ctl_recv(fd, BC_CTL_MAX_REPLY, timeout_ms, out, err);

	if (r == -EPROTONOSUPPORT)
		return r;
	if (r < 0)
		return r;
	if (!strcmp(bc_ctl_type(*out), "error")) {
		r = agent_error(*out, err);
		json_object_put(*out);
		*out = NULL;
		return r;
	}
	if (strcmp(bc_ctl_type(*out), type)) {
		r = bc_error_set(err, -EPROTO, "expected '%s' from the agent, got '%s'", type,
				 bc_ctl_type(*out));
		json_object_put(*out);
		*out = NULL;
	}
	return r;
}

static int handshake(const struct bc_client_cfg *c, int fd, struct bc_clock_est *ce,
		     struct bc_error *err)
{
	char cnonce[BC_AUTH_HEX], proof[BC_AUTH_HEX];
	struct json_object *o, *m;
	const char *anonce, *mac;
	uint64_t t1;
	int r;

	if (bc_auth_nonce(cnonce) < 0)
		return bc_error_set(err, -EIO, "no random numbers (libsodium init failed)");
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("hello"));
	json_object_object_add(o, "protocol", json_object_new_int(BC_CTL_VERSION));
	json_object_object_add(o, "software", json_object_new_string("bondcheck " BC_VERSION));
	t1 = bc_real_ns();
	r = bc_ctl_send(fd, o, 5000, err);
	json_object_put(o);
	if (r < 0)
		return r;
	r = expect(fd, "challenge", 10000, &m, err);
	if (r == 0)
		bc_clock_sample(ce, m, t1, bc_real_ns());
	if (r == -EPROTONOSUPPORT && !strstr(err->msg, "agent:")) {
		bc_error_clear(err);
		return bc_error_set(err, r,
				    "the agent speaks another control-protocol version; "
				    "run the same bondcheck version on both hosts");
	}
	if (r < 0)
		return r;
	anonce = bc_json_str(m, "nonce");
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("auth"));
	json_object_object_add(o, "nonce", json_object_new_string(cnonce));
	if (c->key.len) {
		if (bc_auth_proof(&c->key, "client", anonce, cnonce, proof) < 0) {
			json_object_put(o);
			json_object_put(m);
			return bc_error_set(err, -EPROTO,
					    "the agent's challenge nonce is malformed");
		}
		json_object_object_add(o, "mac", json_object_new_string(proof));
	}
	r = bc_ctl_send(fd, o, 5000, err);
	json_object_put(o);
	if (r < 0) {
		json_object_put(m);
		return r;
	}
	r = expect(fd, "welcome", 10000, &o, err);
	if (r == -EACCES && strstr(err->msg, BC_CTL_E_AUTH_REQUIRED)) {
		bc_error_clear(err);
		r = bc_error_set(err, r,
				 "the agent requires a pre-shared key; pass the same file "
				 "with --auth-key");
	} else if (r == -EACCES) {
		bc_error_clear(err);
		r = bc_error_set(err, r,
				 "authentication failed: the key given with --auth-key "
				 "differs from the agent's");
	}
	if (r == 0 && c->key.len) {
		mac = bc_json_str(o, "mac");
		if (!*mac || bc_auth_check(&c->key, "agent", cnonce, anonce, mac) < 0)
			r = bc_error_set(
				err, -EACCES,
				"the agent did not prove it holds the key (it runs without "
				"--auth-key, or with another key)");
	}
	json_object_put(m);
	json_object_put(o);
	return r;
}

static int run_test(const struct bc_client_cfg *c, int fd, struct bc_test *t,
		    struct bc_clock_est *ce, struct json_object *findings,
		    struct json_object *placement, struct bc_run_capture *cap,
		    const struct sockaddr_storage *ctl, struct json_object **out,
		    struct bc_error *err)
{
	struct bc_ivl_state st = {.all = json_object_new_array()};
	struct bc_host_sample ha, hb;
	struct bc_bond_meta bm;
	struct bc_link_watch lw;
	struct json_object *o, *m = NULL, *v, *agent_streams = NULL, *res, *notes, *ends, *meta;
	struct json_object *counters;
	int64_t end;
	unsigned n_ivl = 0, max_ivl;
	uint64_t t1;
	time_t now;
	char stamp[32];
	int r;

	if (t->plan.no_bond_meta) /* the suite inspected the bond already */
		memset(&bm, 0, sizeof(bm));
	else
		bc_bond_meta_begin(&bm, &t->local);
	bc_host_sample_take(&ha);
	/* a slave that goes down during the run: when (slave-down); no watch, no time */
	if (bc_link_watch_start(&lw, NULL) < 0)
		memset(&lw, 0, sizeof(lw));
	meta = bc_host_metadata_json();
	{
		struct bc_egress e;

		if (bc_egress_find(&t->local, &e) == 0)
			json_object_object_add(meta, "egress", bc_egress_json(&e));
	}
	if (cap) {
		r = bc_run_capture_start(cap, err);
		if (r < 0)
			goto fail;
	}
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("start"));
	t1 = bc_real_ns();
	r = bc_ctl_send(fd, o, 5000, err);
	json_object_put(o);
	if (r == 0)
		r = expect(fd, "started", 15000, &m, err);
	if (r < 0)
		goto fail;
	bc_clock_sample(ce, m, t1, bc_real_ns());
	json_object_put(m);
	r = bc_test_start(t, err);
	if (r < 0)
		goto fail;
	end = t->start_ns + (int64_t)t->plan.duration_ms * 1000000;
	/* an agent's intervals are kept: no more than the plan makes (a hostile
	 * agent sending them without end would grow this process) */
	max_ivl = t->plan.duration_ms / (t->plan.interval_ms ? t->plan.interval_ms : 1) + 2;
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int64_t mono = bc_mono_ns(), left;

		if (c->on_tick) {
			/* > 0: the streams end that many ms from now (never past the
			 * plan's duration: the senders stop there by themselves) */
			r = c->on_tick(c->ctx, mono - t->start_ns, err);
			if (r < 0)
				goto fail;
			if (r > 0 && mono + (int64_t)r * 1000000 < end)
				end = mono + (int64_t)r * 1000000;
		}
		left = (end - mono) / 1000000;
		if (left <= 0)
			break;
		if (c->on_tick && left > (c->tick_ms ? c->tick_ms : 10))
			left = c->tick_ms ? c->tick_ms : 10;
		if (poll(&p, 1, (int)left) <= 0)
			continue;
		r = bc_ctl_recv(fd, BC_CTL_MAX_REPLY, 5000, &m, err);
		if (r < 0)
			goto fail;
		if (!strcmp(bc_ctl_type(m), "interval") && n_ivl < max_ivl) {
			bc_client_interval(c, t, &st, m);
			n_ivl++;
		} else if (!strcmp(bc_ctl_type(m), "error")) {
			r = agent_error(m, err);
			json_object_put(m);
			goto fail;
		}
		json_object_put(m);
	}
	bc_test_stop_senders(t);
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("stop"));
	json_object_object_add(o, "sent", bc_test_sent_json(t));
	r = bc_ctl_send(fd, o, 5000, err);
	json_object_put(o);
	/* When we only receive, our capture has seen everything once Tmax has
	 * passed (the same wait as the agent's, RFC 7680): stop it while the
	 * agent finishes its end, so that it stops before the sender's.  When we
	 * send, ours must stop after the agent's (after its result, below): a
	 * TCP socket buffer or a slave's qdisc still drains after the stop, and
	 * what the agent's capture saw arrive must have been seen leaving here,
	 * else it counts as arrived_not_left (capture-incomplete on a healthy
	 * run, issue 15). */
	if (cap && r == 0 && !client_sends(t)) {
		int64_t until = bc_mono_ns() + (int64_t)t->plan.tmax_ms * 1000000;

		while (bc_mono_ns() < until) {
			struct timespec ts = {0, 10000000};

			nanosleep(&ts, NULL);
		}
		bc_run_capture_stop(cap);
	}
	/* the agent answers after waiting Tmax; late intervals may come first.
	 * All of it within Tmax + 30 s, however many messages come meanwhile. */
	end = bc_mono_ns() + ((int64_t)t->plan.tmax_ms + 30000) * 1000000;
	for (; r == 0;) {
		int64_t left = (end - bc_mono_ns()) / 1000000;

		if (left <= 0) {
			r = bc_error_set(
				err, -ETIMEDOUT,
				"the agent sent no result within Tmax + 30 s (%u ms) of stop",
				t->plan.tmax_ms + 30000);
			break;
		}
		r = bc_ctl_recv(fd, BC_CTL_MAX_REPLY, (int)left, &m, err);
		if (r == -ETIMEDOUT) {
			bc_error_clear(err);
			r = bc_error_set(
				err, r,
				"the agent sent no result within Tmax + 30 s (%u ms) of stop",
				t->plan.tmax_ms + 30000);
		}
		if (r < 0)
			break;
		if (!strcmp(bc_ctl_type(m), "result"))
			break;
		/* the interval that ends at the test's duration is sent as our stop
		 * is on its way (or after it): kept, within the same bound */
		if (!strcmp(bc_ctl_type(m), "interval") && n_ivl < max_ivl) {
			bc_client_interval(c, t, &st, m);
			n_ivl++;
		}
		if (!strcmp(bc_ctl_type(m), "error")) {
			r = agent_error(m, err);
			json_object_put(m);
			break;
		}
		json_object_put(m);
	}
	if (r < 0)
		goto fail;
	json_object_object_get_ex(m, "streams", &agent_streams);
	/* the agent's final send counts make our receivers' loss exact */
	for (size_t i = 0; agent_streams && i < json_object_array_length(agent_streams); i++) {
		struct json_object *s = json_object_array_get_idx(agent_streams, i);
		int64_t id = bc_json_i64(s, "id", 0);

		if (id >= 0 && (uint64_t)id < t->n &&
		    json_object_object_get_ex(s, "sent_packets", &v))
			t->peer_sent[id] = json_object_get_uint64(v);
	}
	bc_test_stop_receivers(t, 0);
	if (cap)
		bc_run_capture_stop(cap);
	bc_host_sample_take(&hb);
	bc_bond_meta_end(&bm);
	if (bm.is_bond)
		json_object_object_add(meta, "bond", bc_bond_meta_json(&bm));

	res = json_object_new_object();
	notes = json_object_new_array();
	if (t->plan.no_bond_meta)
		json_object_array_add(
			notes, json_object_new_string("metadata.bond not collected on either end "
						      "(a light test of the suite, which inspected "
						      "both bonds once)"));
	now = time(NULL);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_object_object_add(res, "schema_version", json_object_new_int(1));
	json_object_object_add(res, "bondcheck_version", json_object_new_string(BC_VERSION));
	json_object_object_add(res, "generated_at", json_object_new_string(stamp));
	json_object_object_add(res, "test", bc_plan_to_json(&t->plan));
	json_object_object_add(res, "tmax_ms", json_object_new_int64(t->plan.tmax_ms));
	o = bc_client_merge_streams(t, agent_streams);
	json_object_object_add(res, "streams", o);
	bc_client_summarize(c, t, res, o, notes);
	{
		/* one boot, one CLOCK_REALTIME (a boot_id from the agent may be anything) */
		const char *ba = bc_json_str(meta, "boot_id");
		const char *bb = bc_json_str(json_object_object_get(m, "metadata"), "boot_id");

		bc_client_clock(ce, ba[0] && !strcmp(ba, bb), res, o, notes);
	}
	ends = json_object_new_object();
	counters = bc_host_delta_json(&ha, &hb);
	bc_link_events_add(counters, &lw, t->start_ns);
	json_object_object_add(ends, "client", bc_client_end_json(counters, meta));
	meta = NULL;
	json_object_object_add(
		ends, "agent",
		bc_client_end_json(json_object_get(json_object_object_get(m, "counters")),
				   json_object_get(json_object_object_get(m, "metadata"))));
	bc_client_notes(o, ends, notes);
	bc_slave_down_findings(ends, findings);
	bc_client_flaps(ends, findings);
	json_object_object_add(res, "ends", ends);
	json_object_object_add(res, "intervals", st.all);
	st.all = NULL;
	json_object_object_add(res, "notes", notes);
	json_object_object_add(res, "findings", json_object_get(findings));
	if (placement)
		json_object_object_add(res, "placement", json_object_get(placement));
	if (cap) {
		r = bc_run_capture_attribute(cap, t->plan.test_id, ctl, &t->local,
					     json_object_object_get(m, "capture"), res,
					     json_object_object_get(res, "findings"), notes,
					     c->capture_fetch_only, err);
		if (r < 0) {
			json_object_put(res);
			json_object_put(m);
			bc_host_sample_free(&hb);
			goto fail;
		}
	}
	json_object_put(m);
	*out = res;
	r = 0;
	bc_host_sample_free(&hb);
fail:
	bc_link_watch_free(&lw);
	bc_host_sample_free(&ha);
	bc_bond_meta_free(&bm);
	json_object_put(meta);
	json_object_put(st.all);
	json_object_put(st.prev_local);
	json_object_put(st.prev_agent);
	free(st.lost_cum);
	return r;
}

int bc_client_peer_inspect(const struct bc_client_cfg *c, struct json_object **reply,
			   struct sockaddr_storage *local, struct sockaddr_storage *peer,
			   void (*meanwhile)(void *ctx, const struct sockaddr_storage *local),
			   void *ctx, struct bc_error *err)
{
	struct json_object *o, *m = NULL;
	socklen_t l = sizeof(*local);
	int fd, r;
	struct bc_clock_est ce = {0}; /* an inspect session: no test, no one-way delay */

	*reply = NULL;
	fd = dial(c, peer, err);
	if (fd < 0)
		return fd;
	getsockname(fd, (struct sockaddr *)local, &l);
	bc_sockaddr_unmap(local);
	bc_sockaddr_unmap(peer);
	r = handshake(c, fd, &ce, err);
	if (r < 0)
		goto out;
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("inspect"));
	r = bc_ctl_send(fd, o, 5000, err);
	json_object_put(o);
	if (r < 0)
		goto out;
	if (meanwhile) /* our own end's collector runs while the agent's does */
		meanwhile(ctx, local);
	/* the agent runs its collector: seconds under emulation */
	r = bc_ctl_recv(fd, BC_CTL_MAX_REPLY, 60000, &m, err);
	if (r < 0)
		goto out;
	if (!strcmp(bc_ctl_type(m), "error") &&
	    !strcmp(bc_json_str(m, "code"), BC_CTL_E_UNEXPECTED)) {
		r = bc_error_set(err, -EOPNOTSUPP,
				 "the agent does not answer `inspect` (an older bondcheck): its "
				 "bond is not inspected");
	} else if (!strcmp(bc_ctl_type(m), "error")) {
		r = agent_error(m, err);
	} else if (strcmp(bc_ctl_type(m), "inspect")) {
		r = bc_error_set(err, -EPROTO, "expected 'inspect' from the agent, got '%s'",
				 bc_ctl_type(m));
	} else {
		*reply = m;
		m = NULL;
	}
	json_object_put(m);
out:
	close(fd);
	return r;
}

int bc_client_run(const struct bc_client_cfg *c, struct json_object **out, struct bc_error *err)
{
	struct json_object *o, *m = NULL, *findings = json_object_new_array(), *placement = NULL;
	struct bc_run_capture cap = {0};
	struct bc_clock_est ce = {0};
	struct sockaddr_storage ctl;
	uint16_t *ports = NULL;
	struct bc_test t;
	socklen_t l;
	int fd, r;

	*out = NULL;
	bc_test_init(&t, true);
	t.plan = c->plan;
	t.cport_base = c->cport_base;
	t.cport_stride = c->cport_stride;
	fd = dial(c, &t.peer, err);
	if (fd < 0) {
		json_object_put(findings);
		return fd;
	}
	l = sizeof(t.local);
	getsockname(fd, (struct sockaddr *)&t.local, &l);
	r = handshake(c, fd, &ce, err);
	if (r < 0)
		goto out;
	bc_sockaddr_unmap(&t.peer);
	ctl = t.peer;
	bc_sockaddr_set_port(&ctl, c->port);
	if (c->capture || c->keep_pcaps) {
		struct bc_error te = {0};

		t.plan.capture = BC_PLAN_CAPTURE_VERSION;
		t.plan.capture_source = (uint32_t)c->capture_source;
		/* the taps need both ends: when this one cannot, neither uses them */
		if (c->capture_source == BC_CAPSRC_AUTO &&
		    (!bc_tap_built() || bc_tap_check_privileges(&te) < 0))
			t.plan.capture_source = BC_CAPSRC_PCAP;
		if ((c->capture_source == BC_CAPSRC_TAPS || c->capture_source == BC_CAPSRC_BOTH) &&
		    !bc_tap_built()) {
			r = bc_error_set(err, -EOPNOTSUPP,
					 "--capture %s: this bondcheck was built without the slave "
					 "taps (clang, bpftool, libbpf); use --capture pcap",
					 bc_capsrc_name((enum bc_capsrc)c->capture_source));
			goto out;
		}
		if ((c->capture_source == BC_CAPSRC_TAPS || c->capture_source == BC_CAPSRC_BOTH) &&
		    bc_tap_check_privileges(&te) < 0) {
			r = bc_error_set(err, -EPERM, "--capture %s: %s; use --capture pcap",
					 bc_capsrc_name((enum bc_capsrc)c->capture_source), te.msg);
			goto out;
		}
	}
	t.plan.family = t.peer.ss_family == AF_INET6 ? 6 : 4;
	if (t.plan.proto == BC_L4_UDP && t.plan.length > bc_plan_max_length(t.plan.family)) {
		r = bc_error_set(err, -EINVAL, "--length %u exceeds IPv%d's UDP maximum %u",
				 t.plan.length, t.plan.family, bc_plan_max_length(t.plan.family));
		goto out;
	}
	/* without placement its collector snapshot only checks hash-single-path,
	 * which a light (no_bond_meta) test of the suite leaves to its aggregate test */
	if (c->place_k || c->n_place_onto || !t.plan.no_bond_meta)
		r = bc_run_place(&t, c->place_k, c->streams_given, c->place_onto, c->n_place_onto,
				 c->cport_base, c->cport_stride, &ports, findings, &placement, err);
	if (r < 0)
		goto out;
	/* --rate is the total: --place may have changed the stream count */
	if (c->total_rate_bps > 0)
		t.plan.rate_bps = (uint64_t)(c->total_rate_bps / t.plan.streams);
	randombytes_buf(&t.plan.test_id, sizeof(t.plan.test_id));
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("test"));
	json_object_object_add(o, "plan", bc_plan_to_json(&t.plan));
	r = bc_ctl_send(fd, o, 5000, err);
	json_object_put(o);
	if (r == 0)
		r = expect(fd, "ready", 15000, &m, err);
	if (r < 0)
		goto out;
	r = bc_run_place_reverse(&t, m, &ports, &placement, err);
	json_object_put(m);
	if (r < 0)
		goto out;
	/* before the data sockets: the ring then holds the reverse streams' hellos too */
	if (t.plan.capture) {
		r = bc_run_capture_open(&cap, "client", &t.local, &t.peer, c->port, c->keep_pcaps,
					t.plan.capture_buffer,
					t.plan.capture_neigh ? BC_CAPTURE_NEIGH : 0,
					c->capture_source == BC_CAPSRC_AUTO &&
							!t.plan.capture_source
						? BC_CAPSRC_PCAP
						: (enum bc_capsrc)c->capture_source,
					err);
		if (r < 0)
			goto out;
		cap.cap.test_stall_ms = c->test_capture_stall_ms;
	}
	r = bc_test_open(&t, err);
	if (r < 0)
		goto out;
	r = run_test(c, fd, &t, &ce, findings, placement, t.plan.capture ? &cap : NULL, &ctl, out,
		     err);
out:
	bc_run_capture_free(&cap);
	bc_test_free(&t);
	close(fd);
	free(ports);
	json_object_put(findings);
	json_object_put(placement);
	return r;
}

int bc_client_connect(const struct bc_client_cfg *c, struct sockaddr_storage *peer,
		      struct bc_error *err)
{
	struct bc_clock_est ce = {0}; /* a control session: no test, no one-way delay */
	int fd = dial(c, peer, err), r;

	if (fd < 0)
		return fd;
	r = handshake(c, fd, &ce, err);
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}
