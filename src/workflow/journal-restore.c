// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bc_journal_restore(): put a bond back as its journal recorded it, in the
 * order the kernel's option constraints require (bondcheck/journal.h gives
 * the order and why), changing only what differs, then wait until the bond
 * is stable and report every field: journal, before, after, action, ok.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/if.h>

#include "bondcheck/bond-change.h"
#include "bondcheck/json-get.h"
#include "bondcheck/rtnl.h"
#include "collect/link-change.h"
#include "collect/live-links.h"
#include "workflow/journal-int.h"

struct act {
	char field[64];
	char text[200];
};

struct rctx {
	const struct bc_journal *j;
	struct act *acts;
	size_t n_acts, cap;
	struct json_object *errors;
	bool failed;
};

/* Record what was done to @field; a "not restored" stays. */
static void note(struct rctx *c, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void note(struct rctx *c, const char *field, const char *fmt, ...)
{
	char text[sizeof(c->acts[0].text)];
	struct act *a = NULL;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < c->n_acts; i++)
		if (!strcmp(c->acts[i].field, field))
			a = &c->acts[i];
	if (a && !strncmp(a->text, "not restored", 12))
		return;
	if (!a) {
		if (c->n_acts == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 32;
			struct act *v = realloc(c->acts, cap * sizeof(*v));

			if (!v)
				return;
			c->acts = v;
			c->cap = cap;
		}
		a = &c->acts[c->n_acts++];
		snprintf(a->field, sizeof(a->field), "%s", field);
	}
	snprintf(a->text, sizeof(a->text), "%s", text);
}

static const char *action_of(const struct rctx *c, const char *field)
{
	for (size_t i = 0; i < c->n_acts; i++)
		if (!strcmp(c->acts[i].field, field))
			return c->acts[i].text;
	return "none";
}

/* A step failed: the field is "not restored", the error listed. */
static void failed(struct rctx *c, const char *field, const struct bc_error *e)
{
	note(c, field, "not restored: %s", e->msg);
	json_object_array_add(c->errors, json_object_new_string(e->msg));
	c->failed = true;
}

static void fieldname(char *buf, size_t len, const struct bc_journal *j, const char *slave,
		      const char *what)
{
	if (slave)
		snprintf(buf, len, "%s/%s.%s", j->bond, slave, what);
	else
		snprintf(buf, len, "%s.%s", j->bond, what);
}

static bool opt_differs(const struct bc_journal *j, const struct bc_journal *live, size_t i)
{
	return j->opt[i].known && (!live->opt[i].known || live->opt[i].v != j->opt[i].v);
}

static int set_opt(struct rctx *c, size_t i, uint32_t v)
{
	const struct jopt_desc *d = &bc_jopts[i];
	struct bc_nla a = {.type = d->attr, .kind = d->kind, .v = v};
	struct bc_error e = {0};
	char f[64], t[64];
	int r;

	fieldname(f, sizeof(f), c->j, NULL, d->name);
	r = bc_bond_set_attrs(c->j->bond, &a, 1, &e);
	if (r < 0)
		failed(c, f, &e);
	else
		note(c, f, "set to %s", bc_jopt_text(i, v, t, sizeof(t)));
	return r;
}

static void set_opts_phase(struct rctx *c, const struct bc_journal *live, int phase)
{
	for (size_t i = 0; i < bc_n_jopts; i++)
		if (bc_jopts[i].phase == phase && opt_differs(c->j, live, i))
			set_opt(c, i, c->j->opt[i].v);
}

static void set_admin(struct rctx *c, const char *ifname, const char *slave, bool up,
		      const char *why)
{
	struct bc_error e = {0};
	char f[64];

	fieldname(f, sizeof(f), c->j, slave, "admin_state");
	if (bc_link_set_up(ifname, up, &e) < 0)
		failed(c, f, &e);
	else
		note(c, f, "set %s%s", up ? "up" : "down", why);
}

static bool same_targets(const char *a, size_t wa, size_t na, const char *b, size_t wb, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a + i * wa, b + i * wb))
			return false;
	return true;
}

