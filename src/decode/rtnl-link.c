// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RTM_GETLINK dump stream -> bonds, slaves and uppers in the model.
 * Generic link attributes here (IFLA_IFNAME, MTU, OPERSTATE, CARRIER,
 * ADDRESS, MASTER, LINK, LINKINFO, STATS64); the bonding nests in
 * rtnl-bond.c.  Kernel: net/core/rtnetlink.c rtnl_fill_ifinfo().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/msg.h>

#include "bondcheck/rtnl.h"
#include "decode/rtnl-int.h"

static struct nla_policy link_policy[BC_IFLA_MAX_KNOWN + 1] = {
	[IFLA_ADDRESS] = {.type = NLA_UNSPEC},
	[IFLA_IFNAME] = {.type = NLA_STRING, .maxlen = BC_IFNAMSIZ},
	[IFLA_MTU] = {.type = NLA_U32},
	[IFLA_LINK] = {.type = NLA_U32},
	[IFLA_MASTER] = {.type = NLA_U32},
	[IFLA_OPERSTATE] = {.type = NLA_U8},
	[BC_IFLA_LINKINFO] = {.type = NLA_NESTED},
	[BC_IFLA_STATS64] = {.type = NLA_UNSPEC},
	[BC_IFLA_CARRIER] = {.type = NLA_U8},
	[BC_IFLA_LINK_NETNSID] = {.type = NLA_U32},
	[BC_IFLA_PERM_ADDRESS] = {.type = NLA_UNSPEC},
};

static struct nla_policy info_policy[BC_IFLA_INFO_MAX_KNOWN + 1] = {
	[BC_IFLA_INFO_KIND] = {.type = NLA_STRING},
	[BC_IFLA_INFO_DATA] = {.type = NLA_NESTED},
	[BC_IFLA_INFO_SLAVE_KIND] = {.type = NLA_STRING},
	[BC_IFLA_INFO_SLAVE_DATA] = {.type = NLA_NESTED},
};

/* One link of the dump, parsed once. */
struct link {
	int ifindex, master, lower;
	char name[BC_IFNAMSIZ];
	char kind[BC_TEXT], slave_kind[BC_TEXT];
	struct nlattr *tb[BC_IFLA_MAX_KNOWN + 1];
	struct nlattr *li[BC_IFLA_INFO_MAX_KNOWN + 1];
};

struct dump {
	struct link *links;
	size_t n;
};

void rtnl_mac_text(struct bc_str *out, const void *addr, size_t len)
{
	const unsigned char *p = addr;
	size_t o = 0;

	out->v[0] = '\0';
	for (size_t i = 0; i < len && o + 4 <= sizeof(out->v); i++)
		o += (size_t)snprintf(out->v + o, sizeof(out->v) - o, i ? ":%02x" : "%02x", p[i]);
	out->st = BC_KNOWN;
}

static const char *ifname_of(void *ctx, int ifindex)
{
	const struct dump *d = ctx;

	for (size_t i = 0; i < d->n; i++)
		if (d->links[i].ifindex == ifindex)
			return d->links[i].name;
	return NULL;
}

static int parse_link(struct nlmsghdr *nlh, struct link *l, struct bc_error *err)
{
	const struct ifinfomsg *ifi = nlmsg_data(nlh);
	int rc;

	memset(l, 0, sizeof(*l));
	rc = nlmsg_parse(nlh, sizeof(*ifi), l->tb, BC_IFLA_MAX_KNOWN, link_policy);
	if (rc < 0)
		return bc_error_set(err, -EPROTO, "malformed RTM_NEWLINK message: %s",
				    nl_geterror(rc));
	l->ifindex = ifi->ifi_index;
	if (l->tb[IFLA_IFNAME])
		snprintf(l->name, sizeof(l->name), "%s", nla_get_string(l->tb[IFLA_IFNAME]));
	if (l->tb[IFLA_MASTER])
		l->master = (int)nla_get_u32(l->tb[IFLA_MASTER]);
	/* a veth's IFLA_LINK is its peer, possibly an ifindex of another netns */
	if (l->tb[IFLA_LINK] && !l->tb[BC_IFLA_LINK_NETNSID])
		l->lower = (int)nla_get_u32(l->tb[IFLA_LINK]);
	if (l->tb[BC_IFLA_LINKINFO]) {
		rc = nla_parse_nested(l->li, BC_IFLA_INFO_MAX_KNOWN, l->tb[BC_IFLA_LINKINFO],
				      info_policy);
		if (rc < 0)
			return bc_error_set(err, -EPROTO, "malformed IFLA_LINKINFO of %s: %s",
					    l->name, nl_geterror(rc));
		if (l->li[BC_IFLA_INFO_KIND])
			snprintf(l->kind, sizeof(l->kind), "%s",
				 nla_get_string(l->li[BC_IFLA_INFO_KIND]));
		if (l->li[BC_IFLA_INFO_SLAVE_KIND])
			snprintf(l->slave_kind, sizeof(l->slave_kind), "%s",
				 nla_get_string(l->li[BC_IFLA_INFO_SLAVE_KIND]));
	}
	return 0;
}

