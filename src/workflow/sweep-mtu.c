// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The MTU sweep (bondcheck/sweep.h): both ends' MTU changed per value,
 * journaled first and restored at the end, on every error and on
 * interruption, like `scale --method links` (API-journal.md,
 * bondcheck/journal.h, bondcheck/peer-session.h).
 *
 * Each end changes the master its test traffic leaves by: a bond (the
 * kernel sets every slave to the bond's MTU, bond_change_mtu()) or a
 * bridge (its ports first, then the bridge: a bridge does not propagate).
 * The local end uses bc_link_set_mtu() and bc_bond_wait_stable(); the agent
 * its change session ("change" op "mtu"), which answers once its bond is
 * stable.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/bond-change.h"
#include "bondcheck/journal.h"
#include "bondcheck/json-get.h"
#include "bondcheck/peer-session.h"
#include "workflow/sweep-int.h"

#define DISCOVERY_MS 200

/* Both ends' egress interfaces from a short test (the result's metadata). */
static int discover(const struct bc_sweep_cfg *c, char *local, char *agent, size_t len,
		    struct bc_error *err)
{
	struct bc_client_cfg cc = c->client;
	struct json_object *res = NULL, *ends;
	int r;

	cc.plan.proto = BC_L4_UDP;
	cc.plan.streams = 1;
	cc.plan.dir = BC_DIR_FORWARD;
	cc.plan.length = 512;
	cc.plan.rate_bps = 1000000;
	cc.plan.duration_ms = DISCOVERY_MS;
	cc.plan.omit_ms = 0;
	cc.plan.interval_ms = DISCOVERY_MS;
	cc.plan.tmax_ms = 100;
	cc.total_rate_bps = 0;
	cc.place_k = 0;
	cc.capture = false;
	r = bc_client_run(&cc, &res, err);
	if (r < 0)
		return r;
	ends = json_object_object_get(res, "ends");
	snprintf(local, len, "%s",
		 bc_json_str(json_object_object_get(
				     json_object_object_get(json_object_object_get(ends, "client"),
							    "metadata"),
				     "egress"),
			     "name"));
	snprintf(agent, len, "%s",
		 bc_json_str(json_object_object_get(
				     json_object_object_get(json_object_object_get(ends, "agent"),
							    "metadata"),
				     "egress"),
			     "name"));
	json_object_put(res);
	if (!local[0] || !agent[0])
		return bc_error_set(err, -ENODEV,
				    "could not tell which interface the test leaves by (client "
				    "'%s', agent '%s')",
				    local, agent);
	return 0;
}

/*
 * The interfaces to set, in order, for master @state (journal JSON): a bond
 * alone, or a bridge's ports then the bridge.  Returns the count.
 */
static size_t targets(struct json_object *state, const char **out, size_t max)
{
	struct json_object *slaves = json_object_object_get(state, "slaves");
	size_t n = 0;

	if (strcmp(bc_json_str(state, "kind"), "bond"))
		for (size_t i = 0; i < bc_json_len(slaves) && n + 1 < max; i++)
			out[n++] = bc_json_str(json_object_array_get_idx(slaves, i), "name");
	out[n++] = bc_json_str(state, "bond");
	return n;
}

struct ends {
	struct bc_journal *j;
	struct json_object *local_state;
	char path[512];
	bool saved;
	struct bc_peer_session *s;
};

static int set_local(const struct bc_sweep_cfg *c, struct ends *e, uint32_t mtu,
		     struct bc_error *err)
{
	const char *t[BC_JOURNAL_MAX_SLAVES + 1];
	size_t n = targets(e->local_state, t, BC_JOURNAL_MAX_SLAVES + 1);
	int r;

	for (size_t i = 0; i < n; i++) {
		r = bc_link_set_mtu(t[i], mtu, err);
		if (r < 0)
			return r;
	}
	return bc_bond_wait_stable(t[n - 1], c->stable_timeout_ms, err);
}

static int set_agent(struct ends *e, uint32_t mtu, struct bc_error *err)
{
	const char *t[BC_JOURNAL_MAX_SLAVES + 1];
	size_t n = targets(bc_peer_journal_state(e->s), t, BC_JOURNAL_MAX_SLAVES + 1);
	int r;

	for (size_t i = 0; i < n; i++) {
		r = bc_peer_change(e->s, BC_CHANGE_MTU, t[i], mtu, err);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Restore both ends; the reports go into @changes.  0 when both are back. */
static int restore(const struct bc_sweep_cfg *c, struct ends *e, struct json_object *changes)
{
	struct json_object *rep = NULL;
	struct bc_error le = {0}, ae = {0};
	int lr = 0, ar = 0;

	if (e->j) {
		lr = bc_journal_restore(e->j, c->stable_timeout_ms, &rep, &le);
		json_object_object_add(json_object_object_get(changes, "local"), "restore", rep);
		if (lr == 0 && e->saved)
			bc_journal_remove(e->path, NULL);
		if (lr < 0)
			json_object_object_add(json_object_object_get(changes, "local"),
					       "restore_error", json_object_new_string(le.msg));
	}
	if (e->s) {
		rep = NULL;
		if (bc_peer_journal_state(e->s)) {
			ar = bc_peer_restore(e->s, &rep, &ae);
			json_object_object_add(json_object_object_get(changes, "agent"), "restore",
					       rep);
			if (ar < 0)
				json_object_object_add(json_object_object_get(changes, "agent"),
						       "restore_error",
						       json_object_new_string(ae.msg));
		}
		bc_peer_session_close(e->s); /* the agent restores on close in any case */
		e->s = NULL;
	}
	bc_journal_free(e->j);
	e->j = NULL;
	json_object_put(e->local_state);
	e->local_state = NULL;
	bc_sweep_say(c, "restored: local %s, agent %s", lr == 0 ? "ok" : le.msg,
		     ar == 0 ? "ok" : ae.msg);
	json_object_object_add(changes, "restored", json_object_new_boolean(lr == 0 && ar == 0));
	return lr < 0 ? lr : ar;
}

int bc_sweep_mtu(const struct bc_sweep_cfg *c, struct json_object *doc, struct bc_error *err)
{
	struct json_object *points = json_object_object_get(doc, "points");
	struct json_object *changes = json_object_new_object(), *lo, *ao, *steps;
	struct ends e = {0};
	char local[64], agent[64], summary[700];
	int r, rr;

	json_object_object_add(doc, "changes", changes);
	r = discover(c, local, agent, sizeof(local), err);
	if (r < 0)
		return r;
	lo = json_object_new_object();
	ao = json_object_new_object();
	steps = json_object_new_array();
	json_object_object_add(lo, "interface", json_object_new_string(local));
	json_object_object_add(ao, "interface", json_object_new_string(agent));
	json_object_object_add(changes, "local", lo);
	json_object_object_add(changes, "agent", ao);
	json_object_object_add(changes, "steps", steps);
	/* journal both ends before anything changes */
	r = bc_journal_capture(local, &e.j, err);
	if (r == -ENODEV) {
		bc_error_clear(err);
		r = bc_error_set(
			err, r,
			"the test leaves this host by %s, which is not a bond or bridge: an "
			"MTU sweep changes the bond (its slaves follow) after journaling it",
			local);
	}
	if (r == 0)
		r = bc_journal_default_path(local, e.path, sizeof(e.path), err);
	if (r == 0)
		r = bc_journal_save(e.j, e.path, err);
	if (r < 0)
		goto out;
	e.saved = true;
	e.local_state = bc_journal_to_json(e.j);
	json_object_object_add(lo, "kind",
			       json_object_new_string(bc_json_str(e.local_state, "kind")));
	json_object_object_add(lo, "journal", json_object_new_string(e.path));
	r = bc_peer_session_open(&c->client, &e.s, err);
	if (r == 0)
		r = bc_peer_journal(e.s, agent, err);
	if (r < 0)
		goto out;
	json_object_object_add(
		ao, "kind",
		json_object_new_string(bc_json_str(bc_peer_journal_state(e.s), "kind")));
	bc_sweep_say(c, "journaled %s here and %s on the agent", local, agent);
	for (size_t i = 0; i < c->spec.n && !*c->interrupted; i++) {
		struct json_object *p = json_object_array_get_idx(points, i), *st;
		uint32_t mtu = (uint32_t)c->spec.values[i];

		r = set_local(c, &e, mtu, err);
		if (r == 0)
			r = set_agent(&e, mtu, err);
		st = json_object_new_object();
		json_object_object_add(st, "mtu", json_object_new_int64(mtu));
		json_object_object_add(st, "ok", json_object_new_boolean(r == 0));
		if (r < 0)
			json_object_object_add(st, "error", json_object_new_string(err->msg));
		json_object_array_add(steps, st);
		if (r < 0)
			goto out;
		bc_sweep_say(c, "MTU %u set on %s and %s; both stable", mtu, local, agent);
		for (unsigned rep = 1; rep <= c->repetitions && !*c->interrupted; rep++)
			bc_sweep_run_point(c, p, rep);
	}
	if (*c->interrupted)
		r = bc_error_set(err, -EINTR, "interrupted; both ends restored");
out:
	rr = restore(c, &e, changes);
	snprintf(summary, sizeof(summary), "MTU set on %s (%s) here and %s (%s) on the agent; %s",
		 local, bc_json_str(lo, "kind"), agent, bc_json_str(ao, "kind"),
		 rr == 0 ? "both restored"
			 : "RESTORE FAILED: run `bondcheck restore` on both hosts");
	json_object_object_add(changes, "summary", json_object_new_string(summary));
	if (r == 0 && rr < 0)
		r = bc_error_set(err, rr, "%s", summary);
	return r;
}
