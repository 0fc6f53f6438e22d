/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The test plan the client sends in {"type":"test"} (docs/protocol.md), its
 * JSON form and the agent's limits (DESIGN.md "Security model of the agent").
 *
 * Streams are numbered 0..total-1.  Forward streams (client sends) come
 * first; with --bidir streams N..2N-1 are the reverse ones.  UDP stream i
 * uses the agent's port dport + i; TCP streams all connect to dport.
 */
#ifndef BONDCHECK_PLAN_H
#define BONDCHECK_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/ceiling.h"
#include "bondcheck/error.h"
#include "bondcheck/stream-limits.h" /* BC_PLAN_MAX_STREAMS */

#define BC_DATA_PORT 5302

enum bc_dir {
	BC_DIR_FORWARD = 0, /* client -> agent */
	BC_DIR_REVERSE = 1, /* agent -> client */
	BC_DIR_BIDIR = 2,
};

struct bc_plan {
	uint32_t test_id; /* random, stamped into every datagram */
	enum bc_l4 proto;
	uint32_t streams; /* per direction */
	enum bc_dir dir;
	uint32_t duration_ms;
	uint32_t omit_ms;     /* warm-up excluded from goodput */
	uint32_t interval_ms; /* report interval */
	uint32_t tmax_ms;     /* RFC 7680 Tmax: wait after the last send before counting loss */
	uint64_t rate_bps;    /* per stream, application payload bits/s; UDP 0 = unpaced */
	uint32_t length;      /* UDP payload / TCP write size, bytes */
	int family;	      /* 4 or 6 */
	uint16_t dport;	      /* agent data port (base) */
	uint32_t sock_buf;    /* requested UDP SO_SNDBUF/SO_RCVBUF, bytes; 0 = kernel default */
	bool udp_gso;	      /* UDP GSO (UDP_SEGMENT) on senders, GRO (UDP_GRO) on receivers */
	/* per-slave capture on both ends, version of the capture exchange
	 * (docs/protocol.md "capture"): 0 none, BC_PLAN_CAPTURE_VERSION */
	uint32_t capture;
	/* with capture: also capture the hosts' gratuitous ARPs and unsolicited
	 * NAs (`failover`; plan member "capture_neigh", absent = false) */
	bool capture_neigh;
	/* with capture: the source, plan member "capture_source" ("pcap",
	 * "auto", "taps", "both"; absent = "pcap"): 0 pcap, 1 auto, 2 taps,
	 * 3 both, as enum bc_capsrc (workflow/run-capture.h) */
	uint32_t capture_source;
	/* --place per-slave=K: the agent places the reverse streams on its own
	 * bond, K per usable slave (docs/protocol.md "place"); 0 = no placement */
	uint32_t place_k;
	/* path MTU probe (matrix): UDP senders set DF and ignore the cached path
	 * MTU (IP_PMTUDISC_PROBE / IPV6_PMTUDISC_PROBE), so a datagram larger than
	 * the path is dropped on the way instead of fragmented locally; one
	 * larger than the local interface MTU fails with EMSGSIZE (send_errors) */
	bool df;
	/* capture ring per interface on both ends, bytes (docs/protocol.md
	 * "capture"); 0 = BC_CAPTURE_BUFFER.  The suite sizes it to its rates. */
	uint32_t capture_buffer;
	/* skip the collector snapshots of metadata.bond on both ends (the
	 * suite's short trials: the bond was inspected once already) */
	bool no_bond_meta;
	/* TCP streams alongside a UDP plan (`failover --tcp`; plan member
	 * "tcp_streams", absent = 0): forward only (client -> agent), numbered
	 * after the UDP streams, connecting to the agent's TCP port dport (the
	 * data-connection hello of a TCP plan), each writing BC_PLAN_TCP_WRITE
	 * bytes per call and paced by the sender at tcp_rate_bps (bits/s of
	 * payload, SO_MAX_PACING_RATE; "tcp_rate_bps", 0 = unpaced).  0..BC_PLAN_MAX_TCP_ALONGSIDE.
	 */
	uint32_t tcp_streams;
	uint64_t tcp_rate_bps;
};

#define BC_PLAN_MAX_TCP_ALONGSIDE 4
#define BC_PLAN_TCP_WRITE	  (16u * 1024)

#define BC_PLAN_CAPTURE_VERSION	   1
#define BC_PLAN_CAPTURE_BUFFER_MIN (1u << 20)
#define BC_PLAN_CAPTURE_BUFFER_MAX (256u << 20)

struct bc_plan_limits {
	uint32_t max_streams; /* total, both directions */
	uint32_t max_duration_ms;
	uint64_t max_rate_bps; /* total offered UDP rate; 0 = no cap */
};

/* bc_plan_defaults() - TCP, 1 stream forward, 10 s, interval 1 s, Tmax 1 s, IPv4. */
void bc_plan_defaults(struct bc_plan *p);

/* bc_plan_total_streams() - streams of the plan's protocol in both directions. */
uint32_t bc_plan_total_streams(const struct bc_plan *p);

/* bc_plan_all_streams() - bc_plan_total_streams() + the TCP streams alongside (tcp_streams). */
uint32_t bc_plan_all_streams(const struct bc_plan *p);

/* bc_plan_stream_tcp() - true when stream @i is a TCP stream (a TCP plan, or one alongside). */
bool bc_plan_stream_tcp(const struct bc_plan *p, uint32_t i);

/* bc_plan_stream_reverse() - true when stream @i is sent by the agent (never one alongside). */
bool bc_plan_stream_reverse(const struct bc_plan *p, uint32_t i);

/* bc_plan_max_length() - largest UDP payload: 65507 (IPv4) or 65527 (IPv6). */
uint32_t bc_plan_max_length(int family);

/*
 * bc_plan_length_for_mtu() - the largest UDP payload, in bytes, that one
 * unfragmented datagram carries on a link of @mtu bytes (the IP MTU, as
 * IFLA_MTU) for IP version @family (4 or 6): @mtu less the IP and UDP
 * headers (20 + 8 for IPv4, RFC 791 and 768; 40 + 8 for IPv6, RFC 8200),
 * capped at bc_plan_max_length() since a UDP length field holds at most
 * 65535 (lo's MTU 65536 would otherwise give 65508 for IPv4), and at least
 * 32 (the smallest payload a plan takes; an MTU below 60/80 is no IP link).
 */
uint32_t bc_plan_length_for_mtu(uint32_t mtu, int family);

/*
 * bc_plan_check() - validate against the protocol's ranges and @lim (NULL:
 * no agent limits).  Returns 0 or -EINVAL with the field, the value and what
 * is allowed in @err (the CLI names the option).
 */
int bc_plan_check(const struct bc_plan *p, const struct bc_plan_limits *lim, struct bc_error *err);

/* bc_plan_to_json() - new object; NULL on ENOMEM. */
struct json_object *bc_plan_to_json(const struct bc_plan *p);

/* bc_plan_from_json() - parse and bc_plan_check(); -EINVAL for missing or bad members. */
int bc_plan_from_json(struct json_object *o, const struct bc_plan_limits *lim, struct bc_plan *p,
		      struct bc_error *err);

#endif