static void set_targets(struct rctx *c, const struct bc_journal *live, bool v6)
{
	unsigned char bin[BC_MAX_TARGETS][16];
	size_t n = v6 ? c->j->n_ns_targets : c->j->n_arp_targets, each = v6 ? 16 : 4;
	struct bc_nla a = {.type = v6 ? BC_IFLA_BOND_NS_IP6_TARGET : BC_IFLA_BOND_ARP_IP_TARGET,
			   .kind = v6 ? BC_NLA_TARGETS6 : BC_NLA_TARGETS4};
	unsigned char flat[BC_MAX_TARGETS * 16];
	struct bc_error e = {0};
	char f[64];

	if (v6 ? !c->j->ns_targets_known : !c->j->arp_targets_known)
		return;
	if (v6 ? same_targets(c->j->ns_targets[0], 48, c->j->n_ns_targets, live->ns_targets[0], 48,
			      live->n_ns_targets)
	       : same_targets(c->j->arp_targets[0], 16, c->j->n_arp_targets, live->arp_targets[0],
			      16, live->n_arp_targets))
		return;
	for (size_t i = 0; i < n; i++) {
		inet_pton(v6 ? AF_INET6 : AF_INET, v6 ? c->j->ns_targets[i] : c->j->arp_targets[i],
			  bin[i]);
		memcpy(flat + i * each, bin[i], each);
	}
	a.data = flat;
	a.len = n * each;
	fieldname(f, sizeof(f), c->j, NULL, v6 ? "ns_ip6_target" : "arp_ip_target");
	if (bc_bond_set_attrs(c->j->bond, &a, 1, &e) < 0)
		failed(c, f, &e);
	else
		note(c, f, "set");
}

/* ARP/MII monitoring: zeroes first (they exclude each other), targets, then the values. */
static void set_monitors(struct rctx *c, const struct bc_journal *live)
{
	for (size_t i = 0; i < bc_n_jopts; i++)
		if (bc_jopts[i].phase == 2 && c->j->opt[i].known && c->j->opt[i].v == 0 &&
		    opt_differs(c->j, live, i))
			set_opt(c, i, 0);
	set_targets(c, live, false);
	set_targets(c, live, true);
	for (size_t i = 0; i < bc_n_jopts; i++)
		if (bc_jopts[i].phase == 2 && c->j->opt[i].known && c->j->opt[i].v != 0 &&
		    opt_differs(c->j, live, i))
			set_opt(c, i, c->j->opt[i].v);
}

static int recapture(struct rctx *c, struct bc_journal **live, struct bc_error *err)
{
	bc_journal_free(*live);
	*live = NULL;
	return bc_journal_capture_live(c->j->bond, live, err);
}

static bool live_has(const struct bc_journal *live, const char *name)
{
	return bc_journal_find_slave(live, name) != NULL;
}

/*
 * Membership and order.  Bonds: release every slave from the first one out
 * of place (all of them when @noslaves), then enslave the journal's in
 * order.  Other masters: a set.
 */
static void release_slaves(struct rctx *c, const struct bc_journal *live, bool noslaves,
			   size_t *keep)
{
	const struct bc_journal *j = c->j;
	char f[64];
	size_t k = 0;

	fieldname(f, sizeof(f), j, NULL, "slaves");
	if (j->is_bond && !noslaves)
		while (k < live->n_slaves && k < j->n_slaves &&
		       !strcmp(live->slaves[k].name, j->slaves[k].name))
			k++;
	*keep = k;
	for (size_t i = k; i < live->n_slaves; i++) {
		struct bc_error e = {0};

		if (!j->is_bond && bc_journal_find_slave(j, live->slaves[i].name))
			continue;
		if (bc_link_set_master(live->slaves[i].name, NULL, &e) < 0)
			failed(c, f, &e);
		else
			note(c, f, "re-enslaved in journal order");
	}
}

static void enslave_missing(struct rctx *c, const struct bc_journal *live, size_t keep)
{
	const struct bc_journal *j = c->j;
	struct bc_live_links links;
	struct bc_error e = {0};
	char f[64];

	fieldname(f, sizeof(f), j, NULL, "slaves");
	if (bc_live_links_read(&links, &e) < 0) {
		failed(c, f, &e);
		return;
	}
	for (size_t i = keep; i < j->n_slaves; i++) {
		const char *name = j->slaves[i].name;
		const struct bc_live_link *l = bc_live_link_by_name(&links, name);
		const struct bc_live_link *m = bc_live_link_by_name(&links, j->bond);

		bc_error_clear(&e);
		if (!j->is_bond && live_has(live, name))
			continue;
		if (!l) {
			bc_error_set(&e, -ENODEV, "slave %s no longer exists", name);
			failed(c, f, &e);
			continue;
		}
		if (l->master && (!m || l->master != m->ifindex)) {
			const struct bc_live_link *o = bc_live_link_by_index(&links, l->master);

			bc_error_set(&e, -EBUSY,
				     "%s is now a slave of %s; release it (`ip link set %s "
				     "nomaster`) and run restore again",
				     name, o ? o->name : "another device", name);
			failed(c, f, &e);
			continue;
		}
		/* bonding enslaves a down device and opens it itself (bond_enslave) */
		if (j->is_bond && (l->flags & IFF_UP) && bc_link_set_up(name, false, &e) < 0) {
			failed(c, f, &e);
			continue;
		}
		if (bc_link_set_master(name, j->bond, &e) < 0)
			failed(c, f, &e);
		else
			note(c, f, "re-enslaved in journal order");
	}
	bc_live_links_free(&links);
}

