// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bondcheck/units.h"

static void test_rates(void **state)
{
	double v;

	(void)state;
	assert_int_equal(bc_parse_rate("100M", &v), 0);
	assert_true(v == 100e6);
	assert_int_equal(bc_parse_rate("1.5G", &v), 0);
	assert_true(v == 1.5e9);
	assert_int_equal(bc_parse_rate("500k", &v), 0);
	assert_true(v == 500e3); /* SI: k = 1000, not 1024 */
	assert_int_equal(bc_parse_rate("2000", &v), 0);
	assert_true(v == 2000);
	assert_int_equal(bc_parse_rate("10X", &v), -EINVAL);
	assert_int_equal(bc_parse_rate("10Mb", &v), -EINVAL);
	assert_int_equal(bc_parse_rate("-1M", &v), -EINVAL);
	assert_int_equal(bc_parse_rate("", &v), -EINVAL);
}

static void test_sizes_and_seconds(void **state)
{
	uint64_t b;
	uint32_t ms;

	(void)state;
	assert_int_equal(bc_parse_size("1472", &b), 0);
	assert_int_equal(b, 1472);
	assert_int_equal(bc_parse_size("4M", &b), 0);
	assert_int_equal(b, 4194304);
	assert_int_equal(bc_parse_size("1.5", &b), -EINVAL);
	assert_int_equal(bc_parse_seconds("0.5", &ms), 0);
	assert_int_equal(ms, 500);
	assert_int_equal(bc_parse_seconds("10", &ms), 0);
	assert_int_equal(ms, 10000);
	assert_int_equal(bc_parse_seconds("1s", &ms), -EINVAL);
	assert_int_equal(bc_parse_seconds("100000", &ms), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_sizes_and_seconds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
