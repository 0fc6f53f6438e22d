/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attribution of packets to bond slaves from per-slave captures
 * (DESIGN.md "Capture and attribution"; reference/measurement.md 1 and 3).
 *
 * Input: one packet stream per captured link, each tagged with the side it
 * was captured on (BC_SIDE_TX: the sending host, BC_SIDE_RX: the receiving
 * host).  A packet travels "forward" when its source is the sending host's
 * address (cfg.local, or inferred as the source of most bytes in the TX
 * captures), else "reverse".  A forward packet in a TX capture, or a reverse
 * one in an RX capture, *left* on that link; the others *arrived* on it.
 *
 * Units: every IP packet of our UDP streams is one unit, keyed by
 * (stream, sequence number, fragment offset).  A stream is bondcheck's
 * (its header) or iperf3's (bondcheck/iperf3.h: a UDP flow whose datagrams
 * together pass bc_iperf3_judge(), the sequence number its packet
 * counter; analyze/attrib-iperf3.c).  Non-first IPv4 fragments are
 * joined to their first fragment by (src, dst, protocol, id) within
 * cfg.ipfrag_window_ns (no longer than ipfrag_time: the 16-bit id wraps);
 * IPv6 fragments by the 32-bit identification, in the same way.
 *
 * From the units:
 *  - path[tx][rx]: units that left on link tx and arrived on link rx; the
 *    learned peer of a TX link is the RX link most of its units reached;
 *  - loss per TX link: units that left on it, never arrived, and are
 *    bracketed (a later sequence number of the same stream arrived);
 *  - reordering in arrival order of the merged receiver captures (the
 *    observation point "merged-rx-slave-captures"): RFC 4737 / 5236 per
 *    stream through bc_seqwin, and per link pair: a late datagram (s <
 *    NextExp) arriving on link A is charged to the pair (B, A), B the link of
 *    the earliest arrival with a larger sequence number (RFC 4737 4.2's j);
 *  - TCP (attrib-tcp.c), mapped by byte range: per TCP flow (one direction
 *    of a connection) the 32-bit sequence numbers are unwrapped relative to
 *    the first one seen (SYN and FIN take one each); TSO/GSO/GRO super-frames
 *    are cut into per-MSS chunks (MSS: cfg.mtu minus the flow's IP and TCP
 *    headers, capped by the peer's SYN MSS option less the data segments'
 *    options, raised to the largest payload of a frame within cfg.mtu).  The
 *    chunks that left (sender captures) are ordered by sequence: bytes that
 *    had already left before are a retransmission, the rest a first
 *    transmission, numbered in sequence order (the packet ordinal RFC 4737
 *    and 5236 use).  Every segment that arrived (receiver captures, merged by
 *    timestamp) is cut at those chunks' boundaries (byte-range lookup: TX
 *    TSO and RX GRO boundaries differ) and each piece mapped to the
 *    transmission that carried it: when the bytes left more than once, the
 *    one whose TX link feeds this RX link, sent before the arrival and not
 *    yet arrived, latest first.  An arrival mapped to a first transmission
 *    feeds the flow's bc_seqwin with its ordinal (a retransmission's arrival
 *    is never counted as reordering); a late one is charged to a link pair
 *    as for UDP.  Transmissions that never arrived are lost when one sent
 *    later on the same TX link arrived (per link: other links may queue
 *    longer), else unbracketed.  Without a sender capture
 *    the ordinal is (sequence - lowest arrived) / MSS and retransmissions
 *    cannot be told from late segments;
 *  - RFC 5236 reorder density per link pair: the displacement D of every
 *    late packet charged to the pair (bc_attrib_pair_rd());
 *  - fragmented messages at the receiver: complete in the capture,
 *    incomplete (a fragment lost), or complete but predicted to fail
 *    reassembly (FRAG_TOO_FAR: more than cfg.ipfrag_max_dist fragments from
 *    the source between two of its fragments, net/ipv4/ip_fragment.c
 *    ip_frag_too_far()).  A fragment later than the window after the first
 *    starts a new entry, so a message spread over more than ipfrag_time is
 *    incomplete, as the kernel's timer makes it.  When the first fragment
 *    was lost, the receiver's other fragments of the message are joined to
 *    it through the sender's captures (same key, the sender's first
 *    fragment nearest in time within the window): the message counts as
 *    incomplete and its stream's arrived_partial, not as a capture gap.
 *    Per TX link, messages_lost counts the fragmented datagrams that
 *    reached the receiver in part and lost a bracketed fragment on that
 *    link (one lost fragment costs the whole message: 1 - (1 - p)^f);
 *  - a per-link timeline: captured frames and wire bytes per time bin, per
 *    link and direction (struct bc_attrib_timeline).
 *
 * Times are ns; byte counts are bytes; rates bits/s.
 */
