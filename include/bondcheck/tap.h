/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Slave taps: eBPF tc programs on each slave's ingress and egress that hand
 * compact records to user space through a BPF ring buffer (docs/taps.md;
 * issue 17).  The per-packet alternative to the pcap capture
 * (bondcheck/capture.h): no payload is copied, so it keeps up at line rate.
 *
 * Attach modes:
 *   tcx     BPF links (BPF_TCX_INGRESS/EGRESS, kernel >= 6.6); they go away
 *           with the process's last file descriptor, even after SIGKILL.
 *   clsact  cls_bpf filters (direct action) under the clsact qdisc, with the
 *           handle BC_TAP_TC_HANDLE and priority BC_TAP_TC_PRIO of their
 *           own, for older kernels (Debian 12's 6.1).  The qdisc is created
 *           when absent and never deleted; only our own filters are removed.
 *           Filters survive a SIGKILL: bc_tap_open() and bc_tap_cleanup()
 *           remove those an earlier run left.
 *
 * Privileges: CAP_BPF and CAP_NET_ADMIN (root has both).  Without them,
 * bc_tap_open() fails with -EPERM and says which is missing.
 *
 * Signals: the library installs no handler.  A caller that may be stopped
 * by SIGINT or SIGTERM catches them, leaves its bc_tap_poll() loop (the
 * poll returns -EINTR when a signal interrupts it) and calls bc_tap_close();
 * every error path of bc_tap_open() detaches what it attached.
 *
 * Built only when clang, bpftool and libbpf were found at configure time
 * (CMake option BC_TAPS); otherwise every function but bc_tap_built() and
 * bc_tap_opts_default() returns -EOPNOTSUPP, and callers use pcap.
 */
#ifndef BONDCHECK_TAP_H
#define BONDCHECK_TAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bondcheck/error.h"
#include "bondcheck/tap-rec.h"

#define BC_TAP_MAX_IFS	    16
#define BC_TAP_RING_BYTES   (16u << 20) /* default ring: ~300,000 records */
#define BC_TAP_FLOW_ENTRIES 65536	/* default flow counter entries (LRU) */
/* clsact mode: the cls_bpf filters' handle and priority ("bc", issue 17) */
#define BC_TAP_TC_HANDLE 0xbc17u
#define BC_TAP_TC_PRIO	 0xbc17u

enum bc_tap_attach {
	BC_TAP_ATTACH_AUTO,   /* tcx when the kernel has it, else clsact */
	BC_TAP_ATTACH_TCX,    /* tcx only: -EOPNOTSUPP on kernels without it */
	BC_TAP_ATTACH_CLSACT, /* clsact + cls_bpf even where tcx exists */
};

struct bc_tap_opts {
	/* BC_TAP_ATTACH_AUTO lets the environment variable BC_TAP_ATTACH
	 * ("tcx" or "clsact") choose, for tests */
	enum bc_tap_attach attach;
	uint32_t ring_bytes;   /* ring size, bytes: a power of 2, >= 4096; 0: default */
	uint32_t flow_entries; /* flow counter capacity; 0: default */
	bool ingress, egress;  /* which hooks (both by default) */
	struct bc_tap_cfg cfg; /* what gets records (bondcheck/tap-rec.h) */
};

/* Counters summed over CPUs since bc_tap_open(). */
struct bc_tap_counters {
	uint64_t packets;   /* skbs the programs saw, all hooks */
	uint64_t records;   /* records submitted */
	uint64_t ring_drop; /* records lost to a full ring: the taps' ps_drop */
	uint64_t tuple_full; /* records whose 5-tuple found no room (tuple BC_TAP_TUPLE_NONE) */
	uint64_t flow_fail; /* packets not counted in the flow table */
	uint64_t flow_new;  /* flow table entries inserted (evictions: bc_tap_flows()) */
};

/*
 * The flow table as one bc_tap_flows() walk found it.  Nothing deletes
 * entries from the table (neither the programs nor this library), so every
 * entry inserted and not present was evicted by the kernel's LRU:
 * evicted = inserted - present (at least 0).
 *
 * Error bound: the walk is not atomic.  inserted is read after the walk;
 * an entry inserted during the walk behind its cursor is in inserted but
 * not in present (evicted one too high), and an entry evicted during the
 * walk after it was walked is in present (one too low).  An eviction
 * happens only on an insert, so |evicted - the true count at the end of
 * the walk| <= inserted_during_walk, the inserts between the counter reads
 * before and after the walk.  One more case: when the entry under the
 * cursor is evicted, the kernel's next-key restarts at the first bucket
 * and entries may be walked twice (present too high, evicted too low; it
 * too needs an insert during the walk).  With inserted_during_walk 0 (a
 * quiet table) all the figures are exact.
 */
struct bc_tap_flow_stats {
	uint64_t present;	       /* entries walked (= the return value) */
	uint64_t capacity;	       /* the table's max_entries */
	uint64_t inserted;	       /* entries inserted since bc_tap_open() */
	uint64_t evicted;	       /* LRU evictions since bc_tap_open() */
	uint64_t inserted_during_walk; /* the bound of evicted's error, entries */
};

/* A 5-tuple resolved from a record's tuple id. */
struct bc_tap_tuple {
	int family;		  /* AF_INET or AF_INET6 */
	uint8_t proto;		  /* IPPROTO_UDP, IPPROTO_TCP... */
	uint16_t sport, dport;	  /* host order; 0 for non-first fragments */
	uint8_t src[16], dst[16]; /* network order; IPv4 in the first 4 bytes */
};

struct bc_tap;

/*
 * bc_tap_rec_fn - called by bc_tap_poll() for each record, in ring order
 * (per CPU in time order; across CPUs nearly so: sort by ts when order
 * matters).  r->ts is CLOCK_REALTIME ns.  Return 0 to go on, a negative
 * errno to stop the poll, which then returns it.
 */
typedef int (*bc_tap_rec_fn)(void *ctx, const struct bc_tap_rec *r);

/* bc_tap_built() - true when this binary has the taps (BC_TAPS at build time). */
bool bc_tap_built(void);

/* bc_tap_opts_default() - AUTO attach, default sizes, both hooks, records for
 * every bondcheck datagram and non-first fragment, flow counters on. */
void bc_tap_opts_default(struct bc_tap_opts *o);

/*
 * bc_tap_check_privileges() - 0 when the process has CAP_BPF and CAP_NET_ADMIN
 * in its effective set; -EPERM naming the missing ones otherwise.
 */
int bc_tap_check_privileges(struct bc_error *err);

/*
 * bc_tap_open() - load the programs once and attach them to the ingress
 * and/or egress of each of the @n interfaces @ifindex (1..BC_TAP_MAX_IFS).
 * Leftover clsact filters of an earlier run are removed first.
 * All or nothing: on error everything attached so far is detached.
 * Returns 0 with *@tp set;
 *   -EINVAL      @n is 0 or too large, a bad ring size, or a bad @o->cfg;
 *   -EPERM       missing CAP_BPF / CAP_NET_ADMIN, or a clsact filter at our
 *                handle and priority whose program this process may not
 *                inspect (needs CAP_SYS_ADMIN; left in place);
 *   -ENODEV      an interface does not exist;
 *   -EOPNOTSUPP  taps not built, or BC_TAP_ATTACH_TCX on a kernel without tcx;
 *   -EACCES      the verifier refused a program (its last lines in @err);
 *   -EBUSY       a foreign clsact filter holds our handle and priority;
 *   -ENOMEM, or another -errno from the kernel (quoted in @err).
 */
int bc_tap_open(struct bc_tap **tp, const int *ifindex, size_t n, const struct bc_tap_opts *o,
		struct bc_error *err);

/* bc_tap_attach_mode() - BC_TAP_ATTACH_TCX or _CLSACT: what bc_tap_open() used. */
enum bc_tap_attach bc_tap_attach_mode(const struct bc_tap *t);

/* bc_tap_set_cfg() - change what gets records while attached (e.g. the test's pair). */
int bc_tap_set_cfg(struct bc_tap *t, const struct bc_tap_cfg *cfg, struct bc_error *err);

/*
 * bc_tap_poll() - wait up to @timeout_ms (0: do not wait, -1: forever) for
 * records, then hand every available one to @fn.
 * Returns the number of records handed over (>= 0); -EINTR when a signal
 * interrupted the wait (check your stop flag and call again); @fn's negative
 * return; another -errno from epoll.
 */
int bc_tap_poll(struct bc_tap *t, int timeout_ms, bc_tap_rec_fn fn, void *ctx,
		struct bc_error *err);

/* bc_tap_read_counters() - the programs' counters now.  0 or -errno. */
int bc_tap_read_counters(const struct bc_tap *t, struct bc_tap_counters *c, struct bc_error *err);

/*
 * bc_tap_tuple() - the 5-tuple of a record's tuple id (a walk of the map:
 * resolve each new id once and cache it).  0; -ENOENT for an unknown id.
 */
int bc_tap_tuple(const struct bc_tap *t, uint32_t id, struct bc_tap_tuple *out);

/*
 * bc_tap_flows() - call @fn (may be NULL) for each entry of the flow
 * counters (a walk of the LRU hash: entries may be evicted or added
 * meanwhile) and, when @st is not NULL, fill it: entries present, capacity,
 * inserted and evicted since bc_tap_open() (struct bc_tap_flow_stats, with
 * its error bound).
 * Returns the number of entries walked; @fn's negative return; or -errno
 * (with @err) when the counters cannot be read for @st.
 */
int bc_tap_flows(const struct bc_tap *t,
		 int (*fn)(void *ctx, const struct bc_tap_flow_key *k, const struct bc_tap_flow_val *v),
		 void *ctx, struct bc_tap_flow_stats *st, struct bc_error *err);

/* bc_tap_close() - detach everything and free (NULL-safe). */
void bc_tap_close(struct bc_tap *t);

/*
 * bc_tap_cleanup() - remove the clsact filters with our handle and priority
 * whose program is one of ours (by name), on the ingress and egress of the
 * @n interfaces @ifindex.  For `restore` and every start.  Returns the
 * number removed (>= 0); -EBUSY when a foreign program holds our handle
 * and priority (it is left in place); -EPERM (missing capabilities, or
 * such a filter's program cannot be inspected without CAP_SYS_ADMIN: left
 * in place); -EOPNOTSUPP without taps.
 */
int bc_tap_cleanup(const int *ifindex, size_t n, struct bc_error *err);

#endif
