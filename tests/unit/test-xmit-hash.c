// SPDX-License-Identifier: GPL-2.0-or-later
/* The predictor against reference/xmit-hash.md section 7 and its live-checked table. */
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "bondcheck/xmit-hash.h"

static struct bc_flow v4_flow(uint16_t sport, uint16_t dport)
{
	struct bc_flow f = {.family = AF_INET,
			    .src = {10, 0, 0, 1},
			    .dst = {10, 0, 0, 2},
			    .sport = sport,
			    .dport = dport,
			    .proto = IPPROTO_UDP,
			    .smac = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56},
			    .dmac = {0x52, 0x54, 0x00, 0xab, 0xcd, 0xef}};
	return f;
}

static uint32_t hash(int policy, enum bc_hash_kernel k, const struct bc_flow *f)
{
	uint32_t h = 0;

	assert_int_equal(bc_xmit_hash(policy, k, f, &h, NULL), 0);
	return h;
}

static void test_layer34_example(void **state)
{
	struct bc_flow f = v4_flow(40000, 5301), r = v4_flow(5301, 40000);
	struct bc_flow f6 = f;
	static const int seq[12] = {0, 2, 1, 0, 0, 2, 1, 0, 0, 2, 1, 0};

	(void)state;
	/* 7.1: 0x5B51713F, %3 = 0, %2 = 1, %4 = 3, the same on every class */
	assert_int_equal(hash(BC_XMIT_LAYER34, BC_HK_CURRENT, &f), 0x5B51713F);
	assert_int_equal(hash(BC_XMIT_LAYER34, BC_HK_PRE_515, &f), 0x5B51713F);
	assert_int_equal(hash(BC_XMIT_LAYER34, BC_HK_515_MID, &f), 0x5B51713F);
	assert_int_equal(0x5B51713F % 4, 3);
	/* reverse direction, as the peer's bond hashes it: 0x21EFB53F */
	memcpy(r.src, f.dst, 4);
	memcpy(r.dst, f.src, 4);
	assert_int_equal(hash(BC_XMIT_LAYER34, BC_HK_CURRENT, &r), 0x21EFB53F);
	/* IPv6 2001:db8::1 -> ::2 gives the same hash */
	f6.family = AF_INET6;
	memset(f6.src, 0, 16);
	memset(f6.dst, 0, 16);
	f6.src[0] = f6.dst[0] = 0x20;
	f6.src[1] = f6.dst[1] = 0x01;
	f6.src[2] = f6.dst[2] = 0x0d;
	f6.src[3] = f6.dst[3] = 0xb8;
	f6.src[15] = 1;
	f6.dst[15] = 2;
	assert_int_equal(hash(BC_XMIT_LAYER34, BC_HK_CURRENT, &f6), 0x5B51713F);
	/* ports 40000..40011 on 3 slaves: 0 2 1 0 0 2 1 0 0 2 1 0 */
	for (int i = 0; i < 12; i++) {
		struct bc_flow g = v4_flow((uint16_t)(40000 + i), 5301);

		assert_int_equal(hash(BC_XMIT_LAYER34, BC_HK_CURRENT, &g) % 3, seq[i]);
	}
	f.sport = 40001;
	assert_int_equal(hash(BC_XMIT_LAYER34, BC_HK_CURRENT, &f), 0x5B5171BF);
	f.sport = 40002;
	assert_int_equal(hash(BC_XMIT_LAYER34, BC_HK_CURRENT, &f), 0x5B51703E);
	/* fragments hash with ports 0, so the port no longer matters */
	f.fragment = true;
	r = f;
	r.sport = 40000;
	assert_int_equal(hash(BC_XMIT_LAYER34, BC_HK_CURRENT, &f),
			 hash(BC_XMIT_LAYER34, BC_HK_CURRENT, &r));
}

