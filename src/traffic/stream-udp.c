// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * UDP stream threads: a paced sendmmsg() sender and a recvmmsg() receiver
 * that feeds the sequence window (DESIGN.md "Traffic engine").
 *
 * Sender rules: a datagram whose send fails keeps its sequence number for
 * the next attempt, so sequence numbers count exactly the datagrams the
 * kernel accepted; IP_RECVERR makes qdisc drops visible as ENOBUFS instead
 * of silent success (measurement.md 3.2, SndbufErrors).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/udp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

#include "bondcheck/mib-text.h"
#include "bondcheck/udp-header.h"
#include "traffic/stream.h"

#define BATCH	   64
#define GSO_MSGS   8	   /* sendmmsg messages per call with UDP GSO */
#define GSO_SEGS   64	   /* UDP_MAX_SEGMENTS in older kernels */
#define GRO_BATCH  16	   /* recvmmsg messages per call with UDP GRO (64 KiB each) */
#define RX_BATCH   128	   /* recvmmsg messages per call without GRO */
#define NAP_MAX_NS 1000000 /* longest receiver nap, ns */

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void sleep_until(int64_t mono_ns)
{
	struct timespec ts = {.tv_sec = mono_ns / 1000000000, .tv_nsec = mono_ns % 1000000000};

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* Reading the error queue clears the pending socket error (ICMP unreachable etc.). */
static void drain_errqueue(int fd)
{
	char data[64], ctl[512];
	struct iovec iov = {data, sizeof(data)};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};

	for (int i = 0; i < 64; i++) {
		m.msg_control = ctl;
		m.msg_controllen = sizeof(ctl);
		if (recvmsg(fd, &m, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			break;
	}
}

static void set_timeout(int fd, int opt, int ms)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};

	setsockopt(fd, SOL_SOCKET, opt, &tv, sizeof(tv));
}

/* Reverse mode: wait for the peer's hello, then send only to where it came from. */
static int await_hello(struct bc_stream *s)
{
	int64_t deadline = bc_mono_ns() + 3000000000ll;
	uint8_t buf[256];

	set_timeout(s->fd, SO_RCVTIMEO, 100);
	while (!atomic_load(s->stop) && bc_mono_ns() < deadline) {
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		struct bc_udphdr h;
		ssize_t n;

		memset(&from, 0, sizeof(from)); /* the analyzer does not know recvfrom() fills it */
		n = recvfrom(s->fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);

		if (n < 0)
			continue;
		if (bc_udphdr_decode(buf, (size_t)n, &h, NULL) < 0 ||
		    !(h.flags & BC_UDPHDR_F_HELLO) || h.test_id != s->plan->test_id ||
		    h.stream_id != s->id)
			continue;
		/* the hello must come from the host that holds the control connection */
		if (from.ss_family == AF_INET &&
		    ((struct sockaddr_in *)&from)->sin_addr.s_addr !=
			    ((struct sockaddr_in *)&s->peer)->sin_addr.s_addr)
			continue;
		if (from.ss_family == AF_INET6 &&
		    memcmp(&((struct sockaddr_in6 *)&from)->sin6_addr,
			   &((struct sockaddr_in6 *)&s->peer)->sin6_addr, 16))
			continue;
		if (connect(s->fd, (struct sockaddr *)&from, fl) < 0)
			break;
		s->remote_port =
			ntohs(from.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&from)->sin6_port
							 : ((struct sockaddr_in *)&from)->sin_port);
		return 0;
	}
	s->err = -ETIMEDOUT;
	snprintf(s->errmsg, sizeof(s->errmsg),
		 "stream %u: no hello datagram from the client within 3 s", s->id);
	return -ETIMEDOUT;
}

void bc_udp_send_hello(const struct bc_stream *s)
{
	struct bc_udphdr h = {
		.flags = BC_UDPHDR_F_HELLO, .stream_id = s->id, .test_id = s->plan->test_id};
	uint8_t b[BC_UDPHDR_LEN];

	bc_udphdr_encode(&h, b, sizeof(b));
	(void)send(s->fd, b, sizeof(b), MSG_DONTWAIT);
}

/* Segments per message: 1, or with UDP GSO as many as fit 64 KiB (UDP_SEGMENT). */
static uint32_t gso_segments(const struct bc_stream *s)
{
	uint32_t g;

	if (!s->plan->udp_gso)
		return 1;
	g = 65000 / s->plan->length;
	return g > GSO_SEGS ? GSO_SEGS : g ? g : 1;
}

