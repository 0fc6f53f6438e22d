// SPDX-License-Identifier: GPL-2.0-or-later
/* Ceilings against field-notes.md "Physical ceilings" and measurement.md 4.2, 3.11. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bondcheck/ceiling.h"
#include "bondcheck/model.h"

static struct bc_ceiling link(double rate, uint32_t mtu, int ipv, enum bc_l4 p,
			      enum bc_rate_conv conv, uint32_t udp_len)
{
	struct bc_ceiling_in in = {.rate_bps = rate,
				   .mtu = mtu,
				   .ip_version = ipv,
				   .proto = p,
				   .tcp_timestamps = true,
				   .conv = conv,
				   .udp_payload = udp_len};
	struct bc_ceiling c;

	assert_int_equal(bc_ceiling_link(&in, &c, NULL), 0);
	return c;
}

/* |got - want| <= tol, in the table's units */
#define assert_near(got, want, tol) assert_true((got) > (want) - (tol) && (got) < (want) + (tol))

static void test_field_notes_table(void **state)
{
	struct bc_ceiling c;

	(void)state;
	/* 100 Mbit/s, 1500: TCP 94.1, UDP 95.7 Mbit/s, 8,127 frames/s */
	c = link(100e6, 1500, 4, BC_L4_TCP, BC_CONV_ETHERNET, 0);
	assert_near(c.goodput_bps / 1e6, 94.148, 0.001);
	assert_near(c.frames_per_s, 8127.4, 0.1);
	assert_int_equal(c.payload, 1448);
	c = link(100e6, 1500, 4, BC_L4_UDP, BC_CONV_ETHERNET, 0);
	assert_near(c.goodput_bps / 1e6, 95.709, 0.001);
	assert_int_equal(c.payload, 1472);
	/* 1 Gbit/s, 1500: 941.5 / 957.1, 81,274 frames/s */
	c = link(1e9, 1500, 4, BC_L4_TCP, BC_CONV_ETHERNET, 0);
	assert_near(c.goodput_bps / 1e6, 941.48, 0.01);
	assert_near(c.frames_per_s, 81274.4, 0.1);
	c = link(1e9, 1500, 4, BC_L4_UDP, BC_CONV_ETHERNET, 0);
	assert_near(c.goodput_bps / 1e6, 957.09, 0.01);
	/* 1 Gbit/s, 9000: 990.0 / 992.7, 13,830 frames/s */
	c = link(1e9, 9000, 4, BC_L4_TCP, BC_CONV_ETHERNET, 0);
	assert_near(c.goodput_bps / 1e6, 990.04, 0.01);
	assert_near(c.frames_per_s, 13830.5, 0.1);
	c = link(1e9, 9000, 4, BC_L4_UDP, BC_CONV_ETHERNET, 0);
	assert_near(c.goodput_bps / 1e6, 992.70, 0.01);
	/* 10 Gbit/s, 1500: 9415 / 9571, 812,744 frames/s */
	c = link(10e9, 1500, 4, BC_L4_TCP, BC_CONV_ETHERNET, 0);
	assert_near(c.goodput_bps / 1e6, 9414.8, 0.1);
	assert_near(c.frames_per_s, 812743.8, 0.1);
	c = link(10e9, 1500, 4, BC_L4_UDP, BC_CONV_ETHERNET, 0);
	assert_near(c.goodput_bps / 1e6, 9570.9, 0.1);
}

static void test_ipv6_vlan_no_timestamps(void **state)
{
	struct bc_ceiling_in in = {.rate_bps = 1e9,
				   .mtu = 1500,
				   .ip_version = 6,
				   .proto = BC_L4_TCP,
				   .tcp_timestamps = true};
	struct bc_ceiling c;

	(void)state;
	/* measurement.md 4.2: TCP/IPv6+TS 1428 -> 928.48; UDP/IPv6 1452 -> 944.08 */
	assert_int_equal(bc_ceiling_link(&in, &c, NULL), 0);
	assert_int_equal(c.payload, 1428);
	assert_near(c.goodput_bps / 1e6, 928.48, 0.01);
	c = link(1e9, 1500, 6, BC_L4_UDP, BC_CONV_ETHERNET, 0);
	assert_near(c.goodput_bps / 1e6, 944.08, 0.01);
	/* TCP/IPv4 without timestamps: 1460 -> 949.28 */
	in.ip_version = 4;
	in.tcp_timestamps = false;
	assert_int_equal(bc_ceiling_link(&in, &c, NULL), 0);
	assert_near(c.goodput_bps / 1e6, 949.28, 0.01);
	/* an 802.1Q tag: 1460 / 1542 */
	in.vlan = true;
	assert_int_equal(bc_ceiling_link(&in, &c, NULL), 0);
	assert_near(c.goodput_bps / 1e6, 1e3 * 1460.0 / 1542.0, 0.001);
}

static void test_tbf_convention(void **state)
{
	struct bc_ceiling c;

	(void)state;
	/* DESIGN.md: tbf 100mbit carries 1448/1514 x 100 = 95.6 Mbit/s of TCP */
	c = link(100e6, 1500, 4, BC_L4_TCP, BC_CONV_QDISC, 0);
	assert_near(c.goodput_bps / 1e6, 95.64, 0.01);
	c = link(100e6, 1500, 4, BC_L4_UDP, BC_CONV_QDISC, 0);
	assert_near(c.goodput_bps / 1e6, 100.0 * 1472 / 1514, 0.001);
}