#ifndef BONDCHECK_ATTRIB_H
#define BONDCHECK_ATTRIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"
#include "bondcheck/packet.h"
#include "bondcheck/seqwin.h"

#define BC_ATTRIB_MAX_LINKS 32
#define BC_ATTRIB_NAME	    32		 /* "tx:hostA/eth0" fits in a finding subject */
#define BC_ATTRIB_MAX_SEQ   (1ull << 32) /* larger sequence numbers are foreign */
/* Streams (test, stream id, flow) tracked; a run has at most ~16 tests of
 * BC_PLAN_MAX_STREAMS (128, bondcheck/stream-limits.h): the datagrams of further streams are
 * foreign. */
#define BC_ATTRIB_MAX_STREAMS 2048
#define BC_ATTRIB_MAX_BINS    4096	   /* timeline bins; longer captures get wider bins */
#define BC_ATTRIB_BIN_NS      100000000ull /* default timeline bin: 100 ms */

enum bc_side { BC_SIDE_TX = 0, BC_SIDE_RX = 1 };
enum bc_dir { BC_DIR_FWD = 0, BC_DIR_REV = 1 };

struct bc_attrib_cfg {
	uint32_t mtu;		   /* bytes per L3 packet for super-frame expansion; 0: none */
	uint64_t ipfrag_window_ns; /* fragment join window (ipfrag_time, default 30 s) */
	uint32_t ipfrag_max_dist;  /* net.ipv4.ipfrag_max_dist (64); 0 disables the check */
	uint32_t rd_threshold;	   /* RFC 5236 DT, packets */
	uint32_t late_threshold;   /* "reordering" finding: n-reordering n (3, UDP) */
	double idle_share;	   /* "link-idle" below this share (0.01) */
	uint64_t bin_ns;	   /* timeline bin width, ns (100 ms); 0: no timeline */
	bool have_local;
	uint8_t local[16]; /* sending host's address, IPv4 in the first 4 bytes */
	uint8_t local_version;
};

/* Per link, per direction of travel (forward/reverse). */
struct bc_link_dir {
	uint64_t frames, bytes;		  /* captured frames; bytes = pcap original length */
	uint64_t wire_frames, wire_bytes; /* super-frames expanded; +24/frame, 64 min */
	uint64_t super_frames;		  /* frames longer than cfg.mtu (TSO/GSO/GRO) */
	uint64_t first_ns, last_ns;
	uint32_t flows; /* distinct 5-tuples (after finish) */
};

/* TCP per link (attrib-tcp.c): chunks are per-MSS pieces of segments. */
struct bc_attrib_tcp_link {
	uint64_t chunks_left, bytes_left;	/* that left here, first and retransmitted */
	uint64_t chunks_arrived, bytes_arrived; /* that arrived here (pieces, see above) */
	uint64_t lost, lost_bytes;		/* left here, never arrived, bracketed */
	uint64_t unbracketed;			/* left here after the flow's last arrival */
	uint64_t retransmits, retransmit_bytes; /* chunks carrying bytes that had left before */
	uint64_t spurious;			/* retransmits whose earlier copy arrived */
};

