// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iperf3's UDP streams (bondcheck/iperf3.h, analyze/attrib-iperf3.c; issue
 * 15 item 4): the payload reader, the connect datagram, the control JSON,
 * the judge on its own, and the attribution end to end on built frames:
 * 32-bit and 64-bit counters, connect datagrams, fragments (only the first
 * carries the header), a random flow and one with a constant counter that
 * must not be taken for iperf3, and flows too short to judge.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bondcheck/analyze-report.h"
#include "bondcheck/attrib.h"
#include "bondcheck/iperf3.h"
#include "bondcheck/packet.h"

#define T0   1733100000000000000ull /* capture clock, ns */
#define MONO 5000u		    /* the sender's CLOCK_MONOTONIC at T0, s */
#define L2L3 (14 + 20 + 8)	    /* payload offset of an IPv4 UDP frame */

static void put32(uint8_t *q, uint32_t v)
{
	q[0] = (uint8_t)(v >> 24), q[1] = (uint8_t)(v >> 16), q[2] = (uint8_t)(v >> 8);
	q[3] = (uint8_t)v;
}

/* iperf_udp_send()'s header at @q: the sender's time for capture time @ns, counter @c. */
static void iperf_hdr(uint8_t *q, uint64_t ns, uint64_t c, int bits)
{
	uint64_t us = (ns - T0) / 1000 + (uint64_t)MONO * 1000000;

	put32(q, (uint32_t)(us / 1000000));
	put32(q + 4, (uint32_t)(us % 1000000));
	if (bits == 64) {
		put32(q + 8, (uint32_t)(c >> 32));
		put32(q + 12, (uint32_t)c);
	} else {
		put32(q + 8, (uint32_t)c);
	}
}

static void test_read(void **state)
{
	uint8_t pl[16] = {0};
	struct bc_iperf3_udp h;

	(void)state;
	put32(pl, 5000), put32(pl + 4, 999999), put32(pl + 8, 7), put32(pl + 12, 9);
	assert_int_equal(bc_iperf3_udp_read(pl, 12, 12, &h), 0);
	assert_int_equal(h.sec, 5000);
	assert_int_equal(h.usec, 999999);
	assert_int_equal(h.w2, 7);
	assert_false(h.has_w3);
	assert_int_equal(bc_iperf3_udp_read(pl, 16, 1000, &h), 0);
	assert_true(h.has_w3);
	assert_int_equal(h.w3, 9);
	/* 16 on the wire but the capture kept 12: no w3 */
	assert_int_equal(bc_iperf3_udp_read(pl, 12, 16, &h), 0);
	assert_false(h.has_w3);
	/* short datagrams are not iperf3 data; a snapped one is said so */
	assert_int_equal(bc_iperf3_udp_read(pl, 16, 11, &h), -ENODATA);
	assert_int_equal(bc_iperf3_udp_read(pl, 0, 0, &h), -ENODATA);
	assert_int_equal(bc_iperf3_udp_read(pl, 8, 100, &h), -EMSGSIZE);
}

static void test_connect(void **state)
{
	/* iperf.h: UDP_CONNECT_MSG, _REPLY, legacy 123456789 / 987654321, host order */
	static const uint32_t ok[] = {0x36373839u, 0x39383736u, 123456789u,
				      987654321u,  0x15cd5b07u, 0xb168de3au};
	uint8_t b[8];

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		put32(b, ok[i]);
		assert_true(bc_iperf3_udp_is_connect(b, 4, 4));
		assert_false(bc_iperf3_udp_is_connect(b, 4, 5)); /* 4 bytes exactly */
		assert_false(bc_iperf3_udp_is_connect(b, 3, 4)); /* snapped */
	}
	put32(b, 0x36373838u);
	assert_false(bc_iperf3_udp_is_connect(b, 4, 4));
}

static void test_params(void **state)
{
	const char *j32 = "\0\0\0\x60{\"udp\":true,\"omit\":0,\"time\":3,\"parallel\":2,"
			  "\"len\":1000,\"client_version\":\"3.12\"}";
	const char *j64 = "{\"udp\":true,\"omit\":0,\"time\":3,\"udp_counters_64bit\":1}";
	const char *tcp = "{\"tcp\":true,\"omit\":0,\"time\":3}";

	(void)state;
	assert_int_equal(bc_iperf3_params_bits((const uint8_t *)j32, 4 + (uint32_t)strlen(j32 + 4)),
			 32);
	assert_int_equal(bc_iperf3_params_bits((const uint8_t *)j64, (uint32_t)strlen(j64)), 64);
	assert_int_equal(bc_iperf3_params_bits((const uint8_t *)tcp, (uint32_t)strlen(tcp)), 0);
	/* cut by the snap length before its closing brace: not read */
	assert_int_equal(bc_iperf3_params_bits((const uint8_t *)j64, 30), 0);
	assert_int_equal(bc_iperf3_params_bits((const uint8_t *)"GET / HTTP/1.1", 14), 0);
}

