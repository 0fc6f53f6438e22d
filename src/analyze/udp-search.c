// SPDX-License-Identifier: GPL-2.0-or-later
/* The suite's UDP no-drop rate search; the method is in bondcheck/udp-search.h. */
#include "bondcheck/udp-search.h"

bool bc_udp_trial_no_drop(const struct bc_udp_trial *t)
{
	return t->sent > 0 && t->received >= t->sent && !t->refused;
}

double bc_udp_trial_rate(const struct bc_udp_trial *t)
{
	return t->sent_bps > 0 && t->sent_bps < t->rate_bps ? t->sent_bps : t->rate_bps;
}

double bc_udp_trial_loss(const struct bc_udp_trial *t)
{
	uint64_t offered = t->sent + t->refused;

	if (!t->sent || t->received >= offered)
		return 0;
	return (double)(offered - t->received) / (double)offered;
}

void bc_udp_search_result(const struct bc_udp_trial *t, size_t n, struct bc_udp_search_result *r)
{
	*r = (struct bc_udp_search_result){0};
	for (size_t i = 0; i < n; i++) {
		double rate = bc_udp_trial_rate(&t[i]);

		if (bc_udp_trial_no_drop(&t[i])) {
			if (rate > r->no_drop_bps)
				r->no_drop_bps = rate;
		} else if (!r->drop_bps || rate < r->drop_bps) {
			r->drop_bps = rate;
		}
		if (t[i].sent && bc_udp_trial_loss(&t[i]) <= BC_UDP_PDR_LOSS && rate > r->pdr_bps)
			r->pdr_bps = rate;
	}
	if (r->no_drop_bps > 0 && r->drop_bps > r->no_drop_bps)
		r->resolution_bps = r->drop_bps - r->no_drop_bps;
}

double bc_udp_search_next(double start_bps, bool start_is_ceiling, const struct bc_udp_trial *t,
			  size_t n, size_t max_trials)
{
	struct bc_udp_search_result r;
	double lo, hi, delivered = 0, next;

	if (n >= max_trials || start_bps <= 0)
		return 0;
	if (!n)
		return start_bps;
	bc_udp_search_result(t, n, &r);
	lo = r.no_drop_bps;
	hi = r.drop_bps;
	if (hi <= 0) /* nothing dropped yet */
		return start_is_ceiling ? 0 : lo * 1.25;
	for (size_t i = 0; i < n; i++)
		if (bc_udp_trial_rate(&t[i]) == hi)
			delivered = t[i].received_bps;
	if (lo <= 0) { /* down in steps of at most 10 % (RFC 2544 26.3), or to the estimate */
		next = 0.97 * delivered < 0.9 * hi ? 0.97 * delivered : 0.9 * hi;
		return next > 0 ? next : hi / 2;
	}
	if (hi <= lo || hi - lo <= BC_UDP_SEARCH_RESOLUTION * hi)
		return 0;
	next = 1.06 * lo > 1.03 * delivered ? 1.06 * lo : 1.03 * delivered;
	if (next > (lo + hi) / 2)
		next = (lo + hi) / 2;
	return next;
}
