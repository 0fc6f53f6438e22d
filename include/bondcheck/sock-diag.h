/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host's own TCP connections with their byte counters, over sock_diag
 * (NETLINK_SOCK_DIAG, SOCK_DIAG_BY_FAMILY with struct inet_diag_req_v2;
 * include/uapi/linux/inet_diag.h, net/ipv4/inet_diag.c), as `ss -ti` reads
 * them.  libnl-idiag decodes tcp_info with glibc's shorter struct, which
 * lacks the byte counters, so the reply is parsed here with the kernel's
 * struct tcp_info (include/uapi/linux/tcp.h) over libnl's core socket.
 */
#ifndef BONDCHECK_SOCK_DIAG_H
#define BONDCHECK_SOCK_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bondcheck/error.h"

struct bc_tcp_conn {
	uint64_t cookie;	  /* idiag_cookie: the socket's identity while it lives */
	int family;		  /* AF_INET, AF_INET6 */
	uint8_t src[16], dst[16]; /* local and remote address, wire order (IPv4: first 4) */
	uint16_t sport, dport;	  /* local and remote port, host order */
	uint32_t bound_ifindex;	  /* SO_BINDTODEVICE, 0 none */
	uint8_t state;		  /* TCP_ESTABLISHED, ... (include/net/tcp_states.h) */
	bool has_bytes;		  /* tcp_info long enough for the byte counters (4.1+) */
	uint64_t bytes_acked;	  /* tcpi_bytes_acked: payload sent and acknowledged */
	uint64_t bytes_received;  /* tcpi_bytes_received */
	uint32_t total_retrans;	  /* tcpi_total_retrans */
	uint32_t reordering;	  /* tcpi_reordering: the connection's reordering degree */
};

/*
 * bc_sock_diag_tcp() - every TCP connection of the caller's network
 * namespace in the states that move data (ESTABLISHED, FIN_WAIT1/2,
 * CLOSE_WAIT, LAST_ACK, CLOSING), IPv4 and IPv6, into a new array *@out of
 * *@n entries (free() it).  Returns 0; -ENOMEM; -ENOBUFS when the kernel
 * dropped replies (message names net.core.rmem_max); another -errno with a
 * message when the netlink socket or the dump fails (e.g. -EPROTONOSUPPORT
 * without inet_diag).
 */
int bc_sock_diag_tcp(struct bc_tcp_conn **out, size_t *n, struct bc_error *err);

#endif
