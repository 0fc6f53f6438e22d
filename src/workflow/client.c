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

#include "bondcheck/client.h"
#include "bondcheck/ctl.h"
#include "bondcheck/host-stats.h"
#include "traffic/egress.h"
#include "traffic/test-end.h"
#include "workflow/place.h"

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
	struct json_object *v;
	const char *code =
		json_object_object_get_ex(m, "code", &v) ? json_object_get_string(v) : "";
	const char *msg =
		json_object_object_get_ex(m, "message", &v) ? json_object_get_string(v) : "";
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
	return bc_error_set(err, r, "agent: %s (%s)", msg, code);
}

/* Receive a message of @type; an error reply or another type fails. */
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

static int handshake(const struct bc_client_cfg *c, int fd, struct bc_error *err)
{
	char cnonce[BC_AUTH_HEX], proof[BC_AUTH_HEX];
	struct json_object *o, *m, *v;
	const char *anonce, *mac;
	int r;

	if (bc_auth_nonce(cnonce) < 0)
		return bc_error_set(err, -EIO, "no random numbers (libsodium init failed)");
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("hello"));
	json_object_object_add(o, "protocol", json_object_new_int(BC_CTL_VERSION));
	json_object_object_add(o, "software", json_object_new_string("bondcheck " BC_VERSION));
	r = bc_ctl_send(fd, o, 5000, err);
	json_object_put(o);
	if (r < 0)
		return r;
	r = expect(fd, "challenge", 10000, &m, err);
	if (r == -EPROTONOSUPPORT && !strstr(err->msg, "agent:")) {
		bc_error_clear(err);
		return bc_error_set(err, r,
				    "the agent speaks another control-protocol version; "
				    "run the same bondcheck version on both hosts");
	}
	if (r < 0)
		return r;
	anonce = json_object_object_get_ex(m, "nonce", &v) ? json_object_get_string(v) : "";
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
		mac = json_object_object_get_ex(o, "mac", &v) ? json_object_get_string(v) : NULL;
		if (!mac || bc_auth_check(&c->key, "agent", cnonce, anonce, mac) < 0)
			r = bc_error_set(
				err, -EACCES,
				"the agent did not prove it holds the key (it runs without "
				"--auth-key, or with another key)");
	}
	json_object_put(m);
	json_object_put(o);
	return r;
}

static struct json_object *find_id(struct json_object *arr, int64_t id)
{
	size_t n = arr ? json_object_array_length(arr) : 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(arr, i), *v;

		if (json_object_object_get_ex(o, "id", &v) && json_object_get_int64(v) == id)
			return o;
	}
	return NULL;
}

static int64_t get_i64(struct json_object *o, const char *k)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? json_object_get_int64(v) : 0;
}

static double get_dbl(struct json_object *o, const char *k)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? json_object_get_double(v) : 0;
}

static int64_t retrans(struct json_object *snap)
{
	struct json_object *ti;

	return snap && json_object_object_get_ex(snap, "tcp_info", &ti)
		       ? get_i64(ti, "total_retrans")
		       : 0;
}

struct ivl_state {
	struct json_object *prev_local, *prev_agent, *all;
	double prev_t;
};

/* One interval from the agent's cumulative snapshot and ours taken now. */
static void interval(const struct bc_client_cfg *c, struct bc_test *t, struct ivl_state *st,
		     struct json_object *msg)
{
	struct json_object *agent = NULL, *local = bc_test_snap_json(t), *o, *arr;
	double now = get_dbl(msg, "seconds"), dt = now - st->prev_t, sum = 0;

