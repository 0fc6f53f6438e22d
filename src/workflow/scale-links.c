// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `scale --method links`: take slaves out on both ends and put them back
 * (bondcheck/journal.h, bond-change.h, peer-session.h).
 *
 *   1. A short UDP probe with capture over every slave, changing nothing:
 *      the attribution's learned path tx:client/X -> rx:agent/Y names the
 *      agent slave Y at the other end of X (else the agent slave of the same
 *      name), and its loss/reordering/idle evidence ranks the links, with
 *      the agent's inspect findings against Y.
 *   2. Journal both ends (our bond saved to its journal file; the agent
 *      journals its own over a change session kept open until the end).
 *   3. Each configuration: the slaves that leave go admin down here and
 *      their peers on the agent, then both bonds must be stable again (MII,
 *      LACP in sync) before a run starts.
 *   4. Restore both ends, also after SIGINT/SIGTERM (the flag stops the
 *      runs, this runs on the way out).  After SIGKILL the agent restores on
 *      its own when the session drops and `bondcheck restore` restores here.
 * The placement method changes nothing and passes through.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/bond-change.h"
#include "bondcheck/client.h"
#include "bondcheck/journal.h"
#include "bondcheck/json-get.h"
#include "bondcheck/peer-session.h"
#include "bondcheck/scale-doc.h"
#include "workflow/scale-int.h"

#define STABLE_MS  30000 /* a change must settle (LACP fast: ~3 s) */
#define RESTORE_MS 60000
#define FIELDS_MS  1000 /* first pass of our restore: fields back, no long wait */

struct links {
	struct bc_journal *j;
	char path[PATH_MAX];
	bool saved;
	struct bc_peer_session *ps;
	bool agent_journaled;
	char agent_bond[BC_IFNAMSIZ];
	unsigned changes;
};

static bool links(const struct bc_scale *s)
{
	return s->c->method == BC_SCALE_METHOD_LINKS;
}

int bc_scale_links_prepare(struct bc_scale *s, struct bc_error *err)
{
	if (!links(s))
		return 0;
	if (!s->c->allow_changes)
		return bc_error_set(err, -EINVAL,
				    "--method links takes slaves of %s down on both ends (and puts "
				    "them back); say so with --allow-changes",
				    s->bond);
	s->links = calloc(1, sizeof(struct links));
	if (!s->links)
		return bc_error_set(err, -ENOMEM, "out of memory");
	return 0;
}

/* Probe evidence against a slave: loss 50, reordering 30, idle 20 (inspect errors are 100). */
static int cause_score(const char *kind)
{
	return !strcmp(kind, "loss") ? 50 : !strcmp(kind, "reordering") ? 30 : 20;
}

static int severity_score(const char *sev)
{
	return !strcmp(sev, "error") ? 100 : !strcmp(sev, "warning") ? 10 : 1;
}

/*
 * The agent's inspect findings (the `inspect` message) against the agent
 * slave at the other end of one of ours count for ours too: a bad NIC on
 * either end makes the link bad.  An agent too old for the message, or
 * one that fails, adds nothing and the probe notes why.
 */
static void agent_findings(struct bc_scale *s, struct json_object *probe)
{
	struct json_object *rep = NULL, *bonds, *out = json_object_new_array();
	struct sockaddr_storage local, peer;
	struct bc_error e = {0};

	json_object_object_add(probe, "agent_findings", out);
	if (bc_client_peer_inspect(&s->c->client, &rep, &local, &peer, NULL, NULL, &e) < 0) {
		json_object_object_add(probe, "agent_inspect_error", json_object_new_string(e.msg));
		return;
	}
	bonds = json_object_object_get(json_object_object_get(rep, "end"), "bonds");
	for (size_t b = 0; b < bc_json_len(bonds); b++) {
		struct json_object *bo = json_object_array_get_idx(bonds, b);
		struct json_object *f = json_object_object_get(bo, "findings");
		const char *bond = bc_json_str(bo, "name");

		for (size_t k = 0; k < bc_json_len(f); k++) {
			struct json_object *x = json_object_array_get_idx(f, k);
			const char *subj = bc_json_str(x, "subject");
			size_t bl = strlen(bond);

			if (strncmp(subj, bond, bl) || subj[bl] != '/')
				continue;
			for (size_t i = 0; i < s->n_sl; i++)
				if (s->sl[i].peer[0] && !strcmp(subj + bl + 1, s->sl[i].peer)) {
					s->sl[i].score +=
						severity_score(bc_json_str(x, "severity"));
					json_object_array_add(out, json_object_get(x));
				}
		}
	}
	json_object_put(rep);
}

