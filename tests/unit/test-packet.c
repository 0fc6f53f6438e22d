// SPDX-License-Identifier: GPL-2.0-or-later
/* Packet decoder (decode/packet*.c) on frames from the builder and by hand. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bondcheck/names.h"
#include "bondcheck/packet.h"

static const uint8_t A4[16] = {10, 0, 0, 1}, B4[16] = {10, 0, 0, 2};

static void test_udp_ours(void **state)
{
	struct bc_udphdr h = {.stream_id = 7, .test_id = 99, .seq = 123456789012ull, .send_ns = 5};
	struct bc_pkt_spec s = {.ip_version = 4,
				.proto = 17,
				.sport = 5001,
				.dport = 5201,
				.ip_id = 77,
				.payload_len = 1472,
				.ours = &h};
	uint8_t buf[2048];
	struct bc_pkt p;
	uint64_t wb;
	int n;

	(void)state;
	memcpy(s.src, A4, 16);
	memcpy(s.dst, B4, 16);
	n = bc_pkt_build(&s, buf, sizeof(buf));
	assert_int_equal(n, 14 + 20 + 8 + 1472);
	/* snapped at 96 bytes: our header (ends at 74) is still complete */
	assert_int_equal(bc_pkt_decode(buf, 96, (uint32_t)n, &p), 0);
	assert_int_equal(p.layer, BC_PKT_OURS);
	assert_int_equal(p.stop, BC_PKT_STOP_NONE);
	assert_int_equal(p.ip_len, 1500);
	assert_int_equal(p.l4_payload, 1472);
	assert_int_equal(p.sport, 5001);
	assert_int_equal(p.ours.stream_id, 7);
	assert_int_equal(p.ours.test_id, 99);
	assert_true(p.ours.seq == 123456789012ull);
	assert_false(p.frag);
	/* one 1514-byte frame: 1514 + 4 FCS + 20 = 1538 on the wire */
	assert_int_equal(bc_pkt_wire_frames(&p, 1500, &wb), 1);
	assert_int_equal(wb, 1538);
	/* snapped inside our header: layer L4, stop SNAPPED */
	assert_int_equal(bc_pkt_decode(buf, 60, (uint32_t)n, &p), 0);
	assert_int_equal(p.layer, BC_PKT_L4);
	assert_int_equal(p.stop, BC_PKT_STOP_SNAPPED);
	/* a small frame is padded to 60 and counts the 64-byte minimum: 84 */
	s.payload_len = 0;
	s.ours = NULL;
	n = bc_pkt_build(&s, buf, sizeof(buf));
	assert_int_equal(n, 60);
	assert_int_equal(bc_pkt_decode(buf, (uint32_t)n, (uint32_t)n, &p), 0);
	assert_int_equal(p.l4_payload, 0);
	assert_int_equal(bc_pkt_wire_frames(&p, 1500, &wb), 1);
	assert_int_equal(wb, 84);
}

static void test_vlan_ipv6_fragments(void **state)
{
	struct bc_udphdr h = {.stream_id = 1, .test_id = 2, .seq = 3};
	struct bc_pkt_spec s = {.ip_version = 6,
				.vlan_id = 100,
				.proto = 17,
				.sport = 1,
				.dport = 2,
				.ip_id = 0xdeadbeef,
				.more_frags = true,
				.payload_len = 1000,
				.ours = &h,
				.udp_total = 3008};
	uint8_t buf[2048];
	struct bc_pkt p;
	int n;

	(void)state;
	s.src[15] = 1;
	s.dst[15] = 2;
	n = bc_pkt_build(&s, buf, sizeof(buf));
	assert_int_equal(bc_pkt_decode(buf, (uint32_t)n, (uint32_t)n, &p), 0);
	assert_int_equal(p.n_vlan, 1);
	assert_int_equal(p.vlan_id, 100);
	assert_int_equal(p.ip_version, 6);
	assert_true(p.frag);
	assert_true(p.more_frags);
	assert_int_equal(p.frag_off, 0);
	assert_int_equal(p.ip_id, 0xdeadbeef);
	assert_int_equal(p.layer, BC_PKT_OURS); /* first fragment carries our header */
	assert_int_equal(p.ours.seq, 3);
	/* a non-first fragment stops at L3 with the same id and its offset */
	s.frag_off = 1008;
	s.more_frags = false;
	n = bc_pkt_build(&s, buf, sizeof(buf));
	assert_int_equal(bc_pkt_decode(buf, (uint32_t)n, (uint32_t)n, &p), 0);
	assert_int_equal(p.layer, BC_PKT_L3);
	assert_int_equal(p.frag_off, 1008);
	assert_false(p.more_frags);
	assert_int_equal(p.proto, 17);
	assert_int_equal(p.ip_len, 40 + 8 + 1000);
}

