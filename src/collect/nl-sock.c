// SPDX-License-Identifier: GPL-2.0-or-later
/* Netlink sockets with a receive buffer the kernel's dumps fit in; see bondcheck/nl-sock.h. */
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>

#include "bondcheck/nl-sock.h"

int bc_nl_connect(struct nl_sock *sk, int protocol)
{
	int r = nl_connect(sk, protocol), fd, v = BC_NL_RCVBUF;

	if (r < 0)
		return r;
	fd = nl_socket_get_fd(sk);
	/* not clamped by rmem_max; EPERM without CAP_NET_ADMIN */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v)) < 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v));
	return 0;
}

static long sysctl_long(const char *path)
{
	FILE *f = fopen(path, "re");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

int bc_nl_nobufs(struct nl_sock *sk, const char *what, struct bc_error *err)
{
	int have = -1;
	socklen_t len = sizeof(have);

	if (getsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_RCVBUF, &have, &len) < 0)
		have = -1;
	return bc_error_set(err, -ENOBUFS,
			    "%s failed: the kernel dropped replies (ENOBUFS) because the netlink "
			    "socket's receive buffer of %d bytes was full; it is limited by "
			    "net.core.rmem_max (%ld bytes) without CAP_NET_ADMIN (SO_RCVBUFFORCE): "
			    "raise net.core.rmem_max (e.g. sysctl -w net.core.rmem_max=%d) or run "
			    "with CAP_NET_ADMIN",
			    what, have, sysctl_long("/proc/sys/net/core/rmem_max"),
			    2 * BC_NL_RCVBUF);
}
