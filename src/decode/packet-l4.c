// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Packet decoder, transport and slow protocols: TCP (RFC 9293 3.1), UDP
 * (RFC 768), our UDP test header (bondcheck/udp-header.h, decoded by its own
 * codec) and LACPDUs (IEEE 802.1AX-2014 6.4.2.3).
 */
#include <errno.h>
#include <string.h>

#include "decode/packet-int.h"

#define TCP_HLEN_MIN	  20
#define UDP_HLEN	  8
#define SLOW_SUBTYPE_LACP 1
#define LACP_TLV_ACTOR	  1
#define LACP_TLV_PARTNER  2
#define LACP_INFO_LEN	  20 /* TLV type + length + 18 bytes of port information */

/* L4 bytes the packet carries on the wire (not the captured ones). */
static uint32_t l4_bytes(const struct bc_pkt *p)
{
	return p->ip_len > p->l3_hdr_len ? p->ip_len - p->l3_hdr_len : 0;
}

static int decode_tcp(struct pcur *c, struct bc_pkt *p)
{
	uint32_t doff, avail = l4_bytes(p);

	if (!pc_has(c, TCP_HLEN_MIN))
		return pkt_snapped(p, "TCP header cut by the snap length");
	doff = (uint32_t)(pc_u8(c, 12) >> 4) * 4;
	if (doff < TCP_HLEN_MIN)
		return pkt_malformed(p, "TCP data offset below 5 words");
	if (doff > avail)
		return pkt_malformed(p, "TCP header longer than the IP payload");
	p->sport = pc_u16(c, 0);
	p->dport = pc_u16(c, 2);
	p->tcp_seq = pc_u32(c, 4);
	p->tcp_flags = pc_u8(c, 13);
	p->l4_hdr_len = (uint16_t)doff;
	p->l4_payload = avail - doff;
	p->layer = BC_PKT_L4;
	return 0;
}

static int decode_udp(struct pcur *c, struct bc_pkt *p)
{
	uint32_t ulen, avail = l4_bytes(p);
	int rc;

	if (!pc_has(c, UDP_HLEN))
		return pkt_snapped(p, "UDP header cut by the snap length");
	if (avail < UDP_HLEN)
		return pkt_malformed(p, "IP payload shorter than a UDP header");
	ulen = pc_u16(c, 4);
	p->sport = pc_u16(c, 0);
	p->dport = pc_u16(c, 2);
	p->l4_hdr_len = UDP_HLEN;
	if (p->frag || (ulen == 0 && p->ip_len_from_wire)) {
		/* first fragment (the UDP length is the whole datagram's) or a UDP GSO super-frame */
		p->l4_payload = avail - UDP_HLEN;
	} else {
		if (ulen < UDP_HLEN || ulen > avail)
			return pkt_malformed(p, "UDP length disagrees with the IP payload length");
		p->l4_payload = ulen - UDP_HLEN;
	}
	p->layer = BC_PKT_L4;
	pc_skip(c, UDP_HLEN);
	if (p->l4_payload < BC_UDPHDR_LEN)
		return 0;
	if (!pc_has(c, 4))
		return pkt_snapped(p, "UDP payload cut before our header's magic");
	if (pc_u32(c, 0) != BC_UDPHDR_MAGIC)
		return 0; /* not our datagram */
	if (!pc_has(c, BC_UDPHDR_LEN))
		return pkt_snapped(p, "our UDP header cut by the snap length");
	rc = bc_udphdr_decode(c->p + c->off, c->len - c->off, &p->ours, NULL);
	if (rc == -EPROTONOSUPPORT)
		return pkt_malformed(p, "our UDP header has an unsupported version");
	if (rc)
		return 0;
	p->layer = BC_PKT_OURS;
	return 0;
}

int pkt_decode_l4(struct pcur *c, struct bc_pkt *p)
{
	switch (p->proto) {
	case 6:
		return decode_tcp(c, p);
	case 17:
		return decode_udp(c, p);
	default:
		return 0;
	}
}

static void port_info(const struct pcur *c, uint32_t at, struct bc_lacpdu_port *pi)
{
	pi->system_priority = pc_u16(c, at + 2);
	memcpy(pi->system, c->p + c->off + at + 4, 6);
	pi->key = pc_u16(c, at + 10);
	pi->port_priority = pc_u16(c, at + 12);
	pi->port = pc_u16(c, at + 14);
	pi->state = pc_u8(c, at + 16);
}

/*
 * LACPDU (802.1AX-2014 6.4.2.3): subtype 1, version, then TLVs in fixed
 * order: actor (type 1, length 20), partner (type 2, length 20).  Marker
 * PDUs (subtype 2) and OAM stay at layer L2.
 */
int pkt_decode_slow(struct pcur *c, struct bc_pkt *p)
{
	if (!pc_has(c, 2))
		return pkt_snapped(p, "Slow Protocols subtype cut by the snap length");
	if (pc_u8(c, 0) != SLOW_SUBTYPE_LACP)
		return 0;
	if (!pc_has(c, 2 + 2 * LACP_INFO_LEN))
		return pkt_snapped(p, "LACPDU actor/partner TLVs cut by the snap length");
	if (pc_u8(c, 2) != LACP_TLV_ACTOR || pc_u8(c, 3) != LACP_INFO_LEN)
		return pkt_malformed(p, "LACPDU without an actor TLV (type 1, length 20)");
	if (pc_u8(c, 2 + LACP_INFO_LEN) != LACP_TLV_PARTNER ||
	    pc_u8(c, 3 + LACP_INFO_LEN) != LACP_INFO_LEN)
		return pkt_malformed(p, "LACPDU without a partner TLV (type 2, length 20)");
	p->lacp.version = pc_u8(c, 1);
	port_info(c, 2, &p->lacp.actor);
	port_info(c, 2 + LACP_INFO_LEN, &p->lacp.partner);
	p->layer = BC_PKT_LACP;
	return 0;
}
