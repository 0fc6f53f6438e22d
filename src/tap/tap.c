// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Attaching and detaching the slave taps: tcx links, or clsact + cls_bpf
 * filters with our own handle and priority (bondcheck/tap.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tap-int.h"
#include "tap.skel.h"

/*
 * enum bpf_attach_type values of the tcx hooks (include/uapi/linux/bpf.h,
 * kernel 6.6); Debian 12's headers and libbpf 1.1 predate them.
 */
#define BC_BPF_TCX_INGRESS 46
#define BC_BPF_TCX_EGRESS  47

void bc_tap_opts_default(struct bc_tap_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->attach = BC_TAP_ATTACH_AUTO;
	o->ingress = true;
	o->egress = true;
	o->cfg.flags = BC_TAP_CFG_FRAGS | BC_TAP_CFG_FLOWS;
}

static const char *hook_name(bool egress)
{
	return egress ? "egress" : "ingress";
}

static void ifname(int ifindex, char *buf)
{
	if (!if_indextoname((unsigned)ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "ifindex %d", ifindex);
}

/*
 * The program (by id) is one of ours: its name is one of the skeleton's.
 * Returns 1 ours, 0 not ours (or gone), -EPERM when this process may not
 * open a program by id (that needs CAP_SYS_ADMIN, which an agent under
 * `serve --user` does not keep).
 */
static int prog_is_ours(__u32 id)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	int fd = bpf_prog_get_fd_by_id(id);
	bool ours;

	if (fd < 0)
		return errno == EPERM ? -EPERM : 0;
	memset(&info, 0, sizeof(info));
	ours = !bpf_obj_get_info_by_fd(fd, &info, &len) &&
	       (!strcmp(info.name, "bc_tap_ingress") || !strcmp(info.name, "bc_tap_egress"));
	close(fd);
	return ours;
}

/*
 * Remove our filter from one clsact hook if an earlier run left it.
 * Returns 1 removed, 0 none, -EBUSY a foreign program holds the handle and
 * priority, another -errno.
 */
static int cleanup_hook(int ifindex, bool egress, struct bc_error *err)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = egress ? BPF_TC_EGRESS : BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, q, .handle = BC_TAP_TC_HANDLE, .priority = BC_TAP_TC_PRIO);
	LIBBPF_OPTS(bpf_tc_opts, d, .handle = BC_TAP_TC_HANDLE, .priority = BC_TAP_TC_PRIO);
	char name[IF_NAMESIZE];
	int rc;

	rc = bpf_tc_query(&hook, &q);
	if (rc == -ENOENT || rc == -EINVAL) /* no filter, or no clsact qdisc at all */
		return 0;
	ifname(ifindex, name);
	if (rc)
		return bc_error_set(err, rc, "slave taps: cannot list the clsact %s filters of %s: %s",
				    hook_name(egress), name, strerror(-rc));
	rc = prog_is_ours(q.prog_id);
	if (rc == -EPERM)
		return bc_error_set(err, -EPERM,
				    "slave taps: %s %s: a clsact filter with handle 0x%x and "
				    "priority 0x%x runs BPF program id %u, which this process may "
				    "not inspect (that needs CAP_SYS_ADMIN; an agent under serve "
				    "--user has not): left in place; `bondcheck restore` as root "
				    "removes a leftover of bondcheck's",
				    name, hook_name(egress), BC_TAP_TC_HANDLE, BC_TAP_TC_PRIO,
				    q.prog_id);
	if (!rc)
		return bc_error_set(err, -EBUSY,
				    "slave taps: %s %s: a clsact filter with handle 0x%x and "
				    "priority 0x%x runs BPF program id %u, which is not ours; "
				    "left in place",
				    name, hook_name(egress), BC_TAP_TC_HANDLE, BC_TAP_TC_PRIO,
				    q.prog_id);
	rc = bpf_tc_detach(&hook, &d);
	if (rc && rc != -ENOENT)
		return bc_error_set(err, rc, "slave taps: cannot remove the leftover filter on %s %s: %s",
				    name, hook_name(egress), strerror(-rc));
	return rc ? 0 : 1;
}

int bc_tap_cleanup(const int *ifindex, size_t n, struct bc_error *err)
{
	int removed = 0, rc;

	rc = bc_tap_check_privileges(err);
	if (rc)
		return rc;
	tap_quiet_libbpf();
	for (size_t i = 0; i < n; i++)
		for (int e = 0; e < 2; e++) {
			rc = cleanup_hook(ifindex[i], e, err);
			if (rc < 0)
				return rc;
			removed += rc;
		}
	return removed;
}

