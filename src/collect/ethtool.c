// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ethtool fetchers: generic netlink family "ethtool" (libnl-genl-3) and the
 * SIOCETHTOOL ioctl (GDRVINFO, GSTRINGS + GSTATS).  Replies are kept raw,
 * NLMSG_ERROR included: EOPNOTSUPP from a driver without the op (veth has
 * no rings) is an answer for the decoder, not a failure of the fetch.
 */
#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/ethtool_netlink.h>
#include <linux/sockios.h>
#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "bondcheck/nl-sock.h"
#include "collect/collect-int.h"

struct ethtool_sock {
	struct nl_sock *sk;
	int family;
};

int ethtool_sock_open(struct ethtool_sock **out, struct bc_error *err)
{
	struct ethtool_sock *es = calloc(1, sizeof(*es));
	int rc;

	*out = NULL;
	if (!es)
		return -ENOMEM;
	es->sk = nl_socket_alloc();
	if (!es->sk) {
		free(es);
		return -ENOMEM;
	}
	rc = bc_nl_connect(es->sk, NETLINK_GENERIC);
	if (rc >= 0)
		rc = genl_ctrl_resolve(es->sk, ETHTOOL_GENL_NAME);
	if (rc < 0) {
		ethtool_sock_close(es);
		/* -NLE_OBJ_NOTFOUND: kernel without CONFIG_ETHTOOL_NETLINK (< 5.6) */
		return bc_error_set(err, rc == -NLE_OBJ_NOTFOUND ? -EOPNOTSUPP : -EIO,
				    "ethtool netlink unavailable (%s): link modes, features, "
				    "rings and stats are not reported",
				    nl_geterror(rc));
	}
	es->family = rc;
	nl_socket_enable_msg_peek(es->sk);
	/*
	 * libnl's own check expects the sequence number to advance only on
	 * NLMSG_DONE/ERROR, which a plain GET reply is not: match our own seq
	 * in capture() instead.
	 */
	nl_socket_disable_seq_check(es->sk);
	*out = es;
	return 0;
}

void ethtool_sock_close(struct ethtool_sock *es)
{
	if (!es)
		return;
	nl_socket_free(es->sk);
	free(es);
}

struct capture {
	struct bc_buf *b;
	uint32_t seq; /* of our request */
	bool got, kernel_error;
};

static int capture(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	static const char pad[NLMSG_ALIGNTO];
	struct capture *c = arg;

	if (nlh->nlmsg_seq != c->seq)
		return NL_SKIP; /* late answer to an earlier request */
	c->got = true;
	if (nlh->nlmsg_type == NLMSG_ERROR)
		c->kernel_error = true;
	if (bc_buf_append(c->b, nlh, nlh->nlmsg_len) ||
	    bc_buf_append(c->b, pad, NLMSG_ALIGN(nlh->nlmsg_len) - nlh->nlmsg_len))
		return NL_STOP;
	return NL_OK;
}

/* ETHTOOL_A_STATS_GROUPS: a compact bitset selecting every group 6.1 knows. */
static int put_stats_groups(struct nl_msg *msg)
{
	uint32_t all = (1u << __ETHTOOL_STATS_CNT) - 1;
	struct nlattr *set = nla_nest_start(msg, ETHTOOL_A_STATS_GROUPS);

	if (!set || nla_put_flag(msg, ETHTOOL_A_BITSET_NOMASK) < 0 ||
	    nla_put_u32(msg, ETHTOOL_A_BITSET_SIZE, __ETHTOOL_STATS_CNT) < 0 ||
	    nla_put(msg, ETHTOOL_A_BITSET_VALUE, sizeof(all), &all) < 0)
		return -ENOMEM;
	nla_nest_end(msg, set);
	return 0;
}

