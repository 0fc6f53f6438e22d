// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Slave tap benchmark (issue 17, "Speed"; tools/bench/tap/run.sh):
 *
 *  1. the programs' own cost per packet: bpf_prog_test_run_opts() with
 *     repeat N (the kernel's average, ns) on prepared frames, while a
 *     consumer thread drains the ring concurrently (a full ring would make
 *     the failed reserves look cheap; the drops are printed);
 *  2. the ring consumer's records per second on one core: a ring filled
 *     first (no producer running), then drained by one thread pinned to
 *     one CPU; records / that thread's CPU time.
 *
 * Output: one JSON line per figure.  Needs root (BPF).
 * Usage: bc-tap-bench [REPEAT]   (default 1000000)
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bondcheck/tap-rec.h"
#include "bondcheck/udp-header.h"
#include "tap.skel.h"

#define FRAME 1514

static atomic_int stop;
static atomic_ulong consumed;

static uint64_t sink;

/* What bc_tap_poll() does per record: copy it, move its stamp to CLOCK_REALTIME, hand it on. */
static int on_sample(void *ctx, void *data, size_t size)
{
	struct bc_tap_rec r;

	(void)ctx;
	if (size < sizeof(r))
		return 0;
	memcpy(&r, data, sizeof(r));
	r.ts += 1700000000000000000ull;
	sink += r.ts ^ r.udp.seq;
	atomic_fetch_add_explicit(&consumed, 1, memory_order_relaxed);
	return 0;
}

static void pin(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	pthread_setaffinity_np(pthread_self(), sizeof(s), &s);
}

static void *drain(void *arg)
{
	struct ring_buffer *rb = arg;

	pin(1);
	while (!atomic_load(&stop))
		ring_buffer__poll(rb, 10);
	ring_buffer__consume(rb);
	return NULL;
}

static double cpu_s(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* An Ethernet + IPv4 frame 10.0.0.1 -> 10.0.0.2, @proto, @len bytes. */
static size_t frame(uint8_t *f, int proto, int ours)
{
	struct ethhdr *eth = (struct ethhdr *)f;
	struct iphdr *ip = (struct iphdr *)(eth + 1);
	size_t l4 = sizeof(*eth) + sizeof(*ip);

	memset(f, 0, FRAME);
	eth->h_proto = htons(ETH_P_IP);
	memcpy(eth->h_dest, "\x02\0\0\0\0\x02", 6);
	memcpy(eth->h_source, "\x02\0\0\0\0\x01", 6);
	ip->version = 4;
	ip->ihl = 5;
	ip->ttl = 64;
	ip->protocol = (uint8_t)proto;
	ip->tot_len = htons(FRAME - sizeof(*eth));
	ip->saddr = htonl(0x0a000001);
	ip->daddr = htonl(0x0a000002);
	if (proto == IPPROTO_UDP) {
		struct udphdr *uh = (struct udphdr *)(f + l4);
		struct bc_udphdr h = {.stream_id = 1, .test_id = 7, .seq = 42};

		uh->source = htons(40000);
		uh->dest = htons(5302);
		uh->len = htons(FRAME - l4);
		if (ours)
			bc_udphdr_encode(&h, f + l4 + sizeof(*uh), BC_UDPHDR_LEN);
	} else {
		struct tcphdr *th = (struct tcphdr *)(f + l4);

		th->source = htons(40000);
		th->dest = htons(5303);
		th->seq = htonl(1000);
		th->doff = 5;
		th->ack = 1;
	}
	return FRAME;
}

static int cost(struct bc_tap_bpf *skel, struct ring_buffer *rb, const char *what, int proto,
		int ours, unsigned repeat)
{
	uint8_t f[FRAME];
	pthread_t th;
	unsigned long before;
	__u32 k = BC_TAP_CNT_RING_DROP;
	int ncpu = libbpf_num_possible_cpus();
	__u64 drops[1024] = {0}, d = 0;
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = f, .data_size_in = (__u32)frame(f, proto, ours),
		    .repeat = repeat);
	int rc;

	atomic_store(&stop, 0);
	before = atomic_load(&consumed);
	pthread_create(&th, NULL, drain, rb);
	pin(0);
	rc = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.bc_tap_egress), &o);
	atomic_store(&stop, 1);
	pthread_join(th, NULL);
	if (rc) {
		fprintf(stderr, "bc-tap-bench: test run failed: %s\n", strerror(-rc));
		return 1;
	}
	if (ncpu > 0 && ncpu <= 1024 &&
	    !bpf_map_lookup_elem(bpf_map__fd(skel->maps.counters), &k, drops))
		for (int i = 0; i < ncpu; i++)
			d += drops[i];
	printf("{\"figure\":\"prog-cost\",\"packet\":\"%s\",\"repeat\":%u,\"ns_per_packet\":%u,"
	       "\"records_consumed\":%lu,\"ring_drop_total\":%llu}\n",
	       what, repeat, o.duration, atomic_load(&consumed) - before, (unsigned long long)d);
	return 0;
}

