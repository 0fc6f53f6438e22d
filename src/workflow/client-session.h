/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The client's authenticated control session without a test, for the
 * messages other than `test` (docs/protocol.md): `run-to` (matrix).
 */
#ifndef BC_WORKFLOW_CLIENT_SESSION_H
#define BC_WORKFLOW_CLIENT_SESSION_H

#include <sys/socket.h>

#include <json-c/json.h>

#include "bondcheck/client.h"
#include "bondcheck/error.h"

/*
 * bc_client_session_open() - connect to @c->peer port @c->port within
 * @c->connect_timeout_ms and authenticate with @c->key (hello, challenge,
 * auth, welcome; a client with a key requires the agent's proof).  Returns
 * the connected socket and the agent's address in *@peer; the errors of
 * bc_client_run(): -EHOSTUNREACH/-ECONNREFUSED/-ETIMEDOUT/-ENOENT
 * (unreachable), -EPROTONOSUPPORT, -EACCES (key), -EBUSY, -EPROTO.
 */
int bc_client_session_open(const struct bc_client_cfg *c, struct sockaddr_storage *peer,
			   struct bc_error *err);

/*
 * bc_client_expect() - receive one message of @type within @timeout_ms.  An
 * error reply becomes -errno (auth-failed/auth-required -EACCES, bad-plan
 * -EINVAL, busy -EBUSY, port-in-use -EADDRINUSE, version -EPROTONOSUPPORT,
 * others -EPROTO) with the agent's message; another type is -EPROTO.
 */
int bc_client_expect(int fd, const char *type, int timeout_ms, struct json_object **out,
		     struct bc_error *err);

#endif