static void test_layer2_and_23_examples(void **state)
{
	struct bc_flow f = v4_flow(40000, 5301);

	(void)state;
	/* 7.2 layer2: 0x8B9 on 5.15+, 0xB1 on 4.19/5.10 */
	assert_int_equal(hash(BC_XMIT_LAYER2, BC_HK_CURRENT, &f), 0x08B9);
	assert_int_equal(hash(BC_XMIT_LAYER2, BC_HK_PRE_515, &f), 0x00B1);
	assert_int_equal(0x08B9 % 3, 1);
	/* 7.3 layer2+3 by kernel class */
	assert_int_equal(hash(BC_XMIT_LAYER23, BC_HK_CURRENT, &f), 0x03030BB2);
	assert_int_equal(hash(BC_XMIT_LAYER23, BC_HK_PRE_515, &f), 0x018181D9);
	assert_int_equal(hash(BC_XMIT_LAYER23, BC_HK_515_MID, &f), 0x018185D9);
	/* encap2+3 on plain traffic equals layer2+3 */
	assert_int_equal(hash(BC_XMIT_ENCAP23, BC_HK_CURRENT, &f), 0x03030BB2);
}

static void test_vlan_srcmac(void **state)
{
	struct bc_flow f = v4_flow(1, 2);

	(void)state;
	/* 7.4: VLAN 100 PCP 0 -> 0x00406032; PCP 5 -> 0x0040C032 */
	f.vlan = true;
	f.vlan_tci = 100;
	assert_int_equal(hash(BC_XMIT_VLAN_SRCMAC, BC_HK_CURRENT, &f), 0x00406032);
	f.vlan_tci = 0xA064;
	assert_int_equal(hash(BC_XMIT_VLAN_SRCMAC, BC_HK_CURRENT, &f), 0x0040C032);
	assert_int_equal(bc_xmit_hash(BC_XMIT_VLAN_SRCMAC, BC_HK_PRE_515, &f, &(uint32_t){0}, NULL),
			 -EINVAL);
}

static void test_unpredictable(void **state)
{
	struct bc_flow f = v4_flow(40000, 5301);
	uint32_t h;

	(void)state;
	assert_int_equal(bc_xmit_hash(BC_XMIT_LAYER34, BC_HK_515_BROKEN, &f, &h, NULL), -ENOTSUP);
	f.connected = true;
	assert_int_equal(bc_xmit_hash(BC_XMIT_ENCAP34, BC_HK_CURRENT, &f, &h, NULL), -ENOTSUP);
	f.connected = false;
	assert_int_equal(hash(BC_XMIT_ENCAP34, BC_HK_CURRENT, &f), 0x5B51713F);
}

static void test_kernel_classes(void **state)
{
	enum bc_hash_kernel k;

	(void)state;
	assert_int_equal(bc_hash_kernel_from_release("6.1.0-25-amd64", &k, NULL), 0);
	assert_int_equal(k, BC_HK_CURRENT);
	assert_int_equal(bc_hash_kernel_from_release("5.10.198", &k, NULL), 0);
	assert_int_equal(k, BC_HK_PRE_515);
	assert_int_equal(bc_hash_kernel_from_release("4.19.222", &k, NULL), 0);
	assert_int_equal(k, BC_HK_PRE_515);
	assert_int_equal(bc_hash_kernel_from_release("5.15.17", &k, NULL), 0);
	assert_int_equal(k, BC_HK_515_BROKEN);
	assert_int_equal(bc_hash_kernel_from_release("5.15.30", &k, NULL), 0);
	assert_int_equal(k, BC_HK_515_MID);
	assert_int_equal(bc_hash_kernel_from_release("5.15.148", &k, NULL), 0);
	assert_int_equal(k, BC_HK_CURRENT);
	assert_int_equal(bc_hash_kernel_from_release("5.17.5", &k, NULL), 0);
	assert_int_equal(k, BC_HK_515_MID);
	assert_int_equal(bc_hash_kernel_from_release("7.1.3", &k, NULL), 0);
	assert_int_equal(k, BC_HK_CURRENT);
	assert_int_equal(bc_hash_kernel_from_release("4.9.1", &k, NULL), -EINVAL);
	assert_int_equal(bc_hash_kernel_from_release("linux", &k, NULL), -EINVAL);
}

/* The live-checked bond: balance-xor over s0 s1 s2, MACs ..:0a -> ..:0b. */
static void live_bond(struct bc_bond *b, struct bc_slave *s, int policy)
{
	memset(b, 0, sizeof(*b));
	memset(s, 0, 3 * sizeof(*s));
	strcpy(b->name, "bond0");
	bc_u32_set(&b->mode, BC_MODE_XOR);
	bc_u32_set(&b->xmit_hash_policy, (uint32_t)policy);
	for (int i = 0; i < 3; i++) {
		s[i].name[0] = 's';
		s[i].name[1] = (char)('0' + i);
		bc_u32_set(&s[i].mii_status, BC_LINK_UP);
	}
	b->slaves = s;
	b->n_slaves = 3;
}

