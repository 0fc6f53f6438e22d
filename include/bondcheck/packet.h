/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Packet decoder for slave captures (DESIGN.md "Capture and attribution").
 * Pure and bounds-checked: every field is read through a cursor that knows
 * how many captured bytes remain, as tcpdump's dissectors do.
 *
 * Layers: Ethernet II, up to two 802.1Q/802.1ad tags, then
 *  - IPv4 (RFC 791) incl. fragments: id is the 16-bit identification;
 *  - IPv6 (RFC 8200) walking hop-by-hop, routing, destination-options and
 *    fragment headers: id is the 32-bit fragment identification;
 *  - TCP (RFC 9293) and UDP (RFC 768) in a first (or unfragmented) packet;
 *  - our UDP test header (bondcheck/udp-header.h) at the start of a UDP payload;
 *  - Slow Protocols (ethertype 0x8809) subtype 1: LACPDU (IEEE 802.1AX-2014
 *    6.4.2.3: actor TLV 1 and partner TLV 2, 20 bytes of information each).
 *
 * Lengths: @wire_len is the pcap header's original length (never the
 * snapped one).  ip_len is the L3 packet length in bytes, from the IP header,
 * or from @wire_len when the header says 0 (BIG TCP / TSO super-frames,
 * kernel-interfaces.md 6.6).  l4_payload is the bytes after the L4 header
 * that the packet carries on the wire, whatever the snap length.
 */
#ifndef BONDCHECK_PACKET_H
#define BONDCHECK_PACKET_H

#include <stdbool.h>
#include <stdint.h>

#include "bondcheck/udp-header.h"

#define BC_ETH_P_IPV4	0x0800
#define BC_ETH_P_IPV6	0x86dd
#define BC_ETH_P_8021Q	0x8100
#define BC_ETH_P_8021AD 0x88a8
#define BC_ETH_P_SLOW	0x8809

/* How far decoding got: the deepest layer recognised (in order). */
enum bc_pkt_layer {
	BC_PKT_L2 = 0, /* Ethernet only (ARP, other ethertypes) */
	BC_PKT_L3,     /* IP header decoded (non-first fragments stop here) */
	BC_PKT_L4,     /* TCP or UDP header decoded */
	BC_PKT_OURS,   /* our UDP test header decoded */
	BC_PKT_LACP,   /* LACPDU decoded */
};

/* Why decoding stopped early (0 = it did not). */
enum bc_pkt_stop {
	BC_PKT_STOP_NONE = 0,
	BC_PKT_STOP_SNAPPED,   /* caplen ended before a header we needed */
	BC_PKT_STOP_MALFORMED, /* a header contradicts itself or the frame length */
};

/* One LACP port information TLV (802.1AX-2014 6.4.2.3, bytes 3..17). */
struct bc_lacpdu_port {
	uint16_t system_priority;
	uint8_t system[6];
	uint16_t key;
	uint16_t port_priority;
	uint16_t port;
	uint8_t state; /* LACP_STATE_* bits; words: bc_lacp_state_words() */
};

struct bc_lacpdu {
	uint8_t version;
	struct bc_lacpdu_port actor, partner;
};

struct bc_pkt {
	enum bc_pkt_layer layer;
	enum bc_pkt_stop stop;
	const char *why; /* static text for stop != NONE ("IPv4 IHL < 5") */

	uint32_t wire_len;  /* pcap original length, bytes, L2 header included, no FCS */
	uint16_t ethertype; /* after VLAN tags */
	uint8_t n_vlan;
	uint16_t vlan_id; /* outermost tag's VID, 0 without a tag */
	uint16_t l2_len;  /* bytes of Ethernet + tags */

