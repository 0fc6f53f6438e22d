// SPDX-License-Identifier: GPL-2.0-or-later
/* Link state changes during a run from rtnetlink notifications (collect/link-watch.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/if.h>
#include <linux/rtnetlink.h>
#include <netlink/errno.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "bondcheck/nl-sock.h"
#include "bondcheck/grow.h"
#include "collect/link-watch.h"
#include "collect/live-links.h"

#ifndef IFF_LOWER_UP
#define IFF_LOWER_UP 0x10000
#endif

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static unsigned int *known_flags(struct bc_link_watch *w, int ifindex, bool add)
{
	for (size_t i = 0; i < w->n_known; i++)
		if (w->known[i].ifindex == ifindex)
			return &w->known[i].flags;
	if (!add || w->n_known >= BC_LINK_WATCH_MAX_IFS)
		return NULL;
	w->known[w->n_known].ifindex = ifindex;
	w->known[w->n_known].flags = 0;
	return &w->known[w->n_known++].flags;
}

static int on_msg(struct nl_msg *msg, void *arg)
{
	struct bc_link_watch *w = arg;
	struct nlmsghdr *h = nlmsg_hdr(msg);
	const struct ifinfomsg *ifi;
	struct nlattr *name;
	unsigned int *old, mask = IFF_UP | IFF_LOWER_UP;
	bool del = h->nlmsg_type == RTM_DELLINK;
	struct bc_link_event e = {0};

	if (h->nlmsg_type != RTM_NEWLINK && !del)
		return NL_OK;
	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)))
		return NL_OK;
	ifi = nlmsg_data(h);
	name = nlmsg_find_attr(h, sizeof(*ifi), IFLA_IFNAME);
	old = known_flags(w, ifi->ifi_index, true);
	if (!del && old && !((*old ^ ifi->ifi_flags) & mask))
		return NL_OK;
	if (old)
		*old = del ? 0 : ifi->ifi_flags;
	e.mono_ns = mono_ns();
	if (name)
		snprintf(e.name, sizeof(e.name), "%.*s",
			 (int)strnlen(nla_data(name), (size_t)nla_len(name)),
			 (const char *)nla_data(name));
	else
		snprintf(e.name, sizeof(e.name), "if%d", ifi->ifi_index);
	e.admin_up = !del && (ifi->ifi_flags & IFF_UP);
	e.carrier = !del && (ifi->ifi_flags & IFF_LOWER_UP);
	e.removed = del;
	pthread_mutex_lock(&w->mu);
	if (bc_grow((void **)&w->ev, &w->cap, w->n + 1, sizeof(*w->ev), 32)) {
		w->overrun = true; /* out of memory: the change is not kept */
		pthread_mutex_unlock(&w->mu);
		return NL_OK;
	}
	w->ev[w->n++] = e;
	pthread_mutex_unlock(&w->mu);
	return NL_OK;
}

static void *watch_thread(void *arg)
{
	struct bc_link_watch *w = arg;
	struct pollfd p[2] = {{.fd = nl_socket_get_fd(w->sk), .events = POLLIN},
			      {.fd = w->stop[0], .events = POLLIN}};

	for (;;) {
		int r = poll(p, 2, -1);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || p[1].revents)
			break;
		if (p[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
			/* ENOBUFS: the kernel dropped notifications */
			int e = 0;
			socklen_t len = sizeof(e);

			getsockopt(p[0].fd, SOL_SOCKET, SO_ERROR, &e, &len);
			pthread_mutex_lock(&w->mu);
			w->overrun = true;
			pthread_mutex_unlock(&w->mu);
			if (e != ENOBUFS)
				break;
			continue;
		}
		if (p[0].revents & POLLIN) {
			r = nl_recvmsgs_default(w->sk);
			if (r == -NLE_NOMEM) {
				pthread_mutex_lock(&w->mu);
				w->overrun = true;
				pthread_mutex_unlock(&w->mu);
			} else if (r < 0 && r != -NLE_AGAIN && r != -NLE_INTR) {
				break;
			}
		}
	}
	return NULL;
}

int bc_link_watch_start(struct bc_link_watch *w, struct bc_error *err)
{
	struct bc_live_links l;
	struct nl_sock *sk;
	int r;

	memset(w, 0, sizeof(*w));
	w->stop[0] = w->stop[1] = -1;
	sk = nl_socket_alloc();
	if (!sk)
		return bc_error_set(err, -ENOMEM, "out of memory for a netlink socket");
	nl_socket_disable_seq_check(sk);
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_msg, w);
	r = bc_nl_connect(sk, NETLINK_ROUTE);
	if (r == 0)
		r = nl_socket_add_membership(sk, RTNLGRP_LINK);
	if (r == 0)
		r = nl_socket_set_nonblocking(sk);
	if (r < 0) {
		nl_socket_free(sk);
		return bc_error_set(err, -EIO, "cannot listen to rtnetlink link notifications: %s",
				    nl_geterror(r));
	}
	w->sk = sk;
	/* subscribed first: a change from here on is either in the dump or a notification */
	if (bc_live_links_read(&l, err) < 0) {
		nl_socket_free(sk);
		w->sk = NULL;
		return -EIO;
	}
	for (size_t i = 0; i < l.n; i++) {
		unsigned int *f = known_flags(w, l.v[i].ifindex, true);

		if (f)
			*f = l.v[i].flags;
	}
	bc_live_links_free(&l);
	pthread_mutex_init(&w->mu, NULL);
	if (pipe2(w->stop, O_CLOEXEC) < 0) {
		r = -errno;
		nl_socket_free(sk);
		w->sk = NULL;
		pthread_mutex_destroy(&w->mu);
		return bc_error_set(err, r, "cannot create a pipe: %s", strerror(-r));
	}
	r = pthread_create(&w->th, NULL, watch_thread, w);
	if (r) {
		close(w->stop[0]);
		close(w->stop[1]);
		w->stop[0] = w->stop[1] = -1;
		nl_socket_free(sk);
		w->sk = NULL;
		pthread_mutex_destroy(&w->mu);
		return bc_error_set(err, -r, "cannot start the link watch thread: %s", strerror(r));
	}
	w->running = true;
	return 0;
}

void bc_link_watch_stop(struct bc_link_watch *w)
{
	if (!w->running)
		return;
	/* read what is queued before stopping: a change just before the end counts */
	(void)!write(w->stop[1], "x", 1);
	pthread_join(w->th, NULL);
	w->running = false;
	{
		struct nl_cb *cb = nl_socket_get_cb(w->sk);

		/* nl_recvmsgs_report(): messages read, 0 once nothing is queued */
		for (int i = 0; cb && i < 1000 && nl_recvmsgs_report(w->sk, cb) > 0; i++)
			;
		if (cb)
			nl_cb_put(cb);
	}
}

void bc_link_watch_free(struct bc_link_watch *w)
{
	bool had = w->sk != NULL;

	bc_link_watch_stop(w);
	if (w->sk)
		nl_socket_free(w->sk);
	w->sk = NULL;
	if (w->stop[0] >= 0 && had) {
		close(w->stop[0]);
		close(w->stop[1]);
	}
	w->stop[0] = w->stop[1] = -1;
	if (had)
		pthread_mutex_destroy(&w->mu);
	free(w->ev);
	w->ev = NULL;
	w->n = w->cap = 0;
}