static void set_device(struct rctx *c, const char *ifname, const char *slave, uint32_t mtu,
		       const char *mac, const struct bc_jslave *now_s, const struct bc_journal *now)
{
	uint32_t cur_mtu = now_s ? now_s->mtu : now->mtu;
	const char *cur_mac = now_s ? now_s->mac : now->mac;
	struct bc_error e = {0};
	char f[64];

	if (cur_mtu != mtu) {
		fieldname(f, sizeof(f), c->j, slave, "mtu");
		if (bc_link_set_mtu(ifname, mtu, &e) < 0)
			failed(c, f, &e);
		else
			note(c, f, "set to %u", mtu);
	}
	bc_error_clear(&e);
	if (mac[0] && strcasecmp(cur_mac, mac)) {
		fieldname(f, sizeof(f), c->j, slave, "mac");
		if (bc_link_set_mac(ifname, mac, &e) < 0)
			failed(c, f, &e);
		else
			note(c, f, "set to %s", mac);
	}
}

static void set_slave_opts(struct rctx *c, const struct bc_journal *live)
{
	for (size_t i = 0; i < c->j->n_slaves; i++) {
		const struct bc_jslave *s = &c->j->slaves[i];
		const struct bc_jslave *n = bc_journal_find_slave(live, s->name);
		struct bc_error e = {0};
		struct bc_nla a;
		char f[64];

		if (!n)
			continue;
		if (s->queue_id_known && (!n->queue_id_known || n->queue_id != s->queue_id)) {
			a = (struct bc_nla){.type = BC_IFLA_BOND_SLAVE_QUEUE_ID,
					    .kind = BC_NLA_U16,
					    .v = s->queue_id};
			fieldname(f, sizeof(f), c->j, s->name, "queue_id");
			if (bc_bond_slave_set_attrs(s->name, &a, 1, &e) < 0)
				failed(c, f, &e);
			else
				note(c, f, "set to %u", s->queue_id);
		}
		bc_error_clear(&e);
		if (s->prio_known && (!n->prio_known || n->prio != s->prio)) {
			a = (struct bc_nla){.type = BC_IFLA_BOND_SLAVE_PRIO,
					    .kind = BC_NLA_U32,
					    .v = (uint32_t)s->prio};
			fieldname(f, sizeof(f), c->j, s->name, "prio");
			if (bc_bond_slave_set_attrs(s->name, &a, 1, &e) < 0)
				failed(c, f, &e);
			else
				note(c, f, "set to %d", s->prio);
		}
	}
}

static int ifindex_of(const char *name)
{
	struct bc_live_links l;
	const struct bc_live_link *x;
	int idx = 0;

	if (!name[0] || bc_live_links_read(&l, NULL) < 0)
		return 0;
	x = bc_live_link_by_name(&l, name);
	idx = x ? x->ifindex : 0;
	bc_live_links_free(&l);
	return idx;
}

static void set_primary(struct rctx *c, const struct bc_journal *live)
{
	struct bc_nla a = {.type = BC_IFLA_BOND_PRIMARY, .kind = BC_NLA_U32};
	struct bc_error e = {0};
	char f[64];

	if (!c->j->primary_known || !strcmp(c->j->primary, live->primary))
		return;
	a.v = (uint32_t)ifindex_of(c->j->primary);
	fieldname(f, sizeof(f), c->j, NULL, "primary");
	if (c->j->primary[0] && !a.v) {
		bc_error_set(&e, -ENODEV, "primary %s no longer exists", c->j->primary);
		failed(c, f, &e);
		return;
	}
	if (bc_bond_set_attrs(c->j->bond, &a, 1, &e) < 0)
		failed(c, f, &e);
	else
		note(c, f, "set to %s", c->j->primary[0] ? c->j->primary : "(none)");
}

