// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Live capture on each slave: handles, threads, pcap files and pcap_stats
 * (bondcheck/capture.h; libpcap facts in reference/kernel-interfaces.md 6).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bondcheck/capture.h"

static int64_t now_real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* libpcap's activate status to an errno and a hint; the errbuf goes next to it. */
static int activate_errno(int st, const char **hint)
{
	switch (st) {
	case PCAP_ERROR_PERM_DENIED:
		*hint = "capturing needs CAP_NET_RAW: run as root or grant the capability";
		return -EPERM;
	case PCAP_ERROR_NO_SUCH_DEVICE:
		*hint = "the interface does not exist (a slave that vanished?)";
		return -ENODEV;
	case PCAP_ERROR_IFACE_NOT_UP:
		*hint = "the interface is down";
		return -ENETDOWN;
	default:
		*hint = "libpcap could not start the capture";
		return -EIO;
	}
}

/* Open, configure and activate one handle; the dumper opens in open_one(). */
static int activate_one(struct bc_capture_if *ci, uint32_t buffer, struct bc_error *err)
{
	char errbuf[PCAP_ERRBUF_SIZE] = "";
	const char *hint;
	pcap_t *p;
	int st;

	p = pcap_create(ci->name, errbuf);
	if (!p)
		return bc_error_set(err, -EIO, "cannot capture on %s: %s", ci->name, errbuf);
	ci->pcap = p;
	/* settings before activation (kernel-interfaces.md 6.3, 6.5) */
	if (pcap_set_snaplen(p, BC_CAPTURE_SNAPLEN) || pcap_set_buffer_size(p, (int)buffer) ||
	    pcap_set_timeout(p, BC_CAPTURE_TIMEOUT_MS) || pcap_set_immediate_mode(p, 0) ||
	    pcap_set_promisc(p, 0))
		return bc_error_set(err, -EIO, "cannot configure the capture on %s: %s", ci->name,
				    pcap_geterr(p));
	if (pcap_set_tstamp_precision(p, PCAP_TSTAMP_PRECISION_NANO))
		return bc_error_set(err, -EIO,
				    "libpcap on %s offers no nanosecond timestamps (need "
				    "libpcap 1.5 or later)",
				    ci->name);
	st = pcap_activate(p);
	if (st < 0) {
		int r = activate_errno(st, &hint);
		const char *detail = st == PCAP_ERROR ? pcap_geterr(p) : pcap_statustostr(st);

		return bc_error_set(err, r, "cannot capture on %s: %s (%s)", ci->name, hint,
				    detail);
	}
	if (pcap_datalink(p) != DLT_EN10MB)
		return bc_error_set(err, -EPROTONOSUPPORT,
				    "%s has link type %s, not Ethernet; bondcheck captures "
				    "Ethernet slaves only",
				    ci->name, pcap_datalink_val_to_name(pcap_datalink(p)));
	return 0;
}

static int open_one(struct bc_capture *c, struct bc_capture_if *ci, const char *filter,
		    const char *dir, struct bc_error *err)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct bpf_program prog;
	pcap_t *p;
	int r;

	r = activate_one(ci, c->buffer_bytes ? c->buffer_bytes : BC_CAPTURE_BUFFER, err);
	if (r < 0)
		return r;
	p = ci->pcap;
	if (pcap_compile(p, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) < 0)
		return bc_error_set(err, -EINVAL, "capture filter '%s' on %s: %s", filter, ci->name,
				    pcap_geterr(p));
	r = pcap_setfilter(p, &prog);
	pcap_freecode(&prog);
	if (r < 0)
		return bc_error_set(err, -EIO, "cannot set the capture filter on %s: %s", ci->name,
				    pcap_geterr(p));
	snprintf(ci->path, sizeof(ci->path), "%s/%s-%s.pcap", dir, c->host, ci->name);
	ci->dumper = pcap_dump_open(p, ci->path);
	if (!ci->dumper)
		return bc_error_set(err, -EIO, "cannot write the capture file %s: %s", ci->path,
				    pcap_geterr(p));
	if (pcap_setnonblock(p, 1, errbuf) < 0)
		return bc_error_set(err, -EIO, "cannot make the capture on %s non-blocking: %s",
				    ci->name, errbuf);
	ci->owner = c;
	return 0;
}

int bc_capture_open(struct bc_capture *c, const char *host, const char *filter, const char *dir,
		    struct bc_error *err)
{
	int r;

	if (!c->n)
		return bc_error_set(err, -ENODEV, "no interface to capture on");
	snprintf(c->host, sizeof(c->host), "%s", host);
	snprintf(c->filter, sizeof(c->filter), "%s", filter);
	atomic_init(&c->stop, 0);
	for (size_t i = 0; i < c->n; i++) {
		r = open_one(c, &c->ifs[i], filter, dir, err);
		if (r < 0) {
			bc_capture_free(c);
			return r;
		}
	}
	return 0;
}