/* Evidence of @n datagrams of a flow striped over 3 links, each seen on both sides. */
static void evidence(struct bc_iperf3_evidence *e, unsigned n, uint64_t (*counter)(unsigned),
		     uint32_t (*sec)(unsigned))
{
	memset(e, 0, sizeof(*e));
	for (int side = 0; side < 2; side++)
		for (unsigned l = 0; l < 3; l++)
			for (unsigned k = l; k < n; k += 3) {
				uint64_t ns = T0 + k * 1000000ull + (uint64_t)side * 200000;

				bc_iperf3_evidence_add(e, l + 3 * (unsigned)side, side, ns,
						       sec ? sec(k) : MONO + k / 1000,
						       (k % 1000) * 1000, counter(k));
			}
}

static uint64_t c_good(unsigned k)
{
	return k + 1;
}

static uint64_t c_const(unsigned k)
{
	(void)k;
	return 0x5eed1234; /* an RTP SSRC */
}

static uint64_t c_random(unsigned k)
{
	return (uint64_t)(k * 2654435761u) % 4294967291u + 1;
}

static uint32_t s_rtp(unsigned k)
{
	return 0x80000000u | k; /* RTP's first word: version 2, sequence k */
}

static void test_judge(void **state)
{
	struct bc_iperf3_evidence e;
	const char *why = NULL;

	(void)state;
	evidence(&e, 30, c_good, NULL);
	assert_true(bc_iperf3_judge(&e, &why));
	assert_null(why);
	/* one datagram, or seven, is no stream */
	evidence(&e, 1, c_good, NULL);
	assert_false(bc_iperf3_judge(&e, &why));
	assert_string_equal(why, "too few datagrams to judge");
	evidence(&e, BC_IPERF3_MIN_DATAGRAMS - 1, c_good, NULL);
	assert_false(bc_iperf3_judge(&e, NULL));
	evidence(&e, BC_IPERF3_MIN_DATAGRAMS, c_good, NULL);
	assert_true(bc_iperf3_judge(&e, NULL));
	evidence(&e, 30, c_const, NULL);
	assert_false(bc_iperf3_judge(&e, &why));
	assert_string_equal(why, "counters not rising on each link");
	evidence(&e, 30, c_random, NULL);
	assert_false(bc_iperf3_judge(&e, &why));
	assert_string_equal(why, "counters too sparse");
	/* good counters, but the "seconds" step one per datagram (RTP's sequence) */
	evidence(&e, 30, c_good, s_rtp);
	assert_false(bc_iperf3_judge(&e, &why));
	assert_string_equal(why, "sender time does not advance with the capture");
	/* usec out of range once */
	evidence(&e, 30, c_good, NULL);
	bc_iperf3_evidence_add(&e, 0, 0, T0 + 31000000, MONO, 1000000, 31);
	assert_false(bc_iperf3_judge(&e, &why));
	assert_string_equal(why, "a datagram with usec >= 10^6 or counter 0");
}

/* --- end to end through the attribution ------------------------------------------------- */

struct run {
	struct bc_attrib a;
	int tx, rx;
};

static void run_init(struct run *r)
{
	struct bc_attrib_cfg cfg;

	bc_attrib_cfg_default(&cfg);
	assert_int_equal(bc_attrib_init(&r->a, &cfg, NULL), 0);
	r->tx = bc_attrib_add_link(&r->a, BC_SIDE_TX, "eth0", NULL);
	r->rx = bc_attrib_add_link(&r->a, BC_SIDE_RX, "eth0", NULL);
	assert_true(r->tx >= 0 && r->rx >= 0);
}

/* A UDP frame 10.0.0.1:@sport -> 10.0.0.2:@dport (or back with @rev) of @len payload bytes. */
static int frame(uint8_t *buf, uint16_t sport, uint16_t dport, bool rev, uint32_t len)
{
	struct bc_pkt_spec s = {.ip_version = 4, .proto = 17, .payload_len = len};

	s.sport = rev ? dport : sport;
	s.dport = rev ? sport : dport;
	s.src[0] = s.dst[0] = 10;
	s.src[3] = rev ? 2 : 1;
	s.dst[3] = rev ? 1 : 2;
	return bc_pkt_build(&s, buf, 4096);
}

/* The frame both captures saw (tx at @ns, rx 200 us later unless @lost). */
static void both(struct run *r, uint64_t ns, const uint8_t *b, int len, bool lost)
{
	assert_true(len > 0);
	assert_int_equal(bc_attrib_add_packet(&r->a, r->tx, ns, b, (uint32_t)len, (uint32_t)len),
			 0);
	if (!lost)
		assert_int_equal(bc_attrib_add_packet(&r->a, r->rx, ns + 200000, b, (uint32_t)len,
						      (uint32_t)len),
				 0);
}