	json_object_object_get_ex(msg, "streams", &agent);
	o = json_object_new_object();
	json_object_object_add(o, "index", json_object_new_int((int)get_i64(msg, "index")));
	json_object_object_add(o, "start_s", json_object_new_double(st->prev_t));
	json_object_object_add(o, "end_s", json_object_new_double(now));
	arr = json_object_new_array();
	for (uint32_t i = 0; i < t->n; i++) {
		bool rev = bc_plan_stream_reverse(&t->plan, i);
		struct json_object *tx = find_id(rev ? agent : local, i);
		struct json_object *rx = find_id(rev ? local : agent, i);
		struct json_object *ptx = find_id(rev ? st->prev_agent : st->prev_local, i);
		struct json_object *prx = find_id(rev ? st->prev_local : st->prev_agent, i);
		struct json_object *s = json_object_new_object(), *ti;
		double bytes =
			(double)(get_i64(rx, "received_bytes") - get_i64(prx, "received_bytes"));
		double gp = dt > 0 ? 8.0 * bytes / dt : 0;

		json_object_object_add(s, "id", json_object_new_int64(i));
		json_object_object_add(
			s, "direction",
			json_object_new_string(rev ? "agent-to-client" : "client-to-agent"));
		json_object_object_add(s, "goodput_bps", json_object_new_double(gp));
		json_object_object_add(s, "received_bytes", json_object_new_int64((int64_t)bytes));
		if (t->plan.proto == BC_L4_UDP) {
			json_object_object_add(s, "sent_packets",
					       json_object_new_int64(get_i64(tx, "sent_packets") -
								     get_i64(ptx, "sent_packets")));
			json_object_object_add(
				s, "received_packets",
				json_object_new_int64(get_i64(rx, "received_packets") -
						      get_i64(prx, "received_packets")));
			json_object_object_add(s, "lost_packets",
					       json_object_new_int64(get_i64(rx, "lost_packets") -
								     get_i64(prx, "lost_packets")));
			json_object_object_add(
				s, "out_of_order_packets",
				json_object_new_int64(get_i64(rx, "out_of_order_packets") -
						      get_i64(prx, "out_of_order_packets")));
		} else {
			json_object_object_add(s, "retransmits",
					       json_object_new_int64(retrans(tx) - retrans(ptx)));
			if (tx && json_object_object_get_ex(tx, "tcp_info", &ti)) {
				json_object_object_add(
					s, "rtt_us", json_object_new_int64(get_i64(ti, "rtt_us")));
				json_object_object_add(
					s, "snd_cwnd",
					json_object_new_int64(get_i64(ti, "snd_cwnd")));
				json_object_object_add(
					s, "reord_seen",
					json_object_new_int64(get_i64(ti, "reord_seen")));
			}
		}
		sum += gp;
		json_object_array_add(arr, s);
	}
	json_object_object_add(o, "streams", arr);
	json_object_object_add(o, "sum_goodput_bps", json_object_new_double(sum));
	json_object_array_add(st->all, json_object_get(o));
	if (c->on_interval)
		c->on_interval(c->ctx, o);
	else
		json_object_put(o);
	json_object_put(st->prev_local);
	json_object_put(st->prev_agent);
	st->prev_local = local;
	st->prev_agent = json_object_get(agent);
	st->prev_t = now;
}

/* Copy @keys from @src into @dst when present. */
static void copy_keys(struct json_object *dst, struct json_object *src, const char *const *keys)
{
	for (; *keys; keys++) {
		struct json_object *v;

		if (src && json_object_object_get_ex(src, *keys, &v))
			json_object_object_add(dst, *keys, json_object_get(v));
	}
}

static struct json_object *merge_streams(struct bc_test *t, struct json_object *agent_streams)
{
	static const char *const tx_keys[] = {"sent_packets", "sent_bytes",  "send_errors",
					      "enobufs",      "offered_bps", "send_rate_bps",
					      "limited_by",   NULL};
	static const char *const rx_keys[] = {"received_packets",     "received_bytes",
					      "lost_packets",	      "duplicate_packets",
					      "out_of_order_packets", "late_packets",
					      "goodput_bps",	      "jitter_ms",
					      "reordering",	      NULL};
	struct json_object *local = bc_test_results_json(t), *arr = json_object_new_array();

