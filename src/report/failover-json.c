// SPDX-License-Identifier: GPL-2.0-or-later
/* The failover analysis as JSON (bondcheck/failover-report.h, docs/failover.md). */
#include <stdio.h>
#include <string.h>

#include "bondcheck/failover-report.h"
#include "bondcheck/names.h"

#define U64(x) json_object_new_int64((int64_t)(x))

/* ns duration or offset as ms with µs resolution. */
static struct json_object *jms(int64_t ns)
{
	int64_t us = ns / 1000; /* µs resolution: nothing finer is meaningful */

	return json_object_new_double((double)us / 1000.0);
}

/* @t relative to @ref in ms; null for BC_FO_NONE. */
static struct json_object *rel(uint64_t t, uint64_t ref)
{
	return t == BC_FO_NONE ? NULL : jms((int64_t)(t - ref));
}

static struct json_object *link_name(const struct bc_failover *f, int l)
{
	return l < 0 || (size_t)l >= f->n_links ? NULL : json_object_new_string(f->links[l].name);
}

static struct json_object *mask_names(const struct bc_failover *f, uint64_t m)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < f->n_links; i++)
		if (m & (1ull << i))
			json_object_array_add(a, json_object_new_string(f->links[i].name));
	return a;
}

static struct json_object *gap_json(const struct bc_failover *f, const struct bc_fo_gap *g)
{
	struct json_object *o;

	if (!g->found)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "gap_ms", jms((int64_t)g->gap_ns));
	json_object_object_add(o, "last_before_ms", rel(g->last_before_ns, f->cfg.cut_ns));
	json_object_object_add(o, "first_after_ms", rel(g->first_after_ns, f->cfg.cut_ns));
	json_object_object_add(o, "last_seq", U64(g->last_seq));
	json_object_object_add(o, "first_seq", g->open ? NULL : U64(g->first_seq));
	json_object_object_add(o, "last_link", link_name(f, g->last_link));
	json_object_object_add(o, "first_link", link_name(f, g->first_link));
	json_object_object_add(o, "first_left_link", link_name(f, g->first_left_link));
	json_object_object_add(o, "lost_in_gap", U64(g->lost_in_gap));
	json_object_object_add(o, "open", json_object_new_boolean(g->open));
	return o;
}

static const char *sees_name(enum bc_fo_sees s)
{
	static const char *const n[] = {"not-needed", "carrier", "far-carrier",
					"arp",	      "lacpdus", "nothing"};

	return (unsigned)s < sizeof(n) / sizeof(n[0]) ? n[s] : "nothing";
}

static struct json_object *end_expect_json(const struct bc_fo_end_expect *x)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "detector", json_object_new_string(bc_fo_detector_name(x->by)));
	json_object_object_add(o, "sees", json_object_new_string(sees_name(x->sees)));
	json_object_object_add(o, "sight", json_object_new_string(x->sight));
	json_object_object_add(o, "nominal_ms", U64(x->nominal_ms));
	json_object_object_add(o, "min_ms", U64(x->min_ms));
	json_object_object_add(o, "worst_ms", U64(x->worst_ms));
	json_object_object_add(o, "basis", json_object_new_string(x->basis));
	json_object_object_add(o, "lacp_timeout_ms",
			       x->lacp_timeout_ms ? U64(x->lacp_timeout_ms) : NULL);
	json_object_object_add(o, "missing",
			       x->by == BC_FO_BY_NOTHING || x->far_by == BC_FO_BY_NOTHING
				       ? json_object_new_string(x->missing)
				       : NULL);
	return o;
}

