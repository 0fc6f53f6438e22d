// SPDX-License-Identifier: GPL-2.0-or-later
/* Stream lifecycle, sockets, TCP_INFO and per-end results; see stream.h. */
#include <errno.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "traffic/stream.h"

int64_t bc_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

uint64_t bc_real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int bc_stream_init(struct bc_stream *s, uint32_t id, const struct bc_plan *p, bool sender,
		   atomic_int *stop, struct bc_error *err)
{
	struct bc_seqwin_cfg cfg;
	int r;

	memset(s, 0, sizeof(*s));
	s->id = id;
	s->proto = bc_plan_stream_tcp(p, id) ? BC_L4_TCP : BC_L4_UDP;
	s->alongside = p->proto == BC_L4_UDP && s->proto == BC_L4_TCP;
	s->sender = sender;
	s->plan = p;
	s->stop = stop;
	s->fd = -1;
	s->offered_bps = s->proto == BC_L4_UDP ? p->rate_bps : s->alongside ? p->tcp_rate_bps : 0;
	pthread_mutex_init(&s->mu, NULL);
	s->proc_udp_drops = -1;
	if (s->proto == BC_L4_UDP && !sender) {
		bc_seqwin_cfg_default(&cfg);
		r = bc_seqwin_init(&s->win, &cfg, err);
		if (r < 0)
			return r;
		s->win_ready = true;
	}
	return 0;
}

void bc_stream_fini(struct bc_stream *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (s->win_ready)
		bc_seqwin_free(&s->win);
	s->win_ready = false;
	pthread_mutex_destroy(&s->mu);
}

int bc_stream_start(struct bc_stream *s, struct bc_error *err)
{
	void *(*fn)(void *);
	int r;

	if (s->proto == BC_L4_UDP)
		fn = s->sender ? bc_udp_send_main : bc_udp_recv_main;
	else
		fn = s->sender ? bc_tcp_send_main : bc_tcp_recv_main;
	r = pthread_create(&s->th, NULL, fn, s);
	if (r)
		return bc_error_set(err, -r, "cannot start the thread of stream %u: %s", s->id,
				    strerror(r));
	s->started = true;
	return 0;
}

void bc_stream_join(struct bc_stream *s)
{
	if (s->started)
		pthread_join(s->th, NULL);
	s->started = false;
}

void bc_stream_snap(struct bc_stream *s, struct bc_stream_snap *out, bool tcp_info)
{
	memset(out, 0, sizeof(*out));
	out->sent_pkts = atomic_load(&s->sent_pkts);
	out->sent_bytes = atomic_load(&s->sent_bytes);
	out->send_errors = atomic_load(&s->send_errors);
	pthread_mutex_lock(&s->mu);
	out->rx_bytes = s->rx_bytes;
	if (s->win_ready) {
		out->rx_pkts = s->win.received;
		out->lost_so_far = bc_seqwin_lost(&s->win, bc_seqwin_expected(&s->win));
		out->dups = s->win.duplicates;
		out->ooo = s->win.reordered;
		out->late = s->win.late;
	}
	pthread_mutex_unlock(&s->mu);
	if (tcp_info && s->proto == BC_L4_TCP && s->fd >= 0) {
		bc_tcp_sample(s->fd, &out->tcp);
		if (out->tcp.valid)
			s->tcp_last = out->tcp;
	}
}

static int sockopt_int(int fd, int level, int name, int v)
{
	return setsockopt(fd, level, name, &v, sizeof(v));
}

int bc_udp_socket(int family, const struct sockaddr *bind_addr, uint16_t port, int buf,
		  struct bc_stream *s, struct bc_error *err)
{
	struct sockaddr_storage ss;
	socklen_t sl;
	int fd, e, v;

