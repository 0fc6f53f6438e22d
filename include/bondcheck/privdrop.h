/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Dropping root for `bondcheck serve --user USER` (DESIGN.md, "Security
 * model of the agent"): after the control socket is bound, the agent runs
 * as USER with only CAP_NET_RAW (packet captures, SO_BINDTODEVICE) and
 * CAP_NET_ADMIN (SO_RCVBUFFORCE/SO_SNDBUFFORCE) in its permitted and
 * effective sets; every other capability also leaves the bounding set.
 */
#ifndef BONDCHECK_PRIVDROP_H
#define BONDCHECK_PRIVDROP_H

#include <sys/types.h>

#include "bondcheck/error.h"

/*
 * bc_privdrop_to_user() - become @user (uid, primary gid, no supplementary
 * groups) keeping only CAP_NET_RAW and CAP_NET_ADMIN.  Call while the
 * process has one thread (capabilities are per thread; threads created
 * later inherit the reduced sets).  On success *@uid gets @user's uid when
 * @uid is not NULL.
 *
 * Returns 0; -ENOENT when @user does not exist, -EPERM when the process
 * is not root (or lacks CAP_SETUID/CAP_SETGID/CAP_SETPCAP), -errno when a
 * step fails, or -EACCES when root could be regained afterwards.  A failure
 * part way may leave the process partly dropped: the caller must exit.
 */
int bc_privdrop_to_user(const char *user, uid_t *uid, struct bc_error *err);

#endif
