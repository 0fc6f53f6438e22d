// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Link and bond changes over rtnetlink with libnl-route (bondcheck/
 * bond-change.h, collect/link-change.h).  Every request asks for an ack
 * with the kernel's extended ack (NETLINK_EXT_ACK), so a refusal comes back
 * as the kernel's own errno and sentence ("Device can not be enslaved while
 * up"), not a libnl code.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/if.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netlink/addr.h>
#include <netlink/attr.h>
#include <netlink/errno.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>
#include <netlink/socket.h>

#include "bondcheck/nl-sock.h"
#include "bondcheck/bond-change.h"
#include "bondcheck/rtnl.h"
#include "collect/link-change.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NLM_F_CAPPED
#define NLM_F_CAPPED 0x100
#endif
#ifndef NLM_F_ACK_TLVS
#define NLM_F_ACK_TLVS 0x200
#endif
#ifndef NLMSGERR_ATTR_MSG
#define NLMSGERR_ATTR_MSG 1
#endif

struct ack_ctx {
	bool done;
	int kerr;      /* negative errno from the kernel, 0 for an ack */
	char msg[256]; /* extended ack text, "" when none */
};

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	const struct nlmsghdr *hdr = (const struct nlmsghdr *)((const char *)e - NLMSG_HDRLEN);
	struct ack_ctx *c = arg;
	size_t off, total;

	(void)nla;
	c->done = true;
	c->kerr = e->error;
	if (!(hdr->nlmsg_flags & NLM_F_ACK_TLVS))
		return NL_STOP;
	/* netlink_ack(): the error, the echoed request (unless capped), then TLVs */
	total = hdr->nlmsg_len - NLMSG_HDRLEN;
	off = (hdr->nlmsg_flags & NLM_F_CAPPED) ? NLMSG_ALIGN(sizeof(*e))
						: NLMSG_ALIGN(sizeof(int) + e->msg.nlmsg_len);
	if (off < total) {
		struct nlattr *tb[NLMSGERR_ATTR_MSG + 1];

		if (nla_parse(tb, NLMSGERR_ATTR_MSG, (struct nlattr *)((char *)e + off),
			      (int)(total - off), NULL) == 0 &&
		    tb[NLMSGERR_ATTR_MSG] && nla_len(tb[NLMSGERR_ATTR_MSG]) > 0)
			snprintf(c->msg, sizeof(c->msg), "%.*s", nla_len(tb[NLMSGERR_ATTR_MSG]),
				 (const char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	}
	return NL_STOP;
}

static int on_ack(struct nl_msg *msg, void *arg)
{
	struct ack_ctx *c = arg;

	(void)msg;
	c->done = true;
	c->kerr = 0;
	return NL_STOP;
}

static int sock_open(struct nl_sock **out, struct bc_error *err)
{
	struct nl_sock *sk = nl_socket_alloc();
	int r;

	if (!sk)
		return bc_error_set(err, -ENOMEM, "out of memory for a netlink socket");
	r = bc_nl_connect(sk, NETLINK_ROUTE);
	if (r < 0) {
		nl_socket_free(sk);
		return bc_error_set(err, -EIO, "cannot open an rtnetlink socket: %s",
				    nl_geterror(r));
	}
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &(int){1}, sizeof(int));
	*out = sk;
	return 0;
}

/* Send @msg (built with NLM_F_ACK) and wait for the kernel's answer. */
static int send_ack(struct nl_sock *sk, struct nl_msg *msg, const char *what, const char *ifname,
		    struct bc_error *err)
{
	struct ack_ctx c = {0};
	struct nl_cb *cb;
	int r;

	r = nl_send_auto(sk, msg);
	if (r < 0)
		return bc_error_set(err, -EIO, "%s: cannot send the request for %s: %s", ifname,
				    what, nl_geterror(r));
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return bc_error_set(err, -ENOMEM, "out of memory");
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &c);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_ack, &c);
	while (!c.done) {
		r = nl_recvmsgs(sk, cb);
		if (r < 0 && !c.done) {
			nl_cb_put(cb);
			return bc_error_set(err, -EIO, "%s: no answer from the kernel for %s: %s",
					    ifname, what, nl_geterror(r));
		}
	}
	nl_cb_put(cb);
	if (c.kerr < 0)
		return bc_error_set(err, c.kerr, "%s: the kernel refused %s: %s%s%s%s", ifname,
				    what, strerror(-c.kerr), c.msg[0] ? " (" : "", c.msg,
				    c.msg[0] ? ")" : "");
	return 0;
}

