// SPDX-License-Identifier: GPL-2.0-or-later
/* Egress interface, its MTU, speed, tbf limit and bond slaves; see egress.h. */
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/netlink.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/qdisc/tbf.h>
#include <netlink/route/tc.h>

#include "traffic/egress.h"

static long sysfs_long(const char *dev, const char *attr)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", dev, attr);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* Root tbf rate of every interface, bits/s, by ifindex (0 when none). */
static double tbf_rate(struct nl_cache *cache, const char *dev)
{
	struct rtnl_qdisc *q;
	int ifindex = (int)if_nametoindex(dev);
	double r = 0;

	if (!cache || !ifindex)
		return 0;
	q = rtnl_qdisc_get(cache, ifindex, TC_H_ROOT);
	if (!q)
		return 0;
	if (rtnl_tc_get_kind(TC_CAST(q)) && !strcmp(rtnl_tc_get_kind(TC_CAST(q)), "tbf"))
		r = 8.0 * rtnl_qdisc_tbf_get_rate(q);
	rtnl_qdisc_put(q);
	return r > 0 ? r : 0;
}

static void fill(struct bc_egress_link *l, const char *name, struct nl_cache *cache)
{
	long v;

	snprintf(l->name, sizeof(l->name), "%s", name);
	v = sysfs_long(name, "mtu");
	l->mtu = v > 0 ? (uint32_t)v : 1500;
	v = sysfs_long(name, "speed");
	l->speed_mbps = v > 0 ? (uint32_t)v : 0;
	l->tbf_bps = tbf_rate(cache, name);
	bc_link_rate_choose(l->tbf_bps, 0, 0, l->speed_mbps, &l->rate);
}

static int same_addr(const struct sockaddr *a, const struct sockaddr_storage *b)
{
	if (!a || a->sa_family != b->ss_family)
		return 0;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		       &((const struct sockaddr_in6 *)b)->sin6_addr, 16);
}

int bc_egress_find(const struct sockaddr_storage *local, struct bc_egress *e)
{
	struct ifaddrs *ifa, *i;
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_cache *cache = NULL;
	char name[IFNAMSIZ] = "", path[160];
	FILE *f;

	memset(e, 0, sizeof(*e));
	e->bond_mode = -1;
	if (getifaddrs(&ifa) < 0) {
		nl_socket_free(sk);
		return -errno;
	}
	for (i = ifa; i; i = i->ifa_next)
		if (same_addr(i->ifa_addr, local)) {
			snprintf(name, sizeof(name), "%s", i->ifa_name);
			break;
		}
	freeifaddrs(ifa);
	if (!name[0]) {
		nl_socket_free(sk);
		return -ENODEV;
	}
	if (sk && nl_connect(sk, NETLINK_ROUTE) == 0)
		rtnl_qdisc_alloc_cache(sk, &cache);
	fill(&e->dev, name, cache);
	snprintf(path, sizeof(path), "/sys/class/net/%s/bonding/mode", name);
	f = fopen(path, "re");
	if (f) {
		char mode[64];
		int m;

		e->is_bond = true;
		if (fscanf(f, "%63s %d", mode, &m) == 2)
			e->bond_mode = m;
		fclose(f);
		snprintf(path, sizeof(path), "/sys/class/net/%s/bonding/slaves", name);
		f = fopen(path, "re");
		if (f) {
			char s[IFNAMSIZ];

			while (e->n_slaves < BC_EGRESS_MAX_SLAVES && fscanf(f, "%15s", s) == 1)
				fill(&e->slaves[e->n_slaves++], s, cache);
			fclose(f);
		}
	}
	if (cache)
		nl_cache_free(cache);
	nl_socket_free(sk);
	return 0;
}
