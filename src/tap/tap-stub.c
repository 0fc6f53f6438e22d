// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The slave taps' API when they were not built (BC_TAPS off: no clang,
 * bpftool or libbpf at configure time): callers fall back to pcap.
 */
#include <errno.h>
#include <string.h>

#include "bondcheck/tap.h"

#define NOT_BUILT(err)                                                                       \
	bc_error_set(err, -EOPNOTSUPP,                                                       \
		     "slave taps not built in (configure found no clang, bpftool or libbpf); " \
		     "using pcap")

bool bc_tap_built(void)
{
	return false;
}

void bc_tap_opts_default(struct bc_tap_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->attach = BC_TAP_ATTACH_AUTO;
	o->ingress = true;
	o->egress = true;
	o->cfg.flags = BC_TAP_CFG_FRAGS | BC_TAP_CFG_FLOWS;
}

int bc_tap_check_privileges(struct bc_error *err)
{
	return NOT_BUILT(err);
}

int bc_tap_open(struct bc_tap **tp, const int *ifindex, size_t n, const struct bc_tap_opts *o,
		struct bc_error *err)
{
	(void)ifindex;
	(void)n;
	(void)o;
	*tp = NULL;
	return NOT_BUILT(err);
}

enum bc_tap_attach bc_tap_attach_mode(const struct bc_tap *t)
{
	(void)t;
	return BC_TAP_ATTACH_AUTO;
}

int bc_tap_set_cfg(struct bc_tap *t, const struct bc_tap_cfg *cfg, struct bc_error *err)
{
	(void)t;
	(void)cfg;
	return NOT_BUILT(err);
}

int bc_tap_poll(struct bc_tap *t, int timeout_ms, bc_tap_rec_fn fn, void *ctx,
		struct bc_error *err)
{
	(void)t;
	(void)timeout_ms;
	(void)fn;
	(void)ctx;
	return NOT_BUILT(err);
}

int bc_tap_read_counters(const struct bc_tap *t, struct bc_tap_counters *c, struct bc_error *err)
{
	(void)t;
	memset(c, 0, sizeof(*c));
	return NOT_BUILT(err);
}

int bc_tap_tuple(const struct bc_tap *t, uint32_t id, struct bc_tap_tuple *out)
{
	(void)t;
	(void)id;
	(void)out;
	return -EOPNOTSUPP;
}

int bc_tap_flows(const struct bc_tap *t,
		 int (*fn)(void *ctx, const struct bc_tap_flow_key *k, const struct bc_tap_flow_val *v),
		 void *ctx, struct bc_tap_flow_stats *st, struct bc_error *err)
{
	(void)t;
	(void)fn;
	(void)ctx;
	if (st)
		memset(st, 0, sizeof(*st));
	return NOT_BUILT(err);
}

void bc_tap_close(struct bc_tap *t)
{
	(void)t;
}

int bc_tap_cleanup(const int *ifindex, size_t n, struct bc_error *err)
{
	(void)ifindex;
	(void)n;
	return NOT_BUILT(err);
}
