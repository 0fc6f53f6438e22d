// SPDX-License-Identifier: GPL-2.0-or-later
/* One end of a test: sockets, threads, stopping order; see traffic/test-end.h. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "traffic/test-end.h"

#define TCP_HELLO_LEN 12 /* "BCKT", test_id, stream id; network order */

void bc_test_init(struct bc_test *t, bool client)
{
	memset(t, 0, sizeof(*t));
	t->client = client;
	t->tcp_listen = -1;
	atomic_init(&t->stop_send, 0);
	atomic_init(&t->stop_recv, 0);
}

void bc_test_free(struct bc_test *t)
{
	atomic_store(&t->stop_send, 1);
	atomic_store(&t->stop_recv, 1);
	if (t->stalling) {
		pthread_join(t->stall_thread, NULL);
		t->stalling = false;
	}
	for (uint32_t i = 0; i < t->n; i++) {
		bc_stream_join(&t->streams[i]);
		bc_stream_fini(&t->streams[i]);
	}
	free(t->streams);
	free(t->peer_sent);
	t->streams = NULL;
	t->peer_sent = NULL;
	t->n = 0;
	if (t->tcp_listen >= 0)
		close(t->tcp_listen);
	t->tcp_listen = -1;
}

static bool local_sender(const struct bc_test *t, uint32_t i)
{
	return bc_plan_stream_reverse(&t->plan, i) != t->client;
}

static int plan_family(const struct bc_test *t)
{
	return t->peer.ss_family == AF_INET6 ? 6 : 4;
}

static uint16_t client_port(const struct bc_test *t, uint32_t i)
{
	if (i >= bc_plan_total_streams(&t->plan))
		return 0; /* TCP alongside: an ephemeral port (cports covers the plan's streams) */
	if (t->cports)
		return t->cports[i];
	if (!t->cport_base)
		return 0;
	return (uint16_t)(t->cport_base + i * (t->cport_stride ? t->cport_stride : 1));
}

static uint16_t sock_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t l = sizeof(ss);

	memset(&ss, 0, sizeof(ss)); /* the analyzer does not know getsockname() fills it */
	if (getsockname(fd, (struct sockaddr *)&ss, &l) < 0)
		return 0;
	return ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
					      : ((struct sockaddr_in *)&ss)->sin_port);
}

/* plan.df: DF set, the cached path MTU ignored (IP_PMTUDISC_PROBE, ip(7)).  Returns @fd or -errno.
 */
static int set_df(const struct bc_test *t, int fd, struct bc_error *err)
{
	int six = plan_family(t) == 6;
	/* both are 3 in the uapi; named per family on purpose */
	int v = six ? IPV6_PMTUDISC_PROBE : IP_PMTUDISC_PROBE; /* NOLINT(bugprone-branch-clone) */

	if (!t->plan.df)
		return fd;
	if (setsockopt(fd, six ? IPPROTO_IPV6 : IPPROTO_IP,
		       six ? IPV6_MTU_DISCOVER : IP_MTU_DISCOVER, &v, sizeof(v)) < 0)
		return bc_error_set(err, -errno,
				    "cannot set DF (path MTU probe) on a UDP socket: %s",
				    strerror(errno));
	return fd;
}

static int agent_open(struct bc_test *t, struct bc_error *err)
{
	struct sockaddr_storage ss = t->local;
	int fd;

	if (t->plan.proto == BC_L4_UDP) {
		for (uint32_t i = 0; i < bc_plan_total_streams(&t->plan); i++) {
			struct bc_stream *s = &t->streams[i];

			fd = bc_udp_socket(plan_family(t), (struct sockaddr *)&ss,
					   (uint16_t)(t->plan.dport + i), (int)t->plan.sock_buf, s,
					   err);
			if (fd < 0) {
				if (fd == -EADDRINUSE) {
					bc_error_clear(err);
					bc_error_set(err, fd,
						     "agent data port %u is in use; choose "
						     "another base with --dport",
						     t->plan.dport + i);
				}
				return fd;
			}
			s->fd = fd;
			s->local_port = (uint16_t)(t->plan.dport + i);
			s->peer = t->peer;
			fd = set_df(t, fd, err);
			if (fd < 0)
				return fd; /* the socket is closed with the stream */
		}
		if (!t->plan.tcp_streams)
			return 0;
	}
	bc_sockaddr_set_port(&ss, t->plan.dport);
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return bc_error_set(err, -errno, "cannot create a TCP socket: %s", strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &(int){1}, sizeof(int));
	if (bind(fd, (struct sockaddr *)&ss, bc_sockaddr_len(&ss)) < 0 ||
	    listen(fd, BC_PLAN_MAX_STREAMS) < 0) {
		int e = errno;

		close(fd);
		return bc_error_set(err, -e, "agent data port %u: %s%s", t->plan.dport, strerror(e),
				    e == EADDRINUSE ? "; choose another with --dport" : "");
	}
	t->tcp_listen = fd;
	return 0;
}