/*
 * IFLA_STATS64 is only 4-byte aligned, and an older kernel sends a shorter
 * struct rtnl_link_stats64: copy what is there, zero the rest.
 */
static void stats64(struct bc_link_stats *out, const struct nlattr *a)
{
	struct rtnl_link_stats64 st;
	size_t len = (size_t)nla_len(a);

	if (len < offsetof(struct rtnl_link_stats64, rx_missed_errors) + 8)
		return;
	memset(&st, 0, sizeof(st));
	memcpy(&st, nla_data(a), len < sizeof(st) ? len : sizeof(st));
	out->present = true;
	out->rx_packets = st.rx_packets;
	out->tx_packets = st.tx_packets;
	out->rx_bytes = st.rx_bytes;
	out->tx_bytes = st.tx_bytes;
	out->rx_errors = st.rx_errors;
	out->tx_errors = st.tx_errors;
	out->rx_dropped = st.rx_dropped;
	out->tx_dropped = st.tx_dropped;
	out->rx_over_errors = st.rx_over_errors;
	out->rx_crc_errors = st.rx_crc_errors;
	out->rx_fifo_errors = st.rx_fifo_errors;
	out->rx_missed_errors = st.rx_missed_errors;
	out->tx_fifo_errors = st.tx_fifo_errors;
	out->tx_carrier_errors = st.tx_carrier_errors;
	out->rx_nohandler = st.rx_nohandler; /* 0 when the kernel (< 4.6) did not send it */
}

/* Device facts common to bonds and slaves. */
static void device(const struct link *l, struct bc_u32 *mtu, struct bc_u32 *oper,
		   struct bc_str *mac, struct bc_link_stats *stats)
{
	if (l->tb[IFLA_MTU])
		bc_u32_set(mtu, nla_get_u32(l->tb[IFLA_MTU]));
	if (l->tb[IFLA_OPERSTATE])
		bc_u32_set(oper, nla_get_u8(l->tb[IFLA_OPERSTATE]));
	if (l->tb[IFLA_ADDRESS] && nla_len(l->tb[IFLA_ADDRESS]) > 0)
		rtnl_mac_text(mac, nla_data(l->tb[IFLA_ADDRESS]),
			      (size_t)nla_len(l->tb[IFLA_ADDRESS]));
	if (l->tb[BC_IFLA_STATS64])
		stats64(stats, l->tb[BC_IFLA_STATS64]);
}

/* Walk the stream once, keeping every RTM_NEWLINK.  Messages stay in @buf. */
static int collect_links(void *buf, size_t len, struct dump *d, struct bc_error *err)
{
	struct nlmsghdr *nlh = buf;
	int rem = len > INT32_MAX ? INT32_MAX : (int)len;

	for (; nlmsg_ok(nlh, rem); nlh = nlmsg_next(nlh, &rem)) {
		struct link *arr;
		int rc;

		if (nlh->nlmsg_type == NLMSG_DONE)
			return 0;
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = nlmsg_data(nlh);

			if (nlmsg_datalen(nlh) < (int)sizeof(*e))
				return bc_error_set(err, -EPROTO, "truncated NLMSG_ERROR");
			if (e->error == 0)
				continue;
			/* -4095..-1 from the kernel; negating INT_MIN would overflow */
			if (e->error > 0 || e->error < -4095)
				return bc_error_set(
					err, -EPROTO,
					"NLMSG_ERROR in the link dump with the impossible "
					"error %d (expected -4095..-1)",
					e->error);
			return bc_error_set(err, -EIO, "the link dump failed: %s",
					    strerror(-e->error));
		}
		if (nlh->nlmsg_type != RTM_NEWLINK)
			continue;
		if (nlmsg_datalen(nlh) < (int)sizeof(struct ifinfomsg))
			return bc_error_set(err, -EPROTO, "truncated RTM_NEWLINK message");
		arr = realloc(d->links, (d->n + 1) * sizeof(*arr));
		if (!arr)
			return -ENOMEM;
		d->links = arr;
		rc = parse_link(nlh, &d->links[d->n], err);
		if (rc)
			return rc;
		d->n++;
	}
	if (rem > 0)
		return bc_error_set(err, -EPROTO,
				    "the link dump ends with %d bytes that are not a whole message",
				    rem);
	return 0;
}

