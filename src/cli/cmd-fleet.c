// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bondcheck fleet: many hosts' `inspect -j` documents in, one fleet report
 * out (issue 16 item 1; docs/fleet.md).  Reads files, folders of *.json, or
 * standard input holding JSON documents (one per line with inspect's
 * --json-line, or concatenated) or pdsh/clush output ("HOST: line",
 * interleaved, gathered per host as dshbak does).  It launches nothing: the
 * site's engine runs inspect on the hosts.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bondcheck/error.h"
#include "bondcheck/file.h"
#include "bondcheck/fleet-report.h"
#include "bondcheck/fleet.h"
#include "bondcheck/host-prefix.h"
#include "bondcheck/json-get.h"
#include "bondcheck/plot.h"
#include "cli/cli.h"

/* One file: an inspect document is a few KiB to a few hundred. */
#define FILE_MAX (64u << 20)
/* Standard input: 10,000 hosts' documents. */
#define STDIN_MAX (1024u << 20)

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bondcheck fleet [options] [FILE|DIR|-]...\n"
		"\n"
		"Compares many hosts' `bondcheck inspect -j` documents: which hosts' bonds\n"
		"drift from the fleet's majority (slave driver, driver version within one\n"
		"kernel release, firmware, speed, MTU, miimon/arp, lacp_rate, xmit_hash_policy,\n"
		"ad_select, slave count), which share an LACP actor system, which failed or\n"
		"did not answer.  bondcheck launches nothing: run inspect with your engine.\n"
		"\n"
		"Input (standard input when none is given):\n"
		"  FILE        one document, or several (one per line, or concatenated)\n"
		"  DIR         every *.json file in it\n"
		"  -           standard input: documents, or pdsh/clush output whose\n"
		"              'HOST: ' prefixes are gathered per host as dshbak does\n"
		"  A host is named by the document's `host` member (inspect --host), else\n"
		"  by the pdsh prefix or the file name without .json.\n"
		"\n"
		"Options:\n"
		"  --expect LIST   the hosts that should answer, as pdsh/Slurm write them\n"
		"                  (node[01-16],login1); the others are reported missing\n"
		"  -j, --json      the fleet document on stdout (docs/fleet.md)\n"
		"  --csv FILE|-    one row per host and bond\n"
		"  --plot DIR      DIR/fleet-findings.svg: a host x finding heatmap (the\n"
		"                  fleet's findings and each host's inspect findings)\n"
		"  --brief         the answers alone (hosts read, health, drift), same exit\n"
		"  -h, --help      this text\n"
		"\n"
		"Examples:\n"
		"  pdsh -w node[01-16] bondcheck inspect -j --json-line | bondcheck fleet --expect 'node[01-16]'\n"
		"  clush -w node[01-16] bondcheck inspect -j --json-line | bondcheck fleet\n"
		"  bondcheck fleet /srv/inspect/            # files fetched by Ansible\n"
		"\n"
		"Exit status: 0 no error-level finding; 1 a host failed or is missing, two\n"
		"hosts share an LACP actor system, or a host's inspect reported an error-level\n"
		"finding; 2 usage; 4 an input that cannot be read.\n");
}

/* The file name without folders and ".json": the host when nothing else names it. */
static void stem(const char *path, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t n;

	b = b ? b + 1 : path;
	n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".json"))
		n -= 5;
	snprintf(out, len, "%.*s", (int)n, b);
}

static void said_twice(const char *host, const char *origin)
{
	fprintf(stderr, "bondcheck fleet: %s: a second document for host '%s' ignored (the first "
			"is kept)\n", origin, host);
}

/*
 * The JSON documents in @len bytes of @text, one host each; @hint names a
 * host when a document has no `host` member (with "#N" past the first).
 * Text that is not JSON makes a failed host named @hint.
 */
