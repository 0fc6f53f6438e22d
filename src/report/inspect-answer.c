// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The answer block of `inspect` (bondcheck/answer.h, issue 15 item 1), per
 * bond: Health (the worst finding), Redundancy (slaves up and carrying),
 * Monitoring (miimon or ARP, and the worst finding about it).  From the
 * snapshot and its findings; the summary, table and findings follow.
 */
#include <string.h>

#include "bondcheck/answer.h"
#include "bondcheck/findings.h"
#include "bondcheck/inspect-report.h"

/* Finding ids about link monitoring (src/analyze/findings-bond.c, findings-device.c). */
static bool monitoring_id(const char *id)
{
	static const char *const ids[] = {"no-link-monitoring", "slow-failover",
					  "arp-interval-short", "single-arp-target"};

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (!strcmp(id, ids[i]))
			return true;
	return strstr(id, "miimon") || strstr(id, "arp-");
}

/* The worst finding about @b (only monitoring ones with @mon); NULL none. */
static const struct bc_finding *worst(const struct bc_snapshot *snap, const struct bc_bond *b,
				      bool mon, size_t n[3])
{
	const struct bc_finding *w = NULL;

	for (size_t i = 0; i < snap->n_findings; i++) {
		const struct bc_finding *f = &snap->findings[i];

		if (!bc_finding_is_about(f, b->name) || (mon && !monitoring_id(f->id)))
			continue;
		if (n && (unsigned)f->severity < 3)
			n[f->severity]++;
		if (!w || f->severity > w->severity)
			w = f;
	}
	return w;
}

static enum bc_answer_status status_of(const struct bc_finding *f)
{
	if (!f || f->severity == BC_SEV_INFO)
		return BC_ANSWER_PASS;
	return f->severity == BC_SEV_ERROR ? BC_ANSWER_FAIL : BC_ANSWER_WARN;
}

static void health(const struct bc_snapshot *snap, const struct bc_bond *b, struct bc_answer *a)
{
	size_t n[3] = {0, 0, 0};
	const struct bc_finding *w = worst(snap, b, false, n);

	if (!n[BC_SEV_ERROR] && !n[BC_SEV_WARNING]) {
		bc_answer_set(a, "Health", BC_ANSWER_PASS, "no error or warning finding (%zu info)",
			      n[BC_SEV_INFO]);
		return;
	}
	bc_answer_set(a, "Health", status_of(w), "%zu error, %zu warning; worst: %s on %s",
		      n[BC_SEV_ERROR], n[BC_SEV_WARNING], w->id, w->subject);
}

static bool up(const struct bc_slave *s)
{
	return bc_u32_known(&s->mii_status) && s->mii_status.v == BC_LINK_UP;
}

static void redundancy(const struct bc_bond *b, struct bc_answer *a)
{
	int mode = bc_u32_known(&b->mode) ? (int)b->mode.v : BC_MODE_UNKNOWN;
	size_t n_up = 0, carry = 0;

	if (!b->n_slaves && !b->slaves_incomplete) {
		bc_answer_set(a, "Redundancy", BC_ANSWER_FAIL, "no slaves");
		return;
	}
	if (b->slaves_incomplete) {
		bc_answer_set(a, "Redundancy", BC_ANSWER_UNSURE, "the slave list is incomplete");
		return;
	}
	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *s = &b->slaves[i];

		if (!up(s))
			continue;
		n_up++;
		if (mode == BC_MODE_8023AD && bc_u32_known(&b->ad_aggregator_id))
			carry += bc_u32_known(&s->aggregator_id) &&
				 s->aggregator_id.v == b->ad_aggregator_id.v;
		else if (mode != BC_MODE_ACTIVEBACKUP)
			carry++;
	}
	if (mode == BC_MODE_ACTIVEBACKUP) {
		bc_answer_set(a, "Redundancy", BC_ANSWER_PASS, "%zu of %zu slaves up; active %s",
			      n_up, b->n_slaves,
			      b->active_slave.st == BC_KNOWN ? b->active_slave.v : "none");
		if (n_up < 2 || b->active_slave.st != BC_KNOWN)
			a->status = BC_ANSWER_FAIL;
		else if (n_up < b->n_slaves)
			a->status = BC_ANSWER_WARN;
		return;
	}
	if (mode == BC_MODE_8023AD && !bc_u32_known(&b->ad_aggregator_id))
		bc_answer_set(a, "Redundancy", BC_ANSWER_UNSURE,
			      "%zu of %zu slaves up; active aggregator %s", n_up, b->n_slaves,
			      b->ad_info_status == BC_HIDDEN ? "hidden (needs CAP_NET_ADMIN)"
							     : "unknown");
	else
		bc_answer_set(a, "Redundancy", BC_ANSWER_PASS, "%zu of %zu slaves up, %zu carry",
			      n_up, b->n_slaves, carry);
	if (n_up < 2) /* one more failure and the bond is down */
		a->status = BC_ANSWER_FAIL;
	else if (n_up < b->n_slaves || carry < n_up)
		a->status = BC_ANSWER_WARN;
}

static void monitoring(const struct bc_snapshot *snap, const struct bc_bond *b, struct bc_answer *a)
{
	const struct bc_finding *w = worst(snap, b, true, NULL);
	bool mii = bc_u32_known(&b->miimon_ms) && b->miimon_ms.v;
	bool arp = bc_u32_known(&b->arp_interval_ms) && b->arp_interval_ms.v;

	if (arp)
		bc_answer_set(a, "Monitoring", status_of(w), "ARP every %u ms, %zu target%s",
			      b->arp_interval_ms.v, b->n_arp_targets,
			      b->n_arp_targets == 1 ? "" : "s");
	else if (mii)
		bc_answer_set(a, "Monitoring", status_of(w), "miimon %u ms", b->miimon_ms.v);
	else if (bc_u32_known(&b->miimon_ms))
		bc_answer_set(a, "Monitoring", w ? status_of(w) : BC_ANSWER_FAIL,
			      "none (miimon 0, no ARP)");
	else
		bc_answer_set(a, "Monitoring", w ? status_of(w) : BC_ANSWER_UNSURE,
			      "miimon not reported");
	if (w && w->severity != BC_SEV_INFO) {
		size_t n = strlen(a->text);

		snprintf(a->text + n, sizeof(a->text) - n, "; %s", w->id);
	}
	if (!mii && !arp && bc_u32_known(&b->miimon_ms))
		bc_answer_next(a, "set miimon 100");
}

void bc_inspect_text_answers(FILE *out, const struct bc_snapshot *snap, const struct bc_bond *b)
{
	struct bc_answer a[3];

	health(snap, b, &a[0]);
	redundancy(b, &a[1]);
	monitoring(snap, b, &a[2]);
	bc_answer_print(out, a, 3, bc_answer_width(out));
}