/* The kernel's view of @ifname; -ENODEV when absent. */
static int get_link(struct nl_sock *sk, const char *ifname, struct rtnl_link **out,
		    struct bc_error *err)
{
	int r;

	if (!ifname || !*ifname || strlen(ifname) >= IFNAMSIZ)
		return bc_error_set(err, -EINVAL, "'%s' is not an interface name",
				    ifname ? ifname : "(null)");
	r = rtnl_link_get_kernel(sk, 0, ifname, out);
	if (r == -NLE_OBJ_NOTFOUND || r == -NLE_NODEV)
		return bc_error_set(err, -ENODEV,
				    "no interface '%s' in this network namespace (`ip link` lists "
				    "them)",
				    ifname);
	if (r < 0)
		return bc_error_set(err, -EIO, "cannot read interface '%s': %s", ifname,
				    nl_geterror(r));
	return 0;
}

/* Apply @changes (a fresh rtnl_link with only the new values) to @ifname. */
static int change(const char *ifname, struct rtnl_link *changes, const char *what,
		  struct bc_error *err)
{
	struct rtnl_link *orig = NULL;
	struct nl_sock *sk = NULL;
	struct nl_msg *msg = NULL;
	int r;

	r = sock_open(&sk, err);
	if (r < 0)
		return r;
	r = get_link(sk, ifname, &orig, err);
	if (r < 0)
		goto out;
	r = rtnl_link_build_change_request(orig, changes, NLM_F_ACK, &msg);
	if (r < 0) {
		r = bc_error_set(err, -ENOMEM, "%s: cannot build the request for %s: %s", ifname,
				 what, nl_geterror(r));
		goto out;
	}
	r = send_ack(sk, msg, what, ifname, err);
out:
	nlmsg_free(msg);
	rtnl_link_put(orig);
	nl_socket_free(sk);
	return r;
}

int bc_link_set_up(const char *ifname, bool up, struct bc_error *err)
{
	struct rtnl_link *c = rtnl_link_alloc();
	int r;

	if (!c)
		return bc_error_set(err, -ENOMEM, "out of memory");
	if (up)
		rtnl_link_set_flags(c, IFF_UP);
	else
		rtnl_link_unset_flags(c, IFF_UP);
	r = change(ifname, c, up ? "admin state up" : "admin state down", err);
	rtnl_link_put(c);
	return r;
}

int bc_link_set_mtu(const char *ifname, uint32_t mtu, struct bc_error *err)
{
	struct rtnl_link *c;
	char what[48];
	int r;

	if (mtu < 68 || mtu > 65535)
		return bc_error_set(err, -EINVAL, "%s: MTU %u is outside 68-65535 bytes",
				    ifname ? ifname : "?", mtu);
	c = rtnl_link_alloc();
	if (!c)
		return bc_error_set(err, -ENOMEM, "out of memory");
	rtnl_link_set_mtu(c, mtu);
	snprintf(what, sizeof(what), "MTU %u", mtu);
	r = change(ifname, c, what, err);
	rtnl_link_put(c);
	return r;
}

int bc_link_set_mac(const char *ifname, const char *mac, struct bc_error *err)
{
	struct nl_addr *a = NULL;
	struct rtnl_link *c;
	char what[96];
	int r;

	if (!mac || nl_addr_parse(mac, AF_LLC, &a) < 0 || nl_addr_get_len(a) < 1)
		return bc_error_set(err, -EINVAL, "%s: '%s' is not a hardware address",
				    ifname ? ifname : "?", mac ? mac : "(null)");
	c = rtnl_link_alloc();
	if (!c) {
		nl_addr_put(a);
		return bc_error_set(err, -ENOMEM, "out of memory");
	}
	rtnl_link_set_addr(c, a);
	nl_addr_put(a);
	snprintf(what, sizeof(what), "MAC %s", mac);
	r = change(ifname, c, what, err);
	rtnl_link_put(c);
	return r;
}

