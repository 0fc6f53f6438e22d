// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The agent's change session: journal, change, restore (docs/protocol.md
 * "Changes", workflow/change-session.h).  Every way out of the session
 * loop goes through restore_held(), so the journaled bond is put back when
 * the client closes, crashes, goes silent, breaks the protocol, or the
 * agent is told to quit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/if.h>

#include "bondcheck/bond-change.h"
#include "bondcheck/ctl.h"
#include "bondcheck/journal.h"
#include "bondcheck/json-get.h"
#include "bondcheck/peer-session.h"
#include "collect/live-links.h"
#include "workflow/change-session.h"

struct held {
	struct bc_journal *j; /* NULL: nothing journaled (or restored already) */
	char path[PATH_MAX];
};

static void say(const struct bc_change_srv *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const struct bc_change_srv *s, const char *fmt, ...)
{
	char buf[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (s->cfg->log)
		s->cfg->log(s->cfg->log_ctx, buf);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void send_error(int fd, const char *code, const char *msg)
{
	struct json_object *e = bc_ctl_error_msg(code, "%s", msg);

	bc_ctl_send(fd, e, 5000, NULL);
	json_object_put(e);
}

static void send_msg(int fd, struct json_object *o)
{
	bc_ctl_send(fd, o, 10000, NULL);
	json_object_put(o);
}

static const char *result_name(int r)
{
	return r == 0 ? "restored" : r == -EAGAIN ? "not-stable" : "not-restored";
}

/* Restore what the session holds.  Returns the bc_journal_restore() result. */
static int restore_held(struct bc_change_srv *s, struct held *h, const char *why,
			struct json_object **report)
{
	struct bc_error err = {0};
	int r;

	if (report)
		*report = NULL;
	if (!h->j)
		return 0;
	say(s, "restoring %s (%s)", bc_journal_bond(h->j), why);
	r = bc_journal_restore(h->j, BC_RESTORE_WAIT_MS, report, &err);
	if (r == 0) {
		bc_journal_remove(h->path, NULL);
		say(s, "%s restored: every field matches the journal", bc_journal_bond(h->j));
		bc_journal_free(h->j);
		h->j = NULL;
	} else if (r == -EAGAIN) {
		bc_journal_remove(h->path, NULL);
		say(s, "%s: fields restored, not settled: %s", bc_journal_bond(h->j), err.msg);
		bc_journal_free(h->j);
		h->j = NULL;
	} else {
		say(s,
		    "%s NOT restored: %s; the journal %s is kept: run `bondcheck restore "
		    "--journal %s` here",
		    bc_journal_bond(h->j), err.msg, h->path, h->path);
	}
	return r;
}

static void do_journal(struct bc_change_srv *s, struct held *h, struct json_object *m)
{
	const char *bond = bc_json_str(m, "bond");
	struct bc_journal *j = NULL;
	struct bc_error err = {0};
	struct json_object *o;
	char path[PATH_MAX];
	int r;

	if (h->j) {
		if (!strcmp(bc_journal_bond(h->j), bond)) {
			send_error(s->fd, BC_CTL_E_UNEXPECTED,
				   "this session already journaled that bond");
			return;
		}
		send_error(s->fd, BC_CTL_E_UNEXPECTED,
			   "a change session journals one bond; open another session for "
			   "another bond");
		return;
	}
	r = bc_journal_default_path(bond, path, sizeof(path), &err);
	if (r == 0)
		r = bc_journal_capture(bond, &j, &err);
	/* only bonds: an agent does not take a bridge's or a switch's ports down */
	if (r == 0 && strcmp(bc_journal_kind(j), "bond") && !s->cfg->test_any_master)
		r = bc_error_set(&err, -ENODEV,
				 "'%s' is a %s, not a bond: this agent changes only bonds", bond,
				 bc_journal_kind(j));
	if (r == 0)
		r = bc_journal_save(j, path, &err);
	if (r < 0) {
		send_error(s->fd,
			   r == -EEXIST	  ? BC_CTL_E_JOURNAL_EXISTS
			   : r == -ENODEV ? BC_CTL_E_NO_SUCH_BOND
			   : r == -EINVAL ? BC_CTL_E_NO_SUCH_BOND
					  : BC_CTL_E_CHANGE_FAILED,
			   err.msg);
		say(s, "journal of '%s' refused: %s", bond, err.msg);
		bc_journal_free(j);
		return;
	}
	h->j = j;
	snprintf(h->path, sizeof(h->path), "%s", path);
	say(s, "journaled %s (%zu slaves) to %s", bond, bc_journal_n_slaves(j), path);
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("journaled"));
	json_object_object_add(o, "bond", json_object_new_string(bond));
	json_object_object_add(o, "path", json_object_new_string(path));
	json_object_object_add(o, "state", bc_journal_to_json(j));
	send_msg(s->fd, o);
}

/* Admin-up slaves of the journaled bond other than @except, live. */
static size_t up_slaves_besides(const struct bc_journal *j, const char *except)
{
	struct bc_live_links l;
	const struct bc_live_link *m;
	size_t n = 0;

	if (bc_live_links_read(&l, NULL) < 0)
		return 1; /* cannot tell: let the kernel decide */
	m = bc_live_link_by_name(&l, bc_journal_bond(j));
	for (size_t i = 0; m && i < l.n; i++)
		if (l.v[i].master == m->ifindex && (l.v[i].flags & IFF_UP) &&
		    strcmp(l.v[i].name, except))
			n++;
	bc_live_links_free(&l);
	return n;
}

static void do_change(struct bc_change_srv *s, struct held *h, struct json_object *m)
{
	const char *op = bc_json_str(m, "op"), *slave = bc_json_str(m, "slave");
	long long mtu = bc_json_i64(m, "mtu", 0), wait = bc_json_i64(m, "timeout_ms", -1);
	struct bc_error err = {0}, werr = {0};
	struct json_object *o;
	int64_t t0;
	char msg[300];
	int r;

	if (!h->j) {
		send_error(s->fd, BC_CTL_E_NO_JOURNAL,
			   "journal the bond first ({\"type\":\"journal\",\"bond\":NAME})");
		return;
	}
	if (strcmp(op, BC_CHANGE_SLAVE_DOWN) && strcmp(op, BC_CHANGE_SLAVE_UP) &&
	    strcmp(op, BC_CHANGE_MTU)) {
		snprintf(msg, sizeof(msg),
			 "op '%.40s' is unknown; expected slave-down, slave-up or mtu", op);
		send_error(s->fd, BC_CTL_E_MALFORMED, msg);
		return;
	}
	/* the scope: the journaled bond's own slaves (and the bond for mtu), nothing else */
	if (!bc_journal_has_slave(h->j, slave) ||
	    (strcmp(op, BC_CHANGE_MTU) && !strcmp(slave, bc_journal_bond(h->j)))) {
		snprintf(msg, sizeof(msg),
			 "'%.20s' is not a slave of %s, the bond this session journaled; the "
			 "agent changes nothing else",
			 slave, bc_journal_bond(h->j));
		send_error(s->fd, BC_CTL_E_CHANGE_REFUSED, msg);
		say(s, "change refused: %s", msg);
		return;
	}
	if (!strcmp(op, BC_CHANGE_MTU) && (mtu < 68 || mtu > 65535)) {
		snprintf(msg, sizeof(msg), "mtu %lld is outside 68-65535", mtu);
		send_error(s->fd, BC_CTL_E_MALFORMED, msg);
		return;
	}
	if (wait < 0)
		wait = BC_CHANGE_WAIT_DEFAULT_MS;
	if (wait > BC_CHANGE_WAIT_MAX_MS)
		wait = BC_CHANGE_WAIT_MAX_MS;
	if (!strcmp(op, BC_CHANGE_SLAVE_DOWN) && up_slaves_besides(h->j, slave) == 0) {
		snprintf(msg, sizeof(msg),
			 "taking %s down would leave %s without an up slave (and cut this "
			 "session); refused",
			 slave, bc_journal_bond(h->j));
		send_error(s->fd, BC_CTL_E_CHANGE_REFUSED, msg);
		return;
	}
	if (!strcmp(op, BC_CHANGE_MTU))
		r = bc_link_set_mtu(slave, (uint32_t)mtu, &err);
	else
		r = bc_link_set_up(slave, !strcmp(op, BC_CHANGE_SLAVE_UP), &err);
	if (r < 0) {
		send_error(s->fd, BC_CTL_E_CHANGE_FAILED, err.msg);
		say(s, "change failed: %s", err.msg);
		return;
	}
	t0 = now_ms();
	r = bc_bond_wait_stable(bc_journal_bond(h->j), (int)wait, &werr);
	say(s, "%s %s%s%s: %s", op, slave, !strcmp(op, BC_CHANGE_MTU) ? " " : "",
	    !strcmp(op, BC_CHANGE_MTU) ? json_object_get_string(json_object_object_get(m, "mtu"))
				       : "",
	    r == 0 ? "stable" : werr.msg);
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("changed"));
	json_object_object_add(o, "op", json_object_new_string(op));
	json_object_object_add(o, "slave", json_object_new_string(slave));
	if (!strcmp(op, BC_CHANGE_MTU))
		json_object_object_add(o, "mtu", json_object_new_int64(mtu));
	json_object_object_add(o, "stable", json_object_new_boolean(r == 0));
	json_object_object_add(o, "waited_ms", json_object_new_int64(now_ms() - t0));
	if (r < 0)
		json_object_object_add(o, "not_stable", json_object_new_string(werr.msg));
	send_msg(s->fd, o);
}

