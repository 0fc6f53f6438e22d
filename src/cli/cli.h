/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command-line layer: the only code that prints and picks exit codes. */
#ifndef BC_CLI_H
#define BC_CLI_H

#include <stdint.h>
#include <stdio.h>

struct bc_auth_key;
struct bc_error;
struct json_object;

/* Exit statuses, one table for every command (docs/bondcheck.8 "EXIT STATUS"). */
enum {
	BC_EXIT_OK = 0,	      /* ran; no verdict failed, no error-level finding stands */
	BC_EXIT_FINDINGS = 1, /* a verdict failed, or an error-level finding stands */
	BC_EXIT_USAGE = 2,
	BC_EXIT_ENV = 3,  /* permission, no such bond, peer unreachable, a kernel limit */
	BC_EXIT_DATA = 4, /* bad input data: an unreadable or malformed file or document */
};

/*
 * bc_cli_exit_status() - the status of a report with @verdicts (an object
 * of {status} objects, or NULL) and @findings (an array of {id, severity,
 * subject, expected}, or NULL): BC_EXIT_FINDINGS when a verdict is "fail"
 * or an error-level finding is not expected, else BC_EXIT_OK.  Prints the
 * last line to @out, "exit N: ..." naming the failed verdicts and the
 * error findings, or that no verdict passed (all inconclusive or n/a).
 */
int bc_cli_exit_status(FILE *out, const char *cmd, struct json_object *verdicts,
		       struct json_object *findings);

struct bc_command {
	const char *name;
	const char *summary;		   /* one line for `bondcheck --help` */
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
};

/* Commands that work; the table in main.c lists only these. */
int bc_cmd_inspect(int argc, char **argv);
int bc_cmd_serve(int argc, char **argv);
int bc_cmd_run(int argc, char **argv);
int bc_cmd_analyze(int argc, char **argv);
int bc_cmd_restore(int argc, char **argv);
int bc_cmd_matrix(int argc, char **argv);
int bc_cmd_sweep(int argc, char **argv);
int bc_cmd_fleet(int argc, char **argv);

/*
 * bc_cli_plot_dir() - --plot DIR of command @cmd: a folder, created (one
 * level) when missing.  Returns BC_EXIT_OK or the exit status, said on stderr.
 */
int bc_cli_plot_dir(const char *cmd, const char *dir);

/*
 * Options shared by the commands (src/cli/cli-opts.c).  Each says what is
 * wrong on stderr, as "bondcheck CMD: ...", and returns the exit status:
 *   bc_cli_bad()      - OPT's value VAL is invalid, ALLOWED says what is
 *                       expected; returns BC_EXIT_USAGE;
 *   bc_cli_port()     - --port: decimal 1..65535 into *@port; BC_EXIT_OK or
 *                       BC_EXIT_USAGE;
 *   bc_cli_auth_key() - --auth-key FILE loaded into *@key
 *                       (bc_auth_key_load()); BC_EXIT_OK, BC_EXIT_USAGE for
 *                       a bad key, BC_EXIT_ENV when the file cannot be read.
 */
int bc_cli_bad(const char *cmd, const char *opt, const char *val, const char *allowed);
int bc_cli_port(const char *cmd, const char *arg, uint16_t *port);
int bc_cli_auth_key(const char *cmd, const char *path, struct bc_auth_key *key);

/*
 * bc_cli_write_csv() - --csv PATH of command @cmd: @csv renders @doc into
 * PATH ("-": stdout).  Returns BC_EXIT_OK, or BC_EXIT_ENV when PATH cannot
 * be written (said on stderr).
 * bc_cli_write_plot() - --plot DIR: @plot draws @doc into DIR/@name (an SVG)
 * and the path is said on stderr.  -ENODATA from @plot (nothing to draw) is
 * said and is not an error; other errors give BC_EXIT_ENV.
 */
int bc_cli_write_csv(const char *cmd, const char *path, struct json_object *doc,
		     void (*csv)(FILE *out, struct json_object *doc));
int bc_cli_write_plot(const char *cmd, const char *dir, const char *name, struct json_object *doc,
		      int (*plot)(const char *path, struct json_object *doc, struct bc_error *err));
int bc_cmd_scale(int argc, char **argv);
int bc_cmd_failover(int argc, char **argv);

#endif