/* The probe: agent peers from the learned paths, link evidence for the order. */
static int probe(struct bc_scale *s, struct links *l, struct bc_error *err)
{
	struct json_object *res = NULL, *p = json_object_new_object(), *peers, *an, *causes, *v;
	double rate = bc_scale_config_ceiling(s, 1, (uint32_t)s->n_sl) * BC_SCALE_DIAG_SHARE;
	int r;

	if (!(rate > 0))
		rate = 5e6;
	json_object_object_add(s->extra, "probe", p);
	json_object_object_add(p, "protocol", json_object_new_string("udp"));
	json_object_object_add(p, "offered_bps", json_object_new_double(rate));
	r = bc_scale_one_run(s, 1, (uint32_t)s->n_sl, rate, true, &res, err);
	if (r < 0)
		return r;
	json_object_object_add(p, "goodput_bps",
			       json_object_new_double(bc_json_dbl(res, "goodput_bps", 0)));
	v = json_object_object_get(
		json_object_object_get(
			json_object_object_get(json_object_object_get(res, "ends"), "agent"),
			"metadata"),
		"bond");
	snprintf(l->agent_bond, sizeof(l->agent_bond), "%s", bc_json_str(v, "bond"));
	json_object_object_add(p, "agent_bond", json_object_new_string(l->agent_bond));
	an = json_object_object_get(json_object_object_get(res, "capture"), "analysis");
	peers = json_object_new_object();
	for (size_t i = 0; i < s->n_sl; i++) {
		struct json_object *ls = json_object_object_get(an, "links");
		char tx[64];

		snprintf(tx, sizeof(tx), "tx:client/%s", s->sl[i].name);
		for (size_t k = 0; k < bc_json_len(ls); k++) {
			struct json_object *o = json_object_array_get_idx(ls, k);
			const char *peer = bc_json_str(o, "peer");

			if (!strcmp(bc_json_str(o, "name"), tx) && !strncmp(peer, "rx:agent/", 9))
				snprintf(s->sl[i].peer, sizeof(s->sl[i].peer), "%s", peer + 9);
		}
		json_object_object_add(peers, s->sl[i].name,
				       s->sl[i].peer[0] ? json_object_new_string(s->sl[i].peer)
							: NULL);
	}
	json_object_object_add(p, "peers", peers);
	causes = bc_scale_cause(res, NULL, 0);
	for (size_t k = 0; k < bc_json_len(causes); k++) {
		struct json_object *c = json_object_array_get_idx(causes, k);

		for (size_t i = 0; i < s->n_sl; i++)
			if (!strcmp(s->sl[i].name, bc_json_str(c, "slave")))
				s->sl[i].score += cause_score(bc_json_str(c, "kind"));
	}
	json_object_object_add(p, "causes", causes);
	json_object_put(res);
	agent_findings(s, p);
	if (!l->agent_bond[0])
		return bc_error_set(
			err, -ENOTSUP,
			"the agent's route back does not leave by a bond: --method links "
			"needs a bond on both ends");
	return 0;
}

/* A slave without a learned peer: the agent slave of the same name, when it has one. */
static int peers_by_name(struct bc_scale *s, struct links *l, struct bc_error *err)
{
	struct json_object *st = bc_peer_journal_state(l->ps),
			   *sl = json_object_object_get(st, "slaves");

	for (size_t i = 0; i < s->n_sl; i++) {
		if (s->sl[i].peer[0])
			continue;
		for (size_t k = 0; k < bc_json_len(sl); k++) {
			struct json_object *o = json_object_array_get_idx(sl, k);

			if (!strcmp(bc_json_str(o, "name"), s->sl[i].name))
				memcpy(s->sl[i].peer, s->sl[i].name, sizeof(s->sl[i].peer));
		}
	}
	/* only slaves that will leave need a peer */
	for (size_t k = 0; k + s->nmin < s->n_sl; k++) {
		const struct bc_scale_slave *x = &s->sl[s->order[k]];

		if (!x->peer[0])
			return bc_error_set(
				err, -ENOTSUP,
				"no probe traffic crossed %s and the agent's %s has no "
				"slave of that name, so the agent slave at its other end "
				"is unknown; name the slaves that leave with --order",
				x->name, l->agent_bond);
	}
	return 0;
}

int bc_scale_links_begin(struct bc_scale *s, struct bc_error *err)
{
	struct links *l = s->links;
	int r;

	if (!links(s))
		return 0;
	if (s->c->on_progress) {
		struct bc_scale_progress p = {
			.phase = "probe", .protocol = "udp", .n = (unsigned)s->n_sl};

		s->c->on_progress(s->c->ctx, &p);
	}
	r = probe(s, l, err);
	if (r < 0)
		return r;
	/* journal first, here and there, before anything changes */
	r = bc_journal_capture(s->bond, &l->j, err);
	if (r == 0)
		r = bc_journal_default_path(s->bond, l->path, sizeof(l->path), err);
	if (r == 0)
		r = bc_journal_save(l->j, l->path, err);
	if (r < 0)
		return r;
	l->saved = true;
	json_object_object_add(s->extra, "journal", json_object_new_string(l->path));
	r = bc_peer_session_open(&s->c->client, &l->ps, err);
	if (r == 0)
		r = bc_peer_journal(l->ps, l->agent_bond, err);
	if (r < 0)
		return r;
	l->agent_journaled = true;
	return 0;
}

