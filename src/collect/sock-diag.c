// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TCP connections over sock_diag (bondcheck/sock-diag.h).
 */
#include <errno.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <netinet/tcp.h>

#include <linux/inet_diag.h>
#include <linux/sock_diag.h>

#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "bondcheck/nl-sock.h"
#include "bondcheck/sock-diag.h"

/* include/net/tcp_states.h */
enum {
	ST_ESTABLISHED = 1,
	ST_FIN_WAIT1 = 4,
	ST_FIN_WAIT2 = 5,
	ST_CLOSE_WAIT = 8,
	ST_LAST_ACK = 9,
	ST_CLOSING = 11,
};

/*
 * The kernel's struct tcp_info (include/uapi/linux/tcp.h) up to the byte
 * counters of 4.1 (RFC 4898 tcpEStatsAppHCThruOctetsAcked/Received).
 * glibc's struct tcp_info is its first 104 bytes; libnl's headers pull in
 * glibc's, so the kernel's header cannot be included beside them.
 */
struct tcp_info_41 {
	struct tcp_info glibc; /* up to tcpi_total_retrans */
	uint64_t pacing_rate, max_pacing_rate;
	uint64_t bytes_acked, bytes_received;
};

_Static_assert(offsetof(struct tcp_info_41, bytes_acked) == 120,
	       "tcpi_bytes_acked sits at byte 120 of the kernel's struct tcp_info");

struct dump {
	struct bc_tcp_conn *v;
	size_t n, cap;
	int err;
};

static int one(struct nl_msg *msg, void *arg)
{
	struct dump *d = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct nlattr *tb[INET_DIAG_MAX + 1];
	const struct inet_diag_msg *m;
	struct bc_tcp_conn *c;

	if (nlh->nlmsg_type != SOCK_DIAG_BY_FAMILY || !nlmsg_valid_hdr(nlh, sizeof(*m)))
		return NL_SKIP;
	m = nlmsg_data(nlh);
	if (d->n == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 64;
		struct bc_tcp_conn *nv = realloc(d->v, cap * sizeof(*nv));

		if (!nv) {
			d->err = -ENOMEM;
			return NL_STOP;
		}
		d->v = nv;
		d->cap = cap;
	}
	c = &d->v[d->n++];
	memset(c, 0, sizeof(*c));
	memcpy(&c->cookie, m->id.idiag_cookie, sizeof(c->cookie));
	c->family = m->idiag_family;
	memcpy(c->src, m->id.idiag_src, 16);
	memcpy(c->dst, m->id.idiag_dst, 16);
	c->sport = ntohs(m->id.idiag_sport);
	c->dport = ntohs(m->id.idiag_dport);
	c->bound_ifindex = m->id.idiag_if;
	c->state = m->idiag_state;
	if (nlmsg_parse(nlh, sizeof(*m), tb, INET_DIAG_MAX, NULL) == 0 && tb[INET_DIAG_INFO]) {
		struct tcp_info_41 ti;
		size_t len = (size_t)nla_len(tb[INET_DIAG_INFO]);

		memset(&ti, 0, sizeof(ti));
		memcpy(&ti, nla_data(tb[INET_DIAG_INFO]), len < sizeof(ti) ? len : sizeof(ti));
		c->total_retrans = ti.glibc.tcpi_total_retrans;
		c->reordering = ti.glibc.tcpi_reordering;
		if (len >= sizeof(ti)) {
			c->has_bytes = true;
			c->bytes_acked = ti.bytes_acked;
			c->bytes_received = ti.bytes_received;
		}
	}
	return NL_OK;
}

static int dump_family(struct nl_sock *sk, int family, struct dump *d, struct bc_error *err)
{
	struct inet_diag_req_v2 req;
	int r;

	memset(&req, 0, sizeof(req));
	req.sdiag_family = (uint8_t)family;
	req.sdiag_protocol = IPPROTO_TCP;
	req.idiag_states = 1u << ST_ESTABLISHED | 1u << ST_FIN_WAIT1 | 1u << ST_FIN_WAIT2 |
			   1u << ST_CLOSE_WAIT | 1u << ST_LAST_ACK | 1u << ST_CLOSING;
	req.idiag_ext = 1u << (INET_DIAG_INFO - 1);
	r = nl_send_simple(sk, SOCK_DIAG_BY_FAMILY, NLM_F_DUMP, &req, sizeof(req));
	if (r < 0)
		return bc_error_set(err, -EIO, "sock_diag request (family %d): %s", family,
				    nl_geterror(r));
	r = nl_recvmsgs_default(sk);
	if (d->err)
		return bc_error_set(err, d->err, "out of memory reading TCP connections");
	if (r == -NLE_NOMEM)
		return bc_nl_nobufs(sk, "the sock_diag dump of TCP connections", err);
	if (r == -NLE_OBJ_NOTFOUND) /* ENOENT: no handler for this family and protocol */
		return bc_error_set(err, -ENOENT,
				    "the kernel lists no TCP connections over sock_diag (family %d): "
				    "module tcp_diag is not loaded (`modprobe tcp_diag`, as `ss` "
				    "needs it too)",
				    family);
	if (r < 0)
		return bc_error_set(err, -EIO, "sock_diag dump (family %d): %s", family,
				    nl_geterror(r));
	return 0;
}

int bc_sock_diag_tcp(struct bc_tcp_conn **out, size_t *n, struct bc_error *err)
{
	struct nl_sock *sk = nl_socket_alloc();
	struct dump d = {0};
	int r;

	*out = NULL;
	*n = 0;
	if (!sk)
		return bc_error_set(err, -ENOMEM, "out of memory");
	r = bc_nl_connect(sk, NETLINK_SOCK_DIAG);
	if (r < 0) {
		nl_socket_free(sk);
		return bc_error_set(err, -EPROTONOSUPPORT,
				    "cannot open a NETLINK_SOCK_DIAG socket (%s): is inet_diag "
				    "(CONFIG_INET_DIAG) in this kernel?",
				    nl_geterror(r));
	}
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, one, &d);
	r = dump_family(sk, AF_INET, &d, err);
	if (r == 0)
		r = dump_family(sk, AF_INET6, &d, err);
	nl_socket_free(sk);
	if (r < 0) {
		free(d.v);
		return r;
	}
	*out = d.v;
	*n = d.n;
	return 0;
}
