// SPDX-License-Identifier: GPL-2.0-or-later
/* Live host counters and metadata for a run; see bondcheck/host-stats.h. */
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <linux/pkt_sched.h>
#include <netlink/netlink.h>
#include <linux/if_link.h>
#include <netlink/msg.h>
#include <netlink/route/link.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/tc.h>

#include "bondcheck/nl-sock.h"
#include "bondcheck/host-stats.h"

static const char *const if_counter_names[BC_HOST_IF_COUNTERS] = {
	"rx_packets",	    "tx_packets",     "rx_bytes",    "tx_bytes",
	"rx_dropped",	    "tx_dropped",     "rx_errors",   "tx_errors",
	"rx_missed_errors", "rx_over_errors", "qdisc_drops", /* not sysfs: root qdisc drops over
								rtnetlink (read_qdiscs) */
	"carrier_changes", /* /sys/class/net/<dev>/carrier_changes, not statistics/ */
	"rx_nohandler",	   /* statistics/ again: read after carrier_changes */
};

#define IF_QDISC_DROPS	   10
#define IF_CARRIER_CHANGES 11
#define IF_RX_NOHANDLER	   12

/* Read a whole small file; NULL when unreadable.  Caller frees. */
static char *slurp(const char *path)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	FILE *f = fopen(path, "re");

	if (!f || !buf) {
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	for (;;) {
		size_t n = fread(buf + len, 1, cap - len - 1, f);
		char *nb;

		len += n;
		if (len + 1 < cap)
			break;
		cap *= 2;
		nb = realloc(buf, cap);
		if (!nb) {
			free(buf);
			fclose(f);
			return NULL;
		}
		buf = nb;
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

static void read_ifs(struct bc_host_sample *s)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) && s->n_ifs < BC_HOST_MAX_IFS) {
		struct bc_if_counters *c = &s->ifs[s->n_ifs];
		char ifindex[128];

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(c->name))
			continue;
		/* a device, not a file of the folder (bonding's bonding_masters) */
		snprintf(ifindex, sizeof(ifindex), "/sys/class/net/%s/ifindex", de->d_name);
		if (access(ifindex, F_OK) != 0)
			continue;
		snprintf(c->name, sizeof(c->name), "%s", de->d_name);
		for (int i = 0; i < IF_QDISC_DROPS; i++) {
			char path[128], *t;

			snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/%s", de->d_name,
				 if_counter_names[i]);
			t = slurp(path);
			c->v[i] = t ? strtoull(t, NULL, 10) : 0;
			free(t);
		}
		{
			char path[128], *t;

			snprintf(path, sizeof(path), "/sys/class/net/%s/carrier_changes",
				 de->d_name);
			t = slurp(path);
			c->v[IF_CARRIER_CHANGES] = t ? strtoull(t, NULL, 10) : 0;
			free(t);
			snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/rx_nohandler",
				 de->d_name);
			t = slurp(path);
			c->v[IF_RX_NOHANDLER] = t ? strtoull(t, NULL, 10) : 0;
			free(t);
		}
		s->n_ifs++;
	}
	closedir(d);
}

/*
 * Qdisc drops per interface (`tc -s qdisc` "dropped"): the root qdisc of
 * each device from an RTM_GETQDISC dump (TCA_STATS2 qstats.drops).  Root
 * only: classful roots (tbf, htb, mq) already count their children's drops,
 * so adding the children would count a netem loss twice.  The ingress
 * qdisc is not on the transmit path.  Unreadable: left 0.
 */
static void read_qdiscs(struct bc_host_sample *s)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_cache *cache = NULL;

	if (!sk || bc_nl_connect(sk, NETLINK_ROUTE) < 0 || rtnl_qdisc_alloc_cache(sk, &cache) < 0)
		goto out;
	for (struct nl_object *o = nl_cache_get_first(cache); o; o = nl_cache_get_next(o)) {
		struct rtnl_tc *tc = TC_CAST(o);
		char name[IF_NAMESIZE];

		if (rtnl_tc_get_parent(tc) != TC_H_ROOT ||
		    !if_indextoname((unsigned)rtnl_tc_get_ifindex(tc), name))
			continue;
		for (unsigned i = 0; i < s->n_ifs; i++)
			if (!strcmp(s->ifs[i].name, name))
				s->ifs[i].v[IF_QDISC_DROPS] += rtnl_tc_get_stat(tc, RTNL_TC_DROPS);
	}
out:
	if (cache)
		nl_cache_free(cache);
	nl_socket_free(sk);
}

struct peer_stats {
	bool ok;
	uint64_t tx_dropped;
	bool enslaved;
};

static void peer_obj(struct nl_object *o, void *arg)
{
	struct peer_stats *p = arg;
	struct rtnl_link *l = (struct rtnl_link *)o;

	p->ok = true;
	p->tx_dropped = rtnl_link_get_stat(l, RTNL_LINK_TX_DROPPED);
	p->enslaved = rtnl_link_get_master(l) > 0;
}

static int peer_msg(struct nl_msg *msg, void *arg)
{
	nl_msg_parse(msg, peer_obj, arg);
	return NL_OK;
}

