/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Private state of the attribution (bondcheck/attrib.h): compact per-packet
 * records kept between ingest (attrib.c) and the merge (attrib-merge.c).
 */
#ifndef BC_ANALYZE_ATTRIB_INT_H
#define BC_ANALYZE_ATTRIB_INT_H

#include "bondcheck/attrib.h"

#define NO_STREAM UINT32_MAX

/* The 64-bit finalizer of MurmurHash3 (fmix64): the attribution's hash tables. */
static inline uint64_t attrib_mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 33;
	return h;
}
#define MAX_PAIRS 64 /* distinct (src, dst) address pairs; more are counted foreign */

enum {
	R_FRAG = 0x01, /* an IP fragment */
	R_MF = 0x02,   /* more fragments follow */
	R_OURS = 0x04, /* carries our header: stream and seq are valid */
	/* ingest until attrib_iperf3_recognise(): stream holds the flow index */
	R_CAND = 0x08, /* UDP payload readable as iperf3's: seq = bytes 8-15 (w2 << 32 | w3),
			* send_ns = sec << 32 | usec */
	R_W16 = 0x10,  /* R_CAND with 16 bytes (w3 valid) */
	R_CONN = 0x20, /* an iperf3 connect datagram or reply (4 bytes) */
};

/* An iperf3 parameter JSON seen on a TCP connection (bc_iperf3_params_bits()). */
struct i3_params {
	uint64_t ts;
	uint8_t version, bits;
	uint8_t src[16], dst[16];
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

/*
 * Timeline while ingesting (attrib-timeline.c): per link and address pair
 * (the direction of a pair is known only at finish), BC_ATTRIB_MAX_BINS
 * frame counts followed by as many wire byte counts, allocated on the pair's
 * first frame on the link.  Slot j holds the bin of absolute index base + j
 * (absolute index = ts / w).
 */
struct tl_state {
	uint64_t w;	       /* current bin width, ns */
	uint64_t base;	       /* absolute index of slot 0 */
	uint64_t min_i, max_i; /* absolute indices of the first and last counted bins */
	bool any;
	uint64_t *bins[BC_ATTRIB_MAX_LINKS][MAX_PAIRS];
	struct {
		uint64_t lo, hi; /* [lo, hi): the ns of the bin in slot */
		size_t slot;
	} cache[BC_ATTRIB_MAX_LINKS];
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
	uint32_t *flow_tab; /* flow hash: indices + 1 (0 = empty), load <= 1/2 */
	size_t flow_tab_size;
	uint8_t *flow_pair; /* pair index of each flow */
	size_t cap_flows;
	uint64_t *stream_min_seq;
	size_t cap_streams, cap_min_seq;
	uint32_t *stream_tab; /* stream hash: indices + 1 (0 = empty), load <= 1/2 */
	size_t stream_tab_size;
	int last_pair, last_flow, last_stream; /* one-entry caches */
	struct tl_state tl;

	struct tcp_priv *tcp; /* attrib-tcp.c */
	size_t n_cand;	      /* records with R_CAND or R_CONN */
	struct i3_params *i3p;
	size_t n_i3p, cap_i3p;
	/* attrib-pairs.c: RFC 5236 bins of each pair's late packets, 2 DT + 2 each */
	uint64_t *pair_rd[BC_ATTRIB_MAX_LINKS][BC_ATTRIB_MAX_LINKS];
};

/*
 * attrib-iperf3.c: judge every flow with R_CAND records (bc_iperf3_judge());
 * make a stream of each iperf3 one and turn its records into units (R_OURS),
 * count the rest as udp_other (first fragments: at the merge) and the
 * connect datagrams.  Before the merge.  -ENOMEM.
 */
int attrib_iperf3_recognise(struct bc_attrib *a);

/* attrib-merge.c: the finish steps after ingest. */
int attrib_merge(struct bc_attrib *a, struct bc_error *err);
/* attrib-merge.c: each link's peer, the link most of its units reached (path[][]). */
void attrib_learn_peers(struct bc_attrib *a);

/* attrib-pairs.c: observe @rd's classifications for the per-pair density; -ENOMEM. */
int attrib_pair_observe(struct bc_attrib *a, struct bc_rd *rd);
/*
 * attrib-pairs.c: a late packet (RFC 4737 reordered, just added to @rd) that
 * arrived on @late behind the earliest later one on @early, @extent arrivals
 * before it: counted in pairs[][] (and tcp_pairs[][] when @tcp), its extent,
 * and its RFC 5236 displacement once @rd classifies it.  -ENOMEM.
 */
int attrib_pair_charge(struct bc_attrib *a, unsigned early, unsigned late, uint64_t extent,
		       struct bc_rd *rd, bool tcp);
void attrib_pairs_free(struct priv *pv);

/* attrib-tcp.c: one decoded TCP packet of @flow (ingest); -ENOMEM. */
int attrib_tcp_add(struct bc_attrib *a, int link, int flow, uint64_t ts, const struct bc_pkt *p,
		   const uint8_t *data, uint32_t caplen);
/* attrib-tcp.c: map, attribute and measure the TCP flows (after the UDP merge). */
int attrib_tcp_merge(struct bc_attrib *a);
void attrib_tcp_free(struct bc_attrib *a);

/* attrib-timeline.c: count a frame (slow path: new bin, pair or layout). */
int attrib_tl_add_slow(struct bc_attrib *a, int link, int pair, uint64_t ts, uint64_t wire_bytes);
/* attrib-timeline.c: fold the pairs into a->timeline by direction (after the
 * pairs' directions are decided) and free the ingest bins. */
int attrib_tl_fold(struct bc_attrib *a);
void attrib_tl_free(struct priv *pv);

/* Count one frame of @pair on @link at @ts in the timeline; -ENOMEM. */
static inline int attrib_tl_add(struct bc_attrib *a, int link, int pair, uint64_t ts,
				uint64_t wire_bytes)
{
	struct tl_state *t = &((struct priv *)a->priv)->tl;
	uint64_t *b = t->bins[link][pair];

	if (b && ts >= t->cache[link].lo && ts < t->cache[link].hi) {
		b[t->cache[link].slot]++;
		b[BC_ATTRIB_MAX_BINS + t->cache[link].slot] += wire_bytes;
		return 0;
	}
	return attrib_tl_add_slow(a, link, pair, ts, wire_bytes);
}

#endif
