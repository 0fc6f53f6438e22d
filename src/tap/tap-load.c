// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading the taps' programs: privileges, the verifier's log, the skeleton
 * (bondcheck/tap.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>

#include <bpf/libbpf.h>

#include "tap-int.h"
#include "tap.skel.h"

#ifndef CAP_BPF
#define CAP_BPF 39 /* linux/capability.h since 5.8; older libcap headers lack it */
#endif

/* The verifier log of a failed load: level 1 of a refused program stays far below this. */
#define VLOG_BYTES (4u << 20)

bool bc_tap_built(void)
{
	return true;
}

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static pthread_once_t quiet_once = PTHREAD_ONCE_INIT;

static void quiet_init(void)
{
	libbpf_set_print(quiet_print);
}

void tap_quiet_libbpf(void)
{
	pthread_once(&quiet_once, quiet_init);
}

#ifndef CAP_PERFMON
#define CAP_PERFMON 38 /* linux/capability.h since 5.8 */
#endif

static bool has_cap(cap_t caps, cap_value_t v)
{
	cap_flag_value_t f = CAP_CLEAR;

	return cap_get_flag(caps, v, CAP_EFFECTIVE, &f) == 0 && f == CAP_SET;
}

int bc_tap_check_privileges(struct bc_error *err)
{
	cap_t caps = cap_get_proc();
	bool bpf, net;

	if (!caps)
		return bc_error_set(err, -errno, "slave taps: cannot read the process capabilities: %s",
				    strerror(errno));
	bpf = has_cap(caps, CAP_BPF) || has_cap(caps, CAP_SYS_ADMIN);
	net = has_cap(caps, CAP_NET_ADMIN);
	cap_free(caps);
	if (bpf && net)
		return 0;
	return bc_error_set(err, -EPERM,
			    "slave taps need CAP_BPF and CAP_NET_ADMIN (or root); missing: %s%s%s",
			    bpf ? "" : "CAP_BPF", !bpf && !net ? ", " : "",
			    net ? "" : "CAP_NET_ADMIN");
}

/* A line of the log that only summarises (not the reason). */
static bool summary_line(const char *s, size_t n)
{
	static const char *const skip[] = {"processed ", "verification time", "stack depth",
					   "-- END PROG LOAD LOG --"};

	if (n == 0)
		return true;
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (n >= strlen(skip[i]) && !strncmp(s, skip[i], strlen(skip[i])))
			return true;
	return false;
}

void tap_verifier_msg(const char *log, char *out, size_t len)
{
	const char *end, *lines[2] = {NULL, NULL};
	size_t lens[2] = {0, 0}, k = 0;

	if (!len)
		return;
	out[0] = '\0';
	if (!log)
		return;
	end = log + strlen(log);
	/* walk back over the lines, keep the last two that say why */
	while (end > log && k < 2) {
		const char *s = end;

		while (s > log && s[-1] != '\n')
			s--;
		if (!summary_line(s, (size_t)(end - s))) {
			lines[k] = s;
			lens[k] = (size_t)(end - s);
			k++;
		}
		end = s > log ? s - 1 : log;
	}
	if (k == 2)
		snprintf(out, len, "%.*s; %.*s", (int)lens[1], lines[1], (int)lens[0], lines[0]);
	else if (k == 1)
		snprintf(out, len, "%.*s", (int)lens[0], lines[0]);
}

/*
 * True when this process has neither CAP_PERFMON nor CAP_SYS_ADMIN: the
 * verifier then runs without allow_ptr_leaks, and 6.1's refuses a partial
 * write into a stack slot that holds a spilled register ("attempt to
 * corrupt spilled pointer on stack", kernel/bpf/verifier.c
 * check_stack_write_fixed_off()), which clang's code for the taps does;
 * 6.18's accepts it.
 */
static bool lacks_perfmon(void)
{
	cap_t caps = cap_get_proc();
	bool lacks;

	if (!caps)
		return false;
	lacks = !has_cap(caps, CAP_PERFMON) && !has_cap(caps, CAP_SYS_ADMIN);
	cap_free(caps);
	return lacks;
}

static int load_error(int rc, const char *what, const char *log, struct bc_error *err)
{
	char msg[384];

	tap_verifier_msg(log, msg, sizeof(msg));
	if (msg[0] && (rc == -EINVAL || rc == -EACCES) && lacks_perfmon())
		return bc_error_set(err, -EACCES,
				    "slave taps: the kernel refused %s without CAP_PERFMON (this "
				    "kernel's verifier needs it for them; give the process CAP_BPF, "
				    "CAP_PERFMON and CAP_NET_ADMIN, or run as root): %s",
				    what, msg);
	if (msg[0])
		return bc_error_set(err, rc == -EINVAL || rc == -EACCES ? -EACCES : rc,
				    "slave taps: the kernel refused %s: %s", what, msg);
	return bc_error_set(err, rc, "slave taps: loading %s failed: %s", what, strerror(-rc));
}

int tap_load_check(const void *elf, size_t sz, struct bc_error *err)
{
	char *log = calloc(1, VLOG_BYTES);
	struct bpf_object *obj;
	int rc;

	if (!log)
		return bc_error_set(err, -ENOMEM, "slave taps: no memory for the verifier log");
	tap_quiet_libbpf();
	LIBBPF_OPTS(bpf_object_open_opts, oo, .kernel_log_buf = log, .kernel_log_size = VLOG_BYTES);
	obj = bpf_object__open_mem(elf, sz, &oo);
	if (!obj) {
		rc = -errno;
		free(log);
		return bc_error_set(err, rc, "slave taps: not a BPF object: %s", strerror(-rc));
	}
	rc = bpf_object__load(obj);
	if (rc)
		rc = load_error(rc, "the test program", log, err);
	bpf_object__close(obj);
	free(log);
	return rc;
}

int tap_skel_load(struct bc_tap *t, const struct bc_tap_opts *o, struct bc_error *err)
{
	char *log = calloc(1, VLOG_BYTES);
	int rc;

	if (!log)
		return bc_error_set(err, -ENOMEM, "slave taps: no memory for the verifier log");
	tap_quiet_libbpf();
	LIBBPF_OPTS(bpf_object_open_opts, oo, .kernel_log_buf = log, .kernel_log_size = VLOG_BYTES);
#ifndef __clang_analyzer__
	t->skel = bc_tap_bpf__open_opts(&oo);
#else
	/* clang-tidy's analyzer reports a leak inside bpftool's generated
	 * create_skeleton() (it frees through libbpf, which it cannot see) */
	t->skel = NULL;
#endif
	if (!t->skel) {
		rc = -errno;
		free(log);
		return bc_error_set(err, rc, "slave taps: cannot open the embedded BPF object: %s",
				    strerror(-rc));
	}
	rc = bpf_map__set_max_entries(t->skel->maps.ring, o->ring_bytes ? o->ring_bytes
									: BC_TAP_RING_BYTES);
	if (!rc)
		rc = bpf_map__set_max_entries(t->skel->maps.flows, o->flow_entries
									? o->flow_entries
									: BC_TAP_FLOW_ENTRIES);
	if (rc) {
		free(log);
		return bc_error_set(err, rc, "slave taps: cannot size the maps: %s", strerror(-rc));
	}
	t->skel->data->cfg = o->cfg;
	t->skel->data->wake_bytes = (o->ring_bytes ? o->ring_bytes : BC_TAP_RING_BYTES) / 16;
	rc = bc_tap_bpf__load(t->skel);
	if (rc)
		rc = load_error(rc, "the tap programs", log, err);
	free(log);
	return rc;
}