	fd = socket(family == 6 ? AF_INET6 : AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return bc_error_set(err, -errno, "cannot create a UDP socket: %s", strerror(errno));
	if (family == 6) {
		sockopt_int(fd, IPPROTO_IPV6, IPV6_RECVERR, 1);
	} else {
		sockopt_int(fd, IPPROTO_IP, IP_RECVERR, 1);
	}
	sockopt_int(fd, SOL_SOCKET, SO_TIMESTAMPNS, 1);
	sockopt_int(fd, SOL_SOCKET, SO_RXQ_OVFL, 1);
	if (buf > 0) {
		sockopt_int(fd, SOL_SOCKET, SO_SNDBUF, buf);
		sockopt_int(fd, SOL_SOCKET, SO_RCVBUF, buf);
	}
	if (s) {
		sl = sizeof(v);
		getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &s->sndbuf, &sl);
		sl = sizeof(v);
		getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &s->rcvbuf, &sl);
		s->buf_requested = buf;
		/* the kernel doubles what it grants; less than 2 x buf means clamped by [rw]mem_max
		 */
		s->buf_clamped = buf > 0 && (s->sndbuf < 2 * buf || s->rcvbuf < 2 * buf);
	}
	memset(&ss, 0, sizeof(ss));
	if (bind_addr) {
		memcpy(&ss, bind_addr,
		       bind_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
							: sizeof(struct sockaddr_in));
	} else {
		ss.ss_family = family == 6 ? AF_INET6 : AF_INET;
	}
	if (ss.ss_family == AF_INET6) {
		((struct sockaddr_in6 *)&ss)->sin6_port = htons(port);
		sl = sizeof(struct sockaddr_in6);
	} else {
		((struct sockaddr_in *)&ss)->sin_port = htons(port);
		sl = sizeof(struct sockaddr_in);
	}
	if ((port || bind_addr) && bind(fd, (struct sockaddr *)&ss, sl) < 0) {
		e = errno;
		close(fd);
		return bc_error_set(err, -e, "cannot bind UDP port %u: %s", port, strerror(e));
	}
	return fd;
}

void bc_tcp_sample(int fd, struct bc_tcp_sample *out)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(out, 0, sizeof(*out));
	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0)
		return;
		/* older kernels return fewer bytes: a field exists only if it fits in len */
#define HAS(f) (len >= offsetof(struct tcp_info, f) + sizeof(ti.f))
	out->valid = true;
	out->len = len;
	out->total_retrans = ti.tcpi_total_retrans;
	out->reordering = ti.tcpi_reordering;
	out->rtt_us = ti.tcpi_rtt;
	out->rto_us = ti.tcpi_rto;
	out->snd_cwnd = ti.tcpi_snd_cwnd;
	out->snd_mss = ti.tcpi_snd_mss;
	out->has_min_rtt = HAS(tcpi_min_rtt);
	if (out->has_min_rtt)
		out->min_rtt_us = ti.tcpi_min_rtt;
	out->has_delivery_rate = HAS(tcpi_delivery_rate);
	if (out->has_delivery_rate)
		out->delivery_rate = ti.tcpi_delivery_rate;
	if (HAS(tcpi_bytes_acked))
		out->bytes_acked = ti.tcpi_bytes_acked;
	if (HAS(tcpi_bytes_received))
		out->bytes_received = ti.tcpi_bytes_received;
	out->has_reord_seen = HAS(tcpi_reord_seen);
	if (out->has_reord_seen)
		out->reord_seen = ti.tcpi_reord_seen;
	if (HAS(tcpi_dsack_dups))
		out->dsack_dups = ti.tcpi_dsack_dups;
#undef HAS
}

struct json_object *bc_tcp_sample_json(const struct bc_tcp_sample *t)
{
	struct json_object *o;

