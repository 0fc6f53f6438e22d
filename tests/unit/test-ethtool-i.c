// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Saved `ethtool -i DEV` and `ethtool DEV` text (src/decode/ethtool-i.c):
 * the two shared real cases (old 4-line and modern 10-line format), quoting
 * and prompts, CRLF, over-long values, and text that is not ethtool output.
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

#include "bondcheck/ethtool-i.h"

#define CASE01 BC_TEST_DATA "/ethtool-i/01-ixgbe-bond-slave-v6.15-rc1.txt"
#define CASE02 BC_TEST_DATA "/ethtool-i/02-e1000-bond-slave-old-format-2.6.32.txt"

static size_t slurp(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, cap, f);
	fclose(f);
	return n;
}

static void modern_format(void **state)
{
	struct bc_slave s = {0};
	struct bc_error err = {0};
	char buf[4096];
	size_t n = slurp(CASE01, buf, sizeof(buf));

	(void)state;
	assert_int_equal(bc_ethtool_i_parse(buf, n, &s, &err), 0);
	assert_true(s.drvinfo_present);
	assert_string_equal(s.driver, "ixgbe");
	assert_string_equal(s.driver_version, "6.15.0-rc1");
	assert_string_equal(s.fw_version, "0x00012b2c, 1.3429.0");
	assert_string_equal(s.bus_info, "0000:01:00.0");
}

static void old_format(void **state)
{
	struct bc_slave s = {0};
	char buf[4096];
	size_t n = slurp(CASE02, buf, sizeof(buf));

	(void)state;
	assert_int_equal(bc_ethtool_i_parse(buf, n, &s, NULL), 0);
	assert_string_equal(s.driver, "e1000");
	assert_string_equal(s.driver_version, "7.3.21-k5-NAPI");
	assert_string_equal(s.fw_version, "N/A"); /* kept as printed */
	assert_string_equal(s.bus_info, "0000:04:01.0");
	/* the link fields are not touched */
	assert_int_equal(s.speed_mbps.st, BC_NOT_REPORTED);
}

static void annotated_paste(void **state)
{
	static const char t[] = "[root@host ~]# ethtool -i eno1\r\n"
				"> driver: tg3\r\n"
				">   version: 3.137\r\n"
				"> bus-info: 0000:02:00.0   \r\n"
				"> firmware-version: 5719-v1.46 NCSI v1.5.33.0 extra-long-part\r\n";
	struct bc_slave s = {0};

	(void)state;
	assert_int_equal(bc_ethtool_i_parse(t, sizeof(t) - 1, &s, NULL), 0);
	assert_string_equal(s.driver, "tg3");
	assert_string_equal(s.driver_version, "3.137");
	assert_string_equal(s.bus_info, "0000:02:00.0");
	/* cut to the model's 31 bytes, never overflowing */
	assert_string_equal(s.fw_version, "5719-v1.46 NCSI v1.5.33.0 extra");
}

static void long_and_binary_values(void **state)
{
	char t[600];
	struct bc_slave s = {0};

	(void)state;
	memset(t, 'x', sizeof(t));
	memcpy(t, "driver: ", 8);
	t[20] = '\x01';
	assert_int_equal(bc_ethtool_i_parse(t, sizeof(t), &s, NULL), 0);
	assert_int_equal(strlen(s.driver), sizeof(s.driver) - 1);
	assert_int_equal(s.driver[12], '?'); /* byte 20 of the line, 12 of the value */
}

static void not_ethtool(void **state)
{
	static const char proc[] = "Ethernet Channel Bonding Driver: v3.7.1\n\nBonding Mode: x\n";
	static const char empty_drv[] = "driver: \nversion: 1\n";
	struct bc_slave s = {0};
	struct bc_error err = {0};

	(void)state;
	assert_int_equal(bc_ethtool_i_parse(proc, sizeof(proc) - 1, &s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "driver: NAME"));
	assert_non_null(strstr(err.msg, "Ethernet Channel Bonding"));
	assert_false(s.drvinfo_present);
	bc_error_clear(&err);
	assert_int_equal(bc_ethtool_i_parse(empty_drv, sizeof(empty_drv) - 1, &s, &err), -EINVAL);
	bc_error_clear(&err);
	assert_int_equal(bc_ethtool_i_parse("", 0, &s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "no such line"));
	assert_int_equal(bc_ethtool_i_parse("x", BC_ETHTOOL_TEXT_MAX + 1u, &s, NULL), -EFBIG);
}

static void link_settings(void **state)
{
	static const char t[] = "Settings for eth0:\n"
				"\tSupported ports: [ FIBRE ]\n"
				"\tSpeed: 10000Mb/s\n"
				"\tDuplex: Full\n"
				"\tPort: FIBRE\n"
				"\tAuto-negotiation: off\n"
				"\tLink detected: yes\n";
	struct bc_slave s = {0};

	(void)state;
	assert_int_equal(bc_ethtool_link_parse(t, sizeof(t) - 1, &s, NULL), 0);
	assert_int_equal(s.speed_mbps.st, BC_KNOWN);
	assert_int_equal(s.speed_mbps.v, 10000);
	assert_int_equal(s.duplex.v, 1);
	assert_int_equal(s.port.v, 4);
	assert_int_equal(s.autoneg.st, BC_KNOWN);
	assert_int_equal(s.autoneg.v, 0);
	assert_int_equal(s.carrier.v, 1);
}

static void link_down_unknown(void **state)
{
	static const char t[] = "Settings for eth1:\n"
				"\tSpeed: Unknown!\n"
				"\tDuplex: Unknown! (255)\n"
				"\tPort: Twisted Pair\n"
				"\tLink detected: no\n";
	struct bc_slave s = {0};

	(void)state;
	assert_int_equal(bc_ethtool_link_parse(t, sizeof(t) - 1, &s, NULL), 0);
	assert_int_equal(s.speed_mbps.st, BC_UNKNOWN);
	assert_int_equal(s.duplex.st, BC_UNKNOWN);
	assert_int_equal(s.port.v, 0);
	assert_int_equal(s.carrier.st, BC_KNOWN);
	assert_int_equal(s.carrier.v, 0);
	assert_int_equal(s.autoneg.st, BC_NOT_REPORTED);
}

static void link_not_ethtool(void **state)
{
	static const char t[] = "Speed: fast\nDuplex: maybe\nNIC statistics:\n rx_packets: 1\n";
	struct bc_slave s = {0};
	struct bc_error err = {0};

	(void)state;
	assert_int_equal(bc_ethtool_link_parse(t, sizeof(t) - 1, &s, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "Link detected"));
	assert_int_equal(s.speed_mbps.st, BC_NOT_REPORTED);
	assert_int_equal(s.duplex.st, BC_NOT_REPORTED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(modern_format),     cmocka_unit_test(old_format),
		cmocka_unit_test(annotated_paste),   cmocka_unit_test(long_and_binary_values),
		cmocka_unit_test(not_ethtool),	     cmocka_unit_test(link_settings),
		cmocka_unit_test(link_down_unknown), cmocka_unit_test(link_not_ethtool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
