/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command-line layer: the only code that prints and picks exit codes. */
#ifndef BC_CLI_H
#define BC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct bc_auth_key;
struct bc_error;
struct json_object;
struct option;

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

/*
 * The error object of -j (src/cli/cli-error.c, docs/json.md "Errors"):
 *   bc_cli_json_requested() - @argv (a command's, argv[0] its name) asks
 *                       for JSON: --json, or -j alone or among flag letters
 *                       (-qj), before any "--";
 *   bc_cli_error_kind() - "usage", "environment" or "input" for exit
 *                       status 2, 3 or 4, NULL for any other;
 *   bc_cli_error_json() - {"error": {"exit", "kind", "message"}} for
 *                       @status, NULL when it is no error status (0, 1);
 *   bc_cli_error_line() - @line of stderr: when it is the first line of
 *                       @cmd's ("bondcheck CMD: ...", after any progress
 *                       line it erases) and @message is still empty, its
 *                       text after the prefix goes into @message;
 *   bc_cli_error_capture() - copy stderr from now on (@one_line: the object
 *                       is printed on one line, for --json-line), keeping @cmd's first
 *                       line as the message, and count what goes to stdout;
 *   bc_cli_error_finish() - after the command returned @status: print the
 *                       error object on stdout when @status is 2, 3 or 4
 *                       and the command printed nothing there.
 */
bool bc_cli_json_requested(int argc, char **argv);
/*
 * bc_cli_error_message() - the message kept by bc_cli_error_capture() so far
 * (the command's first "bondcheck CMD: " line of stderr, else its first
 * line), "" when nothing was captured.
 */
const char *bc_cli_error_message(void);

/* Output formats of inspect's --format (src/cli/cli-format.c). */
enum bc_cli_format {
	BC_FORMAT_TEXT = 0,
	BC_FORMAT_JSON,
	BC_FORMAT_PROMETHEUS,
	BC_FORMAT_NAGIOS,
};

/*
 * bc_cli_format_from_name() - "text", "json", "prometheus", "nagios" -> the
 * format, -1 for anything else; bc_cli_format_name() the reverse.
 * bc_cli_format_requested() - the monitoring format @argv (a command's,
 * argv[0] its name) asks for before any "--" (--nagios, --format[=]F), read
 * before the options are parsed so that a check whose options are wrong
 * still answers in its format; BC_FORMAT_JSON or BC_FORMAT_TEXT otherwise.
 */
int bc_cli_format_from_name(const char *name);
const char *bc_cli_format_name(int format);
int bc_cli_format_requested(int argc, char **argv);
const char *bc_cli_error_kind(int status);
struct json_object *bc_cli_error_json(int status, const char *message);
void bc_cli_error_line(char *message, size_t len, const char *cmd, const char *line);
void bc_cli_error_capture(const char *cmd, bool one_line);
void bc_cli_error_finish(int status);

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
int bc_cmd_watch(int argc, char **argv);

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
/*
 * bc_cli_opt_error() - getopt_long() of command @cmd returned @c, '?' (an
 * unknown, ambiguous or valued flag option) or ':' (a missing value; the
 * optstring starts with ':' and opterr is 0): says so on stderr in one
 * line, naming the option as given in @argv, with "see `bondcheck CMD
 * --help`" (no usage dump).  @longopts is the command's table (the
 * ambiguity check).  Returns BC_EXIT_USAGE.
 */
int bc_cli_opt_error(const char *cmd, int c, char **argv, const struct option *longopts);
/*
 * bc_cli_read_json() - the JSON document in @path, given to @cmd's option
 * @opt ("--from-json"), into *@doc (an object; json_object_put() it).
 * Returns BC_EXIT_OK, or BC_EXIT_DATA with one line on stderr naming the
 * file: it cannot be opened (the errno's text), is not JSON (json-c's
 * reason and the line), is cut short or empty, or is not an object.
 */
int bc_cli_read_json(const char *cmd, const char *opt, const char *path, struct json_object **doc);
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