	for (uint32_t i = 0; i < t->n; i++) {
		bool rev = bc_plan_stream_reverse(&t->plan, i);
		struct json_object *tx = find_id(rev ? agent_streams : local, i);
		struct json_object *rx = find_id(rev ? local : agent_streams, i);
		struct json_object *s = json_object_new_object(), *ti;

		json_object_object_add(s, "id", json_object_new_int64(i));
		json_object_object_add(
			s, "protocol",
			json_object_new_string(t->plan.proto == BC_L4_UDP ? "udp" : "tcp"));
		json_object_object_add(
			s, "direction",
			json_object_new_string(rev ? "agent-to-client" : "client-to-agent"));
		json_object_object_add(s, "client_port",
				       json_object_new_int64(t->streams[i].local_port));
		json_object_object_add(s, "agent_port",
				       json_object_new_int64(t->streams[i].remote_port));
		copy_keys(s, tx, tx_keys);
		copy_keys(s, rx, rx_keys);
		if (t->plan.proto == BC_L4_TCP) {
			json_object_object_add(
				s, "retransmits",
				json_object_new_int64(
					tx && json_object_object_get_ex(tx, "tcp_info", &ti)
						? get_i64(ti, "total_retrans")
						: 0));
		}
		json_object_object_add(s, "sender", json_object_get(tx));
		json_object_object_add(s, "receiver", json_object_get(rx));
		json_object_array_add(arr, s);
	}
	json_object_put(local);
	return arr;
}

static bool tcp_timestamps(void)
{
	FILE *f = fopen("/proc/sys/net/ipv4/tcp_timestamps", "re");
	int v = 1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = 1;
		fclose(f);
	}
	return v != 0;
}

/* Ceiling of one direction, bits/s, with the link description; 0 when unknown. */
static double ceiling(const struct bc_client_cfg *c, const struct bc_test *t,
		      struct json_object *result, struct json_object *notes)
{
	struct bc_egress e;
	struct bc_ceiling_in in = {.ip_version = t->plan.family,
				   .proto = t->plan.proto,
				   .tcp_timestamps = tcp_timestamps(),
				   .udp_payload = t->plan.proto == BC_L4_UDP ? t->plan.length : 0};
	struct bc_ceiling out;
	struct bc_link_rate rate;
	struct json_object *l = json_object_new_object();
	double g[BC_EGRESS_MAX_SLAVES], total = 0;
	bool have = bc_egress_find(&t->local, &e) == 0;

	in.mtu = have ? e.dev.mtu : 1500;
	if (c->link_rate_bps > 0) {
		rate = (struct bc_link_rate){c->link_rate_bps, c->link_conv, BC_RATE_OPTION};
	} else if (have && e.is_bond && e.n_slaves) {
		uint64_t used = 0;

		for (unsigned i = 0; i < e.n_slaves; i++) {
			in.rate_bps = e.slaves[i].rate.rate_bps;
			in.conv = e.slaves[i].rate.conv;
			g[i] = in.rate_bps > 0 && bc_ceiling_link(&in, &out, NULL) == 0
				       ? out.goodput_bps
				       : 0;
			used |= 1ull << i;
		}
		if (bc_ceiling_bond(e.bond_mode, g, e.n_slaves, e.bond_mode == 1 ? 1 : used, &total,
				    NULL) < 0)
			total = 0;
		json_object_object_add(l, "interface", json_object_new_string(e.dev.name));
		json_object_object_add(l, "bond_mode", json_object_new_int(e.bond_mode));
		json_object_object_add(l, "slaves", json_object_new_int((int)e.n_slaves));
		json_object_array_add(
			notes,
			json_object_new_string(
				"bond ceiling assumes every slave carries test traffic (hash "
				"modes: an upper "
				"bound until placement or capture says which links were used)"));
		json_object_object_add(l, "mtu", json_object_new_int((int)in.mtu));
		json_object_object_add(result, "link", l);
		return total;
	} else if (have) {
		rate = e.dev.rate;
	} else {
		rate = (struct bc_link_rate){0, BC_CONV_ETHERNET, BC_RATE_NONE};
	}
	in.rate_bps = rate.rate_bps;
	in.conv = rate.conv;
	json_object_object_add(l, "interface", json_object_new_string(have ? e.dev.name : ""));
	json_object_object_add(l, "rate_bps", json_object_new_double(rate.rate_bps));
	json_object_object_add(l, "rate_source",
			       json_object_new_string(bc_rate_source_name(rate.source)));
	json_object_object_add(
		l, "accounting",
		json_object_new_string(rate.conv == BC_CONV_QDISC
					       ? "qdisc (IP length + 14 per segment)"
					       : "ethernet (IP length + 38 per frame)"));
	json_object_object_add(l, "mtu", json_object_new_int((int)in.mtu));
	json_object_object_add(result, "link", l);
	if (rate.source == BC_RATE_ETHTOOL)
		json_object_array_add(
			notes, json_object_new_string("link rate is the negotiated speed; veth and "
						      "emulated NICs do not enforce it: "
						      "give --link-rate for shaped links"));
	if (rate.rate_bps <= 0 || bc_ceiling_link(&in, &out, NULL) < 0)
		return 0;
	return out.goodput_bps;
}

