// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Packet decoder, link and network layers: Ethernet II, 802.1Q/802.1ad tags,
 * IPv4 (RFC 791) and IPv6 (RFC 8200) with their fragments.  Transport, our
 * UDP header and LACPDUs are in packet-l4.c; the wire-frame arithmetic at
 * the end.  Layout in bondcheck/packet.h.
 */
#include <errno.h>
#include <string.h>

#include "decode/packet-int.h"

#define ETH_HLEN       14
#define VLAN_HLEN      4
#define MAX_VLAN       2
#define IPV6_HLEN      40
#define IPV6_FRAG_HLEN 8
#define MAX_EXT_HDRS   8 /* more extension headers than this: treat as malformed */

enum {
	NH_HOPOPTS = 0,
	NH_ROUTING = 43,
	NH_FRAGMENT = 44,
	NH_DSTOPTS = 60,
	NH_NONE = 59,
};

int pkt_snapped(struct bc_pkt *p, const char *why)
{
	p->stop = BC_PKT_STOP_SNAPPED;
	p->why = why;
	return 0;
}

int pkt_malformed(struct bc_pkt *p, const char *why)
{
	p->stop = BC_PKT_STOP_MALFORMED;
	p->why = why;
	return -EBADMSG;
}

/* RFC 791 3.1: IHL >= 5, total length >= IHL*4; offsets in 8-byte units. */
static int decode_ipv4(struct pcur *c, struct bc_pkt *p)
{
	uint32_t ihl, tot, fo;

	if (!pc_has(c, 20))
		return pkt_snapped(p, "IPv4 header cut by the snap length");
	if (pc_u8(c, 0) >> 4 != 4)
		return pkt_malformed(p, "ethertype IPv4 but IP version is not 4");
	ihl = (uint32_t)(pc_u8(c, 0) & 0x0f) * 4;
	if (ihl < 20)
		return pkt_malformed(p, "IPv4 header length (IHL) below 5 words");
	tot = pc_u16(c, 2);
	p->ip_version = 4;
	p->ip_id = pc_u16(c, 4);
	fo = pc_u16(c, 6);
	p->more_frags = (fo & 0x2000) != 0;
	p->frag_off = (fo & 0x1fff) * 8u;
	p->frag = p->more_frags || p->frag_off;
	p->proto = pc_u8(c, 9);
	memcpy(p->src, c->p + c->off + 12, 4);
	memcpy(p->dst, c->p + c->off + 16, 4);
	if (tot == 0) {
		/* BIG TCP / TSO: the kernel leaves 0 and the length is skb->len */
		p->ip_len = p->wire_len > p->l2_len ? p->wire_len - p->l2_len : 0;
		p->ip_len_from_wire = true;
	} else {
		p->ip_len = tot;
	}
	if (p->ip_len < ihl)
		return pkt_malformed(p, "IPv4 total length shorter than its header");
	if (p->l2_len + (uint64_t)p->ip_len > p->wire_len)
		return pkt_malformed(p, "IPv4 total length exceeds the frame's original length");
	p->l3_hdr_len = (uint16_t)ihl;
	p->layer = BC_PKT_L3;
	if (!pc_has(c, ihl))
		return pkt_snapped(p, "IPv4 options cut by the snap length");
	pc_skip(c, ihl);
	if (p->frag_off)
		return 0; /* non-first fragment: no transport header */
	return pkt_decode_l4(c, p);
}

