// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck watch`, the sampler (bondcheck/watch-run.h): one reading of
 * the host per call, for the pure analysis of bondcheck/watch.h.
 *
 *   - the bond and its slaves: bc_collect_snapshot() (bonding state, LACP
 *     port states, speed), so slaves enslaved or released while watching
 *     are followed;
 *   - the slaves' rtnetlink stats64 counters, from a link dump taken right
 *     after the connections' (below), with the sample's clock: both byte
 *     sources of a sample are read within milliseconds;
 *   - the namespace's TCP counters: /proc/net/snmp Tcp RetransSegs and
 *     OutSegs, /proc/net/netstat TcpExt TCPSACKReorder, TCPTSReorder and
 *     TCPRenoReorder (the reordering events TCP detected; Documentation/
 *     networking/snmp_counter.rst);
 *   - the host's TCP connections whose local address is on the bond or on
 *     an upper stacked on it (a VLAN): sock_diag (bondcheck/sock-diag.h);
 *   - each connection's transmit slave predicted by the bond's hash
 *     (bondcheck/xmit-hash.h) from its 5-tuple, the bond's MAC and the
 *     peer's neighbour entry (layer2 and layer2+3 need the MACs; a routed
 *     peer's next hop is not looked up, so those flows stay unknown).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/link/vlan.h>
#include <netlink/route/neighbour.h>

#include "bondcheck/collect.h"
#include "bondcheck/file.h"
#include "bondcheck/mib-text.h"
#include "bondcheck/names.h"
#include "bondcheck/nl-sock.h"
#include "bondcheck/sock-diag.h"
#include "bondcheck/tap.h"
#include "bondcheck/watch-run.h"

/* A /proc/net MIB file (@path) parsed into @m; left empty when unreadable. */
static void read_mib(const char *path, struct bc_mib *m)
{
	char *t = NULL, *z;
	size_t len = 0;

	if (bc_file_read_capped(path, 1u << 20, path, "it is a few KiB", &t, &len, NULL) < 0)
		return;
	z = realloc(t, len + 1);
	if (z) {
		z[len] = 0;
		bc_mib_parse(z, m, NULL);
		t = z;
	}
	free(t);
}

static void tcp_counters(struct bc_watch_sample *s)
{
	static const char *const reorder[] = {"TcpExt.TCPSACKReorder", "TcpExt.TCPTSReorder",
					      "TcpExt.TCPRenoReorder"};
	struct bc_mib snmp = {0}, netstat = {0};
	int64_t v;

	read_mib("/proc/net/snmp", &snmp);
	read_mib("/proc/net/netstat", &netstat);
	s->tcp_counters = bc_mib_get(&snmp, "Tcp.RetransSegs", &v) == 0;
	if (s->tcp_counters) {
		s->tcp_retrans_segs = (uint64_t)v;
		if (bc_mib_get(&snmp, "Tcp.OutSegs", &v) == 0)
			s->tcp_out_segs = (uint64_t)v;
		for (size_t i = 0; i < sizeof(reorder) / sizeof(reorder[0]); i++)
			if (bc_mib_get(&netstat, reorder[i], &v) == 0)
				s->tcp_reorder += (uint64_t)v;
	}
	bc_mib_free(&snmp);
	bc_mib_free(&netstat);
}

