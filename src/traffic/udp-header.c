// SPDX-License-Identifier: GPL-2.0-or-later
/* Codec of the UDP test-datagram header; layout in bondcheck/udp-header.h. */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "bondcheck/udp-header.h"

static void put16(uint8_t *p, uint16_t v)
{
	v = htobe16(v);
	memcpy(p, &v, 2);
}

static void put32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
}

static void put64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, 8);
}

static uint16_t get16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return be16toh(v);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return be32toh(v);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return be64toh(v);
}

int bc_udphdr_encode(const struct bc_udphdr *h, uint8_t *buf, size_t len)
{
	if (len < BC_UDPHDR_LEN)
		return -EMSGSIZE;
	put32(buf, BC_UDPHDR_MAGIC);
	put16(buf + 4, BC_UDPHDR_VERSION);
	put16(buf + 6, h->flags);
	put32(buf + 8, h->stream_id);
	put32(buf + 12, h->test_id);
	put64(buf + 16, h->seq);
	put64(buf + 24, h->send_ns);
	return BC_UDPHDR_LEN;
}

void bc_udphdr_patch_seq(uint8_t *buf, uint64_t seq, uint64_t send_ns)
{
	put64(buf + 16, seq);
	put64(buf + 24, send_ns);
}

int bc_udphdr_decode(const uint8_t *buf, size_t len, struct bc_udphdr *h, struct bc_error *err)
{
	uint32_t magic;

	if (len < BC_UDPHDR_LEN)
		return bc_error_set(
			err, -EMSGSIZE,
			"UDP payload of %zu bytes is shorter than the %d-byte bondcheck header",
			len, BC_UDPHDR_LEN);
	magic = get32(buf);
	if (magic != BC_UDPHDR_MAGIC)
		return bc_error_set(
			err, -EBADMSG,
			"UDP payload starts with 0x%08x, expected the bondcheck magic 0x%08x",
			magic, BC_UDPHDR_MAGIC);
	h->version = get16(buf + 4);
	if (h->version != BC_UDPHDR_VERSION)
		return bc_error_set(err, -EPROTONOSUPPORT,
				    "UDP header version %u, this build speaks version %d",
				    h->version, BC_UDPHDR_VERSION);
	h->flags = get16(buf + 6);
	h->stream_id = get32(buf + 8);
	h->test_id = get32(buf + 12);
	h->seq = get64(buf + 16);
	h->send_ns = get64(buf + 24);
	return 0;
}
