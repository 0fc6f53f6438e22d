// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict inputs (struct bc_suite_facts) from the decoded suite
 * document (bondcheck/suite-doc.h): the ceilings, the per-link rows, the
 * tests and the ledger.  No member is looked up by key here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/suite-int.h"
#include "bondcheck/model.h"
#include "bondcheck/units.h"

/* A decoded number, NAN when unknown, as the facts' "unknown" @unknown. */
static double or (double v, double unknown)
{
	return isnan(v) ? unknown : v;
}

/* The usable client slaves' ceilings (@udp: UDP) and their count; *@all_known when none is null. */
static size_t usable_ceilings(const struct bc_suite_doc *d, bool udp, double *out, size_t max,
			      bool *all_known)
{
	size_t n = 0;

	*all_known = true;
	for (size_t i = 0; i < d->n_ceil[0] && n < max; i++) {
		const struct bc_suite_doc_ceiling *s = &d->ceil[0][i];

		if (!s->usable)
			continue;
		out[n] = or (udp ? s->udp_ceiling_bps : s->tcp_ceiling_bps, 0);
		if (!(out[n] > 0))
			*all_known = false;
		n++;
	}
	return n;
}

/*
 * The mode-aware bond ceiling (suite-verdict.h): balance-rr, placed hash
 * modes: sum of the usable slaves; unplaced hash modes: sum over the links
 * the aggregate flows used (@used_share: the client rows of tcp-k);
 * active-backup: the active slave; broadcast: the slowest; no bond: the
 * interface.  0 when a needed ceiling is unknown.
 */
static double bond_ceiling(const struct bc_suite_facts *f, const double *c, size_t n,
			   bool all_known, const struct bc_suite_doc *rows)
{
	double sum = 0, min = 0;

	if (!n || !all_known)
		return 0;
	for (size_t i = 0; i < n; i++) {
		sum += c[i];
		if (!i || c[i] < min)
			min = c[i];
	}
	switch (f->mode) {
	case BC_MODE_BROADCAST:
		return min;
	case BC_MODE_XOR:
	case BC_MODE_8023AD:
	case BC_MODE_TLB:
	case BC_MODE_ALB:
		if (f->placed)
			return sum;
		sum = 0;
		for (size_t i = 0; rows && i < rows->n_rows; i++) {
			const struct bc_suite_doc_row *r = &rows->row[i];

			if (!strcmp(r->test, "tcp-k") && !strcmp(r->end, "client") && or
			    (r->share, 0) >= 0.01) {
				double v = or (r->ceiling_bps, 0);

				if (!(v > 0))
					return 0;
				sum += v;
			}
		}
		return sum;
	default: /* balance-rr, active-backup (its one usable slave), no bond */
		return sum;
	}
}

static const struct bc_suite_doc_result *result(const struct bc_suite_doc *d, const char *test)
{
	return !strcmp(test, "tcp-k")	? &d->tcp_k
	       : !strcmp(test, "tcp-1") ? &d->tcp_1
					: &d->udp_over;
}

static void evidence(const struct bc_suite_doc *d, const char *test, const char *end,
		     struct bc_suite_evidence *e)
{
	const int ei = !strcmp(end, "agent");
	const struct bc_suite_doc_result *res = result(d, test);

	memset(e, 0, sizeof(*e));
	e->cpu_bound = res->have && res->cpu_bound;
	for (size_t i = 0; i < d->n_rows && e->n < BC_SUITE_MAX_LINKS; i++) {
		const struct bc_suite_doc_row *r = &d->row[i];
		struct bc_suite_link *l = &e->l[e->n];
		bool ok = false;

		if (strcmp(r->test, test) || strcmp(r->end, end))
			continue;
		for (size_t k = 0; k < d->n_ceil[ei]; k++)
			if (!strcmp(d->ceil[ei][k].name, r->name))
				ok = d->ceil[ei][k].usable;
		if (!ok)
			continue;
		e->measured = true;
		snprintf(l->name, sizeof(l->name), "%s", r->name);
		snprintf(l->driver, sizeof(l->driver), "%s", r->driver);
		l->speed_mbps = r->speed_mbps;
		l->ceiling_bps = or (r->ceiling_bps, 0);
		l->goodput_bps = or (r->goodput_bps, -1);
		l->retransmits = r->retransmits;
		l->frames = r->frames;
		l->drops = r->drops;
		e->n++;
	}
}

