// SPDX-License-Identifier: GPL-2.0-or-later
/* Client side of a change session: placeholder until the agent side lands. */
#include <errno.h>
#include <stdlib.h>

#include "bondcheck/peer-session.h"

int bc_peer_session_open(const struct bc_client_cfg *c, struct bc_peer_session **s,
			 struct bc_error *err)
{
	(void)c;
	*s = NULL;
	return bc_error_set(err, -ENOSYS, "change sessions are not built yet");
}

int bc_peer_journal(struct bc_peer_session *s, const char *bond, struct bc_error *err)
{
	(void)s;
	(void)bond;
	return bc_error_set(err, -ENOSYS, "change sessions are not built yet");
}

struct json_object *bc_peer_journal_state(struct bc_peer_session *s)
{
	(void)s;
	return NULL;
}

int bc_peer_change(struct bc_peer_session *s, const char *op, const char *slave, uint32_t mtu,
		   struct bc_error *err)
{
	(void)s;
	(void)op;
	(void)slave;
	(void)mtu;
	return bc_error_set(err, -ENOSYS, "change sessions are not built yet");
}

int bc_peer_restore(struct bc_peer_session *s, struct json_object **report, struct bc_error *err)
{
	(void)s;
	if (report)
		*report = NULL;
	return bc_error_set(err, -ENOSYS, "change sessions are not built yet");
}

void bc_peer_session_close(struct bc_peer_session *s)
{
	free(s);
}
