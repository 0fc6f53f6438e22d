// SPDX-License-Identifier: GPL-2.0-or-later
/* Forget the kernel's TCP metrics of one destination; see bondcheck/tcp-metrics.h. */
#include <errno.h>
#include <netinet/in.h>
#include <string.h>

#include <linux/tcp_metrics.h>
#include <netlink/errno.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/genl.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "bondcheck/nl-sock.h"
#include "bondcheck/tcp-metrics.h"

/* libnl's -NLE_* for the kernel's answer: the errno it stands for. */
static int from_nle(int rc)
{
	switch (-rc) {
	case NLE_PERM:
		return -EPERM;
	case NLE_OBJ_NOTFOUND:
		return -ESRCH;
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_INVAL:
		return -EINVAL;
	default:
		return -EIO;
	}
}

int bc_tcp_metrics_forget(const struct sockaddr_storage *dst, struct bc_error *err)
{
	struct nl_sock *sk;
	struct nl_msg *msg = NULL;
	int family, rc;

	if (dst->ss_family != AF_INET && dst->ss_family != AF_INET6)
		return bc_error_set(err, -EAFNOSUPPORT,
				    "TCP metrics: address family %d is not IPv4 or IPv6",
				    dst->ss_family);
	sk = nl_socket_alloc();
	if (!sk)
		return bc_error_set(err, -ENOMEM, "out of memory");
	rc = bc_nl_connect(sk, NETLINK_GENERIC);
	if (rc < 0) {
		rc = bc_error_set(err, -EIO, "TCP metrics: generic netlink: %s", nl_geterror(rc));
		goto out;
	}
	family = genl_ctrl_resolve(sk, TCP_METRICS_GENL_NAME);
	if (family < 0) {
		rc = bc_error_set(err, -EOPNOTSUPP,
				  "TCP metrics: the kernel has no generic netlink family '%s' (%s)",
				  TCP_METRICS_GENL_NAME, nl_geterror(family));
		goto out;
	}
	msg = nlmsg_alloc();
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0, NLM_F_ACK,
				 TCP_METRICS_CMD_DEL, TCP_METRICS_GENL_VERSION)) {
		rc = bc_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	if (dst->ss_family == AF_INET)
		rc = nla_put(msg, TCP_METRICS_ATTR_ADDR_IPV4, 4,
			     &((const struct sockaddr_in *)dst)->sin_addr);
	else
		rc = nla_put(msg, TCP_METRICS_ATTR_ADDR_IPV6, 16,
			     &((const struct sockaddr_in6 *)dst)->sin6_addr);
	if (rc < 0) {
		rc = bc_error_set(err, -ENOMEM, "out of memory");
		goto out;
	}
	rc = nl_send_auto(sk, msg);
	if (rc >= 0)
		rc = nl_wait_for_ack(sk);
	if (rc < 0) {
		rc = from_nle(rc);
		if (rc == -ESRCH) /* no entry: nothing to forget */
			rc = 0;
		else
			bc_error_set(err, rc,
				     "TCP metrics: the kernel refused to delete the entry (%s)%s",
				     strerror(-rc), rc == -EPERM ? "; it needs CAP_NET_ADMIN" : "");
		goto out;
	}
	rc = 0;
out:
	nlmsg_free(msg);
	nl_socket_free(sk);
	return rc;
}
