// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck restore`: put bonds back from their journals after `scale`,
 * `failover` or `sweep` was interrupted or killed (bondcheck/journal.h,
 * docs/restore.md).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <net/if.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bondcheck/journal.h"
#include "bondcheck/tap.h"
#include "bondcheck/json-get.h"
#include "cli/cli.h"

#define DEFAULT_TIMEOUT_S 60

struct ropts {
	int timeout_ms;
	bool json, keep, verbose, quiet, check, save;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bondcheck restore [--journal FILE | BOND...] [--timeout S] [--check]\n"
		"                         [--keep] [-j] [-v] [-q]\n"
		"       bondcheck restore --save [--journal FILE] BOND...\n"
		"\n"
		"Put bonds back as their journals recorded them.  `scale --method links`,\n"
		"`failover` and `sweep` journal a bond before they change it (and the agent,\n"
		"`serve --allow-changes`, journals its own) and restore it on every normal exit,\n"
		"SIGINT and SIGTERM.  After a crash or SIGKILL, run this on the host (and in the\n"
		"network namespace) where the bond lives.\n"
		"\n"
		"Restored: mode and options, slave membership and enslave order, admin state of\n"
		"the bond and each slave, MTU and MAC of both, primary, queue ids.  Then it\n"
		"waits until every slave that was up is MII up again and, in 802.3ad, every\n"
		"slave that was in sync is back in sync (LACP).  Counters and the negotiated\n"
		"LACP state (partner, aggregator ids) are not part of the promise.\n"
		"\n"
		"  BOND...          restore these bonds from their journals in the journal\n"
		"                   directory ($BC_JOURNAL_DIR, default %s)\n"
		"  (none)           restore every journal of this network namespace there\n"
		"  --journal FILE   restore from this journal file\n"
		"  --timeout S      wait at most S seconds for the bond to settle (default %d;\n"
		"                   LACP at the slow rate can take a minute)\n"
		"  --check          compare only, change nothing (exit 1 when a field differs)\n"
		"  --keep           keep the journal file after a complete restore (default:\n"
		"                   removed, so a later restore cannot undo newer settings)\n"
		"  -j, --json       JSON on stdout\n"
		"  -v, --verbose    list every field, not only the ones that changed or differ\n"
		"  -q, --quiet      print only problems\n"
		"  --save           journal the named bonds now, before you change them by\n"
		"                   hand; `bondcheck restore BOND` puts them back.  Refused\n"
		"                   while an unrestored journal of the bond exists\n"
		"\n"
		"Examples:\n"
		"  bondcheck restore                       # every journal left by a crash\n"
		"  bondcheck restore bond0\n"
		"  ip netns exec ns1 bondcheck restore bond0\n"
		"  bondcheck restore --journal /var/lib/bondcheck/journal/bond0.json --check\n"
		"  bondcheck restore --save bond0          # before experimenting by hand\n"
		"\n"
		"Exit status: 0 every field matches the journal (or there was nothing to\n"
		"restore); 1 something could not be restored or did not settle (named, the\n"
		"journal is kept); 2 usage; 3 environment (a missing or unreadable journal, no\n"
		"permission, journal of another network namespace); 4 a damaged journal or\n"
		"another file (not JSON, not a journal).\n",
		BC_JOURNAL_DIR, DEFAULT_TIMEOUT_S);
}

static void print_fields(struct json_object *fields, bool all, bool check)
{
	bool header = false;

	for (size_t i = 0; i < bc_json_len(fields); i++) {
		struct json_object *e = json_object_array_get_idx(fields, i), *v;
		bool ok = json_object_object_get_ex(e, "ok", &v) && json_object_get_boolean(v);
		bool promise = !json_object_object_get_ex(e, "promise", NULL);
		const char *act = bc_json_str(e, "action");
		const char *was = bc_json_str(e, check ? "live" : "before");
		bool changed =
			strcmp(bc_json_str(e, "journal"), was) || (act[0] && strcmp(act, "none"));

		if (!all && ok && !changed)
			continue;
		if (!header) {
			if (check)
				printf("  %-30s %-18s %-18s %s\n", "field", "journal", "live",
				       "ok");
			else
				printf("  %-30s %-18s %-18s %-18s %-3s %s\n", "field", "journal",
				       "before", "after", "ok", "action");
			header = true;
		}
		if (check)
			printf("  %-30s %-18s %-18s %s\n", bc_json_str(e, "field"),
			       bc_json_str(e, "journal"), was,
			       ok	 ? "yes"
			       : promise ? "NO"
					 : "-");
		else
			printf("  %-30s %-18s %-18s %-18s %-3s %s\n", bc_json_str(e, "field"),
			       bc_json_str(e, "journal"), was, bc_json_str(e, "after"),
			       ok	 ? "yes"
			       : promise ? "NO"
					 : "-",
			       act);
	}
}

