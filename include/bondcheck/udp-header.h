/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The header bondcheck writes at the start of every UDP test datagram
 * (DESIGN.md "Traffic engine").  All fields are in network byte order:
 *
 *   offset size field
 *        0    4 magic      BC_UDPHDR_MAGIC ("BCK1")
 *        4    2 version    BC_UDPHDR_VERSION
 *        6    2 flags      BC_UDPHDR_F_*
 *        8    4 stream_id  index of the stream in the test plan
 *       12    4 test_id    random id of the test (stale datagrams of an
 *                          earlier test are recognised and ignored)
 *       16    8 seq        64-bit sequence number, first datagram 0; never wraps
 *       24    8 send_ns    CLOCK_REALTIME at send, ns since the epoch
 *
 * 32 bytes in all, so the smallest test datagram has a 32-byte payload.
 */
#ifndef BONDCHECK_UDP_HEADER_H
#define BONDCHECK_UDP_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include "bondcheck/error.h"

#define BC_UDPHDR_MAGIC	  0x42434b31u /* "BCK1" */
#define BC_UDPHDR_VERSION 1
#define BC_UDPHDR_LEN	  32

enum {
	BC_UDPHDR_F_OMIT = 0x0001,  /* sent during the --omit warm-up */
	BC_UDPHDR_F_HELLO = 0x0002, /* reverse-mode hello: tells the sender where to send */
};

struct bc_udphdr {
	uint16_t version;
	uint16_t flags;
	uint32_t stream_id;
	uint32_t test_id;
	uint64_t seq;
	uint64_t send_ns;
};

/*
 * bc_udphdr_encode() - write @h (version forced to BC_UDPHDR_VERSION) into
 * the first BC_UDPHDR_LEN bytes of @buf.
 * Returns BC_UDPHDR_LEN, or -EMSGSIZE when @len < BC_UDPHDR_LEN.
 */
int bc_udphdr_encode(const struct bc_udphdr *h, uint8_t *buf, size_t len);

/*
 * bc_udphdr_decode() - parse the header at the start of a received payload.
 * Returns 0; -EMSGSIZE when @len < BC_UDPHDR_LEN; -EBADMSG when the magic is
 * wrong (not our datagram); -EPROTONOSUPPORT for another header version.
 * @err (may be NULL) says what was found.
 */
int bc_udphdr_decode(const uint8_t *buf, size_t len, struct bc_udphdr *h, struct bc_error *err);

/* bc_udphdr_patch_seq() - rewrite seq and send_ns of an encoded header in place. */
void bc_udphdr_patch_seq(uint8_t *buf, uint64_t seq, uint64_t send_ns);

#endif
