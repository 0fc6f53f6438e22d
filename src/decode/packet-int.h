/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Bounds-checked cursor over captured bytes, shared by the packet
 * dissectors (packet.c, packet-l4.c).  A read past the captured length
 * never happens: callers ask pc_has() first, the getters assume it.
 */
#ifndef BC_DECODE_PACKET_INT_H
#define BC_DECODE_PACKET_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "bondcheck/packet.h"

struct pcur {
	const uint8_t *p;
	uint32_t len; /* captured bytes */
	uint32_t off; /* current position, always <= len */
};

static inline bool pc_has(const struct pcur *c, uint32_t n)
{
	return c->len - c->off >= n;
}

static inline uint8_t pc_u8(const struct pcur *c, uint32_t at)
{
	return c->p[c->off + at];
}

static inline uint16_t pc_u16(const struct pcur *c, uint32_t at)
{
	const uint8_t *q = c->p + c->off + at;

	return (uint16_t)(q[0] << 8 | q[1]);
}

static inline uint32_t pc_u32(const struct pcur *c, uint32_t at)
{
	const uint8_t *q = c->p + c->off + at;

	return (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
}

static inline void pc_skip(struct pcur *c, uint32_t n)
{
	c->off += n; /* only after pc_has(c, n) */
}

/* Stop decoding: the capture ended early (returns 0) or a header lied (-EBADMSG). */
int pkt_snapped(struct bc_pkt *p, const char *why);
int pkt_malformed(struct bc_pkt *p, const char *why);

/* packet-l4.c: TCP/UDP/our header at @c (first fragment or whole packet). */
int pkt_decode_l4(struct pcur *c, struct bc_pkt *p);
/* packet-l4.c: Slow Protocols frame at @c (after the ethertype). */
int pkt_decode_slow(struct pcur *c, struct bc_pkt *p);

#endif
