/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `bondcheck scale` statistics: does a configuration of N+1 links beat one
 * of N?  Pure; the t distribution comes from GSL (gsl_cdf_tdist_Pinv/_Q).
 *
 * One value per run (the run's goodput over its whole measured time, never a
 * per-interval value: intervals of one run are not independent).  Goodput is
 * compared on the log scale, so the effect is a ratio (speed-up) and its
 * confidence interval is a ratio too:
 *
 *   x_i = ln(goodput_i / 1 bit/s)  per run of configuration A (N links) and B (N+1)
 *   d   = mean(x_B) - mean(x_A)                    speed-up = exp(d)
 *   se  = sqrt(s_A^2/n_A + s_B^2/n_B)              (s: sample sd, n - 1 divisor)
 *   t   = d / se                                   Welch's t (Welch 1947)
 *   df  = se^4 / ((s_A^2/n_A)^2/(n_A-1) + (s_B^2/n_B)^2/(n_B-1))
 *                                                  Welch-Satterthwaite (Satterthwaite 1946)
 *   CI  = exp(d -+ t_{(1+level)/2, df} x se)       the CI of the ratio of geometric means
 *   p   = 2 Q_t(|t|, df)                           two-sided
 *
 * (NIST/SEMATECH e-Handbook of Statistical Methods 7.3.1, "Two-sample t-test
 * for equal means", unequal variances; the log transform makes the
 * difference of means a ratio, as in Limpert et al. 2001, "Log-normal
 * distributions across the sciences".)
 *
 * Verdict against a practical margin m (0.05 by default):
 *   gain              CI low > 1 + m: N+1 beats N by more than the margin;
 *   scaling-negative  CI high < 1: N+1 is significantly worse than N (any
 *                     significant loss counts: adding a link must never cost
 *                     goodput, so no margin is granted on this side);
 *   scaling-flat      otherwise: no significant gain (or one smaller than m);
 *   invalid           a configuration has fewer than 2 runs, or a run with
 *                     zero goodput (ln 0 is undefined; the runs are named by
 *                     the caller, never dropped).
 *
 * Units: goodput in bits/s; ratios and efficiencies dimensionless.
 */
#ifndef BONDCHECK_SCALE_STATS_H
#define BONDCHECK_SCALE_STATS_H

#include <stdbool.h>
#include <stddef.h>

#include "bondcheck/error.h"

#define BC_SCALE_LEVEL	0.95 /* confidence level of every interval */
#define BC_SCALE_MARGIN 0.05 /* default practical margin */

/* One configuration's runs, summarised. */
struct bc_scale_sample {
	size_t n;	     /* runs */
	size_t zeros;	     /* runs with goodput <= 0 */
	double mean_bps;     /* arithmetic mean of the goodputs */
	double sd_bps;	     /* sample standard deviation (n - 1); 0 for n < 2 */
	double log_mean;     /* mean of ln(goodput); NAN when zeros > 0 */
	double log_sd;	     /* sample sd of ln(goodput); NAN when zeros > 0 or n < 2 */
	double geo_mean_bps; /* exp(log_mean); NAN when zeros > 0 */
	/* @level CI of the geometric mean, exp(log_mean -+ t_{(1+level)/2, n-1}
	 * log_sd / sqrt(n)); NAN when n < 2 or zeros > 0 */
	double ci_low_bps, ci_high_bps;
};

enum bc_scale_verdict {
	BC_SCALE_GAIN = 0,
	BC_SCALE_FLAT,
	BC_SCALE_NEGATIVE,
	BC_SCALE_INVALID,
};

/* Configuration A (N links) against B (N+1, or more). */
struct bc_scale_cmp {
	bool valid;		    /* false: verdict BC_SCALE_INVALID, statistics NAN */
	const char *invalid_reason; /* static text when !valid */
	double speedup;		    /* geo_mean(B) / geo_mean(A) */
	double ci_low, ci_high;	    /* @level CI of the speed-up */
	double diff_log;	    /* d */
	double se_log;		    /* se */
	double welch_t;		    /* t; NAN when se = 0 */
	double df;		    /* Welch-Satterthwaite df (n_A + n_B - 2 when both sds are 0) */
	double p;		    /* two-sided p-value */
	double t_quantile;	    /* t_{(1+level)/2, df} */
	/* (mean_B - mean_A) / @added_ceiling_bps: the share of the added links'
	 * ceiling that the change delivered; NAN when that ceiling is unknown */
	double marginal_efficiency;
	enum bc_scale_verdict verdict;
};

/*
 * bc_scale_sample_stats() - summarise @n goodputs (bits/s) with a @level
 * (0 < level < 1) interval.  Returns 0; -EINVAL for n = 0, a NaN or negative
 * goodput, or a level outside (0, 1).
 */
int bc_scale_sample_stats(const double *goodput_bps, size_t n, double level,
			  struct bc_scale_sample *out, struct bc_error *err);

/*
 * bc_scale_compare() - Welch's t on log goodput of @b against @a (samples
 * from bc_scale_sample_stats()) with the @level CI of the speed-up and the
 * verdict against @margin (>= 0, e.g. 0.05 = 5 %).  @added_ceiling_bps: the
 * ceiling of the links B has and A lacks (0: unknown).  Returns 0 (an
 * invalid comparison is a result, not an error: out->valid false);
 * -EINVAL for a margin below 0 or a level outside (0, 1).
 */
int bc_scale_compare(const struct bc_scale_sample *a, const struct bc_scale_sample *b,
		     double margin, double level, double added_ceiling_bps,
		     struct bc_scale_cmp *out, struct bc_error *err);

/* bc_scale_verdict_name() - "gain", "scaling-flat", "scaling-negative", "invalid". */
const char *bc_scale_verdict_name(enum bc_scale_verdict v);

#endif