int fetch_ethtool_nl(void *arg, struct bc_buf *out, struct bc_error *err)
{
	const struct ethtool_req *r = arg;
	struct capture c = {.b = out};
	struct nlattr *hdr;
	struct nl_msg *msg;
	int rc;

	if (!r->es)
		return bc_error_set(err, r->es_err, "ethtool netlink unavailable");
	msg = nlmsg_alloc();
	if (!msg)
		return -ENOMEM;
	rc = -ENOMEM;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, r->es->family, 0, 0,
			 (uint8_t)bc_ethtool_msg_cmd(r->msg), ETHTOOL_GENL_VERSION))
		goto out;
	/* libnl >= 3.5 flags the nest NLA_F_NESTED, which ethtool's strict policy needs */
	hdr = nla_nest_start(msg, bc_ethtool_msg_header_attr(r->msg));
	if (!hdr || nla_put_u32(msg, ETHTOOL_A_HEADER_DEV_INDEX, (uint32_t)r->ifindex) < 0)
		goto out;
	nla_nest_end(msg, hdr);
	if (r->msg == BC_ETHTOOL_STATS && put_stats_groups(msg))
		goto out;
	rc = nl_send_auto(r->es->sk, msg);
	if (rc < 0) {
		rc = bc_error_set(err, -EIO, "cannot send ethtool %s for %s: %s",
				  bc_ethtool_msg_name(r->msg), r->ifname, nl_geterror(rc));
		goto out;
	}
	c.seq = nlmsg_hdr(msg)->nlmsg_seq;
	nl_socket_modify_cb(r->es->sk, NL_CB_MSG_IN, NL_CB_CUSTOM, capture, &c);
	/* a GET without NLM_F_DUMP is answered by one message: reply or error */
	do
		rc = nl_recvmsgs_default(r->es->sk);
	while (rc >= 0 && !c.got);
	/* the kernel's error is in the stream; only a socket failure is ours */
	if (rc < 0 && !c.kernel_error)
		rc = bc_error_set(err, -EIO, "ethtool %s for %s failed: %s",
				  bc_ethtool_msg_name(r->msg), r->ifname, nl_geterror(rc));
	else
		rc = 0;
out:
	nlmsg_free(msg);
	if (rc)
		bc_buf_free(out);
	return rc;
}

static int sioc(const char *ifname, void *data, struct bc_error *err, const char *what)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc = 0;

	if (fd < 0)
		return bc_error_set(err, -errno, "socket: %s", strerror(errno));
	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	ifr.ifr_data = data;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		rc = bc_error_set(err, -errno, "SIOCETHTOOL %s on %s: %s", what, ifname,
				  strerror(errno));
	close(fd);
	return rc;
}

/*
 * GSTRINGS writes as many names as the driver counts *now* (ioctl.c
 * ethtool_get_strings()), which may exceed an n_stats read a moment
 * before: leave headroom and check.
 */
#define HEADROOM 64

static int gstrings_or_stats(const struct ethtool_req *r, struct bc_buf *out, struct bc_error *err)
{
	struct ethtool_drvinfo di = {.cmd = ETHTOOL_GDRVINFO};
	bool strings = !strcmp(r->what, "gstrings");
	size_t n, hdr, each, size;
	void *p;
	int rc;

	rc = sioc(r->ifname, &di, err, "ETHTOOL_GDRVINFO");
	if (rc)
		return rc;
	n = di.n_stats;
	hdr = strings ? sizeof(struct ethtool_gstrings) : sizeof(struct ethtool_stats);
	each = strings ? ETH_GSTRING_LEN : sizeof(uint64_t);
	p = calloc(1, hdr + (n + HEADROOM) * each);
	if (!p)
		return -ENOMEM;
	if (strings) {
		struct ethtool_gstrings *gs = p;

		gs->cmd = ETHTOOL_GSTRINGS;
		gs->string_set = ETH_SS_STATS;
		gs->len = (uint32_t)n;
	} else {
		struct ethtool_stats *st = p;

		st->cmd = ETHTOOL_GSTATS;
		st->n_stats = (uint32_t)n;
	}
	rc = n ? sioc(r->ifname, p, err, strings ? "ETHTOOL_GSTRINGS" : "ETHTOOL_GSTATS") : 0;
	if (!rc) {
		uint32_t got = strings ? ((struct ethtool_gstrings *)p)->len
				       : ((struct ethtool_stats *)p)->n_stats;

		if (got > n + HEADROOM)
			rc = bc_error_set(err, -EAGAIN, "%s counters changed while reading",
					  r->ifname);
		size = hdr + (size_t)got * each;
		if (!rc)
			rc = bc_buf_append(out, p, size);
	}
	free(p);
	return rc;
}

int fetch_ethtool_ioctl(void *arg, struct bc_buf *out, struct bc_error *err)
{
	const struct ethtool_req *r = arg;
	int rc;

	if (!strcmp(r->what, "drvinfo")) {
		struct ethtool_drvinfo di = {.cmd = ETHTOOL_GDRVINFO};

		rc = sioc(r->ifname, &di, err, "ETHTOOL_GDRVINFO");
		return rc ? rc : bc_buf_append(out, &di, sizeof(di));
	}
	rc = gstrings_or_stats(r, out, err);
	if (rc)
		bc_buf_free(out);
	return rc;
}