/* One journal: restore (or check) it.  Returns an exit status. */
static int one(const char *path, const struct ropts *o, struct json_object *out_arr)
{
	struct json_object *entry = json_object_new_object(), *rep = NULL;
	struct bc_journal *j = NULL;
	struct bc_error err = {0};
	const char *result;
	int r, status;

	json_object_object_add(entry, "journal", json_object_new_string(path));
	r = bc_journal_load(path, &j, &err);
	if (r < 0) {
		fprintf(stderr, "bondcheck restore: %s\n", err.msg);
		json_object_object_add(entry, "result", json_object_new_string("error"));
		json_object_object_add(entry, "error", json_object_new_string(err.msg));
		json_object_array_add(out_arr, entry);
		/* missing or unreadable: the environment; damaged or foreign: bad input */
		return r == -ENOENT || r == -EACCES || r == -EPERM || r == -ENOMEM || r == -EIO ||
				       r == -ENOTDIR || r == -ELOOP
			       ? BC_EXIT_ENV
			       : BC_EXIT_DATA;
	}
	json_object_object_add(entry, "bond", json_object_new_string(bc_journal_bond(j)));
	if (o->check) {
		r = bc_journal_compare(j, &rep, &err);
		result = r == 0 ? "match" : r == 1 ? "differs" : "error";
	} else {
		if (!o->quiet && !o->json && isatty(STDERR_FILENO))
			fprintf(stderr, "restoring %s from %s (waiting up to %d s to settle)...\n",
				bc_journal_bond(j), path, o->timeout_ms / 1000);
		r = bc_journal_restore(j, o->timeout_ms, &rep, &err);
		result = r == 0 ? "restored" : r == -EAGAIN ? "not-stable" : "not-restored";
		if (r == -EXDEV || r == -EPERM || r == -EACCES)
			result = "error";
	}
	json_object_object_add(entry, "result", json_object_new_string(result));
	if (r != 0)
		json_object_object_add(entry, "error", json_object_new_string(err.msg));
	if (rep)
		json_object_object_add(entry, o->check ? "compare" : "report", rep);
	if (!o->check && r == 0 && !o->keep) {
		struct bc_error e2 = {0};

		if (bc_journal_remove(path, &e2) < 0)
			fprintf(stderr, "bondcheck restore: %s\n", e2.msg);
		json_object_object_add(entry, "journal_removed",
				       json_object_new_boolean(e2.code == 0));
	}
	if (!o->json) {
		struct json_object *fields = NULL;

		if (rep)
			json_object_object_get_ex(rep, "fields", &fields);
		if (r == 0 && !o->quiet)
			printf("%s: %s: every field matches the journal of %s\n",
			       bc_journal_bond(j), o->check ? "unchanged" : "restored", path);
		else if (r == 1)
			printf("%s: differs from the journal of %s (--check: nothing changed)\n",
			       bc_journal_bond(j), path);
		else
			fprintf(stderr, "bondcheck restore: %s\n", err.msg);
		fflush(stdout);
		if (fields && (!o->quiet || r != 0))
			print_fields(fields, o->verbose, o->check);
		if (r != 0 && !o->check && r != -EXDEV)
			fprintf(stderr,
				"bondcheck restore: the journal %s is kept; fix the cause and run "
				"the restore again\n",
				path);
	}
	json_object_array_add(out_arr, entry);
	if (r == 0)
		status = BC_EXIT_OK;
	else if (r == 1 || r == -EIO || r == -EAGAIN || r == -ENODEV)
		status = BC_EXIT_FINDINGS;
	else
		status = BC_EXIT_ENV;
	bc_journal_free(j);
	return status;
}

/* --save: journal @bond to @path (NULL: its default path). */
static int save(const char *bond, const char *path, const struct ropts *o, struct json_object *arr)
{
	struct json_object *entry = json_object_new_object();
	struct bc_journal *j = NULL;
	struct bc_error err = {0};
	char def[PATH_MAX];
	int r;

	json_object_object_add(entry, "bond", json_object_new_string(bond));
	r = path ? 0 : bc_journal_default_path(bond, def, sizeof(def), &err);
	if (!path)
		path = def;
	if (r == 0)
		r = bc_journal_capture(bond, &j, &err);
	if (r == 0)
		r = bc_journal_save(j, path, &err);
	bc_journal_free(j);
	json_object_object_add(entry, "journal", json_object_new_string(r == 0 ? path : ""));
	json_object_object_add(entry, "result", json_object_new_string(r == 0 ? "saved" : "error"));
	if (r < 0) {
		json_object_object_add(entry, "error", json_object_new_string(err.msg));
		fprintf(stderr, "bondcheck restore: --save %s: %s\n", bond, err.msg);
	} else if (!o->json && !o->quiet) {
		printf("%s: journaled to %s; `bondcheck restore %s` puts it back\n", bond, path,
		       bond);
	}
	json_object_array_add(arr, entry);
	return r == 0 ? BC_EXIT_OK : r == -EINVAL ? BC_EXIT_USAGE : BC_EXIT_ENV;
}