static struct json_object *dir_expect_json(const struct bc_fo_dir_expect *x, enum bc_fo_dir d)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();

	json_object_object_add(o, "direction", json_object_new_string(bc_fo_dir_name(d)));
	for (int h = 0; h < 2; h++)
		if (x->detectors & (1u << h))
			json_object_array_add(
				a, json_object_new_string(h == BC_FO_CLIENT ? "client" : "agent"));
	json_object_object_add(o, "detected_by", a);
	json_object_object_add(o, "detector", json_object_new_string(bc_fo_detector_name(x->by)));
	json_object_object_add(
		o, "slowest",
		json_object_new_string(x->slowest == BC_FO_CLIENT ? "client" : "agent"));
	json_object_object_add(o, "nominal_ms", U64(x->nominal_ms));
	json_object_object_add(o, "min_ms", U64(x->min_ms));
	json_object_object_add(o, "worst_ms", U64(x->worst_ms));
	json_object_object_add(o, "limit_ms", U64(x->limit_ms));
	json_object_object_add(o, "basis", json_object_new_string(x->basis));
	json_object_object_add(o, "black_hole", json_object_new_boolean(x->black_hole));
	json_object_object_add(o, "far_carrier", json_object_new_boolean(x->far_carrier));
	json_object_object_add(o, "missing",
			       x->black_hole ? json_object_new_string(x->missing) : NULL);
	return o;
}

static struct json_object *expect_json(const struct bc_failover *f)
{
	const struct bc_fo_expect *e = &f->cfg.expect;
	struct json_object *o, *ends, *dirs;

	if (!f->cfg.have_expect)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "detector", json_object_new_string(bc_fo_detector_name(e->by)));
	json_object_object_add(o, "nominal_ms", U64(e->nominal_ms));
	json_object_object_add(o, "min_ms", U64(e->min_ms));
	json_object_object_add(o, "worst_ms", U64(e->worst_ms));
	json_object_object_add(o, "limit_ms", U64(e->limit_ms));
	json_object_object_add(o, "tolerance_ms", U64(BC_FO_SLACK_MS(e->worst_ms)));
	json_object_object_add(o, "recovery_ms", U64(e->recovery_ms));
	json_object_object_add(o, "basis", json_object_new_string(e->basis));
	json_object_object_add(o, "black_hole", json_object_new_boolean(e->black_hole));
	json_object_object_add(o, "missing",
			       e->black_hole ? json_object_new_string(e->missing) : NULL);
	json_object_object_add(o, "agent_assumed", json_object_new_boolean(e->assumed_agent));
	json_object_object_add(o, "ends_differ",
			       e->ends_differ ? json_object_new_string(e->differ) : NULL);
	ends = json_object_new_object();
	json_object_object_add(ends, "client", end_expect_json(&e->end[BC_FO_CLIENT]));
	json_object_object_add(ends, "agent", end_expect_json(&e->end[BC_FO_AGENT]));
	json_object_object_add(o, "per_end", ends);
	dirs = json_object_new_array();
	for (int d = 0; d < 2; d++)
		json_object_array_add(dirs, dir_expect_json(&e->dir[d], (enum bc_fo_dir)d));
	json_object_object_add(o, "directions", dirs);
	return o;
}

static const char *verdict(const struct bc_fo_dirsum *x)
{
	return x->verdict ? x->verdict : "no-expectation";
}

static struct json_object *dirs_json(const struct bc_failover *f)
{
	struct json_object *a = json_object_new_array();

