// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Welch's t on log goodput (bondcheck/scale-stats.h) against values computed
 * independently with mpmath (no GSL): tests/data/scale/welch-reference.py,
 * its output saved beside it as welch-reference.out.  t quantiles are also
 * checked against the printed table value t_{0.975,4} = 2.776 (NIST/SEMATECH
 * e-Handbook, table 1.3.6.7.2).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bondcheck/scale-stats.h"

/* relative tolerance: the reference has 12 significant digits */
#define assert_rel(got, want, rel)                                                                 \
	assert_true(fabs((double)(got) - (double)(want)) <= fabs((double)(want)) * (rel))

struct ref {
	double a[5], b[5];
	size_t na, nb;
	double speedup, lo, hi, t, df, p, tq;
	enum bc_scale_verdict verdict;
};

static const struct ref refs[] = {
	/* "gain": two links carry twice one */
	{{9.40e6, 9.52e6, 9.31e6, 9.47e6, 9.44e6},
	 {18.7e6, 18.9e6, 18.4e6, 18.8e6, 18.6e6},
	 5,
	 5,
	 1.98130399026,
	 1.95409863895,
	 2.00888809989,
	 114.848546106,
	 7.68890241218,
	 1.02237886592e-13,
	 2.32234605482,
	 BC_SCALE_GAIN},
	/* "negative": field note 1, 3 links (138.7) against 2 (157.6) */
	{{157.6e6, 155.1e6, 158.9e6, 156.0e6, 157.2e6},
	 {138.7e6, 141.2e6, 136.9e6, 139.5e6, 137.8e6},
	 5,
	 5,
	 0.884410309708,
	 0.870619714905,
	 0.898419347193,
	 -18.1954226938,
	 7.58791637788,
	 1.55891059691e-7,
	 2.32798579195,
	 BC_SCALE_NEGATIVE},
	/* "flat": the CI straddles 1 */
	{{28.1e6, 27.5e6, 28.6e6, 27.9e6, 28.3e6},
	 {28.4e6, 27.2e6, 28.9e6, 28.0e6, 27.8e6},
	 5,
	 5,
	 0.999167836869,
	 0.970768748307,
	 1.02839771879,
	 -0.0685462087153,
	 6.86420189842,
	 0.947304768445,
	 2.37414065304,
	 BC_SCALE_FLAT},
	/* "unequal": 3 runs against 4, unequal variances */
	{{10e6, 12e6, 11e6},
	 {20e6, 26e6, 21e6, 24e6},
	 3,
	 4,
	 2.06261019302,
	 1.67865256697,
	 2.53439031522,
	 9.04723236774,
	 4.97755825953,
	 0.000282261578534,
	 2.5740716636,
	 BC_SCALE_GAIN},
	/* "under-margin": significant (p 3e-9) but 2 % < the 5 % margin: flat */
	{{100.0e6, 100.2e6, 99.9e6, 100.1e6, 100.0e6},
	 {102.0e6, 102.1e6, 101.9e6, 102.2e6, 102.0e6},
	 5,
	 5,
	 1.01999202376,
	 1.01831460284,
	 1.02167220783,
	 27.7356490971,
	 7.99686822539,
	 3.09922304311e-9,
	 2.30616133945,
	 BC_SCALE_FLAT},
};

static void test_against_reference(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		const struct ref *r = &refs[i];
		struct bc_scale_sample a, b;
		struct bc_scale_cmp c;

		assert_int_equal(bc_scale_sample_stats(r->a, r->na, BC_SCALE_LEVEL, &a, NULL), 0);
		assert_int_equal(bc_scale_sample_stats(r->b, r->nb, BC_SCALE_LEVEL, &b, NULL), 0);
		assert_int_equal(
			bc_scale_compare(&a, &b, BC_SCALE_MARGIN, BC_SCALE_LEVEL, 0, &c, NULL), 0);
		assert_true(c.valid);
		assert_rel(c.speedup, r->speedup, 1e-9);
		assert_rel(c.ci_low, r->lo, 1e-9);
		assert_rel(c.ci_high, r->hi, 1e-9);
		assert_rel(c.welch_t, r->t, 1e-8);
		assert_rel(c.df, r->df, 1e-9);
		assert_rel(c.t_quantile, r->tq, 1e-8);
		/* tails: GSL's t tail at 1e-13 is good to a few digits */
		assert_rel(c.p, r->p, 1e-5);
		assert_int_equal(c.verdict, r->verdict);
		assert_true(isnan(c.marginal_efficiency));
	}
}

