/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's TCP metrics cache (net/ipv4/tcp_metrics.c): when a
 * connection closes, the kernel keeps per destination the RTT, cwnd,
 * ssthresh and the reordering degree it learned (TCP_METRIC_REORDERING),
 * and the next connection to that destination starts from them
 * (tcp_init_metrics).  Repeated runs that must be independent samples
 * (`bondcheck scale`) forget the entry first, as `ip tcp_metrics delete
 * ADDRESS` does.  Live: generic netlink family "tcp_metrics" (libnl-genl).
 */
#ifndef BONDCHECK_TCP_METRICS_H
#define BONDCHECK_TCP_METRICS_H

#include <sys/socket.h>

#include "bondcheck/error.h"

/*
 * bc_tcp_metrics_forget() - delete the cached metrics of destination @dst
 * (IPv4 or IPv6; the port is ignored) in the caller's network namespace
 * (TCP_METRICS_CMD_DEL with TCP_METRICS_ATTR_ADDR_IPV4/IPV6).  Returns 0,
 * also when there was no entry (the kernel's -ESRCH); -EPERM without
 * CAP_NET_ADMIN; -EOPNOTSUPP when the kernel has no tcp_metrics family;
 * -EAFNOSUPPORT for another address family; other -errno from netlink.
 */
int bc_tcp_metrics_forget(const struct sockaddr_storage *dst, struct bc_error *err);

#endif
