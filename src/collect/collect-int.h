/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the collector: the byte store (live / record / replay) and the
 * fetchers that talk to the kernel.  Fetchers only fetch; decoding is in
 * src/decode/.
 */
#ifndef BC_COLLECT_INT_H
#define BC_COLLECT_INT_H

#include <limits.h>
#include <stddef.h>

#include "bondcheck/error.h"
#include "bondcheck/ethtool.h"

struct bc_buf {
	void *data; /* malloc'd, NUL-terminated beyond len for text */
	size_t len;
};

void bc_buf_free(struct bc_buf *b);
/* bc_buf_append() - add @len bytes; -ENOMEM. */
int bc_buf_append(struct bc_buf *b, const void *p, size_t len);

enum store_mode {
	STORE_LIVE = 0,
	STORE_RECORD,
	STORE_REPLAY,
};

struct store {
	enum store_mode mode;
	char dir[PATH_MAX];
};

typedef int (*store_fetch_fn)(void *arg, struct bc_buf *out, struct bc_error *err);

/*
 * store_get() - the bytes of source @key ("rtnl/links",
 * "ethtool/eth0/linkmodes", "proc/net/bonding/bond0", ...).
 * LIVE: @fetch(@arg).  RECORD: the same, then saved as DIR/@key, or a
 * failure as DIR/@key.errno ("-95\n").  REPLAY: DIR/@key, or the errno
 * DIR/@key.errno holds; neither: -ENOENT "not in the recording".
 * Return: 0 with @out filled (caller frees), or a negative errno.
 */
int store_get(struct store *st, const char *key, store_fetch_fn fetch, void *arg,
	      struct bc_buf *out, struct bc_error *err);

/* store_open() - prepare DIR for RECORD (create) or REPLAY (check the format marker). */
int store_open(struct store *st, struct bc_error *err);

/* fetch_file() - @arg is a path: read the whole (proc/sys) file. */
int fetch_file(void *arg, struct bc_buf *out, struct bc_error *err);

/* fetch_rtnl_links() - RTM_GETLINK dump, raw reply messages; @arg unused. */
int fetch_rtnl_links(void *arg, struct bc_buf *out, struct bc_error *err);

/* Generic netlink socket for ethtool requests, resolved once. */
struct ethtool_sock;
int ethtool_sock_open(struct ethtool_sock **out, struct bc_error *err);
void ethtool_sock_close(struct ethtool_sock *es);

struct ethtool_req {
	struct ethtool_sock *es; /* NULL: ethtool netlink unavailable (es_err says why) */
	int es_err;
	int ifindex;
	const char *ifname;
	enum bc_ethtool_msg msg;
	const char *what; /* ioctl: "drvinfo", "gstrings", "gstats" */
};

/* fetch_ethtool_nl() - @arg is a struct ethtool_req: the reply stream, errors included. */
int fetch_ethtool_nl(void *arg, struct bc_buf *out, struct bc_error *err);

/* fetch_ethtool_ioctl() - @arg is a struct ethtool_req: raw ioctl result bytes. */
int fetch_ethtool_ioctl(void *arg, struct bc_buf *out, struct bc_error *err);

#endif
