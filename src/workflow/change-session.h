/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The agent's change session (docs/protocol.md "Changes"): one at a time,
 * in its own thread beside the test sessions, holding the journal of the
 * one bond it may change.  It restores that bond when the session ends in
 * any way and when the agent is told to quit.
 */
#ifndef BC_WORKFLOW_CHANGE_SESSION_H
#define BC_WORKFLOW_CHANGE_SESSION_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>

#include <json-c/json.h>

#include "bondcheck/agent.h"

/* Default and largest waits the client may ask for, ms. */
#define BC_CHANGE_WAIT_DEFAULT_MS 30000
#define BC_CHANGE_WAIT_MAX_MS	  120000
#define BC_RESTORE_WAIT_MS	  60000

struct bc_change_srv {
	pthread_t th;
	bool started;	    /* a thread exists (joined by stop or the next start) */
	atomic_int running; /* the session is live */
	atomic_int stop;    /* asked to end: restore and leave */
	const struct bc_agent_cfg *cfg;
	volatile sig_atomic_t *quit;
	int fd;
	struct json_object *first; /* the message that opened the session */
	char peer[64];
};

/* bc_change_srv_busy() - a change session is live. */
bool bc_change_srv_busy(struct bc_change_srv *s);

/*
 * bc_change_srv_start() - serve @fd (authenticated) as a change session in
 * a new thread, starting with message @first (ownership taken).  The
 * thread owns @fd.  Returns 0; -EBUSY when a session is live; -errno.
 */
int bc_change_srv_start(struct bc_change_srv *s, const struct bc_agent_cfg *c, int fd,
			struct json_object *first, const char *peer, volatile sig_atomic_t *quit);

/* bc_change_srv_stop() - end the session (its bond is restored) and join. */
void bc_change_srv_stop(struct bc_change_srv *s);

#endif
