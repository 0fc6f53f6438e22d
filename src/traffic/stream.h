/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One test stream, one thread (DESIGN.md "Traffic engine", "Speed").
 * Internal to the traffic and workflow layers.
 *
 * A stream is either the sending or the receiving end of one flow.  The
 * thread runs until the shared stop flag is set or, for senders, until the
 * plan's duration has passed since start_ns.  Counters written by the
 * thread are read by the interval sampler through bc_stream_snap().
 */
#ifndef BC_TRAFFIC_STREAM_H
#define BC_TRAFFIC_STREAM_H

#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include <json-c/json.h>

#include "bondcheck/error.h"
#include "bondcheck/plan.h"
#include "bondcheck/seqwin.h"

struct bc_tcp_sample {
	bool valid;
	uint32_t len;		/* bytes the kernel returned */
	uint32_t total_retrans; /* segments */
	uint32_t reordering;	/* segments */
	uint32_t reord_seen;	/* events; 0 when len too short (has_reord_seen) */
	uint32_t dsack_dups;
	uint32_t rtt_us, min_rtt_us;
	uint32_t rto_us; /* the retransmission timeout now (tcpi_rto) */
	uint32_t snd_cwnd; /* segments */
	uint32_t snd_mss;
	uint64_t delivery_rate; /* bytes/s */
	uint64_t bytes_acked, bytes_received;
	bool has_reord_seen, has_min_rtt, has_delivery_rate;
};

struct bc_stream {
	uint32_t id;
	enum bc_l4 proto;
	/* a TCP stream alongside a UDP plan (plan.tcp_streams): writes
	 * BC_PLAN_TCP_WRITE bytes, paced at offered_bps when not 0 */
	bool alongside;
	bool sender;
	int fd;
	const struct bc_plan *plan;
	atomic_int *stop;
	int64_t start_ns;	      /* CLOCK_MONOTONIC ns when traffic starts */
	/* test only (serve --test-clock-offset): added to every CLOCK_REALTIME
	 * reading of this stream, send stamps and receive times, to simulate a
	 * host whose clock is off */
	int64_t clock_offset_ns;
	struct sockaddr_storage peer; /* reverse UDP: only this address may say hello */
	uint16_t local_port, remote_port;

	pthread_t th;
	bool started;

	/* sender side */
	atomic_uint_fast64_t sent_pkts, sent_bytes;
	atomic_uint_fast64_t send_errors, enobufs, eagain, refused;
	uint64_t offered_bps;

	/* receiver side; mu guards win and the rx fields */
	pthread_mutex_t mu;
	struct bc_seqwin win;
	bool win_ready;
	uint64_t rx_bytes;		      /* TCP bytes / UDP unique payload bytes */
	uint64_t rx_meas_bytes;		      /* after the omit period */
	int64_t rx_meas_first_ns, rx_last_ns; /* CLOCK_MONOTONIC */
	uint64_t not_ours;		      /* datagrams of another test or stream */
	uint32_t rxq_ovfl;		      /* SO_RXQ_OVFL: socket drops so far */
	/* the socket's drops column in /proc/net/udp or udp6 (sk_drops) when the
	 * receiver stopped; -1 unread (no row for its inode, unreadable file) */
	int64_t proc_udp_drops;
	uint64_t gro_reads;		      /* reads that returned several datagrams (UDP GRO) */

	/* both */
	int sndbuf, rcvbuf; /* granted, as getsockopt reports (kernel doubles) */
	int buf_requested;
	bool buf_clamped;
	uint64_t cpu_ns, wall_ns; /* thread CPU time and wall time */
	struct bc_tcp_sample tcp_last;
	int err;
	char errmsg[200];
};

/* Snapshot for interval reports and the final result. */
struct bc_stream_snap {
	uint64_t sent_pkts, sent_bytes, send_errors;
	uint64_t rx_pkts, rx_bytes, lost_so_far, dups, ooo, late;
	struct bc_tcp_sample tcp;
};

/*
 * bc_stream_init() - zero @s, set identity and, for UDP receivers, the
 * sequence window.  -ENOMEM.
 */
int bc_stream_init(struct bc_stream *s, uint32_t id, const struct bc_plan *p, bool sender,
		   atomic_int *stop, struct bc_error *err);
void bc_stream_fini(struct bc_stream *s);

/* bc_stream_start() - start the thread (fd set, start_ns set). -errno. */
int bc_stream_start(struct bc_stream *s, struct bc_error *err);
void bc_stream_join(struct bc_stream *s);

/* bc_stream_snap() - current counters; TCP_INFO sampled now when @tcp_info. */
void bc_stream_snap(struct bc_stream *s, struct bc_stream_snap *out, bool tcp_info);

/*
 * bc_udp_socket() - UDP socket bound to @bind_addr:@port (port 0: any) with
 * IP_RECVERR/IPV6_RECVERR, SO_TIMESTAMPNS and SO_RXQ_OVFL, and both buffers
 * asked for @buf bytes (granted sizes and clamping recorded in @s when not NULL).
 * Returns the fd or -errno; -EADDRINUSE when the port is taken.
 */
int bc_udp_socket(int family, const struct sockaddr *bind_addr, uint16_t port, int buf,
		  struct bc_stream *s, struct bc_error *err);

/* bc_tcp_sample() - getsockopt(TCP_INFO), fields present per the returned length. */
void bc_tcp_sample(int fd, struct bc_tcp_sample *out);
struct json_object *bc_tcp_sample_json(const struct bc_tcp_sample *t);

/*
 * bc_stream_result_json() - the stream's final figures from this end:
 * sender or receiver view (the client merges both ends).  @sent: the
 * sender's final count for a UDP receiver (0 when unknown).
 */
struct json_object *bc_stream_result_json(struct bc_stream *s, uint64_t sent);

int64_t bc_mono_ns(void);
uint64_t bc_real_ns(void);

/* Thread bodies (stream-udp.c, stream-tcp.c); argument: struct bc_stream *. */
void *bc_udp_send_main(void *arg);
void *bc_udp_recv_main(void *arg);

/*
 * bc_udp_send_hello() - one hello datagram of reverse stream @s (the UDP
 * header with BC_UDPHDR_F_HELLO, @s's id and test id; docs/protocol.md) on
 * its connected socket, without blocking; a lost or refused one is not an
 * error (the client sends three at open and more while nothing arrives).
 */
void bc_udp_send_hello(const struct bc_stream *s);
void *bc_tcp_send_main(void *arg);
void *bc_tcp_recv_main(void *arg);
#endif