/* RFC 8200 4: walk extension headers up to the upper-layer protocol. */
static int decode_ipv6(struct pcur *c, struct bc_pkt *p)
{
	uint32_t plen, hdrs = IPV6_HLEN;
	uint8_t nh;

	if (!pc_has(c, IPV6_HLEN))
		return pkt_snapped(p, "IPv6 header cut by the snap length");
	if (pc_u8(c, 0) >> 4 != 6)
		return pkt_malformed(p, "ethertype IPv6 but IP version is not 6");
	plen = pc_u16(c, 4);
	nh = pc_u8(c, 6);
	p->ip_version = 6;
	memcpy(p->src, c->p + c->off + 8, 16);
	memcpy(p->dst, c->p + c->off + 24, 16);
	if (plen == 0) {
		/* jumbogram or BIG TCP without its hop-by-hop option: use skb->len */
		p->ip_len = p->wire_len > p->l2_len ? p->wire_len - p->l2_len : 0;
		p->ip_len_from_wire = true;
	} else {
		p->ip_len = IPV6_HLEN + plen;
	}
	if (p->ip_len < IPV6_HLEN || p->l2_len + (uint64_t)p->ip_len > p->wire_len)
		return pkt_malformed(p, "IPv6 payload length exceeds the frame's original length");
	p->layer = BC_PKT_L3;
	pc_skip(c, IPV6_HLEN);
	for (int i = 0; i <= MAX_EXT_HDRS; i++) {
		uint32_t len;

		if (nh != NH_HOPOPTS && nh != NH_ROUTING && nh != NH_DSTOPTS && nh != NH_FRAGMENT)
			break;
		if (i == MAX_EXT_HDRS)
			return pkt_malformed(p, "more than 8 IPv6 extension headers");
		if (!pc_has(c, 8))
			return pkt_snapped(p, "IPv6 extension header cut by the snap length");
		if (nh == NH_FRAGMENT) {
			uint16_t fo = pc_u16(c, 2);

			p->frag_off = (uint32_t)(fo & 0xfff8);
			p->more_frags = (fo & 1) != 0;
			p->frag = true; /* an atomic fragment (RFC 6946) is still one */
			p->ip_id = pc_u32(c, 4);
			len = IPV6_FRAG_HLEN;
		} else {
			len = ((uint32_t)pc_u8(c, 1) + 1) * 8;
		}
		nh = pc_u8(c, 0);
		hdrs += len;
		if (hdrs > p->ip_len)
			return pkt_malformed(p, "IPv6 extension headers exceed the payload length");
		if (!pc_has(c, len))
			return pkt_snapped(p, "IPv6 extension header cut by the snap length");
		pc_skip(c, len);
		if (p->frag && p->frag_off)
			break; /* the rest is payload of a non-first fragment */
	}
	p->proto = nh;
	p->l3_hdr_len = (uint16_t)hdrs;
	if (p->frag_off || nh == NH_NONE)
		return 0;
	return pkt_decode_l4(c, p);
}

int bc_pkt_decode(const uint8_t *data, uint32_t caplen, uint32_t wire_len, struct bc_pkt *p)
{
	struct pcur c = {.p = data, .len = caplen, .off = 0};
	uint16_t et;

	memset(p, 0, sizeof(*p));
	p->wire_len = wire_len < caplen ? caplen : wire_len;
	p->layer = BC_PKT_L2;
	if (!pc_has(&c, ETH_HLEN))
		return pkt_snapped(p, "Ethernet header cut by the snap length");
	et = pc_u16(&c, 12);
	pc_skip(&c, ETH_HLEN);
	while (et == BC_ETH_P_8021Q || et == BC_ETH_P_8021AD) {
		if (p->n_vlan == MAX_VLAN)
			return pkt_malformed(p, "more than two VLAN tags");
		if (!pc_has(&c, VLAN_HLEN))
			return pkt_snapped(p, "VLAN tag cut by the snap length");
		if (!p->n_vlan)
			p->vlan_id = pc_u16(&c, 0) & 0x0fff;
		p->n_vlan++;
		et = pc_u16(&c, 2);
		pc_skip(&c, VLAN_HLEN);
	}
	p->ethertype = et;
	p->l2_len = (uint16_t)c.off;
	switch (et) {
	case BC_ETH_P_IPV4:
		return decode_ipv4(&c, p);
	case BC_ETH_P_IPV6:
		return decode_ipv6(&c, p);
	case BC_ETH_P_SLOW:
		return pkt_decode_slow(&c, p);
	default:
		return 0;
	}
}

uint32_t bc_pkt_wire_frames(const struct bc_pkt *p, uint32_t mtu, uint64_t *wire_bytes)
{
	uint32_t hdrs, mss, payload, n, last;

	if (!mtu || p->layer < BC_PKT_L4 || p->frag || p->ip_len <= mtu)
		goto one;
	hdrs = (uint32_t)p->l3_hdr_len + p->l4_hdr_len;
	if (hdrs >= mtu)
		goto one;
	mss = mtu - hdrs;
	payload = p->l4_payload;
	if (!payload)
		goto one;
	n = (payload + mss - 1) / mss;
	last = payload - (n - 1) * mss;
	if (wire_bytes)
		*wire_bytes = (uint64_t)(n - 1) * bc_wire_bytes(p->l2_len + hdrs + mss) +
			      bc_wire_bytes(p->l2_len + hdrs + last);
	return n;
one:
	if (wire_bytes)
		*wire_bytes = bc_wire_bytes(p->wire_len);
	return 1;
}
