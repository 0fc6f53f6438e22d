/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Dropping root for `bondcheck serve --user USER` (DESIGN.md, "Security
 * model of the agent"): after the control socket is bound, the agent runs
 * as USER with only CAP_NET_RAW (packet captures, SO_BINDTODEVICE),
 * CAP_NET_ADMIN (SO_RCVBUFFORCE/SO_SNDBUFFORCE, bond changes, attaching the
 * slave taps) and, when it can, CAP_BPF and CAP_PERFMON (loading the slave
 * taps; 6.1's verifier refuses them without CAP_PERFMON) in its permitted
 * and effective sets; every other capability also leaves the bounding set.
 */
#ifndef BONDCHECK_PRIVDROP_H
#define BONDCHECK_PRIVDROP_H

#include <stdbool.h>
#include <sys/types.h>

#include "bondcheck/error.h"

/*
 * bc_privdrop_to_user() - become @user (uid, primary gid, no supplementary
 * groups) keeping only CAP_NET_RAW and CAP_NET_ADMIN, and CAP_BPF with
 * CAP_PERFMON too when the binary has the slave taps (bc_tap_built()) and
 * both are in the process's permitted set before the switch (root on
 * kernels >= 5.8 whose bounding set has them).  Without them the taps are
 * not loaded and a capture falls back to pcap, saying so.  When they are
 * kept on a kernel before
 * 5.11 (BPF memory charged to RLIMIT_MEMLOCK, not to the memory cgroup),
 * RLIMIT_MEMLOCK is lifted to unlimited before the switch where root may.
 * Call while the process has one thread (capabilities are per thread;
 * threads created later inherit the reduced sets).  On success *@uid gets
 * @user's uid when @uid is not NULL, and *@bpf whether CAP_BPF (and
 * CAP_PERFMON) were kept
 * when @bpf is not NULL.
 *
 * Returns 0; -ENOENT when @user does not exist, -EPERM when the process
 * is not root (or lacks CAP_SETUID/CAP_SETGID/CAP_SETPCAP), -errno when a
 * step fails, or -EACCES when root could be regained afterwards.  A failure
 * part way may leave the process partly dropped: the caller must exit.
 */
int bc_privdrop_to_user(const char *user, uid_t *uid, bool *bpf, struct bc_error *err);

#endif