static void test_sample_ci(void **state)
{
	/* reference "gain", configuration A: geo 9427733.36363 CI 9329756.5918-9526739.04202 */
	struct bc_scale_sample s;

	(void)state;
	assert_int_equal(bc_scale_sample_stats(refs[0].a, 5, BC_SCALE_LEVEL, &s, NULL), 0);
	assert_int_equal(s.n, 5);
	assert_int_equal(s.zeros, 0);
	assert_rel(s.mean_bps, 9428000.0, 1e-12);
	assert_rel(s.geo_mean_bps, 9427733.36363, 1e-10);
	assert_rel(s.ci_low_bps, 9329756.5918, 1e-10);
	assert_rel(s.ci_high_bps, 9526739.04202, 1e-10);
	/* "unequal", B (4 runs, t_{0.975,3}): 22626035.8036, 18677565.8864-27409219.1295 */
	assert_int_equal(bc_scale_sample_stats(refs[3].b, 4, BC_SCALE_LEVEL, &s, NULL), 0);
	assert_rel(s.geo_mean_bps, 22626035.8036, 1e-10);
	assert_rel(s.ci_low_bps, 18677565.8864, 1e-10);
	assert_rel(s.ci_high_bps, 27409219.1295, 1e-10);
	assert_rel(s.mean_bps, 22750000.0, 1e-12);
}

static void test_table_quantile(void **state)
{
	/* equal variances, 5 + 5 runs: df = 8 exactly; t_{0.975,8} = 2.306 (table) */
	double a[5] = {1, 2, 3, 4, 5}, b[5] = {2, 4, 6, 8, 10};
	struct bc_scale_sample sa, sb;
	struct bc_scale_cmp c;

	(void)state;
	assert_int_equal(bc_scale_sample_stats(a, 5, BC_SCALE_LEVEL, &sa, NULL), 0);
	assert_int_equal(bc_scale_sample_stats(b, 5, BC_SCALE_LEVEL, &sb, NULL), 0);
	assert_int_equal(bc_scale_compare(&sa, &sb, 0.05, BC_SCALE_LEVEL, 0, &c, NULL), 0);
	/* b = 2a: the log sds are equal, the difference of log means is ln 2 */
	assert_rel(c.df, 8, 1e-12);
	assert_rel(c.speedup, 2, 1e-12);
	assert_rel(c.t_quantile, 2.3060041352, 1e-9);
	/* one configuration of 5 runs: its interval uses t_{0.975,4} = 2.776 (table) */
	assert_int_equal(bc_scale_sample_stats(a, 5, BC_SCALE_LEVEL, &sa, NULL), 0);
	assert_rel(log(sa.ci_high_bps / sa.geo_mean_bps) / (sa.log_sd / sqrt(5)), 2.7764451052,
		   1e-9);
}

