// SPDX-License-Identifier: GPL-2.0-or-later
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bondcheck/model.h"
#include "bondcheck/names.h"

static void test_modes(void **state)
{
	(void)state;
	assert_string_equal(bc_mode_name(4), "802.3ad");
	assert_null(bc_mode_name(7));
	assert_int_equal(bc_mode_from_name("balance-alb"), 6);
	assert_int_equal(bc_mode_from_name("2"), 2);
	assert_int_equal(bc_mode_from_name("9"), -1);
	assert_int_equal(bc_mode_from_proc_text("IEEE 802.3ad Dynamic link aggregation"), 4);
	assert_int_equal(bc_mode_from_proc_text("load balancing (round-robin)"), 0);
	assert_int_equal(bc_mode_from_proc_text("bogus"), -1);
}

static void test_hash(void **state)
{
	(void)state;
	assert_int_equal(bc_xmit_hash_policy_from_name("layer3+4"), 1);
	assert_int_equal(bc_xmit_hash_policy_from_name("vlansrc"), 5);
	assert_int_equal(bc_xmit_hash_policy_from_name("vlan+srcmac"), 5);
	assert_int_equal(bc_xmit_hash_policy_from_name("layer9"), -1);
	assert_string_equal(bc_xmit_hash_policy_name(2), "layer2+3");
}

static void test_lacp_words(void **state)
{
	char buf[160];

	(void)state;
	assert_string_equal(bc_lacp_state_words(63, buf, sizeof(buf)),
			    "activity timeout aggregation synchronization collecting distributing");
	assert_string_equal(bc_lacp_state_words(79, buf, sizeof(buf)),
			    "activity timeout aggregation synchronization defaulted");
	assert_string_equal(bc_lacp_state_words(0, buf, sizeof(buf)), "");
	/* truncation keeps a terminated prefix */
	assert_string_equal(bc_lacp_state_words(3, buf, 12), "activity");
}

static void test_snapshot(void **state)
{
	struct bc_snapshot s = { 0 };
	struct bc_bond *b;
	struct bc_finding *f;

	(void)state;
	b = bc_snapshot_add_bond(&s, "bond0");
	assert_non_null(bc_bond_add_slave(b, "eth0"));
	assert_non_null(bc_bond_add_slave(b, "eth1"));
	assert_ptr_equal(bc_bond_find_slave(b, "eth1"), &b->slaves[1]);
	assert_null(bc_bond_find_slave(b, "eth2"));
	f = bc_snapshot_add_finding(&s, "slave-down", BC_SEV_ERROR, "bond0/eth1");
	bc_finding_evidence(f, "mii_status", "%s", "down");
	assert_int_equal(f->n_evidence, 1);
	assert_string_equal(f->evidence[0].value, "down");
	bc_snapshot_free(&s);
	assert_int_equal(s.n_bonds, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_lacp_words),
		cmocka_unit_test(test_snapshot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