struct bc_attrib_link {
	char name[BC_ATTRIB_NAME]; /* "tx:eth0", qualified by side */
	enum bc_side side;
	struct bc_link_dir dir[2];
	uint64_t units_left, units_arrived; /* our datagrams/fragments */
	uint64_t lost;			    /* left here, bracketed, never arrived */
	uint64_t unbracketed;		    /* left here after the last arrival of its stream */
	uint64_t messages_lost; /* fragmented datagrams that reached the receiver in part
				 * and lost a bracketed fragment here: reassembly fails */
	int peer;		/* learned peer link (index), -1 unknown */
	uint64_t lacpdus;
	struct bc_lacpdu last_lacp;
	uint64_t other_frames; /* not IP and not LACP (ARP, ...) */
	uint64_t udp_other;    /* UDP datagrams of another generator (neither bondcheck's header
				* nor a recognised iperf3 stream: an application), counted once
				* each (unfragmented, or by their first fragment), not attributed */
	uint64_t iperf3_connect; /* iperf3's 4-byte connect datagrams and replies on a
				  * recognised stream's 5-tuple or its reverse (not data) */
	uint64_t foreign;      /* IP neither from nor to the sending host (with cfg.local),
				* or our header past BC_ATTRIB_MAX_SEQ / _MAX_STREAMS */
	uint64_t snapped;      /* our header or a needed header cut by the snap length */
	uint64_t malformed;
	bool truncated; /* the file ended inside a record */
	char trunc_msg[160];
	uint32_t snaplen, linktype; /* of the file, when read from one */
	uint64_t ps_drop;	    /* pcap_stats drops of the live capture (set by the caller) */
	struct bc_attrib_tcp_link tcp;
};

struct bc_attrib_flow {
	uint8_t version, proto;
	uint8_t src[16], dst[16];
	uint16_t sport, dport;
	enum bc_dir dir;
	uint64_t frames, bytes;
	uint64_t link_mask; /* bit i: seen on link i */
};

/* The generator a UDP stream was recognised as. */
enum bc_gen {
	BC_GEN_BONDCHECK = 0, /* bondcheck's header (bondcheck/udp-header.h) */
	BC_GEN_IPERF3,	      /* iperf3's payload (bondcheck/iperf3.h), judged per flow */
};

/*
 * One UDP stream in one direction: bondcheck's (test_id, stream_id, flow) or
 * an iperf3 stream (its flow: iperf3 gives each stream its own socket).
 * Sequence numbers are bondcheck's seq, or iperf3's packet counter.
 */
struct bc_attrib_stream {
	enum bc_gen gen;
	uint32_t test_id, stream_id; /* BC_GEN_BONDCHECK only */
	uint8_t counter_bits;	     /* BC_GEN_IPERF3: 32 or 64 */
	bool counter_from_control;   /* BC_GEN_IPERF3: the width read from iperf3's
				      * parameter JSON, not inferred from the datagrams */
	enum bc_dir dir;
	int flow;					       /* index in flows[] */
	uint64_t left, arrived, lost, unbracketed, duplicates; /* by first fragment */
	uint64_t arrived_partial; /* fragmented: the first fragment lost, another arrived */
	uint64_t max_rx_seq;
	bool any_rx;
	struct bc_seqwin win; /* receiver metrics in merged RX arrival order */
	bool win_ready;
	/* internal: record-setting arrivals (seq, link) for the pair attribution */
	uint64_t *rec_seq, *rec_pos;
	uint8_t *rec_link;
	size_t n_rec, cap_rec;
};

