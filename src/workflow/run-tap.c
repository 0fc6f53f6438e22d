// SPDX-License-Identifier: GPL-2.0-or-later
/* The slave taps as a run's capture source (workflow/run-tap.h). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bondcheck/tap.h"
#include "bondcheck/udp-header.h"
#include "workflow/run-tap.h"

#define TUPLE_IDS 16384 /* the tuples map's size (src/tap/tap.bpf.c) */

struct tap_if {
	char name[16];
	char path[4096];
	int ifindex;
	uint64_t records, egress, ingress, bytes;
};

struct bc_run_tap {
	struct bc_tap *tap;
	char host[16];
	struct tap_if ifs[BC_TAP_MAX_IFS];
	size_t n;
	struct bc_tap_rec *recs;
	size_t nrec, cap;
	uint64_t kept_over;  /* records over BC_RUN_TAP_MAX_RECS */
	uint64_t unresolved; /* records whose tuple id did not resolve */
	struct bc_tap_tuple *tuples; /* by id */
	uint8_t *tuple_state;	     /* 0 unknown, 1 resolved, 2 unresolvable */
	struct bc_tap_counters cnt;
	bool have_cnt;
	enum bc_tap_attach mode;
	pthread_t th;
	bool running, stopped, written;
	atomic_int stop;
};

static int keep_rec(void *ctx, const struct bc_tap_rec *r)
{
	struct bc_run_tap *t = ctx;

	if (r->tuple != BC_TAP_TUPLE_NONE && r->tuple < TUPLE_IDS && !t->tuple_state[r->tuple])
		t->tuple_state[r->tuple] =
			bc_tap_tuple(t->tap, r->tuple, &t->tuples[r->tuple]) ? 2 : 1;
	if (t->nrec == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 65536;
		struct bc_tap_rec *p;

		if (nc > BC_RUN_TAP_MAX_RECS)
			nc = BC_RUN_TAP_MAX_RECS;
		if (t->nrec >= nc) {
			t->kept_over++;
			return 0;
		}
		p = realloc(t->recs, nc * sizeof(*p));
		if (!p) {
			t->kept_over++;
			return 0;
		}
		t->recs = p;
		t->cap = nc;
	}
	t->recs[t->nrec++] = *r;
	return 0;
}

static void *consumer(void *arg)
{
	struct bc_run_tap *t = arg;
	struct bc_error e = {0};

	while (!atomic_load(&t->stop)) {
		int r = bc_tap_poll(t->tap, 100, keep_rec, t, &e);

		if (r < 0 && r != -EINTR)
			break;
	}
	return NULL;
}

int bc_run_tap_open(struct bc_run_tap **tp, const char *host, const char names[][16], size_t n,
		    const struct sockaddr_storage *local, const struct sockaddr_storage *peer,
		    uint16_t ctl_port, const char *dir, struct bc_error *err)
{
	int idx[BC_TAP_MAX_IFS];
	struct bc_tap_opts o;
	struct bc_run_tap *t;
	int r;

	*tp = NULL;
	if (!n || n > BC_TAP_MAX_IFS)
		return bc_error_set(err, -EINVAL, "taps: %zu interfaces; expected 1..%d", n,
				    BC_TAP_MAX_IFS);
	if (local->ss_family != peer->ss_family ||
	    (local->ss_family != AF_INET && local->ss_family != AF_INET6))
		return bc_error_set(err, -EAFNOSUPPORT,
				    "taps: the test addresses are not both IPv4 or both IPv6");
	t = calloc(1, sizeof(*t));
	if (t) {
		t->tuples = calloc(TUPLE_IDS, sizeof(*t->tuples));
		t->tuple_state = calloc(TUPLE_IDS, 1);
	}
	if (!t || !t->tuples || !t->tuple_state) {
		bc_run_tap_free(t);
		return bc_error_set(err, -ENOMEM, "out of memory for the taps");
	}
	snprintf(t->host, sizeof(t->host), "%s", host);
	for (size_t i = 0; i < n; i++) {
		struct tap_if *f = &t->ifs[i];

		snprintf(f->name, sizeof(f->name), "%s", names[i]);
		snprintf(f->path, sizeof(f->path), "%s/%s-tap-%s.pcap", dir, host, names[i]);
		f->ifindex = (int)if_nametoindex(f->name);
		if (!f->ifindex) {
			bc_run_tap_free(t);
			return bc_error_set(err, -ENODEV, "taps: no interface %s", names[i]);
		}
		idx[i] = f->ifindex;
	}
	t->n = n;
	bc_tap_opts_default(&o);
	o.cfg.flags = BC_TAP_CFG_PAIR | BC_TAP_CFG_TCP | BC_TAP_CFG_FRAGS;
	o.cfg.ctl_port = ctl_port;
	if (local->ss_family == AF_INET) {
		o.cfg.family = 4;
		memcpy(o.cfg.a, &((const struct sockaddr_in *)local)->sin_addr, 4);
		memcpy(o.cfg.b, &((const struct sockaddr_in *)peer)->sin_addr, 4);
	} else {
		o.cfg.family = 6;
		memcpy(o.cfg.a, &((const struct sockaddr_in6 *)local)->sin6_addr, 16);
		memcpy(o.cfg.b, &((const struct sockaddr_in6 *)peer)->sin6_addr, 16);
	}
	r = bc_tap_open(&t->tap, idx, n, &o, err);
	if (r < 0) {
		bc_run_tap_free(t);
		return r;
	}
	t->mode = bc_tap_attach_mode(t->tap);
	*tp = t;
	return 0;
}

