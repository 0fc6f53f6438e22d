// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/mib-text.h"

static const char snmp[] =
	"Ip: Forwarding DefaultTTL InReceives ReasmReqds\n"
	"Ip: 1 64 123456 7\n"
	"Tcp: RtoAlgorithm MaxConn\n"
	"Tcp: 1 -1\n"
	"Udp: InDatagrams NoPorts InErrors OutDatagrams RcvbufErrors SndbufErrors\n"
	"Udp: 1000 2 3 999 3 12\n";

static void test_snmp(void **state)
{
	struct bc_mib m = {0};
	int64_t v;

	(void)state;
	assert_int_equal(bc_mib_parse(snmp, &m, NULL), 0);
	assert_int_equal(m.n, 12);
	assert_int_equal(bc_mib_get(&m, "Udp.SndbufErrors", &v), 0);
	assert_int_equal(v, 12);
	assert_int_equal(bc_mib_get(&m, "Ip.ReasmReqds", &v), 0);
	assert_int_equal(v, 7);
	assert_int_equal(bc_mib_get(&m, "Tcp.MaxConn", &v), 0);
	assert_int_equal(v, -1);
	assert_int_equal(bc_mib_get(&m, "Udp.Nope", &v), -ENOENT);
	bc_mib_free(&m);
}

static void test_snmp_bad(void **state)
{
	struct bc_mib m = {0};

	(void)state;
	assert_int_equal(bc_mib_parse("Ip: A B\nIp: 1\n", &m, NULL), -EBADMSG);
	bc_mib_free(&m);
	assert_int_equal(bc_mib_parse("Ip: A B\nUdp: 1 2\n", &m, NULL), -EBADMSG);
	bc_mib_free(&m);
	assert_int_equal(bc_mib_parse("Ip: A\nIp: x\n", &m, NULL), -EBADMSG);
	bc_mib_free(&m);
	assert_int_equal(bc_mib_parse("TcpExt: A\n", &m, NULL), -EBADMSG);
	bc_mib_free(&m);
}

static void test_softnet(void **state)
{
	struct bc_softnet s;

	(void)state;
	/* a 13-column line and an old short one */
	assert_int_equal(bc_softnet_parse("0000ff00 00000002 0000000a 00000000 00000000 00000000 "
					  "00000000 00000000 00000000 00000000 00000000 00000000 "
					  "00000000\n00000100 00000001 00000001\n",
					  &s, NULL),
			 0);
	assert_int_equal(s.cpus, 2);
	assert_int_equal(s.processed, 0xff00 + 0x100);
	assert_int_equal(s.dropped, 3);
	assert_int_equal(s.time_squeeze, 11);
	assert_int_equal(bc_softnet_parse("zz\n", &s, NULL), -EBADMSG);
}

static void test_cpu(void **state)
{
	struct bc_cpu_times c;

	(void)state;
	assert_int_equal(bc_cpu_times_parse("cpu  10 0 10 100 0 0 5 0 0 0\n"
					    "cpu0 1 2 3 40 5 6 7 8 0 0\n"
					    "cpu1 10 0 0 90 0 0 0 0\nintr 1 2\n",
					    &c, NULL),
			 0);
	assert_int_equal(c.n, 2);
	assert_int_equal(c.total[0], 72);
	assert_int_equal(c.busy[0], 72 - 40 - 5);
	assert_int_equal(c.softirq[0], 7);
	assert_int_equal(c.busy[1], 10);
	assert_int_equal(bc_cpu_times_parse("intr 1\n", &c, NULL), -EBADMSG);
}

/* /proc/net/udp and udp6 as a 6.1 kernel prints them: the drops column by the socket's inode */
static void test_proc_udp_drops(void **state)
{
	static const char udp[] =
		"   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   "
		"uid  timeout inode ref pointer drops\n"
		"  120: 00000000:14E9 00000000:0000 07 00000000:00000000 00:00000000 00000000   "
		"108        0 15721 2 0000000000000000 0\n"
		"  415: 0200000A:D613 0100000A:A0C1 01 00000000:00034500 00:00000000 00000000     "
		"0        0 40877 2 00000000b1d26cf3 1873\n";
	static const char udp6[] =
		"  sl  local_address                         remote_address                        "
		"st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops\n"
		"   67: 00000000000000000000000000000000:14E9 00000000000000000000000000000000:0000 "
		"07 00000000:00000000 00:00000000 00000000     0        0 52211 2 "
		"00000000deadbeef 42\n";
	static const char old[] =
		"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  "
		"timeout inode\n"
		"   1: 00000000:14E9 00000000:0000 07 00000000:00000000 00:00000000 00000000 0 0 9 "
		"2 ffff8800\n";
	static const char short_row[] =
		"   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   "
		"uid  timeout inode ref pointer drops\n"
		"  120: 00000000:14E9 00000000:0000 07 00000000:00000000\n";
	struct bc_error err = {0};
	uint64_t d = 7;

	(void)state;
	assert_int_equal(bc_proc_udp_drops(udp, 40877, &d, &err), 0);
	assert_int_equal(d, 1873);
	assert_int_equal(bc_proc_udp_drops(udp, 15721, &d, &err), 0);
	assert_int_equal(d, 0);
	d = 7;
	/* an inode that is another row's drops or uid is not a match */
	assert_int_equal(bc_proc_udp_drops(udp, 1873, &d, &err), -ENOENT);
	assert_int_equal(bc_proc_udp_drops(udp, 108, &d, &err), -ENOENT);
	assert_int_equal(d, 7);
	assert_int_equal(bc_proc_udp_drops(udp6, 52211, &d, &err), 0);
	assert_int_equal(d, 42);
	assert_int_equal(bc_proc_udp_drops(old, 9, &d, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "drops"));
	memset(&err, 0, sizeof(err));
	assert_int_equal(bc_proc_udp_drops(short_row, 15721, &d, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "13 columns"));
	assert_int_equal(bc_proc_udp_drops("", 1, &d, &err), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snmp),
		cmocka_unit_test(test_snmp_bad),
		cmocka_unit_test(test_softnet),
		cmocka_unit_test(test_cpu),
		cmocka_unit_test(test_proc_udp_drops),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