/* The order is known once the probe ranked the links: the peers are then checked. */
int bc_scale_links_check(struct bc_scale *s, struct bc_error *err)
{
	if (!links(s))
		return 0;
	return peers_by_name(s, s->links, err);
}

static void change_record(struct bc_scale *s, const char *slave, const char *peer, bool up)
{
	struct json_object *a = json_object_object_get(s->extra, "changes"), *o;

	if (!a) {
		a = json_object_new_array();
		json_object_object_add(s->extra, "changes", a);
	}
	o = json_object_new_object();
	json_object_object_add(o, "slave", json_object_new_string(slave));
	json_object_object_add(o, "agent_slave", json_object_new_string(peer));
	json_object_object_add(o, "admin", json_object_new_string(up ? "up" : "down"));
	json_object_array_add(a, o);
}

int bc_scale_apply(struct bc_scale *s, uint32_t n, struct bc_error *err)
{
	struct links *l = s->links;
	size_t gone = s->n_sl - n;
	bool changed = false;
	int r;

	if (!links(s))
		return 0;
	if (!n || n > s->n_sl)
		return bc_error_set(err, -EINVAL,
				    "configuration N=%u: %s has %zu usable slaves and never loses "
				    "its last one",
				    n, s->bond, s->n_sl);
	/* down first (agent peer after ours), then up (agent peer before ours) */
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < s->n_sl; k++) {
			struct bc_scale_slave *x = &s->sl[s->order[k]];
			bool down = k < gone;

			if (down == x->down || (pass == 0) != down)
				continue;
			if (s->c->on_progress) {
				struct bc_scale_progress p = {.phase = "change", .n = n};

				s->c->on_progress(s->c->ctx, &p);
			}
			if (down) {
				r = bc_link_set_up(x->name, false, err);
				if (r == 0)
					r = bc_peer_change(l->ps, BC_CHANGE_SLAVE_DOWN, x->peer, 0,
							   err);
			} else {
				r = bc_peer_change(l->ps, BC_CHANGE_SLAVE_UP, x->peer, 0, err);
				if (r == 0)
					r = bc_link_set_up(x->name, true, err);
			}
			/* recorded before the error check: a half-made change is undone by restore
			 */
			x->down = down;
			change_record(s, x->name, x->peer, !down);
			l->changes++;
			changed = true;
			if (r < 0)
				return r;
		}
	if (changed)
		return bc_bond_wait_stable(s->bond, STABLE_MS, err);
	return 0;
}

/*
 * Both ends come back together: a slave's carrier (and LACP) needs the
 * peer up too, so neither end can settle while the other is still down.
 * Our fields first with a short wait (-EAGAIN expected), then the agent's
 * restore (it waits until its bond is stable, which our restored side now
 * allows), then ours again: idempotent, it changes what still differs and
 * waits until our bond is stable.
 */
int bc_scale_links_end(struct bc_scale *s, struct bc_error *err)
{
	struct links *l = s->links;
	struct json_object *rep = NULL, *o;
	int r = 0, ra = 0;

	if (!links(s) || !l)
		return 0;
	if (s->c->on_progress) {
		struct bc_scale_progress p = {.phase = "restore"};

		s->c->on_progress(s->c->ctx, &p);
	}
	o = json_object_new_object();
	if (l->saved) {
		r = bc_journal_restore(l->j, FIELDS_MS, &rep, NULL);
		json_object_object_add(o, "client", rep);
	}
	if (l->agent_journaled) {
		struct bc_error e = {0};

		rep = NULL;
		ra = bc_peer_restore(l->ps, &rep, &e);
		json_object_object_add(o, "agent", rep);
		if (ra < 0)
			bc_error_set(err, ra, "the agent's restore: %s", e.msg);
	}
	if (l->saved) {
		rep = NULL;
		r = bc_journal_restore(l->j, RESTORE_MS, &rep, err);
		json_object_object_add(o, "client_settled", rep);
		if (r == 0)
			bc_journal_remove(l->path, NULL);
	}
	if (r == 0)
		r = ra;
	json_object_object_add(o, "ok", json_object_new_boolean(r == 0));
	json_object_object_add(s->extra, "restore", o);
	json_object_object_add(s->extra, "slave_changes", json_object_new_int64(l->changes));
	bc_peer_session_close(l->ps);
	bc_journal_free(l->j);
	free(l);
	s->links = NULL;
	return r;
}
