// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * TCP stream threads.  The sender writes plan->length bytes per call until
 * the duration has passed, then shuts down its side; the receiver reads
 * until EOF or the stop flag.  Goodput is measured at the receiver from the
 * end of the omit period to the last byte (stream.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "traffic/stream.h"

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void set_timeout(int fd, int opt, int ms)
{
	struct timeval tv = {ms / 1000, (ms % 1000) * 1000};

	setsockopt(fd, SOL_SOCKET, opt, &tv, sizeof(tv));
}

void *bc_tcp_send_main(void *arg)
{
	struct bc_stream *s = arg;
	size_t len = s->alongside ? BC_PLAN_TCP_WRITE : s->plan->length;
	int64_t end = s->start_ns + (int64_t)s->plan->duration_ms * 1000000, w0;
	uint64_t c0;
	char *buf = malloc(len);

	if (!buf) {
		s->err = -ENOMEM;
		snprintf(s->errmsg, sizeof(s->errmsg), "stream %u: out of memory", s->id);
		return NULL;
	}
	memset(buf, 0x5a, len);
	set_timeout(s->fd, SO_SNDTIMEO, 200);
	if (s->alongside && s->offered_bps) {
		/* bytes/s; TCP paces itself without the fq qdisc since Linux 4.13 */
		uint64_t pace = s->offered_bps / 8;

		if (pace > UINT32_MAX)
			pace = UINT32_MAX;
		setsockopt(s->fd, SOL_SOCKET, SO_MAX_PACING_RATE, &(uint32_t){(uint32_t)pace},
			   sizeof(uint32_t));
	}
	w0 = bc_mono_ns();
	c0 = thread_cpu_ns();
	while (!atomic_load(s->stop) && bc_mono_ns() < end) {
		ssize_t n = send(s->fd, buf, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				continue;
			s->err = -errno;
			snprintf(s->errmsg, sizeof(s->errmsg), "stream %u: send failed: %s", s->id,
				 strerror(errno));
			break;
		}
		atomic_fetch_add(&s->sent_bytes, (uint64_t)n);
	}
	s->wall_ns = (uint64_t)(bc_mono_ns() - w0);
	s->cpu_ns = thread_cpu_ns() - c0;
	bc_tcp_sample(s->fd, &s->tcp_last);
	shutdown(s->fd, SHUT_WR);
	free(buf);
	return NULL;
}

/*
 * SO_RCVLOWAT tracking the arrival rate: the kernel wakes the receiver only
 * once ~1 ms of data (at most 128 KiB) is queued.  Without it every burst
 * wakes the reader, and the wakeup is paid by the CPU whose softirq queues
 * the data, on a veth pair the sender's: 1 stream on the idle 2-CPU host,
 * 21.8-23.9 Gbit/s without, 22.6-28.5 with 128 KiB (tools/bench/RESULTS.md).
 * Recomputed every 10 ms, so a slow link adds at most ~1 ms of latency;
 * FIN, the 100 ms SO_RCVTIMEO and the stop flag still return what arrived.
 */
#define LOWAT_MAX    (128 * 1024)
#define LOWAT_WIN_NS 10000000

static void track_lowat(struct bc_stream *s, int64_t now, uint64_t bytes, int64_t *win0,
			uint64_t *win_bytes, int *lowat)
{
	int64_t dt = now - *win0;
	uint64_t per_ms;
	int want;

	*win_bytes += bytes;
	if (dt < LOWAT_WIN_NS)
		return;
	per_ms = *win_bytes * 1000000 / (uint64_t)dt;
	want = per_ms > LOWAT_MAX ? LOWAT_MAX : per_ms ? (int)per_ms : 1;
	if (want > 2 * *lowat || 2 * want < *lowat) {
		setsockopt(s->fd, SOL_SOCKET, SO_RCVLOWAT, &want, sizeof(want));
		*lowat = want;
	}
	*win0 = now;
	*win_bytes = 0;
}

void *bc_tcp_recv_main(void *arg)
{
	struct bc_stream *s = arg;
	size_t len = 256 * 1024;
	int64_t omit_end = s->start_ns + (int64_t)s->plan->omit_ms * 1000000, w0, win0;
	uint64_t c0, win_bytes = 0;
	int lowat = 1;
	char *buf = malloc(len);

	if (!buf) {
		s->err = -ENOMEM;
		snprintf(s->errmsg, sizeof(s->errmsg), "stream %u: out of memory", s->id);
		return NULL;
	}
	set_timeout(s->fd, SO_RCVTIMEO, 100);
	w0 = bc_mono_ns();
	win0 = w0;
	c0 = thread_cpu_ns();
	while (!atomic_load(s->stop)) {
		ssize_t n = recv(s->fd, buf, len, 0);
		int64_t now;

		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
				continue;
			s->err = -errno;
			snprintf(s->errmsg, sizeof(s->errmsg), "stream %u: receive failed: %s",
				 s->id, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		now = bc_mono_ns();
		pthread_mutex_lock(&s->mu);
		s->rx_bytes += (uint64_t)n;
		if (now >= omit_end) {
			if (!s->rx_meas_bytes)
				s->rx_meas_first_ns = now;
			s->rx_meas_bytes += (uint64_t)n;
		}
		s->rx_last_ns = now;
		pthread_mutex_unlock(&s->mu);
		track_lowat(s, now, (uint64_t)n, &win0, &win_bytes, &lowat);
	}
	s->wall_ns = (uint64_t)(bc_mono_ns() - w0);
	s->cpu_ns = thread_cpu_ns() - c0;
	bc_tcp_sample(s->fd, &s->tcp_last);
	free(buf);
	return NULL;
}
