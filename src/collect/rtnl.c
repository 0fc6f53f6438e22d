// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RTM_GETLINK dump over libnl: every reply message is kept raw (NL_CB_MSG_IN)
 * for the decoder and the recording.  A link that changes or vanishes during
 * the dump makes the kernel flag NLM_F_DUMP_INTR (libnl: -NLE_DUMP_INTR):
 * the dump is then retried from the start.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <linux/rtnetlink.h>
#include <netlink/errno.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "bondcheck/nl-sock.h"
#include "collect/collect-int.h"

#define DUMP_TRIES 5

/* libnl -NLE_* to a negative errno for the few a dump can give. */
static int nle_errno(int nle)
{
	switch (-nle) {
	case NLE_NOMEM:
		return -ENOMEM;
	case NLE_PERM:
		return -EPERM;
	case NLE_NOACCESS:
		return -EACCES;
	case NLE_DUMP_INTR:
		return -EINTR;
	case NLE_OPNOTSUPP:
		return -EOPNOTSUPP;
	case NLE_AF_NOSUPPORT:
	case NLE_PROTO_MISMATCH:
		return -EPROTONOSUPPORT;
	default:
		return -EIO;
	}
}

/* NL_CB_MSG_IN: keep the message as received, NLMSG_ALIGN'ed, then go on. */
static int capture(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	static const char pad[NLMSG_ALIGNTO];
	struct bc_buf *b = arg;

	if (bc_buf_append(b, nlh, nlh->nlmsg_len) ||
	    bc_buf_append(b, pad, NLMSG_ALIGN(nlh->nlmsg_len) - nlh->nlmsg_len))
		return NL_STOP;
	return NL_OK;
}

/*
 * One RTM_GETLINK dump.  @small: read into a one-page buffer without
 * peeking, so the kernel sizes its dump skbs to NLMSG_GOODSIZE instead of
 * the 16 KiB a peek asks (netlink_dump() allocates max_recvmsg_len): they
 * fit a receive buffer that net.core.rmem_max keeps small.
 */
static int dump_once(struct bc_buf *out, bool small, struct bc_error *err)
{
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC};
	struct nl_sock *sk = nl_socket_alloc();
	struct nl_msg *msg = NULL;
	int rc;

	if (!sk)
		return -ENOMEM;
	rc = bc_nl_connect(sk, NETLINK_ROUTE);
	if (rc < 0) {
		rc = bc_error_set(err, nle_errno(rc), "cannot open an rtnetlink socket: %s",
				  nl_geterror(rc));
		goto out;
	}
	if (small) {
		nl_socket_disable_msg_peek(sk);
		nl_socket_set_msg_buf_size(sk, (size_t)getpagesize());
	} else {
		nl_socket_enable_msg_peek(sk); /* size the buffer to big link messages */
	}
	msg = nlmsg_alloc_simple(RTM_GETLINK, NLM_F_DUMP);
	if (!msg || nlmsg_append(msg, &ifi, sizeof(ifi), NLMSG_ALIGNTO) < 0) {
		rc = -ENOMEM;
		goto out;
	}
	rc = nl_send_auto(sk, msg);
	if (rc < 0) {
		rc = bc_error_set(err, nle_errno(rc), "cannot send RTM_GETLINK: %s",
				  nl_geterror(rc));
		goto out;
	}
	nl_socket_modify_cb(sk, NL_CB_MSG_IN, NL_CB_CUSTOM, capture, out);
	rc = nl_recvmsgs_default(sk);
	if (rc == -NLE_DUMP_INTR)
		rc = -EINTR; /* no detail: the caller retries */
	else if (rc == -NLE_NOMEM)
		rc = bc_nl_nobufs(sk, "the RTM_GETLINK dump", err);
	else if (rc < 0)
		rc = bc_error_set(err, nle_errno(rc), "the RTM_GETLINK dump failed: %s",
				  nl_geterror(rc));
out:
	nlmsg_free(msg);
	nl_socket_free(sk);
	return rc < 0 ? rc : 0;
}

int fetch_rtnl_links(void *arg, struct bc_buf *out, struct bc_error *err)
{
	int rc = -EINTR;

	(void)arg;
	for (int i = 0; i < DUMP_TRIES && rc == -EINTR; i++) {
		bc_buf_free(out);
		rc = dump_once(out, false, err);
		if (rc == -ENOBUFS) { /* a small rmem_max: once more with small dump skbs */
			bc_buf_free(out);
			bc_error_clear(err);
			rc = dump_once(out, true, err);
		}
	}
	if (rc == -EINTR)
		rc = bc_error_set(err, -EAGAIN,
				  "links kept changing during %d RTM_GETLINK dumps; try again",
				  DUMP_TRIES);
	if (rc)
		bc_buf_free(out);
	return rc;
}
