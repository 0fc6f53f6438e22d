/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Link state changes during a run: a thread that listens to rtnetlink's
 * RTNLGRP_LINK notifications (RTM_NEWLINK / RTM_DELLINK, kernel
 * net/core/rtnetlink.c rtmsg_ifinfo) in the caller's network namespace and
 * keeps, with the CLOCK_MONOTONIC time it read each one, every change of an
 * interface's admin state (IFF_UP) or carrier (IFF_LOWER_UP) and every
 * removal.  Notifications that change neither (statistics, MTU, ...) are
 * not kept.  The times are when this process read the notification: later
 * than the change by the scheduling delay of the thread (microseconds on
 * an idle host, milliseconds on a loaded one).
 */
#ifndef BC_COLLECT_LINK_WATCH_H
#define BC_COLLECT_LINK_WATCH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bondcheck/error.h"
#include "bondcheck/model.h"

#define BC_LINK_WATCH_MAX_IFS 256

struct bc_link_event {
	int64_t mono_ns; /* CLOCK_MONOTONIC when read, ns */
	char name[BC_IFNAMSIZ];
	bool admin_up; /* IFF_UP after the change */
	bool carrier;  /* IFF_LOWER_UP after the change */
	bool removed;  /* RTM_DELLINK: the interface went away */
};

struct bc_link_watch {
	void *sk; /* struct nl_sock */
	pthread_t th;
	int stop[2];
	bool running;
	pthread_mutex_t mu;
	struct bc_link_event *ev; /* in the order read */
	size_t n, cap;
	bool overrun; /* the socket overflowed: changes may be missing */
	struct {
		int ifindex;
		unsigned int flags;
	} known[BC_LINK_WATCH_MAX_IFS];
	size_t n_known;
};

/*
 * bc_link_watch_start() - subscribe, read every link's current flags (the
 * state changes are measured against), start the thread.  0, or -errno
 * with @err saying why (no rtnetlink socket, out of memory).
 */
int bc_link_watch_start(struct bc_link_watch *w, struct bc_error *err);

/* bc_link_watch_stop() - stop the thread (idempotent); the events stay readable. */
void bc_link_watch_stop(struct bc_link_watch *w);

/* bc_link_watch_free() - stop and free; @w may be zeroed and never started. */
void bc_link_watch_free(struct bc_link_watch *w);

#endif