static void detach_hook(struct tap_hook *h)
{
	if (h->link_fd >= 0) {
		close(h->link_fd);
		h->link_fd = -1;
	}
	if (h->filter) {
		LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = h->ifindex,
			    .attach_point = h->egress ? BPF_TC_EGRESS : BPF_TC_INGRESS);
		LIBBPF_OPTS(bpf_tc_opts, d, .handle = BC_TAP_TC_HANDLE,
			    .priority = BC_TAP_TC_PRIO);

		bpf_tc_detach(&hook, &d);
		h->filter = false;
	}
}

static int attach_tcx(struct tap_hook *h, int prog_fd)
{
	int fd = bpf_link_create(prog_fd, h->ifindex,
				 h->egress ? BC_BPF_TCX_EGRESS : BC_BPF_TCX_INGRESS, NULL);

	if (fd < 0)
		return fd;
	h->link_fd = fd;
	return 0;
}

static int attach_clsact(struct tap_hook *h, int prog_fd)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = h->ifindex,
		    .attach_point = h->egress ? BPF_TC_EGRESS : BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, a, .prog_fd = prog_fd, .handle = BC_TAP_TC_HANDLE,
		    .priority = BC_TAP_TC_PRIO);
	int rc;

	/* creates clsact when absent; -EEXIST when it is there (kept, never deleted) */
	rc = bpf_tc_hook_create(&hook);
	if (rc && rc != -EEXIST)
		return rc;
	rc = bpf_tc_attach(&hook, &a);
	if (rc)
		return rc;
	h->filter = true;
	return 0;
}

static enum bc_tap_attach env_attach(enum bc_tap_attach a)
{
	const char *e = getenv("BC_TAP_ATTACH");

	if (a != BC_TAP_ATTACH_AUTO || !e)
		return a;
	if (!strcmp(e, "tcx"))
		return BC_TAP_ATTACH_TCX;
	if (!strcmp(e, "clsact"))
		return BC_TAP_ATTACH_CLSACT;
	return a;
}

/* Attach every hook; the first tcx refusal of AUTO switches all to clsact. */
static int attach_all(struct bc_tap *t, enum bc_tap_attach want, struct bc_error *err)
{
	t->mode = want == BC_TAP_ATTACH_CLSACT ? BC_TAP_ATTACH_CLSACT : BC_TAP_ATTACH_TCX;
	for (size_t i = 0; i < t->n_hooks; i++) {
		struct tap_hook *h = &t->hooks[i];
		int prog_fd = bpf_program__fd(h->egress ? t->skel->progs.bc_tap_egress
							: t->skel->progs.bc_tap_ingress);
		char name[IF_NAMESIZE];
		int rc;

		if (t->mode == BC_TAP_ATTACH_TCX) {
			rc = attach_tcx(h, prog_fd);
			/* kernels before 6.6 know no tcx attach type: -EINVAL */
			if (rc == -EINVAL && want == BC_TAP_ATTACH_AUTO && i == 0) {
				t->mode = BC_TAP_ATTACH_CLSACT;
				rc = attach_clsact(h, prog_fd);
			} else if (rc == -EINVAL && want == BC_TAP_ATTACH_TCX) {
				return bc_error_set(err, -EOPNOTSUPP,
						    "slave taps: this kernel has no tcx hooks "
						    "(Linux >= 6.6); use the clsact mode");
			}
		} else {
			rc = attach_clsact(h, prog_fd);
		}
		if (rc == -EEXIST && t->mode == BC_TAP_ATTACH_CLSACT) {
			/* bc_tap_cleanup() left it: not a program of ours (e.g. classic BPF) */
			ifname(h->ifindex, name);
			return bc_error_set(err, -EBUSY,
					    "slave taps: %s %s: a clsact filter with handle 0x%x and "
					    "priority 0x%x is not ours; left in place",
					    name, hook_name(h->egress), BC_TAP_TC_HANDLE,
					    BC_TAP_TC_PRIO);
		}
		if (rc) {
			ifname(h->ifindex, name);
			return bc_error_set(err, rc,
					    "slave taps: cannot attach to %s %s (%s): %s", name,
					    hook_name(h->egress),
					    t->mode == BC_TAP_ATTACH_TCX ? "tcx" : "clsact",
					    strerror(-rc));
		}
	}
	return 0;
}

