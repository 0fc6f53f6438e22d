/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Netlink sockets that survive the host they diagnose (issue 14 item 8).
 *
 * A dump's replies queue on the socket until read; the kernel refuses to
 * queue more once the socket's receive memory reaches sk_rcvbuf and the
 * next recvmsg() returns ENOBUFS (net/netlink/af_netlink.c netlink_dump()
 * and netlink_recvmsg(); libnl reports it as NLE_NOMEM, "Out of memory").
 * sk_rcvbuf is twice what SO_RCVBUF asked, clamped to net.core.rmem_max
 * (net/core/sock.c sk_setsockopt()); libnl asks 32 KiB.  With rmem_max at
 * 16384 one dump skb of a link with its statistics already fills it.
 * SO_RCVBUFFORCE, with CAP_NET_ADMIN, is not clamped.
 */
#ifndef BONDCHECK_NL_SOCK_H
#define BONDCHECK_NL_SOCK_H

#include <netlink/netlink.h>

#include "bondcheck/error.h"

/* The receive buffer asked for every netlink socket, bytes (the kernel doubles it). */
#define BC_NL_RCVBUF (1024 * 1024)

/*
 * bc_nl_connect() - nl_connect(@sk, @protocol) (NETLINK_ROUTE,
 * NETLINK_GENERIC), then SO_RCVBUFFORCE BC_NL_RCVBUF (CAP_NET_ADMIN), else
 * SO_RCVBUF BC_NL_RCVBUF, which the kernel clamps to net.core.rmem_max.
 * Returns nl_connect()'s result (0 or -NLE_*); the buffer is best effort.
 */
int bc_nl_connect(struct nl_sock *sk, int protocol);

/*
 * bc_nl_nobufs() - for a dump that failed with -NLE_NOMEM (the kernel's
 * ENOBUFS): sets @err to name the limit, "@what failed: the kernel dropped
 * replies, the netlink socket's receive buffer is N bytes
 * (net.core.rmem_max M): raise net.core.rmem_max or run with
 * CAP_NET_ADMIN", and returns -ENOBUFS.
 */
int bc_nl_nobufs(struct nl_sock *sk, const char *what, struct bc_error *err);

#endif