/* One TCP flow (one direction of a connection) that carried sequence space. */
struct bc_attrib_tcp_flow {
	int flow; /* index in flows[] */
	enum bc_dir dir;
	uint32_t mss;		   /* chunk size, bytes (0: cfg.mtu 0, no cutting) */
	const char *mss_source;	   /* "mtu", "syn" or "observed" */
	bool tx_seen, rx_seen;	   /* the sender's / receiver's captures carried it */
	uint64_t first_chunks;	   /* first transmissions (ordinals 0..n-1) */
	uint64_t seq_bytes;	   /* bytes of sequence space sent (first transmissions) */
	uint64_t chunks_left;	   /* first + retransmitted chunks */
	uint64_t retransmits;	   /* chunks carrying bytes that had left before */
	uint64_t retransmit_bytes; /* those bytes */
	uint64_t spurious;	   /* retransmits whose earlier copy arrived */
	uint64_t chunks_arrived, bytes_arrived;
	uint64_t retransmits_arrived; /* arrivals mapped to a retransmission */
	uint64_t duplicates;	      /* arrivals of a first transmission already arrived */
	uint64_t arrived_not_left;    /* arrived pieces no sender capture saw leave */
	uint64_t lost, lost_bytes, unbracketed;
	struct bc_seqwin win; /* RFC 4737/5236 on ordinals, merged RX arrival order */
	bool win_ready;
};

struct bc_attrib_frag {
	uint64_t messages_rx;  /* fragmented messages seen at the receiver */
	uint64_t complete;     /* every fragment arrived */
	uint64_t incomplete;   /* a fragment never arrived (reassembly fails; wire loss) */
	uint64_t too_far;      /* complete but predicted to fail: ipfrag_max_dist */
	uint64_t unjoined[2];  /* non-first fragments whose first never showed [side] */
	uint64_t joined_late;  /* receiver messages whose first fragment was lost, joined
				* to their datagram through the sender's captures */
	int too_far_link;      /* RX link of the most too-far late fragments, -1 */
	uint64_t fragments[2]; /* fragments seen [side] */
};

/*
 * Per-link timeline, filled by bc_attrib_finish().  Bin b covers
 * [start_ns + b * bin_ns, start_ns + (b + 1) * bin_ns).  Bin boundaries are
 * multiples of bin_ns (counted from the epoch of the capture clock), so
 * captures of one clock share them.  bin_ns is cfg.bin_ns x 2^k with k the
 * smallest that fits every frame into BC_ATTRIB_MAX_BINS bins: a longer
 * capture gets wider bins; the result does not depend on the order the
 * links or files were added.  Bins before the first and after the last
 * counted frame are cut.
 *
 * Counted: the IP frames that bc_link_dir counts (forward or reverse; not
 * foreign, LACP, ARP or malformed ones), by capture timestamp.  Per bin,
 * the sums over all bins equal the link's bc_link_dir.frames and
 * bc_link_dir.wire_bytes.  Layout: the n_bins values of link l, direction d
 * start at frames[(l * 2 + d) * n_bins] (bc_attrib_tl_frames()).
 */
struct bc_attrib_timeline {
	uint64_t bin_ns;      /* bin width, ns; 0 when cfg.bin_ns was 0 */
	uint64_t start_ns;    /* start of bin 0, ns, a multiple of bin_ns */
	size_t n_bins;	      /* 0..BC_ATTRIB_MAX_BINS; 0 when nothing was counted */
	uint64_t *frames;     /* captured frames, [link][dir][bin] */
	uint64_t *wire_bytes; /* wire bytes (super-frames expanded, +24/frame, 64 min) */
};

struct bc_attrib {
	struct bc_attrib_cfg cfg;
	struct bc_attrib_link links[BC_ATTRIB_MAX_LINKS];
	size_t n_links;
	struct bc_attrib_flow *flows;
	size_t n_flows;
	struct bc_attrib_stream *streams;
	size_t n_streams;

