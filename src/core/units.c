// SPDX-License-Identifier: GPL-2.0-or-later
/* Rates, sizes and durations on the command line; see bondcheck/units.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bondcheck/units.h"

static int number(const char *s, double *v, char **end)
{
	if (!s || !*s)
		return -EINVAL;
	*v = strtod(s, end);
	if (*end == s || !isfinite(*v) || *v < 0)
		return -EINVAL;
	return 0;
}

int bc_parse_rate(const char *s, double *bps)
{
	char *end;
	double v, mul = 1;

	if (number(s, &v, &end) < 0)
		return -EINVAL;
	switch (*end) {
	case '\0':
		break;
	case 'k':
	case 'K':
		mul = 1e3;
		break;
	case 'm':
	case 'M':
		mul = 1e6;
		break;
	case 'g':
	case 'G':
		mul = 1e9;
		break;
	case 't':
	case 'T':
		mul = 1e12;
		break;
	default:
		return -EINVAL;
	}
	if (*end && end[1])
		return -EINVAL;
	*bps = v * mul;
	return 0;
}

int bc_parse_size(const char *s, uint64_t *bytes)
{
	char *end;
	double v, mul = 1;

	if (number(s, &v, &end) < 0)
		return -EINVAL;
	switch (*end) {
	case '\0':
		break;
	case 'k':
	case 'K':
		mul = 1024;
		break;
	case 'm':
	case 'M':
		mul = 1024 * 1024;
		break;
	case 'g':
	case 'G':
		mul = 1024.0 * 1024 * 1024;
		break;
	default:
		return -EINVAL;
	}
	if ((*end && end[1]) || v * mul > 1099511627776.0 || v * mul != floor(v * mul))
		return -EINVAL;
	*bytes = (uint64_t)(v * mul);
	return 0;
}

int bc_parse_seconds(const char *s, uint32_t *ms)
{
	char *end;
	double v;

	if (number(s, &v, &end) < 0 || *end || v > 86400)
		return -EINVAL;
	*ms = (uint32_t)llround(v * 1000);
	return 0;
}

const char *bc_format_rate(double bps, char *buf, unsigned len)
{
	if (bps >= 1e9)
		snprintf(buf, len, "%.3f Gbit/s", bps / 1e9);
	else if (bps >= 1e6)
		snprintf(buf, len, "%.2f Mbit/s", bps / 1e6);
	else if (bps >= 1e3)
		snprintf(buf, len, "%.2f kbit/s", bps / 1e3);
	else
		snprintf(buf, len, "%.0f bit/s", bps);
	return buf;
}

void bc_percent_round(const double *share, unsigned n, int *pct)
{
	double sum = 0;
	long left;

	for (unsigned i = 0; i < n; i++) {
		double v = isfinite(share[i]) && share[i] > 0 ? 100 * share[i] : 0;

		sum += v;
		pct[i] = (int)floor(v);
	}
	left = lround(sum);
	for (unsigned i = 0; i < n; i++)
		left -= pct[i];
	/* one point each to the largest remainders, at most once per share */
	for (; left > 0; left--) {
		double best = -1;
		unsigned b = n;

		for (unsigned i = 0; i < n; i++) {
			double v = isfinite(share[i]) && share[i] > 0 ? 100 * share[i] : 0,
			       rem = v - floor(v);

			if (pct[i] == (int)floor(v) && rem > best) {
				best = rem;
				b = i;
			}
		}
		if (b == n)
			break;
		pct[b]++;
	}
}
