// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The agent's end of `run-to`: a test relayed to another agent (matrix).
 * Message and error codes: docs/protocol.md "Relayed tests"; the security
 * argument: workflow/agent-relay.h and docs/security.md.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/client.h"
#include "bondcheck/ctl.h"
#include "bondcheck/json-get.h"
#include "workflow/agent-relay.h"

#define RELAY_HOST_MAX 253 /* a DNS name (RFC 1035) or an address literal */

static void relay_say(const struct bc_agent_cfg *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void relay_say(const struct bc_agent_cfg *c, const char *fmt, ...)
{
	char buf[640];
	va_list ap;

	if (!c->log)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	c->log(c->log_ctx, buf);
}

static int refuse(const struct bc_agent_cfg *c, int fd, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int refuse(const struct bc_agent_cfg *c, int fd, const char *code, const char *fmt, ...)
{
	char buf[BC_ERROR_MSG_MAX + 128];
	struct json_object *e;
	va_list ap;
	int r;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	relay_say(c, "run-to refused: %s", buf);
	e = bc_ctl_error_msg(code, "%s", buf);
	r = bc_ctl_send(fd, e, 5000, NULL);
	json_object_put(e);
	return r < 0 ? r : 0;
}

/* A host name or address literal: printable, no blanks, no '/', bounded. */
static bool host_ok(const char *h)
{
	size_t n = strlen(h);

	if (n == 0 || n > RELAY_HOST_MAX || h[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (h[i] <= ' ' || h[i] > '~' || h[i] == '/')
			return false;
	return true;
}

static const char *peer_code(int r)
{
	switch (r) {
	case -EHOSTUNREACH:
	case -ENETUNREACH:
	case -ECONNREFUSED:
	case -ETIMEDOUT:
	case -ENOENT:
		return BC_CTL_E_PEER_UNREACHABLE;
	case -EACCES:
		return BC_CTL_E_PEER_AUTH;
	case -EBUSY:
		return BC_CTL_E_PEER_BUSY;
	default:
		return BC_CTL_E_PEER_FAILED;
	}
}

int bc_agent_relay(const struct bc_agent_cfg *c, int fd, struct json_object *msg)
{
	struct bc_client_cfg cc;
	struct bc_error err = {0};
	struct json_object *v, *res = NULL, *o;
	const char *peer;
	int64_t port = BC_CTL_PORT;
	int r;

	if (!c->key.len)
		return refuse(c, fd, BC_CTL_E_AUTH_REQUIRED,
			      "run-to needs an agent started with --auth-key: a relayed test runs "
			      "only between agents that prove the same key to each other");
	peer = bc_json_str(msg, "peer");
	if (!json_object_object_get_ex(msg, "peer", &v) ||
	    !json_object_is_type(v, json_type_string) || !host_ok(peer))
		return refuse(c, fd, BC_CTL_E_BAD_PLAN,
			      "run-to: \"peer\" must be a host name or address (1..%d printable "
			      "characters, no blanks)",
			      RELAY_HOST_MAX);
	if (json_object_object_get_ex(msg, "port", &v)) {
		port = json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -1;
		if (port < 1 || port > 65535)
			return refuse(c, fd, BC_CTL_E_BAD_PLAN,
				      "run-to: \"port\" is %s; expected 1..65535",
				      json_object_get_string(v));
	}
	bc_client_cfg_defaults(&cc);
	v = json_object_object_get_ex(msg, "plan", &v) ? v : NULL;
	r = bc_plan_from_json(v, &c->limits, &cc.plan, &err);
	if (r < 0)
		return refuse(c, fd, BC_CTL_E_BAD_PLAN, "run-to: %s", err.msg);
	if (cc.plan.capture || cc.plan.place_k)
		return refuse(c, fd, BC_CTL_E_BAD_PLAN,
			      "run-to relays plain tests: \"capture\" and \"place_per_slave\" must "
			      "be absent");
	cc.peer = peer;
	cc.port = (uint16_t)port;
	cc.key = c->key; /* the other agent must prove this key before any test traffic */
	relay_say(c, "run-to: testing towards %s port %lld (%s, %u stream(s), %u ms%s)", peer,
		  (long long)port, cc.plan.proto == BC_L4_UDP ? "UDP" : "TCP", cc.plan.streams,
		  cc.plan.duration_ms, cc.plan.df ? ", DF probe" : "");
	r = bc_client_run(&cc, &res, &err);
	if (r < 0)
		return refuse(c, fd, peer_code(r), "agent %s: %s", peer, err.msg);
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("relayed"));
	json_object_object_add(o, "peer", json_object_new_string(peer));
	json_object_object_add(o, "port", json_object_new_int((int)port));
	json_object_object_add(o, "result", res);
	r = bc_ctl_send(fd, o, 10000, &err);
	json_object_put(o);
	if (r < 0) {
		relay_say(c, "run-to: the result for %s could not be sent: %s", peer, err.msg);
		return r;
	}
	relay_say(c, "run-to: test towards %s done", peer);
	return 1;
}
