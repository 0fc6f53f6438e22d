// SPDX-License-Identifier: GPL-2.0-or-later
/* Options that several commands share: see cli/cli.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "bondcheck/ctl-auth.h"
#include "bondcheck/error.h"
#include "cli/cli.h"

int bc_cli_bad(const char *cmd, const char *opt, const char *val, const char *allowed)
{
	fprintf(stderr, "bondcheck %s: %s '%s' is invalid; expected %s\n", cmd, opt, val, allowed);
	return BC_EXIT_USAGE;
}

int bc_cli_port(const char *cmd, const char *arg, uint16_t *port)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < 1 || v > 65535)
		return bc_cli_bad(cmd, "--port", arg, "a port number 1..65535");
	*port = (uint16_t)v;
	return BC_EXIT_OK;
}

int bc_cli_auth_key(const char *cmd, const char *path, struct bc_auth_key *key)
{
	struct bc_error err = {0};

	if (bc_auth_key_load(path, key, &err) < 0) {
		fprintf(stderr, "bondcheck %s: --auth-key: %s\n", cmd, err.msg);
		return err.code == -EINVAL ? BC_EXIT_USAGE : BC_EXIT_ENV;
	}
	return BC_EXIT_OK;
}
