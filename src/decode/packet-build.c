// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Frame builder, the inverse of packet.c, for generators (tools/bench,
 * synthetic pcaps in the unit tests) and for the decoder's own tests.
 * Checksums are left 0: captures taken before checksum offload show the same.
 */
#include <errno.h>
#include <string.h>

#include "bondcheck/packet.h"

static const uint8_t dst_mac[6] = {0x02, 0, 0, 0, 0, 0x02};
static const uint8_t src_mac[6] = {0x02, 0, 0, 0, 0, 0x01};

static void put16(uint8_t *q, uint32_t v)
{
	q[0] = (uint8_t)(v >> 8);
	q[1] = (uint8_t)v;
}

static void put32(uint8_t *q, uint32_t v)
{
	put16(q, v >> 16);
	put16(q + 2, v & 0xffff);
}

static uint32_t build_l2(const struct bc_pkt_spec *s, uint8_t *b, uint16_t et)
{
	uint32_t o = 12;

	memcpy(b, dst_mac, 6);
	memcpy(b + 6, src_mac, 6);
	if (s->vlan_id) {
		put16(b + o, BC_ETH_P_8021Q);
		put16(b + o + 2, s->vlan_id & 0x0fff);
		o += 4;
	}
	put16(b + o, et);
	return o + 2;
}

int bc_pkt_build(const struct bc_pkt_spec *s, uint8_t *buf, uint32_t cap)
{
	bool frag = s->frag_off || s->more_frags;
	bool first = !s->frag_off;
	uint32_t l4h = !first ? 0 : s->proto == 6 ? 20 : 8;
	uint32_t l3h = s->ip_version == 6 ? 40 + (frag ? 8 : 0) : 20;
	uint32_t l2 = 14 + (s->vlan_id ? 4 : 0);
	uint32_t len = l2 + l3h + l4h + s->payload_len, o;
	uint8_t *ip, *l4;

	if (l3h + l4h + s->payload_len > 0xffff || (len < 60 ? 60 : len) > cap)
		return -EMSGSIZE;
	memset(buf, 0, len < 60 ? 60 : len);
	o = build_l2(s, buf, s->ip_version == 6 ? BC_ETH_P_IPV6 : BC_ETH_P_IPV4);
	ip = buf + o;
	if (s->ip_version == 6) {
		ip[0] = 0x60;
		put16(ip + 4, l3h - 40 + l4h + s->payload_len);
		ip[6] = frag ? 44 : s->proto;
		ip[7] = 64;
		memcpy(ip + 8, s->src, 16);
		memcpy(ip + 24, s->dst, 16);
		if (frag) {
			ip[40] = s->proto;
			put16(ip + 42, (s->frag_off & 0xfff8) | (s->more_frags ? 1 : 0));
			put32(ip + 44, s->ip_id);
		}
	} else {
		ip[0] = 0x45;
		put16(ip + 2, l3h + l4h + s->payload_len);
		put16(ip + 4, s->ip_id & 0xffff);
		put16(ip + 6, (s->frag_off / 8) | (s->more_frags ? 0x2000 : 0));
		ip[8] = 64;
		ip[9] = s->proto;
		memcpy(ip + 12, s->src, 4);
		memcpy(ip + 16, s->dst, 4);
	}
	l4 = ip + l3h;
	if (first && s->proto == 6) {
		put16(l4, s->sport);
		put16(l4 + 2, s->dport);
		put32(l4 + 4, s->tcp_seq);
		l4[12] = 5 << 4;
		l4[13] = s->tcp_flags ? s->tcp_flags : 0x10;
		put16(l4 + 14, 65535);
	} else if (first) {
		put16(l4, s->sport);
		put16(l4 + 2, s->dport);
		put16(l4 + 4, frag ? s->udp_total : 8 + s->payload_len);
		if (s->ours && s->payload_len >= BC_UDPHDR_LEN)
			bc_udphdr_encode(s->ours, l4 + 8, s->payload_len);
	}
	return (int)(len < 60 ? 60 : len);
}

int bc_pkt_build_lacpdu(const struct bc_lacpdu *l, const uint8_t mac[6], uint8_t *buf, uint32_t cap)
{
	static const uint8_t slow_mac[6] = {0x01, 0x80, 0xc2, 0, 0, 0x02};
	const struct bc_lacpdu_port *pi[2] = {&l->actor, &l->partner};
	uint8_t *q;

	if (cap < 124)
		return -EMSGSIZE;
	memset(buf, 0, 124);
	memcpy(buf, slow_mac, 6);
	memcpy(buf + 6, mac, 6);
	put16(buf + 12, BC_ETH_P_SLOW);
	buf[14] = 1; /* subtype LACP */
	buf[15] = l->version;
	for (int i = 0; i < 2; i++) {
		q = buf + 16 + 20 * i;
		q[0] = (uint8_t)(i + 1);
		q[1] = 20;
		put16(q + 2, pi[i]->system_priority);
		memcpy(q + 4, pi[i]->system, 6);
		put16(q + 10, pi[i]->key);
		put16(q + 12, pi[i]->port_priority);
		put16(q + 14, pi[i]->port);
		q[16] = pi[i]->state;
	}
	q = buf + 56; /* collector TLV, then terminator */
	q[0] = 3;
	q[1] = 16;
	put16(q + 2, 0);
	return 124;
}