static const char *journal_dir(void)
{
	const char *d = getenv("BC_JOURNAL_DIR");

	return d && *d ? d : BC_JOURNAL_DIR;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The journals in @d (opened on the journal directory @dir, closed here)
 * whose default path is themselves, i.e. this network namespace's: sorted
 * paths, *@n of them (free() each and the array).
 */
static char **journals_here(DIR *d, const char *dir, size_t *n)
{
	struct dirent *e;
	char **paths = NULL;

	*n = 0;
	while ((e = readdir(d))) {
		char path[PATH_MAX], mine[PATH_MAX], bond[64];
		size_t len = strlen(e->d_name);
		char **p;

		if (len < 6 || strcmp(e->d_name + len - 5, ".json") || e->d_name[0] == '.')
			continue;
		snprintf(bond, sizeof(bond), "%.*s", (int)strcspn(e->d_name, "@."), e->d_name);
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (bc_journal_default_path(bond, mine, sizeof(mine), NULL) < 0 ||
		    strcmp(mine, path))
			continue; /* another namespace's journal */
		p = realloc(paths, (*n + 1) * sizeof(*p));
		if (!p)
			break;
		paths = p;
		paths[(*n)++] = strdup(path);
	}
	closedir(d);
	if (*n)
		qsort(paths, *n, sizeof(*paths), cmp_str);
	return paths;
}

/* "bond0, bond1" (the bonds journaled here) or "none" into @buf. */
static void bonds_journaled(char *buf, size_t len)
{
	const char *dir = journal_dir();
	DIR *d = opendir(dir);
	char **paths;
	size_t n, used = 0;

	snprintf(buf, len, "none");
	if (!d)
		return;
	paths = journals_here(d, dir, &n);
	for (size_t i = 0; i < n; i++) {
		const char *base = paths[i] ? strrchr(paths[i], '/') : NULL;

		if (base && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%.*s", used ? ", " : "",
						 (int)strcspn(base + 1, "@."), base + 1);
		free(paths[i]);
	}
	free(paths);
}

/* Every journal in the directory whose default path is itself: this netns's. */
static int all_here(const struct ropts *o, struct json_object *arr)
{
	const char *dir = journal_dir();
	DIR *d = opendir(dir);
	char **paths;
	size_t n = 0;
	int worst = BC_EXIT_OK;

	if (!d) {
		if (errno == ENOENT) {
			if (!o->quiet && !o->json)
				printf("no journal in %s: nothing to restore\n", dir);
			return BC_EXIT_OK;
		}
		fprintf(stderr, "bondcheck restore: cannot read %s: %s\n", dir, strerror(errno));
		return BC_EXIT_ENV;
	}
	paths = journals_here(d, dir, &n);
	if (n == 0 && !o->quiet && !o->json)
		printf("no journal for this network namespace in %s: nothing to restore\n", dir);
	for (size_t i = 0; i < n; i++) {
		int s = paths[i] ? one(paths[i], o, arr) : BC_EXIT_ENV;

		worst = s > worst ? s : worst;
		free(paths[i]);
	}
	free(paths);
	return worst;
}

/*
 * The slave taps' clsact filters that a killed bondcheck left (kernels
 * without tcx: bondcheck/tap.h bc_tap_cleanup()), on every interface of
 * this network namespace.  Returns how many were removed, or -1 when the
 * taps are not built or could not be checked (said unless quiet).
 */
static int tap_leftovers(const struct ropts *o)
{
	struct if_nameindex *ifs, *i;
	int ix[BC_TAP_MAX_IFS], removed = 0;
	size_t n = 0;
	struct bc_error err = {0};

	if (!bc_tap_built())
		return -1;
	ifs = if_nameindex();
	if (!ifs)
		return -1;
	for (i = ifs;; i++) {
		int r;

		if (i->if_index)
			ix[n++] = (int)i->if_index;
		if (n < BC_TAP_MAX_IFS && i->if_index)
			continue;
		r = n ? bc_tap_cleanup(ix, n, &err) : 0;
		n = 0;
		if (r < 0) {
			if (!o->quiet && !o->json)
				fprintf(stderr, "bondcheck restore: slave-tap filters not checked: "
						"%s\n", err.msg);
			removed = -1;
			break;
		}
		removed += r;
		if (!i->if_index)
			break;
	}
	if_freenameindex(ifs);
	if (removed > 0 && !o->quiet && !o->json)
		printf("removed %d slave-tap filter%s that a killed bondcheck left (clsact, handle "
		       "0x%x)\n", removed, removed == 1 ? "" : "s", BC_TAP_TC_HANDLE);
	return removed;
}

int bc_cmd_restore(int argc, char **argv)
{
	static const struct option opts[] = {
		{"journal", required_argument, NULL, 'J'},
		{"timeout", required_argument, NULL, 't'},
		{"check", no_argument, NULL, 'c'},
		{"keep", no_argument, NULL, 'k'},
		{"json", no_argument, NULL, 'j'},
		{"verbose", no_argument, NULL, 'v'},
		{"quiet", no_argument, NULL, 'q'},
		{"save", no_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct ropts o = {.timeout_ms = DEFAULT_TIMEOUT_S * 1000};
	struct json_object *doc, *arr = json_object_new_array();
	const char *file = NULL;
	char gen[40], *end;
	int c, worst = BC_EXIT_OK, taps = -1;
	double t;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jvqh", opts, NULL)) != -1) {
		switch (c) {
		case 'J':
			file = optarg;
			break;
		case 't':
			t = strtod(optarg, &end);
			if (*end || !(t >= 0 && t <= 3600)) {
				fprintf(stderr,
					"bondcheck restore: --timeout '%s' is invalid; expected "
					"seconds 0..3600\n",
					optarg);
				json_object_put(arr);
				return BC_EXIT_USAGE;
			}
			o.timeout_ms = (int)(t * 1000);
			break;
		case 'c':
			o.check = true;
			break;
		case 'k':
			o.keep = true;
			break;
		case 'j':
			o.json = true;
			break;
		case 'v':
			o.verbose = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 's':
			o.save = true;
			break;
		case 'h':
			usage(stdout);
			json_object_put(arr);
			return BC_EXIT_OK;
		default:
			json_object_put(arr);
			return bc_cli_opt_error("restore", c, argv, opts);
		}
	}
	if (o.save) {
		if (optind >= argc || (file && argc - optind != 1) || o.check) {
			fprintf(stderr, "bondcheck restore: --save needs bond names (one with "
					"--journal FILE) and no --check\n");
			json_object_put(arr);
			return BC_EXIT_USAGE;
		}
		for (int i = optind; i < argc; i++) {
			int s = save(argv[i], file, &o, arr);

			worst = s > worst ? s : worst;
		}
	} else if (file && optind < argc) {
		fprintf(stderr, "bondcheck restore: give either --journal FILE or bond names, not "
				"both\n");
		json_object_put(arr);
		return BC_EXIT_USAGE;
	} else if (file) {
		worst = one(file, &o, arr);
	} else if (optind < argc) {
		for (int i = optind; i < argc; i++) {
			char path[PATH_MAX];
			struct bc_error err = {0};
			int s;

			if (bc_journal_default_path(argv[i], path, sizeof(path), &err) < 0) {
				fprintf(stderr, "bondcheck restore: %s\n", err.msg);
				worst = BC_EXIT_USAGE;
				continue;
			}
			if (access(path, F_OK) < 0 && errno == ENOENT) {
				char here[256];

				bonds_journaled(here, sizeof(here));
				if (!o.quiet && !o.json)
					printf("%s: no journal at %s (already restored, or never "
					       "journaled here): nothing to restore; bonds "
					       "journaled here: %s\n",
					       argv[i], path, here);
				continue;
			}
			s = one(path, &o, arr);
			worst = s > worst ? s : worst;
		}
	} else {
		worst = all_here(&o, arr);
	}
	if (!o.save && !o.check)
		taps = tap_leftovers(&o);
	if (o.json) {
		doc = json_object_new_object();
		json_object_object_add(doc, "schema_version", json_object_new_int(1));
		json_object_object_add(doc, "tap_filters_removed",
				       taps >= 0 ? json_object_new_int(taps) : NULL);
		json_object_object_add(doc, "bondcheck_version",
				       json_object_new_string(BC_VERSION));
		bc_json_generated_at(gen, sizeof(gen));
		json_object_object_add(doc, "generated_at", json_object_new_string(gen));
		json_object_object_add(doc, "restores", arr);
		puts(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
								 JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(doc);
	} else {
		json_object_put(arr);
	}
	return worst;
}
