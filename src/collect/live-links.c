// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Generic link state (libnl-route link cache), a light bond read (one
 * rtnetlink dump through the bond decoder) and the stability wait that
 * every change ends with (bondcheck/bond-change.h, collect/live-links.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/if.h>
#include <netlink/addr.h>
#include <netlink/cache.h>
#include <netlink/errno.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/socket.h>

#include "bondcheck/nl-sock.h"
#include "bondcheck/bond-change.h"
#include "bondcheck/names.h"
#include "bondcheck/rtnl.h"
#include "collect/collect-int.h"
#include "collect/live-links.h"

#ifndef IFF_LOWER_UP
#define IFF_LOWER_UP 0x10000
#endif

/* LACP port state bits a port in a working aggregator carries (IEEE 802.1AX 6.4.2.3). */
#define LACP_IN_SYNC (BC_LACP_SYNCHRONIZATION | BC_LACP_COLLECTING | BC_LACP_DISTRIBUTING)

int bc_live_links_read(struct bc_live_links *out, struct bc_error *err)
{
	struct nl_cache *cache = NULL;
	struct nl_object *o;
	struct nl_sock *sk;
	size_t n = 0;
	int r;

	out->v = NULL;
	out->n = 0;
	sk = nl_socket_alloc();
	if (!sk)
		return bc_error_set(err, -ENOMEM, "out of memory for a netlink socket");
	r = bc_nl_connect(sk, NETLINK_ROUTE);
	if (r == 0)
		r = rtnl_link_alloc_cache(sk, AF_UNSPEC, &cache);
	nl_socket_free(sk);
	if (r < 0)
		return bc_error_set(err, -EIO, "cannot read the link list over rtnetlink: %s",
				    nl_geterror(r));
	out->v = calloc((size_t)nl_cache_nitems(cache) + 1, sizeof(*out->v));
	if (!out->v) {
		nl_cache_free(cache);
		return bc_error_set(err, -ENOMEM, "out of memory");
	}
	for (o = nl_cache_get_first(cache); o; o = nl_cache_get_next(o)) {
		struct rtnl_link *l = (struct rtnl_link *)o;
		struct bc_live_link *d = &out->v[n++];
		struct nl_addr *a = rtnl_link_get_addr(l);
		const char *kind = rtnl_link_get_type(l);

		snprintf(d->name, sizeof(d->name), "%s", rtnl_link_get_name(l));
		d->ifindex = rtnl_link_get_ifindex(l);
		d->master = rtnl_link_get_master(l);
		d->flags = rtnl_link_get_flags(l);
		d->mtu = rtnl_link_get_mtu(l);
		snprintf(d->kind, sizeof(d->kind), "%s", kind ? kind : "");
		if (a && nl_addr_get_len(a) > 0) {
			const unsigned char *p = nl_addr_get_binary_addr(a);
			size_t o2 = 0;

			for (unsigned i = 0; i < nl_addr_get_len(a) && o2 + 4 <= sizeof(d->mac);
			     i++)
				o2 += (size_t)snprintf(d->mac + o2, sizeof(d->mac) - o2,
						       i ? ":%02x" : "%02x", p[i]);
		}
	}
	out->n = n;
	nl_cache_free(cache);
	return 0;
}

void bc_live_links_free(struct bc_live_links *l)
{
	if (!l)
		return;
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

const struct bc_live_link *bc_live_link_by_name(const struct bc_live_links *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].name, name))
			return &l->v[i];
	return NULL;
}

const struct bc_live_link *bc_live_link_by_index(const struct bc_live_links *l, int ifindex)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].ifindex == ifindex)
			return &l->v[i];
	return NULL;
}

int bc_bond_read_rtnl(const char *bond, struct bc_snapshot *snap, struct bc_error *err)
{
	struct bc_buf b = {0};
	struct bc_snapshot all = {.cap_net_admin = true};
	struct bc_bond *src;
	int r;

	r = fetch_rtnl_links(NULL, &b, err);
	if (r < 0)
		return r;
	r = bc_rtnl_decode_links(b.data, b.len, &all, err);
	bc_buf_free(&b);
	if (r < 0) {
		bc_snapshot_free(&all);
		return r;
	}
	src = bc_snapshot_find_bond(&all, bond);
	if (!src) {
		bc_snapshot_free(&all);
		return bc_error_set(err, -ENODEV, "'%s' is not a bond in this network namespace",
				    bond);
	}
	/* move the one bond over; the rest goes */
	*snap = (struct bc_snapshot){.cap_net_admin = true, .source = BC_SRC_LIVE};
	snap->bonds = calloc(1, sizeof(*snap->bonds));
	if (!snap->bonds) {
		bc_snapshot_free(&all);
		return bc_error_set(err, -ENOMEM, "out of memory");
	}
	snap->bonds[0] = *src;
	snap->n_bonds = 1;
	memset(src, 0, sizeof(*src));
	bc_snapshot_free(&all);
	return 0;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool listed(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] && !strcmp(names[i], name))
			return true;
	return false;
}

static void lacp_text(const struct bc_u32 *f, char *buf, size_t len)
{
	if (bc_u32_known(f))
		snprintf(buf, len, "0x%02x", f->v);
	else
		snprintf(buf, len, "%s", "not reported");
}

/*
 * One look at the bond.  Returns 1 stable, 0 not yet (@why says what),
 * -errno when it cannot be read.
 */
