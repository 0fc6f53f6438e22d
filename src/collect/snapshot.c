// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bc_collect_snapshot(): which sources are read, in which order, and how
 * they are joined.  Order: namespace, reader capabilities, kernel release,
 * the link dump (bonds, slaves), then per slave ethtool netlink and ioctls,
 * per bond /proc/net/bonding (cross-checked), and the tcp_reordering
 * sysctl.  Every read goes through the store, so --replay repeats it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bondcheck/collect.h"
#include "bondcheck/ethtool.h"
#include "bondcheck/merge.h"
#include "bondcheck/proc.h"
#include "bondcheck/rtnl.h"
#include "collect/collect-int.h"

#define CAP_NET_ADMIN_BIT 12 /* uapi linux/capability.h */

/* setns() into /run/netns/NAME (ip-netns(8)); sysfs remounted like `ip netns exec`. */
static int enter_netns(const char *name, struct bc_snapshot *snap, struct bc_error *err)
{
	char path[PATH_MAX];
	int fd;

	if (!*name || strchr(name, '/'))
		return bc_error_set(err, -EINVAL, "--netns '%s' is not a namespace name", name);
	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bc_error_set(err, -errno,
				    "cannot open %s: %s; `ip netns list` shows the namespaces",
				    path, strerror(errno));
	if (setns(fd, CLONE_NEWNET)) {
		int e = errno;

		close(fd);
		return bc_error_set(err, -e, "cannot enter network namespace %s: %s%s", name,
				    strerror(e), e == EPERM ? " (needs CAP_SYS_ADMIN)" : "");
	}
	close(fd);
	/* /sys shows the namespace of whoever mounted it: mount our own */
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_SLAVE | MS_REC, NULL) ||
	    umount2("/sys", MNT_DETACH) || mount(name, "/sys", "sysfs", 0, NULL))
		bc_snapshot_warn(snap, "sysfs of namespace %s not mounted (%s): sysfs is not read",
				 name, strerror(errno));
	return 0;
}

/* CapEff of /proc/self/status, bit CAP_NET_ADMIN: "1\n" or "0\n". */
static int fetch_cap(void *arg, struct bc_buf *out, struct bc_error *err)
{
	struct bc_buf st = {0};
	unsigned long long eff = 0;
	const char *p;
	int rc;

	(void)arg;
	rc = fetch_file("/proc/self/status", &st, err);
	if (rc)
		return rc;
	p = strstr(st.data, "\nCapEff:");
	if (p)
		eff = strtoull(p + 8, NULL, 16);
	bc_buf_free(&st);
	return bc_buf_append(out, eff >> CAP_NET_ADMIN_BIT & 1 ? "1\n" : "0\n", 2);
}

static int fetch_uname(void *arg, struct bc_buf *out, struct bc_error *err)
{
	struct utsname u;

	(void)arg, (void)err;
	if (uname(&u))
		return -errno;
	return bc_buf_append(out, u.release, strlen(u.release));
}

static int fetch_text(void *arg, struct bc_buf *out, struct bc_error *err)
{
	(void)err;
	return bc_buf_append(out, arg, strlen(arg));
}

struct collector {
	struct store st;
	struct bc_snapshot *snap;
	struct ethtool_sock *es;
	int es_err;
};

static void drop_bond(struct bc_bond *b)
{
	for (size_t j = 0; j < b->n_slaves; j++) {
		free(b->slaves[j].driver_stats);
		free(b->slaves[j].std_stats);
	}
	free(b->slaves);
	free(b->unknown);
}

/*
 * Keep the named bonds only, in the order named.  @live: the caller is in
 * the inspected namespace, so a named interface that is not a bond can be
 * told from one that does not exist (if_nametoindex).
 */
static int select_bonds(struct bc_snapshot *snap, const struct bc_collect_opts *o, bool live,
			struct bc_error *err)
{
	struct bc_bond *keep;
	char names[256] = "";
	const char *in = snap->netns[0] ? " in network namespace " : "";