void *bc_udp_send_main(void *arg)
{
	struct bc_stream *s = arg;
	const struct bc_plan *p = s->plan;
	uint32_t len = p->length, g = gso_segments(s), nmsg = g > 1 ? GSO_MSGS : BATCH;
	struct mmsghdr msgs[BATCH];
	struct iovec iov[BATCH];
	uint32_t segs[BATCH];
	uint8_t *bufs;
	struct bc_udphdr h = {.stream_id = s->id, .test_id = p->test_id};
	double ns_per_pkt = p->rate_bps ? 8.0 * len * 1e9 / (double)p->rate_bps : 0;
	int64_t t0, end, omit_end, w0;
	uint64_t c0, seq = 0;

	if (s->plan->dir != BC_DIR_FORWARD && s->peer.ss_family && await_hello(s) < 0)
		return NULL;
	if (g > 1 && setsockopt(s->fd, SOL_UDP, UDP_SEGMENT, &(int){(int)len}, sizeof(int)) < 0) {
		s->err = -errno;
		snprintf(s->errmsg, sizeof(s->errmsg), "stream %u: UDP GSO unavailable: %s", s->id,
			 strerror(errno));
		return NULL;
	}
	bufs = calloc((size_t)nmsg * g, len);
	if (!bufs) {
		s->err = -ENOMEM;
		snprintf(s->errmsg, sizeof(s->errmsg), "stream %u: out of memory", s->id);
		return NULL;
	}
	memset(msgs, 0, sizeof(msgs));
	for (uint32_t i = 0; i < nmsg; i++) {
		iov[i] = (struct iovec){bufs + (size_t)i * g * len, len};
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	/* a blocked send returns after 200 ms so the stop flag is seen */
	set_timeout(s->fd, SO_SNDTIMEO, 200);
	t0 = s->start_ns;
	end = t0 + (int64_t)p->duration_ms * 1000000;
	omit_end = t0 + (int64_t)p->omit_ms * 1000000;
	w0 = bc_mono_ns();
	c0 = thread_cpu_ns();
	while (!atomic_load(s->stop)) {
		int64_t now = bc_mono_ns();
		uint64_t rt, n = (uint64_t)nmsg * g, k = 0;
		uint32_t m = 0;
		int r;

		if (now >= end)
			break;
		if (ns_per_pkt > 0) {
			/* datagram k is due at t0 + k x ns_per_pkt */
			double due = (double)(now - t0) / ns_per_pkt + 1.0 - (double)seq;

			if (due < 1.0) {
				sleep_until(t0 + (int64_t)((double)seq * ns_per_pkt));
				continue;
			}
			if (due < (double)n)
				n = (uint64_t)due;
		}
		rt = bc_real_ns() + (uint64_t)s->clock_offset_ns;
		h.flags = now < omit_end ? BC_UDPHDR_F_OMIT : 0;
		/* message m carries segs[m] datagrams, each with its own header */
		for (; k < n; m++) {
			segs[m] = n - k < g ? (uint32_t)(n - k) : g;
			iov[m].iov_len = (size_t)segs[m] * len;
			for (uint32_t i = 0; i < segs[m]; i++, k++) {
				h.seq = seq + k;
				h.send_ns = rt;
				bc_udphdr_encode(&h, bufs + ((size_t)m * g + i) * len, len);
			}
		}
		r = sendmmsg(s->fd, msgs, m, 0);
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			if (e == EAGAIN || e == EWOULDBLOCK) {
				atomic_fetch_add(&s->eagain, 1);
				continue;
			}
			atomic_fetch_add(&s->send_errors, 1);
			if (e == ENOBUFS)
				atomic_fetch_add(&s->enobufs, 1);
			else if (e == ECONNREFUSED || e == EHOSTUNREACH || e == ENETUNREACH)
				atomic_fetch_add(&s->refused, 1);
			else if (e == EINVAL || e == EMSGSIZE) {
				s->err = -e;
				snprintf(s->errmsg, sizeof(s->errmsg),
					 "stream %u: the kernel refused %u-byte datagrams%s: %s",
					 s->id, len,
					 g > 1 ? " with UDP GSO (larger than the path MTU?)" : "",
					 strerror(e));
				break;
			}
			drain_errqueue(s->fd);
			sched_yield();
			continue;
		}
		for (int i = 0; i < r; i++) {
			seq += segs[i];
			atomic_fetch_add(&s->sent_bytes, (uint64_t)segs[i] * len);
		}
		atomic_store(&s->sent_pkts, seq);
	}
	s->wall_ns = (uint64_t)(bc_mono_ns() - w0);
	s->cpu_ns = thread_cpu_ns() - c0;
	free(bufs);
	return NULL;
}