/* Informational: put the journaled active slave back when it is up again. */
static void set_active(struct rctx *c, const struct bc_journal *live)
{
	struct bc_nla a = {.type = BC_IFLA_BOND_ACTIVE_SLAVE, .kind = BC_NLA_U32};
	const struct bc_jslave *s;
	struct bc_error e = {0};
	char f[64];
	uint32_t mode = c->j->opt[0].v;

	if (!c->j->active_known || !c->j->active_slave[0] ||
	    !strcmp(c->j->active_slave, live->active_slave))
		return;
	if (mode != BC_MODE_ACTIVEBACKUP && mode != BC_MODE_TLB && mode != BC_MODE_ALB)
		return;
	s = bc_journal_find_slave(live, c->j->active_slave);
	if (!s || s->mii_status != BC_LINK_UP)
		return;
	a.v = (uint32_t)ifindex_of(c->j->active_slave);
	fieldname(f, sizeof(f), c->j, NULL, "active_slave");
	if (bc_bond_set_attrs(c->j->bond, &a, 1, &e) < 0)
		note(c, f, "not set back (informational): %s", e.msg);
	else
		note(c, f, "set to %s", c->j->active_slave);
}

/* An active-backup bond with an admin-up slave that was not MII up when journaled. */
static bool ab_with_slave_not_up(const struct bc_journal *j, const struct bc_journal *live)
{
	int mode = bc_jopt_index("mode");

	if (mode < 0 || !j->opt[mode].known || j->opt[mode].v != BC_MODE_ACTIVEBACKUP)
		return false;
	for (size_t i = 0; i < j->n_slaves; i++)
		if (live_has(live, j->slaves[i].name) && j->slaves[i].admin_up &&
		    j->slaves[i].mii_status != BC_LINK_UP)
			return true;
	return false;
}

static int wait_stable(struct rctx *c, const struct bc_journal *live, int timeout_ms, int *waited,
		       struct bc_error *err)
{
	const char *mii[BC_JOURNAL_MAX_SLAVES], *lacp[BC_JOURNAL_MAX_SLAVES];
	struct bc_stable_req req = {.mii = mii, .lacp = lacp};

	for (size_t i = 0; i < c->j->n_slaves && i < BC_JOURNAL_MAX_SLAVES; i++) {
		const struct bc_jslave *s = &c->j->slaves[i];

		if (!live_has(live, s->name))
			continue; /* its membership is already reported as not restored */
		if (s->admin_up && (s->mii_status == BC_LINK_UP || (!c->j->is_bond && s->admin_up)))
			mii[req.n_mii++] = s->name;
		if (c->j->is_bond && s->lacp_in_sync)
			lacp[req.n_lacp++] = s->name;
	}
	if (!c->j->is_bond) {
		/* a bridge port needs carrier only when it had it: use the journal's admin state */
		req.n_mii = 0;
	} else if (ab_with_slave_not_up(c->j, live)) {
		/*
		 * active-backup with a slave not up before (arp_validate that keeps
		 * only the active slave up, a dead backup): as before means as many
		 * slaves up, not the same ones: which one is active may have changed
		 */
		req.min_up = req.n_mii;
		req.n_mii = 0;
	}
	return bc_bond_wait_stable_for(c->j->bond, &req, timeout_ms, waited, err);
}

static struct json_object *report_json(struct rctx *c, const struct bc_journal *before,
				       const struct bc_journal *after, bool *all_ok)
{
	struct jfield *fj = NULL, *fb = NULL, *fa = NULL;
	size_t nj = 0, nb = 0, na = 0;
	struct json_object *arr = json_object_new_array();

	*all_ok = true;
	bc_journal_fields(c->j, &fj, &nj);
	if (before)
		bc_journal_fields(before, &fb, &nb);
	if (after)
		bc_journal_fields(after, &fa, &na);
	for (size_t i = 0; i < nj; i++) {
		const struct jfield *b = bc_jfield_find(fb, nb, fj[i].name);
		const struct jfield *a = bc_jfield_find(fa, na, fj[i].name);
		const char *av = a ? a->value : "absent", *act;
		bool ok = !strcmp(fj[i].value, av);
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "field", json_object_new_string(fj[i].name));
		json_object_object_add(e, "journal", json_object_new_string(fj[i].value));
		json_object_object_add(e, "before",
				       json_object_new_string(b ? b->value : "absent"));
		json_object_object_add(e, "after", json_object_new_string(av));
		/* released/re-enslaved slaves and the bond's MTU/MAC carry other fields along */
		act = action_of(c, fj[i].name);
		if (!strcmp(act, "none") && before && strcmp(b ? b->value : "absent", av))
			act = "follows from the steps above";
		json_object_object_add(e, "action", json_object_new_string(act));
		json_object_object_add(e, "ok", json_object_new_boolean(ok));
		if (!fj[i].promise)
			json_object_object_add(e, "promise", json_object_new_boolean(false));
		else if (!ok)
			*all_ok = false;
		json_object_array_add(arr, e);
	}
	free(fj);
	free(fb);
	free(fa);
	return arr;
}

