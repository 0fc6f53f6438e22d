// SPDX-License-Identifier: GPL-2.0-or-later
/* Options that several commands share: see cli/cli.h. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/ctl-auth.h"
#include "bondcheck/error.h"
#include "bondcheck/file.h"
#include "cli/cli.h"

#include <json-c/json.h>

int bc_cli_bad(const char *cmd, const char *opt, const char *val, const char *allowed)
{
	fprintf(stderr, "bondcheck %s: %s '%s' is invalid; expected %s\n", cmd, opt, val, allowed);
	return BC_EXIT_USAGE;
}

/* The long option of @longopts that @arg ("--name" or "--name=value") names
 * exactly, or NULL; *@n_prefix counts the options it is a prefix of. */
static const struct option *long_named(const char *arg, const struct option *longopts,
				       size_t *n_prefix)
{
	size_t len = strcspn(arg + 2, "=");
	const struct option *exact = NULL;

	*n_prefix = 0;
	for (const struct option *o = longopts; o && o->name; o++) {
		if (strncmp(o->name, arg + 2, len))
			continue;
		(*n_prefix)++;
		if (strlen(o->name) == len)
			exact = o;
	}
	return exact;
}

int bc_cli_opt_error(const char *cmd, int c, char **argv, const struct option *longopts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	const struct option *o = NULL;
	size_t n = 0;
	int len;

	if (arg && !strncmp(arg, "--", 2) && arg[2]) {
		o = long_named(arg, longopts, &n);
		len = (int)strcspn(arg, "=");
		if (c == ':')
			fprintf(stderr, "bondcheck %s: option '%.*s' expects a value", cmd, len,
				arg);
		else if (o && strchr(arg, '='))
			fprintf(stderr, "bondcheck %s: option '%.*s' takes no value", cmd, len,
				arg);
		else if (n > 1)
			fprintf(stderr, "bondcheck %s: option '%.*s' is ambiguous", cmd, len, arg);
		else
			fprintf(stderr, "bondcheck %s: unknown option '%.*s'", cmd, len, arg);
	} else if (c == ':') {
		fprintf(stderr, "bondcheck %s: option '-%c' expects a value", cmd, optopt);
	} else if (optopt > ' ' && optopt < 127) {
		fprintf(stderr, "bondcheck %s: unknown option '-%c'", cmd, optopt);
	} else {
		fprintf(stderr, "bondcheck %s: unknown option '%s'", cmd, arg ? arg : "");
	}
	fprintf(stderr, "; see `bondcheck %s --help`\n", cmd);
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

/* The 1-based line of byte @off in @text. */
static unsigned line_of(const char *text, size_t off)
{
	unsigned line = 1;

	for (size_t i = 0; i < off; i++)
		line += text[i] == '\n';
	return line;
}

int bc_cli_read_json(const char *cmd, const char *opt, const char *path, struct json_object **doc)
{
	struct json_tokener *tok;
	struct bc_error err = {0};
	enum json_tokener_error je;
	size_t len = 0, off;
	char *text = NULL;
	int r;

	*doc = NULL;
	r = bc_file_read_capped(path, (size_t)1 << 30, "a bondcheck JSON document",
				"a saved document is a few MiB", &text, &len, &err);
	if (r < 0) {
		if (r == -ENOENT || r == -EACCES || r == -EPERM)
			fprintf(stderr, "bondcheck %s: %s %s: cannot open it: %s\n", cmd, opt, path,
				strerror(-r));
		else
			fprintf(stderr, "bondcheck %s: %s %s: %s\n", cmd, opt, path, err.msg);
		return BC_EXIT_DATA;
	}
	tok = json_tokener_new();
	if (!tok) {
		free(text);
		fprintf(stderr, "bondcheck %s: %s %s: out of memory\n", cmd, opt, path);
		return BC_EXIT_ENV;
	}
	*doc = len ? json_tokener_parse_ex(tok, text, (int)len) : NULL;
	je = json_tokener_get_error(tok);
	off = json_tokener_get_parse_end(tok);
	if (!len || je == json_tokener_continue) {
		fprintf(stderr, "bondcheck %s: %s %s: not a JSON document: it ends early%s\n", cmd,
			opt, path, len ? " (cut short?)" : " (the file is empty)");
	} else if (je != json_tokener_success) {
		fprintf(stderr, "bondcheck %s: %s %s: not a JSON document: %s at line %u\n", cmd,
			opt, path, json_tokener_error_desc(je),
			line_of(text, off < len ? off : len));
	} else if (!json_object_is_type(*doc, json_type_object)) {
		fprintf(stderr,
			"bondcheck %s: %s %s: a JSON %s, not a bondcheck document (an "
			"object)\n",
			cmd, opt, path, json_type_to_name(json_object_get_type(*doc)));
	} else {
		json_tokener_free(tok);
		free(text);
		return BC_EXIT_OK;
	}
	json_object_put(*doc);
	*doc = NULL;
	json_tokener_free(tok);
	free(text);
	return BC_EXIT_DATA;
}
