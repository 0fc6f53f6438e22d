/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The client's end of a change session with an agent (docs/protocol.md,
 * "Changes"): `scale --method links`, `failover` and `sweep` ask the agent
 * to journal its bond, change its slaves and restore it.
 *
 * A change session is its own control connection, separate from the test
 * connections of bc_client_run(): open it before the first test and keep it
 * open while tests run; the agent serves tests on other connections
 * meanwhile.  The agent restores its bond as soon as this connection ends
 * in any way (close, client crash, network loss detected by TCP keepalive,
 * idle timeout), so keep it open for as long as the changes must last.
 *
 * Usage:
 *   bc_peer_session_open(&cfg, &s, &err);      // handshake (key if set), "changes"
 *   bc_peer_journal(s, "bond0", &err);          // agent journals and saves
 *   bc_peer_change(s, "slave-down", "eth2", 0, &err);
 *   ... tests with bc_client_run() ...
 *   bc_peer_restore(s, &report, &err);          // explicit restore + report
 *   bc_peer_session_close(s);                   // agent restores if not yet
 */
#ifndef BONDCHECK_PEER_SESSION_H
#define BONDCHECK_PEER_SESSION_H

#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/client.h"
#include "bondcheck/error.h"

struct bc_peer_session;

/* Ops of bc_peer_change() and of the "change" message. */
#define BC_CHANGE_SLAVE_DOWN "slave-down"
#define BC_CHANGE_SLAVE_UP   "slave-up"
#define BC_CHANGE_MTU	     "mtu"

/*
 * bc_peer_session_open() - connect to @c->peer:@c->port (only peer, port,
 * family, key and connect_timeout_ms are used), authenticate and ask for a
 * change session.  Returns 0 and *@s; -EPERM when the agent runs without
 * --allow-changes (code changes-not-allowed); -EBUSY when another change
 * session holds the agent; -EACCES authentication; the errors of
 * bc_client_run() for connecting.
 */
int bc_peer_session_open(const struct bc_client_cfg *c, struct bc_peer_session **s,
			 struct bc_error *err);

/*
 * bc_peer_journal() - the agent journals @bond in its netns and saves the
 * journal (its BC_JOURNAL_DIR).  Only one bond per session.  Returns 0;
 * -ENODEV no such bond there; -EEXIST an earlier journal of that bond is
 * unrestored on the agent (run `bondcheck restore` there); -EPERM no
 * --allow-changes; -EINVAL a second bond in the same session.
 */
int bc_peer_journal(struct bc_peer_session *s, const char *bond, struct bc_error *err);

/*
 * bc_peer_journal_state() - the journal the agent sent in its "journaled"
 * reply (bc_journal_to_json() shape: bond, slaves in enslave order with
 * their MACs, ...), borrowed, valid until close; NULL before a journal.
 */
struct json_object *bc_peer_journal_state(struct bc_peer_session *s);

/*
 * bc_peer_change() - @op is BC_CHANGE_SLAVE_DOWN / BC_CHANGE_SLAVE_UP
 * (admin state of @slave, a slave of the journaled bond) or BC_CHANGE_MTU
 * (@mtu bytes on @slave, which may also be the bond itself).  The agent
 * replies once bc_bond_wait_stable() holds (or with "stable": false after
 * its wait).  Returns 0; -EPERM not allowed (no --allow-changes, or @slave
 * is not in the journaled bond: code change-refused); -ENOENT no journal
 * yet; -EINVAL bad op or MTU; -EAGAIN the change was made but the bond did
 * not become stable in time; -EIO the kernel refused (message says why).
 */
int bc_peer_change(struct bc_peer_session *s, const char *op, const char *slave, uint32_t mtu,
		   struct bc_error *err);

/*
 * bc_peer_restore() - the agent restores its journal now and replies with
 * the bc_journal_restore() report (*@report new, may be NULL to drop it).
 * Returns the agent's bc_journal_restore() result: 0, -EAGAIN (fields back,
 * LACP not settled), -EIO (a field not restored).  The session stays open
 * (a later change needs a new journal).
 */
int bc_peer_restore(struct bc_peer_session *s, struct json_object **report, struct bc_error *err);

/* bc_peer_session_close() - close; the agent restores when not yet done.  NULL allowed. */
void bc_peer_session_close(struct bc_peer_session *s);

#endif