static void summarize(const struct bc_client_cfg *c, struct bc_test *t, struct json_object *res,
		      struct json_object *streams, struct json_object *notes)
{
	double sum[2] = {0, 0}, ceil = ceiling(c, t, res, notes), eff;
	bool any[2] = {false, false};
	struct json_object *s = json_object_new_object();

	for (size_t i = 0; i < json_object_array_length(streams); i++) {
		struct json_object *o = json_object_array_get_idx(streams, i);
		int rev = bc_plan_stream_reverse(&t->plan, (uint32_t)i);

		sum[rev] += get_dbl(o, "goodput_bps");
		any[rev] = true;
	}
	for (int d = 0; d < 2; d++) {
		struct json_object *o;

		if (!any[d])
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "goodput_bps", json_object_new_double(sum[d]));
		json_object_object_add(o, "ceiling_bps", json_object_new_double(ceil));
		json_object_object_add(o, "efficiency",
				       json_object_new_double(bc_efficiency(sum[d], ceil)));
		json_object_object_add(s, d ? "agent-to-client" : "client-to-agent", o);
	}
	json_object_object_add(res, "sum", s);
	eff = bc_efficiency(any[0] ? sum[0] : sum[1], ceil);
	json_object_object_add(res, "goodput_bps",
			       json_object_new_double(any[0] ? sum[0] : sum[1]));
	json_object_object_add(res, "ceiling_bps", json_object_new_double(ceil));
	json_object_object_add(res, "efficiency", json_object_new_double(eff));
}

static struct json_object *end_json(struct json_object *counters, struct json_object *meta)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "counters", counters);
	json_object_object_add(o, "metadata", meta);
	return o;
}

/* A stream that failed on either end says so in the notes. */
static void note_stream_errors(struct json_object *streams, struct json_object *notes)
{
	static const char *const ends[] = {"sender", "receiver"};

	for (size_t i = 0; i < json_object_array_length(streams); i++) {
		struct json_object *s = json_object_array_get_idx(streams, i), *e, *m;

		for (int k = 0; k < 2; k++)
			if (json_object_object_get_ex(s, ends[k], &e) &&
			    json_object_object_get_ex(e, "error", &m))
				json_object_array_add(notes, json_object_get(m));
	}
}

