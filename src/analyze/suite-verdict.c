// SPDX-License-Identifier: GPL-2.0-or-later
/* The suite's three verdicts; rules and thresholds in bondcheck/suite-verdict.h. */
#include <stdio.h>
#include <string.h>

#include "bondcheck/model.h"
#include "bondcheck/names.h"
#include "bondcheck/suite-verdict.h"
#include "bondcheck/units.h"

void bc_suite_facts_init(struct bc_suite_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->mode = -1;
	f->agg_bps = -1;
	f->base_bps = -1;
	f->no_drop_bps = -1;
}

static struct json_object *num_or_null(double v, bool known)
{
	return known ? json_object_new_double(v) : NULL;
}

struct json_object *bc_verdict_aggregation(const struct bc_suite_facts *f)
{
	bool agg = f->agg_bps >= 0, base = f->base_bps > 0;
	bool link = f->link_ceiling_bps > 0, bond = f->bond_ceiling_bps > 0;
	double eff = bond && agg ? f->agg_bps / f->bond_ceiling_bps : 0;
	double speedup = link && agg ? f->agg_bps / f->link_ceiling_bps : 0;
	double speedup_base = base && agg ? f->agg_bps / f->base_bps : 0;
	struct json_object *o = json_object_new_object();

	/* the status and the answer come from the capacity model (suite-answers.c) */
	json_object_object_add(o, "status", json_object_new_string("inconclusive"));
	json_object_object_add(o, "goodput_bps", num_or_null(f->agg_bps, agg));
	json_object_object_add(o, "baseline_bps", num_or_null(f->base_bps, base));
	json_object_object_add(o, "link_ceiling_bps", num_or_null(f->link_ceiling_bps, link));
	json_object_object_add(o, "bond_ceiling_bps", num_or_null(f->bond_ceiling_bps, bond));
	json_object_object_add(o, "rr_cap_bps", num_or_null(f->rr_cap_bps, f->rr_cap_bps > 0));
	json_object_object_add(o, "efficiency", num_or_null(eff, bond && agg));
	json_object_object_add(o, "speedup", num_or_null(speedup, link && agg));
	json_object_object_add(o, "speedup_baseline", num_or_null(speedup_base, base && agg));
	json_object_object_add(o, "flows", json_object_new_int((int)f->flows));
	json_object_object_add(o, "placed", json_object_new_boolean(f->placed));
	json_object_object_add(o, "cpu_bound", json_object_new_boolean(f->agg_cpu_bound));
	json_object_object_add(o, "threshold", json_object_new_double(BC_VERDICT_AGG_PASS));
	return o;
}

struct json_object *bc_verdict_udp_gap(const struct bc_suite_facts *f)
{
	bool ceil = f->udp_ceiling_bps > 0;
	struct json_object *o = json_object_new_object();

	/* the status, the cause and the answer come from suite-answers.c */
	json_object_object_add(o, "status", json_object_new_string("inconclusive"));
	json_object_object_add(o, "offered_bps", num_or_null(f->udp_offered_bps, f->udp_measured));
	json_object_object_add(o, "sent_packets",
			       f->udp_measured ? json_object_new_int64((int64_t)f->udp_sent)
					       : NULL);
	json_object_object_add(o, "received_packets",
			       f->udp_measured ? json_object_new_int64((int64_t)f->udp_received)
					       : NULL);
	json_object_object_add(o, "sent_bps", num_or_null(f->udp_sent_bps, f->udp_measured));
	json_object_object_add(o, "send_errors",
			       f->udp_measured ? json_object_new_int64((int64_t)f->udp_send_errors)
					       : NULL);
	json_object_object_add(o, "received_bps",
			       num_or_null(f->udp_received_bps, f->udp_measured));
	json_object_object_add(o, "no_drop_rate_bps",
			       num_or_null(f->no_drop_bps, f->no_drop_bps >= 0));
	json_object_object_add(o, "udp_ceiling_bps", num_or_null(f->udp_ceiling_bps, ceil));
	json_object_object_add(o, "stage",
			       f->gap_stage ? json_object_new_string(f->gap_stage) : NULL);
	json_object_object_add(o, "finding",
			       f->gap_finding ? json_object_new_string(f->gap_finding) : NULL);
	json_object_object_add(o, "link", f->gap_link ? json_object_new_string(f->gap_link) : NULL);
	json_object_object_add(o, "host", f->gap_host ? json_object_new_string(f->gap_host) : NULL);
	json_object_object_add(o, "count",
			       f->gap_count > 0 ? json_object_new_int64(f->gap_count) : NULL);
	json_object_object_add(o, "cpu_bound", json_object_new_boolean(f->udp_cpu_bound));
	json_object_object_add(o, "threshold", json_object_new_double(BC_VERDICT_UDP_PASS));
	return o;
}