/* @n iperf3 datagrams of @bits on @sport, 1 ms apart from @t; counter @lost never arrives. */
static void iperf_flow(struct run *r, uint16_t sport, unsigned n, int bits, uint64_t t,
		       uint64_t lost)
{
	uint8_t b[4096];

	for (unsigned k = 0; k < n; k++) {
		uint64_t ns = t + k * 1000000ull;
		int len = frame(b, sport, 5201, false, 100);

		iperf_hdr(b + L2L3, ns, k + 1, bits);
		both(r, ns, b, len, k + 1 == lost);
	}
}

static const struct bc_attrib_stream *stream_of(const struct bc_attrib *a, uint16_t sport)
{
	for (size_t i = 0; i < a->n_streams; i++)
		if (a->flows[a->streams[i].flow].sport == sport)
			return &a->streams[i];
	return NULL;
}

static void test_attrib_32_64_connect(void **state)
{
	const struct bc_attrib_stream *s;
	struct run r;
	uint8_t b[256];
	int len;

	(void)state;
	run_init(&r);
	/* iperf_udp_connect(): UDP_CONNECT_MSG in x86 host order, then the server's reply */
	len = frame(b, 40000, 5201, false, 4);
	b[L2L3] = '9', b[L2L3 + 1] = '8', b[L2L3 + 2] = '7', b[L2L3 + 3] = '6';
	both(&r, T0, b, len, false);
	len = frame(b, 40000, 5201, true, 4);
	b[L2L3] = '6', b[L2L3 + 1] = '7', b[L2L3 + 2] = '8', b[L2L3 + 3] = '9';
	both(&r, T0 + 500000, b, len, false);
	iperf_flow(&r, 40000, 20, 32, T0 + 1000000, 5);
	iperf_flow(&r, 40001, 20, 64, T0 + 1500000, 12);
	assert_int_equal(bc_attrib_finish(&r.a, NULL), 0);
	assert_int_equal(r.a.n_streams, 2);
	s = stream_of(&r.a, 40000);
	assert_non_null(s);
	assert_int_equal(s->gen, BC_GEN_IPERF3);
	assert_int_equal(s->counter_bits, 32);
	assert_false(s->counter_from_control);
	assert_int_equal(s->left, 20);
	assert_int_equal(s->arrived, 19);
	assert_int_equal(s->lost, 1);
	assert_int_equal(s->dir, BC_DIR_FWD);
	s = stream_of(&r.a, 40001);
	assert_non_null(s);
	assert_int_equal(s->counter_bits, 64);
	assert_int_equal(s->lost, 1);
	assert_int_equal(r.a.links[r.tx].lost, 2);
	assert_int_equal(r.a.links[r.tx].units_left, 40);
	assert_int_equal(r.a.links[r.rx].units_arrived, 38);
	assert_int_equal(r.a.path[r.tx][r.rx], 38);
	/* the connect datagram and the reply, on both captures: not data, not another generator */
	assert_int_equal(r.a.links[r.tx].iperf3_connect, 2);
	assert_int_equal(r.a.links[r.rx].iperf3_connect, 2);
	assert_int_equal(r.a.links[r.tx].udp_other, 0);
	bc_attrib_free(&r.a);
}

/* The control JSON says 64 bits: the stream's width is "from its control JSON". */
static void test_attrib_control(void **state)
{
	const char *j = "{\"udp\":true,\"omit\":0,\"time\":1,\"udp_counters_64bit\":1}";
	struct bc_pkt_spec s = {
		.ip_version = 4, .proto = 6, .sport = 50000, .dport = 5201, .tcp_flags = 0x18};
	struct run r;
	uint8_t b[512];
	int len;

	(void)state;
	run_init(&r);
	s.src[0] = s.dst[0] = 10, s.src[3] = 1, s.dst[3] = 2;
	s.payload_len = (uint32_t)strlen(j);
	len = bc_pkt_build(&s, b, sizeof(b));
	memcpy(b + 14 + 20 + 20, j, strlen(j));
	both(&r, T0, b, len, false);
	iperf_flow(&r, 40001, 20, 64, T0 + 1000000, 0);
	assert_int_equal(bc_attrib_finish(&r.a, NULL), 0);
	assert_int_equal(r.a.n_streams, 1);
	assert_int_equal(r.a.streams[0].counter_bits, 64);
	assert_true(r.a.streams[0].counter_from_control);
	bc_attrib_free(&r.a);
}

