/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The client's control connection without a test: connect and authenticate
 * (hello, challenge, auth, welcome; docs/protocol.md).  Used by the change
 * session (bondcheck/peer-session.h).
 */
#ifndef BC_WORKFLOW_CLIENT_CONN_H
#define BC_WORKFLOW_CLIENT_CONN_H

#include <sys/socket.h>

#include "bondcheck/client.h"

/*
 * bc_client_connect() - connect to @c->peer:@c->port and complete the
 * handshake with @c->key.  Returns the connected fd (caller closes) and the
 * agent's address in *@peer; the errors of bc_client_run() otherwise.
 */
int bc_client_connect(const struct bc_client_cfg *c, struct sockaddr_storage *peer,
		      struct bc_error *err);

#endif
