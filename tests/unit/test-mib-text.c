// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_snmp),
		cmocka_unit_test(test_snmp_bad),
		cmocka_unit_test(test_softnet),
		cmocka_unit_test(test_cpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
