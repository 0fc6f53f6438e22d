// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test driver for the slave taps (bondcheck/tap.h; tap.sh, tools/bench/tap):
 *
 *   tap [--ready FILE] [--pair A,B] [--tcp] [--ring BYTES] [--flows N] IF...
 *        attach to IF..., create FILE once attached, consume the ring until
 *        SIGINT or SIGTERM, detach; print a JSON summary on stdout (with
 *        the flow table of N entries, default BC_TAP_FLOW_ENTRIES, as the
 *        last walk found it: "flows" {present, capacity, inserted,
 *        evicted, inserted_during_walk, fail})
 *   cleanup IF...   bc_tap_cleanup(): prints the number of filters removed
 *   load OBJ        load the BPF object file OBJ as the taps load theirs;
 *                   prints the kernel's refusal (exit 1) or "loaded"
 *   privileges      bc_tap_check_privileges()
 * BC_TAP_ATTACH=tcx|clsact forces an attach mode.
 * Exit: 0 ok, 1 the call failed (message on stderr), 2 usage.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bondcheck/tap.h"
#include "tap/tap-int.h"

#define MAX_STREAMS 8
#define SEQ_BITS    (1u << 24) /* distinct sequence numbers tracked per stream */

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

struct dir_stats {
	uint64_t udp, frag, tcp, tcp_bytes, bytes, vlan, v6, gso;
	uint16_t vid; /* VLAN id of the last tagged record */
	uint64_t distinct[MAX_STREAMS];
	uint32_t udp_tuple; /* tuple id of the first bondcheck datagram + 1 (0: none) */
	uint8_t *seen[MAX_STREAMS];
};

struct state {
	int ifindex[BC_TAP_MAX_IFS];
	size_t n;
	struct dir_stats st[BC_TAP_MAX_IFS][2];
	int64_t t0, t1; /* CLOCK_REALTIME bounds of the run, ns */
	uint64_t ts_outside, unknown_if, out_of_order;
	uint64_t last_ts;
};

static int64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int on_rec(void *ctx, const struct bc_tap_rec *r)
{
	struct state *s = ctx;
	struct dir_stats *d = NULL;

	for (size_t i = 0; i < s->n; i++)
		if (s->ifindex[i] == (int)r->ifindex)
			d = &s->st[i][r->flags & BC_TAP_F_EGRESS ? 1 : 0];
	if (!d) {
		s->unknown_if++;
		return 0;
	}
	if ((int64_t)r->ts < s->t0 || (int64_t)r->ts > realtime_ns())
		s->ts_outside++;
	d->bytes += r->len;
	if (r->flags & BC_TAP_F_VLAN) {
		d->vlan++;
		d->vid = r->vlan & 0x0fff;
	}
	d->v6 += !!(r->flags & BC_TAP_F_V6);
	d->gso += !!(r->flags & BC_TAP_F_GSO);
	if (r->kind == BC_TAP_REC_FRAG) {
		d->frag++;
	} else if (r->kind == BC_TAP_REC_TCP) {
		d->tcp++;
		d->tcp_bytes += (uint32_t)(r->tcp.end_seq - r->tcp.seq);
	} else if (r->kind == BC_TAP_REC_UDP) {
		d->udp++;
		if (!d->udp_tuple)
			d->udp_tuple = r->tuple + 1;
		if (r->udp.stream < MAX_STREAMS && r->udp.seq < SEQ_BITS) {
			uint8_t **b = &d->seen[r->udp.stream];

			if (!*b && !(*b = calloc(SEQ_BITS / 8, 1)))
				return -ENOMEM;
			if (!((*b)[r->udp.seq / 8] & (1u << (r->udp.seq % 8)))) {
				(*b)[r->udp.seq / 8] |= (uint8_t)(1u << (r->udp.seq % 8));
				d->distinct[r->udp.stream]++;
			}
		}
	}
	return 0;
}