	if (!t->valid)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "tcp_info_bytes", json_object_new_int64(t->len));
	json_object_object_add(o, "total_retrans", json_object_new_int64(t->total_retrans));
	json_object_object_add(o, "reordering", json_object_new_int64(t->reordering));
	if (t->has_reord_seen) {
		json_object_object_add(o, "reord_seen", json_object_new_int64(t->reord_seen));
		json_object_object_add(o, "dsack_dups", json_object_new_int64(t->dsack_dups));
	}
	json_object_object_add(o, "rtt_us", json_object_new_int64(t->rtt_us));
	json_object_object_add(o, "rto_us", json_object_new_int64(t->rto_us));
	if (t->has_min_rtt)
		json_object_object_add(o, "min_rtt_us", json_object_new_int64(t->min_rtt_us));
	json_object_object_add(o, "snd_cwnd", json_object_new_int64(t->snd_cwnd));
	json_object_object_add(o, "snd_mss", json_object_new_int64(t->snd_mss));
	if (t->has_delivery_rate)
		json_object_object_add(o, "delivery_rate_bps",
				       json_object_new_uint64(t->delivery_rate * 8));
	json_object_object_add(o, "bytes_acked", json_object_new_uint64(t->bytes_acked));
	json_object_object_add(o, "bytes_received", json_object_new_uint64(t->bytes_received));
	return o;
}

static const char *limited_by(struct bc_stream *s, double achieved_bps)
{
	double cpu = s->wall_ns ? (double)s->cpu_ns / (double)s->wall_ns : 0;

	if (!s->offered_bps || achieved_bps >= 0.95 * (double)s->offered_bps)
		return "none";
	if (atomic_load(&s->send_errors))
		return "send-errors";
	if (cpu > 0.9)
		return "cpu";
	return "back-pressured";
}

