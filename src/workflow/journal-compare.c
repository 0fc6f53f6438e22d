// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flat field list of a journal ("bond0.miimon" = "100") and the
 * comparison of two journals field by field (bc_journal_compare).  Pure
 * apart from bc_journal_compare(), which captures the live state first.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/names.h"
#include "workflow/journal-int.h"

struct flist {
	struct jfield *v;
	size_t n, cap;
	bool oom;
};

static void add(struct flist *l, bool promise, const char *value, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void add(struct flist *l, bool promise, const char *value, const char *fmt, ...)
{
	char name[sizeof(l->v[0].name)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct jfield *v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			l->oom = true;
			return;
		}
		l->v = v;
		l->cap = cap;
	}
	snprintf(l->v[l->n].name, sizeof(l->v[l->n].name), "%s", name);
	snprintf(l->v[l->n].value, sizeof(l->v[l->n].value), "%s", value);
	l->v[l->n].promise = promise;
	l->n++;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "eth1 eth2 eth3": enslave order for bonds, sorted for other masters (a set) */
static void members(const struct bc_journal *j, char *buf, size_t len)
{
	const char *names[BC_JOURNAL_MAX_SLAVES];
	size_t n = j->n_slaves < BC_JOURNAL_MAX_SLAVES ? j->n_slaves : BC_JOURNAL_MAX_SLAVES, o = 0;

	for (size_t i = 0; i < n; i++)
		names[i] = j->slaves[i].name;
	if (!j->is_bond)
		qsort(names, n, sizeof(names[0]), cmp_names);
	buf[0] = '\0';
	for (size_t i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, i ? " %s" : "%s", names[i]);
	if (!n)
		snprintf(buf, len, "(none)");
}

static void list_text(char (*v)[48], size_t width, size_t n, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, i ? " %s" : "%s",
				      (const char *)v + i * width);
	if (!n)
		snprintf(buf, len, "(none)");
}

int bc_journal_fields(const struct bc_journal *j, struct jfield **out, size_t *n)
{
	struct flist l = {0};
	char v[256];

	*out = NULL;
	*n = 0;
	members(j, v, sizeof(v));
	add(&l, true, v, "%s.slaves", j->bond);
	if (j->is_bond) {
		for (size_t i = 0; i < bc_n_jopts; i++)
			if (j->opt[i].known)
				add(&l, true, bc_jopt_text(i, j->opt[i].v, v, sizeof(v)), "%s.%s",
				    j->bond, bc_jopts[i].name);
		if (j->arp_targets_known) {
			char tmp[BC_MAX_TARGETS][48];

			for (size_t i = 0; i < j->n_arp_targets; i++)
				snprintf(tmp[i], sizeof(tmp[i]), "%s", j->arp_targets[i]);
			list_text(tmp, 48, j->n_arp_targets, v, sizeof(v));
			add(&l, true, v, "%s.arp_ip_target", j->bond);
		}
		if (j->ns_targets_known) {
			list_text((char(*)[48])j->ns_targets, 48, j->n_ns_targets, v, sizeof(v));
			add(&l, true, v, "%s.ns_ip6_target", j->bond);
		}
		if (j->ad_actor_system_known)
			add(&l, true, j->ad_actor_system, "%s.ad_actor_system", j->bond);
		if (j->primary_known)
			add(&l, true, j->primary[0] ? j->primary : "(none)", "%s.primary", j->bond);
	}
	add(&l, true, j->admin_up ? "up" : "down", "%s.admin_state", j->bond);
	snprintf(v, sizeof(v), "%u", j->mtu);
	add(&l, true, v, "%s.mtu", j->bond);
	add(&l, true, j->mac, "%s.mac", j->bond);
	for (size_t i = 0; i < j->n_slaves; i++) {
		const struct bc_jslave *s = &j->slaves[i];

		add(&l, true, s->admin_up ? "up" : "down", "%s/%s.admin_state", j->bond, s->name);
		snprintf(v, sizeof(v), "%u", s->mtu);
		add(&l, true, v, "%s/%s.mtu", j->bond, s->name);
		add(&l, true, s->mac, "%s/%s.mac", j->bond, s->name);
		if (s->queue_id_known) {
			snprintf(v, sizeof(v), "%u", s->queue_id);
			add(&l, true, v, "%s/%s.queue_id", j->bond, s->name);
		}
		if (s->prio_known) {
			snprintf(v, sizeof(v), "%d", s->prio);
			add(&l, true, v, "%s/%s.prio", j->bond, s->name);
		}
	}
	if (j->is_bond && j->active_known)
		add(&l, false, j->active_slave[0] ? j->active_slave : "(none)", "%s.active_slave",
		    j->bond);
	if (l.oom) {
		free(l.v);
		return -ENOMEM;
	}
	*out = l.v;
	*n = l.n;
	return 0;
}

const struct jfield *bc_jfield_find(const struct jfield *f, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].name, name))
			return &f[i];
	return NULL;
}

int bc_journal_compare_states(const struct bc_journal *a, const struct bc_journal *b,
			      struct json_object **diff)
{
	struct jfield *fa = NULL, *fb = NULL;
	size_t na = 0, nb = 0;
	struct json_object *arr;
	bool match = true;

	*diff = NULL;
	if (bc_journal_fields(a, &fa, &na) < 0 || (b && bc_journal_fields(b, &fb, &nb) < 0)) {
		free(fa);
		return -ENOMEM;
	}
	*diff = json_object_new_object();
	arr = json_object_new_array();
	json_object_object_add(*diff, "bond", json_object_new_string(a->bond));
	for (size_t i = 0; i < na; i++) {
		const struct jfield *g = bc_jfield_find(fb, nb, fa[i].name);
		const char *live = g ? g->value : "absent";
		bool ok = !strcmp(fa[i].value, live);
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "field", json_object_new_string(fa[i].name));
		json_object_object_add(e, "journal", json_object_new_string(fa[i].value));
		json_object_object_add(e, "live", json_object_new_string(live));
		json_object_object_add(e, "ok", json_object_new_boolean(ok));
		if (!fa[i].promise)
			json_object_object_add(e, "promise", json_object_new_boolean(false));
		json_object_array_add(arr, e);
		if (fa[i].promise && !ok)
			match = false;
	}
	json_object_object_add(*diff, "match", json_object_new_boolean(match));
	json_object_object_add(*diff, "fields", arr);
	free(fa);
	free(fb);
	return match ? 0 : 1;
}

int bc_journal_compare(const struct bc_journal *j, struct json_object **diff, struct bc_error *err)
{
	struct bc_journal *live = NULL;
	int r;

	*diff = NULL;
	r = bc_journal_capture_live(j->bond, &live, err);
	if (r < 0)
		return r;
	r = bc_journal_compare_states(j, live, diff);
	bc_journal_free(live);
	if (r == -ENOMEM)
		return bc_error_set(err, r, "out of memory");
	return r;
}
