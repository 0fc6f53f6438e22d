// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text of `bondcheck analyze`: per-link table (data direction), paths
 * learned from the captures, reordering pairs, fragments, the offline loss
 * ledger and the findings.  Pure: reads a finished struct bc_attrib.
 */
#include <inttypes.h>

#include "bondcheck/analyze-report.h"
#include "bondcheck/names.h"
#include "bondcheck/units.h"
#include "report/analyze-ledger.h"

void bc_analyze_text(FILE *out, const struct bc_attrib *a)
{
	struct ledger_stage st[LEDGER_STAGES];
	char rate[32];
	bool any = false;

	fprintf(out, "Links (forward = away from the sender)\n");
	fprintf(out, "  %-20s %10s %12s %14s %6s %6s %8s %8s %6s %s\n", "link", "frames", "bytes",
		"wire rate", "flows", "super", "left", "arrived", "lost", "peer");
	for (size_t i = 0; i < a->n_links; i++) {
		const struct bc_attrib_link *l = &a->links[i];
		const struct bc_link_dir *d = &l->dir[BC_DIR_FWD];

		fprintf(out,
			"  %-20s %10" PRIu64 " %12" PRIu64 " %14s %6u %6" PRIu64 " %8" PRIu64
			" %8" PRIu64 " %6" PRIu64 " %s\n",
			l->name, d->frames, d->bytes,
			bc_format_rate(bc_attrib_wire_bps(l, BC_DIR_FWD), rate, sizeof(rate)),
			d->flows, d->super_frames, l->units_left, l->units_arrived, l->lost,
			l->peer >= 0 ? a->links[l->peer].name : "-");
	}
	for (size_t i = 0; i < a->n_links; i++) {
		const struct bc_attrib_link *l = &a->links[i];
		char w1[128], w2[128];

		if (l->lacpdus)
			fprintf(out, "  %s: %" PRIu64 " LACPDUs, last actor [%s] partner [%s]\n",
				l->name, l->lacpdus,
				bc_lacp_state_words(l->last_lacp.actor.state, w1, sizeof(w1)),
				bc_lacp_state_words(l->last_lacp.partner.state, w2, sizeof(w2)));
	}
	fprintf(out, "\nPaths (packets that left on -> arrived on)\n");
	for (size_t t = 0; t < a->n_links; t++)
		for (size_t r = 0; r < a->n_links; r++)
			if (a->path[t][r]) {
				fprintf(out, "  %-20s -> %-20s %10" PRIu64 "\n", a->links[t].name,
					a->links[r].name, a->path[t][r]);
				any = true;
			}
	if (!any)
		fprintf(out, "  none (give both tx: and rx: captures)\n");
	fprintf(out, "\nReordering (observation point: merged receiver slave captures)\n");
	fprintf(out, "  %" PRIu64 " of %" PRIu64 " datagrams late, ratio %.4f\n", a->rx_reordered,
		a->rx_received, bc_attrib_reordered_ratio(a));
	for (size_t e = 0; e < a->n_links; e++)
		for (size_t l = 0; l < a->n_links; l++)
			if (a->pairs[e][l])
				fprintf(out,
					"  late on %-20s behind %-20s %8" PRIu64
					" (extent max %" PRIu64 ")\n",
					a->links[l].name, a->links[e].name, a->pairs[e][l],
					a->pair_extent_max[e][l]);
	if (a->frag.fragments[0] || a->frag.fragments[1])
		fprintf(out,
			"\nFragments: %" PRIu64 " left, %" PRIu64 " arrived; messages %" PRIu64
			" complete, %" PRIu64 " incomplete, %" PRIu64 " too far\n",
			a->frag.fragments[0], a->frag.fragments[1], a->frag.complete,
			a->frag.incomplete, a->frag.too_far);
	fprintf(out, "\nLoss ledger (forward, from the captures)\n");
	analyze_ledger(a, st);
	for (int i = 0; i < LEDGER_STAGES; i++) {
		if (st[i].absent)
			fprintf(out, "  %-16s %10s  (%s)\n", st[i].stage, "absent", st[i].source);
		else
			fprintf(out, "  %-16s %10" PRIu64 "  (%s)\n", st[i].stage, st[i].count,
				st[i].source);
	}
	if (a->skew_units)
		fprintf(out,
			"\nClock skew: %" PRIu64 " packets arrived before they left; one-way "
			"delays are not meaningful\n",
			a->skew_units);
	fprintf(out, "\nFindings\n");
	if (!a->n_findings)
		fprintf(out, "  none\n");
	for (size_t i = 0; i < a->n_findings; i++) {
		const struct bc_finding *f = &a->findings[i];

		fprintf(out, "  %-7s %-18s %s: %s\n", bc_severity_name(f->severity), f->id,
			f->subject, f->advice);
		for (size_t k = 0; k < f->n_evidence; k++)
			fprintf(out, "          %s: %s\n", f->evidence[k].key,
				f->evidence[k].value);
	}
}
