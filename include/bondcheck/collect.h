/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Live snapshot of bonds: the thin layer that fetches bytes from the kernel
 * (rtnetlink link dump, ethtool generic netlink, SIOCETHTOOL ioctls,
 * /proc/net/bonding, /proc/sys, sysfs) and hands them to the decoders in
 * src/decode/.  Every fetch goes through one store, which can also save the
 * bytes (--record DIR) or read them back instead of the kernel
 * (--replay DIR): a replay runs the same decoders on the same bytes, so it
 * gives the same snapshot and findings, needs no privilege and no bonding
 * driver.  The recording layout is documented in docs/inspect.md.
 */
#ifndef BONDCHECK_COLLECT_H
#define BONDCHECK_COLLECT_H

#include <stddef.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"

struct bc_collect_opts {
	const char *const *bonds; /* inspect only these (NULL/0: every bond) */
	size_t n_bonds;
	const char *netns;	/* setns() into /run/netns/NAME first; NULL: ours */
	const char *record_dir; /* save every source under this folder; NULL: no */
	const char *replay_dir; /* read every source from this recording; NULL: live */
};

/*
 * bc_collect_snapshot() - fill @snap (zeroed by the caller) with every bond,
 * or the bonds named in @o, and all their slaves, from all sources, with
 * /proc cross-checked against netlink (disagreements in
 * snap->disagreements) and warnings for sources that failed or hid data.
 * Findings are not evaluated here (bc_findings_evaluate()).
 *
 * --netns changes the calling process's network namespace (and, to see
 * that namespace's sysfs, its mount namespace): call it from a process that
 * does nothing else afterwards, as the CLI does.
 *
 * Return: 0;
 *   -ENODEV  no bond exists (the message says how to check whether the
 *            bonding module is loaded);
 *   -ENOENT  a named bond does not exist (the message names those that do),
 *            or --netns NAME does not exist, or a replayed file is missing;
 *   -EPERM/-EACCES setns or the recording folder is not permitted;
 *   -EPROTO  a malformed kernel answer or recording;
 *   other negative errno from sockets and files.  @err says which.
 */
int bc_collect_snapshot(const struct bc_collect_opts *o, struct bc_snapshot *snap,
			struct bc_error *err);

#endif