static struct json_object *dir_json(const struct bc_tap *t, const struct dir_stats *d)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	struct bc_tap_tuple tu;
	uint64_t distinct = 0;
	char src[INET6_ADDRSTRLEN] = "", dst[INET6_ADDRSTRLEN] = "", buf[160] = "";

	if (d->udp_tuple && !bc_tap_tuple(t, d->udp_tuple - 1, &tu)) {
		inet_ntop(tu.family, tu.src, src, sizeof(src));
		inet_ntop(tu.family, tu.dst, dst, sizeof(dst));
		snprintf(buf, sizeof(buf), "%u %s %u %s %u", tu.proto, src, tu.sport, dst, tu.dport);
	}
	json_object_object_add(o, "udp_tuple", json_object_new_string(buf));

	for (int i = 0; i < MAX_STREAMS; i++) {
		json_object_array_add(a, json_object_new_int64((int64_t)d->distinct[i]));
		distinct += d->distinct[i];
	}
	json_object_object_add(o, "udp", json_object_new_int64((int64_t)d->udp));
	json_object_object_add(o, "udp_distinct", json_object_new_int64((int64_t)distinct));
	json_object_object_add(o, "udp_distinct_per_stream", a);
	json_object_object_add(o, "frag", json_object_new_int64((int64_t)d->frag));
	json_object_object_add(o, "tcp", json_object_new_int64((int64_t)d->tcp));
	json_object_object_add(o, "tcp_seq_bytes", json_object_new_int64((int64_t)d->tcp_bytes));
	json_object_object_add(o, "bytes", json_object_new_int64((int64_t)d->bytes));
	json_object_object_add(o, "vlan", json_object_new_int64((int64_t)d->vlan));
	json_object_object_add(o, "v6", json_object_new_int64((int64_t)d->v6));
	json_object_object_add(o, "vid", json_object_new_int(d->vid));
	json_object_object_add(o, "gso", json_object_new_int64((int64_t)d->gso));
	return o;
}

static int parse_pair(const char *arg, struct bc_tap_cfg *cfg)
{
	char a[64], *b;

	snprintf(a, sizeof(a), "%s", arg);
	b = strchr(a, ',');
	if (!b)
		return -1;
	*b++ = '\0';
	if (inet_pton(AF_INET, a, cfg->a) == 1 && inet_pton(AF_INET, b, cfg->b) == 1)
		cfg->family = 4;
	else if (inet_pton(AF_INET6, a, cfg->a) == 1 && inet_pton(AF_INET6, b, cfg->b) == 1)
		cfg->family = 6;
	else
		return -1;
	cfg->flags |= BC_TAP_CFG_PAIR;
	return 0;
}

static int ifindexes(char **names, int n, int *out)
{
	for (int i = 0; i < n; i++) {
		out[i] = (int)if_nametoindex(names[i]);
		if (!out[i]) {
			fprintf(stderr, "bc-tap-tool: no interface '%s'\n", names[i]);
			return -1;
		}
	}
	return 0;
}

static int cmd_tap(int argc, char **argv)
{
	static struct state s;
	const char *ready = NULL;
	struct bc_error err = {0};
	struct bc_tap_opts o;
	struct bc_tap_counters c;
	struct bc_tap_flow_stats fs;
	struct sigaction sa;
	struct bc_tap *t;
	struct json_object *out, *links, *flows;
	int i, rc;

	bc_tap_opts_default(&o);
	for (i = 0; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--ready") && i + 1 < argc)
			ready = argv[++i];
		else if (!strcmp(argv[i], "--pair") && i + 1 < argc) {
			if (parse_pair(argv[++i], &o.cfg))
				return 2;
		} else if (!strcmp(argv[i], "--tcp"))
			o.cfg.flags |= BC_TAP_CFG_TCP;
		else if (!strcmp(argv[i], "--ring") && i + 1 < argc)
			o.ring_bytes = (uint32_t)strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--flows") && i + 1 < argc) {
			char *end;
			unsigned long v = strtoul(argv[++i], &end, 10);

			if (*end || v < 1 || v > UINT32_MAX) {
				fprintf(stderr, "bc-tap-tool: --flows: expected 1 to %u entries, "
						"found '%s'\n", UINT32_MAX, argv[i]);
				return 2;
			}
			o.flow_entries = (uint32_t)v;
		} else
			return 2;
	}
	if (i >= argc || argc - i > BC_TAP_MAX_IFS)
		return 2;
	s.n = (size_t)(argc - i);
	if (ifindexes(argv + i, argc - i, s.ifindex))
		return 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: the poll returns -EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	s.t0 = realtime_ns();
	rc = bc_tap_open(&t, s.ifindex, s.n, &o, &err);
	if (rc) {
		fprintf(stderr, "bc-tap-tool: %s\n", err.msg);
		return 1;
	}
	if (ready) {
		int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd >= 0)
			close(fd);
	}
	while (!stop) {
		rc = bc_tap_poll(t, 100, on_rec, &s, &err);
		if (rc < 0 && rc != -EINTR)
			break;
		rc = 0;
	}
	if (!rc)
		rc = bc_tap_poll(t, 0, on_rec, &s, &err); /* what the ring still holds */
	if (rc >= 0)
		rc = bc_tap_read_counters(t, &c, &err);
	if (rc >= 0)
		rc = bc_tap_flows(t, NULL, NULL, &fs, &err);
	if (rc < 0) {
		fprintf(stderr, "bc-tap-tool: %s\n", err.msg);
		bc_tap_close(t);
		return 1;
	}
	out = json_object_new_object();
	json_object_object_add(out, "mode",
			       json_object_new_string(bc_tap_attach_mode(t) == BC_TAP_ATTACH_TCX
							      ? "tcx"
							      : "clsact"));
	links = json_object_new_object();
	for (size_t k = 0; k < s.n; k++) {
		struct json_object *l = json_object_new_object();

		json_object_object_add(l, "ingress", dir_json(t, &s.st[k][0]));
		json_object_object_add(l, "egress", dir_json(t, &s.st[k][1]));
		json_object_object_add(links, argv[i + (int)k], l);
	}
	bc_tap_close(t);
	json_object_object_add(out, "packets", json_object_new_int64((int64_t)c.packets));
	json_object_object_add(out, "records", json_object_new_int64((int64_t)c.records));
	json_object_object_add(out, "ring_drop", json_object_new_int64((int64_t)c.ring_drop));
	json_object_object_add(out, "tuple_full", json_object_new_int64((int64_t)c.tuple_full));
	flows = json_object_new_object();
	json_object_object_add(flows, "present", json_object_new_int64((int64_t)fs.present));
	json_object_object_add(flows, "capacity", json_object_new_int64((int64_t)fs.capacity));
	json_object_object_add(flows, "inserted", json_object_new_int64((int64_t)fs.inserted));
	json_object_object_add(flows, "evicted", json_object_new_int64((int64_t)fs.evicted));
	json_object_object_add(flows, "inserted_during_walk",
			       json_object_new_int64((int64_t)fs.inserted_during_walk));
	json_object_object_add(flows, "fail", json_object_new_int64((int64_t)c.flow_fail));
	json_object_object_add(out, "flows", flows);
	json_object_object_add(out, "ts_outside", json_object_new_int64((int64_t)s.ts_outside));
	json_object_object_add(out, "unknown_if", json_object_new_int64((int64_t)s.unknown_if));
	json_object_object_add(out, "links", links);
	printf("%s\n", json_object_to_json_string_ext(out, JSON_C_TO_STRING_PLAIN));
	json_object_put(out);
	return 0;
}