/* Say when the kernel granted less socket buffer than asked (net.core.[rw]mem_max). */
static void note_clamped(struct json_object *streams, struct json_object *notes)
{
	static const char *const ends[] = {"sender", "receiver"};

	for (size_t i = 0; i < json_object_array_length(streams); i++) {
		struct json_object *s = json_object_array_get_idx(streams, i);

		for (int k = 0; k < 2; k++) {
			struct json_object *e, *b, *c;
			char msg[200];

			if (!json_object_object_get_ex(s, ends[k], &e) ||
			    !json_object_object_get_ex(e, "socket_buffers", &b) ||
			    !json_object_object_get_ex(b, "clamped", &c) ||
			    !json_object_get_boolean(c))
				continue;
			snprintf(msg, sizeof(msg),
				 "stream %zu %s: socket buffers clamped by the kernel: asked %lld "
				 "bytes, "
				 "got sndbuf %lld / rcvbuf %lld (raise net.core.wmem_max/rmem_max)",
				 i, ends[k], (long long)get_i64(b, "requested"),
				 (long long)get_i64(b, "sndbuf_granted"),
				 (long long)get_i64(b, "rcvbuf_granted"));
			json_object_array_add(notes, json_object_new_string(msg));
			return; /* once is enough: every stream asks the same */
		}
	}
}

/* A CPU at or above BC_CPU_BOUND_PCT on an end; said once when both ends share a kernel. */
static void note_cpu_bound(struct json_object *ends, struct json_object *notes, bool shared)
{
	static const char *const names[] = {"client", "agent"};

	for (int i = 0; i < (shared ? 1 : 2); i++) {
		struct json_object *e, *c, *b;

		if (json_object_object_get_ex(ends, names[i], &e) &&
		    json_object_object_get_ex(e, "counters", &c) &&
		    json_object_object_get_ex(c, "cpu_bound", &b) && json_object_get_boolean(b)) {
			char msg[160];

			snprintf(msg, sizeof(msg),
				 "CPU-bound: a CPU %s%s was at least %.0f %% busy; the figures may "
				 "measure the host, not the link",
				 shared ? "of the kernel both ends share" : "on the ",
				 shared ? "" : names[i], BC_CPU_BOUND_PCT);
			json_object_array_add(notes, json_object_new_string(msg));
		}
	}
}

/* Same boot_id on both ends: one kernel, so global counters cannot be split. */
static bool note_shared_kernel(struct json_object *ends, struct json_object *notes)
{
	struct json_object *a, *b, *ma, *mb, *ia, *ib;

	if (!json_object_object_get_ex(ends, "client", &a) ||
	    !json_object_object_get_ex(ends, "agent", &b) ||
	    !json_object_object_get_ex(a, "metadata", &ma) ||
	    !json_object_object_get_ex(b, "metadata", &mb) ||
	    !json_object_object_get_ex(ma, "boot_id", &ia) ||
	    !json_object_object_get_ex(mb, "boot_id", &ib))
		return false;
	if (strcmp(json_object_get_string(ia), json_object_get_string(ib)))
		return false;
	json_object_array_add(notes,
			      json_object_new_string("both ends run on one kernel (same boot_id): "
						     "softnet_stat and CPU figures are shared and "
						     "cannot be split between the ends"));
	return true;
}

static int run_test(const struct bc_client_cfg *c, int fd, struct bc_test *t,
		    struct json_object *findings, struct json_object *placement,
		    struct json_object **out, struct bc_error *err)
{
	struct ivl_state st = {.all = json_object_new_array()};
	struct bc_host_sample ha, hb;
	struct json_object *o, *m = NULL, *v, *agent_streams = NULL, *res, *notes, *ends, *meta;
	int64_t end;
	time_t now;
	char stamp[32];
	int r;

