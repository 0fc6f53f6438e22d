// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A failover document saved by an earlier bondcheck, read again with the
 * per-end reasoning (bc_failover_reread(), bondcheck/failover-report.h):
 * each end's configuration from its "ends", each direction's figures from
 * its "directions", judged by the same code as a new run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/failover-report.h"
#include "bondcheck/json-get.h"
#include "bondcheck/names.h"

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* One end from the document's "ends" member (its {bond, mode, miimon, ...}); false: unknown. */
static bool end_of(struct json_object *o, struct bc_fo_end *e)
{
	const char *rate;

	memset(e, 0, sizeof(*e));
	if (!o || !json_object_is_type(o, json_type_object))
		return false;
	e->known = true;
	e->is_bond = json_object_get_boolean(get(o, "bond"));
	if (!e->is_bond)
		return true;
	e->mode = bc_mode_from_name(bc_json_str(o, "mode"));
	e->miimon_ms = (uint32_t)bc_json_i64(o, "miimon", 0);
	e->updelay_ms = (uint32_t)bc_json_i64(o, "updelay", 0);
	e->downdelay_ms = (uint32_t)bc_json_i64(o, "downdelay", 0);
	e->arp_interval_ms = (uint32_t)bc_json_i64(o, "arp_interval", 0);
	e->arp_missed_max = (uint32_t)bc_json_i64(o, "arp_missed_max", 0);
	e->n_arp_targets = (uint32_t)bc_json_i64(o, "arp_ip_targets", 0);
	rate = bc_json_str(o, "lacp_rate");
	e->lacp_rate = !strcmp(rate, "fast") ? 1 : !strcmp(rate, "slow") ? 0 : -1;
	return true;
}

/* Replace (or add) member @k of @o with a new reference to @v. */
static void put(struct json_object *o, const char *k, struct json_object *v)
{
	json_object_object_add(o, k, v ? json_object_get(v) : NULL);
}

int bc_failover_reread(struct json_object *doc, struct bc_error *err)
{
	struct json_object *ex = get(doc, "expected"), *cut = get(doc, "cut");
	struct json_object *ds = get(doc, "directions"), *nj, *notes;
	struct bc_fo_end c, a;
	struct bc_failover *f;
	int r;

	if (!ex || get(ex, "directions") || !end_of(get(get(doc, "ends"), "client"), &c))
		return 0; /* a document of this version, or one without the client's bond */
	end_of(get(get(doc, "ends"), "agent"), &a);
	f = calloc(1, sizeof(*f));
	if (!f)
		return bc_error_set(err, -ENOMEM, "out of memory re-reading the document");
	bc_fo_cfg_default(&f->cfg);
	f->cfg.cut =
		strcmp(bc_json_str(cut, "mode"), "silent") ? BC_FO_CUT_CARRIER : BC_FO_CUT_SILENT;
	if (bc_failover_expect(&c, &a, f->cfg.cut, &f->cfg.expect) < 0) {
		free(f);
		return 0;
	}
	f->cfg.have_expect = true;
	f->cfg.cut_ns = (uint64_t)bc_json_i64(cut, "cut_ns", 0);
	f->cfg.restore_ns = (uint64_t)bc_json_i64(cut, "restore_ns", 0);
	f->cfg.host_stall_ns = (uint64_t)(bc_json_dbl(doc, "host_stall_ms", 0) * 1e6);
	snprintf(f->cfg.bond, sizeof(f->cfg.bond), "%s", bc_json_str(cut, "bond"));
	snprintf(f->cfg.cut_slave, sizeof(f->cfg.cut_slave), "%s", bc_json_str(cut, "slave"));
	f->cut_link = -1;
	f->last_ns = f->cfg.restore_ns;
	for (size_t d = 0; d < 2 && d < bc_json_len(ds); d++) {
		struct json_object *x = json_object_array_get_idx(ds, d);
		struct bc_fo_dirsum *s = &f->dir[d];

		s->n_streams = (size_t)bc_json_i64(x, "streams", 0);
		s->n_interrupted = (size_t)bc_json_i64(x, "interrupted", 0);
		s->n_black_hole = (size_t)bc_json_i64(x, "black_holed", 0);
		s->gap_ns = (uint64_t)(bc_json_dbl(x, "gap_ms", 0) * 1e6);
		s->lost_in_gap = (uint64_t)bc_json_i64(x, "lost_in_gap", 0);
		s->not_recovered = json_object_get_boolean(get(x, "not_recovered"));
		s->sender_moved = -1; /* its departures were not kept */
		s->left_at_ns = BC_FO_NONE;
	}
	r = bc_failover_judge(f);
	nj = r < 0 ? NULL : bc_failover_json(f);
	if (!nj) {
		bc_failover_free(f);
		free(f);
		return bc_error_set(err, -ENOMEM, "out of memory re-reading the document");
	}
	put(doc, "expected", get(nj, "expected"));
	put(doc, "findings", get(nj, "findings"));
	for (size_t d = 0; d < 2 && d < bc_json_len(ds); d++) {
		struct json_object *x = json_object_array_get_idx(ds, d);
		struct json_object *y = json_object_array_get_idx(get(nj, "directions"), d);

		put(x, "verdict", get(y, "verdict"));
		put(x, "why", get(y, "why"));
	}
	notes = get(doc, "notes");
	if (!notes) {
		notes = json_object_new_array();
		json_object_object_add(doc, "notes", notes);
	}
	json_object_array_add(
		notes,
		json_object_new_string(
			"saved by an earlier bondcheck and read again: expectations, verdicts "
			"and findings from its ends' configuration and its gaps; who saw the "
			"cut is not known, and its sender's slaves after the failover are as "
			"saved (the first delivered datagram's, not the departures)"));
	json_object_put(nj);
	bc_failover_free(f);
	free(f);
	return 0;
}
