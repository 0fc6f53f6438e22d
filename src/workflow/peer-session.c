// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The client's end of a change session (bondcheck/peer-session.h,
 * docs/protocol.md "Changes"): one authenticated control connection that
 * carries changes, journal, change and restore and their replies.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bondcheck/ctl.h"
#include "bondcheck/json-get.h"
#include "bondcheck/peer-session.h"
#include "workflow/change-session.h"
#include "workflow/client-conn.h"

struct bc_peer_session {
	int fd;
	char peer[256];
	struct json_object *state; /* the last "journaled" state */
};

/* An agent's error reply -> errno (bondcheck/peer-session.h lists them). */
static int reply_error(struct bc_peer_session *s, struct json_object *m, struct bc_error *err)
{
	const char *code = bc_json_str(m, "code"), *msg = bc_json_str(m, "message");
	static const struct {
		const char *code;
		int err;
	} map[] = {
		{BC_CTL_E_CHANGES_NOT_ALLOWED, -EPERM},
		{BC_CTL_E_CHANGE_REFUSED, -EPERM},
		{BC_CTL_E_NO_JOURNAL, -ENOENT},
		{BC_CTL_E_JOURNAL_EXISTS, -EEXIST},
		{BC_CTL_E_NO_SUCH_BOND, -ENODEV},
		{BC_CTL_E_CHANGE_FAILED, -EIO},
		{BC_CTL_E_BUSY, -EBUSY},
		{BC_CTL_E_MALFORMED, -EINVAL},
		{BC_CTL_E_UNEXPECTED, -EINVAL},
		{BC_CTL_E_TIMEOUT, -ETIMEDOUT},
		{BC_CTL_E_AUTH_FAILED, -EACCES},
		{BC_CTL_E_AUTH_REQUIRED, -EACCES},
	};
	int r = -EPROTO;

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(code, map[i].code))
			r = map[i].err;
	return bc_error_set(err, r, "agent %s: %s (%s)", s->peer, msg, code);
}

/* Send @msg (taken) and wait up to @timeout_ms for a reply of @type. */
static int call(struct bc_peer_session *s, struct json_object *msg, const char *type,
		int timeout_ms, struct json_object **out, struct bc_error *err)
{
	struct json_object *m = NULL;
	int r;

	*out = NULL;
	if (s->fd < 0) {
		json_object_put(msg);
		return bc_error_set(err, -ENOTCONN, "the change session with %s is closed",
				    s->peer);
	}
	r = bc_ctl_send(s->fd, msg, 5000, err);
	json_object_put(msg);
	if (r < 0)
		return r;
	r = bc_ctl_recv(s->fd, BC_CTL_MAX_REPLY, timeout_ms, &m, err);
	if (r < 0) {
		if (r == -ECONNRESET)
			r = bc_error_set(err, -ECONNRESET,
					 "agent %s closed the change session (it restores its "
					 "bond when a session ends)",
					 s->peer);
		return r;
	}
	if (!strcmp(bc_ctl_type(m), "error")) {
		r = reply_error(s, m, err);
		json_object_put(m);
		return r;
	}
	if (strcmp(bc_ctl_type(m), type)) {
		r = bc_error_set(err, -EPROTO, "expected '%s' from agent %s, got '%s'", type,
				 s->peer, bc_ctl_type(m));
		json_object_put(m);
		return r;
	}
	*out = m;
	return 0;
}

static struct json_object *msg_of(const char *type)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string(type));
	return o;
}

int bc_peer_session_open(const struct bc_client_cfg *c, struct bc_peer_session **out,
			 struct bc_error *err)
{
	struct sockaddr_storage peer;
	struct bc_peer_session *s;
	struct json_object *m;
	int r;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return bc_error_set(err, -ENOMEM, "out of memory");
	snprintf(s->peer, sizeof(s->peer), "%s", c->peer ? c->peer : "?");
	s->fd = bc_client_connect(c, &peer, err);
	if (s->fd < 0) {
		r = s->fd;
		free(s);
		return r;
	}
	r = call(s, msg_of("changes"), "changes-ready", 10000, &m, err);
	if (r < 0) {
		bc_peer_session_close(s);
		return r;
	}
	json_object_put(m);
	*out = s;
	return 0;
}

int bc_peer_journal(struct bc_peer_session *s, const char *bond, struct bc_error *err)
{
	struct json_object *o = msg_of("journal"), *m, *st;
	int r;

	json_object_object_add(o, "bond", json_object_new_string(bond ? bond : ""));
	r = call(s, o, "journaled", 30000, &m, err);
	if (r < 0)
		return r;
	json_object_put(s->state);
	s->state = json_object_object_get_ex(m, "state", &st) ? json_object_get(st) : NULL;
	json_object_put(m);
	return 0;
}

struct json_object *bc_peer_journal_state(struct bc_peer_session *s)
{
	return s ? s->state : NULL;
}

int bc_peer_change(struct bc_peer_session *s, const char *op, const char *slave, uint32_t mtu,
		   struct bc_error *err)
{
	struct json_object *o = msg_of("change"), *m, *v;
	int r;

	json_object_object_add(o, "op", json_object_new_string(op ? op : ""));
	json_object_object_add(o, "slave", json_object_new_string(slave ? slave : ""));
	if (op && !strcmp(op, BC_CHANGE_MTU))
		json_object_object_add(o, "mtu", json_object_new_int64(mtu));
	json_object_object_add(o, "timeout_ms", json_object_new_int(BC_CHANGE_WAIT_DEFAULT_MS));
	r = call(s, o, "changed", BC_CHANGE_WAIT_DEFAULT_MS + 15000, &m, err);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(m, "stable", &v) && !json_object_get_boolean(v))
		r = bc_error_set(err, -EAGAIN,
				 "agent %s: %s %s done, but the bond is not stable: %s", s->peer,
				 op, slave, bc_json_str(m, "not_stable"));
	json_object_put(m);
	return r;
}

int bc_peer_restore(struct bc_peer_session *s, struct json_object **report, struct bc_error *err)
{
	struct json_object *m, *rep;
	const char *result;
	int r;

	if (report)
		*report = NULL;
	r = call(s, msg_of("restore"), "restored", BC_RESTORE_WAIT_MS + 30000, &m, err);
	if (r < 0)
		return r;
	if (report && json_object_object_get_ex(m, "report", &rep))
		*report = json_object_get(rep);
	result = bc_json_str(m, "result");
	if (!strcmp(result, "not-stable"))
		r = bc_error_set(err, -EAGAIN,
				 "agent %s: its bond's fields are restored, but it did not settle",
				 s->peer);
	else if (strcmp(result, "restored"))
		r = bc_error_set(err, -EIO,
				 "agent %s could not restore every field of its bond (see the "
				 "report); its journal is kept there for `bondcheck restore`",
				 s->peer);
	json_object_put(m);
	return r;
}

void bc_peer_session_close(struct bc_peer_session *s)
{
	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	json_object_put(s->state);
	free(s);
}