/* What a mismatch finding's evidence says, in a few words. */
static void mismatch_detail(const struct bc_suite_doc_finding *fd, char *out, size_t len)
{
	out[0] = '\0';
	if (!strcmp(fd->id, "driver-mismatch"))
		snprintf(out, len, "drivers %s", fd->drivers);
	else if (!strcmp(fd->id, "speed-mismatch"))
		snprintf(out, len, "speeds %s Mb/s", fd->speeds_mbps);
	else if (!strcmp(fd->id, "offload-mismatch"))
		snprintf(out, len, "offloads%s%s", fd->evidence_keys[0] ? " " : "",
			 fd->evidence_keys);
	else
		snprintf(out, len, "%s", fd->id);
}

static void mismatches(const struct bc_suite_doc *d, struct bc_suite_facts *f)
{
	static const char *const ids[] = {"driver-mismatch", "speed-mismatch", "offload-mismatch"};
	static const char *const ends[2] = {"client", "agent"};
	double lo = 0, hi = 0;
	char list[120] = "";
	size_t n = 0;

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		char t[2][120] = {"", ""};

		for (int e = 0; e < 2; e++)
			for (size_t k = 0; k < d->bond[e].n_findings; k++)
				if (!strcmp(d->bond[e].finding[k].id, ids[i]))
					mismatch_detail(&d->bond[e].finding[k], t[e], sizeof(t[e]));
		for (int e = 0; e < 2 && f->n_mismatch < BC_SUITE_MAX_MISMATCH; e++) {
			if (!t[e][0] || (e == 1 && !strcmp(t[0], t[1])))
				continue;
			snprintf(f->mismatch[f->n_mismatch++], sizeof(f->mismatch[0]), "%s (%s)",
				 t[e], !e && !strcmp(t[0], t[1]) ? "both ends" : ends[e]);
		}
	}
	for (size_t i = 0; i < d->n_ceil[0]; i++) {
		const struct bc_suite_doc_ceiling *s = &d->ceil[0][i];
		double c = or (s->tcp_ceiling_bps, 0);
		char r[32];

		if (!s->usable || !(c > 0))
			continue;
		if (!n || c < lo)
			lo = c;
		if (!n || c > hi)
			hi = c;
		n++;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s %s",
			 strlen(list) ? ", " : "", s->name, bc_format_rate(c, r, sizeof(r)));
	}
	if (n > 1 && hi > lo * (1 + BC_VERDICT_CEILING_SPREAD) &&
	    f->n_mismatch < BC_SUITE_MAX_MISMATCH)
		snprintf(f->mismatch[f->n_mismatch++], sizeof(f->mismatch[0]),
			 "TCP ceilings %s (client)", list);
}

/* The ledger stage with the largest drop and the loss finding with the largest count. */
static void gap(const struct bc_suite_doc *d, struct bc_suite_facts *f)
{
	const struct bc_suite_doc_result *res = &d->udp_over;
	long long best = 0;

	for (size_t i = 0; i < res->n_stages; i++) {
		const struct bc_suite_doc_stage *s = &res->stage[i];

		if (res->fragmented && s->drop > 0 &&
		    (!strcmp(s->stage, "reassembled") || !strcmp(s->stage, "reached_socket")) &&
		    !res->has_reassembly)
			f->reasm_missing = true;
		if (s->drop > f->gap_stage_drop) {
			f->gap_stage_drop = s->drop;
			f->gap_stage = s->stage;
		}
	}
	for (size_t i = 0; i < res->n_findings; i++) {
		const struct bc_suite_doc_finding *fd = &res->finding[i];
		long long c = fd->count > 0 ? fd->count : 0;

		if (!bc_suite_loss_id(fd->id) || c <= best)
			continue;
		best = c;
		f->gap_finding = fd->id;
		f->gap_link = fd->subject;
		f->gap_host = fd->host;
		f->gap_counter = fd->counter;
		f->gap_count = c;
	}
	/* nothing lost after the send, but the kernel refused sends: a qdisc on
	 * the sender's slave was full ("qdisc drops tx:client/eth1 +12") */
	if (!f->gap_finding && !f->gap_stage_drop && f->udp_send_errors && f->refused_counter) {
		const char *q = strstr(f->refused_counter, "qdisc drops ");

		f->gap_stage = "refused_at_send";
		f->gap_count = (long long)f->udp_send_errors;
		f->gap_counter = f->refused_counter;
		if (q) {
			q += strlen("qdisc drops ");
			snprintf(f->gap_link_buf, sizeof(f->gap_link_buf), "%.*s",
				 (int)strcspn(q, " ,"), q);
			f->gap_link = f->gap_link_buf;
		}
	}
}