static void test_udp_fragments(void **state)
{
	struct bc_ceiling c;

	(void)state;
	/* measurement.md 3.11: 10240 bytes = 7 fragments, 10654 wire bytes, 96.11 % */
	c = link(100e6, 1500, 4, BC_L4_UDP, BC_CONV_ETHERNET, 10240);
	assert_int_equal(c.frames_per_message, 7);
	assert_int_equal(c.cost_per_message, 10654);
	assert_near(c.efficiency, 0.9611, 0.0001);
	/* small datagrams pay the 84-byte minimum slot: 32 + 28 + 38 = 98 > 84 but 10 + 28 + 38 =
	 * 76 */
	c = link(1e9, 1500, 4, BC_L4_UDP, BC_CONV_ETHERNET, 10);
	assert_int_equal(c.cost_per_message, 84);
	/* IPv6 fragments: (1500 - 48) & ~7 = 1448 data bytes each; 3000 + 8 -> 3 fragments */
	c = link(1e9, 1500, 6, BC_L4_UDP, BC_CONV_ETHERNET, 3000);
	assert_int_equal(c.frames_per_message, 3);
	assert_int_equal(c.cost_per_message, (1448 + 48 + 38) * 2 + (3008 - 2896 + 48 + 38));
}

static void test_rejects(void **state)
{
	struct bc_ceiling_in in = {.rate_bps = 1e9,
				   .mtu = 1500,
				   .ip_version = 4,
				   .proto = BC_L4_UDP,
				   .udp_payload = 65508};
	struct bc_error err = {0};
	struct bc_ceiling c;

	(void)state;
	assert_int_equal(bc_ceiling_link(&in, &c, &err), -EINVAL);
	in.udp_payload = 65507;
	assert_int_equal(bc_ceiling_link(&in, &c, NULL), 0);
	in.ip_version = 6;
	in.udp_payload = 65527;
	assert_int_equal(bc_ceiling_link(&in, &c, NULL), 0);
	in.mtu = 1279;
	assert_int_equal(bc_ceiling_link(&in, &c, NULL), -EINVAL);
	in.ip_version = 5;
	assert_int_equal(bc_ceiling_link(&in, &c, NULL), -EINVAL);
}

static void test_rate_choice(void **state)
{
	struct bc_link_rate r;

	(void)state;
	assert_int_equal(bc_link_rate_choose(100e6, 0, 1e9, 10000, &r), 0);
	assert_int_equal(r.source, BC_RATE_TBF);
	assert_int_equal(r.conv, BC_CONV_QDISC);
	assert_int_equal(bc_link_rate_choose(0, 0, 0, 10000, &r), 0);
	assert_int_equal(r.source, BC_RATE_ETHTOOL);
	assert_near(r.rate_bps, 1e10, 1);
	assert_int_equal(bc_link_rate_choose(0, 0, 5e8, 10000, &r), 0);
	assert_int_equal(r.source, BC_RATE_OPTION);
	assert_int_equal(bc_link_rate_choose(0, 0, 0, 0, &r), -ENODATA);
}

static void test_bond(void **state)
{
	const double g[3] = {94.148e6, 941.48e6, 941.48e6};
	double out;

	(void)state;
	/* balance-rr: 3 x the slowest */
	assert_int_equal(bc_ceiling_bond(BC_MODE_ROUNDROBIN, g, 3, 0, &out, NULL), 0);
	assert_near(out / 1e6, 3 * 94.148, 0.001);
	/* 802.3ad with flows on links 1 and 2 only */
	assert_int_equal(bc_ceiling_bond(BC_MODE_8023AD, g, 3, 0x6, &out, NULL), 0);
	assert_near(out / 1e6, 2 * 941.48, 0.001);
	assert_int_equal(bc_ceiling_bond(BC_MODE_XOR, g, 3, 0, &out, NULL), -EINVAL);
	assert_int_equal(bc_ceiling_bond(BC_MODE_ACTIVEBACKUP, g, 3, 0x2, &out, NULL), 0);
	assert_near(out / 1e6, 941.48, 0.001);
	assert_int_equal(bc_ceiling_bond(BC_MODE_ACTIVEBACKUP, g, 3, 0x3, &out, NULL), -EINVAL);
	assert_int_equal(bc_ceiling_bond(BC_MODE_BROADCAST, g, 3, 0, &out, NULL), 0);
	assert_near(out / 1e6, 94.148, 0.001);
	assert_int_equal(bc_ceiling_bond(BC_MODE_XOR, g, 3, 0x8, &out, NULL), -EINVAL);
	assert_near(bc_efficiency(47.074e6, 94.148e6), 0.5, 1e-9);
	assert_true(bc_efficiency(1, 0) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_field_notes_table),
		cmocka_unit_test(test_ipv6_vlan_no_timestamps),
		cmocka_unit_test(test_tbf_convention),
		cmocka_unit_test(test_udp_fragments),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_rate_choice),
		cmocka_unit_test(test_bond),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
