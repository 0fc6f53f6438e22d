// SPDX-License-Identifier: GPL-2.0-or-later
/* Options that several commands share: see cli/cli.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int bc_cli_write_csv(const char *cmd, const char *path, struct json_object *doc,
		     void (*csv)(FILE *out, struct json_object *doc))
{
	bool to_stdout = !strcmp(path, "-");
	FILE *f = to_stdout ? stdout : fopen(path, "we");

	if (!f) {
		fprintf(stderr, "bondcheck %s: --csv %s: cannot write: %s\n", cmd, path,
			strerror(errno));
		return BC_EXIT_ENV;
	}
	csv(f, doc);
	if (to_stdout ? fflush(f) != 0 : fclose(f) != 0) {
		fprintf(stderr, "bondcheck %s: --csv %s: %s\n", cmd, path, strerror(errno));
		return BC_EXIT_ENV;
	}
	return BC_EXIT_OK;
}

int bc_cli_write_plot(const char *cmd, const char *dir, const char *name,
		      struct json_object *doc,
		      int (*plot)(const char *path, struct json_object *doc, struct bc_error *err))
{
	struct bc_error err = {0};
	char path[4096];
	int r;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	r = plot(path, doc, &err);
	if (r == 0) {
		fprintf(stderr, "bondcheck %s: wrote %s\n", cmd, path);
		return BC_EXIT_OK;
	}
	fprintf(stderr, "bondcheck %s: no %s: %s\n", cmd, path, err.msg);
	return r == -ENODATA ? BC_EXIT_OK : BC_EXIT_ENV;
}
