// SPDX-License-Identifier: GPL-2.0-or-later
/* Egress interface, its MTU, speed, tbf limit and bond slaves; see egress.h. */
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <netlink/netlink.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/qdisc/tbf.h>
#include <netlink/route/tc.h>

#include "bondcheck/nl-sock.h"
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
	q = rtnl_qdisc_get_by_parent(cache, ifindex, TC_H_ROOT);
	if (!q)
		return 0;
	if (rtnl_tc_get_kind(TC_CAST(q)) && !strcmp(rtnl_tc_get_kind(TC_CAST(q)), "tbf"))
		r = 8.0 * rtnl_qdisc_tbf_get_rate(q);
	rtnl_qdisc_put(q);
	return r > 0 ? r : 0;
}

/* Whether NAME sits on a bus device (a NIC, real or emulated), not a virtual one. */
static bool has_device(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/class/net/%s/device", name);
	return access(path, F_OK) == 0;
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
	/* a virtual device (no /sys/class/net/NAME/device: veth, tun, dummy)
	 * reports a nominal speed it never enforces (veth: SPEED_10000,
	 * drivers/net/veth.c veth_get_link_ksettings): no rate, not 10 Gbit/s */
	bc_link_rate_choose(l->tbf_bps, 0, 0, has_device(name) ? l->speed_mbps : 0, &l->rate);
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

static bool is_bond_dir(const char *sysfs_net, const char *dev)
{
	char path[320];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s/bonding", sysfs_net, dev);
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The name of @dev's only lower_NAME entry; -ENOENT for none or several. */
static int single_lower(const char *sysfs_net, const char *dev, char *lower, size_t len)
{
	char dir[320];
	struct dirent *de;
	int n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/%s", sysfs_net, dev);
	d = opendir(dir);
	if (!d)
		return -ENOENT;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "lower_", 6) && de->d_name[6]) {
			if (n++ == 0)
				snprintf(lower, len, "%s", de->d_name + 6);
		}
	closedir(d);
	return n == 1 ? 0 : -ENOENT;
}

int bc_egress_lower_bond(const char *sysfs_net, const char *dev, char *bond, size_t len)
{
	char cur[IFNAMSIZ], low[IFNAMSIZ];

	if (is_bond_dir(sysfs_net, dev))
		return -ENOENT;
	snprintf(cur, sizeof(cur), "%s", dev);
	for (int depth = 0; depth < 4; depth++) {
		if (single_lower(sysfs_net, cur, low, sizeof(low)) < 0)
			return -ENOENT;
		if (is_bond_dir(sysfs_net, low)) {
			snprintf(bond, len, "%s", low);
			return 0;
		}
		snprintf(cur, sizeof(cur), "%s", low);
	}
	return -ENOENT;
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
	{
		char bond[IFNAMSIZ];

		if (bc_egress_lower_bond("/sys/class/net", name, bond, sizeof(bond)) == 0) {
			snprintf(e->via, sizeof(e->via), "%s", name);
			snprintf(name, sizeof(name), "%s", bond);
		}
	}
	if (sk && bc_nl_connect(sk, NETLINK_ROUTE) == 0)
		rtnl_qdisc_alloc_cache(sk, &cache);
	fill(&e->dev, name, cache);
	if (e->via[0]) {
		/* the upper's MTU bounds the datagrams (the tag travels outside it) */
		long mtu = sysfs_long(e->via, "mtu");

		if (mtu > 0 && (uint32_t)mtu < e->dev.mtu)
			e->dev.mtu = (uint32_t)mtu;
	}
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

/* IRQs whose /proc/interrupts name mentions @dev, with their CPU affinity. */
static struct json_object *irqs_json(const char *dev)
{
	struct json_object *a = json_object_new_array();
	char line[4096];
	FILE *f = fopen("/proc/interrupts", "re");

	if (!f)
		return a;
	while (fgets(line, sizeof(line), f)) {
		char *name = strrchr(line, ' '), path[64], aff[256] = "";
		unsigned irq;
		FILE *g;

		if (sscanf(line, " %u:", &irq) != 1 || !name)
			continue;
		name[strcspn(name, "\n")] = '\0';
		if (strncmp(name + 1, dev, strlen(dev)) ||
		    (name[1 + strlen(dev)] && name[1 + strlen(dev)] != '-'))
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%u/smp_affinity_list", irq);
		g = fopen(path, "re");
		if (g) {
			if (fgets(aff, sizeof(aff), g))
				aff[strcspn(aff, "\n")] = '\0';
			fclose(g);
		}
		{
			struct json_object *o = json_object_new_object();

			json_object_object_add(o, "irq", json_object_new_int((int)irq));
			json_object_object_add(o, "name", json_object_new_string(name + 1));
			json_object_object_add(o, "affinity", json_object_new_string(aff));
			json_object_array_add(a, o);
		}
	}
	fclose(f);
	return a;
}

static struct json_object *link_json(const struct bc_egress_link *l)
{
	struct json_object *o = json_object_new_object();
	char path[160], target[256];
	ssize_t n;

	json_object_object_add(o, "name", json_object_new_string(l->name));
	json_object_object_add(o, "mtu", json_object_new_int((int)l->mtu));
	json_object_object_add(o, "speed_mbps", json_object_new_int64(l->speed_mbps));
	json_object_object_add(o, "tbf_bps", json_object_new_double(l->tbf_bps));
	/* no bus device (veth, tun, dummy): its speed is nominal, never a rate */
	json_object_object_add(o, "virtual", json_object_new_boolean(!has_device(l->name)));
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/driver", l->name);
	n = readlink(path, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = '\0';
		json_object_object_add(o, "driver",
				       json_object_new_string(strrchr(target, '/')
								      ? strrchr(target, '/') + 1
								      : target));
	}
	json_object_object_add(o, "irqs", irqs_json(l->name));
	return o;
}

/* Every readable file of /sys/class/net/<bond>/bonding as text. */
static struct json_object *bond_options_json(const char *bond)
{
	struct json_object *o = json_object_new_object();
	char dir[128];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/class/net/%s/bonding", bond);
	d = opendir(dir);
	if (!d)
		return o;
	while ((de = readdir(d))) {
		char path[400], val[512] = "";
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(val, sizeof(val), f))
			val[strcspn(val, "\n")] = '\0';
		fclose(f);
		json_object_object_add(o, de->d_name, json_object_new_string(val));
	}
	closedir(d);
	return o;
}

struct json_object *bc_egress_json(const struct bc_egress *e)
{
	struct json_object *o = link_json(&e->dev), *b, *a;

	if (e->via[0])
		json_object_object_add(o, "via", json_object_new_string(e->via));
	if (!e->is_bond)
		return o;
	b = json_object_new_object();
	json_object_object_add(b, "options", bond_options_json(e->dev.name));
	a = json_object_new_array();
	for (unsigned i = 0; i < e->n_slaves; i++)
		json_object_array_add(a, link_json(&e->slaves[i]));
	json_object_object_add(b, "slaves", a);
	json_object_object_add(o, "bond", b);
	return o;
}
