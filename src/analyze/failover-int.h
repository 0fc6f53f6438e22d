/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Private state of the failover analysis (bondcheck/failover.h): the
 * compact records kept between ingest (failover.c) and finish
 * (failover-finish.c), and the findings (failover-expect.c).
 */
#ifndef BC_ANALYZE_FAILOVER_INT_H
#define BC_ANALYZE_FAILOVER_INT_H

#include "bondcheck/failover.h"
#include "bondcheck/packet.h"

#define MAX_MACS 8 /* source MACs learned per host */

/* One of our datagrams seen on a link (24 bytes). */
struct fo_rec {
	uint64_t ts; /* capture time; agent links: moved to the client clock at finish */
	uint64_t seq;
	uint32_t stream; /* index in f->streams */
	uint8_t link;
	uint8_t left; /* 1: left on this link (captured at the sender) */
};

enum fo_ev_kind { EV_GARP, EV_ARP, EV_NA, EV_LACP };

/* A gratuitous ARP, other ARP, unsolicited NA or LACPDU seen on a link. */
struct fo_ev {
	uint64_t ts;
	uint8_t link;
	uint8_t kind;	    /* enum fo_ev_kind */
	uint8_t lacp_state; /* EV_LACP: actor state */
	uint8_t mac[6];	    /* EV_LACP: actor system; others: Ethernet source */
	uint16_t port;	    /* EV_LACP: actor port */
	int8_t sender;	    /* ARP/NA by address: 0 client, 1 agent, -1 unknown (by MAC later) */
};

/* A TCP data segment of the flow alongside (cfg.tcp_dport) seen on a link. */
struct fo_tcp_rec {
	uint64_t ts;
	uint32_t seq, len;
	uint8_t link;
	uint8_t left;
};

/* One datagram departure: capture time (client clock, ns) and link index. */
struct fo_dep {
	uint64_t ts;
	uint8_t link;
};

struct fo_priv {
	/*
	 * Each host's datagram departures (index enum bc_fo_host) within its
	 * streams' spans, in time order: filled by fo_finish() (fill_streams)
	 * and read by fo_tcp_finish() after it.
	 */
	struct fo_dep *deps[2];
	size_t n_deps[2];
	struct fo_tcp_rec *tcp;
	size_t n_tcp, cap_tcp;
	struct fo_rec *recs;
	size_t n_recs, cap_recs;
	struct fo_ev *evs;
	size_t n_evs, cap_evs;
	uint8_t macs[2][MAX_MACS][6]; /* source MACs of our datagrams, per sending host */
	size_t n_macs[2];
	int last_stream;
};

/* failover-finish.c */
int fo_finish(struct bc_failover *f, struct bc_error *err);
/*
 * fo_tx_link_at() - the link a host transmitted on at @ts (ns, client
 * clock), from its departures @d (n of them, in time order): that of its
 * latest departure at or before @ts, else its first; -1 when @n is 0.
 */
int fo_tx_link_at(const struct fo_dep *d, size_t n, uint64_t ts);
/* failover-tcp.c */
int fo_tcp_packet(struct bc_failover *f, int link, uint64_t ts, const struct bc_pkt *p, int src,
		  int dst);
int fo_tcp_finish(struct bc_failover *f);
/* failover-expect.c */
int fo_findings(struct bc_failover *f);

#endif