/*
 * -l 3000 over a 1500 MTU: three fragments, only the first with the UDP and
 * iperf3 headers.  The second fragment of datagram 4 is lost: the stream is
 * recognised from the first fragments, the lost fragment is a lost unit, the
 * datagram fails reassembly (messages_lost), no fragment is another generator's.
 */
static void test_attrib_fragments(void **state)
{
	struct bc_pkt_spec s = {
		.ip_version = 4, .proto = 17, .sport = 40002, .dport = 5201, .udp_total = 3008};
	struct run r;
	uint8_t b[2048];

	(void)state;
	run_init(&r);
	s.src[0] = s.dst[0] = 10, s.src[3] = 1, s.dst[3] = 2;
	for (unsigned k = 0; k < 12; k++) {
		uint64_t ns = T0 + k * 1000000ull;
		static const uint32_t off[3] = {0, 1480, 2960}, plen[3] = {1472, 1480, 48};

		for (int f = 0; f < 3; f++) {
			int len;

			s.ip_id = 100 + k;
			s.frag_off = off[f];
			s.more_frags = f < 2;
			s.payload_len = plen[f];
			len = bc_pkt_build(&s, b, sizeof(b));
			if (!f)
				iperf_hdr(b + L2L3, ns, k + 1, 32);
			both(&r, ns + (uint64_t)f * 1000, b, len, k == 3 && f == 1);
		}
	}
	assert_int_equal(bc_attrib_finish(&r.a, NULL), 0);
	assert_int_equal(r.a.n_streams, 1);
	assert_int_equal(r.a.streams[0].gen, BC_GEN_IPERF3);
	assert_int_equal(r.a.streams[0].left, 12);
	assert_int_equal(r.a.links[r.tx].units_left, 36);
	assert_int_equal(r.a.links[r.tx].lost, 1);
	assert_int_equal(r.a.links[r.tx].messages_lost, 1);
	assert_int_equal(r.a.frag.incomplete, 1);
	assert_int_equal(r.a.links[r.tx].udp_other, 0);
	assert_int_equal(r.a.links[r.rx].udp_other, 0);
	bc_attrib_free(&r.a);
}

/*
 * Not iperf3: random payloads, an RTP-like flow (constant "counter"), 7
 * iperf3-shaped datagrams (too few to judge), 8-byte datagrams: no stream,
 * every datagram counted as another generator's, per link.
 */
static void test_attrib_not_iperf3(void **state)
{
	struct run r;
	uint8_t b[256];
	uint32_t x = 12345;

	(void)state;
	run_init(&r);
	for (unsigned k = 0; k < 40; k++) {
		uint64_t ns = T0 + k * 1000000ull;
		int len = frame(b, 40100, 9999, false, 40);

		for (int i = 0; i < 40; i++) {
			x = x * 1103515245u + 12345u;
			b[L2L3 + i] = (uint8_t)(x >> 16);
		}
		both(&r, ns, b, len, false);
		len = frame(b, 40101, 9998, false, 100);
		put32(b + L2L3, 0x80000000u | k);
		put32(b + L2L3 + 4, 160 * k);
		put32(b + L2L3 + 8, 0x5eed1234);
		both(&r, ns + 100000, b, len, false);
		len = frame(b, 40102, 9997, false, 8);
		both(&r, ns + 200000, b, len, false);
	}
	iperf_flow(&r, 40103, BC_IPERF3_MIN_DATAGRAMS - 1, 32, T0, 0);
	assert_int_equal(bc_attrib_finish(&r.a, NULL), 0);
	assert_int_equal(r.a.n_streams, 0);
	assert_int_equal(r.a.links[r.tx].udp_other, 3 * 40 + BC_IPERF3_MIN_DATAGRAMS - 1);
	assert_int_equal(r.a.links[r.rx].udp_other, 3 * 40 + BC_IPERF3_MIN_DATAGRAMS - 1);
	assert_int_equal(r.a.links[r.tx].units_left, 0);
	assert_int_equal(r.a.links[r.tx].lost, 0);
	/* the answers say so, never "lost 0" */
	{
		char *txt = NULL;
		size_t n = 0;
		FILE *f = open_memstream(&txt, &n);

		assert_non_null(f);
		bc_analyze_answers(f, &r.a);
		fclose(f);
		assert_non_null(strstr(txt, "Loss         UNSURE not measured: none of the 127 UDP "
					    "datagrams is bondcheck's or iperf3's"));
		assert_non_null(strstr(txt, "Reordering   UNSURE not measured"));
		free(txt);
	}
	bc_attrib_free(&r.a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_connect),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_attrib_32_64_connect),
		cmocka_unit_test(test_attrib_control),
		cmocka_unit_test(test_attrib_fragments),
		cmocka_unit_test(test_attrib_not_iperf3),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