static int documents(struct bc_fleet *f, const char *text, size_t len, const char *hint,
		     const char *origin)
{
	struct json_tokener *tok = json_tokener_new();
	size_t pos = 0, k = 0;
	int rc = 0;

	if (!tok)
		return -ENOMEM;
	while (pos < len && !rc) {
		struct json_object *o;
		enum json_tokener_error e;
		char name[BC_HOST_LEN + 16];

		while (pos < len && (text[pos] == ' ' || text[pos] == '\n' || text[pos] == '\t' ||
				     text[pos] == '\r'))
			pos++;
		if (pos >= len)
			break;
		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, text + pos, (int)(len - pos > 0x7fffffff
								     ? 0x7fffffff
								     : len - pos));
		e = json_tokener_get_error(tok);
		snprintf(name, sizeof(name), k ? "%s#%zu" : "%s", hint, k + 1);
		if (!o || e != json_tokener_success) {
			char why[200];

			snprintf(why, sizeof(why), "not a JSON document at byte %zu: %s", pos,
				 e == json_tokener_continue ? "it ends before the document does"
							    : json_tokener_error_desc(e));
			json_object_put(o);
			rc = bc_fleet_add_failed(f, name, origin, why);
			if (rc == -EEXIST) {
				said_twice(name, origin);
				rc = 0;
			}
			break;
		}
		pos += json_tokener_get_parse_end(tok);
		rc = bc_fleet_read_doc(f, o, name, origin);
		if (rc == -EEXIST) {
			said_twice(bc_json_str(o, "host")[0] ? bc_json_str(o, "host") : name, origin);
			rc = 0;
		}
		json_object_put(o);
		k++;
	}
	json_tokener_free(tok);
	return rc;
}

/* Standard input or a file's bytes: documents, or pdsh/clush output. */
static int input_text(struct bc_fleet *f, const char *text, size_t len, const char *hint,
		      const char *origin)
{
	size_t i = 0;
	struct bc_host_demux d;
	int rc = 0;

	while (i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t' || text[i] == '\r'))
		i++;
	if (i == len) {
		/* a host whose inspect wrote nothing (pdsh -w h1 with h1 down, a file
		 * fetched empty) is a failed host; empty standard input is no input */
		if (strcmp(origin, "/dev/stdin")) {
			rc = bc_fleet_add_failed(f, hint, origin, "an empty file: inspect wrote nothing");
			return rc == -EEXIST ? 0 : rc;
		}
		fprintf(stderr, "bondcheck fleet: standard input is empty; expected inspect -j "
				"documents or pdsh/clush output\n");
		return 1;
	}
	if (text[i] == '{')
		return documents(f, text, len, hint, origin);
	rc = bc_host_demux(text, len, &d);
	if (rc)
		return rc;
	if (!d.n) {
		fprintf(stderr,
			"bondcheck fleet: %s: expected inspect -j documents or pdsh/clush lines "
			"'HOST: ...', found neither (line %zu starts with '%.20s')\n",
			origin, d.first_unprefixed, text + i);
		bc_host_demux_free(&d);
		return 1;
	}
	if (d.unprefixed)
		fprintf(stderr,
			"bondcheck fleet: %s: %zu line%s without a 'HOST: ' prefix ignored (the "
			"first is line %zu)\n",
			origin, d.unprefixed, d.unprefixed == 1 ? "" : "s", d.first_unprefixed);
	for (size_t h = 0; h < d.n && !rc; h++)
		rc = documents(f, d.host[h].text, d.host[h].len, d.host[h].host, origin);
	bc_host_demux_free(&d);
	return rc;
}

static int input_file(struct bc_fleet *f, const char *path, size_t max)
{
	struct bc_error err = { 0 };
	char *buf = NULL, hint[BC_HOST_LEN];
	size_t len = 0;
	int rc;

	rc = bc_file_read_capped(path, max, "inspect -j documents",
				 "an inspect document is a few KiB", &buf, &len, &err);
	if (rc) {
		fprintf(stderr, "bondcheck fleet: %s\n", err.msg);
		return 1;
	}
	stem(path, hint, sizeof(hint));
	rc = input_text(f, buf, len, hint, path);
	free(buf);
	return rc;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int json_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return e->d_name[0] != '.' && n > 5 && !strcmp(e->d_name + n - 5, ".json");
}

static int input_dir(struct bc_fleet *f, const char *dir)
{
	struct dirent **list;
	int n = scandir(dir, &list, json_file, by_name), rc = 0;

	if (n < 0) {
		fprintf(stderr, "bondcheck fleet: cannot read the folder '%s': %s\n", dir,
			strerror(errno));
		return 1;
	}
	if (!n)
		fprintf(stderr, "bondcheck fleet: the folder '%s' has no *.json file\n", dir);
	for (int i = 0; i < n; i++) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		if (!rc)
			rc = input_file(f, path, FILE_MAX);
		free(list[i]);
	}
	free(list);
	return n ? rc : 1;
}