static void test_tcp_super_frame(void **state)
{
	struct bc_pkt_spec s = {.ip_version = 4,
				.proto = 6,
				.sport = 40000,
				.dport = 5201,
				.payload_len = 1460 * 3,
				.tcp_seq = 1000};
	uint8_t buf[8192];
	struct bc_pkt p;
	uint64_t wb;
	int n;

	(void)state;
	memcpy(s.src, A4, 16);
	memcpy(s.dst, B4, 16);
	n = bc_pkt_build(&s, buf, sizeof(buf));
	assert_int_equal(bc_pkt_decode(buf, 128, (uint32_t)n, &p), 0);
	assert_int_equal(p.layer, BC_PKT_L4);
	assert_int_equal(p.tcp_seq, 1000);
	assert_int_equal(p.l4_payload, 4380);
	/* TSO: 3 per-MSS frames of 1460 + 40 headers + 14: 3 x (1514 + 24) */
	assert_int_equal(bc_pkt_wire_frames(&p, 1500, &wb), 3);
	assert_int_equal(wb, 3 * 1538);
	/* BIG TCP: IPv4 total length 0, length from the pcap original length */
	buf[16] = buf[17] = 0;
	assert_int_equal(bc_pkt_decode(buf, 128, (uint32_t)n, &p), 0);
	assert_true(p.ip_len_from_wire);
	assert_int_equal(p.l4_payload, 4380);
}

static void test_lacpdu(void **state)
{
	struct bc_lacpdu l = {
		.version = 1,
		.actor = {.system_priority = 65535, .key = 9, .port = 2, .state = 0x3d},
		.partner = {.key = 15, .port = 1, .state = 0x4f}};
	uint8_t mac[6] = {2, 0, 0, 0, 0, 9}, buf[256], w[128];
	struct bc_pkt p;
	int n;

	(void)state;
	n = bc_pkt_build_lacpdu(&l, mac, buf, sizeof(buf));
	assert_int_equal(n, 124);
	assert_int_equal(bc_pkt_decode(buf, (uint32_t)n, (uint32_t)n, &p), 0);
	assert_int_equal(p.layer, BC_PKT_LACP);
	assert_int_equal(p.lacp.actor.key, 9);
	assert_int_equal(p.lacp.actor.port, 2);
	assert_int_equal(p.lacp.partner.key, 15);
	assert_string_equal(bc_lacp_state_words(p.lacp.actor.state, (char *)w, sizeof(w)),
			    "activity aggregation synchronization collecting distributing");
	assert_string_equal(bc_lacp_state_words(p.lacp.partner.state, (char *)w, sizeof(w)),
			    "activity timeout aggregation synchronization defaulted");
	/* a partner TLV with a wrong length is malformed */
	buf[16 + 20 + 1] = 19;
	assert_int_equal(bc_pkt_decode(buf, (uint32_t)n, (uint32_t)n, &p), -EBADMSG);
	/* cut inside the TLVs: snapped, not malformed */
	assert_int_equal(bc_pkt_decode(buf, 40, (uint32_t)n, &p), 0);
	assert_int_equal(p.stop, BC_PKT_STOP_SNAPPED);
}

static void test_malformed(void **state)
{
	struct bc_pkt_spec s = {.ip_version = 4, .proto = 17, .payload_len = 100};
	uint8_t buf[256];
	struct bc_pkt p;
	int n;

	(void)state;
	n = bc_pkt_build(&s, buf, sizeof(buf));
	buf[14] = 0x44; /* IHL 4 */
	assert_int_equal(bc_pkt_decode(buf, (uint32_t)n, (uint32_t)n, &p), -EBADMSG);
	assert_string_equal(p.why, "IPv4 header length (IHL) below 5 words");
	buf[14] = 0x45;
	buf[16] = 0x40; /* total length 16384 > frame */
	assert_int_equal(bc_pkt_decode(buf, (uint32_t)n, (uint32_t)n, &p), -EBADMSG);
	buf[16] = 0;
	buf[14 + 20 + 4] = 0xff; /* UDP length 65280 > IP payload */
	assert_int_equal(bc_pkt_decode(buf, (uint32_t)n, (uint32_t)n, &p), -EBADMSG);
	/* 10 bytes: not even an Ethernet header */
	assert_int_equal(bc_pkt_decode(buf, 10, 10, &p), 0);
	assert_int_equal(p.stop, BC_PKT_STOP_SNAPPED);
	assert_int_equal(p.layer, BC_PKT_L2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_udp_ours),	cmocka_unit_test(test_vlan_ipv6_fragments),
		cmocka_unit_test(test_tcp_super_frame), cmocka_unit_test(test_lacpdu),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
