// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "bondcheck/grow.h"

static void test_grow_doubles_and_keeps(void **state)
{
	int *a = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(bc_grow((void **)&a, &cap, 1, sizeof(*a), 4), 0);
	assert_int_equal(cap, 4); /* the first allocation */
	for (int i = 0; i < 4; i++)
		a[i] = i * 7;
	assert_int_equal(bc_grow((void **)&a, &cap, 4, sizeof(*a), 4), 0);
	assert_int_equal(cap, 4); /* already room */
	assert_int_equal(bc_grow((void **)&a, &cap, 9, sizeof(*a), 4), 0);
	assert_int_equal(cap, 16); /* 4 -> 8 -> 16 */
	for (int i = 0; i < 4; i++)
		assert_int_equal(a[i], i * 7);
	free(a);
}

static void test_grow_refuses_overflow(void **state)
{
	char *a = NULL;
	size_t cap = 0;

	(void)state;
	assert_int_equal(bc_grow((void **)&a, &cap, 10, 1, 0), 0);
	assert_int_equal(cap, 16); /* first 0 means 1, then doubling */
	/* elements * size beyond SIZE_MAX: refused, the array left as it was */
	assert_int_equal(bc_grow((void **)&a, &cap, SIZE_MAX / 8 + 1, 16, 0), -ENOMEM);
	assert_int_equal(cap, 16);
	assert_non_null(a);
	assert_int_equal(bc_grow((void **)&a, &cap, SIZE_MAX, 1, 0), -ENOMEM);
	assert_int_equal(cap, 16);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_doubles_and_keeps),
		cmocka_unit_test(test_grow_refuses_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