int bc_cmd_fleet(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "expect", required_argument, NULL, 'e' },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", required_argument, NULL, 'c' },
		{ "brief", no_argument, NULL, 'b' },
		{ "plot", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct bc_hostlist expect = { 0 };
	struct bc_fleet f = { 0 };
	const char *csv = NULL, *plot = NULL;
	bool json = false, brief = false;
	int c, rc = 0, status;
	char err[256];

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jh", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			bc_hostlist_free(&expect);
			if (bc_hostlist_parse(optarg, &expect, err, sizeof(err))) {
				fprintf(stderr, "bondcheck fleet: --expect: %s\n", err);
				return BC_EXIT_USAGE;
			}
			break;
		case 'j':
			json = true;
			break;
		case 'c':
			csv = optarg;
			break;
		case 'b':
			brief = true;
			break;
		case 'p':
			plot = optarg;
			break;
		case 'h':
			usage(stdout);
			bc_hostlist_free(&expect);
			return BC_EXIT_OK;
		default:
			bc_hostlist_free(&expect);
			return bc_cli_opt_error("fleet", c, argv, opts);
		}
	}
	if (brief && (json || (csv && !strcmp(csv, "-")))) {
		bc_hostlist_free(&expect);
		fprintf(stderr, "bondcheck fleet: --brief is text; it cannot be combined with -j or "
				"--csv -\n");
		return BC_EXIT_USAGE;
	}
	if (plot) {
		rc = bc_cli_plot_dir("fleet", plot);
		if (rc) {
			bc_hostlist_free(&expect);
			return rc;
		}
	}
	if (optind >= argc && isatty(STDIN_FILENO)) {
		fprintf(stderr, "bondcheck fleet: no input: give files or folders of inspect -j "
				"documents, or pipe pdsh/clush output in; see `bondcheck fleet --help`\n");
		bc_hostlist_free(&expect);
		return BC_EXIT_USAGE;
	}
	for (int i = optind; i < argc || (i == optind && optind >= argc); i++) {
		const char *arg = i < argc ? argv[i] : "-";
		struct stat st;

		if (!strcmp(arg, "-"))
			rc = input_file(&f, "/dev/stdin", STDIN_MAX);
		else if (!stat(arg, &st) && S_ISDIR(st.st_mode))
			rc = input_dir(&f, arg);
		else
			rc = input_file(&f, arg, FILE_MAX);
		if (rc)
			break;
	}
	if (rc) {
		if (rc < 0)
			fprintf(stderr, "bondcheck fleet: %s\n", strerror(-rc));
		bc_fleet_free(&f);
		bc_hostlist_free(&expect);
		return BC_EXIT_DATA;
	}
	rc = bc_fleet_analyze(&f, expect.n ? &expect : NULL);
	bc_hostlist_free(&expect);
	if (rc) {
		fprintf(stderr, "bondcheck fleet: %s\n", strerror(-rc));
		bc_fleet_free(&f);
		return BC_EXIT_ENV;
	}
	{
		struct bc_fleet_counts cnt;

		bc_fleet_count(&f, &cnt);
		status = cnt.errors || cnt.with_errors ? BC_EXIT_FINDINGS : BC_EXIT_OK;
	}
	if (csv) {
		FILE *out = strcmp(csv, "-") ? fopen(csv, "w") : stdout;

		if (!out || bc_fleet_csv(out, &f) || (out != stdout && fclose(out))) {
			fprintf(stderr, "bondcheck fleet: --csv '%s': %s\n", csv, strerror(errno));
			status = BC_EXIT_ENV;
		}
	}
	if (plot) {
		struct json_object *doc = bc_fleet_plot_doc(&f);
		int prc = doc ? bc_cli_write_plot("fleet", plot, "fleet-findings.svg", doc,
						  bc_plot_fleet_findings)
			      : BC_EXIT_ENV;

		if (!doc)
			fprintf(stderr, "bondcheck fleet: out of memory\n");
		json_object_put(doc);
		if (prc)
			status = prc;
	}
	if (json) {
		char when[32];
		struct json_object *o;

		bc_json_generated_at(when, sizeof(when));
		o = bc_fleet_json(&f, when);
		if (!o) {
			fprintf(stderr, "bondcheck fleet: out of memory\n");
			status = BC_EXIT_ENV;
		} else {
			puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
								JSON_C_TO_STRING_NOSLASHESCAPE));
			json_object_put(o);
		}
	} else if (!csv || strcmp(csv, "-")) {
		bc_fleet_text(stdout, &f, brief);
	}
	bc_fleet_free(&f);
	return status;
}
