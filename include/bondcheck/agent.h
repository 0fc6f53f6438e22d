/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * `bondcheck serve`: the agent side of the control protocol (docs/protocol.md).
 *
 * One test at a time; each control connection is a session, served by a
 * thread of its own: hello, challenge, auth, then test plans until one
 * runs.  The agent sends test traffic only to the address of an
 * authenticated control connection (DESIGN.md "Security model of the
 * agent"), binds its data sockets to the address the control connection
 * arrived on, and caps streams, duration and rate.  Every session has
 * whole-phase deadlines (handshake, setup) and at most 8 error replies;
 * the agent caps concurrent sessions overall and per client address.
 * Malformed, oversized or slow messages get an error reply; the agent
 * keeps serving (docs/security.md).
 */
#ifndef BONDCHECK_AGENT_H
#define BONDCHECK_AGENT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "bondcheck/ctl-auth.h"
#include "bondcheck/error.h"
#include "bondcheck/plan.h"

struct bc_agent_cfg {
	const char *bind_addr;	/* NULL: every address (IPv6 socket, dual stack) */
	uint16_t port;		/* control port, BC_CTL_PORT */
	bool once;		/* exit after one session that ran a test */
	struct bc_auth_key key; /* len 0: no key required */
	struct bc_plan_limits limits;
	int idle_timeout_ms; /* longest wait for a control message outside a test */
	/* whole-phase deadlines from the connection's accept, however slowly the
	 * bytes arrive: hello to welcome; welcome to the test's "start" */
	int handshake_timeout_ms, setup_timeout_ms;
	/* concurrent control connections: in all, and from one address; beyond
	 * them a newcomer gets `busy` and is closed */
	unsigned max_sessions, max_sessions_per_host;
	/* test only (serve --test-read-stall MS --test-rcvbuf BYTES, docs/run.md): the
	 * receivers' SO_RCVBUF and a delay before they start reading; 0: off */
	uint32_t test_read_stall_ms, test_rcvbuf;
	/* serve --allow-changes: accept change sessions (journal, change,
	 * restore; docs/protocol.md "Changes"); false: every change request is
	 * answered changes-not-allowed */
	bool allow_changes;
	/* a change session that sends nothing for this long ends and its bond
	 * is restored (TCP keepalive catches a vanished client sooner) */
	int change_idle_timeout_ms;
	/* test only (serve --test-any-master, hidden): journal and change a master
	 * that is not a bond (a bridge), for hosts without the bonding driver */
	bool test_any_master;
	/* test only (serve --test-clock-offset MS): the agent's CLOCK_REALTIME
	 * readings (test datagram stamps, receive times, the time_ns it tells the
	 * client) are off by this much, as if its clock were; 0: off */
	int64_t test_clock_offset_ns;
	/* progress and problems; the library never prints.  NULL: silent */
	void (*log)(void *ctx, const char *msg);
	void *log_ctx;
};

/*
 * bc_agent_cfg_defaults() - port 5301, 128 streams, 1 h, 100 Gbit/s, 30 s
 * idle, handshake 10 s, setup 60 s, 32 sessions, 8 per client address, no
 * changes, 1 h change-session idle timeout.
 */
void bc_agent_cfg_defaults(struct bc_agent_cfg *c);

/*
 * bc_agent_listen() - the control socket.  Returns the fd; -EADDRINUSE when
 * the port is taken; -EADDRNOTAVAIL / -EINVAL for a bad bind address.
 */
int bc_agent_listen(const struct bc_agent_cfg *c, struct bc_error *err);

/*
 * bc_agent_serve() - accept and serve sessions until *@quit is set, or,
 * with cfg->once, after the first session that ran a test (and once a
 * change session has ended); then every session still open is shut down (a
 * running test ends as if its client had gone) and joined, and the change
 * session's journaled bond is restored.  A change session runs in its own
 * thread beside the test sessions; when *@quit is set, or the session ends
 * in any way, its bond is restored before this returns.  Session threads
 * block SIGINT and SIGTERM.  Returns 0, -EINVAL for a zero session limit,
 * or -errno for a failure of the listening socket itself.
 */
int bc_agent_serve(const struct bc_agent_cfg *c, int listen_fd, volatile sig_atomic_t *quit,
		   struct bc_error *err);

#endif