static int cmd_cleanup(int argc, char **argv)
{
	int ifx[BC_TAP_MAX_IFS], rc;
	struct bc_error err = {0};

	if (argc < 1 || argc > BC_TAP_MAX_IFS)
		return 2;
	if (ifindexes(argv, argc, ifx))
		return 1;
	rc = bc_tap_cleanup(ifx, (size_t)argc, &err);
	if (rc < 0) {
		fprintf(stderr, "bc-tap-tool: %s\n", err.msg);
		return 1;
	}
	printf("%d\n", rc);
	return 0;
}

static int cmd_load(const char *path)
{
	struct bc_error err = {0};
	struct stat st;
	char *buf;
	FILE *f = fopen(path, "rb");
	int rc;

	if (!f || fstat(fileno(f), &st) || !(buf = malloc((size_t)st.st_size))) {
		fprintf(stderr, "bc-tap-tool: cannot read %s\n", path);
		if (f)
			fclose(f);
		return 1;
	}
	rc = fread(buf, 1, (size_t)st.st_size, f) == (size_t)st.st_size ? 0 : -EIO;
	fclose(f);
	if (!rc)
		rc = tap_load_check(buf, (size_t)st.st_size, &err);
	free(buf);
	if (rc) {
		printf("rc %d: %s\n", rc, err.msg);
		return 1;
	}
	printf("loaded\n");
	return 0;
}

int main(int argc, char **argv)
{
	struct bc_error err = {0};
	int rc;

	if (argc < 2)
		goto usage;
	if (!strcmp(argv[1], "tap"))
		rc = cmd_tap(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "cleanup"))
		rc = cmd_cleanup(argc - 2, argv + 2);
	else if (!strcmp(argv[1], "load") && argc == 3)
		rc = cmd_load(argv[2]);
	else if (!strcmp(argv[1], "privileges")) {
		rc = bc_tap_check_privileges(&err) ? 1 : 0;
		printf("%s\n", rc ? err.msg : "ok");
	} else
		goto usage;
	if (rc != 2)
		return rc;
usage:
	fprintf(stderr, "usage: bc-tap-tool tap [--ready F] [--pair A,B] [--tcp] [--ring N]"
			" [--flows N] IF... |"
			" cleanup IF... | load OBJ | privileges\n");
	return 2;
}
