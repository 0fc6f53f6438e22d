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

/* shares that round to 34+34+33 = 101 % add up to 100 % (issue 15) */
static void test_percent_round(void **state)
{
	const double three[] = {0.335, 0.335, 0.33}, thirds[] = {1.0 / 3, 1.0 / 3, 1.0 / 3};
	const double part[] = {0.125, 0.5}, bad[] = {-1, 0.5, 0.5};
	int p[3];

	(void)state;
	bc_percent_round(three, 3, p);
	assert_int_equal(p[0] + p[1] + p[2], 100);
	assert_int_equal(p[0], 34);
	assert_int_equal(p[1], 33);
	assert_int_equal(p[2], 33);
	bc_percent_round(thirds, 3, p);
	assert_int_equal(p[0], 34);
	assert_int_equal(p[1], 33);
	assert_int_equal(p[2], 33);
	/* a sum below 1 keeps its own rounded sum: 62.5 -> 63 */
	bc_percent_round(part, 2, p);
	assert_int_equal(p[0] + p[1], 63);
	bc_percent_round(bad, 3, p);
	assert_int_equal(p[0], 0);
	assert_int_equal(p[1] + p[2], 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_sizes_and_seconds),
		cmocka_unit_test(test_percent_round),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