	for (int d = 0; d < 2; d++) {
		const struct bc_fo_dirsum *x = &f->dir[d];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "direction", json_object_new_string(bc_fo_dir_name(d)));
		json_object_object_add(o, "verdict", json_object_new_string(verdict(x)));
		json_object_object_add(o, "why", x->why[0] ? json_object_new_string(x->why) : NULL);
		json_object_object_add(o, "streams", U64(x->n_streams));
		json_object_object_add(o, "interrupted", U64(x->n_interrupted));
		json_object_object_add(o, "black_holed", U64(x->n_black_hole));
		json_object_object_add(o, "used_cut_slave", U64(x->n_used_cut));
		json_object_object_add(o, "gap_ms",
				       x->n_interrupted ? jms((int64_t)x->gap_ns) : NULL);
		json_object_object_add(o, "moved", U64(x->n_moved));
		json_object_object_add(o, "moved_gap_ms",
				       x->n_moved ? jms((int64_t)x->moved_gap_ns) : NULL);
		json_object_object_add(o, "unaffected_gap_ms",
				       x->unaffected_gap_ns ? jms((int64_t)x->unaffected_gap_ns)
							    : NULL);
		json_object_object_add(o, "up_gap_ms",
				       x->up_gap_ns ? jms((int64_t)x->up_gap_ns) : NULL);
		json_object_object_add(o, "lost", U64(x->lost));
		json_object_object_add(o, "lost_in_gap", U64(x->lost_in_gap));
		json_object_object_add(o, "duplicates", U64(x->duplicates));
		json_object_object_add(o, "reordered", U64(x->reordered));
		json_object_object_add(o, "tx_before", mask_names(f, x->tx_before));
		json_object_object_add(o, "tx_after_failover", mask_names(f, x->tx_after));
		json_object_object_add(o, "tx_end", mask_names(f, x->tx_end));
		json_object_object_add(
			o, "sender_moved",
			x->sender_moved < 0 ? NULL : json_object_new_boolean(x->sender_moved == 1));
		json_object_object_add(o, "returned_after_restore_ms",
				       rel(x->returned_ns, f->cfg.restore_ns));
		json_object_object_add(o, "not_recovered",
				       json_object_new_boolean(x->not_recovered));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *streams_json(const struct bc_failover *f)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < f->n_streams; i++) {
		const struct bc_fo_stream *s = &f->streams[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "id", U64(s->stream_id));
		json_object_object_add(o, "direction",
				       json_object_new_string(bc_fo_dir_name(s->dir)));
		json_object_object_add(o, "sport", U64(s->sport));
		json_object_object_add(o, "dport", U64(s->dport));
		json_object_object_add(o, "left", U64(s->left));
		json_object_object_add(o, "arrived", U64(s->arrived));
		json_object_object_add(o, "delivered", U64(s->delivered));
		json_object_object_add(o, "not_delivered", U64(s->not_delivered));
		json_object_object_add(o, "lost", U64(s->lost));
		json_object_object_add(o, "duplicates", U64(s->duplicates));
		json_object_object_add(o, "reordered", U64(s->reordered));
		json_object_object_add(o, "used_cut_slave",
				       json_object_new_boolean(s->used_cut_slave));
		json_object_object_add(o, "interrupted", json_object_new_boolean(s->interrupted));
		json_object_object_add(o, "black_hole", json_object_new_boolean(s->black_hole));
		json_object_object_add(o, "moved", json_object_new_boolean(s->moved));
		json_object_object_add(o, "down", gap_json(f, &s->down));
		json_object_object_add(o, "up", gap_json(f, &s->up));
		json_object_object_add(o, "left_before", link_name(f, s->left_before));
		json_object_object_add(o, "left_after", link_name(f, s->left_after));
		json_object_object_add(o, "left_end", link_name(f, s->left_end));
		json_object_object_add(o, "arrived_before", link_name(f, s->arrived_before));
		json_object_object_add(o, "arrived_after", link_name(f, s->arrived_after));
		json_object_object_add(o, "arrived_end", link_name(f, s->arrived_end));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *by_host(const uint64_t n[3])
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "client", U64(n[0]));
	json_object_object_add(o, "agent", U64(n[1]));
	json_object_object_add(o, "other", U64(n[2]));
	return o;
}

