// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `serve --user`: run as an ordinary user with CAP_NET_RAW and CAP_NET_ADMIN
 * only (bondcheck/privdrop.h).  The order follows capabilities(7): keep the
 * permitted set across setuid() with PR_SET_KEEPCAPS, shrink the bounding set
 * while CAP_SETPCAP is still held, change ids, then set the final sets.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "bondcheck/privdrop.h"

static const cap_value_t kept[] = {CAP_NET_RAW, CAP_NET_ADMIN};

/* Remove every capability but the kept ones from the bounding set. */
static int drop_bounding(struct bc_error *err)
{
	for (cap_value_t v = 0; v <= CAP_LAST_CAP; v++) {
		if (v == CAP_NET_RAW || v == CAP_NET_ADMIN)
			continue;
		if (cap_drop_bound(v) < 0 && errno != EINVAL)
			return bc_error_set(err, -errno,
					    "cannot drop capability %d from the bounding set: %s",
					    (int)v, strerror(errno));
	}
	return 0;
}

/* Permitted and effective = the kept ones; inheritable empty. */
static int set_kept(struct bc_error *err)
{
	cap_t caps = cap_init();
	int r = 0;

	if (!caps)
		return bc_error_set(err, -ENOMEM, "out of memory");
	if (cap_set_flag(caps, CAP_PERMITTED, 2, kept, CAP_SET) < 0 ||
	    cap_set_flag(caps, CAP_EFFECTIVE, 2, kept, CAP_SET) < 0 || cap_set_proc(caps) < 0)
		r = bc_error_set(err, -errno,
				 "cannot keep CAP_NET_RAW and CAP_NET_ADMIN after the switch: %s",
				 strerror(errno));
	cap_free(caps);
	return r;
}

int bc_privdrop_to_user(const char *user, uid_t *uid, struct bc_error *err)
{
	struct passwd *pw;
	uid_t u;
	gid_t g;
	int r;

	errno = 0;
	pw = getpwnam(user);
	if (!pw)
		return bc_error_set(err, errno ? -errno : -ENOENT, "user '%s' %s", user,
				    errno ? strerror(errno) : "does not exist");
	u = pw->pw_uid;
	g = pw->pw_gid;
	if (geteuid() != 0)
		return bc_error_set(err, -EPERM,
				    "--user needs the agent started as root (it is uid %u)",
				    (unsigned)geteuid());
	if (u == 0)
		return bc_error_set(err, -EINVAL, "user '%s' is root; name an ordinary user",
				    user);
	r = drop_bounding(err);
	if (r < 0)
		return r;
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		return bc_error_set(err, -errno, "PR_SET_KEEPCAPS failed: %s", strerror(errno));
	if (setgroups(1, &g) < 0 || setresgid(g, g, g) < 0 || setresuid(u, u, u) < 0)
		return bc_error_set(err, -errno, "cannot switch to user '%s' (uid %u gid %u): %s",
				    user, (unsigned)u, (unsigned)g, strerror(errno));
	r = set_kept(err);
	if (r < 0)
		return r;
	prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	/* the agent never executes anything; this makes sure nothing can regain root */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return bc_error_set(err, -errno, "PR_SET_NO_NEW_PRIVS failed: %s",
				    strerror(errno));
	if (setuid(0) == 0 || seteuid(0) == 0)
		return bc_error_set(err, -EACCES, "root could be regained after dropping it");
	if (uid)
		*uid = u;
	return 0;
}