static int connect_timeout(int fd, const struct sockaddr_storage *to, int ms)
{
	struct pollfd p = {.fd = fd, .events = POLLOUT};
	int e = 0;
	socklen_t l = sizeof(e);

	if (connect(fd, (const struct sockaddr *)to, bc_sockaddr_len(to)) == 0)
		return 0;
	if (errno != EINPROGRESS)
		return -errno;
	if (poll(&p, 1, ms) <= 0)
		return -ETIMEDOUT;
	getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &l);
	return -e;
}

static int client_open_tcp(struct bc_test *t, struct bc_stream *s, uint32_t i, struct bc_error *err)
{
	struct sockaddr_storage to = t->peer, me;
	uint8_t hello[TCP_HELLO_LEN] = {'B', 'C', 'K', 'T'};
	uint32_t v;
	int fd, r;

	fd = socket(to.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return bc_error_set(err, -errno, "cannot create a TCP socket: %s", strerror(errno));
	s->fd = fd;
	if (client_port(t, i)) {
		memset(&me, 0, sizeof(me));
		me.ss_family = to.ss_family;
		if (to.ss_family == AF_INET6)
			((struct sockaddr_in6 *)&me)->sin6_addr = in6addr_any;
		bc_sockaddr_set_port(&me, client_port(t, i));
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &(int){1}, sizeof(int));
		if (bind(fd, (struct sockaddr *)&me, bc_sockaddr_len(&me)) < 0)
			return bc_error_set(err, -errno, "cannot bind client port %u: %s",
					    client_port(t, i), strerror(errno));
	}
	bc_sockaddr_set_port(&to, t->plan.dport);
	r = connect_timeout(fd, &to, 5000);
	if (r < 0)
		return bc_error_set(err, r, "data connection to port %u failed: %s", t->plan.dport,
				    strerror(-r));
	/* back to blocking: the threads use timeouts */
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	v = htonl(t->plan.test_id);
	memcpy(hello + 4, &v, 4);
	v = htonl(i);
	memcpy(hello + 8, &v, 4);
	if (send(fd, hello, sizeof(hello), MSG_NOSIGNAL) != sizeof(hello))
		return bc_error_set(err, -EIO, "could not send the data-connection hello");
	s->local_port = sock_port(fd);
	s->remote_port = t->plan.dport;
	return 0;
}

static int client_open_udp(struct bc_test *t, struct bc_stream *s, uint32_t i, struct bc_error *err)
{
	struct sockaddr_storage to = t->peer;
	int fd;

	fd = bc_udp_socket(plan_family(t), NULL, client_port(t, i), (int)t->plan.sock_buf, s, err);
	if (fd < 0)
		return fd;
	s->fd = fd;
	fd = set_df(t, fd, err);
	if (fd < 0)
		return fd;
	bc_sockaddr_set_port(&to, (uint16_t)(t->plan.dport + i));
	if (connect(fd, (struct sockaddr *)&to, bc_sockaddr_len(&to)) < 0)
		return bc_error_set(err, -errno, "cannot address the agent's UDP port %u: %s",
				    t->plan.dport + i, strerror(errno));
	s->local_port = sock_port(fd);
	s->remote_port = (uint16_t)(t->plan.dport + i);
	if (bc_plan_stream_reverse(&t->plan, i))
		for (int k = 0; k < 3; k++)
			bc_udp_send_hello(s);
	return 0;
}

