// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Welch's t on log goodput for `bondcheck scale` (bondcheck/scale-stats.h:
 * formulas and sources there).  Means and sds by gsl_stats_*, t quantiles
 * and tails by gsl_cdf_tdist_*.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_statistics_double.h>

#include "bondcheck/scale-stats.h"

const char *bc_scale_verdict_name(enum bc_scale_verdict v)
{
	switch (v) {
	case BC_SCALE_GAIN:
		return "gain";
	case BC_SCALE_FLAT:
		return "scaling-flat";
	case BC_SCALE_NEGATIVE:
		return "scaling-negative";
	default:
		return "invalid";
	}
}

static bool bad_level(double level)
{
	return !(level > 0 && level < 1);
}

int bc_scale_sample_stats(const double *g, size_t n, double level, struct bc_scale_sample *out,
			  struct bc_error *err)
{
	double *lg;

	*out = (struct bc_scale_sample){.n = n,
					.log_mean = NAN,
					.log_sd = NAN,
					.geo_mean_bps = NAN,
					.ci_low_bps = NAN,
					.ci_high_bps = NAN};
	if (!n)
		return bc_error_set(err, -EINVAL, "no runs to summarise; expected at least one");
	if (bad_level(level))
		return bc_error_set(err, -EINVAL, "confidence level %g; expected 0 < level < 1",
				    level);
	for (size_t i = 0; i < n; i++) {
		if (!(g[i] >= 0))
			return bc_error_set(err, -EINVAL,
					    "run %zu has goodput %g; expected bits/s >= 0", i,
					    g[i]);
		if (g[i] == 0)
			out->zeros++;
	}
	out->mean_bps = gsl_stats_mean(g, 1, n);
	out->sd_bps = n > 1 ? gsl_stats_sd_m(g, 1, n, out->mean_bps) : 0;
	if (out->zeros)
		return 0; /* ln 0: the log statistics stay NAN and the caller names the runs */
	lg = malloc(n * sizeof(*lg));
	if (!lg)
		return bc_error_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		lg[i] = log(g[i]);
	out->log_mean = gsl_stats_mean(lg, 1, n);
	out->geo_mean_bps = exp(out->log_mean);
	if (n > 1) {
		double h;

		gsl_set_error_handler_off();
		out->log_sd = gsl_stats_sd_m(lg, 1, n, out->log_mean);
		h = gsl_cdf_tdist_Pinv((1 + level) / 2, (double)(n - 1)) * out->log_sd /
		    sqrt((double)n);
		out->ci_low_bps = exp(out->log_mean - h);
		out->ci_high_bps = exp(out->log_mean + h);
	}
	free(lg);
	return 0;
}

int bc_scale_compare(const struct bc_scale_sample *a, const struct bc_scale_sample *b,
		     double margin, double level, double added_ceiling_bps,
		     struct bc_scale_cmp *out, struct bc_error *err)
{
	double va, vb, den;

	*out = (struct bc_scale_cmp){.speedup = NAN,
				     .ci_low = NAN,
				     .ci_high = NAN,
				     .diff_log = NAN,
				     .se_log = NAN,
				     .welch_t = NAN,
				     .df = NAN,
				     .p = NAN,
				     .t_quantile = NAN,
				     .marginal_efficiency = NAN,
				     .verdict = BC_SCALE_INVALID};
	if (!(margin >= 0))
		return bc_error_set(err, -EINVAL, "margin %g; expected 0 or more (0.05 = 5 %%)",
				    margin);
	if (bad_level(level))
		return bc_error_set(err, -EINVAL, "confidence level %g; expected 0 < level < 1",
				    level);
	if (added_ceiling_bps > 0)
		out->marginal_efficiency = (b->mean_bps - a->mean_bps) / added_ceiling_bps;
	if (a->zeros || b->zeros) {
		out->invalid_reason = "a run had zero goodput: the log of 0 is undefined, so the "
				      "comparison has no confidence interval";
		return 0;
	}
	if (a->n < 2 || b->n < 2) {
		out->invalid_reason = "a configuration has fewer than 2 runs: no variance, no "
				      "confidence interval";
		return 0;
	}
	gsl_set_error_handler_off();
	out->valid = true;
	out->diff_log = b->log_mean - a->log_mean;
	out->speedup = exp(out->diff_log);
	va = a->log_sd * a->log_sd / (double)a->n;
	vb = b->log_sd * b->log_sd / (double)b->n;
	out->se_log = sqrt(va + vb);
	den = va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1);
	/* both sds 0: the Welch-Satterthwaite ratio is 0/0; its limit for equal
	 * variances is the pooled df */
	out->df = den > 0 ? (va + vb) * (va + vb) / den : (double)(a->n + b->n - 2);
	out->t_quantile = gsl_cdf_tdist_Pinv((1 + level) / 2, out->df);
	if (out->se_log > 0) {
		out->welch_t = out->diff_log / out->se_log;
		out->p = 2 * gsl_cdf_tdist_Q(fabs(out->welch_t), out->df);
	} else {
		out->p = out->diff_log == 0 ? 1 : 0;
	}
	out->ci_low = exp(out->diff_log - out->t_quantile * out->se_log);
	out->ci_high = exp(out->diff_log + out->t_quantile * out->se_log);
	if (out->ci_low > 1 + margin)
		out->verdict = BC_SCALE_GAIN;
	else if (out->ci_high < 1)
		out->verdict = BC_SCALE_NEGATIVE;
	else
		out->verdict = BC_SCALE_FLAT;
	return 0;
}
