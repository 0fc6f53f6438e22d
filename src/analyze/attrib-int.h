/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Private state of the attribution (bondcheck/attrib.h): compact per-packet
 * records kept between ingest (attrib.c) and the merge (attrib-merge.c).
 */
#ifndef BC_ANALYZE_ATTRIB_INT_H
#define BC_ANALYZE_ATTRIB_INT_H

#include "bondcheck/attrib.h"

#define NO_STREAM UINT32_MAX
#define MAX_PAIRS 64 /* distinct (src, dst) address pairs; more are counted foreign */

enum {
	R_FRAG = 0x01, /* an IP fragment */
	R_MF = 0x02,   /* more fragments follow */
	R_OURS = 0x04, /* carries our header: stream and seq are valid */
};

/* One packet of interest: our datagram, or any fragment (48 bytes). */
struct rec {
	uint64_t ts;	   /* capture time, ns */
	uint64_t seq;	   /* our sequence number (R_OURS) */
	uint64_t send_ns;  /* our header's send stamp (R_OURS) */
	uint32_t stream;   /* index in a->streams or NO_STREAM */
	uint32_t ip_id;	   /* fragments: IPv4 id or IPv6 fragment id */
	uint32_t frag_len; /* fragments: bytes of IP payload this fragment carries */
	uint16_t off8;	   /* fragment offset / 8 */
	uint8_t link;
	uint8_t flags;
	uint8_t pair; /* index in priv->pairs */
	uint8_t proto;
};

/* Per link and address pair counters, folded into fwd/rev at finish. */
struct pair_stats {
	uint64_t frames, bytes, wire_frames, wire_bytes, super_frames, first_ns, last_ns;
};

struct addr_pair {
	uint8_t version;
	uint8_t src[16], dst[16];
	uint64_t tx_bytes; /* bytes in TX-side captures: infers the sending host */
	int dir;	   /* BC_DIR_*, or -1 foreign (after finish) */
};

struct priv {
	struct rec *recs;
	size_t n_recs, cap_recs;
	uint32_t *link_recs[BC_ATTRIB_MAX_LINKS]; /* indices into recs, capture order */
	size_t n_link_recs[BC_ATTRIB_MAX_LINKS], cap_link_recs[BC_ATTRIB_MAX_LINKS];

	struct addr_pair pairs[MAX_PAIRS];
	size_t n_pairs;
	struct pair_stats ls[BC_ATTRIB_MAX_LINKS][MAX_PAIRS];

	/* flow hash: open addressing over flow indices + 1 (0 = empty) */
	uint32_t *flow_tab;
	size_t flow_tab_size;
	uint8_t *flow_pair; /* pair index of each flow */
	size_t cap_flows;
	uint64_t *stream_min_seq;
	int last_pair, last_flow, last_stream; /* one-entry caches */
};

/* attrib-merge.c: the finish steps after ingest. */
int attrib_merge(struct bc_attrib *a, struct bc_error *err);

#endif