/* Link @ifindex in the namespace the caller knows as @nsid (IFLA_TARGET_NETNSID, 4.20+). */
static bool remote_link(int ifindex, int32_t nsid, struct peer_stats *p)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_msg *msg = NULL;
	bool ok = false;

	if (!sk || bc_nl_connect(sk, NETLINK_ROUTE) < 0 ||
	    rtnl_link_build_get_request(ifindex, NULL, &msg) < 0 ||
	    nla_put_s32(msg, IFLA_TARGET_NETNSID, nsid) < 0)
		goto out;
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, peer_msg, p);
	if (nl_send_auto(sk, msg) >= 0 && nl_recvmsgs_default(sk) >= 0)
		ok = p->ok;
out:
	nlmsg_free(msg);
	nl_socket_free(sk);
	return ok;
}

/*
 * For every veth of the namespace: its peer's tx_dropped and whether the
 * peer is enslaved, from the link dump (peer here) or a get in the peer's
 * namespace (IFLA_LINK_NETNSID set).  Unreadable: peer_known stays false.
 */
static void read_veth_peers(struct bc_host_sample *s)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_cache *cache = NULL;

	if (!sk || bc_nl_connect(sk, NETLINK_ROUTE) < 0 ||
	    rtnl_link_alloc_cache(sk, AF_UNSPEC, &cache) < 0)
		goto out;
	for (unsigned i = 0; i < s->n_ifs; i++) {
		struct rtnl_link *l = rtnl_link_get_by_name(cache, s->ifs[i].name);
		struct peer_stats p = {0};
		const char *type = l ? rtnl_link_get_type(l) : NULL;
		int32_t nsid;

		if (type && !strcmp(type, "veth") && rtnl_link_get_link(l) > 0) {
			if (rtnl_link_get_link_netnsid(l, &nsid) == 0) {
				remote_link(rtnl_link_get_link(l), nsid, &p);
			} else {
				struct rtnl_link *peer =
					rtnl_link_get(cache, rtnl_link_get_link(l));

				if (peer) {
					peer_obj((struct nl_object *)peer, &p);
					rtnl_link_put(peer);
				}
			}
		}
		s->ifs[i].peer_known = p.ok;
		s->ifs[i].peer_tx_dropped = p.tx_dropped;
		s->ifs[i].peer_enslaved = p.enslaved;
		if (l)
			rtnl_link_put(l);
	}
out:
	if (cache)
		nl_cache_free(cache);
	nl_socket_free(sk);
}

void bc_host_sample_take(struct bc_host_sample *s)
{
	struct timespec ts;
	char *t;

	memset(s, 0, sizeof(*s));
	if ((t = slurp("/proc/net/snmp")))
		bc_mib_parse(t, &s->snmp, NULL);
	free(t);
	if ((t = slurp("/proc/net/netstat")))
		bc_mib_parse(t, &s->netstat, NULL);
	free(t);
	if ((t = slurp("/proc/net/softnet_stat")))
		bc_softnet_parse(t, &s->softnet, NULL);
	free(t);
	if ((t = slurp("/proc/stat")))
		bc_cpu_times_parse(t, &s->cpu, NULL);
	free(t);
	read_ifs(s);
	read_qdiscs(s);
	read_veth_peers(s);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->mono_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void bc_host_sample_free(struct bc_host_sample *s)
{
	if (!s)
		return;
	bc_mib_free(&s->snmp);
	bc_mib_free(&s->netstat);
}

static struct json_object *mib_delta(const struct bc_mib *a, const struct bc_mib *b,
				     const char *const *groups, bool all)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; i < b->n; i++) {
		const char *name = b->e[i].name;
		int64_t before = 0;
		bool want = false;

		for (const char *const *g = groups; *g; g++)
			if (!strncmp(name, *g, strlen(*g)) && name[strlen(*g)] == '.')
				want = true;
		if (!want)
			continue;
		bc_mib_get(a, name, &before);
		if (all || b->e[i].value != before)
			json_object_object_add(o, name,
					       json_object_new_int64(b->e[i].value - before));
	}
	return o;
}