void bc_suite_facts_fill(const struct bc_suite_doc *d, struct bc_suite_facts *f)
{
	const struct bc_suite_doc_result *agg = &d->tcp_k, *base = &d->tcp_1, *over = &d->udp_over;
	double c[BC_SUITE_MAX_LINKS];
	bool known;
	size_t n;

	bc_suite_facts_init(f);
	f->mode = d->mode;
	if (d->bond[0].active_slave[0])
		f->active_slave = d->bond[0].active_slave;
	f->placed = d->placed;
	f->unplaced_reason = d->unplaced_reason;
	f->flows = (unsigned)d->placement_flows;
	if (agg->have) {
		/* unknown (absent: recorded in d->need[]) is "not measured" */
		f->agg_bps = or (agg->goodput_bps, -1);
		f->agg_cpu_bound = agg->cpu_bound;
		f->flows = (unsigned)agg->n_streams;
	}
	if (base->have)
		f->base_bps = or (base->goodput_bps, -1);

	n = usable_ceilings(d, false, c, BC_SUITE_MAX_LINKS, &known);
	f->n_usable = n;
	for (size_t i = 0; known && i < n; i++)
		if (c[i] > f->link_ceiling_bps)
			f->link_ceiling_bps = c[i];
	f->bond_ceiling_bps = bond_ceiling(f, c, n, known, d);
	if (f->mode == BC_MODE_ROUNDROBIN && known && n) {
		double min = c[0];

		for (size_t i = 1; i < n; i++)
			min = c[i] < min ? c[i] : min;
		f->rr_cap_bps = (double)n * min;
	}
	for (size_t i = 0; i < d->n_rows; i++) {
		const struct bc_suite_doc_row *r = &d->row[i];

		if (!strcmp(r->test, "tcp-k") && !strcmp(r->end, "client") && or
		    (r->share, 0) >= 0.01)
			f->links_used++;
	}
	n = usable_ceilings(d, true, c, BC_SUITE_MAX_LINKS, &known);
	f->udp_ceiling_bps = bond_ceiling(f, c, n, known, NULL);
	if (known && n) {
		double min = c[0];

		for (size_t i = 1; i < n; i++)
			min = c[i] < min ? c[i] : min;
		/* equal shares: every slave gets 1/n of balance-rr's packets and of
		 * the suite's placed UDP flows (one per slave, equal rates) */
		if (f->mode == BC_MODE_ROUNDROBIN || f->placed)
			f->udp_equal_share_bps = (double)n * min;
	}
	if (f->mode >= BC_MODE_XOR && f->mode != BC_MODE_BROADCAST) {
		/* placed: the suite's equal-rate flows, one per slave, carry n x the
		 * slowest; unplaced: which links the flows used is not known */
		f->udp_ceiling_bps = f->placed ? f->udp_equal_share_bps : 0;
	}

	if (over->have) {
		f->udp_measured = true;
		f->udp_offered_bps = over->offered_bps;
		f->udp_sent = over->sent_packets;
		f->udp_received = over->received_packets;
		f->udp_send_errors = over->send_errors;
		f->udp_received_bps = or (over->goodput_bps, 0);
		f->udp_sent_bps = over->sent_bps;
		if (over->snd_buf_errors > 0 && (uint64_t)over->snd_buf_errors > f->udp_send_errors)
			f->udp_send_errors = (uint64_t)over->snd_buf_errors;
		for (size_t i = 0; i < over->n_stages; i++)
			if (!strcmp(over->stage[i].stage, "left_on_link"))
				f->refused_counter = over->stage[i].counter;
		f->udp_cpu_bound = over->cpu_bound;
		gap(d, f);
	}
	if (d->has_search) {
		f->no_drop_bps = or (d->no_drop_bps, -1);
		f->no_drop_resolution_bps = or (d->resolution_bps, 0);
	}
	/* the trial that set the no-drop rate: was its sender the limit? */
	for (size_t i = 0; i < d->n_trials; i++) {
		const struct bc_suite_trial *t = &d->trial[i];

		if (t->no_drop && t->effective_bps == f->no_drop_bps && t->cpu_bound)
			f->udp_cpu_bound = true;
	}
	mismatches(d, f);
	evidence(d, "tcp-k", "client", &f->tcp);
	evidence(d, "udp-over", "client", &f->udp);
	evidence(d, "tcp-k", "agent", &f->tcp_rx);
	evidence(d, "udp-over", "agent", &f->udp_rx);
}