	for (size_t i = 0; i < snap->n_bonds; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 i ? ", " : "", snap->bonds[i].name);
	for (size_t i = 0; i < o->n_bonds; i++) {
		if (bc_snapshot_find_bond(snap, o->bonds[i]))
			continue;
		if (live && if_nametoindex(o->bonds[i]))
			return bc_error_set(
				err, -ENOENT, "'%s' is an interface%s%s but not a bond; %s%s",
				o->bonds[i], in, snap->netns,
				names[0] ? "the bonds here are: " : "there is no bond here", names);
		if (snap->n_bonds)
			return bc_error_set(err, -ENOENT,
					    "no bond named '%s'%s%s; the bonds here are: %s",
					    o->bonds[i], in, snap->netns, names);
	}
	if (!snap->n_bonds)
		return bc_error_set(
			err, -ENODEV,
			"%s%s%s%s%s. Is the bonding driver loaded? Check with `ls "
			"/sys/module/bonding` (lsmod needs /proc/modules) and `cat "
			"/sys/class/net/bonding_masters`; create one with `ip link add bond0 type "
			"bond`",
			o->n_bonds ? "no bond named '" : "no bond found",
			o->n_bonds ? o->bonds[0] : "", o->n_bonds ? "'; no bonds here" : "", in,
			snap->netns);
	if (!o->n_bonds)
		return 0;
	keep = calloc(o->n_bonds, sizeof(*keep));
	if (!keep)
		return -ENOMEM;
	for (size_t i = 0; i < o->n_bonds; i++) {
		struct bc_bond *b = bc_snapshot_find_bond(snap, o->bonds[i]);

		if (!b->name[0])
			continue; /* named twice */
		keep[i] = *b;
		b->name[0] = '\0';
	}
	for (size_t i = 0; i < snap->n_bonds; i++)
		if (snap->bonds[i].name[0])
			drop_bond(&snap->bonds[i]);
	free(snap->bonds);
	snap->bonds = keep;
	snap->n_bonds = 0;
	for (size_t i = 0; i < o->n_bonds; i++)
		if (keep[i].name[0])
			keep[snap->n_bonds++] = keep[i];
	return 0;
}

/* Ethtool netlink, GDRVINFO and the driver counters of one slave. */
static int slave_sources(struct collector *c, struct bc_slave *s)
{
	struct ethtool_req r = {
		.es = c->es, .es_err = c->es_err, .ifindex = s->ifindex, .ifname = s->name};
	struct bc_buf a = {0}, b = {0};
	char key[128];
	int rc;

	for (int m = 0; m < BC_ETHTOOL_N_MSGS; m++) {
		struct bc_error e = {0};

		r.msg = (enum bc_ethtool_msg)m;
		snprintf(key, sizeof(key), "ethtool/%s/%s", s->name, bc_ethtool_msg_name(r.msg));
		rc = store_get(&c->st, key, fetch_ethtool_nl, &r, &a, &e);
		if (rc == 0) {
			rc = bc_ethtool_decode(r.msg, a.data, a.len, s, &e);
			if (rc == 0)
				c->snap->have |= BC_HAVE_ETHTOOL_NL;
		}
		bc_buf_free(&a);
		if (rc == -ENOMEM)
			return rc;
		/* EOPNOTSUPP: the driver lacks the op (veth rings), not a problem */
		if (rc && rc != -EOPNOTSUPP && !(m == BC_ETHTOOL_STATS && rc == -EINVAL))
			bc_snapshot_warn(c->snap, "%s: %s", s->name, e.msg);
	}
	{
		struct bc_error e = {0};

		r.what = "drvinfo";
		snprintf(key, sizeof(key), "ioctl/%s/drvinfo", s->name);
		rc = store_get(&c->st, key, fetch_ethtool_ioctl, &r, &a, &e);
		if (!rc)
			rc = bc_ethtool_decode_drvinfo(a.data, a.len, s, &e);
		bc_buf_free(&a);
		if (!rc)
			c->snap->have |= BC_HAVE_IOCTL;
		else if (rc != -EOPNOTSUPP)
			bc_snapshot_warn(c->snap, "%s: driver info: %s", s->name, e.msg);
	}
	{
		struct bc_error e = {0};

		r.what = "gstrings";
		snprintf(key, sizeof(key), "ioctl/%s/gstrings", s->name);
		rc = store_get(&c->st, key, fetch_ethtool_ioctl, &r, &a, &e);
		r.what = "gstats";
		snprintf(key, sizeof(key), "ioctl/%s/gstats", s->name);
		if (!rc)
			rc = store_get(&c->st, key, fetch_ethtool_ioctl, &r, &b, &e);
		if (!rc)
			rc = bc_ethtool_decode_gstats(a.data, a.len, b.data, b.len, s, &e);
		bc_buf_free(&a);
		bc_buf_free(&b);
		if (rc == -ENOMEM)
			return rc;
		if (rc && rc != -EOPNOTSUPP)
			bc_snapshot_warn(c->snap, "%s: driver counters: %s", s->name, e.msg);
	}
	return 0;
}