int bc_test_open(struct bc_test *t, struct bc_error *err)
{
	int r;

	bc_sockaddr_unmap(&t->peer);
	bc_sockaddr_unmap(&t->local);
	t->plan.family = plan_family(t);
	t->n = bc_plan_all_streams(&t->plan);
	t->streams = calloc(t->n, sizeof(*t->streams));
	t->peer_sent = calloc(t->n, sizeof(*t->peer_sent));
	if (!t->streams || !t->peer_sent)
		return bc_error_set(err, -ENOMEM, "out of memory");
	for (uint32_t i = 0; i < t->n; i++) {
		bool snd = local_sender(t, i);

		r = bc_stream_init(&t->streams[i], i, &t->plan, snd,
				   snd ? &t->stop_send : &t->stop_recv, err);
		if (r < 0)
			return r;
	}
	if (!t->client)
		return agent_open(t, err);
	for (uint32_t i = 0; i < t->n; i++) {
		r = t->streams[i].proto == BC_L4_UDP ? client_open_udp(t, &t->streams[i], i, err)
						     : client_open_tcp(t, &t->streams[i], i, err);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Read @len bytes by @deadline_ns (CLOCK_MONOTONIC), however slowly they come. */
static int read_full(int fd, uint8_t *buf, size_t len, int64_t deadline_ns)
{
	size_t got = 0;

	while (got < len) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int64_t left = (deadline_ns - bc_mono_ns()) / 1000000;
		ssize_t n;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			return -ETIMEDOUT;
		n = recv(fd, buf + got, len - got, 0);
		if (n <= 0)
			return -ECONNRESET;
		got += (size_t)n;
	}
	return 0;
}

/*
 * Accept one data connection per TCP stream; only from the control peer,
 * with our test id and the id of a TCP stream.  All within 5 s, each hello
 * within 2 s of its accept.
 */
static int agent_accept(struct bc_test *t, struct bc_error *err)
{
	int64_t deadline = bc_mono_ns() + 5000000000ll;
	uint32_t got = 0, want = 0;

	for (uint32_t i = 0; i < t->n; i++)
		want += t->streams[i].proto == BC_L4_TCP;
	while (got < want) {
		struct pollfd p = {.fd = t->tcp_listen, .events = POLLIN};
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		uint8_t hello[TCP_HELLO_LEN];
		uint32_t tid, sid;
		int64_t left = (deadline - bc_mono_ns()) / 1000000;
		int fd;

		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			return bc_error_set(err, -ETIMEDOUT,
					    "only %u of %u TCP data connections arrived within 5 s",
					    got, want);
		fd = accept4(t->tcp_listen, (struct sockaddr *)&from, &fl, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		bc_sockaddr_unmap(&from);
		if (!bc_sockaddr_same_host(&from, &t->peer) ||
		    read_full(fd, hello, sizeof(hello),
			      bc_mono_ns() + 2000000000ll < deadline ? bc_mono_ns() + 2000000000ll
								     : deadline) < 0 ||
		    memcmp(hello, "BCKT", 4)) {
			close(fd);
			continue;
		}
		memcpy(&tid, hello + 4, 4);
		memcpy(&sid, hello + 8, 4);
		tid = ntohl(tid);
		sid = ntohl(sid);
		if (tid != t->plan.test_id || sid >= t->n || t->streams[sid].proto != BC_L4_TCP ||
		    t->streams[sid].fd >= 0) {
			close(fd);
			continue;
		}
		t->streams[sid].fd = fd;
		t->streams[sid].local_port = t->plan.dport;
		t->streams[sid].remote_port =
			ntohs(from.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&from)->sin6_port
							 : ((struct sockaddr_in *)&from)->sin_port);
		got++;
	}
	return 0;
}

/* The test-only read stall: start the receivers test_read_stall_ms late. */
static void *stall_then_read(void *arg)
{
	struct bc_test *t = arg;
	struct timespec ts = {t->test_read_stall_ms / 1000,
			      (long)(t->test_read_stall_ms % 1000) * 1000000};

	nanosleep(&ts, NULL);
	for (uint32_t i = 0; i < t->n; i++)
		if (!t->streams[i].sender && bc_stream_start(&t->streams[i], &t->err) < 0)
			break;
	return NULL;
}

int bc_test_start(struct bc_test *t, struct bc_error *err)
{
	int r;

	if (!err)
		err = &t->err;
	if (!t->client && t->tcp_listen >= 0) {
		r = agent_accept(t, err);
		if (r < 0)
			return r;
	}
	t->start_ns = bc_mono_ns();
	for (uint32_t i = 0; i < t->n; i++) {
		t->streams[i].start_ns = t->start_ns;
		t->streams[i].clock_offset_ns = t->test_clock_offset_ns;
		if (t->test_read_stall_ms && !t->streams[i].sender)
			continue;
		r = bc_stream_start(&t->streams[i], err);
		if (r < 0)
			return r;
	}
	if (!t->test_read_stall_ms)
		return 0;
	/* test-only read stall: a tiny receive buffer and nobody reading for a while */
	for (uint32_t i = 0; i < t->n; i++)
		if (!t->streams[i].sender && t->test_rcvbuf)
			setsockopt(t->streams[i].fd, SOL_SOCKET, SO_RCVBUF, &t->test_rcvbuf,
				   sizeof(t->test_rcvbuf));
	if (pthread_create(&t->stall_thread, NULL, stall_then_read, t))
		return bc_error_set(err, -EAGAIN, "test read stall: cannot start a thread");
	t->stalling = true;
	return 0;
}

void bc_test_stop_senders(struct bc_test *t)
{
	atomic_store(&t->stop_send, 1);
	for (uint32_t i = 0; i < t->n; i++)
		if (t->streams[i].sender)
			bc_stream_join(&t->streams[i]);
}

void bc_test_stop_receivers(struct bc_test *t, uint32_t wait_ms)
{
	struct timespec ts = {wait_ms / 1000, (long)(wait_ms % 1000) * 1000000};

	if (wait_ms)
		nanosleep(&ts, NULL);
	if (t->stalling) {
		pthread_join(t->stall_thread, NULL);
		t->stalling = false;
	}
	atomic_store(&t->stop_recv, 1);
	for (uint32_t i = 0; i < t->n; i++)
		if (!t->streams[i].sender)
			bc_stream_join(&t->streams[i]);
}

void bc_test_finish(struct bc_test *t)
{
	bc_test_stop_senders(t);
	bc_test_stop_receivers(t, t->plan.tmax_ms);
}

struct json_object *bc_test_ports_json(struct bc_test *t)
{
	struct json_object *a = json_object_new_array();

	for (uint32_t i = 0; i < t->n; i++) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "id", json_object_new_int64(i));
		json_object_object_add(o, "port",
				       json_object_new_int(t->streams[i].proto == BC_L4_UDP
								   ? t->plan.dport + (int)i
								   : t->plan.dport));
		json_object_array_add(a, o);
	}
	return a;
}

