// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test driver for the journal and change API (netns and vm tests): each
 * sub-command calls one library function and prints its result, so the
 * shell tests can check the library without `scale` or `failover`.
 *
 *   save BOND PATH                 bc_journal_capture + bc_journal_save
 *   show PATH                      bc_journal_load, the JSON on stdout
 *   set-up IF 0|1 | set-mtu IF N | set-mac IF MAC | master IF MASTER|-
 *   wait BOND MS                   bc_bond_wait_stable
 *   peer HOST KEYFILE|- BOND OP... a change session: journal BOND, then each
 *                                  OP (down:IF up:IF mtu:IF:N sleep:S
 *                                  restore hold kill-self close); prints one
 *                                  JSON line per step
 * Exit: 0 ok, 1 the call failed (message on stderr), 2 usage.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bondcheck/bond-change.h"
#include "bondcheck/journal.h"
#include "bondcheck/peer-session.h"

static int fail(const struct bc_error *e)
{
	fprintf(stderr, "bc-journal-tool: %s\n", e->msg[0] ? e->msg : "failed");
	return 1;
}

static void step(const char *what, int r, const struct bc_error *e, struct json_object *extra)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "step", json_object_new_string(what));
	json_object_object_add(o, "rc", json_object_new_int(r));
	json_object_object_add(o, "error", json_object_new_string(r ? e->msg : ""));
	if (extra)
		json_object_object_add(o, "data", extra);
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	fflush(stdout);
	json_object_put(o);
}

static int peer(int argc, char **argv)
{
	struct bc_client_cfg c;
	struct bc_peer_session *s = NULL;
	struct bc_error e = {0};
	int r;

	bc_client_cfg_defaults(&c);
	c.peer = argv[0];
	if (strcmp(argv[1], "-") && bc_auth_key_load(argv[1], &c.key, &e) < 0)
		return fail(&e);
	r = bc_peer_session_open(&c, &s, &e);
	step("open", r, &e, NULL);
	if (r < 0)
		return 1;
	bc_error_clear(&e);
	r = bc_peer_journal(s, argv[2], &e);
	step("journal", r, &e,
	     r == 0 && bc_peer_journal_state(s) ? json_object_get(bc_peer_journal_state(s)) : NULL);
	for (int i = 3; i < argc; i++) {
		char op[64], *a = argv[i], *b = strchr(a, ':');
		struct json_object *rep = NULL;

		bc_error_clear(&e);
		snprintf(op, sizeof(op), "%s", a);
		if (!strncmp(a, "down:", 5)) {
			r = bc_peer_change(s, BC_CHANGE_SLAVE_DOWN, a + 5, 0, &e);
		} else if (!strncmp(a, "up:", 3)) {
			r = bc_peer_change(s, BC_CHANGE_SLAVE_UP, a + 3, 0, &e);
		} else if (!strncmp(a, "mtu:", 4) && b && strchr(b + 1, ':')) {
			char ifn[32];

			snprintf(ifn, sizeof(ifn), "%.*s", (int)(strchr(b + 1, ':') - b - 1),
				 b + 1);
			r = bc_peer_change(s, BC_CHANGE_MTU, ifn,
					   (uint32_t)strtoul(strchr(b + 1, ':') + 1, NULL, 10), &e);
		} else if (!strncmp(a, "sleep:", 6)) {
			usleep((useconds_t)(atof(a + 6) * 1e6));
			r = 0;
		} else if (!strcmp(a, "restore")) {
			r = bc_peer_restore(s, &rep, &e);
		} else if (!strcmp(a, "hold")) {
			pause();
			r = 0;
		} else if (!strcmp(a, "kill-self")) {
			step(op, 0, &e, NULL);
			kill(getpid(), SIGKILL);
			r = 0;
		} else if (!strcmp(a, "close")) {
			bc_peer_session_close(s);
			s = NULL;
			r = 0;
		} else if (!strncmp(a, "raw-change:", 11)) {
			/* a change op the client API would not send: op name as given */
			r = bc_peer_change(s, a + 11, "lo", 0, &e);
		} else {
			fprintf(stderr, "bc-journal-tool: unknown peer op '%s'\n", a);
			return 2;
		}
		step(op, r, &e, rep);
		if (!s)
			break;
	}
	bc_peer_session_close(s);
	return 0;
}

int main(int argc, char **argv)
{
	struct bc_journal *j = NULL;
	struct bc_error e = {0};
	int r;

	if (argc < 2)
		goto usage;
	if (!strcmp(argv[1], "save") && argc == 4) {
		r = bc_journal_capture(argv[2], &j, &e);
		if (r == 0)
			r = bc_journal_save(j, argv[3], &e);
		bc_journal_free(j);
		return r < 0 ? fail(&e) : 0;
	}
	if (!strcmp(argv[1], "show") && argc == 3) {
		struct json_object *o;

		r = bc_journal_load(argv[2], &j, &e);
		if (r < 0)
			return fail(&e);
		o = bc_journal_to_json(j);
		printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY));
		json_object_put(o);
		bc_journal_free(j);
		return 0;
	}
	if (!strcmp(argv[1], "set-up") && argc == 4)
		return bc_link_set_up(argv[2], atoi(argv[3]) != 0, &e) < 0 ? fail(&e) : 0;
	if (!strcmp(argv[1], "set-mtu") && argc == 4)
		return bc_link_set_mtu(argv[2], (uint32_t)strtoul(argv[3], NULL, 10), &e) < 0
			       ? fail(&e)
			       : 0;
	if (!strcmp(argv[1], "set-mac") && argc == 4)
		return bc_link_set_mac(argv[2], argv[3], &e) < 0 ? fail(&e) : 0;
	if (!strcmp(argv[1], "master") && argc == 4)
		return bc_link_set_master(argv[2], strcmp(argv[3], "-") ? argv[3] : NULL, &e) < 0
			       ? fail(&e)
			       : 0;
	if (!strcmp(argv[1], "wait") && argc == 4)
		return bc_bond_wait_stable(argv[2], atoi(argv[3]), &e) < 0 ? fail(&e) : 0;
	if (!strcmp(argv[1], "peer") && argc >= 5)
		return peer(argc - 2, argv + 2);
usage:
	fprintf(stderr, "usage: bc-journal-tool save BOND PATH | show PATH | set-up IF 0|1 | "
			"set-mtu IF N | set-mac IF MAC | master IF MASTER|- | wait BOND MS | "
			"peer HOST KEYFILE|- BOND OP...\n");
	return 2;
}