/* The capture file cannot be written (errno @e): say so once, write no more. */
static void write_failed(struct bc_capture_if *ci, int e)
{
	if (ci->write_failed)
		return;
	ci->write_failed = true;
	if (ci->error)
		return; /* the first cause stays */
	ci->error = -(e > 0 ? e : EIO);
	snprintf(ci->error_msg, sizeof(ci->error_msg),
		 "writing the capture file %s failed after %llu frames: %s; it holds only "
		 "the frames before",
		 ci->path, (unsigned long long)ci->frames, strerror(-ci->error));
}

static void on_packet(u_char *user, const struct pcap_pkthdr *h, const u_char *bytes)
{
	struct bc_capture_if *ci = (struct bc_capture_if *)user;

	if (ci->write_failed)
		return;
	errno = 0;
	pcap_dump((u_char *)ci->dumper, h, bytes);
	/* stdio buffers: a full disk shows when a buffer is flushed */
	if (ferror_unlocked(pcap_dump_file(ci->dumper))) { /* only this thread writes it */
		write_failed(ci, errno);
		return;
	}
	ci->frames++;
	ci->bytes += h->len;
}

/*
 * Read until told to stop.  The handle is non-blocking and polled here with
 * a timeout: a blocking TPACKET_V3 read polls with no timeout and the kernel
 * does not retire an empty block, so an idle slave would never return.
 */
static void *capture_main(void *arg)
{
	struct bc_capture_if *ci = arg;
	pcap_t *p = ci->pcap;
	struct pollfd pf = {.fd = pcap_get_selectable_fd(p), .events = POLLIN};

	/* test only: a reader that falls behind; the ring fills and the kernel drops */
	for (uint32_t ms = 0; ms < ci->owner->test_stall_ms && !atomic_load(&ci->owner->stop);
	     ms += 10)
		usleep(10000);
	while (!atomic_load(&ci->owner->stop)) {
		int n;

		if (poll(&pf, 1, BC_CAPTURE_TIMEOUT_MS) < 0 && errno != EINTR)
			break;
		n = pcap_dispatch(p, -1, on_packet, (u_char *)ci);

		if (n == PCAP_ERROR) {
			/* e.g. "The interface disappeared" (ENXIO/ENODEV in pcap-linux.c) */
			ci->error = strstr(pcap_geterr(p), "went down") ? -ENETDOWN : -ENODEV;
			snprintf(ci->error_msg, sizeof(ci->error_msg),
				 "capture on %s broke off: %s", ci->name, pcap_geterr(p));
			break;
		}
	}
	return NULL;
}

int bc_capture_start(struct bc_capture *c, struct bc_error *err)
{
	c->start_ns = now_real_ns();
	for (size_t i = 0; i < c->n; i++) {
		struct bc_capture_if *ci = &c->ifs[i];
		int r = pthread_create(&ci->th, NULL, capture_main, ci);

		if (r) {
			bc_capture_stop(c);
			return bc_error_set(err, -r, "cannot start the capture thread for %s: %s",
					    ci->name, strerror(r));
		}
		ci->running = true;
	}
	return 0;
}

void bc_capture_stop(struct bc_capture *c)
{
	atomic_store(&c->stop, 1);
	for (size_t i = 0; i < c->n; i++) {
		struct bc_capture_if *ci = &c->ifs[i];
		struct pcap_stat ps;
		struct stat sb;

		if (!ci->pcap)
			continue;
		if (ci->running) {
			pthread_join(ci->th, NULL);
			ci->running = false;
		}
		/* drain the blocks the kernel has not handed over yet */
		if (!ci->error)
			while (pcap_dispatch(ci->pcap, -1, on_packet, (u_char *)ci) > 0)
				;
		if (pcap_stats(ci->pcap, &ps) == 0) {
			ci->have_stats = true;
			ci->ps_recv = ps.ps_recv;
			ci->ps_drop = ps.ps_drop;
			ci->ps_ifdrop = ps.ps_ifdrop;
		}
		if (ci->dumper) {
			errno = 0;
			if (!ci->write_failed && pcap_dump_flush(ci->dumper) < 0)
				write_failed(ci, errno);
			pcap_dump_close(ci->dumper);
			ci->dumper = NULL;
			if (stat(ci->path, &sb) == 0)
				ci->file_bytes = (uint64_t)sb.st_size;
		}
		pcap_close(ci->pcap);
		ci->pcap = NULL;
	}
	c->stop_ns = now_real_ns();
}

void bc_capture_free(struct bc_capture *c)
{
	if (!c)
		return;
	atomic_store(&c->stop, 1);
	for (size_t i = 0; i < c->n; i++) {
		struct bc_capture_if *ci = &c->ifs[i];

		if (ci->running) {
			pthread_join(ci->th, NULL);
			ci->running = false;
		}
		if (ci->dumper)
			pcap_dump_close(ci->dumper);
		if (ci->pcap)
			pcap_close(ci->pcap);
		ci->dumper = NULL;
		ci->pcap = NULL;
	}
}

uint64_t bc_capture_dropped(const struct bc_capture *c)
{
	uint64_t n = 0;

	for (size_t i = 0; i < c->n; i++)
		n += c->ifs[i].ps_drop;
	return n;
}
