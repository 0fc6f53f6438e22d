// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The taps' records as synthesized frames (workflow/run-tap.h): what the
 * shared attribution decodes from them must be what the record says.
 */
#include <arpa/inet.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "bondcheck/packet.h"
#include "bondcheck/tap.h"
#include "workflow/run-tap.h"

static void tuple4(struct bc_tap_tuple *tu, uint8_t proto, uint16_t sp, uint16_t dp)
{
	memset(tu, 0, sizeof(*tu));
	tu->family = AF_INET;
	tu->proto = proto;
	tu->sport = sp;
	tu->dport = dp;
	inet_pton(AF_INET, "10.77.1.1", tu->src);
	inet_pton(AF_INET, "10.77.2.1", tu->dst);
}

/* A whole bondcheck datagram (1514 bytes on the wire): ours, with its stream and seq. */
static void test_udp_whole(void **state)
{
	struct bc_tap_rec r = {.len = 1514, .kind = BC_TAP_REC_UDP, .flags = BC_TAP_F_EGRESS};
	struct bc_tap_tuple tu;
	uint8_t f[128];
	uint32_t wire, cap;
	struct bc_pkt p;

	(void)state;
	r.udp.seq = 123456789012ull;
	r.udp.stream = 3;
	r.udp.test_id = 0xdeadbeef;
	tuple4(&tu, 17, 40000, 5201);
	cap = bc_run_tap_synth(&r, &tu, f, &wire);
	assert_int_equal(wire, 1514);
	assert_int_equal(cap, 14 + 20 + 8 + 32);
	assert_int_equal(bc_pkt_decode(f, cap, wire, &p), 0);
	assert_int_equal(p.layer, BC_PKT_OURS);
	assert_int_equal(p.ours.seq, 123456789012ull);
	assert_int_equal(p.ours.stream_id, 3);
	assert_int_equal(p.ours.test_id, 0xdeadbeef);
	assert_int_equal(p.sport, 40000);
	assert_int_equal(p.dport, 5201);
	assert_int_equal(p.wire_len, 1514);
	assert_false(p.frag);
}

/* A non-first IPv6 fragment with a VLAN tag: its id, offset and bytes. */
static void test_frag6_vlan(void **state)
{
	struct bc_tap_rec r = {.len = 0,
			       .vlan = 100,
			       .kind = BC_TAP_REC_FRAG,
			       .flags = BC_TAP_F_FRAG | BC_TAP_F_MF | BC_TAP_F_VLAN | BC_TAP_F_V6,
			       .ip_id = 0x12345678,
			       .off8 = 181,
			       .frag_len = 1448};
	struct bc_tap_tuple tu;
	uint8_t f[128];
	uint32_t wire, cap;
	struct bc_pkt p;

	(void)state;
	memset(&tu, 0, sizeof(tu));
	tu.family = AF_INET6;
	tu.proto = 17;
	inet_pton(AF_INET6, "fd77:1::1", tu.src);
	inet_pton(AF_INET6, "fd77:2::1", tu.dst);
	cap = bc_run_tap_synth(&r, &tu, f, &wire);
	assert_int_equal(bc_pkt_decode(f, cap, wire, &p), 0);
	assert_true(p.frag);
	assert_true(p.more_frags);
	assert_int_equal(p.ip_id, 0x12345678);
	assert_int_equal(p.frag_off, 181 * 8);
	assert_int_equal(p.ip_len - p.l3_hdr_len, 1448);
	assert_int_equal(p.vlan_id, 100);
	assert_int_equal(p.ip_version, 6);
	assert_int_equal(wire, 18 + 48 + 1448);
}

/* A TCP segment: its sequence and payload length from the recorded range. */
static void test_tcp(void **state)
{
	struct bc_tap_rec r = {.len = 1514, .kind = BC_TAP_REC_TCP, .flags = BC_TAP_F_EGRESS};
	struct bc_tap_tuple tu;
	uint8_t f[128];
	uint32_t wire, cap;
	struct bc_pkt p;

	(void)state;
	r.tcp.seq = 1000;
	r.tcp.end_seq = 2448;
	r.tcp.sport = 40000;
	r.tcp.dport = 5201;
	r.tcp.tcp_flags = 0x10;
	tuple4(&tu, 6, 40000, 5201);
	cap = bc_run_tap_synth(&r, &tu, f, &wire);
	assert_int_equal(bc_pkt_decode(f, cap, wire, &p), 0);
	assert_int_equal(p.proto, 6);
	assert_int_equal(p.sport, 40000);
	assert_int_equal(p.ip_len - p.l3_hdr_len - p.l4_hdr_len, 1448);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udp_whole),
		cmocka_unit_test(test_frag6_vlan),
		cmocka_unit_test(test_tcp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