static int parse_mac(const char *text, uint8_t mac[6])
{
	unsigned b[6];

	if (sscanf(text, "%2x:%2x:%2x:%2x:%2x:%2x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6)
		return -EINVAL;
	for (int i = 0; i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return 0;
}

/* The devices a connection of the bond's may sit on: the bond and its uppers. */
struct devs {
	int ifindex[9];
	uint16_t vlan[9]; /* 0 none */
	size_t n;
};

static void bond_devs(struct nl_cache *links, const struct bc_bond *b, struct devs *d)
{
	d->n = 0;
	d->ifindex[d->n] = b->ifindex;
	d->vlan[d->n++] = 0;
	for (size_t i = 0; i < b->n_uppers && d->n < 9; i++) {
		struct rtnl_link *l = rtnl_link_get_by_name(links, b->uppers[i]);

		if (!l)
			continue;
		d->ifindex[d->n] = rtnl_link_get_ifindex(l);
		d->vlan[d->n++] = rtnl_link_is_vlan(l) ? (uint16_t)rtnl_link_vlan_get_id(l) : 0;
		rtnl_link_put(l);
	}
}

struct addr_match {
	const struct bc_tcp_conn *c;
	int family;
	const uint8_t *a;
	int ifindex;
};

static void addr_cb(struct nl_object *o, void *arg)
{
	struct addr_match *m = arg;
	struct rtnl_addr *ad = (struct rtnl_addr *)o;
	struct nl_addr *local = rtnl_addr_get_local(ad);
	size_t alen = m->family == AF_INET ? 4 : 16;

	if (m->ifindex || !local || nl_addr_get_family(local) != m->family ||
	    nl_addr_get_len(local) != alen)
		return;
	if (!memcmp(nl_addr_get_binary_addr(local), m->a, alen))
		m->ifindex = rtnl_addr_get_ifindex(ad);
}

/* IPv4 in an AF_INET6 socket (::ffff:a.b.c.d) is IPv4 on the wire. */
static void unmap(struct bc_flow *f)
{
	static const uint8_t pre[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	if (f->family == AF_INET6 && !memcmp(f->src, pre, 12) && !memcmp(f->dst, pre, 12)) {
		f->family = AF_INET;
		memmove(f->src, f->src + 12, 4);
		memmove(f->dst, f->dst + 12, 4);
		memset(f->src + 4, 0, 12);
		memset(f->dst + 4, 0, 12);
	}
}

static void neigh_mac(struct nl_cache *neigh, int ifindex, const struct bc_flow *f,
		      uint8_t mac[6], bool *found)
{
	struct nl_addr *a = nl_addr_build(f->family, f->dst, f->family == AF_INET ? 4 : 16);
	struct rtnl_neigh *n;
	struct nl_addr *ll;

	*found = false;
	if (!a)
		return;
	n = rtnl_neigh_get(neigh, ifindex, a);
	nl_addr_put(a);
	if (!n)
		return;
	ll = rtnl_neigh_get_lladdr(n);
	if (ll && nl_addr_get_len(ll) == 6) {
		memcpy(mac, nl_addr_get_binary_addr(ll), 6);
		*found = true;
	}
	rtnl_neigh_put(n);
}

/* The slaves' stats64 counters from a fresh link dump, and the sample's clock. */
static void slave_counters(struct bc_watch_sample *s, struct nl_cache *links)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->mono_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	for (size_t i = 0; i < s->n_slaves; i++) {
		struct bc_watch_slave *w = &s->slaves[i];
		struct rtnl_link *l = rtnl_link_get_by_name(links, w->name);

		if (!l)
			continue; /* released since the snapshot: its snapshot counters stand */
		w->tx_bytes = rtnl_link_get_stat(l, RTNL_LINK_TX_BYTES);
		w->rx_bytes = rtnl_link_get_stat(l, RTNL_LINK_RX_BYTES);
		w->tx_packets = rtnl_link_get_stat(l, RTNL_LINK_TX_PACKETS);
		w->rx_packets = rtnl_link_get_stat(l, RTNL_LINK_RX_PACKETS);
		w->drops = rtnl_link_get_stat(l, RTNL_LINK_RX_DROPPED) +
			   rtnl_link_get_stat(l, RTNL_LINK_TX_DROPPED);
		w->errors = rtnl_link_get_stat(l, RTNL_LINK_RX_ERRORS) +
			    rtnl_link_get_stat(l, RTNL_LINK_TX_ERRORS);
		rtnl_link_put(l);
	}
}

static bool policy_needs_macs(const struct bc_bond *b)
{
	uint32_t p = b->xmit_hash_policy.v;

	return !bc_u32_known(&b->xmit_hash_policy) || p == BC_XMIT_LAYER2 ||
	       p == BC_XMIT_LAYER23 || p == BC_XMIT_ENCAP23 || p == BC_XMIT_VLAN_SRCMAC;
}

static void flows(struct bc_watch_sample *s, const struct bc_bond *b, enum bc_hash_kernel k,
		  bool k_known)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_cache *links = NULL, *addrs = NULL, *neigh = NULL;
	struct bc_tcp_conn *c = NULL;
	struct bc_error e = {0};
	size_t n = 0;
	struct devs d = {0};
	uint8_t bond_mac[6] = {0};
	bool have_mac = parse_mac(b->mac.v, bond_mac) == 0;
	int r;

	if (!sk || bc_nl_connect(sk, NETLINK_ROUTE) < 0 || rtnl_addr_alloc_cache(sk, &addrs) < 0 ||
	    rtnl_neigh_alloc_cache(sk, &neigh) < 0) {
		snprintf(s->flows_error, sizeof(s->flows_error),
			 "rtnetlink caches (addresses, neighbours) unreadable");
		goto out;
	}
	/*
	 * The connections' byte counters, then at once the slaves' (the link
	 * dump) and the clock: the two sources of one sample are read within
	 * milliseconds of each other, so that their deltas cover the same time
	 * (the snapshot before takes long on a slow host).
	 */
	r = bc_sock_diag_tcp(&c, &n, &e);
	if (rtnl_link_alloc_cache(sk, AF_UNSPEC, &links) < 0) {
		snprintf(s->flows_error, sizeof(s->flows_error), "rtnetlink link dump failed");
		goto out;
	}
	slave_counters(s, links);
	if (r < 0) {
		snprintf(s->flows_error, sizeof(s->flows_error), "%s", e.msg);
		goto out;
	}
	bond_devs(links, b, &d);
	for (size_t i = 0; i < n; i++) {
		struct addr_match m = {&c[i], c[i].family, c[i].src, 0};
		struct bc_watch_flow *f;
		size_t dev = d.n, slave;

		nl_cache_foreach(addrs, addr_cb, &m);
		if (!m.ifindex && c[i].family == AF_INET6) {
			/* a v4-mapped local address is an IPv4 address of the host */
			struct bc_flow t = {.family = AF_INET6};

			memcpy(t.src, c[i].src, 16);
			memcpy(t.dst, c[i].dst, 16);
			unmap(&t);
			if (t.family == AF_INET) {
				m.family = AF_INET;
				m.a = c[i].src + 12;
				nl_cache_foreach(addrs, addr_cb, &m);
			}
		}
		for (size_t j = 0; j < d.n; j++)
			if (m.ifindex && m.ifindex == d.ifindex[j])
				dev = j;
		if (dev == d.n || !c[i].has_bytes)
			continue;
		if (s->n_flows == BC_WATCH_MAX_FLOWS) {
			s->flows_dropped++;
			continue;
		}
		f = &s->flows[s->n_flows++];
		memset(f, 0, sizeof(*f));
		f->cookie = c[i].cookie;
		f->flow.family = c[i].family;
		memcpy(f->flow.src, c[i].src, 16);
		memcpy(f->flow.dst, c[i].dst, 16);
		unmap(&f->flow);
		f->flow.sport = c[i].sport;
		f->flow.dport = c[i].dport;
		f->flow.proto = IPPROTO_TCP;
		f->flow.connected = true;
		f->flow.vlan = d.vlan[dev] != 0;
		f->flow.vlan_tci = d.vlan[dev];
		f->tx_bytes = c[i].bytes_acked;
		f->rx_bytes = c[i].bytes_received;
		f->tx_slave = f->rx_slave = f->tx_predicted = -1;
		f->socket = true;
		memcpy(f->flow.smac, bond_mac, 6);
		if (policy_needs_macs(b)) {
			bool found;

			neigh_mac(neigh, d.ifindex[dev], &f->flow, f->flow.dmac, &found);
			if (!found || !have_mac) {
				snprintf(f->why, sizeof(f->why),
					 "the peer's MAC is not in the neighbour table (routed?)");
				continue;
			}
		}
		if (!k_known) {
			snprintf(f->why, sizeof(f->why), "kernel release not classified");
			continue;
		}
		r = bc_xmit_slave(b, k, &f->flow, &slave, &e);
		if (r < 0) {
			snprintf(f->why, sizeof(f->why), "%s",
				 r == -ENOTSUP && bc_u32_known(&b->mode) &&
						 b->mode.v == BC_MODE_ROUNDROBIN
					 ? "balance-rr sends every packet on the next slave"
					 : e.msg);
			continue;
		}
		if (slave < s->n_slaves) {
			f->tx_slave = f->tx_predicted = (int)slave;
			f->tx_src = BC_WATCH_SRC_PREDICTED;
		}
	}
out:
	free(c);
	nl_cache_free(links);
	nl_cache_free(addrs);
	nl_cache_free(neigh);
	nl_socket_free(sk);
}

int bc_watch_sample_take(const char *bond, struct bc_watch_sample *s, struct bc_error *err)
{
	const char *names[1] = {bond};
	struct bc_collect_opts o = {.bonds = names, .n_bonds = 1};
	struct bc_snapshot snap = {0};
	struct bc_bond *b;
	struct timespec ts;
	struct utsname u;
	enum bc_hash_kernel k = BC_HK_CURRENT;
	bool k_known;
	size_t idx[BC_WATCH_MAX_SLAVES], n_use;
	int r;

	memset(s, 0, sizeof(*s));
	r = bc_collect_snapshot(&o, &snap, err);
	if (r < 0) {
		bc_snapshot_free(&snap);
		return r;
	}
	b = bc_snapshot_find_bond(&snap, bond);
	if (!b) {
		bc_snapshot_free(&snap);
		return bc_error_set(err, -ENODEV, "no bond named %s (it vanished?)", bond);
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	s->mono_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	snprintf(s->bond, sizeof(s->bond), "%s", b->name);
	s->mode = bc_u32_known(&b->mode) ? (int)b->mode.v : BC_MODE_UNKNOWN;
	if (s->mode == BC_MODE_XOR || s->mode == BC_MODE_8023AD || s->mode == BC_MODE_TLB ||
	    s->mode == BC_MODE_ALB)
		snprintf(s->policy, sizeof(s->policy), "%s", b->xmit_hash_policy_name);
	n_use = bc_xmit_usable(b, idx, BC_WATCH_MAX_SLAVES);
	for (size_t i = 0; i < b->n_slaves && i < BC_WATCH_MAX_SLAVES; i++) {
		const struct bc_slave *sl = &b->slaves[i];
		struct bc_watch_slave *w = &s->slaves[s->n_slaves++];

		snprintf(w->name, sizeof(w->name), "%s", sl->name);
		w->ifindex = sl->ifindex;
		w->up = !bc_u32_known(&sl->mii_status) || sl->mii_status.v == BC_LINK_UP;
		for (size_t j = 0; j < n_use; j++)
			w->usable |= idx[j] == i;
		if (s->mode == BC_MODE_ROUNDROBIN || s->mode == BC_MODE_BROADCAST)
			w->usable = w->up;
		w->speed_bps = bc_u32_known(&sl->speed_mbps) ? sl->speed_mbps.v * 1e6 : 0;
		w->tx_bytes = sl->stats.tx_bytes;
		w->rx_bytes = sl->stats.rx_bytes;
		w->tx_packets = sl->stats.tx_packets;
		w->rx_packets = sl->stats.rx_packets;
		w->drops = sl->stats.rx_dropped + sl->stats.tx_dropped;
		w->errors = sl->stats.rx_errors + sl->stats.tx_errors;
	}
	k_known = uname(&u) == 0 && bc_hash_kernel_from_release(u.release, &k, NULL) == 0;
	flows(s, b, k, k_known);
	tcp_counters(s);
	bc_snapshot_free(&snap);
	return 0;
}

/* ---- the slave taps (bondcheck/tap.h): observed slaves, both ways ---- */

#define SOCKET_TUPLES 4096

struct bc_watch_taps {
	struct bc_tap *tap;
	int ifindex[BC_TAP_MAX_IFS];
	size_t n;
	uint32_t capacity;
	int64_t opened_ns; /* CLOCK_MONOTONIC at the attach: the sample's tap_since_ns */
	/*
	 * The 5-tuples (tuple_cookie()) of this host's connections seen so far:
	 * once a connection closes, its entries linger in the flow table, and
	 * counting them as a flow of the taps' own would count its bytes twice.
	 */
	uint64_t sock[SOCKET_TUPLES];
	size_t n_sock;
};

int bc_watch_taps_open(struct bc_watch_taps **out, const struct bc_watch_sample *s,
		       struct bc_error *err)
{
	struct bc_watch_taps *t;
	struct bc_tap_opts o;
	struct timespec ts;
	int r;

	*out = NULL;
	if (!bc_tap_built())
		return bc_error_set(err, -EOPNOTSUPP, "this bondcheck was built without the slave taps");
	r = bc_tap_check_privileges(err);
	if (r < 0)
		return r;
	t = calloc(1, sizeof(*t));
	if (!t)
		return bc_error_set(err, -ENOMEM, "out of memory");
	for (size_t i = 0; i < s->n_slaves && t->n < BC_TAP_MAX_IFS; i++)
		if (s->slaves[i].ifindex > 0)
			t->ifindex[t->n++] = s->slaves[i].ifindex;
	bc_tap_opts_default(&o);
	/* flow counters only: a pair that matches nothing keeps the ring quiet */
	o.cfg.flags = BC_TAP_CFG_FLOWS | BC_TAP_CFG_PAIR;
	o.cfg.family = 4;
	t->capacity = o.flow_entries ? o.flow_entries : BC_TAP_FLOW_ENTRIES;
	r = t->n ? bc_tap_open(&t->tap, t->ifindex, t->n, &o, err)
		 : bc_error_set(err, -ENODEV, "no slave to tap");
	if (r < 0) {
		free(t);
		return r;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	t->opened_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	*out = t;
	return 0;
}

void bc_watch_taps_close(struct bc_watch_taps *t)
{
	if (!t)
		return;
	bc_tap_close(t->tap);
	free(t);
}

bool bc_watch_taps_cover(const struct bc_watch_taps *t, const struct bc_watch_sample *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n_slaves; i++) {
		bool in = false;

		for (size_t k = 0; k < t->n; k++)
			in |= t->ifindex[k] == s->slaves[i].ifindex;
		if (!in)
			return false;
		n++;
	}
	return n == t->n;
}

struct walk {
	struct bc_watch_sample *s;
	struct bc_watch_taps *t;
	uint64_t entries;
};

static bool was_socket(const struct bc_watch_taps *t, uint64_t cookie)
{
	for (size_t i = 0; i < t->n_sock; i++)
		if (t->sock[i] == cookie)
			return true;
	return false;
}

static int slave_of_ifindex(const struct bc_watch_sample *s, uint32_t ifindex)
{
	for (size_t i = 0; i < s->n_slaves; i++)
		if ((uint32_t)s->slaves[i].ifindex == ifindex)
			return (int)i;
	return -1;
}

/* @a and @b (tap key addresses, network order) as @f's family and direction. */
static bool same_tuple(const struct bc_flow *f, const struct bc_tap_flow_key *k, bool reverse)
{
	size_t alen = f->family == AF_INET ? 4 : 16;
	const uint8_t *src = reverse ? f->dst : f->src, *dst = reverse ? f->src : f->dst;
	uint16_t sp = reverse ? f->dport : f->sport, dp = reverse ? f->sport : f->dport;

	return k->family == (f->family == AF_INET ? 4 : 6) && k->proto == f->proto &&
	       k->sport == sp && k->dport == dp && !memcmp(k->src, src, alen) &&
	       !memcmp(k->dst, dst, alen);
}

/* FNV-1a of the key without slave and direction: a tap-only flow's cookie (top bit set). */
static uint64_t tuple_cookie(const struct bc_tap_flow_key *k, bool reverse)
{
	uint64_t h = 1469598103934665603ull;
	uint8_t b[40];

	b[0] = k->family;
	b[1] = k->proto;
	memcpy(b + 2, reverse ? &k->dport : &k->sport, 2);
	memcpy(b + 4, reverse ? &k->sport : &k->dport, 2);
	memcpy(b + 6, reverse ? k->dst : k->src, 16);
	memcpy(b + 22, reverse ? k->src : k->dst, 16);
	memcpy(b + 38, &k->vid, 2);
	for (size_t i = 0; i < sizeof(b); i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h | 1ull << 63;
}

/*
 * One flow-table entry: its bytes go to the connection it belongs to (this
 * host's socket, either way), or to a flow of the taps' own.  The slave that
 * carried the most bytes of a flow each way is its slave.
 */
static int one_entry(void *ctx, const struct bc_tap_flow_key *k, const struct bc_tap_flow_val *v)
{
	struct walk *w = ctx;
	struct bc_watch_sample *s = w->s;
	int sl = slave_of_ifindex(s, k->ifindex);
	struct bc_watch_flow *f = NULL;
	bool tx = k->egress;

	w->entries++;
	if (sl < 0)
		return 0;
	for (size_t i = 0; i < s->n_flows && !f; i++)
		if (s->flows[i].socket && same_tuple(&s->flows[i].flow, k, !tx))
			f = &s->flows[i];
	if (f && w->t->n_sock < SOCKET_TUPLES && !was_socket(w->t, tuple_cookie(k, !tx)))
		w->t->sock[w->t->n_sock++] = tuple_cookie(k, !tx);
	if (!f) {
		uint64_t cookie = tuple_cookie(k, !tx);

		if (was_socket(w->t, cookie))
			return 0; /* a closed connection of this host: counted while it lived */

		for (size_t i = 0; i < s->n_flows && !f; i++)
			if (!s->flows[i].socket && s->flows[i].cookie == cookie)
				f = &s->flows[i];
		if (!f) {
			if (s->n_flows == BC_WATCH_MAX_FLOWS) {
				s->flows_dropped++;
				return 0;
			}
			f = &s->flows[s->n_flows++];
			memset(f, 0, sizeof(*f));
			f->cookie = cookie;
			f->flow.family = k->family == 4 ? AF_INET : AF_INET6;
			f->flow.proto = k->proto;
			/* as this host sends it: egress keys as they are, ingress reversed */
			memcpy(f->flow.src, tx ? k->src : k->dst, 16);
			memcpy(f->flow.dst, tx ? k->dst : k->src, 16);
			f->flow.sport = tx ? k->sport : k->dport;
			f->flow.dport = tx ? k->dport : k->sport;
			f->tx_slave = f->rx_slave = f->tx_predicted = -1;
		}
		/* the taps' own flows count their bytes (skb->len, from the MAC header) */
		if (tx)
			f->tx_bytes += v->bytes;
		else
			f->rx_bytes += v->bytes;
	}
	/* the bytes on this slave (bc_watch_delta() splits the flow's bytes by them) */
	if (tx)
		f->tap_tx_on[sl] += v->bytes;
	else
		f->tap_rx_on[sl] += v->bytes;
	/* the slave: the one whose entry carried the most bytes this way */
	if (tx) {
		if (f->tx_src != BC_WATCH_SRC_OBSERVED || v->bytes > f->tap_tx_best) {
			f->tx_slave = sl;
			f->tx_src = BC_WATCH_SRC_OBSERVED;
			f->tap_tx_best = v->bytes;
			f->why[0] = '\0';
		}
	} else if (f->rx_src != BC_WATCH_SRC_OBSERVED || v->bytes > f->tap_rx_best) {
		f->rx_slave = sl;
		f->rx_src = BC_WATCH_SRC_OBSERVED;
		f->tap_rx_best = v->bytes;
	}
	return 0;
}

int bc_watch_taps_read(struct bc_watch_taps *t, struct bc_watch_sample *s, struct bc_error *err)
{
	struct walk w = {s, t, 0};
	struct bc_tap_flow_stats fs;
	struct bc_tap_counters c;
	int r;

	r = bc_tap_flows(t->tap, one_entry, &w, &fs, err);
	if (r < 0)
		return r;
	s->taps = true;
	s->tap_flow_entries = w.entries;
	s->tap_flow_capacity = t->capacity;
	s->tap_flow_evicted = fs.evicted;
	s->tap_since_ns = t->opened_ns;
	if (bc_tap_read_counters(t->tap, &c, NULL) == 0)
		s->tap_flow_fail = c.flow_fail;
	return 0;
}
