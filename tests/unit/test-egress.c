// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bc_egress_lower_bond() on a fake /sys/class/net tree: a VLAN on a bond
 * (bond0.100 -> lower_bond0), a VLAN on that VLAN, a VLAN on a plain NIC,
 * a bond itself, a device with two lowers.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "traffic/egress.h"

static char root[64];

/* mkdir ROOT/@dev (and ROOT/@dev/bonding when @bond); lower_@lower -> ../@lower */
static void dev(const char *name, int bond, const char *lower)
{
	char p[256], t[256];

	snprintf(p, sizeof(p), "%s/%s", root, name);
	assert_int_equal(mkdir(p, 0755), 0);
	if (bond) {
		snprintf(p, sizeof(p), "%s/%s/bonding", root, name);
		assert_int_equal(mkdir(p, 0755), 0);
	}
	if (lower) {
		snprintf(p, sizeof(p), "%s/%s/lower_%s", root, name, lower);
		snprintf(t, sizeof(t), "../%s", lower);
		assert_int_equal(symlink(t, p), 0);
	}
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/bc-egress-XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd) ? -1 : 0;
}

static void test_lower_bond(void **state)
{
	char b[16] = "unchanged";
	char p[256], t[256];

	(void)state;
	dev("eth0", 0, NULL);
	dev("eth1", 0, NULL);
	dev("bond0", 1, NULL);
	dev("bond0.100", 0, "bond0");
	dev("bond0.100.7", 0, "bond0.100"); /* QinQ */
	dev("eth0.5", 0, "eth0");
	dev("team", 0, "eth0");
	snprintf(p, sizeof(p), "%s/team/lower_eth1", root);
	snprintf(t, sizeof(t), "../eth1");
	assert_int_equal(symlink(t, p), 0);

	assert_int_equal(bc_egress_lower_bond(root, "bond0.100", b, sizeof(b)), 0);
	assert_string_equal(b, "bond0");
	snprintf(b, sizeof(b), "unchanged");
	assert_int_equal(bc_egress_lower_bond(root, "bond0.100.7", b, sizeof(b)), 0);
	assert_string_equal(b, "bond0");
	snprintf(b, sizeof(b), "unchanged");
	/* a bond is itself the egress; a VLAN on a NIC has no bond below */
	assert_int_equal(bc_egress_lower_bond(root, "bond0", b, sizeof(b)), -ENOENT);
	assert_int_equal(bc_egress_lower_bond(root, "eth0.5", b, sizeof(b)), -ENOENT);
	assert_int_equal(bc_egress_lower_bond(root, "eth0", b, sizeof(b)), -ENOENT);
	/* two lowers: not one path to follow */
	assert_int_equal(bc_egress_lower_bond(root, "team", b, sizeof(b)), -ENOENT);
	assert_int_equal(bc_egress_lower_bond(root, "missing", b, sizeof(b)), -ENOENT);
	assert_string_equal(b, "unchanged");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lower_bond),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