static struct json_object *links_json(const struct bc_failover *f)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < f->n_links; i++) {
		const struct bc_fo_link *l = &f->links[i];
		struct json_object *o = json_object_new_object(), *r = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(l->name));
		json_object_object_add(
			o, "host",
			json_object_new_string(l->host == BC_FO_CLIENT ? "client" : "agent"));
		json_object_object_add(o, "left", U64(l->left));
		json_object_object_add(o, "arrived", U64(l->arrived));
		json_object_object_add(o, "gratuitous_arp", by_host(l->garp));
		json_object_object_add(o, "gratuitous_arp_after_cut", by_host(l->garp_after_cut));
		json_object_object_add(o, "unsolicited_na", by_host(l->unsol_na));
		json_object_object_add(o, "unsolicited_na_after_cut",
				       by_host(l->unsol_na_after_cut));
		json_object_object_add(o, "first_announcement_after_cut_ms",
				       rel(l->first_garp_after_cut_ns, f->cfg.cut_ns));
		json_object_object_add(o, "arp_other", U64(l->arp_other));
		json_object_object_add(o, "lacpdus", U64(l->lacpdus));
		json_object_object_add(o, "lacp_timeout_ms",
				       rel(l->lacp_timeout_ns, f->cfg.cut_ns));
		json_object_object_add(o, "lacp_silence_ms", rel(l->lacp_silence_ns, 0));
		json_object_object_add(
			o, "lacp_partner_last_ms",
			l->lacp_partner_last_ns
				? jms((int64_t)l->lacp_partner_last_ns - (int64_t)f->cfg.cut_ns)
				: NULL);
		json_object_object_add(o, "lacp_partner_heard_late",
				       json_object_new_boolean(l->lacp_partner_heard_late));
		json_object_object_add(o, "lacp_timeout_expected_ms",
				       f->cfg.have_expect &&
						       f->cfg.expect.end[l->host].lacp_timeout_ms
					       ? U64(f->cfg.expect.end[l->host].lacp_timeout_ms)
					       : NULL);
		json_object_object_add(o, "lacp_defaulted_ms",
				       rel(l->lacp_defaulted_ns, f->cfg.cut_ns));
		json_object_object_add(o, "lacp_resync_ms",
				       rel(l->lacp_resync_ns, f->cfg.restore_ns));
		for (int d = 0; d < 2; d++)
			json_object_object_add(r, bc_fo_dir_name(d),
					       rel(l->returned_ns[d], f->cfg.restore_ns));
		json_object_object_add(o, "returned_ms", r);
		json_object_object_add(o, "truncated", json_object_new_boolean(l->truncated));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *recovery_json(const struct bc_failover *f)
{
	struct json_object *o = json_object_new_object();
	uint64_t t = BC_FO_NONE;
	const struct bc_fo_link *l = f->cut_link >= 0 ? &f->links[f->cut_link] : NULL;

	if (l)
		t = l->returned_ns[0] < l->returned_ns[1] ? l->returned_ns[0] : l->returned_ns[1];
	json_object_object_add(o, "slave", l ? json_object_new_string(l->name) : NULL);
	json_object_object_add(o, "carries_again_ms", rel(t, f->cfg.restore_ns));
	json_object_object_add(o, "lacp_resync_ms",
			       l ? rel(l->lacp_resync_ns, f->cfg.restore_ns) : NULL);
	json_object_object_add(o, "expected_up_ms",
			       f->cfg.have_expect ? U64(f->cfg.expect.recovery_ms) : NULL);
	return o;
}

static struct json_object *counts(const uint32_t *v, size_t n)
{
	struct json_object *a = json_object_new_array_ext((int)n);

	for (size_t i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int((int32_t)v[i]));
	return a;
}

