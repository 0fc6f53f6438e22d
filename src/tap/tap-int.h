/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Private state of the slave taps (bondcheck/tap.h): the loaded skeleton,
 * what was attached where, and the ring consumer.
 */
#ifndef BC_TAP_TAP_INT_H
#define BC_TAP_TAP_INT_H

#include <bpf/libbpf.h>

#include "bondcheck/tap.h"

struct bc_tap_bpf;

/* One hook of one interface: a tcx link fd, or a clsact filter. */
struct tap_hook {
	int ifindex;
	bool egress;
	int link_fd;	/* tcx: the link (-1 otherwise) */
	bool filter;	/* clsact: our filter is in place */
};

struct bc_tap {
	struct bc_tap_bpf *skel;
	enum bc_tap_attach mode;
	struct tap_hook hooks[2 * BC_TAP_MAX_IFS];
	size_t n_hooks;
	struct ring_buffer *rb;
	/* the consumer's current callback (ring_buffer__new takes one ctx) */
	bc_tap_rec_fn fn;
	void *fn_ctx;
	int fn_rc;
	int64_t mono_to_real; /* CLOCK_REALTIME - CLOCK_MONOTONIC, ns, at this poll */
};

/* tap-load.c: the kernel's verifier log -> its last meaningful lines in @out. */
void tap_verifier_msg(const char *log, char *out, size_t len);

/*
 * tap-load.c: load every program of the object in memory @elf (@sz bytes)
 * the way bc_tap_open() loads its own, and close it again.  For the test
 * that a refused program reports the verifier's message.
 * Returns 0; -EACCES (or the kernel's -errno) with the verifier's words in @err.
 */
int tap_load_check(const void *elf, size_t sz, struct bc_error *err);

/* tap-load.c: open the skeleton with a verifier log and load it; -errno + @err. */
int tap_skel_load(struct bc_tap *t, const struct bc_tap_opts *o, struct bc_error *err);

/* tap-load.c: route libbpf's messages away from stderr (the library never prints). */
void tap_quiet_libbpf(void);

/* tap-poll.c: CLOCK_REALTIME - CLOCK_MONOTONIC now, ns (the closest of 3 reads). */
int64_t tap_mono_to_real(void);

#endif