int bc_run_tap_start(struct bc_run_tap *t, struct bc_error *err)
{
	int r = pthread_create(&t->th, NULL, consumer, t);

	if (r)
		return bc_error_set(err, -r, "taps: cannot start the ring consumer: %s",
				    strerror(r));
	t->running = true;
	return 0;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

uint32_t bc_run_tap_synth(const struct bc_tap_rec *r, const struct bc_tap_tuple *tu, uint8_t *buf,
			  uint32_t *wire_len)
{
	bool v6 = tu->family == AF_INET6, frag = r->flags & BC_TAP_F_FRAG;
	bool l4 = r->kind == BC_TAP_REC_UDP || r->kind == BC_TAP_REC_TCP;
	uint32_t l2 = 14, l3 = v6 ? 40u + (frag ? 8u : 0u) : 20u, l4len = 0, ip_total, off;
	uint8_t *ip;

	memset(buf, 0, 128);
	buf[5] = 1;  /* dst 00:..:01 */
	buf[11] = 2; /* src 00:..:02 */
	if (r->flags & BC_TAP_F_VLAN) {
		put16(buf + 12, 0x8100);
		put16(buf + 14, r->vlan);
		l2 = 18;
	}
	put16(buf + l2 - 2, v6 ? 0x86dd : 0x0800);
	if (r->kind == BC_TAP_REC_UDP)
		l4len = 8 + BC_UDPHDR_LEN;
	else if (r->kind == BC_TAP_REC_TCP)
		l4len = 20;
	/* IP length: a fragment's own bytes; else the skb's length less the
	 * Ethernet header (and the tag, which egress has in the packet) */
	if (frag) {
		ip_total = l3 + r->frag_len;
	} else {
		uint32_t hdr = 14 + ((r->flags & (BC_TAP_F_VLAN | BC_TAP_F_EGRESS)) ==
					     (BC_TAP_F_VLAN | BC_TAP_F_EGRESS)
				     ? 4u
				     : 0u);

		ip_total = r->len > hdr ? r->len - hdr : 0;
	}
	if (r->kind == BC_TAP_REC_TCP && !frag) {
		uint32_t pl = r->tcp.end_seq - r->tcp.seq;

		pl -= (r->tcp.tcp_flags & 0x02 ? 1u : 0u) + (r->tcp.tcp_flags & 0x01 ? 1u : 0u);
		/* the options are not recorded: a header as long as the skb's
		 * length leaves beside the payload (20..60 bytes, NOPs), so the
		 * decoded payload is the recorded sequence range */
		if (pl < (1u << 30)) {
			uint32_t h = ip_total > l3 + pl ? ip_total - l3 - pl : 0;

			if (h >= 20 && h <= 60 && !(h & 3))
				l4len = h;
			else
				ip_total = l3 + 20 + pl;
		}
	}
	if (ip_total < l3 + (l4 ? l4len : 0))
		ip_total = l3 + (l4 ? l4len : 0);
	ip = buf + l2;
	if (!v6) {
		uint16_t fo = r->off8 & 0x1fff;

		ip[0] = 0x45;
		put16(ip + 2, ip_total > 0xffff ? 0 : (uint16_t)ip_total);
		put16(ip + 4, frag ? (uint16_t)r->ip_id : 0);
		if (frag)
			put16(ip + 6, (uint16_t)((r->flags & BC_TAP_F_MF ? 0x2000 : 0) | fo));
		ip[8] = 64;
		ip[9] = tu->proto;
		memcpy(ip + 12, tu->src, 4);
		memcpy(ip + 16, tu->dst, 4);
	} else {
		uint32_t plen = ip_total - 40;

		ip[0] = 0x60;
		put16(ip + 4, plen > 0xffff ? 0 : (uint16_t)plen);
		ip[6] = frag ? 44 : tu->proto;
		ip[7] = 64;
		memcpy(ip + 8, tu->src, 16);
		memcpy(ip + 24, tu->dst, 16);
		if (frag) {
			ip[40] = tu->proto;
			put16(ip + 42, (uint16_t)((r->off8 << 3) | (r->flags & BC_TAP_F_MF ? 1 : 0)));
			put32(ip + 44, r->ip_id);
		}
	}
	off = l2 + l3;
	if (r->kind == BC_TAP_REC_UDP) {
		uint32_t ul = ip_total - l3;

		put16(buf + off, tu->sport);
		put16(buf + off + 2, tu->dport);
		put16(buf + off + 4, ul > 0xffff ? 0 : (uint16_t)ul);
		put32(buf + off + 8, BC_UDPHDR_MAGIC);
		put16(buf + off + 12, BC_UDPHDR_VERSION);
		put32(buf + off + 16, r->udp.stream);
		put32(buf + off + 20, r->udp.test_id);
		put64(buf + off + 24, r->udp.seq);
		/* send_ns: not recorded, 0 */
	} else if (r->kind == BC_TAP_REC_TCP) {
		put16(buf + off, r->tcp.sport);
		put16(buf + off + 2, r->tcp.dport);
		put32(buf + off + 4, r->tcp.seq);
		buf[off + 12] = (uint8_t)((l4len / 4) << 4);
		buf[off + 13] = r->tcp.tcp_flags;
		memset(buf + off + 20, 1, l4len - 20); /* NOP options */
	}
	*wire_len = l2 + ip_total;
	return off + (l4 ? l4len : 0);
}

static int cmp_ts(const void *a, const void *b)
{
	const struct bc_tap_rec *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static int write_files(struct bc_run_tap *t, struct bc_error *err)
{
	/* one pass per interface over the records sorted by time: each link's
	 * frames in capture order, as bc_attrib_add_packet() expects */
	qsort(t->recs, t->nrec, sizeof(*t->recs), cmp_ts);
	for (size_t i = 0; i < t->n; i++) {
		struct tap_if *f = &t->ifs[i];
		pcap_t *p = pcap_open_dead_with_tstamp_precision(DLT_EN10MB, BC_CAPTURE_SNAPLEN,
								 PCAP_TSTAMP_PRECISION_NANO);
		pcap_dumper_t *d = p ? pcap_dump_open(p, f->path) : NULL;

		if (!d) {
			int r = bc_error_set(err, -EIO, "taps: cannot write %s: %s", f->path,
					     p ? pcap_geterr(p) : "out of memory");

			if (p)
				pcap_close(p);
			return r;
		}
		for (size_t k = 0; k < t->nrec; k++) {
			const struct bc_tap_rec *r = &t->recs[k];
			struct pcap_pkthdr h;
			uint8_t frame[128];

			if ((int)r->ifindex != f->ifindex)
				continue;
			if (r->tuple >= TUPLE_IDS || t->tuple_state[r->tuple] != 1) {
				t->unresolved++;
				continue;
			}
			h.caplen = bc_run_tap_synth(r, &t->tuples[r->tuple], frame, &h.len);
			h.ts.tv_sec = (time_t)(r->ts / 1000000000ull);
			h.ts.tv_usec = (suseconds_t)(r->ts % 1000000000ull); /* ns precision */
			pcap_dump((u_char *)d, &h, frame);
			f->records++;
			f->bytes += h.len;
			if (r->flags & BC_TAP_F_EGRESS)
				f->egress++;
			else
				f->ingress++;
		}
		if (pcap_dump_flush(d) < 0) {
			pcap_dump_close(d);
			pcap_close(p);
			return bc_error_set(err, -EIO, "taps: cannot write %s", f->path);
		}
		pcap_dump_close(d);
		pcap_close(p);
	}
	return 0;
}

int bc_run_tap_stop(struct bc_run_tap *t, struct bc_error *err)
{
	struct bc_error e = {0};
	int r = 0;

	if (!t || t->stopped)
		return 0;
	t->stopped = true;
	if (t->running) {
		atomic_store(&t->stop, 1);
		pthread_join(t->th, NULL);
		t->running = false;
		/* what the ring still holds (the consumer wakes past 1/16 of it) */
		while (bc_tap_poll(t->tap, 0, keep_rec, t, &e) > 0)
			;
	}
	t->have_cnt = bc_tap_read_counters(t->tap, &t->cnt, &e) == 0;
	bc_tap_close(t->tap);
	t->tap = NULL;
	r = write_files(t, err);
	t->written = r == 0;
	free(t->recs);
	t->recs = NULL;
	t->nrec = t->cap = 0;
	return r;
}

int bc_run_tap_files(const struct bc_run_tap *t, struct bc_capture *c, bool bulk_names)
{
	for (size_t i = 0; i < t->n; i++) {
		struct bc_capture_if *ci;
		struct stat st;

		if (c->n >= BC_CAPTURE_MAX_IFS)
			return -E2BIG;
		ci = &c->ifs[c->n++];
		memset(ci, 0, sizeof(*ci));
		if (bulk_names)
			snprintf(ci->name, sizeof(ci->name), "tap.%zu", i);
		else
			snprintf(ci->name, sizeof(ci->name), "%s", t->ifs[i].name);
		snprintf(ci->path, sizeof(ci->path), "%s", t->ifs[i].path);
		ci->frames = t->ifs[i].records;
		ci->bytes = t->ifs[i].bytes;
		if (stat(ci->path, &st) == 0)
			ci->file_bytes = (uint64_t)st.st_size;
	}
	return 0;
}

size_t bc_run_tap_n(const struct bc_run_tap *t)
{
	return t ? t->n : 0;
}

const char *bc_run_tap_name(const struct bc_run_tap *t, size_t i)
{
	return t->ifs[i].name;
}

const char *bc_run_tap_path(const struct bc_run_tap *t, size_t i)
{
	return t->ifs[i].path;
}

uint64_t bc_run_tap_lost(const struct bc_run_tap *t)
{
	return (t->have_cnt ? t->cnt.ring_drop : 0) + t->kept_over;
}

struct json_object *bc_run_tap_json(const struct bc_run_tap *t)
{
	struct json_object *o = json_object_new_object(), *c = json_object_new_object();
	struct json_object *ifs = json_object_new_array();

	json_object_object_add(o, "attach", json_object_new_string(t->mode == BC_TAP_ATTACH_TCX
									   ? "tcx"
									   : "clsact"));
	if (t->have_cnt) {
		json_object_object_add(c, "packets", json_object_new_int64((int64_t)t->cnt.packets));
		json_object_object_add(c, "records", json_object_new_int64((int64_t)t->cnt.records));
		json_object_object_add(c, "ring_drop",
				       json_object_new_int64((int64_t)t->cnt.ring_drop));
		json_object_object_add(c, "tuple_full",
				       json_object_new_int64((int64_t)t->cnt.tuple_full));
	}
	json_object_object_add(c, "kept_over", json_object_new_int64((int64_t)t->kept_over));
	json_object_object_add(c, "unresolved", json_object_new_int64((int64_t)t->unresolved));
	json_object_object_add(o, "counters", c);
	for (size_t i = 0; i < t->n; i++) {
		const struct tap_if *f = &t->ifs[i];
		struct json_object *x = json_object_new_object();

		json_object_object_add(x, "name", json_object_new_string(f->name));
		json_object_object_add(x, "records", json_object_new_int64((int64_t)f->records));
		json_object_object_add(x, "egress", json_object_new_int64((int64_t)f->egress));
		json_object_object_add(x, "ingress", json_object_new_int64((int64_t)f->ingress));
		json_object_object_add(x, "bytes", json_object_new_int64((int64_t)f->bytes));
		json_object_array_add(ifs, x);
	}
	json_object_object_add(o, "interfaces", ifs);
	return o;
}

void bc_run_tap_free(struct bc_run_tap *t)
{
	if (!t)
		return;
	if (t->running) {
		atomic_store(&t->stop, 1);
		pthread_join(t->th, NULL);
	}
	bc_tap_close(t->tap); /* NULL-safe */
	for (size_t i = 0; t->written && i < t->n; i++)
		unlink(t->ifs[i].path);
	free(t->recs);
	free(t->tuples);
	free(t->tuple_state);
	free(t);
}