static struct json_object *timeline_json(const struct bc_failover *f)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();

	json_object_object_add(o, "bin_ns", U64(f->tl_bin_ns));
	json_object_object_add(o, "start_ns", U64(f->tl_start_ns));
	json_object_object_add(o, "start_ms",
			       f->tl_bins ? jms((int64_t)(f->tl_start_ns - f->cfg.cut_ns)) : NULL);
	json_object_object_add(o, "cut_ms", json_object_new_double(0));
	json_object_object_add(o, "restore_ms", jms((int64_t)(f->cfg.restore_ns - f->cfg.cut_ns)));
	/* the plot layer's shape (bc_plot_failover_timeline): client links are the
	 * "tx" side; frames = client-to-agent datagrams, reverse_frames = the others */
	for (size_t i = 0; i < f->n_links && f->tl_bins; i++) {
		const struct bc_fo_link *k = &f->links[i];
		struct json_object *l = json_object_new_object();
		bool client = k->host == BC_FO_CLIENT;

		json_object_object_add(l, "name", json_object_new_string(k->name));
		json_object_object_add(l, "side", json_object_new_string(client ? "tx" : "rx"));
		json_object_object_add(l, "frames",
				       counts(client ? k->tl_left : k->tl_arrived, f->tl_bins));
		json_object_object_add(l, "reverse_frames",
				       counts(client ? k->tl_arrived : k->tl_left, f->tl_bins));
		/* --tcp: the flow's data segments, leaving (client) or arriving (agent) */
		if (k->tl_tcp)
			json_object_object_add(l, "tcp_frames", counts(k->tl_tcp, f->tl_bins));
		json_object_array_add(a, l);
	}
	json_object_object_add(o, "links", a);
	return o;
}

static struct json_object *events_json(const struct bc_failover *f)
{
	struct json_object *a = json_object_new_array();
	const char *what[4] = {"cut", "cut in place", "back", "back in place"};
	uint64_t t[4] = {f->cfg.cut_ns, f->cfg.cut_done_ns, f->cfg.restore_ns,
			 f->cfg.restore_done_ns};
	char label[48];

	/* a command that took a while: its end is an event too (the cut lies between) */
	for (int i = 0; i < 4; i++) {
		struct json_object *e;

		if ((i & 1) && (!t[i] || t[i] < t[i - 1] + 20000000ull))
			continue;
		e = json_object_new_object();
		snprintf(label, sizeof(label), "%s %s", f->cfg.cut_slave, what[i]);
		json_object_object_add(e, "time_ns", U64(t[i]));
		json_object_object_add(e, "label", json_object_new_string(label));
		json_object_array_add(a, e);
	}
	return a;
}

static struct json_object *findings_json(const struct bc_failover *f)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < f->n_findings; i++) {
		const struct bc_finding *x = &f->findings[i];
		struct json_object *o = json_object_new_object(), *ev = json_object_new_object();

