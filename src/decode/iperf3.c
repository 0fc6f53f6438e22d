// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iperf3's UDP payload and parameter JSON (bondcheck/iperf3.h; iperf3's
 * src/iperf_udp.c, src/iperf.h, src/iperf_api.c).  Pure and bounds-checked.
 */
#include <errno.h>
#include <string.h>

#include "bondcheck/iperf3.h"

static uint32_t be32(const uint8_t *q)
{
	return (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3];
}

int bc_iperf3_udp_read(const uint8_t *pl, uint32_t caplen, uint32_t len, struct bc_iperf3_udp *h)
{
	memset(h, 0, sizeof(*h));
	if (len < BC_IPERF3_HDR32)
		return -ENODATA;
	if (caplen < BC_IPERF3_HDR32)
		return -EMSGSIZE;
	h->sec = be32(pl);
	h->usec = be32(pl + 4);
	h->w2 = be32(pl + 8);
	if (len >= BC_IPERF3_HDR64 && caplen >= BC_IPERF3_HDR64) {
		h->w3 = be32(pl + 12);
		h->has_w3 = true;
	}
	return 0;
}

bool bc_iperf3_udp_is_connect(const uint8_t *pl, uint32_t caplen, uint32_t len)
{
	/* UDP_CONNECT_MSG, UDP_CONNECT_REPLY, the legacy 123456789 and 987654321 (iperf.h) */
	static const uint32_t v[] = {0x36373839u, 0x39383736u, 123456789u, 987654321u};
	uint32_t x, y;

	if (len != 4 || caplen < 4)
		return false;
	x = be32(pl);
	y = (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (x == v[i] || y == v[i])
			return true;
	return false;
}

/* The first occurrence of @s (NUL-terminated) in @p[0, @n), or NULL. */
static const uint8_t *find(const uint8_t *p, uint32_t n, const char *s)
{
	size_t k = strlen(s);

	for (uint32_t i = 0; k <= n && i <= n - k; i++)
		if (p[i] == (uint8_t)s[0] && !memcmp(p + i, s, k))
			return p + i;
	return NULL;
}

int bc_iperf3_params_bits(const uint8_t *pl, uint32_t caplen)
{
	const uint8_t *open = find(pl, caplen, "{\""), *close;
	uint32_t n;

	if (!open)
		return 0;
	/* cJSON_PrintUnformatted: no blanks; the object ends with the segment */
	close = pl + caplen;
	while (close > open && close[-1] != '}')
		close--;
	if (close == open)
		return 0;
	n = (uint32_t)(close - open);
	if (!find(open, n, "\"udp\":true") || !find(open, n, "\"omit\":") ||
	    !find(open, n, "\"time\":"))
		return 0;
	return find(open, n, "\"udp_counters_64bit\":") ? 64 : 32;
}