static int check_once(const char *bond, const struct bc_stable_req *req, char *why, size_t wlen,
		      struct bc_error *err)
{
	struct bc_live_links links;
	const struct bc_live_link *m;
	struct bc_snapshot snap = {0};
	const struct bc_bond *b;
	bool any_up = false;
	int r;

	r = bc_live_links_read(&links, err);
	if (r < 0)
		return r;
	m = bc_live_link_by_name(&links, bond);
	if (!m) {
		bc_live_links_free(&links);
		return bc_error_set(err, -ENODEV, "'%s' vanished while waiting for it to settle",
				    bond);
	}
	if (strcmp(m->kind, "bond")) {
		/* not a bond: every admin-up port needs carrier */
		for (size_t i = 0; i < links.n; i++) {
			const struct bc_live_link *p = &links.v[i];
			bool need = req ? listed(req->mii, req->n_mii, p->name)
					: (p->master == m->ifindex && (p->flags & IFF_UP));

			if (need && (p->master != m->ifindex || !(p->flags & IFF_LOWER_UP))) {
				snprintf(why, wlen, "port %s has no carrier%s", p->name,
					 p->master != m->ifindex ? " or left the master" : "");
				bc_live_links_free(&links);
				return 0;
			}
		}
		bc_live_links_free(&links);
		return 1;
	}
	r = bc_bond_read_rtnl(bond, &snap, err);
	if (r < 0) {
		bc_live_links_free(&links);
		return r;
	}
	b = snap.n_bonds ? &snap.bonds[0] : NULL;
	r = 1;
	if (!b) {
		bc_live_links_free(&links);
		return bc_error_set(err, -ENODEV, "'%s' is no longer a bond", bond);
	}
	if (req) {
		for (size_t i = 0; i < req->n_mii + req->n_lacp; i++) {
			const char *n = i < req->n_mii ? req->mii[i] : req->lacp[i - req->n_mii];

			if (n && !bc_bond_find_slave(b, n)) {
				snprintf(why, wlen, "%s is not a slave of %s", n, bond);
				r = 0;
				goto out;
			}
		}
	}
	for (size_t i = 0; i < b->n_slaves; i++) {
		const struct bc_slave *s = &b->slaves[i];
		const struct bc_live_link *l = bc_live_link_by_name(&links, s->name);
		bool need_mii, need_lacp;
		char a[16], p[16];

		if (req) {
			need_mii = listed(req->mii, req->n_mii, s->name);
			need_lacp = listed(req->lacp, req->n_lacp, s->name);
		} else {
			need_mii = l && (l->flags & IFF_UP) && (l->flags & IFF_LOWER_UP);
			need_lacp = need_mii;
		}
		if (bc_u32_known(&s->mii_status) && s->mii_status.v == BC_LINK_UP)
			any_up = true;
		if (need_mii && !(bc_u32_known(&s->mii_status) && s->mii_status.v == BC_LINK_UP)) {
			snprintf(why, wlen, "slave %s is MII %s", s->name,
				 bc_u32_known(&s->mii_status)
					 ? bc_link_status_name((int)s->mii_status.v)
					 : "unknown");
			r = 0;
			goto out;
		}
		if (b->mode.v != BC_MODE_8023AD || !need_lacp)
			continue;
		if ((bc_u32_known(&s->actor_oper_port_state) &&
		     (s->actor_oper_port_state.v & LACP_IN_SYNC) != LACP_IN_SYNC) ||
		    (bc_u32_known(&s->partner_oper_port_state) &&
		     (s->partner_oper_port_state.v & LACP_IN_SYNC) != LACP_IN_SYNC) ||
		    !bc_u32_known(&s->actor_oper_port_state)) {
			lacp_text(&s->actor_oper_port_state, a, sizeof(a));
			lacp_text(&s->partner_oper_port_state, p, sizeof(p));
			snprintf(why, wlen,
				 "slave %s: LACP not in sync (actor state %s, partner state %s; "
				 "synchronization+collecting+distributing = 0x38 needed)",
				 s->name, a, p);
			r = 0;
			goto out;
		}
	}
	if (b->mode.v == BC_MODE_ACTIVEBACKUP && any_up && b->active_slave.st != BC_KNOWN) {
		snprintf(why, wlen, "active-backup bond %s has no active slave yet", bond);
		r = 0;
	}
out:
	bc_snapshot_free(&snap);
	bc_live_links_free(&links);
	return r;
}

int bc_bond_wait_stable_for(const char *bond, const struct bc_stable_req *req, int timeout_ms,
			    int *waited_ms, struct bc_error *err)
{
	int64_t start = now_ms(), deadline = start + (timeout_ms > 0 ? timeout_ms : 0);
	char why[256] = "";
	int r;

	for (;;) {
		struct timespec nap = {.tv_nsec = 100 * 1000000};

		r = check_once(bond, req, why, sizeof(why), err);
		if (r != 0 || now_ms() >= deadline)
			break;
		nanosleep(&nap, NULL);
	}
	if (waited_ms)
		*waited_ms = (int)(now_ms() - start);
	if (r < 0)
		return r;
	if (r == 0)
		return bc_error_set(err, -ETIMEDOUT, "%s not stable after %d ms: %s", bond,
				    timeout_ms, why);
	return 0;
}

int bc_bond_wait_stable(const char *bond, int timeout_ms, struct bc_error *err)
{
	return bc_bond_wait_stable_for(bond, NULL, timeout_ms, NULL, err);
}
