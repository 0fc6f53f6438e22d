/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * iperf3's UDP test payload, for `bondcheck analyze` on captures of iperf3
 * tests (issue 15 item 4).  Wire format, from iperf3's src/iperf_udp.c
 * (iperf_udp_send(), iperf_udp_recv()), every field in network byte order
 * at the start of each datagram's payload:
 *
 *   bytes 0-3   seconds of the sender's clock (iperf_time_now(): CLOCK_MONOTONIC
 *               since iperf3 3.7 (src/iperf_time.c), gettimeofday() before)
 *   bytes 4-7   microseconds, < 10^6
 *   bytes 8-11  packet counter, from 1 per stream (++sp->packet_count), or
 *   bytes 8-15  the same counter in 64 bits with --udp-counters-64bit
 *
 * Each stream has its own socket, so its own 5-tuple.  Before the data,
 * iperf_udp_connect() writes a 4-byte "connect" datagram (UDP_CONNECT_MSG,
 * 0x36373839, "6789" in host order) and iperf_udp_accept() answers with
 * UDP_CONNECT_REPLY (0x39383736) since 3.12; older versions used 123456789 and
 * 987654321 (src/iperf.h; written in host byte order, so either order is
 * accepted here).  The 64-bit mode is not in the datagram: the client sends
 * it in its parameter JSON on the TCP control connection (iperf_api.c
 * send_parameters(): the key "udp_counters_64bit" is present only when set;
 * JSON_write() sends a 32-bit length, then the unformatted JSON).
 *
 * A single datagram cannot prove it is iperf3's: the attribution judges a
 * stream by all its datagrams (analyze/attrib-iperf3.c).
 */
#ifndef BONDCHECK_IPERF3_H
#define BONDCHECK_IPERF3_H

#include <stdbool.h>
#include <stdint.h>

#define BC_IPERF3_HDR32 12 /* sec, usec, 32-bit counter */
#define BC_IPERF3_HDR64 16 /* sec, usec, 64-bit counter */

/* The fields of a datagram read as iperf3's, before the 32/64-bit mode is known. */
struct bc_iperf3_udp {
	uint32_t sec, usec;
	uint32_t w2, w3; /* bytes 8-11 and 12-15 (w3 valid when has_w3) */
	bool has_w3;	 /* the payload carries (and the capture kept) 16 bytes */
};

/*
 * bc_iperf3_udp_read() - read the iperf3 fields at the start of a UDP payload.
 * @pl: the captured payload bytes (@caplen of them); @len: the payload's
 * length on the wire (a first fragment: what it carries of the datagram).
 * Returns 0 with @h filled, -ENODATA when the payload is shorter than 12
 * bytes on the wire (not iperf3 data), -EMSGSIZE when the capture cut it
 * before byte 12.
 */
int bc_iperf3_udp_read(const uint8_t *pl, uint32_t caplen, uint32_t len, struct bc_iperf3_udp *h);

/* bc_iperf3_udp_is_connect() - a 4-byte payload (@len on the wire) holding an iperf3
 * connect datagram or its reply (current or legacy value, either byte order). */
bool bc_iperf3_udp_is_connect(const uint8_t *pl, uint32_t caplen, uint32_t len);

/*
 * bc_iperf3_params_bits() - whether the TCP payload @pl (@caplen captured
 * bytes) holds iperf3's parameter JSON of a UDP test: an object with
 * "udp":true, "omit" and "time" (send_parameters()), complete up to its
 * closing brace.  Returns 64 when it has "udp_counters_64bit", 32 when not,
 * 0 when it is no such JSON (or was cut by the snap length).
 */
int bc_iperf3_params_bits(const uint8_t *pl, uint32_t caplen);

/*
 * What the datagrams of one UDP flow (5-tuple, one direction) say about
 * being an iperf3 stream, gathered datagram by datagram
 * (bc_iperf3_evidence_add()) and judged once (bc_iperf3_judge()), for one
 * counter width: the attribution gathers both, 32 and 64 bits, and at most
 * one can pass (a 32-bit counter read as 64 bits steps by 2^32; a 64-bit one
 * read as 32 bits is bytes 8-11, zero).
 */
#define BC_IPERF3_MAX_LINKS	32	      /* = BC_ATTRIB_MAX_LINKS */
#define BC_IPERF3_MIN_DATAGRAMS 8	      /* distinct datagrams a stream needs */
#define BC_IPERF3_OFFSET_SPREAD 10000000000ll /* ns: capture time - sender time, per side */
#define BC_IPERF3_RISE_SHARE	0.9	      /* successive pairs on one link that rise */

struct bc_iperf3_evidence {
	uint64_t n;	    /* datagrams (each capture that saw one counts it) */
	uint64_t n_side[2]; /* of them on tx: (0) and rx: (1) captures */
	uint64_t bad;	    /* usec >= 10^6, or counter 0 */
	uint64_t c_min, c_max;
	uint64_t pairs, rises;		    /* successive datagrams on one link; counter rose */
	int64_t off_min[2], off_max[2];	    /* capture time - sender time, ns, per side */
	uint64_t last[BC_IPERF3_MAX_LINKS]; /* last counter per link, 0 none */
};

/*
 * bc_iperf3_evidence_add() - one datagram of the flow, in capture order of
 * its @link (< BC_IPERF3_MAX_LINKS) on @side (0 tx:, 1 rx:): capture time
 * @ts_ns, the payload's @sec/@usec and @counter (in the decided width).
 */
void bc_iperf3_evidence_add(struct bc_iperf3_evidence *e, unsigned link, int side, uint64_t ts_ns,
			    uint32_t sec, uint32_t usec, uint64_t counter);

/*
 * bc_iperf3_judge() - true when the evidence shows an iperf3 stream:
 *  - at least BC_IPERF3_MIN_DATAGRAMS datagrams on one side;
 *  - every datagram with usec < 10^6 and a counter >= 1;
 *  - counters dense: max - min + 1 <= 2 x (datagrams on the busier side) + 16
 *    (at most about half lost; a random field spans 2^32);
 *  - rising: at least BC_IPERF3_RISE_SHARE of the successive datagrams on a
 *    link have a larger counter (a link keeps its own order), at least 4 pairs;
 *  - the sender's clock advancing with the capture's: per side, capture time
 *    minus sec.usec varies by at most BC_IPERF3_OFFSET_SPREAD (queueing and
 *    delay, not the clocks' offset: iperf3 stamps CLOCK_MONOTONIC, so the
 *    seconds are the sender's uptime, not the capture's wall-clock time).
 * @why (may be NULL) receives a static reason when false.
 */
bool bc_iperf3_judge(const struct bc_iperf3_evidence *e, const char **why);

#endif