	bc_host_sample_take(&ha);
	meta = bc_host_metadata_json();
	{
		struct bc_egress e;

		if (bc_egress_find(&t->local, &e) == 0)
			json_object_object_add(meta, "egress", bc_egress_json(&e));
	}
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("start"));
	r = bc_ctl_send(fd, o, 5000, err);
	json_object_put(o);
	if (r == 0)
		r = expect(fd, "started", 15000, &m, err);
	if (r < 0)
		goto fail;
	json_object_put(m);
	r = bc_test_start(t, err);
	if (r < 0)
		goto fail;
	end = t->start_ns + (int64_t)t->plan.duration_ms * 1000000;
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int64_t left = (end - bc_mono_ns()) / 1000000;

		if (left <= 0)
			break;
		if (poll(&p, 1, (int)left) <= 0)
			continue;
		r = bc_ctl_recv(fd, BC_CTL_MAX_REPLY, 5000, &m, err);
		if (r < 0)
			goto fail;
		if (!strcmp(bc_ctl_type(m), "interval"))
			interval(c, t, &st, m);
		else if (!strcmp(bc_ctl_type(m), "error")) {
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
	/* the agent answers after waiting Tmax; late intervals may come first */
	for (; r == 0;) {
		r = bc_ctl_recv(fd, BC_CTL_MAX_REPLY, (int)t->plan.tmax_ms + 30000, &m, err);
		if (r < 0)
			break;
		if (!strcmp(bc_ctl_type(m), "result"))
			break;
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
		int64_t id = get_i64(s, "id");

		if (id >= 0 && (uint64_t)id < t->n &&
		    json_object_object_get_ex(s, "sent_packets", &v))
			t->peer_sent[id] = json_object_get_uint64(v);
	}
	bc_test_stop_receivers(t, 0);
	bc_host_sample_take(&hb);

	res = json_object_new_object();
	notes = json_object_new_array();
	now = time(NULL);
	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_object_object_add(res, "schema_version", json_object_new_int(1));
	json_object_object_add(res, "bondcheck_version", json_object_new_string(BC_VERSION));
	json_object_object_add(res, "generated_at", json_object_new_string(stamp));
	json_object_object_add(res, "test", bc_plan_to_json(&t->plan));
	json_object_object_add(res, "tmax_ms", json_object_new_int64(t->plan.tmax_ms));
	o = merge_streams(t, agent_streams);
	json_object_object_add(res, "streams", o);
	summarize(c, t, res, o, notes);
	note_clamped(o, notes);
	note_stream_errors(o, notes);
	ends = json_object_new_object();
	json_object_object_add(ends, "client", end_json(bc_host_delta_json(&ha, &hb), meta));
	meta = NULL;
	json_object_object_add(ends, "agent",
			       end_json(json_object_get(json_object_object_get(m, "counters")),
					json_object_get(json_object_object_get(m, "metadata"))));
	note_cpu_bound(ends, notes, note_shared_kernel(ends, notes));
	json_object_object_add(res, "ends", ends);
	json_object_object_add(res, "intervals", st.all);
	st.all = NULL;
	json_object_object_add(res, "notes", notes);
	json_object_object_add(res, "findings", json_object_get(findings));
	if (placement)
		json_object_object_add(res, "placement", json_object_get(placement));
	json_object_put(m);
	*out = res;
	r = 0;
	bc_host_sample_free(&hb);
fail:
	bc_host_sample_free(&ha);
	json_object_put(meta);
	json_object_put(st.all);
	json_object_put(st.prev_local);
	json_object_put(st.prev_agent);
	return r;
}

int bc_client_run(const struct bc_client_cfg *c, struct json_object **out, struct bc_error *err)
{
	struct json_object *o, *m = NULL, *findings = json_object_new_array(), *placement = NULL;
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
	r = handshake(c, fd, err);
	if (r < 0)
		goto out;
	bc_sockaddr_unmap(&t.peer);
	t.plan.family = t.peer.ss_family == AF_INET6 ? 6 : 4;
	if (t.plan.proto == BC_L4_UDP && t.plan.length > bc_plan_max_length(t.plan.family)) {
		r = bc_error_set(err, -EINVAL, "--length %u exceeds IPv%d's UDP maximum %u",
				 t.plan.length, t.plan.family, bc_plan_max_length(t.plan.family));
		goto out;
	}
	r = bc_run_place(&t, c->place_k, c->streams_given, c->cport_base, c->cport_stride, &ports,
			 findings, &placement, err);
	if (r < 0)
		goto out;
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
	json_object_put(m);
	r = bc_test_open(&t, err);
	if (r < 0)
		goto out;
	r = run_test(c, fd, &t, findings, placement, out, err);
out:
	bc_test_free(&t);
	close(fd);
	free(ports);
	json_object_put(findings);
	json_object_put(placement);
	return r;
}
