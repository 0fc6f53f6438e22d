// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ethtool generic netlink reply stream: NLMSG_ERROR (EOPNOTSUPP when a
 * driver lacks the op), NLMSG_DONE, or a genl message whose cmd is the
 * request's *_GET_REPLY.  Reply numbers come from the kernel->user enum of
 * uapi linux/ethtool_netlink.h, which diverges from the request enum after
 * FEATURES (RINGS_GET 15 -> RINGS_GET_REPLY 16, ...).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/errno.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>

#include "decode/ethtool-int.h"

static const struct eth_kind *const kinds[BC_ETHTOOL_N_MSGS] = {
	[BC_ETHTOOL_LINKINFO] = &eth_linkinfo, [BC_ETHTOOL_LINKMODES] = &eth_linkmodes,
	[BC_ETHTOOL_FEATURES] = &eth_features, [BC_ETHTOOL_RINGS] = &eth_rings,
	[BC_ETHTOOL_CHANNELS] = &eth_channels, [BC_ETHTOOL_PAUSE] = &eth_pause,
	[BC_ETHTOOL_COALESCE] = &eth_coalesce, [BC_ETHTOOL_STATS] = &eth_stats,
};

const char *bc_ethtool_msg_name(enum bc_ethtool_msg m)
{
	return (unsigned)m < BC_ETHTOOL_N_MSGS ? kinds[m]->name : "?";
}

int bc_ethtool_msg_cmd(enum bc_ethtool_msg m)
{
	return (unsigned)m < BC_ETHTOOL_N_MSGS ? kinds[m]->req_cmd : -1;
}

int bc_ethtool_msg_header_attr(enum bc_ethtool_msg m)
{
	return (unsigned)m < BC_ETHTOOL_N_MSGS ? kinds[m]->header_attr : -1;
}

static int one_reply(const struct eth_kind *k, struct nlmsghdr *nlh, struct bc_slave *s,
		     struct bc_error *err)
{
	struct nlattr *tb[ETH_TB_MAX + 1];
	int rc;

	rc = genlmsg_parse(nlh, 0, tb, k->maxattr, k->policy);
	if (rc < 0)
		return bc_error_set(err, -EPROTO, "malformed ethtool %s reply for %s: %s", k->name,
				    s->name, nl_geterror(rc));
	return k->decode(tb, genlmsg_attrdata(nlmsg_data(nlh), 0),
			 genlmsg_attrlen(nlmsg_data(nlh), 0), s, err);
}

int bc_ethtool_decode(enum bc_ethtool_msg m, const void *buf, size_t len, struct bc_slave *s,
		      struct bc_error *err)
{
	const struct eth_kind *k;
	struct nlmsghdr *nlh;
	void *copy;
	int rem, rc = -ENODATA;

	if ((unsigned)m >= BC_ETHTOOL_N_MSGS)
		return bc_error_set(err, -EINVAL, "unknown ethtool message kind %d", (int)m);
	k = kinds[m];
	/* libnl wants writable, aligned messages; zeroed so a stream shorter than
	 * a header reads as zeros */
	copy = calloc(1, len ? len : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	nlh = copy;
	rem = len > INT32_MAX ? INT32_MAX : (int)len;
	for (; nlmsg_ok(nlh, rem); nlh = nlmsg_next(nlh, &rem)) {
		if (nlh->nlmsg_type == NLMSG_DONE)
			break;
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = nlmsg_data(nlh);

			if (nlmsg_datalen(nlh) < (int)sizeof(*e)) {
				rc = bc_error_set(err, -EPROTO, "truncated NLMSG_ERROR");
				break;
			}
			if (e->error == 0)
				continue; /* an ACK */
			/* the kernel sends -errno (-4095..-1); anything else is garbage, and
			 * negating INT_MIN would overflow */
			if (e->error > 0 || e->error < -4095) {
				rc = bc_error_set(
					err, -EPROTO,
					"ethtool %s of %s: NLMSG_ERROR with the impossible "
					"error %d (expected -4095..-1)",
					k->name, s->name, e->error);
				break;
			}
			rc = e->error;
			bc_error_set(err, rc, "ethtool %s of %s: %s", k->name, s->name,
				     strerror(-rc));
			break;
		}
		if (nlmsg_datalen(nlh) < (int)GENL_HDRLEN)
			continue;
		if (((struct genlmsghdr *)nlmsg_data(nlh))->cmd != k->reply_cmd)
			continue; /* a notification or another kind: not this answer */
		rc = one_reply(k, nlh, s, err);
		break;
	}
	if (rc == -ENODATA)
		bc_error_set(err, rc, "no ethtool %s reply for %s in the stream", k->name, s->name);
	free(copy);
	return rc;
}
