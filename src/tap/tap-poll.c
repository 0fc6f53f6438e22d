// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading the slave taps: the ring consumer, the counters, the tuples and
 * flow maps (bondcheck/tap.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "tap-int.h"
#include "tap.skel.h"

static int64_t ns_of(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * bpf_ktime_get_ns() reads CLOCK_MONOTONIC; pcap stamps are CLOCK_REALTIME.
 * The offset is taken between two monotonic reads around a realtime one;
 * of three tries the one with the narrowest bracket wins (its error is at
 * most half that bracket, tens of ns).
 */
int64_t tap_mono_to_real(void)
{
	int64_t best = 0, width = INT64_MAX;

	for (int i = 0; i < 3; i++) {
		int64_t m1 = ns_of(CLOCK_MONOTONIC), r = ns_of(CLOCK_REALTIME);
		int64_t m2 = ns_of(CLOCK_MONOTONIC);

		if (m2 - m1 < width) {
			width = m2 - m1;
			best = r - (m1 + (m2 - m1) / 2);
		}
	}
	return best;
}

int bc_tap_poll(struct bc_tap *t, int timeout_ms, bc_tap_rec_fn fn, void *ctx,
		struct bc_error *err)
{
	int rc;

	t->fn = fn;
	t->fn_ctx = ctx;
	t->fn_rc = 0;
	/* per poll: NTP may slew CLOCK_REALTIME against CLOCK_MONOTONIC */
	t->mono_to_real = tap_mono_to_real();
	rc = ring_buffer__poll(t->rb, timeout_ms);
	if (rc == -EINTR)
		return rc;
	/* the programs wake the consumer only past wake_bytes: what is below
	 * raised no epoll event, so a poll that timed out drains it here */
	if (rc == 0 && t->fn_rc == 0)
		rc = ring_buffer__consume(t->rb);
	if (t->fn_rc < 0)
		return t->fn_rc;
	if (rc < 0)
		return bc_error_set(err, rc, "slave taps: polling the ring failed: %s",
				    strerror(-rc));
	return rc;
}

int bc_tap_read_counters(const struct bc_tap *t, struct bc_tap_counters *c, struct bc_error *err)
{
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(t->skel->maps.counters);
	uint64_t sum[BC_TAP_CNT_N] = {0};
	uint64_t *v;

	if (ncpu <= 0)
		return bc_error_set(err, ncpu ? ncpu : -EINVAL, "slave taps: cannot count the CPUs");
	v = calloc((size_t)ncpu, sizeof(*v));
	if (!v)
		return bc_error_set(err, -ENOMEM, "slave taps: out of memory");
	for (__u32 k = 0; k < BC_TAP_CNT_N; k++) {
		if (bpf_map_lookup_elem(fd, &k, v)) {
			int rc = -errno;

			free(v);
			return bc_error_set(err, rc, "slave taps: cannot read counter %u: %s", k,
					    strerror(-rc));
		}
		for (int i = 0; i < ncpu; i++)
			sum[k] += v[i];
	}
	free(v);
	c->packets = sum[BC_TAP_CNT_PACKETS];
	c->records = sum[BC_TAP_CNT_RECORDS];
	c->ring_drop = sum[BC_TAP_CNT_RING_DROP];
	c->tuple_full = sum[BC_TAP_CNT_TUPLE_FULL];
	c->flow_fail = sum[BC_TAP_CNT_FLOW_FAIL];
	c->flow_new = sum[BC_TAP_CNT_FLOW_NEW];
	return 0;
}

int bc_tap_tuple(const struct bc_tap *t, uint32_t id, struct bc_tap_tuple *out)
{
	int fd = bpf_map__fd(t->skel->maps.tuples);
	struct bc_tap_tuple_key k, next;
	__u32 v;
	void *prev = NULL;

	/* looked up once per new id: a walk is cheap enough */
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(fd, &k, &v) || v != id)
			continue;
		out->family = k.family == 6 ? AF_INET6 : AF_INET;
		out->proto = k.proto;
		out->sport = k.sport;
		out->dport = k.dport;
		memcpy(out->src, k.src, sizeof(out->src));
		memcpy(out->dst, k.dst, sizeof(out->dst));
		return 0;
	}
	return -ENOENT;
}

int bc_tap_flows(const struct bc_tap *t,
		 int (*fn)(void *ctx, const struct bc_tap_flow_key *k, const struct bc_tap_flow_val *v),
		 void *ctx, struct bc_tap_flow_stats *st, struct bc_error *err)
{
	int fd = bpf_map__fd(t->skel->maps.flows), n = 0, rc;
	struct bc_tap_counters before = {0}, after = {0};
	struct bc_tap_flow_key k, next;
	struct bc_tap_flow_val v;
	void *prev = NULL;

	if (st) {
		rc = bc_tap_read_counters(t, &before, err);
		if (rc)
			return rc;
	}
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		if (bpf_map_lookup_elem(fd, &k, &v))
			continue; /* evicted meanwhile */
		rc = fn ? fn(ctx, &k, &v) : 0;
		if (rc < 0)
			return rc;
		n++;
	}
	if (st) {
		/* after the walk: an entry the walk saw was inserted before this read */
		rc = bc_tap_read_counters(t, &after, err);
		if (rc)
			return rc;
		st->present = (uint64_t)n;
		st->capacity = bpf_map__max_entries(t->skel->maps.flows);
		st->inserted = after.flow_new;
		st->evicted = after.flow_new > st->present ? after.flow_new - st->present : 0;
		st->inserted_during_walk = after.flow_new - before.flow_new;
	}
	return n;
}
