// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `serve --user`: run as an ordinary user with CAP_NET_RAW and CAP_NET_ADMIN,
 * and CAP_BPF with CAP_PERFMON for the slave taps when the process holds
 * CAP_BPF
 * (bondcheck/privdrop.h).  The order follows capabilities(7): keep the
 * permitted set across setuid() with PR_SET_KEEPCAPS, shrink the bounding set
 * while CAP_SETPCAP is still held, change ids, then set the final sets.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "bondcheck/privdrop.h"
#include "bondcheck/tap.h"

#ifndef CAP_BPF
#define CAP_BPF 39 /* linux/capability.h since 5.8; older libcap headers lack it */
#endif
#ifndef CAP_PERFMON
#define CAP_PERFMON 38 /* the same */
#endif

/*
 * The capabilities kept: the first two always, CAP_BPF and CAP_PERFMON when
 * bpf_kept().  CAP_PERFMON because the testbed's 6.1 verifier refuses the
 * taps without it (no allow_ptr_leaks: "attempt to corrupt spilled pointer
 * on stack"; test-scenarios/taps-sigkill.scn); 6.18's does not need it.
 */
static const cap_value_t kept[] = {CAP_NET_RAW, CAP_NET_ADMIN, CAP_BPF, CAP_PERFMON};

/*
 * True when the slave taps are built and CAP_BPF and CAP_PERFMON are in the
 * permitted set (root has them on kernels >= 5.8 unless the bounding set
 * lacks them).  On an older kernel the bits are never set: cap_get_flag()
 * still answers.
 */
static bool bpf_kept(void)
{
	cap_flag_value_t b = CAP_CLEAR, p = CAP_CLEAR;
	cap_t caps;

	if (!bc_tap_built())
		return false;
	caps = cap_get_proc();
	if (!caps)
		return false;
	if (cap_get_flag(caps, CAP_BPF, CAP_PERMITTED, &b) < 0)
		b = CAP_CLEAR;
	if (cap_get_flag(caps, CAP_PERFMON, CAP_PERMITTED, &p) < 0)
		p = CAP_CLEAR;
	cap_free(caps);
	return b == CAP_SET && p == CAP_SET;
}

/*
 * Kernels before 5.11 charge BPF maps and programs to RLIMIT_MEMLOCK (5.11
 * moved them to the memory cgroup), and USER cannot raise it after the
 * switch (no CAP_SYS_RESOURCE; libbpf's automatic raise then fails): lift
 * it while still root.  Best effort: where it cannot be lifted, loading the
 * taps fails later and the capture falls back to pcap with the reason.
 */
static void memlock_for_bpf(void)
{
	struct rlimit inf = {RLIM_INFINITY, RLIM_INFINITY};
	struct utsname u;
	unsigned maj = 0, min = 0;

	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &maj, &min) != 2)
		return;
	if (maj > 5 || (maj == 5 && min >= 11))
		return;
	(void)setrlimit(RLIMIT_MEMLOCK, &inf);
}

/* How many of kept[] stay: all with the taps' two (@bpf), else the first two. */
static int kept_n(bool bpf)
{
	return bpf ? (int)(sizeof(kept) / sizeof(kept[0])) : 2;
}

static bool is_kept(cap_value_t v, bool bpf)
{
	for (int k = 0; k < kept_n(bpf); k++)
		if (kept[k] == v)
			return true;
	return false;
}

/* Remove every capability but the kept ones (CAP_BPF, CAP_PERFMON when @bpf) from the bounding set. */
static int drop_bounding(bool bpf, struct bc_error *err)
{
	for (cap_value_t v = 0; v <= CAP_LAST_CAP; v++) {
		if (is_kept(v, bpf))
			continue;
		if (cap_drop_bound(v) < 0 && errno != EINVAL)
			return bc_error_set(err, -errno,
					    "cannot drop capability %d from the bounding set: %s",
					    (int)v, strerror(errno));
	}
	return 0;
}

/* Permitted and effective = the kept ones (CAP_BPF, CAP_PERFMON when @bpf); inheritable empty. */
static int set_kept(bool bpf, struct bc_error *err)
{
	cap_t caps = cap_init();
	int n = kept_n(bpf);
	int r = 0;

	if (!caps)
		return bc_error_set(err, -ENOMEM, "out of memory");
	if (cap_set_flag(caps, CAP_PERMITTED, n, kept, CAP_SET) < 0 ||
	    cap_set_flag(caps, CAP_EFFECTIVE, n, kept, CAP_SET) < 0 || cap_set_proc(caps) < 0)
		r = bc_error_set(err, -errno, "cannot keep CAP_NET_RAW, CAP_NET_ADMIN%s after the switch: %s",
				 bpf ? ", CAP_BPF and CAP_PERFMON" : "", strerror(errno));
	cap_free(caps);
	return r;
}

int bc_privdrop_to_user(const char *user, uid_t *uid, bool *bpf, struct bc_error *err)
{
	struct passwd *pw;
	bool keep_bpf;
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
	keep_bpf = bpf_kept();
	if (keep_bpf)
		memlock_for_bpf();
	r = drop_bounding(keep_bpf, err);
	if (r < 0)
		return r;
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0)
		return bc_error_set(err, -errno, "PR_SET_KEEPCAPS failed: %s", strerror(errno));
	if (setgroups(1, &g) < 0 || setresgid(g, g, g) < 0 || setresuid(u, u, u) < 0)
		return bc_error_set(err, -errno, "cannot switch to user '%s' (uid %u gid %u): %s",
				    user, (unsigned)u, (unsigned)g, strerror(errno));
	r = set_kept(keep_bpf, err);
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
	if (bpf)
		*bpf = keep_bpf;
	return 0;
}