/* The journal belongs here: same namespace when it is the same boot. */
static int check_place(const struct bc_journal *j, struct bc_error *err)
{
	char boot[40];
	unsigned long long ino = bc_journal_netns_inode();

	bc_journal_boot_id(boot, sizeof(boot));
	if (j->boot_id[0] && !strcmp(j->boot_id, boot) && j->netns_inode && ino &&
	    j->netns_inode != ino)
		return bc_error_set(
			err, -EXDEV,
			"the journal of %s was taken in another network namespace "
			"(%s, inode %llu; this is inode %llu): run the restore there%s%s%s",
			j->bond, j->netns[0] ? j->netns : "unnamed", j->netns_inode, ino,
			j->netns[0] ? " (`ip netns exec " : "", j->netns,
			j->netns[0] ? " bondcheck restore ...`)" : "");
	return 0;
}

static void run_steps(struct rctx *c, struct bc_journal **live, struct bc_error *err)
{
	const struct bc_journal *j = c->j;
	bool noslaves = false, down = false;
	size_t keep = 0;

	if (j->is_bond) {
		for (size_t i = 0; i < bc_n_jopts; i++) {
			if (!opt_differs(j, *live, i))
				continue;
			noslaves = noslaves || (bc_jopts[i].flags & JOPT_NOSLAVES);
			down = down || (bc_jopts[i].flags & JOPT_IFDOWN);
		}
		down = down || noslaves ||
		       (j->ad_actor_system_known &&
			strcasecmp(j->ad_actor_system, (*live)->ad_actor_system));
	}
	if (down && (*live)->admin_up)
		set_admin(c, j->bond, NULL, false, " (options that need the bond down)");
	/* a primary to clear goes first: after a mode change it can no longer be set
	 * (EACCES), and its name would stay in the bond's parameters */
	if (j->is_bond && j->primary_known && !j->primary[0] && (*live)->primary[0])
		set_primary(c, *live);
	release_slaves(c, *live, noslaves, &keep);
	if (j->is_bond) {
		set_opts_phase(c, *live, 0);
		set_opts_phase(c, *live, 1);
		if (j->ad_actor_system_known &&
		    strcasecmp(j->ad_actor_system, (*live)->ad_actor_system)) {
			unsigned char mac[6];
			struct bc_nla a = {.type = BC_IFLA_BOND_AD_ACTOR_SYSTEM,
					   .kind = BC_NLA_BYTES,
					   .data = mac,
					   .len = 6};
			struct bc_error e = {0};
			char f[64];

			fieldname(f, sizeof(f), j, NULL, "ad_actor_system");
			if (sscanf(j->ad_actor_system, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0],
				   &mac[1], &mac[2], &mac[3], &mac[4], &mac[5]) != 6) {
				bc_error_set(&e, -EINVAL, "ad_actor_system %s is not a MAC",
					     j->ad_actor_system);
				failed(c, f, &e);
			} else if (bc_bond_set_attrs(j->bond, &a, 1, &e) < 0) {
				failed(c, f, &e);
			} else {
				note(c, f, "set to %s", j->ad_actor_system);
			}
		}
	}
	if (recapture(c, live, err) < 0)
		return;
	enslave_missing(c, *live, j->is_bond ? keep : 0);
	if (recapture(c, live, err) < 0)
		return;
	/* bond first: bond_change_mtu and the MAC propagate to the slaves */
	set_device(c, j->bond, NULL, j->mtu, j->mac, NULL, *live);
	if (recapture(c, live, err) < 0)
		return;
	for (size_t i = 0; i < j->n_slaves; i++) {
		const struct bc_jslave *n = bc_journal_find_slave(*live, j->slaves[i].name);

		if (n)
			set_device(c, j->slaves[i].name, j->slaves[i].name, j->slaves[i].mtu,
				   j->slaves[i].mac, n, *live);
	}
	if (j->is_bond) {
		set_monitors(c, *live);
		set_opts_phase(c, *live, 3);
		set_opts_phase(c, *live, 4);
		set_primary(c, *live);
		set_slave_opts(c, *live);
	}
	if (recapture(c, live, err) < 0)
		return;
	for (size_t i = 0; i < j->n_slaves; i++) {
		const struct bc_jslave *n = bc_journal_find_slave(*live, j->slaves[i].name);

		if (n && n->admin_up != j->slaves[i].admin_up)
			set_admin(c, j->slaves[i].name, j->slaves[i].name, j->slaves[i].admin_up,
				  "");
	}
	if ((*live)->admin_up != j->admin_up)
		set_admin(c, j->bond, NULL, j->admin_up, "");
}