	uint64_t path[BC_ATTRIB_MAX_LINKS][BC_ATTRIB_MAX_LINKS];  /* [left link][arrived link] */
	uint64_t pairs[BC_ATTRIB_MAX_LINKS][BC_ATTRIB_MAX_LINKS]; /* [early link][late link] */
	uint64_t pair_extent_max[BC_ATTRIB_MAX_LINKS][BC_ATTRIB_MAX_LINKS];
	uint64_t rx_received, rx_reordered; /* over all streams and TCP flows (first copies) */
	struct bc_attrib_tcp_flow *tcp_flows;
	size_t n_tcp_flows;
	uint64_t tcp_path[BC_ATTRIB_MAX_LINKS][BC_ATTRIB_MAX_LINKS];  /* TCP share of path */
	uint64_t tcp_pairs[BC_ATTRIB_MAX_LINKS][BC_ATTRIB_MAX_LINKS]; /* TCP share of pairs */
	uint64_t tcp_received, tcp_reordered;			      /* TCP share of rx_* */
	uint64_t rx_without_tx; /* arrived units that no TX capture saw leave */
	uint64_t skew_units;	/* units that arrived before they left (clock skew) */
	int64_t delay_min_ns, delay_max_ns;
	struct bc_attrib_frag frag;
	struct bc_attrib_timeline timeline;
	bool local_inferred;
	bool finished;

	struct bc_finding *findings;
	size_t n_findings;

	void *priv; /* records, hash tables */
};

/* bc_attrib_cfg_default() - MTU 1500, 30 s window, max_dist 64, DT 16, n 3, 1 %,
 * 100 ms timeline bins. */
void bc_attrib_cfg_default(struct bc_attrib_cfg *cfg);

/* bc_attrib_init() - 0 or -ENOMEM. */
int bc_attrib_init(struct bc_attrib *a, const struct bc_attrib_cfg *cfg, struct bc_error *err);
void bc_attrib_free(struct bc_attrib *a);

/*
 * bc_attrib_add_link() - declare a captured link; @name is qualified with the
 * side ("tx:" + name).  Returns its index, -E2BIG past BC_ATTRIB_MAX_LINKS,
 * -EEXIST for a second link of that name and side.
 */
int bc_attrib_add_link(struct bc_attrib *a, enum bc_side side, const char *name,
		       struct bc_error *err);

/*
 * bc_attrib_add_packet() - one captured frame on link @link, in capture
 * order.  @ts_ns: capture time; @wire_len: pcap original length.
 * Returns 0 or -ENOMEM; undecodable frames are counted, not errors.
 */
int bc_attrib_add_packet(struct bc_attrib *a, int link, uint64_t ts_ns, const uint8_t *data,
			 uint32_t caplen, uint32_t wire_len);

/*
 * bc_attrib_read_pcap() - add every frame of a pcap or pcapng file (ours or
 * tcpdump's) to @link.  Timestamps are read with nanosecond precision.
 * Errors: -ENOENT/-EIO when libpcap cannot open it (its errbuf in @err),
 * -EPROTONOSUPPORT for a link type other than Ethernet (DLT_EN10MB).
 * A file that ends inside a record is not an error: the link is marked
 * truncated (and the analysis flagged capture-incomplete).
 */
int bc_attrib_read_pcap(struct bc_attrib *a, int link, const char *path, struct bc_error *err);

/* bc_attrib_finish() - merge, join, attribute; then findings.  0 or -ENOMEM. */
int bc_attrib_finish(struct bc_attrib *a, struct bc_error *err);

/*
 * What a figure is worth when a capture is incomplete (issue "capture-
 * incomplete"; reference/measurement.md 3.1 "Capture loss invalidates
 * capture-derived stages", 3.8).  A link's capture is incomplete when pcap
 * dropped frames (ps_drop), the file was truncated, a frame was cut before
 * our header, or the snap length is too small for it.
 *   counts (frames, bytes, units) on an incomplete link: a lower bound;
 *   loss derived from the captures: an upper bound when a receiver capture
 *     is incomplete (a missed arrival looks lost), a lower bound when only
 *     the sender's link is (a missed departure is never counted lost),
 *     unknown when both are;
 *   reordering (from the merged receiver captures): unknown when any
 *     receiver capture is incomplete.
 */