static int ring_sample(void *ctx, void *data, size_t size)
{
	struct bc_tap *t = ctx;
	struct bc_tap_rec r;

	if (size < sizeof(r))
		return 0;
	memcpy(&r, data, sizeof(r));
	r.ts = (uint64_t)((int64_t)r.ts + t->mono_to_real);
	t->fn_rc = t->fn(t->fn_ctx, &r);
	return t->fn_rc < 0 ? t->fn_rc : 0;
}

static int check_opts(const int *ifindex, size_t n, const struct bc_tap_opts *o,
		      struct bc_error *err)
{
	uint32_t rb = o->ring_bytes;

	if (n == 0 || n > BC_TAP_MAX_IFS)
		return bc_error_set(err, -EINVAL,
				    "slave taps: expected 1 to %d interfaces, found %zu",
				    BC_TAP_MAX_IFS, n);
	if (rb && (rb < 4096 || (rb & (rb - 1))))
		return bc_error_set(err, -EINVAL,
				    "slave taps: ring size must be a power of 2 of at least 4096 "
				    "bytes, found %u",
				    rb);
	if (!o->ingress && !o->egress)
		return bc_error_set(err, -EINVAL, "slave taps: neither ingress nor egress asked for");
	if ((o->cfg.flags & BC_TAP_CFG_PAIR) && o->cfg.family != 4 && o->cfg.family != 6)
		return bc_error_set(err, -EINVAL,
				    "slave taps: the address pair's family must be 4 or 6, found %u",
				    o->cfg.family);
	if ((o->cfg.flags & BC_TAP_CFG_TCP) && !(o->cfg.flags & BC_TAP_CFG_PAIR))
		return bc_error_set(err, -EINVAL,
				    "slave taps: TCP records need the test's address pair");
	for (size_t i = 0; i < n; i++) {
		char name[IF_NAMESIZE];

		if (ifindex[i] <= 0 || !if_indextoname((unsigned)ifindex[i], name))
			return bc_error_set(err, -ENODEV, "slave taps: no interface with index %d",
					    ifindex[i]);
	}
	return 0;
}

int bc_tap_open(struct bc_tap **tp, const int *ifindex, size_t n, const struct bc_tap_opts *o,
		struct bc_error *err)
{
	struct bc_tap *t;
	int rc;

	*tp = NULL;
	rc = check_opts(ifindex, n, o, err);
	if (rc)
		return rc;
	rc = bc_tap_check_privileges(err);
	if (rc)
		return rc;
	/* filters a SIGKILLed earlier run left (clsact mode) */
	rc = bc_tap_cleanup(ifindex, n, err);
	if (rc < 0)
		return rc;
	t = calloc(1, sizeof(*t));
	if (!t)
		return bc_error_set(err, -ENOMEM, "slave taps: out of memory");
	for (size_t i = 0; i < n; i++)
		for (int e = 0; e < 2; e++) {
			if ((e && !o->egress) || (!e && !o->ingress))
				continue;
			t->hooks[t->n_hooks].ifindex = ifindex[i];
			t->hooks[t->n_hooks].egress = e;
			t->hooks[t->n_hooks].link_fd = -1;
			t->n_hooks++;
		}
	rc = tap_skel_load(t, o, err);
	if (!rc)
		rc = attach_all(t, env_attach(o->attach), err);
	if (!rc) {
		t->rb = ring_buffer__new(bpf_map__fd(t->skel->maps.ring), ring_sample, t, NULL);
		if (!t->rb)
			rc = bc_error_set(err, -errno, "slave taps: cannot map the ring buffer: %s",
					  strerror(errno));
	}
	if (rc) {
		bc_tap_close(t);
		return rc;
	}
	*tp = t;
	return 0;
}

enum bc_tap_attach bc_tap_attach_mode(const struct bc_tap *t)
{
	return t->mode;
}

int bc_tap_set_cfg(struct bc_tap *t, const struct bc_tap_cfg *cfg, struct bc_error *err)
{
	if ((cfg->flags & BC_TAP_CFG_PAIR) && cfg->family != 4 && cfg->family != 6)
		return bc_error_set(err, -EINVAL,
				    "slave taps: the address pair's family must be 4 or 6, found %u",
				    cfg->family);
	/* .data is mmap()ed: the programs see the change at their next packet */
	t->skel->data->cfg = *cfg;
	return 0;
}

void bc_tap_close(struct bc_tap *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n_hooks; i++)
		detach_hook(&t->hooks[i]);
	ring_buffer__free(t->rb);
	bc_tap_bpf__destroy(t->skel);
	free(t);
}