static void test_zero_goodput_invalid(void **state)
{
	double a[5] = {9e6, 9.2e6, 9.1e6, 9.3e6, 9.0e6}, b[5] = {18e6, 0, 18.2e6, 18.1e6, 0};
	struct bc_scale_sample sa, sb;
	struct bc_scale_cmp c;

	(void)state;
	assert_int_equal(bc_scale_sample_stats(b, 5, BC_SCALE_LEVEL, &sb, NULL), 0);
	assert_int_equal(sb.zeros, 2);
	assert_rel(sb.mean_bps, (18e6 + 18.2e6 + 18.1e6) / 5, 1e-12);
	assert_true(isnan(sb.geo_mean_bps) && isnan(sb.ci_low_bps));
	assert_int_equal(bc_scale_sample_stats(a, 5, BC_SCALE_LEVEL, &sa, NULL), 0);
	/* added ceiling 9.56 Mbit/s: marginal efficiency from the arithmetic means */
	assert_int_equal(bc_scale_compare(&sa, &sb, 0.05, BC_SCALE_LEVEL, 9.56e6, &c, NULL), 0);
	assert_false(c.valid);
	assert_int_equal(c.verdict, BC_SCALE_INVALID);
	assert_string_equal(bc_scale_verdict_name(c.verdict), "invalid");
	assert_non_null(c.invalid_reason);
	assert_true(isnan(c.speedup) && isnan(c.ci_low) && isnan(c.p));
	assert_rel(c.marginal_efficiency, (10.86e6 - 9.12e6) / 9.56e6, 1e-12);
}

static void test_degenerate(void **state)
{
	double one[1] = {5e6}, same[3] = {5e6, 5e6, 5e6}, twice[3] = {10e6, 10e6, 10e6};
	struct bc_scale_sample sa, sb;
	struct bc_scale_cmp c;
	struct bc_error err = {0};

	(void)state;
	/* one run: a mean, no interval; the comparison is invalid, not a crash */
	assert_int_equal(bc_scale_sample_stats(one, 1, BC_SCALE_LEVEL, &sa, NULL), 0);
	assert_true(isnan(sa.ci_low_bps));
	assert_rel(sa.geo_mean_bps, 5e6, 1e-12);
	assert_int_equal(bc_scale_sample_stats(same, 3, BC_SCALE_LEVEL, &sb, NULL), 0);
	assert_int_equal(bc_scale_compare(&sa, &sb, 0.05, BC_SCALE_LEVEL, 0, &c, NULL), 0);
	assert_false(c.valid);
	/* identical runs: sd 0 both sides, df = the pooled 4, exact ratio 2, gain */
	assert_int_equal(bc_scale_sample_stats(twice, 3, BC_SCALE_LEVEL, &sa, NULL), 0);
	assert_int_equal(bc_scale_compare(&sb, &sa, 0.05, BC_SCALE_LEVEL, 5e6, &c, NULL), 0);
	assert_true(c.valid);
	assert_rel(c.df, 4, 1e-12);
	assert_rel(c.speedup, 2, 1e-12);
	assert_rel(c.ci_low, 2, 1e-12);
	assert_true(isnan(c.welch_t));
	assert_true(c.p == 0);
	assert_int_equal(c.verdict, BC_SCALE_GAIN);
	assert_rel(c.marginal_efficiency, 1.0, 1e-12);
	/* same against same: flat, p 1 */
	assert_int_equal(bc_scale_compare(&sb, &sb, 0.05, BC_SCALE_LEVEL, 0, &c, NULL), 0);
	assert_int_equal(c.verdict, BC_SCALE_FLAT);
	assert_true(c.p == 1);
	/* bad input */
	assert_int_equal(bc_scale_sample_stats(one, 0, BC_SCALE_LEVEL, &sa, &err), -EINVAL);
	bc_error_clear(&err);
	one[0] = -1;
	assert_int_equal(bc_scale_sample_stats(one, 1, BC_SCALE_LEVEL, &sa, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "goodput -1"));
	bc_error_clear(&err);
	assert_int_equal(bc_scale_compare(&sb, &sb, -0.1, BC_SCALE_LEVEL, 0, &c, &err), -EINVAL);
	assert_int_equal(bc_scale_compare(&sb, &sb, 0.05, 1.0, 0, &c, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_against_reference),
		cmocka_unit_test(test_sample_ci),
		cmocka_unit_test(test_table_quantile),
		cmocka_unit_test(test_zero_goodput_invalid),
		cmocka_unit_test(test_degenerate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