int bc_link_set_master(const char *ifname, const char *master, struct bc_error *err)
{
	struct rtnl_link *c, *m = NULL;
	struct nl_sock *sk = NULL;
	char what[64];
	int r, idx = 0;

	if (master) {
		r = sock_open(&sk, err);
		if (r < 0)
			return r;
		r = get_link(sk, master, &m, err);
		nl_socket_free(sk);
		if (r < 0)
			return r;
		idx = rtnl_link_get_ifindex(m);
		rtnl_link_put(m);
	}
	c = rtnl_link_alloc();
	if (!c)
		return bc_error_set(err, -ENOMEM, "out of memory");
	rtnl_link_set_master(c, idx);
	if (master)
		snprintf(what, sizeof(what), "enslaving it to %s", master);
	else
		snprintf(what, sizeof(what), "releasing it from its master");
	r = change(ifname, c, what, err);
	rtnl_link_put(c);
	return r;
}

static int put_attrs(struct nl_msg *msg, const struct bc_nla *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct nlattr *nest;
		size_t each;
		int r = 0;

		switch (a[i].kind) {
		case BC_NLA_U8:
			r = nla_put_u8(msg, a[i].type, (uint8_t)a[i].v);
			break;
		case BC_NLA_U16:
			r = nla_put_u16(msg, a[i].type, (uint16_t)a[i].v);
			break;
		case BC_NLA_U32:
			r = nla_put_u32(msg, a[i].type, a[i].v);
			break;
		case BC_NLA_BYTES:
			r = nla_put(msg, a[i].type, (int)a[i].len, a[i].data);
			break;
		case BC_NLA_TARGETS4:
		case BC_NLA_TARGETS6:
			/* bond_changelink clears the list, then adds each child */
			each = a[i].kind == BC_NLA_TARGETS4 ? 4 : 16;
			nest = nla_nest_start(msg, a[i].type);
			if (!nest)
				return -ENOMEM;
			for (size_t k = 0; k < a[i].len / each && r == 0; k++)
				r = nla_put(msg, (int)k, (int)each,
					    (const char *)a[i].data + k * each);
			nla_nest_end(msg, nest);
			break;
		}
		if (r < 0)
			return -ENOMEM;
	}
	return 0;
}

/* RTM_NEWLINK for @ifname with IFLA_LINKINFO { kind, data or slave data }. */
static int set_linkinfo(const char *ifname, bool slave, const struct bc_nla *attrs, size_t n,
			struct bc_error *err)
{
	struct nlattr *info, *data;
	struct rtnl_link *orig = NULL;
	struct nl_msg *msg = NULL;
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC};
	struct nl_sock *sk = NULL;
	char what[64];
	int r;

	r = sock_open(&sk, err);
	if (r < 0)
		return r;
	r = get_link(sk, ifname, &orig, err);
	if (r < 0)
		goto out;
	ifi.ifi_index = rtnl_link_get_ifindex(orig);
	msg = nlmsg_alloc_simple(RTM_NEWLINK, NLM_F_ACK);
	if (!msg || nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO) < 0)
		goto nomem;
	info = nla_nest_start(msg, IFLA_LINKINFO);
	if (!info ||
	    nla_put_string(msg, slave ? BC_IFLA_INFO_SLAVE_KIND : BC_IFLA_INFO_KIND, "bond") < 0)
		goto nomem;
	data = nla_nest_start(msg, slave ? BC_IFLA_INFO_SLAVE_DATA : BC_IFLA_INFO_DATA);
	if (!data || put_attrs(msg, attrs, n) < 0)
		goto nomem;
	nla_nest_end(msg, data);
	nla_nest_end(msg, info);
	snprintf(what, sizeof(what), slave ? "a bond slave option" : "a bond option");
	r = send_ack(sk, msg, what, ifname, err);
	goto out;
nomem:
	r = bc_error_set(err, -ENOMEM, "%s: out of memory building a bond request", ifname);
out:
	nlmsg_free(msg);
	rtnl_link_put(orig);
	nl_socket_free(sk);
	return r;
}

int bc_bond_set_attrs(const char *bond, const struct bc_nla *attrs, size_t n, struct bc_error *err)
{
	return set_linkinfo(bond, false, attrs, n, err);
}

int bc_bond_slave_set_attrs(const char *slave, const struct bc_nla *attrs, size_t n,
			    struct bc_error *err)
{
	return set_linkinfo(slave, true, attrs, n, err);
}