struct rx_slot {
	struct iovec iov;
	struct sockaddr_storage from;
	char ctl[CMSG_SPACE(sizeof(struct timespec)) + 2 * CMSG_SPACE(sizeof(uint32_t)) + 64];
};

static void account(struct bc_stream *s, const uint8_t *buf, size_t n, uint64_t recv_ns,
		    int64_t now, int64_t omit_end)
{
	struct bc_udphdr h;
	enum bc_seq_class c;

	if (bc_udphdr_decode(buf, n, &h, NULL) < 0 || h.test_id != s->plan->test_id ||
	    h.stream_id != s->id || (h.flags & BC_UDPHDR_F_HELLO)) {
		s->not_ours++;
		return;
	}
	c = bc_seqwin_add(&s->win, h.seq, h.send_ns, recv_ns, (uint32_t)n);
	if (c != BC_SEQ_IN_ORDER && c != BC_SEQ_REORDERED)
		return;
	s->rx_bytes += n;
	if (now >= omit_end) {
		if (!s->rx_meas_bytes)
			s->rx_meas_first_ns = now;
		s->rx_meas_bytes += n;
	}
	s->rx_last_ns = now;
}

/*
 * How long the receiver sleeps after a read that emptied the queue, in ns.
 * Blocking in recvmmsg() instead makes the sender's softirq wake the reader
 * for every few datagrams; on a shared CPU each wakeup preempts the sender:
 * 32 810 receiver sleeps and 32 453 sender preemptions in a 1 s run at
 * 190 k datagrams/s (sched_switch trace, tools/bench/RESULTS.md).  The nap
 * lasts half a batch at the offered rate, at most 1 ms, and at most a
 * quarter of what the granted receive buffer holds (truesize ~ length +
 * 832 bytes per datagram), so it cannot overflow the socket.  0: no nap.
 */
static int64_t rx_nap_ns(const struct bc_stream *s, unsigned batch)
{
	double pkt_ns, nap, fit;

	if (!s->offered_bps)
		return 0;
	pkt_ns = 8.0 * s->plan->length * 1e9 / (double)s->offered_bps;
	nap = pkt_ns * batch / 2;
	fit = pkt_ns * ((double)s->rcvbuf / (s->plan->length + 832.0)) / 4;
	if (nap > fit)
		nap = fit;
	if (nap > NAP_MAX_NS)
		nap = NAP_MAX_NS;
	return nap < 10000 ? 0 : (int64_t)nap;
}

/* Whole small file at @path into @buf (NUL-terminated); false when unreadable. */
static bool read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = 0;
	return true;
}

/*
 * The receiving socket's drops column of /proc/net/udp (or udp6) by its
 * inode: every datagram the kernel dropped for this socket
 * (reference/measurement.md 3.5); -1 when it cannot be read.
 */
static int64_t proc_udp_drops(int fd)
{
	static const char *const files[] = {"/proc/net/udp", "/proc/net/udp6"};
	size_t len = 1u << 20;
	char *buf = malloc(len);
	struct stat st;
	int64_t r = -1;

	if (!buf || fstat(fd, &st) < 0) {
		free(buf);
		return -1;
	}
	for (int i = 0; i < 2 && r < 0; i++) {
		uint64_t d;

		if (read_text(files[i], buf, len) &&
		    bc_proc_udp_drops(buf, (uint64_t)st.st_ino, &d, NULL) == 0)
			r = (int64_t)d;
	}
	free(buf);
	return r;
}