int bc_journal_restore(const struct bc_journal *j, int timeout_ms, struct json_object **report,
		       struct bc_error *err)
{
	struct rctx c = {.j = j, .errors = json_object_new_array()};
	struct bc_journal *before = NULL, *live = NULL, *after = NULL;
	struct bc_error werr = {0}, lerr = {0};
	struct json_object *rep, *fields;
	int r, waited = 0, wr = 0;
	bool all_ok = false;

	if (report)
		*report = NULL;
	r = check_place(j, err);
	if (r < 0)
		goto out;
	r = bc_journal_capture_live(j->bond, &before, &lerr);
	if (r == 0 && strcmp(before->kind, j->kind)) {
		r = bc_error_set(&lerr, -ENODEV, "%s is now a %s, the journal has a %s", j->bond,
				 before->kind, j->kind);
		bc_journal_free(before);
		before = NULL;
	}
	if (r < 0) {
		json_object_array_add(c.errors, json_object_new_string(lerr.msg));
		bc_error_set(err, r, "%s: not restored: %s", j->bond, lerr.msg);
		goto report;
	}
	r = bc_journal_capture_live(j->bond, &live, &lerr);
	if (r == 0) {
		run_steps(&c, &live, &lerr);
		if (lerr.code)
			json_object_array_add(c.errors, json_object_new_string(lerr.msg));
		if (recapture(&c, &live, &lerr) == 0) {
			wr = wait_stable(&c, live, timeout_ms, &waited, &werr);
			bc_journal_free(live);
			live = NULL;
			if (bc_journal_capture_live(j->bond, &live, &lerr) == 0)
				set_active(&c, live);
		}
	}
	bc_journal_capture_live(j->bond, &after, &lerr);
report:
	rep = json_object_new_object();
	json_object_object_add(rep, "bond", json_object_new_string(j->bond));
	json_object_object_add(rep, "journal_taken_at", json_object_new_string(j->taken_at));
	fields = report_json(&c, before, after, &all_ok);
	all_ok = all_ok && after;
	json_object_object_add(rep, "ok", json_object_new_boolean(all_ok));
	json_object_object_add(rep, "stable", json_object_new_boolean(before && wr == 0));
	if (wr < 0)
		json_object_object_add(rep, "not_stable", json_object_new_string(werr.msg));
	json_object_object_add(rep, "waited_ms", json_object_new_int(waited));
	json_object_object_add(rep, "fields", fields);
	json_object_object_add(rep, "errors", c.errors);
	c.errors = NULL;
	if (r == 0) {
		if (!all_ok) {
			char names[300] = "";
			size_t o = 0;

			for (size_t i = 0;
			     i < json_object_array_length(fields) && o < sizeof(names); i++) {
				struct json_object *e = json_object_array_get_idx(fields, i), *v;

				if (json_object_object_get_ex(e, "ok", &v) &&
				    !json_object_get_boolean(v) &&
				    !json_object_object_get_ex(e, "promise", NULL))
					o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s",
							      o ? ", " : "",
							      bc_json_str(e, "field"));
			}
			r = bc_error_set(err, -EIO, "%s: not restored: %s", j->bond, names);
		} else if (wr < 0) {
			r = bc_error_set(err, -EAGAIN, "%s: fields restored, but %s", j->bond,
					 werr.msg);
		}
	}
	if (report)
		*report = rep;
	else
		json_object_put(rep);
out:
	json_object_put(c.errors);
	free(c.acts);
	bc_journal_free(before);
	bc_journal_free(live);
	bc_journal_free(after);
	return r;
}