static void add_u64(struct json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

static void add_buffers(struct json_object *o, struct bc_stream *s)
{
	struct json_object *b;

	if (s->proto != BC_L4_UDP)
		return;
	b = json_object_new_object();
	json_object_object_add(b, "requested", json_object_new_int(s->buf_requested));
	json_object_object_add(b, "sndbuf_granted", json_object_new_int(s->sndbuf));
	json_object_object_add(b, "rcvbuf_granted", json_object_new_int(s->rcvbuf));
	json_object_object_add(b, "clamped", json_object_new_boolean(s->buf_clamped));
	json_object_object_add(o, "socket_buffers", b);
}

static void add_receiver(struct json_object *o, struct bc_stream *s, uint64_t sent)
{
	int64_t t0 = s->start_ns + (int64_t)s->plan->omit_ms * 1000000;
	double secs = s->rx_last_ns > t0 ? (double)(s->rx_last_ns - t0) / 1e9 : 0;
	struct json_object *r, *n;

	add_u64(o, "received_bytes", s->rx_bytes);
	json_object_object_add(
		o, "goodput_bps",
		json_object_new_double(secs > 0 ? 8.0 * (double)s->rx_meas_bytes / secs : 0));
	json_object_object_add(o, "measured_seconds", json_object_new_double(secs));
	if (!s->win_ready)
		return;
	bc_seqwin_finish(&s->win);
	if (!sent)
		sent = bc_seqwin_expected(&s->win);
	add_u64(o, "received_packets", s->win.received);
	add_u64(o, "lost_packets", bc_seqwin_lost(&s->win, sent));
	add_u64(o, "duplicate_packets", s->win.duplicates);
	add_u64(o, "out_of_order_packets", s->win.reordered);
	add_u64(o, "late_packets", s->win.late);
	add_u64(o, "foreign_packets", s->not_ours);
	add_u64(o, "socket_drops", s->rxq_ovfl);
	json_object_object_add(o, "proc_udp_drops",
			       s->proc_udp_drops >= 0 ? json_object_new_int64(s->proc_udp_drops)
						      : NULL);
	if (s->plan->udp_gso)
		add_u64(o, "gro_reads", s->gro_reads);
	json_object_object_add(o, "jitter_ms", json_object_new_double(s->win.jitter_ns / 1e6));
	/* receive time minus the sender's stamp, two hosts' clocks: not a delay
	 * until the client corrects it by the clock offset (streams[].one_way_delay) */
	if (s->win.received) {
		json_object_object_add(o, "transit_min_ms",
				       json_object_new_double((double)s->win.owd_min_ns / 1e6));
		json_object_object_add(o, "transit_max_ms",
				       json_object_new_double((double)s->win.owd_max_ns / 1e6));
	}
	r = json_object_new_object();
	json_object_object_add(r, "observation_point", json_object_new_string("receiver app"));
	json_object_object_add(
		r, "reordered_ratio",
		json_object_new_double(
			s->win.received ? (double)s->win.reordered / (double)s->win.received : 0));
	add_u64(r, "extent_max", s->win.extent_max);
	add_u64(r, "extent_p99", bc_seqwin_extent_pct(&s->win, 99));
	add_u64(r, "extent_lower_bounds", s->win.extent_truncated);
	n = json_object_new_array();
	for (int i = 0; i < BC_SEQWIN_NREORD; i++)
		json_object_array_add(n, json_object_new_uint64(s->win.nreord[i]));
	json_object_object_add(r, "n_reordered", n);
	n = json_object_new_object();
	for (int d = -(int)s->win.rd.dt; d <= (int)s->win.rd.dt; d++) {
		char k[16];

		if (!bc_rd_count(&s->win.rd, d))
			continue;
		snprintf(k, sizeof(k), "%d", d);
		add_u64(n, k, bc_rd_count(&s->win.rd, d));
	}
	json_object_object_add(r, "reorder_density", n);
	add_u64(r, "reorder_density_threshold", s->win.rd.dt);
	add_u64(r, "reorder_density_discarded", s->win.rd.discarded);
	json_object_object_add(o, "reordering", r);
}

struct json_object *bc_stream_result_json(struct bc_stream *s, uint64_t sent)
{
	struct json_object *o = json_object_new_object(), *t;
	double secs = s->wall_ns ? (double)s->wall_ns / 1e9 : 0;
	double rate = secs > 0 ? 8.0 * (double)atomic_load(&s->sent_bytes) / secs : 0;

	json_object_object_add(o, "id", json_object_new_int64(s->id));
	json_object_object_add(o, "role",
			       json_object_new_string(s->sender ? "sender" : "receiver"));
	json_object_object_add(o, "protocol",
			       json_object_new_string(s->proto == BC_L4_UDP ? "udp" : "tcp"));
	json_object_object_add(o, "local_port", json_object_new_int(s->local_port));
	json_object_object_add(o, "remote_port", json_object_new_int(s->remote_port));
	if (s->sender) {
		if (s->proto == BC_L4_UDP)
			add_u64(o, "sent_packets", atomic_load(&s->sent_pkts));
		add_u64(o, "sent_bytes", atomic_load(&s->sent_bytes));
		add_u64(o, "send_errors", atomic_load(&s->send_errors));
		add_u64(o, "enobufs", atomic_load(&s->enobufs));
		add_u64(o, "send_timeouts", atomic_load(&s->eagain));
		add_u64(o, "icmp_refused", atomic_load(&s->refused));
		add_u64(o, "offered_bps", s->offered_bps);
		json_object_object_add(o, "send_rate_bps", json_object_new_double(rate));
		json_object_object_add(o, "limited_by",
				       json_object_new_string(limited_by(s, rate)));
	} else {
		pthread_mutex_lock(&s->mu);
		add_receiver(o, s, sent);
		pthread_mutex_unlock(&s->mu);
	}
	json_object_object_add(
		o, "thread_cpu_ratio",
		json_object_new_double(s->wall_ns ? (double)s->cpu_ns / (double)s->wall_ns : 0));
	add_buffers(o, s);
	if (s->proto == BC_L4_TCP && (t = bc_tcp_sample_json(&s->tcp_last)))
		json_object_object_add(o, "tcp_info", t);
	if (s->err)
		json_object_object_add(o, "error", json_object_new_string(s->errmsg));
	return o;
}