		json_object_object_add(o, "id", json_object_new_string(x->id));
		json_object_object_add(o, "severity",
				       json_object_new_string(bc_severity_name(x->severity)));
		json_object_object_add(o, "subject", json_object_new_string(x->subject));
		for (size_t k = 0; k < x->n_evidence; k++)
			json_object_object_add(ev, x->evidence[k].key,
					       json_object_new_string(x->evidence[k].value));
		json_object_object_add(o, "evidence", ev);
		json_object_object_add(o, "advice", json_object_new_string(x->advice));
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *notes_json(const struct bc_failover *f)
{
	struct json_object *a = json_object_new_array();
	const struct bc_fo_expect *e = &f->cfg.expect;
	uint64_t hold_ms = (f->cfg.restore_ns - f->cfg.cut_ns) / 1000000;
	char buf[600];

	for (int h = 0; f->cfg.have_expect && h < 2; h++) {
		const struct bc_fo_end_expect *x = &e->end[h];

		if (x->by == BC_FO_BY_NOTHING || x->by == BC_FO_BY_NONE_NEEDED ||
		    hold_ms >= x->worst_ms || (h == BC_FO_AGENT && e->assumed_agent))
			continue;
		snprintf(buf, sizeof(buf),
			 "the hold (%llu ms) was shorter than the %s's detection (up to %llu ms, "
			 "%s): a direction that stopped for the whole hold waiting on it has no "
			 "verdict (inconclusive); --hold %.1f covers it",
			 (unsigned long long)hold_ms, h == BC_FO_CLIENT ? "client" : "agent",
			 (unsigned long long)x->worst_ms, x->basis,
			 (double)(x->worst_ms + 1000) / 1000.0);
		json_object_array_add(a, json_object_new_string(buf));
	}
	if (f->cut_link < 0) {
		snprintf(buf, sizeof(buf), "no capture of the cut slave %s on the client",
			 f->cfg.cut_slave);
		json_object_array_add(a, json_object_new_string(buf));
	} else if (!f->dir[0].n_used_cut && !f->dir[1].n_used_cut && f->n_streams) {
		snprintf(buf, sizeof(buf),
			 "no stream used %s before the cut (a backup slave, or the hash put "
			 "every flow elsewhere): nothing had to fail over",
			 f->links[f->cut_link].name);
		json_object_array_add(a, json_object_new_string(buf));
	}
	for (size_t i = 0; i < f->n_links; i++)
		if ((f->links[i].lacp_defaulted_ns != BC_FO_NONE ||
		     f->links[i].lacp_timeout_ns != BC_FO_NONE) &&
		    f->links[i].lacp_resync_ns == BC_FO_NONE) {
			snprintf(
				buf, sizeof(buf),
				"%s: LACP did not re-sync before the capture ended; when the "
				"outage outlasts the DEFAULTED state (6 s after the partner's last "
				"LACPDU at lacp_rate fast) both ports send LACPDUs only every 30 s "
				"until they hear each other, so the re-sync can take up to 30 s",
				f->links[i].name);
			json_object_array_add(a, json_object_new_string(buf));
		}
	if (f->cfg.host_stall_ns >= 100000000ull) {
		snprintf(buf, sizeof(buf),
			 "the measuring host stalled up to %.0f ms during the test (a busy CPU): "
			 "the bond's own timers may have run late by as much, and the gaps with "
			 "them",
			 (double)f->cfg.host_stall_ns / 1e6);
		json_object_array_add(a, json_object_new_string(buf));
	}
	if (!f->clock_offset_known && f->n_streams)
		json_object_array_add(
			a, json_object_new_string(
				   "the clock offset between the ends could not be "
				   "estimated (one direction had no datagram seen at "
				   "both ends): the agent's times are taken as they are"));
	for (size_t i = 0; i < f->n_links; i++)
		if (f->links[i].truncated) {
			snprintf(buf, sizeof(buf),
				 "the capture of %s ends inside a record: "
				 "its counts are lower bounds",
				 f->links[i].name);
			json_object_array_add(a, json_object_new_string(buf));
		}
	return a;
}

/* The TCP flow alongside (--tcp); NULL when there was none. */
static struct json_object *tcp_json(const struct bc_failover *f)
{
	const struct bc_fo_tcp *t = &f->tcp;
	struct json_object *o, *x;