	uint8_t ip_version;	  /* 4, 6 or 0 */
	uint8_t src[16], dst[16]; /* IPv4 in the first 4 bytes, rest zero */
	uint8_t proto;		  /* upper-layer protocol after IPv6 extension headers */
	uint16_t l3_hdr_len;	  /* IP header incl. IPv6 extension headers, bytes */
	uint32_t ip_len;	  /* L3 packet length, bytes (see above) */
	bool ip_len_from_wire;	  /* header said 0 (super-frame): taken from wire_len */
	bool frag;		  /* a fragment: offset > 0 or more-fragments set */
	bool more_frags;
	uint32_t frag_off; /* bytes (header field x 8) */
	uint32_t ip_id;	   /* IPv4 identification (16 bits) or IPv6 fragment id */

	uint16_t sport, dport;
	uint16_t l4_hdr_len;
	uint32_t l4_payload; /* bytes of L4 payload on the wire */
	uint32_t tcp_seq;
	uint8_t tcp_flags;

	struct bc_udphdr ours; /* valid when layer == BC_PKT_OURS */
	struct bc_lacpdu lacp; /* valid when layer == BC_PKT_LACP */
};

/*
 * bc_pkt_decode() - decode one captured Ethernet frame.
 * @data/@caplen: the captured bytes; @wire_len: original length (>= caplen).
 * Returns 0 with @p->layer the deepest layer decoded and @p->stop saying
 * whether the snap length cut it short; -EBADMSG for a malformed header
 * (@p->why says which; @p->layer is what was decoded before it).  Never
 * reads outside data[0, caplen).
 */
int bc_pkt_decode(const uint8_t *data, uint32_t caplen, uint32_t wire_len, struct bc_pkt *p);

/*
 * bc_pkt_wire_frames() - Ethernet frames this captured frame was on the wire:
 * a TSO/GSO/GRO super-frame (ip_len > @mtu) counts as the per-MSS frames it
 * was cut into, each with its own L2/L3/L4 headers; anything else is 1.
 * @wire_bytes (may be NULL) receives the bytes those frames took on the wire:
 * per frame max(L2 frame + 4 FCS, 64) + 8 preamble/SFD + 12 inter-frame gap,
 * i.e. +24 bytes, 64-byte minimum (reference/measurement.md 4.1).
 * @mtu: bytes of L3 packet per frame (1500); 0 disables the expansion.
 * IPv4 fragments of a big datagram are real frames and are never expanded.
 */
uint32_t bc_pkt_wire_frames(const struct bc_pkt *p, uint32_t mtu, uint64_t *wire_bytes);

/* bc_wire_bytes() - bytes on the wire of one frame of @frame_len (L2, no FCS). */
static inline uint64_t bc_wire_bytes(uint32_t frame_len)
{
	uint32_t with_fcs = frame_len + 4;

	return (with_fcs < 64 ? 64 : with_fcs) + 20;
}

/*
 * Frame builder, the decoder's inverse, for generators and tests.  Writes an
 * Ethernet (optionally VLAN-tagged) IPv4 or IPv6 frame into @buf and returns
 * its length, or -EMSGSIZE when @cap is too small.
 */
struct bc_pkt_spec {
	uint8_t ip_version; /* 4 or 6 */
	uint16_t vlan_id;   /* 0: untagged */
	uint8_t src[16], dst[16];
	uint8_t proto; /* 17 UDP, 6 TCP */
	uint16_t sport, dport;
	uint32_t ip_id;	      /* IPv4 id (low 16 bits) or IPv6 fragment id */
	uint32_t frag_off;    /* bytes, multiple of 8 */
	bool more_frags;      /* with frag_off > 0 or more_frags: a fragment */
	uint32_t payload_len; /* L4 payload bytes (UDP/TCP) or fragment payload bytes */
	uint32_t tcp_seq;
	uint8_t tcp_flags;
	const struct bc_udphdr *ours; /* written at the start of a UDP payload */
	uint32_t udp_total;	      /* fragments: UDP length of the whole datagram */
};

int bc_pkt_build(const struct bc_pkt_spec *s, uint8_t *buf, uint32_t cap);

/* bc_pkt_build_lacpdu() - a LACPDU frame (124 bytes incl. padding); -EMSGSIZE. */
int bc_pkt_build_lacpdu(const struct bc_lacpdu *l, const uint8_t src_mac[6], uint8_t *buf,
			uint32_t cap);

#endif
