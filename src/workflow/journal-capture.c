// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bc_journal_capture(): the live state of a bond (or any master) into a
 * journal.  Bond options, queue ids and LACP states come from the
 * collector's rtnetlink link dump and decoder (IFLA_BOND_*,
 * IFLA_BOND_SLAVE_*), the enslave order from /proc/net/bonding/<bond>
 * through the collector's /proc parser; admin state, MTU and MAC of every
 * device from a libnl link cache.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/if.h>

#include "bondcheck/proc.h"
#include "bondcheck/json-get.h"
#include "collect/live-links.h"
#include "workflow/journal-int.h"

#define LACP_IN_SYNC (BC_LACP_SYNCHRONIZATION | BC_LACP_COLLECTING | BC_LACP_DISTRIBUTING)

static void device_from(struct bc_jslave *s, const struct bc_live_link *l)
{
	snprintf(s->name, sizeof(s->name), "%s", l->name);
	s->admin_up = l->flags & IFF_UP;
	s->mtu = l->mtu;
	snprintf(s->mac, sizeof(s->mac), "%s", l->mac);
	s->mii_status = -1;
}

static void bond_options(struct bc_journal *j, const struct bc_bond *b)
{
	for (size_t i = 0; i < bc_n_jopts; i++) {
		const struct bc_u32 *f = (const struct bc_u32 *)((const char *)b + bc_jopts[i].off);

		j->opt[i].known = bc_u32_known(f);
		j->opt[i].v = f->v;
	}
	/* the kernel reports every ARP target list (maybe empty); NS targets since 5.18 */
	j->arp_targets_known = true;
	j->n_arp_targets = b->n_arp_targets;
	for (size_t i = 0; i < b->n_arp_targets && i < BC_MAX_TARGETS; i++)
		snprintf(j->arp_targets[i], sizeof(j->arp_targets[i]), "%s", b->arp_targets[i]);
	j->ns_targets_known = b->n_ns_targets > 0;
	j->n_ns_targets = b->n_ns_targets;
	for (size_t i = 0; i < b->n_ns_targets && i < BC_MAX_TARGETS; i++)
		snprintf(j->ns_targets[i], sizeof(j->ns_targets[i]), "%s", b->ns_targets[i]);
	if (b->ad_actor_system.st == BC_KNOWN) {
		j->ad_actor_system_known = true;
		snprintf(j->ad_actor_system, sizeof(j->ad_actor_system), "%s",
			 b->ad_actor_system.v);
	}
	j->primary_known = true;
	if (b->primary.st == BC_KNOWN)
		snprintf(j->primary, sizeof(j->primary), "%s", b->primary.v);
	j->active_known = true;
	if (b->active_slave.st == BC_KNOWN)
		snprintf(j->active_slave, sizeof(j->active_slave), "%s", b->active_slave.v);
}

/* The enslave order as /proc/net/bonding/<bond> lists it (per netns, unlike sysfs). */
static int proc_order(const char *bond, struct bc_snapshot *order, struct bc_error *err)
{
	char path[64], *buf;
	size_t n;
	FILE *f;
	int r;

	snprintf(path, sizeof(path), "/proc/net/bonding/%s", bond);
	f = fopen(path, "re");
	if (!f)
		return bc_error_set(err, -errno, "cannot read %s: %s", path, strerror(errno));
	buf = malloc(1 << 20);
	if (!buf) {
		fclose(f);
		return bc_error_set(err, -ENOMEM, "out of memory");
	}
	n = fread(buf, 1, 1 << 20, f);
	fclose(f);
	r = bc_proc_parse(buf, n, bond, order, err);
	free(buf);
	return r;
}

/* Sort @b's slaves (netlink dump order) into the order of @proc's. */
static void apply_order(struct bc_bond *b, const struct bc_bond *proc)
{
	size_t k = 0;

	for (size_t i = 0; proc && i < proc->n_slaves; i++)
		for (size_t m = k; m < b->n_slaves; m++)
			if (!strcmp(b->slaves[m].name, proc->slaves[i].name)) {
				struct bc_slave t = b->slaves[k];

				b->slaves[k] = b->slaves[m];
				b->slaves[m] = t;
				k++;
				break;
			}
}

/*
 * Options and slave data from one rtnetlink dump (the collector's decoder),
 * the enslave order from /proc (the collector's parser): no ethtool, so a
 * capture costs two reads, which matters in restore's polling.
 */
static int capture_bond(struct bc_journal *j, const struct bc_live_links *links,
			struct bc_error *err)
{
	struct bc_snapshot snap = {0}, order = {0};
	struct bc_bond *b;
	int r;