struct json_object *bc_host_delta_json(const struct bc_host_sample *a,
				       const struct bc_host_sample *b)
{
	static const char *const snmp_groups[] = {"Ip", "Udp", "Tcp", NULL};
	static const char *const netstat_groups[] = {"TcpExt", "IpExt", NULL};
	struct json_object *o = json_object_new_object(), *sn, *ifs, *cpus;
	bool bound = false;

	json_object_object_add(o, "snmp", mib_delta(&a->snmp, &b->snmp, snmp_groups, true));
	json_object_object_add(o, "netstat",
			       mib_delta(&a->netstat, &b->netstat, netstat_groups, false));
	sn = json_object_new_object();
	json_object_object_add(sn, "scope",
			       json_object_new_string("global, per CPU: shared by "
						      "every namespace on this kernel"));
	json_object_object_add(
		sn, "processed",
		json_object_new_int64((int64_t)(b->softnet.processed - a->softnet.processed)));
	json_object_object_add(
		sn, "dropped",
		json_object_new_int64((int64_t)(b->softnet.dropped - a->softnet.dropped)));
	json_object_object_add(sn, "time_squeeze",
			       json_object_new_int64((int64_t)(b->softnet.time_squeeze -
							       a->softnet.time_squeeze)));
	json_object_object_add(o, "softnet", sn);
	ifs = json_object_new_object();
	for (unsigned i = 0; i < b->n_ifs; i++) {
		const struct bc_if_counters *before = NULL;
		struct json_object *c = json_object_new_object();

		for (unsigned j = 0; j < a->n_ifs; j++)
			if (!strcmp(a->ifs[j].name, b->ifs[i].name))
				before = &a->ifs[j];
		for (int k = 0; k < BC_HOST_IF_COUNTERS; k++)
			json_object_object_add(
				c, if_counter_names[k],
				json_object_new_int64(
					(int64_t)(b->ifs[i].v[k] - (before ? before->v[k] : 0))));
		/* a veth's peer, read at both ends of the run */
		if (b->ifs[i].peer_known && before && before->peer_known) {
			json_object_object_add(
				c, "peer_tx_dropped",
				json_object_new_int64((int64_t)(b->ifs[i].peer_tx_dropped -
								before->peer_tx_dropped)));
			json_object_object_add(c, "peer_enslaved",
					       json_object_new_boolean(b->ifs[i].peer_enslaved));
		}
		json_object_object_add(ifs, b->ifs[i].name, c);
	}
	json_object_object_add(o, "interfaces", ifs);
	cpus = json_object_new_array();
	for (uint32_t i = 0; i < b->cpu.n && i < a->cpu.n; i++) {
		struct json_object *c = json_object_new_object();
		double tot = (double)(b->cpu.total[i] - a->cpu.total[i]);
		double busy = tot > 0 ? 100.0 * (double)(b->cpu.busy[i] - a->cpu.busy[i]) / tot : 0;
		double sirq =
			tot > 0 ? 100.0 * (double)(b->cpu.softirq[i] - a->cpu.softirq[i]) / tot : 0;

		json_object_object_add(c, "cpu", json_object_new_int((int)i));
		json_object_object_add(c, "busy_pct", json_object_new_double(busy));
		json_object_object_add(c, "softirq_pct", json_object_new_double(sirq));
		json_object_array_add(cpus, c);
		if (busy >= BC_CPU_BOUND_PCT)
			bound = true;
	}
	json_object_object_add(o, "cpu", cpus);
	json_object_object_add(o, "cpu_bound", json_object_new_boolean(bound));
	json_object_object_add(o, "seconds",
			       json_object_new_double((double)(b->mono_ns - a->mono_ns) / 1e9));
	return o;
}

struct json_object *bc_host_metadata_json(void)
{
	static const char *const sysctls[] = {
		"net/ipv4/tcp_reordering",    "net/ipv4/tcp_max_reordering",
		"net/ipv4/tcp_recovery",      "net/ipv4/tcp_congestion_control",
		"net/ipv4/tcp_rmem",	      "net/ipv4/tcp_wmem",
		"net/ipv4/udp_mem",	      "net/core/rmem_max",
		"net/core/wmem_max",	      "net/core/rmem_default",
		"net/core/wmem_default",      "net/core/netdev_max_backlog",
		"net/ipv4/ipfrag_time",	      "net/ipv4/ipfrag_high_thresh",
		"net/ipv4/ipfrag_low_thresh", "net/ipv4/ipfrag_max_dist",
		"net/ipv4/tcp_timestamps",    "net/core/txrehash",
	};
	struct json_object *o = json_object_new_object(), *sc = json_object_new_object();
	struct utsname u;
	char host[256] = "", *t;

	if (uname(&u) == 0)
		json_object_object_add(o, "kernel_release", json_object_new_string(u.release));
	gethostname(host, sizeof(host) - 1);
	json_object_object_add(o, "hostname", json_object_new_string(host));
	if ((t = slurp("/proc/sys/kernel/random/boot_id"))) {
		t[strcspn(t, "\n")] = '\0';
		json_object_object_add(o, "boot_id", json_object_new_string(t));
	}
	free(t);
	json_object_object_add(o, "online_cpus",
			       json_object_new_int((int)sysconf(_SC_NPROCESSORS_ONLN)));
	for (size_t i = 0; i < sizeof(sysctls) / sizeof(sysctls[0]); i++) {
		char path[128], name[128];

		snprintf(path, sizeof(path), "/proc/sys/%s", sysctls[i]);
		snprintf(name, sizeof(name), "%s", sysctls[i]);
		for (char *p = name; *p; p++)
			if (*p == '/')
				*p = '.';
		if (!(t = slurp(path)))
			continue;
		t[strcspn(t, "\n")] = '\0';
		for (char *p = t; *p; p++)
			if (*p == '\t')
				*p = ' ';
		json_object_object_add(sc, name, json_object_new_string(t));
		free(t);
	}
	json_object_object_add(o, "sysctls", sc);
	return o;
}