static void do_restore(struct bc_change_srv *s, struct held *h)
{
	struct json_object *o, *rep = NULL;
	int r;

	if (!h->j) {
		send_error(s->fd, BC_CTL_E_NO_JOURNAL,
			   "nothing to restore: this session holds no journal");
		return;
	}
	r = restore_held(s, h, "the client asked", &rep);
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("restored"));
	json_object_object_add(o, "result", json_object_new_string(result_name(r)));
	json_object_object_add(o, "ok", json_object_new_boolean(r == 0));
	if (rep)
		json_object_object_add(o, "report", rep);
	send_msg(s->fd, o);
}

/* One message; returns false when the session must end. */
static bool handle(struct bc_change_srv *s, struct held *h, struct json_object *m)
{
	const char *t = bc_ctl_type(m);

	if (!strcmp(t, "changes")) {
		struct json_object *o = json_object_new_object();
		struct json_object *ops = json_object_new_array();

		json_object_object_add(o, "type", json_object_new_string("changes-ready"));
		json_object_array_add(ops, json_object_new_string(BC_CHANGE_SLAVE_DOWN));
		json_object_array_add(ops, json_object_new_string(BC_CHANGE_SLAVE_UP));
		json_object_array_add(ops, json_object_new_string(BC_CHANGE_MTU));
		json_object_object_add(o, "ops", ops);
		json_object_object_add(o, "idle_timeout_ms",
				       json_object_new_int(s->cfg->change_idle_timeout_ms));
		send_msg(s->fd, o);
	} else if (!strcmp(t, "journal")) {
		do_journal(s, h, m);
	} else if (!strcmp(t, "change")) {
		do_change(s, h, m);
	} else if (!strcmp(t, "restore")) {
		do_restore(s, h);
	} else if (!strcmp(t, "ping")) {
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "type", json_object_new_string("pong"));
		send_msg(s->fd, o);
	} else {
		send_error(s->fd, BC_CTL_E_UNEXPECTED,
			   "a change session takes changes, journal, change, restore and ping; "
			   "run tests on another connection");
	}
	return true;
}