	r = bc_bond_read_rtnl(j->bond, &snap, err);
	if (r < 0)
		goto out;
	b = &snap.bonds[0];
	r = proc_order(j->bond, &order, err);
	if (r < 0)
		goto out;
	apply_order(b, bc_snapshot_find_bond(&order, j->bond));
	if (b->mode.v == BC_MODE_8023AD && !bc_u32_known(&b->ad_actor_sys_prio)) {
		r = bc_error_set(err, -EPERM,
				 "%s: the 802.3ad actor settings are hidden without "
				 "CAP_NET_ADMIN, so they cannot be journaled; run as root",
				 j->bond);
		goto out;
	}
	bond_options(j, b);
	j->slaves = calloc(b->n_slaves + 1, sizeof(*j->slaves));
	if (!j->slaves) {
		r = bc_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < b->n_slaves && i < BC_JOURNAL_MAX_SLAVES; i++) {
		const struct bc_slave *s = &b->slaves[i];
		const struct bc_live_link *l = bc_live_link_by_name(links, s->name);
		struct bc_jslave *d = &j->slaves[j->n_slaves];

		if (!l)
			continue; /* left between the two reads: not a member */
		device_from(d, l);
		if (s->perm_hwaddr.st == BC_KNOWN)
			snprintf(d->perm_hwaddr, sizeof(d->perm_hwaddr), "%s", s->perm_hwaddr.v);
		d->queue_id_known = bc_u32_known(&s->queue_id);
		d->queue_id = s->queue_id.v;
		d->prio_known = bc_u32_known(&s->prio);
		d->prio = (int32_t)s->prio.v;
		d->mii_status = bc_u32_known(&s->mii_status) ? (int)s->mii_status.v : -1;
		d->lacp_in_sync = bc_u32_known(&s->actor_oper_port_state) &&
				  (s->actor_oper_port_state.v & LACP_IN_SYNC) == LACP_IN_SYNC &&
				  (!bc_u32_known(&s->partner_oper_port_state) ||
				   (s->partner_oper_port_state.v & LACP_IN_SYNC) == LACP_IN_SYNC);
		j->n_slaves++;
	}
out:
	bc_snapshot_free(&snap);
	bc_snapshot_free(&order);
	return r;
}

int bc_journal_capture_live(const char *bond, struct bc_journal **out, struct bc_error *err)
{
	struct bc_live_links links;
	const struct bc_live_link *m;
	struct bc_journal *j;
	int r;

	*out = NULL;
	r = bc_live_links_read(&links, err);
	if (r < 0)
		return r;
	m = bc_live_link_by_name(&links, bond);
	if (!m) {
		bc_live_links_free(&links);
		return bc_error_set(err, -ENODEV,
				    "no interface '%s' in this network namespace (`ip link` "
				    "lists them)",
				    bond);
	}
	j = calloc(1, sizeof(*j));
	if (!j) {
		bc_live_links_free(&links);
		return bc_error_set(err, -ENOMEM, "out of memory");
	}
	snprintf(j->bond, sizeof(j->bond), "%s", m->name);
	snprintf(j->kind, sizeof(j->kind), "%s", m->kind[0] ? m->kind : "none");
	j->ifindex = m->ifindex;
	j->admin_up = m->flags & IFF_UP;
	j->mtu = m->mtu;
	snprintf(j->mac, sizeof(j->mac), "%s", m->mac);
	j->is_bond = !strcmp(m->kind, "bond");
	if (j->is_bond) {
		r = capture_bond(j, &links, err);
	} else {
		size_t n = 0;

		for (size_t i = 0; i < links.n; i++)
			n += links.v[i].master == m->ifindex;
		if (n > BC_JOURNAL_MAX_SLAVES)
			n = BC_JOURNAL_MAX_SLAVES;
		j->slaves = calloc(n + 1, sizeof(*j->slaves));
		if (!j->slaves)
			r = bc_error_set(err, -ENOMEM, "out of memory");
		for (size_t i = 0; j->slaves && i < links.n && j->n_slaves < n; i++)
			if (links.v[i].master == m->ifindex)
				device_from(&j->slaves[j->n_slaves++], &links.v[i]);
	}
	bc_live_links_free(&links);
	if (r < 0) {
		bc_journal_free(j);
		return r;
	}
	*out = j;
	return 0;
}

int bc_journal_capture(const char *bond, struct bc_journal **out, struct bc_error *err)
{
	struct bc_journal *j = NULL;
	struct utsname u;
	int r;

	r = bc_journal_capture_live(bond, &j, err);
	if (r < 0 || !j)
		return r < 0 ? r : -ENOMEM;
	if (!j->is_bond && j->n_slaves == 0) {
		r = bc_error_set(err, -ENODEV,
				 "'%s' is not a bond or a master device with slaves (kind %s): "
				 "nothing to journal",
				 bond, strcmp(j->kind, "none") ? j->kind : "none");
		bc_journal_free(j);
		return r;
	}
	bc_json_generated_at(j->taken_at, sizeof(j->taken_at));
	if (gethostname(j->host, sizeof(j->host) - 1) < 0)
		j->host[0] = '\0';
	j->pid = getpid();
	bc_journal_boot_id(j->boot_id, sizeof(j->boot_id));
	j->netns_inode = bc_journal_netns_inode();
	{
		char path[4096];

		/* the netns part of the default path names the namespace */
		if (bc_journal_default_path(bond, path, sizeof(path), NULL) == 0 &&
		    strchr(path, '@')) {
			const char *at = strrchr(path, '@') + 1;

			snprintf(j->netns, sizeof(j->netns), "%.*s", (int)(strlen(at) - 5), at);
		}
	}
	if (uname(&u) == 0)
		snprintf(j->kernel, sizeof(j->kernel), "%s", u.release);
	snprintf(j->version, sizeof(j->version), "%s", BC_VERSION);
	*out = j;
	return 0;
}