static int add_bond(struct bc_snapshot *snap, struct dump *d, const struct link *l,
		    struct bc_error *err)
{
	struct bc_bond *b = bc_snapshot_add_bond(snap, l->name);
	const char *upper;
	int rc;

	if (!b)
		return -ENOMEM;
	b->ifindex = l->ifindex;
	device(l, &b->mtu, &b->operstate, &b->mac, &b->stats);
	if (l->tb[BC_IFLA_CARRIER])
		bc_u32_set(&b->mii_status,
			   nla_get_u8(l->tb[BC_IFLA_CARRIER]) ? BC_LINK_UP : BC_LINK_DOWN);
	if (l->li[BC_IFLA_INFO_DATA]) {
		rc = rtnl_bond_info(snap, b, l->li[BC_IFLA_INFO_DATA], ifname_of, d, err);
		if (rc)
			return rc;
	}
	/* uppers: the bond's own master (a bridge), links stacked on it (VLANs) */
	upper = l->master ? ifname_of(d, l->master) : NULL;
	if (upper)
		snprintf(b->uppers[b->n_uppers++], BC_IFNAMSIZ, "%s", upper);
	for (size_t i = 0; i < d->n; i++)
		if (d->links[i].lower == l->ifindex && d->links[i].ifindex != l->ifindex &&
		    strcmp(d->links[i].kind, "veth") &&
		    b->n_uppers < sizeof(b->uppers) / sizeof(b->uppers[0]))
			snprintf(b->uppers[b->n_uppers++], BC_IFNAMSIZ, "%s", d->links[i].name);
	return 0;
}

static int add_slave(struct bc_bond *b, const struct link *l, struct bc_error *err)
{
	struct bc_slave *s = bc_bond_add_slave(b, l->name);

	if (!s)
		return -ENOMEM;
	s->ifindex = l->ifindex;
	snprintf(s->kind, sizeof(s->kind), "%s", l->kind);
	device(l, &s->mtu, &s->operstate, &s->mac, &s->stats);
	if (!strcmp(l->slave_kind, "bond") && l->li[BC_IFLA_INFO_SLAVE_DATA])
		return rtnl_slave_info(b, s, l->li[BC_IFLA_INFO_SLAVE_DATA], err);
	return 0;
}

int bc_rtnl_decode_links(const void *buf, size_t len, struct bc_snapshot *snap,
			 struct bc_error *err)
{
	struct dump d = {0};
	void *copy;
	int rc;

	/* nlmsg_parse wants writable, aligned memory; the caller's is const */
	copy = calloc(1, len ? len : 1); /* zeroed: a short stream reads as 0 */
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	rc = collect_links(copy, len, &d, err);
	for (size_t i = 0; !rc && i < d.n; i++)
		if (!strcmp(d.links[i].kind, "bond"))
			rc = add_bond(snap, &d, &d.links[i], err);
	for (size_t i = 0; !rc && i < d.n; i++) {
		struct bc_bond *b = NULL;

		for (size_t j = 0; d.links[i].master && j < snap->n_bonds; j++)
			if (snap->bonds[j].ifindex == d.links[i].master)
				b = &snap->bonds[j];
		if (b)
			rc = add_slave(b, &d.links[i], err);
	}
	for (size_t i = 0; !rc && i < snap->n_bonds; i++) {
		const struct link *l = NULL;

		for (size_t j = 0; j < d.n; j++)
			if (d.links[j].ifindex == snap->bonds[i].ifindex)
				l = &d.links[j];
		rtnl_bond_absent(snap, &snap->bonds[i], l && l->li[BC_IFLA_INFO_DATA]);
	}
	if (!rc)
		snap->have |= BC_HAVE_RTNL;
	free(d.links);
	free(copy);
	return rc;
}
