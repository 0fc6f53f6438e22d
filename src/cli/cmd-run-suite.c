// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck run --peer HOST [--quick]`: the suite's outputs (text, JSON,
 * CSV), its progress line and exit status; `--from-json FILE` re-renders a
 * saved document.  The suite itself is bondcheck/suite.h.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bondcheck/answer.h"
#include "bondcheck/json-get.h"
#include "bondcheck/run-report.h"
#include "bondcheck/suite-analyze.h"
#include "bondcheck/suite-report.h"
#include "bondcheck/suite.h"
#include "cli/cli.h"
#include "cli/run-suite.h"

#ifdef BC_SUITE_PLOTS
#include <sys/stat.h>

#include "bondcheck/plot.h"
#endif

#ifdef BC_SUITE_PLOTS
/* One SVG; a plot with nothing to draw is a note, not an error. */
static int plot_one(const char *dir, const char *name, struct json_object *data,
		    int (*plot)(const char *, struct json_object *, struct bc_error *))
{
	struct bc_error err = {0};
	char path[4096];
	int r;

	if (!data)
		return 0;
	snprintf(path, sizeof(path), "%s/%s.svg", dir, name);
	r = plot(path, data, &err);
	if (r == -ENODATA) {
		fprintf(stderr, "bondcheck run: --plot: %s: nothing to draw (%s)\n", name, err.msg);
		return 0;
	}
	if (r < 0) {
		fprintf(stderr, "bondcheck run: --plot: %s: %s\n", path, err.msg);
		return -1;
	}
	fprintf(stderr, "bondcheck run: wrote %s\n", path);
	return 0;
}

/*
 * DIR/links-tcp-k.svg and DIR/links-udp-over.svg (per-link throughput over
 * time), DIR/reorder-density.svg (the probe's RFC 5236 density),
 * DIR/ledger.svg (the probe's loss ledger).  API-reports.md "Plot API".
 */
static int write_plots(const char *dir, struct json_object *doc)
{
	struct json_object *tests = json_object_object_get(doc, "tests");
	int bad = 0;

	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "bondcheck run: --plot %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < bc_json_len(tests); i++) {
		struct json_object *t = json_object_array_get_idx(tests, i), *an;
		char name[64];

		an = json_object_object_get(
			json_object_object_get(json_object_object_get(t, "result"), "capture"),
			"analysis");
		if (!an || !json_object_object_get(an, "timeline"))
			continue;
		snprintf(name, sizeof(name), "links-%s", bc_json_str(t, "name"));
		bad |= plot_one(dir, name, an, bc_plot_link_timeline);
	}
	bad |= plot_one(dir, "reorder-density",
			json_object_object_get(json_object_object_get(doc, "reordering"), "udp"),
			bc_plot_reorder_density);
	bad |= plot_one(dir, "ledger", json_object_object_get(doc, "ledger"), bc_plot_ledger);
	return bad ? -1 : 0;
}
#endif

/*
 * The progress line on stderr (a terminal), rewritten in place.  Cut to one
 * column less than the terminal's width: a line that wrapped would leave
 * its first part behind when "\r\033[K" clears the last.
 */
static void on_progress(void *ctx, const struct bc_suite_progress *p)
{
	char line[512];
	int w = bc_answer_width(stderr) - 1;

	(void)ctx;
	snprintf(line, sizeof(line), "[%u/%u] %-12s %s, ~%.0f s left", p->index, p->total, p->name,
		 p->what, p->left_s);
	fprintf(stderr, "\r\033[K%.*s", w > 0 ? w : 0, line);
	fflush(stderr);
}

static int write_file(const char *opt, const char *path, struct json_object *doc,
		      int (*render)(FILE *, struct json_object *))
{
	FILE *f = fopen(path, "w");
	int r;

	if (!f) {
		fprintf(stderr, "bondcheck run: cannot write %s %s: %s\n", opt, path,
			strerror(errno));
		return -1;
	}
	r = render(f, doc);
	if (fclose(f) || r < 0) {
		fprintf(stderr, "bondcheck run: writing %s %s failed\n", opt, path);
		return -1;
	}
	return 0;
}

static int json_render(FILE *f, struct json_object *doc)
{
	return fprintf(f, "%s\n",
		       json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
								   JSON_C_TO_STRING_SPACED)) < 0
		       ? -EIO
		       : 0;
}

/* A saved suite document @doc (from @path), analysed again; NULL (and @doc put) on an error. */
static struct json_object *suite_again(const char *path, struct json_object *doc)
{
	struct bc_error err = {0};
	struct bc_suite_verdicts vs;

	if (bc_suite_analyze(doc, &vs, &err) < 0) {
		fprintf(stderr, "bondcheck run: --from-json %s: %s\n", path, err.msg);
		json_object_put(doc);
		return NULL;
	}
	bc_suite_verdicts_answer(doc, &vs);
	return doc;
}

/*
 * A saved single-run document (no "kind", a "test" object: the -j output
 * of `run` with single-test options) rendered again as the run printed it:
 * text, --brief or -j, with the run's exit status.  Exit 4 when it is not
 * whole (bc_run_doc_check()).
 */