void *bc_udp_recv_main(void *arg)
{
	struct bc_stream *s = arg;
	/* with UDP GRO one read returns up to 64 KiB of same-size datagrams */
	bool gro = s->plan->udp_gso &&
		   setsockopt(s->fd, SOL_UDP, UDP_GRO, &(int){1}, sizeof(int)) == 0;
	size_t cap = gro ? 65536 : s->plan->length + 64;
	unsigned batch = gro ? GRO_BATCH : RX_BATCH;
	struct mmsghdr msgs[RX_BATCH];
	struct rx_slot *slots;
	uint8_t *bufs;
	int64_t omit_end = s->start_ns + (int64_t)s->plan->omit_ms * 1000000, w0;
	int64_t nap = rx_nap_ns(s, batch), hello_until;
	uint64_t c0;

	slots = calloc(batch, sizeof(*slots));
	bufs = calloc(batch, cap);
	if (!slots || !bufs) {
		free(slots);
		free(bufs);
		s->err = -ENOMEM;
		snprintf(s->errmsg, sizeof(s->errmsg), "stream %u: out of memory", s->id);
		return NULL;
	}
	set_timeout(s->fd, SO_RCVTIMEO, 100);
	memset(msgs, 0, sizeof(msgs));
	for (unsigned i = 0; i < batch; i++) {
		slots[i].iov = (struct iovec){bufs + (size_t)i * cap, cap};
		msgs[i].msg_hdr.msg_iov = &slots[i].iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
		msgs[i].msg_hdr.msg_control = slots[i].ctl;
	}
	w0 = bc_mono_ns();
	c0 = thread_cpu_ns();
	/* the client's receiver of a reverse stream: hellos until the first datagram */
	hello_until = bc_plan_stream_reverse(s->plan, s->id) ? w0 + 3000000000ll : 0;
	while (!atomic_load(s->stop)) {
		int64_t now;
		uint64_t rt;
		int r;

		/* the kernel shrinks msg_controllen to what it wrote */
		for (unsigned i = 0; i < batch; i++)
			msgs[i].msg_hdr.msg_controllen = sizeof(slots[i].ctl);
		r = recvmmsg(s->fd, msgs, batch, MSG_WAITFORONE, NULL);
		if (r < 0) {
			if (errno != EAGAIN && errno != EINTR && errno != EWOULDBLOCK)
				drain_errqueue(s->fd);
			/*
			 * No datagram for 100 ms (SO_RCVTIMEO) while the agent may
			 * still wait (await_hello(): 3 s): the hello again.  The
			 * three sent at open (test-end.c) can all be lost on a path
			 * that is not carrying yet (a port not collecting after an
			 * LACP change), and the agent's stream would never start.
			 */
			if (hello_until && bc_mono_ns() < hello_until)
				bc_udp_send_hello(s);
			continue;
		}
		hello_until = 0;
		now = bc_mono_ns();
		rt = bc_real_ns() + (uint64_t)s->clock_offset_ns;
		pthread_mutex_lock(&s->mu);
		for (int i = 0; i < r; i++) {
			uint64_t recv_ns = rt;
			size_t seg = msgs[i].msg_len;
			struct cmsghdr *cm;

			for (cm = CMSG_FIRSTHDR(&msgs[i].msg_hdr); cm;
			     cm = CMSG_NXTHDR(&msgs[i].msg_hdr, cm)) {
				if (cm->cmsg_level == SOL_UDP && cm->cmsg_type == UDP_GRO) {
					int gs;

					memcpy(&gs, CMSG_DATA(cm), sizeof(gs));
					if (gs > 0)
						seg = (size_t)gs;
				}
				if (cm->cmsg_level != SOL_SOCKET)
					continue;
				if (cm->cmsg_type == SCM_TIMESTAMPNS) {
					struct timespec ts;

					memcpy(&ts, CMSG_DATA(cm), sizeof(ts));
					recv_ns = (uint64_t)ts.tv_sec * 1000000000u +
						  (uint64_t)ts.tv_nsec +
						  (uint64_t)s->clock_offset_ns;
				} else if (cm->cmsg_type == SO_RXQ_OVFL) {
					memcpy(&s->rxq_ovfl, CMSG_DATA(cm), sizeof(uint32_t));
				}
			}
			/* a GRO read holds datagrams of gso_size bytes, the last one shorter */
			if (seg < msgs[i].msg_len)
				s->gro_reads++;
			for (size_t off = 0; off < msgs[i].msg_len; off += seg)
				account(s, bufs + (size_t)i * cap + off,
					msgs[i].msg_len - off < seg ? msgs[i].msg_len - off : seg,
					recv_ns, now, omit_end);
		}
		pthread_mutex_unlock(&s->mu);
		/* the queue is empty: let it fill instead of being woken per datagram */
		if (nap && (unsigned)r < batch)
			sleep_until(bc_mono_ns() + nap);
	}
	s->wall_ns = (uint64_t)(bc_mono_ns() - w0);
	s->cpu_ns = thread_cpu_ns() - c0;
	s->proc_udp_drops = proc_udp_drops(s->fd);
	free(slots);
	free(bufs);
	return NULL;
}