static struct bc_tap_bpf *load(uint32_t ring)
{
	struct bc_tap_bpf *skel = bc_tap_bpf__open();

	if (!skel)
		return NULL;
	bpf_map__set_max_entries(skel->maps.ring, ring);
	skel->data->cfg.flags = BC_TAP_CFG_PAIR | BC_TAP_CFG_TCP | BC_TAP_CFG_FLOWS;
	skel->data->cfg.family = 4;
	skel->data->wake_bytes = ring / 16; /* as bc_tap_open() sets it */
	memcpy(skel->data->cfg.a, "\x0a\0\0\x01", 4);
	memcpy(skel->data->cfg.b, "\x0a\0\0\x02", 4);
	if (bc_tap_bpf__load(skel)) {
		bc_tap_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

/* Fill a large ring with no consumer, then drain it on one pinned thread. */
static int consumer_rate(unsigned repeat)
{
	struct bc_tap_bpf *skel = load(64u << 20); /* 64 MiB: ~1.19 M records of 56 bytes */
	uint8_t f[FRAME];
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = f,
		    .data_size_in = (__u32)frame(f, IPPROTO_UDP, 1), .repeat = repeat);
	struct ring_buffer *rb;
	unsigned long n = 0;
	double c0, c1, w0, w1;

	if (!skel) {
		fprintf(stderr, "bc-tap-bench: cannot load the taps (root? BPF?)\n");
		return 1;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.ring), on_sample, NULL, NULL);
	for (int i = 0; i < 1; i++)
		bpf_prog_test_run_opts(bpf_program__fd(skel->progs.bc_tap_egress), &o);
	pin(1);
	atomic_store(&consumed, 0);
	c0 = cpu_s(CLOCK_THREAD_CPUTIME_ID);
	w0 = cpu_s(CLOCK_MONOTONIC);
	ring_buffer__consume(rb);
	c1 = cpu_s(CLOCK_THREAD_CPUTIME_ID);
	w1 = cpu_s(CLOCK_MONOTONIC);
	n = atomic_load(&consumed);
	printf("{\"figure\":\"consumer\",\"records\":%lu,\"cpu_s\":%.4f,\"wall_s\":%.4f,"
	       "\"records_per_cpu_s\":%.0f,\"ns_per_record\":%.1f}\n",
	       n, c1 - c0, w1 - w0, (double)n / (c1 - c0), (c1 - c0) * 1e9 / (double)n);
	ring_buffer__free(rb);
	bc_tap_bpf__destroy(skel);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned repeat = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 1000000;
	struct bc_tap_bpf *skel = load(16u << 20) /* BC_TAP_RING_BYTES */;
	struct ring_buffer *rb;
	int rc = 0;

	if (!skel) {
		fprintf(stderr, "bc-tap-bench: cannot load the taps (root? BPF?)\n");
		return 1;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.ring), on_sample, NULL, NULL);
	if (!rb)
		return 1;
	rc |= cost(skel, rb, "bondcheck-udp (record + flow)", IPPROTO_UDP, 1, repeat);
	rc |= cost(skel, rb, "tcp-test-flow (record + flow)", IPPROTO_TCP, 0, repeat);
	rc |= cost(skel, rb, "other-udp (flow counter only)", IPPROTO_UDP, 0, repeat);
	skel->data->cfg.flags &= ~(__u32)BC_TAP_CFG_FLOWS;
	rc |= cost(skel, rb, "bondcheck-udp (record, flows off)", IPPROTO_UDP, 1, repeat);
	ring_buffer__free(rb);
	bc_tap_bpf__destroy(skel);
	rc |= consumer_rate(repeat);
	return rc || !sink;
}