struct json_object *bc_test_snap_json(struct bc_test *t)
{
	struct json_object *a = json_object_new_array();

	for (uint32_t i = 0; i < t->n; i++) {
		struct bc_stream_snap sn;
		struct json_object *o = json_object_new_object(), *ti;

		bc_stream_snap(&t->streams[i], &sn, true);
		json_object_object_add(o, "id", json_object_new_int64(i));
		json_object_object_add(
			o, "role",
			json_object_new_string(t->streams[i].sender ? "sender" : "receiver"));
		if (t->streams[i].sender) {
			json_object_object_add(o, "sent_packets",
					       json_object_new_uint64(sn.sent_pkts));
			json_object_object_add(o, "sent_bytes",
					       json_object_new_uint64(sn.sent_bytes));
			json_object_object_add(o, "send_errors",
					       json_object_new_uint64(sn.send_errors));
		} else {
			json_object_object_add(o, "received_packets",
					       json_object_new_uint64(sn.rx_pkts));
			json_object_object_add(o, "received_bytes",
					       json_object_new_uint64(sn.rx_bytes));
			json_object_object_add(o, "lost_packets",
					       json_object_new_uint64(sn.lost_so_far));
			json_object_object_add(o, "out_of_order_packets",
					       json_object_new_uint64(sn.ooo));
			json_object_object_add(o, "duplicate_packets",
					       json_object_new_uint64(sn.dups));
		}
		if ((ti = bc_tcp_sample_json(&sn.tcp)))
			json_object_object_add(o, "tcp_info", ti);
		json_object_array_add(a, o);
	}
	return a;
}

struct json_object *bc_test_sent_json(struct bc_test *t)
{
	struct json_object *a = json_object_new_array();

	for (uint32_t i = 0; i < t->n; i++) {
		struct json_object *o;

		if (!t->streams[i].sender)
			continue;
		o = json_object_new_object();
		json_object_object_add(o, "id", json_object_new_int64(i));
		json_object_object_add(
			o, "packets",
			json_object_new_uint64(atomic_load(&t->streams[i].sent_pkts)));
		json_object_object_add(
			o, "bytes", json_object_new_uint64(atomic_load(&t->streams[i].sent_bytes)));
		json_object_array_add(a, o);
	}
	return a;
}

void bc_test_set_peer_sent(struct bc_test *t, struct json_object *sent)
{
	size_t n = json_object_is_type(sent, json_type_array) ? json_object_array_length(sent) : 0;

	for (size_t k = 0; k < n; k++) {
		struct json_object *o = json_object_array_get_idx(sent, k), *id, *p;
		int64_t i;

		if (!json_object_object_get_ex(o, "id", &id) ||
		    !json_object_object_get_ex(o, "packets", &p))
			continue;
		i = json_object_get_int64(id);
		if (i >= 0 && (uint64_t)i < t->n)
			t->peer_sent[i] = json_object_get_uint64(p);
	}
}

struct json_object *bc_test_results_json(struct bc_test *t)
{
	struct json_object *a = json_object_new_array();

	for (uint32_t i = 0; i < t->n; i++)
		json_object_array_add(a, bc_stream_result_json(&t->streams[i], t->peer_sent[i]));
	return a;
}