static struct bc_flow live_flow(uint16_t sport)
{
	struct bc_flow f = v4_flow(sport, 5301);

	memcpy(f.smac, (uint8_t[]){2, 0, 0, 0, 0, 0x0a}, 6);
	memcpy(f.dmac, (uint8_t[]){2, 0, 0, 0, 0, 0x0b}, 6);
	return f;
}

static void test_live_table(void **state)
{
	static const size_t l34[8] = {0, 2, 1, 0, 0, 2, 1, 0};
	struct bc_slave s[3];
	struct bc_bond b;
	size_t slave;

	(void)state;
	for (int pol = 0; pol < 3; pol++) {
		live_bond(&b, s, pol);
		for (int i = 0; i < 8; i++) {
			struct bc_flow f = live_flow((uint16_t)(40000 + i));

			assert_int_equal(bc_xmit_slave(&b, BC_HK_CURRENT, &f, &slave, NULL), 0);
			assert_int_equal(slave, pol == BC_XMIT_LAYER34 ? l34[i] : 0);
		}
	}
	/* the hashes the table quotes */
	{
		struct bc_flow f = live_flow(40000);

		assert_int_equal(hash(BC_XMIT_LAYER23, BC_HK_CURRENT, &f), 0x03030B0A);
		assert_int_equal(hash(BC_XMIT_LAYER2, BC_HK_CURRENT, &f), 0x0801);
	}
	/* s1 down: the array is [s0, s2] and hash % 2 decides: 0x5B51713F is odd -> s2 */
	live_bond(&b, s, BC_XMIT_LAYER34);
	bc_u32_set(&s[1].mii_status, BC_LINK_DOWN);
	{
		struct bc_flow f = live_flow(40000);

		assert_int_equal(bc_xmit_slave(&b, BC_HK_CURRENT, &f, &slave, NULL), 0);
		assert_int_equal(slave, 2);
	}
}

static void test_modes(void **state)
{
	struct bc_slave s[3];
	struct bc_bond b;
	struct bc_flow f = live_flow(40000);
	size_t slave;

	(void)state;
	live_bond(&b, s, BC_XMIT_LAYER34);
	bc_u32_set(&b.mode, BC_MODE_ROUNDROBIN);
	assert_int_equal(bc_xmit_slave(&b, BC_HK_CURRENT, &f, &slave, NULL), -ENOTSUP);
	bc_u32_set(&b.mode, BC_MODE_ACTIVEBACKUP);
	strcpy(b.active_slave.v, "s2");
	b.active_slave.st = BC_KNOWN;
	assert_int_equal(bc_xmit_slave(&b, BC_HK_CURRENT, &f, &slave, NULL), 0);
	assert_int_equal(slave, 2);
	/* tlb with dynamic lb is time dependent; with tlb_dynamic_lb 0 it hashes */
	bc_u32_set(&b.mode, BC_MODE_TLB);
	assert_int_equal(bc_xmit_slave(&b, BC_HK_CURRENT, &f, &slave, NULL), -ENOTSUP);
	bc_u32_set(&b.tlb_dynamic_lb, 0);
	assert_int_equal(bc_xmit_slave(&b, BC_HK_CURRENT, &f, &slave, NULL), 0);
	assert_int_equal(slave, 0);
	/* 802.3ad: only the active aggregator's distributing ports count */
	bc_u32_set(&b.mode, BC_MODE_8023AD);
	b.ad_info_status = BC_KNOWN;
	bc_u32_set(&b.ad_aggregator_id, 1);
	for (int i = 0; i < 3; i++) {
		bc_u32_set(&s[i].aggregator_id, i == 1 ? 2 : 1);
		bc_u32_set(&s[i].actor_oper_port_state, 63);
	}
	{
		size_t idx[4];

		assert_int_equal(bc_xmit_usable(&b, idx, 4), 2);
		assert_int_equal(idx[1], 2);
	}
}