/* /proc/net/bonding/<bond>: parse into a scratch snapshot, then cross-check. */
static int proc_source(struct collector *c, struct bc_bond *b)
{
	struct bc_snapshot tmp = {.cap_net_admin = c->snap->cap_net_admin};
	struct bc_error e = {0};
	struct bc_buf text = {0};
	char key[64], path[64];
	int rc;

	snprintf(key, sizeof(key), "proc/net/bonding/%s", b->name);
	snprintf(path, sizeof(path), "/%s", key);
	rc = store_get(&c->st, key, fetch_file, path, &text, &e);
	if (!rc)
		rc = bc_proc_parse(text.data, text.len, b->name, &tmp, &e);
	bc_buf_free(&text);
	if (rc == -ENOMEM)
		goto out;
	if (rc) {
		bc_snapshot_warn(c->snap, "%s: /proc view not cross-checked: %s", b->name, e.msg);
		rc = 0;
		goto out;
	}
	for (size_t i = 0; i < tmp.n_warnings; i++)
		bc_snapshot_warn(c->snap, "%s", tmp.warnings[i]);
	c->snap->lacp_hidden |= tmp.lacp_hidden;
	c->snap->have |= BC_HAVE_PROC;
	if (!c->snap->kernel_release[0])
		snprintf(c->snap->kernel_release, sizeof(c->snap->kernel_release), "%s",
			 tmp.kernel_release);
	rc = bc_merge_proc(c->snap, b, &tmp.bonds[0]);
	rc = rc < 0 ? rc : 0;
out:
	bc_snapshot_free(&tmp);
	return rc;
}

static void tcp_reordering(struct collector *c)
{
	const char *key = "proc/sys/net/ipv4/tcp_reordering";
	struct bc_buf b = {0};
	char path[64];
	char *end;
	unsigned long v;

	snprintf(path, sizeof(path), "/%s", key);
	if (store_get(&c->st, key, fetch_file, path, &b, NULL))
		return;
	v = strtoul(b.data, &end, 10);
	if (end != b.data && v <= UINT32_MAX)
		bc_u32_set(&c->snap->tcp_reordering, (uint32_t)v);
	bc_buf_free(&b);
}

static int meta(struct collector *c, const struct bc_collect_opts *o, struct bc_error *err)
{
	struct bc_buf b = {0};
	int rc;

	rc = store_get(&c->st, "meta/cap_net_admin", fetch_cap, NULL, &b, err);
	if (rc)
		return rc;
	c->snap->cap_net_admin = ((const char *)b.data)[0] == '1';
	bc_buf_free(&b);
	if (!store_get(&c->st, "meta/kernel_release", fetch_uname, NULL, &b, NULL))
		snprintf(c->snap->kernel_release, sizeof(c->snap->kernel_release), "%s",
			 (char *)b.data);
	bc_buf_free(&b);
	if (!store_get(&c->st, "meta/netns", fetch_text, (void *)(o->netns ? o->netns : ""), &b,
		       NULL))
		snprintf(c->snap->netns, sizeof(c->snap->netns), "%s", (char *)b.data);
	bc_buf_free(&b);
	return 0;
}

int bc_collect_snapshot(const struct bc_collect_opts *o, struct bc_snapshot *snap,
			struct bc_error *err)
{
	struct collector c = {.snap = snap};
	struct bc_buf links = {0};
	bool any_ad = false;
	int rc;

	if (o->replay_dir) {
		c.st.mode = STORE_REPLAY;
		snprintf(c.st.dir, sizeof(c.st.dir), "%s", o->replay_dir);
	} else if (o->record_dir) {
		c.st.mode = STORE_RECORD;
		snprintf(c.st.dir, sizeof(c.st.dir), "%s", o->record_dir);
	}
	snap->source = o->replay_dir ? BC_SRC_REPLAY : BC_SRC_LIVE;
	if (o->netns && !o->replay_dir) {
		rc = enter_netns(o->netns, snap, err);
		if (rc)
			return rc;
	}
	rc = store_open(&c.st, err);
	if (!rc)
		rc = meta(&c, o, err);
	if (!rc)
		rc = store_get(&c.st, "rtnl/links", fetch_rtnl_links, NULL, &links, err);
	if (!rc)
		rc = bc_rtnl_decode_links(links.data, links.len, snap, err);
	bc_buf_free(&links);
	if (!rc)
		rc = select_bonds(snap, o, c.st.mode != STORE_REPLAY, err);
	if (rc)
		return rc;
	if (c.st.mode != STORE_REPLAY)
		c.es_err = ethtool_sock_open(&c.es, NULL);
	for (size_t i = 0; !rc && i < snap->n_bonds; i++) {
		struct bc_bond *b = &snap->bonds[i];

		for (size_t j = 0; !rc && j < b->n_slaves; j++)
			rc = slave_sources(&c, &b->slaves[j]);
		if (!rc)
			rc = proc_source(&c, b);
		any_ad |= bc_u32_known(&b->mode) && b->mode.v == BC_MODE_8023AD;
	}
	ethtool_sock_close(c.es);
	if (rc)
		return bc_error_set(err, rc, "collecting the bond sources failed: %s",
				    strerror(-rc));
	tcp_reordering(&c);
	if (!snap->cap_net_admin && any_ad)
		bc_snapshot_warn(snap,
				 "running without CAP_NET_ADMIN: the 802.3ad actor system "
				 "(netlink, sysfs ad_*) and /proc's aggregator and LACPDU details "
				 "are hidden; run as root to check them");
	return 0;
}
