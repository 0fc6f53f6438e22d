// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The error object of -j (issue 15 item 8, docs/json.md "Errors"): a
 * command that fails with exit 2, 3 or 4 under -j prints
 *   {"error": {"exit": N, "kind": "usage|environment|input", "message": "..."}}
 * on stdout, as well as its human message on stderr.  The commands say
 * their errors on stderr, in many places; rather than thread a message
 * through each, main() copies stderr as it is written (a cookie stream that
 * writes through to file descriptor 2) and keeps the command's first
 * "bondcheck CMD: " line as the message.  Nothing is added when the command
 * has already printed on stdout (a suite cut short prints its document, with
 * "incomplete": true): stdout then holds that one JSON value.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli/cli.h"

#define MSG_MAX 1024

static struct {
	char cmd[32];
	char line[MSG_MAX]; /* the line being written */
	size_t n_line;
	char message[MSG_MAX];	/* the first "bondcheck CMD: " line */
	char fallback[MSG_MAX]; /* the first non-empty line */
	size_t out_bytes;	/* written on stdout */
	bool one_line;		/* --json-line: the object on one line (pdsh/clush) */
	FILE *real_stdout;
} cap;

bool bc_cli_json_requested(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool flags = a[0] == '-' && a[1] && a[1] != '-';

		if (!strcmp(a, "--"))
			break;
		if (!strcmp(a, "--json") || !strncmp(a, "--json=", 7))
			return true;
		/* -j alone or in a cluster of flags (-qj); not a value (-l1472) */
		for (const char *p = a + 1; flags && *p; p++)
			if ((*p < 'a' || *p > 'z') && (*p < 'A' || *p > 'Z'))
				flags = false;
		if (flags && strchr(a + 1, 'j'))
			return true;
	}
	return false;
}

const char *bc_cli_error_kind(int status)
{
	switch (status) {
	case BC_EXIT_USAGE:
		return "usage";
	case BC_EXIT_ENV:
		return "environment";
	case BC_EXIT_DATA:
		return "input";
	default:
		return NULL;
	}
}

struct json_object *bc_cli_error_json(int status, const char *message)
{
	const char *kind = bc_cli_error_kind(status);
	struct json_object *o, *e;

	if (!kind)
		return NULL;
	e = json_object_new_object();
	json_object_object_add(e, "exit", json_object_new_int(status));
	json_object_object_add(e, "kind", json_object_new_string(kind));
	json_object_object_add(e, "message",
			       json_object_new_string(message && *message ? message : "(none)"));
	o = json_object_new_object();
	json_object_object_add(o, "error", e);
	return o;
}

void bc_cli_error_line(char *message, size_t len, const char *cmd, const char *line)
{
	char prefix[48];
	const char *p = strrchr(line, '\r');
	size_t n;

	p = p ? p + 1 : line;
	if (!strncmp(p, "\033[K", 3)) /* a progress line erased */
		p += 3;
	n = (size_t)snprintf(prefix, sizeof(prefix), "bondcheck %s: ", cmd);
	if (message[0] || strncmp(p, prefix, n))
		return;
	snprintf(message, len, "%s", p + n);
}

/* A complete line of stderr: the message if it is the first of the command's. */
static void line_done(void)
{
	const char *p;

	cap.line[cap.n_line] = '\0';
	bc_cli_error_line(cap.message, sizeof(cap.message), cap.cmd, cap.line);
	p = strrchr(cap.line, '\r');
	p = p ? p + 1 : cap.line;
	if (!cap.fallback[0] && *p && strncmp(p, "\033[K", 3))
		snprintf(cap.fallback, sizeof(cap.fallback), "%s", p);
	cap.n_line = 0;
}

static ssize_t write_all(int fd, const char *buf, size_t size)
{
	size_t done = 0;

	while (done < size) {
		ssize_t w = write(fd, buf + done, size - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return done ? (ssize_t)done : -1;
		done += (size_t)w;
	}
	return (ssize_t)done;
}

static ssize_t err_write(void *cookie, const char *buf, size_t size)
{
	ssize_t w = write_all(STDERR_FILENO, buf, size);

	(void)cookie;
	for (size_t i = 0; i < size; i++) {
		if (buf[i] == '\n')
			line_done();
		else if (cap.n_line < sizeof(cap.line) - 1)
			cap.line[cap.n_line++] = buf[i];
	}
	return w;
}

static ssize_t out_write(void *cookie, const char *buf, size_t size)
{
	ssize_t w = write_all(STDOUT_FILENO, buf, size);

	(void)cookie;
	if (w > 0)
		cap.out_bytes += (size_t)w;
	return w;
}

void bc_cli_error_capture(const char *cmd, bool one_line)
{
	cookie_io_functions_t err_fns = {.write = err_write}, out_fns = {.write = out_write};
	FILE *e, *o;

	snprintf(cap.cmd, sizeof(cap.cmd), "%s", cmd);
	cap.one_line = one_line;
	fflush(stdout);
	e = fopencookie(NULL, "w", err_fns);
	o = fopencookie(NULL, "w", out_fns);
	if (!e || !o) { /* no copy: the error object then says "(none)" */
		if (e)
			fclose(e);
		if (o)
			fclose(o);
		return;
	}
	setvbuf(e, NULL, _IONBF, 0);
	setvbuf(o, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	cap.real_stdout = stdout;
	stderr = e; /* glibc: stdin, stdout and stderr are variables one may set */
	stdout = o;
}

const char *bc_cli_error_message(void)
{
	fflush(stderr);
	if (cap.n_line)
		line_done();
	return cap.message[0] ? cap.message : cap.fallback;
}

void bc_cli_error_finish(int status)
{
	struct json_object *o;

	if (!cap.real_stdout)
		return;
	fflush(stdout);
	if (cap.n_line)
		line_done();
	if (cap.out_bytes)
		return;
	o = bc_cli_error_json(status, cap.message[0] ? cap.message : cap.fallback);
	if (!o)
		return;
	printf("%s\n", json_object_to_json_string_ext(
				o, cap.one_line ? JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE
						: JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							  JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(stdout);
	json_object_put(o);
}