enum bc_bound {
	BC_BOUND_EXACT = 0,
	BC_BOUND_LOWER,
	BC_BOUND_UPPER,
	BC_BOUND_UNKNOWN,
};

/* bc_bound_name() - "exact", "lower", "upper", "unknown". */
const char *bc_bound_name(enum bc_bound b);

/* bc_attrib_link_incomplete() - link @l's capture missed or cut frames. */
bool bc_attrib_link_incomplete(const struct bc_attrib *a, size_t l);

/*
 * bc_attrib_side_incomplete() - any link of @side is incomplete; for the
 * sender side also when packets arrived that no sender capture saw leave.
 */
bool bc_attrib_side_incomplete(const struct bc_attrib *a, enum bc_side side);

/* bc_attrib_count_bound() - link @l's frame/byte/unit counts: EXACT or LOWER. */
enum bc_bound bc_attrib_count_bound(const struct bc_attrib *a, size_t l);

/*
 * bc_attrib_loss_bound() - capture-derived loss of what left on link @l (or,
 * with @l < 0, over every link units left on): EXACT, UPPER (a capture on
 * the side they arrive on is incomplete: a frame it missed looks lost),
 * LOWER (only @l's own: a frame it missed is never counted) or UNKNOWN
 * (both).  The arriving side is the other prefix of @l's: "rx:" links for a
 * "tx:" link, and "tx:" links for an "rx:" one (the agent's datagrams of a
 * reverse run leave on "rx:" links).
 */
enum bc_bound bc_attrib_loss_bound(const struct bc_attrib *a, long l);

/* bc_attrib_reorder_bound() - EXACT, or UNKNOWN when a capture that units
 * arrived on (or any "rx:" capture) is incomplete. */
enum bc_bound bc_attrib_reorder_bound(const struct bc_attrib *a);

/* bc_attrib_reordered_ratio() - RFC 4737 reordered / received over all streams, 0..1. */
double bc_attrib_reordered_ratio(const struct bc_attrib *a);

/*
 * bc_attrib_pair_rd() - RFC 5236 reorder density of the late packets charged
 * to the pair (@early, @late) (link indices): how many had displacement @d
 * (-DT..DT, DT = cfg.rd_threshold; late packets have D > 0).
 * bc_attrib_pair_rd_discarded() - those with |D| > DT (RFC 5236 treats them
 * as lost).  0 for a pair without late packets.
 */
uint64_t bc_attrib_pair_rd(const struct bc_attrib *a, size_t early, size_t late, int d);
uint64_t bc_attrib_pair_rd_discarded(const struct bc_attrib *a, size_t early, size_t late);

/* bc_attrib_wire_bps() - wire rate of @l in direction @d, bits/s (0 for < 2 frames). */
double bc_attrib_wire_bps(const struct bc_attrib_link *l, enum bc_dir d);

/* bc_attrib_tl_frames() - the timeline's n_bins frame counts of @link, @d. */
static inline const uint64_t *bc_attrib_tl_frames(const struct bc_attrib *a, size_t link,
						  enum bc_dir d)
{
	return a->timeline.frames + (link * 2 + (size_t)d) * a->timeline.n_bins;
}

/* bc_attrib_tl_wire_bytes() - the timeline's n_bins wire byte counts of @link, @d. */
static inline const uint64_t *bc_attrib_tl_wire_bytes(const struct bc_attrib *a, size_t link,
						      enum bc_dir d)
{
	return a->timeline.wire_bytes + (link * 2 + (size_t)d) * a->timeline.n_bins;
}

/* bc_attrib_findings() - add the analysis findings (internal, called by finish). */
int bc_attrib_findings(struct bc_attrib *a);

#endif
