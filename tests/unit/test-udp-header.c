// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/udp-header.h"

static void test_wire_layout(void **state)
{
	struct bc_udphdr h = {.flags = BC_UDPHDR_F_OMIT,
			      .stream_id = 3,
			      .test_id = 0xdeadbeef,
			      .seq = 0x0000000100000002ull,
			      .send_ns = 0x1122334455667788ull};
	uint8_t buf[40];
	static const uint8_t want[32] = {
		0x42, 0x43, 0x4b, 0x31, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00,
		0x03, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
		0x00, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	};

	(void)state;
	assert_int_equal(bc_udphdr_encode(&h, buf, sizeof(buf)), 32);
	assert_memory_equal(buf, want, 32);
}

static void test_roundtrip_and_patch(void **state)
{
	struct bc_udphdr h = {.stream_id = 7, .test_id = 42, .seq = 5}, out;
	uint8_t buf[32];

	(void)state;
	assert_int_equal(bc_udphdr_encode(&h, buf, sizeof(buf)), 32);
	bc_udphdr_patch_seq(buf, (1ull << 40) + 9, 123456789012345ull);
	assert_int_equal(bc_udphdr_decode(buf, sizeof(buf), &out, NULL), 0);
	assert_int_equal(out.version, 1);
	assert_int_equal(out.stream_id, 7);
	assert_int_equal(out.test_id, 42);
	assert_true(out.seq == (1ull << 40) + 9);
	assert_true(out.send_ns == 123456789012345ull);
}

static void test_rejects(void **state)
{
	struct bc_udphdr h = {0}, out;
	struct bc_error err = {0};
	uint8_t buf[32];

	(void)state;
	assert_int_equal(bc_udphdr_encode(&h, buf, 31), -EMSGSIZE);
	bc_udphdr_encode(&h, buf, sizeof(buf));
	assert_int_equal(bc_udphdr_decode(buf, 31, &out, &err), -EMSGSIZE);
	bc_error_clear(&err);
	buf[0] = 'X';
	assert_int_equal(bc_udphdr_decode(buf, 32, &out, &err), -EBADMSG);
	assert_non_null(strstr(err.msg, "magic"));
	buf[0] = 0x42;
	buf[5] = 2;
	bc_error_clear(&err);
	assert_int_equal(bc_udphdr_decode(buf, 32, &out, &err), -EPROTONOSUPPORT);
	assert_non_null(strstr(err.msg, "version 2"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wire_layout),
		cmocka_unit_test(test_roundtrip_and_patch),
		cmocka_unit_test(test_rejects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
