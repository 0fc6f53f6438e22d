// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict inputs (struct bc_suite_facts) from an analysed suite
 * document: the ceilings, the per-link rows, the tests and the ledger.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/suite-int.h"
#include "bondcheck/suite-analyze.h"
#include "bondcheck/json-get.h"
#include "bondcheck/model.h"
#include "bondcheck/units.h"

/* The usable client slaves' ceilings (@key) and their count; *@all_known when none is null. */
static size_t usable_ceilings(struct json_object *ceilings, const char *key, double *out,
			      size_t max, bool *all_known)
{
	struct json_object *sl = bc_sj(bc_sj(ceilings, "client"), "slaves");
	size_t n = 0;

	*all_known = true;
	for (size_t i = 0; i < bc_json_len(sl) && n < max; i++) {
		struct json_object *s = json_object_array_get_idx(sl, i);

		if (!json_object_get_boolean(bc_sj(s, "usable")))
			continue;
		out[n] = bc_json_dbl(s, key, 0);
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
			   bool all_known, struct json_object *rows, const char *key)
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
		for (size_t i = 0; i < bc_json_len(rows); i++) {
			struct json_object *r = json_object_array_get_idx(rows, i);

			if (!strcmp(bc_json_str(r, "test"), "tcp-k") &&
			    !strcmp(bc_json_str(r, "end"), "client") &&
			    bc_json_dbl(r, "share", 0) >= 0.01) {
				double v = bc_json_dbl(r, key, 0);

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

static void evidence(struct json_object *doc, const char *test, const char *end,
		     struct bc_suite_evidence *e)
{
	struct json_object *rows = bc_sj(doc, "links");
	struct json_object *sl = bc_sj(bc_sj(bc_sj(doc, "ceilings"), end), "slaves");
	struct json_object *res = bc_suite_result(doc, test);

	memset(e, 0, sizeof(*e));
	e->cpu_bound = res && bc_suite_cpu_bound(res);
	for (size_t i = 0; i < bc_json_len(rows) && e->n < BC_SUITE_MAX_LINKS; i++) {
		struct json_object *r = json_object_array_get_idx(rows, i);
		struct bc_suite_link *l = &e->l[e->n];
		bool ok = false;

		if (strcmp(bc_json_str(r, "test"), test) || strcmp(bc_json_str(r, "end"), end))
			continue;
		for (size_t k = 0; k < bc_json_len(sl); k++) {
			struct json_object *s = json_object_array_get_idx(sl, k);

			if (!strcmp(bc_json_str(s, "name"), bc_json_str(r, "name")))
				ok = json_object_get_boolean(bc_sj(s, "usable"));
		}
		if (!ok)
			continue;
		e->measured = true;
		snprintf(l->name, sizeof(l->name), "%s", bc_json_str(r, "name"));
		snprintf(l->driver, sizeof(l->driver), "%s", bc_json_str(r, "driver"));
		l->speed_mbps = bc_sj(r, "speed_mbps") ? bc_json_i64(r, "speed_mbps", -1) : -1;
		l->ceiling_bps = bc_json_dbl(r, "ceiling_bps", 0);
		l->goodput_bps = bc_json_dbl(r, "goodput_bps", -1);
		l->retransmits = bc_sj(r, "retransmits") ? bc_json_i64(r, "retransmits", -1) : -1;
		l->frames = bc_json_i64(r, "frames", 0);
		l->drops = bc_json_i64(r, "drops", 0);
		e->n++;
	}
}

/* What a mismatch finding's evidence says, in a few words. */
static void mismatch_detail(struct json_object *fd, char *out, size_t len)
{
	struct json_object *ev = bc_sj(fd, "evidence");
	const char *id = bc_json_str(fd, "id");
	size_t k = 0;

	out[0] = '\0';
	if (!strcmp(id, "driver-mismatch")) {
		snprintf(out, len, "drivers %s", bc_json_str(ev, "drivers"));
	} else if (!strcmp(id, "speed-mismatch")) {
		snprintf(out, len, "speeds %s Mb/s", bc_json_str(ev, "speeds_mbps"));
	} else if (!strcmp(id, "offload-mismatch")) {
		k = (size_t)snprintf(out, len, "offloads");
		json_object_object_foreach(ev, key, val)
		{
			(void)val;
			if (k < len)
				k += (size_t)snprintf(out + k, len - k, "%s%s", k > 8 ? ", " : " ",
						      key);
		}
	} else {
		snprintf(out, len, "%s", id);
	}
}

static void mismatches(struct json_object *doc, struct bc_suite_facts *f)
{
	static const char *const ids[] = {"driver-mismatch", "speed-mismatch", "offload-mismatch"};
	static const char *const ends[2] = {"client", "agent"};
	struct json_object *sl = bc_sj(bc_sj(bc_sj(doc, "ceilings"), "client"), "slaves");
	double lo = 0, hi = 0;
	char list[120] = "";
	size_t n = 0;

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		char d[2][120] = {"", ""};

		for (int e = 0; e < 2; e++) {
			struct json_object *b = bc_sj(bc_sj(bc_sj(doc, "ends"), ends[e]), "bonds");
			struct json_object *fs =
				bc_sj(bc_json_len(b) ? json_object_array_get_idx(b, 0) : NULL,
				      "findings");

			for (size_t k = 0; k < bc_json_len(fs); k++)
				if (!strcmp(bc_json_str(json_object_array_get_idx(fs, k), "id"),
					    ids[i]))
					mismatch_detail(json_object_array_get_idx(fs, k), d[e],
							sizeof(d[e]));
		}
		for (int e = 0; e < 2 && f->n_mismatch < BC_SUITE_MAX_MISMATCH; e++) {
			if (!d[e][0] || (e == 1 && !strcmp(d[0], d[1])))
				continue;
			snprintf(f->mismatch[f->n_mismatch++], sizeof(f->mismatch[0]), "%s (%s)",
				 d[e], !e && !strcmp(d[0], d[1]) ? "both ends" : ends[e]);
		}
	}
	for (size_t i = 0; i < bc_json_len(sl); i++) {
		struct json_object *s = json_object_array_get_idx(sl, i);
		double c = bc_json_dbl(s, "tcp_ceiling_bps", 0);
		char r[32];

		if (!json_object_get_boolean(bc_sj(s, "usable")) || !(c > 0))
			continue;
		if (!n || c < lo)
			lo = c;
		if (!n || c > hi)
			hi = c;
		n++;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s %s",
			 strlen(list) ? ", " : "", bc_json_str(s, "name"),
			 bc_format_rate(c, r, sizeof(r)));
	}
	if (n > 1 && hi > lo * (1 + BC_VERDICT_CEILING_SPREAD) &&
	    f->n_mismatch < BC_SUITE_MAX_MISMATCH)
		snprintf(f->mismatch[f->n_mismatch++], sizeof(f->mismatch[0]),
			 "TCP ceilings %s (client)", list);
}

/* The ledger stage with the largest drop and the loss finding with the largest count. */
static void gap(struct json_object *doc, struct bc_suite_facts *f)
{
	struct json_object *res = bc_suite_result(doc, "udp-over");
	struct json_object *led = bc_sj(bc_sj(bc_sj(res, "capture"), "analysis"), "ledger");
	struct json_object *fs = bc_sj(res, "findings");
	long long best = 0;

	struct json_object *an = bc_sj(bc_sj(res, "capture"), "analysis");
	bool fragmented = bc_json_i64(bc_sj(an, "fragments"), "messages_arrived", 0) > 0 ||
			  bc_json_i64(bc_sj(an, "fragments"), "fragments_arrived", 0) > 0;

	for (size_t i = 0; i < bc_json_len(led); i++) {
		struct json_object *s = json_object_array_get_idx(led, i);
		const char *st = bc_json_str(s, "stage");

		if (fragmented && bc_json_i64(s, "drop", 0) > 0 &&
		    (!strcmp(st, "reassembled") || !strcmp(st, "reached_socket")) &&
		    !json_object_object_get_ex(an, "reassembly", NULL))
			f->reasm_missing = true;
		if (bc_json_i64(s, "drop", 0) > f->gap_stage_drop) {
			f->gap_stage_drop = bc_json_i64(s, "drop", 0);
			f->gap_stage = bc_json_str(s, "stage");
		}
	}
	for (size_t i = 0; i < bc_json_len(fs); i++) {
		struct json_object *fd = json_object_array_get_idx(fs, i),
				   *ev = bc_sj(fd, "evidence");
		long long c = bc_json_i64(ev, "count", 0);

		if (json_object_is_type(bc_sj(ev, "count"), json_type_string))
			c = atoll(bc_json_str(ev, "count"));
		if (!bc_suite_loss_id(bc_json_str(fd, "id")) || c <= best)
			continue;
		best = c;
		f->gap_finding = bc_json_str(fd, "id");
		f->gap_link = bc_json_str(fd, "subject");
		f->gap_host = bc_json_str(ev, "host");
		f->gap_counter = bc_json_str(ev, "counter");
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

void bc_suite_facts_fill(struct json_object *doc, struct bc_suite_facts *f)
{
	struct json_object *ceil = bc_sj(doc, "ceilings"), *pl = bc_sj(doc, "placement");
	struct json_object *agg = bc_suite_result(doc, "tcp-k"),
			   *base = bc_suite_result(doc, "tcp-1");
	struct json_object *over = bc_suite_result(doc, "udp-over"), *us = bc_sj(doc, "udp_search");
	struct json_object *rows = bc_sj(doc, "links");
	double c[BC_SUITE_MAX_LINKS];
	bool known;
	size_t n;

	bc_suite_facts_init(f);
	f->mode = bc_sj(bc_sj(ceil, "client"), "mode_number")
			  ? (int)bc_json_i64(bc_sj(ceil, "client"), "mode_number", -1)
			  : -1;
	{
		struct json_object *b = bc_sj(bc_sj(bc_sj(doc, "ends"), "client"), "bonds");

		if (bc_json_len(b) && bc_sj(json_object_array_get_idx(b, 0), "active_slave"))
			f->active_slave =
				bc_json_str(json_object_array_get_idx(b, 0), "active_slave");
	}
	f->placed = json_object_get_boolean(bc_sj(pl, "placed"));
	f->unplaced_reason = bc_json_str(pl, "reason");
	f->flows = (unsigned)bc_json_i64(pl, "flows", 0);
	if (agg) {
		f->agg_bps = bc_json_dbl(agg, "goodput_bps", 0);
		f->agg_cpu_bound = bc_suite_cpu_bound(agg);
		f->flows = (unsigned)bc_json_len(bc_sj(agg, "streams"));
	}
	if (base)
		f->base_bps = bc_json_dbl(base, "goodput_bps", 0);

	n = usable_ceilings(ceil, "tcp_ceiling_bps", c, BC_SUITE_MAX_LINKS, &known);
	f->n_usable = n;
	for (size_t i = 0; known && i < n; i++)
		if (c[i] > f->link_ceiling_bps)
			f->link_ceiling_bps = c[i];
	f->bond_ceiling_bps = bond_ceiling(f, c, n, known, rows, "ceiling_bps");
	if (f->mode == BC_MODE_ROUNDROBIN && known && n) {
		double min = c[0];

		for (size_t i = 1; i < n; i++)
			min = c[i] < min ? c[i] : min;
		f->rr_cap_bps = (double)n * min;
	}
	for (size_t i = 0; i < bc_json_len(rows); i++) {
		struct json_object *r = json_object_array_get_idx(rows, i);

		if (!strcmp(bc_json_str(r, "test"), "tcp-k") &&
		    !strcmp(bc_json_str(r, "end"), "client") && bc_json_dbl(r, "share", 0) >= 0.01)
			f->links_used++;
	}
	n = usable_ceilings(ceil, "udp_ceiling_bps", c, BC_SUITE_MAX_LINKS, &known);
	f->udp_ceiling_bps = bond_ceiling(f, c, n, known, NULL, "ceiling_bps");
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

	if (over) {
		struct json_object *s = bc_sj(over, "streams");

		f->udp_measured = true;
		for (size_t i = 0; i < bc_json_len(s); i++) {
			struct json_object *st = json_object_array_get_idx(s, i);

			f->udp_offered_bps += bc_json_dbl(st, "offered_bps", 0);
			f->udp_sent += (uint64_t)bc_json_i64(st, "sent_packets", 0);
			f->udp_received += (uint64_t)bc_json_i64(st, "received_packets", 0);
			f->udp_send_errors += (uint64_t)bc_json_i64(st, "send_errors", 0);
		}
		f->udp_received_bps = bc_json_dbl(over, "goodput_bps", 0);
		f->udp_sent_bps = bc_suite_sent_bps(over);
		{
			struct json_object *snmp = bc_sj(
				bc_sj(bc_sj(bc_sj(over, "ends"), "client"), "counters"), "snmp");
			uint64_t sb = (uint64_t)bc_json_i64(snmp, "Udp.SndbufErrors", 0);
			struct json_object *led =
				bc_sj(bc_sj(bc_sj(over, "capture"), "analysis"), "ledger");

			if (sb > f->udp_send_errors)
				f->udp_send_errors = sb;
			for (size_t i = 0; i < bc_json_len(led); i++) {
				struct json_object *st = json_object_array_get_idx(led, i);

				if (!strcmp(bc_json_str(st, "stage"), "left_on_link"))
					f->refused_counter = bc_json_str(st, "counter");
			}
		}
		f->udp_cpu_bound = bc_suite_cpu_bound(over);
		gap(doc, f);
	}
	if (us && bc_json_len(bc_sj(us, "trials"))) {
		f->no_drop_bps = bc_json_dbl(us, "no_drop_rate_bps", 0);
		f->no_drop_resolution_bps = bc_json_dbl(us, "resolution_bps", 0);
	}
	/* the trial that set the no-drop rate: was its sender the limit? */
	for (size_t i = 0; i < bc_json_len(bc_sj(us, "trials")); i++) {
		struct json_object *t = json_object_array_get_idx(bc_sj(us, "trials"), i);

		if (json_object_get_boolean(bc_sj(t, "no_drop")) &&
		    bc_json_dbl(t, "effective_bps", -1) == f->no_drop_bps &&
		    json_object_get_boolean(bc_sj(t, "cpu_bound")))
			f->udp_cpu_bound = true;
	}
	mismatches(doc, f);
	evidence(doc, "tcp-k", "client", &f->tcp);
	evidence(doc, "udp-over", "client", &f->udp);
	evidence(doc, "tcp-k", "agent", &f->tcp_rx);
	evidence(doc, "udp-over", "agent", &f->udp_rx);
}
