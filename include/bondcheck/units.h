/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Option values with units.  Rates are decimal SI (k = 1000, M = 10^6,
 * G = 10^9, T = 10^12) in bits/s, as every rate in bondcheck; sizes are
 * bytes with binary suffixes (K = 1024, M = 2^20, G = 2^30); durations are
 * seconds with an optional fraction.
 */
#ifndef BONDCHECK_UNITS_H
#define BONDCHECK_UNITS_H

#include <stdint.h>

/* bc_parse_rate() - "100M", "1.5G", "500k", "2000" -> bits/s.  0 or -EINVAL. */
int bc_parse_rate(const char *s, double *bps);

/* bc_parse_size() - "1472", "4M", "64K" -> bytes.  0 or -EINVAL (also above 2^40). */
int bc_parse_size(const char *s, uint64_t *bytes);

/* bc_parse_seconds() - "10", "0.5" -> ms (rounded).  0 or -EINVAL (negative, > 1 day). */
int bc_parse_seconds(const char *s, uint32_t *ms);

/* bc_format_rate() - "95.61 Mbit/s" into @buf. */
const char *bc_format_rate(double bps, char *buf, unsigned len);

/*
 * bc_percent_round() - shares (fractions, @n of them) as whole percents that
 * add up to exactly the rounded sum of the shares (100 when they add up to
 * 1), by the largest-remainder (Hamilton) method: each share is truncated,
 * then the points left over go one each to the shares with the largest
 * remainders (ties to the earlier one).  Negative or non-finite shares
 * count as 0.  Writes @pct[0..n).
 */
void bc_percent_round(const double *share, unsigned n, int *pct);

#endif