/* A vanished client is noticed by TCP keepalive within about 25 s. */
static void keepalive(int fd)
{
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &(int){1}, sizeof(int));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &(int){10}, sizeof(int));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &(int){5}, sizeof(int));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &(int){3}, sizeof(int));
	setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &(unsigned){30000}, sizeof(unsigned));
}

static void *session_main(void *arg)
{
	struct bc_change_srv *s = arg;
	struct held h = {0};
	int64_t last = now_ms();
	const char *why = "the client closed the session";
	int malformed = 0;

	keepalive(s->fd);
	handle(s, &h, s->first);
	json_object_put(s->first);
	s->first = NULL;
	for (;;) {
		struct pollfd p = {.fd = s->fd, .events = POLLIN};
		struct bc_error err = {0};
		struct json_object *m = NULL;
		int r;

		if (*s->quit || atomic_load(&s->stop)) {
			why = "the agent is stopping";
			break;
		}
		if (now_ms() - last > s->cfg->change_idle_timeout_ms) {
			send_error(s->fd, BC_CTL_E_TIMEOUT,
				   "the change session was idle too long; restoring");
			why = "idle timeout";
			break;
		}
		r = poll(&p, 1, 200);
		if (r <= 0)
			continue;
		r = bc_ctl_recv(s->fd, BC_CTL_MAX_REQUEST, 10000, &m, &err);
		if (r == -EBADMSG && !strstr(err.msg, "does not speak") && ++malformed < 8) {
			send_error(s->fd, BC_CTL_E_MALFORMED, err.msg);
			continue;
		}
		if (r < 0) {
			if (r == -EMSGSIZE)
				send_error(s->fd, BC_CTL_E_TOO_LARGE, err.msg);
			if (r != -ECONNRESET)
				why = "the session broke";
			say(s, "change session from %s ends: %s", s->peer,
			    r == -ECONNRESET ? "closed" : err.msg);
			break;
		}
		last = now_ms();
		handle(s, &h, m);
		json_object_put(m);
	}
	restore_held(s, &h, why, NULL);
	bc_journal_free(h.j);
	shutdown(s->fd, SHUT_RDWR);
	close(s->fd);
	s->fd = -1;
	atomic_store(&s->running, 0);
	return NULL;
}

bool bc_change_srv_busy(struct bc_change_srv *s)
{
	return atomic_load(&s->running) != 0;
}

int bc_change_srv_start(struct bc_change_srv *s, const struct bc_agent_cfg *c, int fd,
			struct json_object *first, const char *peer, volatile sig_atomic_t *quit)
{
	if (bc_change_srv_busy(s)) {
		json_object_put(first);
		return -EBUSY;
	}
	if (s->started) {
		pthread_join(s->th, NULL);
		s->started = false;
	}
	s->cfg = c;
	s->quit = quit;
	s->fd = fd;
	s->first = first;
	snprintf(s->peer, sizeof(s->peer), "%s", peer);
	atomic_store(&s->stop, 0);
	atomic_store(&s->running, 1);
	if (pthread_create(&s->th, NULL, session_main, s)) {
		atomic_store(&s->running, 0);
		s->first = NULL;
		json_object_put(first);
		return -EAGAIN;
	}
	s->started = true;
	return 0;
}

void bc_change_srv_stop(struct bc_change_srv *s)
{
	if (!s->started)
		return;
	atomic_store(&s->stop, 1);
	pthread_join(s->th, NULL);
	s->started = false;
}
