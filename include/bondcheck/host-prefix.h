/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Demultiplexing the output of pdsh and ClusterShell (`clush`): every line
 * a host printed comes as "HOST: LINE", lines of different hosts interleaved.
 * As dshbak(1) does, the lines are gathered per host in the order they came,
 * the prefix and the one space after ": " removed.  A host name is what
 * pdsh's -w takes (letters, digits, '.', '-', '_'), up to BC_HOST_LEN - 1
 * bytes, followed by ": ".
 */
#ifndef BONDCHECK_HOST_PREFIX_H
#define BONDCHECK_HOST_PREFIX_H

#include <stddef.h>

#include "bondcheck/hostlist.h"

struct bc_host_text {
	char host[BC_HOST_LEN];
	char *text; /* the host's lines, each ending in '\n', NUL-terminated */
	size_t len;
};

struct bc_host_demux {
	size_t n;
	struct bc_host_text *host;	 /* in the order hosts first appear */
	size_t unprefixed;	 /* lines with no "HOST: " prefix (not kept) */
	size_t first_unprefixed; /* the first such line's number, 1-based; 0 none */
};

/*
 * bc_host_demux() - splits @len bytes of @buf into @d (malloc'd; free with
 * bc_host_demux_free()).  Empty lines are skipped; a line without a prefix
 * is counted in d->unprefixed.  A last line without '\n' counts as a line.
 * Returns 0 or -ENOMEM (then @d is empty).
 */
int bc_host_demux(const char *buf, size_t len, struct bc_host_demux *d);

/* bc_host_demux_free() - releases @d; @d is empty afterwards. */
void bc_host_demux_free(struct bc_host_demux *d);

#endif