static int single_again(const char *path, struct json_object *doc, const struct suite_opts *o)
{
	struct bc_error err = {0};
	int rc;

	if (o->csv || o->plot) {
		fprintf(stderr,
			"bondcheck run: --from-json %s: a single-run document has no %s (the "
			"suite's); drop it\n",
			path, o->csv ? "--csv" : "--plot");
		json_object_put(doc);
		return BC_EXIT_USAGE;
	}
	if (bc_run_doc_check(doc, &err) < 0) {
		fprintf(stderr, "bondcheck run: --from-json %s: %s\n", path, err.msg);
		json_object_put(doc);
		return BC_EXIT_DATA;
	}
	rc = o->json_file ? write_file("--json-file", o->json_file, doc, json_render) : 0;
	if (o->brief)
		bc_run_report_answers(stdout, doc);
	else if (o->json)
		json_render(stdout, doc);
	else
		bc_run_report_text(stdout, doc);
	fflush(stdout);
	if (rc < 0)
		rc = BC_EXIT_ENV;
	else /* as a live run: an error-level finding fails it */
		rc = bc_cli_exit_status(o->json || o->brief ? stderr : stdout, "run", NULL,
					json_object_object_get(doc, "findings"));
	json_object_put(doc);
	return rc;
}

int bc_cmd_run_suite(const struct bc_client_cfg *cfg, const struct suite_opts *o)
{
	struct bc_suite_cfg sc;
	struct json_object *doc = NULL;
	struct bc_error err = {0};
	bool tty = isatty(STDERR_FILENO);
	int r = 0, rc = BC_EXIT_OK;

	if (o->json && o->csv && !strcmp(o->csv, "-")) {
		fprintf(stderr, "bondcheck run: -j and --csv - both write to stdout; give --csv a "
				"file or use --json-file\n");
		return BC_EXIT_USAGE;
	}
	if (o->brief && o->csv && !strcmp(o->csv, "-")) {
		fprintf(stderr, "bondcheck run: --brief and --csv - both write to stdout; give "
				"--csv a file\n");
		return BC_EXIT_USAGE;
	}
#ifndef BC_SUITE_PLOTS
	if (o->plot) {
		fprintf(stderr,
			"bondcheck run: --plot %s: plots are not built in this version (the "
			"PLplot renderers are not on this branch yet); run without --plot\n",
			o->plot);
		return BC_EXIT_USAGE;
	}
#endif
	if (o->from_json) {
		if (cfg->peer || o->quick) {
			fprintf(stderr,
				"bondcheck run: --from-json renders a saved suite; it takes no "
				"%s\n",
				cfg->peer ? "--peer" : "--quick");
			return BC_EXIT_USAGE;
		}
		if (bc_cli_read_json("run", "--from-json", o->from_json, &doc) != BC_EXIT_OK)
			return BC_EXIT_DATA;
		if (!json_object_object_get(doc, "kind") && json_object_object_get(doc, "test"))
			return single_again(o->from_json, doc, o);
		doc = suite_again(o->from_json, doc);
		if (!doc)
			return BC_EXIT_DATA;
	} else {
		if (!cfg->peer) {
			fprintf(stderr, "bondcheck run: --peer HOST is required (the host running "
					"`bondcheck serve`)\n");
			return BC_EXIT_USAGE;
		}
		bc_suite_cfg_defaults(&sc);
		sc.client = *cfg;
		sc.quick = o->quick;
		if (tty)
			sc.progress = on_progress;
		signal(SIGPIPE, SIG_IGN);
		r = bc_suite_run(&sc, &doc, &err);
		if (tty)
			fprintf(stderr, "\r\033[K");
		if (!doc) {
			fprintf(stderr, "bondcheck run: %s\n", err.msg);
			return BC_EXIT_ENV;
		}
		if (r < 0)
			fprintf(stderr,
				"bondcheck run: %s\nbondcheck run: the suite stopped; the report "
				"covers the tests that ran and is marked incomplete\n",
				err.msg);
	}
	if (o->json_file && write_file("--json-file", o->json_file, doc, json_render) < 0)
		rc = BC_EXIT_ENV;
#ifdef BC_SUITE_PLOTS
	if (o->plot && write_plots(o->plot, doc) < 0)
		rc = BC_EXIT_ENV;
#endif
	if (o->csv && strcmp(o->csv, "-") &&
	    write_file("--csv", o->csv, doc, bc_suite_report_csv) < 0)
		rc = BC_EXIT_ENV;
	if (o->brief)
		bc_suite_report_answers(stdout, doc);
	else if (o->csv && !strcmp(o->csv, "-"))
		bc_suite_report_csv(stdout, doc);
	else if (o->json)
		json_render(stdout, doc);
	else
		bc_suite_report_text(stdout, doc);
	fflush(stdout);
	if (rc == BC_EXIT_OK) {
		if (r < 0 || json_object_get_boolean(json_object_object_get(doc, "incomplete")))
			rc = BC_EXIT_ENV;
		else /* the last line of the text report; on stderr when stdout is JSON or CSV */
			rc = bc_cli_exit_status(
				o->json || o->brief || (o->csv && !strcmp(o->csv, "-")) ? stderr
											: stdout,
				"run", json_object_object_get(doc, "verdicts"),
				json_object_object_get(doc, "findings"));
	}
	json_object_put(doc);
	return rc;
}