	if (!f->cfg.tcp_dport)
		return NULL;
	o = json_object_new_object();
	x = json_object_new_object();
	json_object_object_add(o, "direction", json_object_new_string(bc_fo_dir_name(BC_FO_C2A)));
	json_object_object_add(o, "sport", U64(t->sport));
	json_object_object_add(o, "dport", U64(f->cfg.tcp_dport));
	json_object_object_add(o, "verdict", json_object_new_string(t->verdict));
	json_object_object_add(o, "segments_left", U64(t->segments_left));
	json_object_object_add(o, "segments_arrived", U64(t->segments_arrived));
	json_object_object_add(o, "not_delivered", U64(t->not_delivered));
	json_object_object_add(o, "bytes_sent", U64(t->bytes_sent));
	json_object_object_add(o, "bytes_delivered", U64(t->bytes_delivered));
	json_object_object_add(o, "stall_ms", t->stall_found ? jms((int64_t)t->stall_ns) : NULL);
	json_object_object_add(o, "stall_open", json_object_new_boolean(t->stall_open));
	json_object_object_add(o, "last_before_ms", rel(t->last_before_ns, f->cfg.cut_ns));
	json_object_object_add(o, "first_after_ms", rel(t->first_after_ns, f->cfg.cut_ns));
	json_object_object_add(o, "retransmissions_seen", U64(t->retrans));
	json_object_object_add(o, "retransmissions_seen_in_hold", U64(t->retrans_in_hold));
	json_object_object_add(o, "sender_retransmissions",
			       f->cfg.tcp_sender_retrans >= 0 ? U64(f->cfg.tcp_sender_retrans)
							      : NULL);
	json_object_object_add(o, "first_retransmission_ms",
			       rel(t->first_retrans_ns, f->cfg.cut_ns));
	json_object_object_add(o, "goodput_before_bps", U64(t->goodput_before_bps));
	json_object_object_add(o, "goodput_after_bps", U64(t->goodput_after_bps));
	json_object_object_add(o, "left_before", link_name(f, t->left_before));
	json_object_object_add(o, "left_after", link_name(f, t->left_after));
	json_object_object_add(o, "arrived_before", link_name(f, t->arrived_before));
	json_object_object_add(o, "arrived_after", link_name(f, t->arrived_after));
	json_object_object_add(x, "udp_gap_ms", jms((int64_t)t->udp_gap_ns));
	json_object_object_add(x, "rto_ms", jms((int64_t)t->rto_ns));
	json_object_object_add(x, "min_ms", jms((int64_t)t->min_ns));
	json_object_object_add(x, "max_ms", jms((int64_t)t->max_ns));
	json_object_object_add(
		x, "rule",
		json_object_new_string(
			"at least the client-to-agent UDP gap (minus 20 ms), at most twice it plus "
			"one retransmission timeout (the sender's, at least srtt + 200 ms, Linux "
			"TCP_RTO_MIN; RFC 6298 5.5 doubles it on each timeout) plus 100 ms"));
	json_object_object_add(o, "expected", x);
	return o;
}

struct json_object *bc_failover_json(const struct bc_failover *f)
{
	struct json_object *o = json_object_new_object(), *c = json_object_new_object();

	if (!o || !c)
		return NULL;
	json_object_object_add(c, "bond", json_object_new_string(f->cfg.bond));
	json_object_object_add(c, "slave", json_object_new_string(f->cfg.cut_slave));
	json_object_object_add(
		c, "mode",
		json_object_new_string(f->cfg.cut == BC_FO_CUT_SILENT ? "silent" : "carrier"));
	json_object_object_add(c, "hold_ms", jms((int64_t)(f->cfg.restore_ns - f->cfg.cut_ns)));
	json_object_object_add(c, "cut_ns", U64(f->cfg.cut_ns));
	json_object_object_add(c, "restore_ns", U64(f->cfg.restore_ns));
	json_object_object_add(c, "cut_done_ns",
			       f->cfg.cut_done_ns ? U64(f->cfg.cut_done_ns) : NULL);
	json_object_object_add(c, "restore_done_ns",
			       f->cfg.restore_done_ns ? U64(f->cfg.restore_done_ns) : NULL);
	json_object_object_add(o, "cut", c);
	json_object_object_add(o, "host_stall_ms", jms((int64_t)f->cfg.host_stall_ns));
	json_object_object_add(o, "clock_offset_ns",
			       f->clock_offset_known ? U64(f->clock_offset_ns) : NULL);
	json_object_object_add(o, "expected", expect_json(f));
	if (f->cfg.have_expect) {
		struct json_object *w = json_object_new_object();

		json_object_object_add(w, "client", json_object_new_string(f->saw[BC_FO_CLIENT]));
		json_object_object_add(w, "agent", json_object_new_string(f->saw[BC_FO_AGENT]));
		json_object_object_add(o, "saw", w);
	}
	json_object_object_add(o, "directions", dirs_json(f));
	json_object_object_add(o, "streams", streams_json(f));
	json_object_object_add(o, "links", links_json(f));
	json_object_object_add(o, "recovery", recovery_json(f));
	if (f->cfg.tcp_dport)
		json_object_object_add(o, "tcp", tcp_json(f));
	json_object_object_add(o, "timeline", timeline_json(f));
	json_object_object_add(o, "events", events_json(f));
	json_object_object_add(o, "findings", findings_json(f));
	json_object_object_add(o, "notes", notes_json(f));
	return o;
}