static void test_single_path_and_placement(void **state)
{
	struct bc_slave s[3];
	struct bc_bond b;
	struct bc_flow f[6];
	size_t slave_of[6];

	(void)state;
	live_bond(&b, s, BC_XMIT_LAYER2);
	assert_true(bc_xmit_single_path(&b));
	bc_u32_set(&b.xmit_hash_policy, BC_XMIT_LAYER23);
	assert_true(bc_xmit_single_path(&b));
	bc_u32_set(&b.xmit_hash_policy, BC_XMIT_VLAN_SRCMAC);
	assert_true(bc_xmit_single_path(&b));
	for (int i = 0; i < 6; i++)
		f[i] = live_flow(0);
	assert_int_equal(bc_place_ports(&b, BC_HK_CURRENT, f, 3, 40000, 1, NULL, NULL), -EDOM);

	bc_u32_set(&b.xmit_hash_policy, BC_XMIT_LAYER34);
	assert_false(bc_xmit_single_path(&b));
	/* per-slave=2 on 3 slaves: streams i -> slave i % 3, ports from the 0 2 1 0 ... sequence */
	assert_int_equal(bc_place_ports(&b, BC_HK_CURRENT, f, 6, 40000, 1, slave_of, NULL), 0);
	assert_int_equal(f[0].sport, 40000);
	assert_int_equal(f[1].sport, 40002);
	assert_int_equal(f[2].sport, 40001);
	assert_int_equal(f[3].sport, 40003);
	assert_int_equal(f[4].sport, 40006);
	assert_int_equal(f[5].sport, 40005);
	for (int i = 0; i < 6; i++)
		assert_int_equal(slave_of[i], (size_t)(i % 3));
	/* stride 2 from 40000: 40000 (0), 40002 (1), 40004 (0), 40006 (1) ... */
	assert_int_equal(bc_place_ports(&b, BC_HK_CURRENT, f, 2, 40000, 2, slave_of, NULL), 0);
	assert_int_equal(f[0].sport, 40000);
	assert_int_equal(f[1].sport, 40002);
	f[0].fragment = true;
	assert_int_equal(bc_place_ports(&b, BC_HK_CURRENT, f, 1, 40000, 1, NULL, NULL), -EINVAL);
	f[0].fragment = false;
	assert_int_equal(bc_place_ports(&b, BC_HK_CURRENT, f, 3, 65535, 1, NULL, NULL),
			 -EADDRNOTAVAIL);
}

/* scale --method placement: K flows onto a subset of the usable slaves */
static void test_place_onto_subset(void **state)
{
	struct bc_slave s[3];
	struct bc_bond b;
	struct bc_flow f[4];
	size_t slave_of[4], onto[2] = {2, 0}, slave, down[1] = {1};
	struct bc_error err = {0};

	(void)state;
	live_bond(&b, s, BC_XMIT_LAYER34);
	for (int i = 0; i < 4; i++)
		f[i] = live_flow(0);
	/* the live table's ports: 40000 s0, 40001 s2, 40002 s1, 40003 s0, 40005 s2 */
	assert_int_equal(
		bc_place_ports_onto(&b, BC_HK_CURRENT, f, 4, onto, 2, 40000, 1, slave_of, NULL), 0);
	assert_int_equal(f[0].sport, 40001);
	assert_int_equal(f[1].sport, 40000);
	assert_int_equal(f[2].sport, 40005);
	assert_int_equal(f[3].sport, 40003);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(slave_of[i], onto[i % 2]);
		/* the hash still reduces over all 3 usable slaves: check each with the predictor */
		assert_int_equal(bc_xmit_slave(&b, BC_HK_CURRENT, &f[i], &slave, NULL), 0);
		assert_int_equal(slave, onto[i % 2]);
	}
	/* a target that is not usable is refused, naming it */
	bc_u32_set(&s[1].mii_status, BC_LINK_DOWN);
	assert_int_equal(
		bc_place_ports_onto(&b, BC_HK_CURRENT, f, 1, down, 1, 40000, 1, NULL, &err),
		-EINVAL);
	assert_non_null(strstr(err.msg, "slave s1 is not usable"));
	assert_int_equal(
		bc_place_ports_onto(&b, BC_HK_CURRENT, f, 1, NULL, 0, 40000, 1, NULL, NULL),
		-EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layer34_example),
		cmocka_unit_test(test_layer2_and_23_examples),
		cmocka_unit_test(test_vlan_srcmac),
		cmocka_unit_test(test_unpredictable),
		cmocka_unit_test(test_kernel_classes),
		cmocka_unit_test(test_live_table),
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_single_path_and_placement),
		cmocka_unit_test(test_place_onto_subset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
