// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck inspect`: audit bonds and every slave, print findings.
 *
 * Two ways to fill the snapshot, then one shared tail (findings, render,
 * exit status):
 *   offline  --from-proc FILE...   saved /proc/net/bonding/<bond> text
 *            --from-sos DIR|TARBALL a sosreport (src/workflow/sos.c)
 *   live     (no --from-proc)      the collector in src/collect/
 *                                  (rtnetlink, ethtool, ioctl, /proc, sysfs),
 *                                  or a --replay of its recording
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "bondcheck/json-get.h"
#include "bondcheck/collect.h"
#include "bondcheck/error.h"
#include "bondcheck/findings.h"
#include "bondcheck/inspect-report.h"
#include "bondcheck/ip-link.h"
#include "bondcheck/model.h"
#include "bondcheck/names.h"
#include "bondcheck/proc.h"
#include "bondcheck/sos.h"
#include "cli/cli.h"

#define MAX_FILES 64

struct inspect_opts {
	const char *files[MAX_FILES]; /* --from-proc and trailing FILE arguments */
	size_t n_files;
	const char *names[MAX_FILES]; /* --name, paired with files in order */
	size_t n_names;
	const char *ip_files[MAX_FILES]; /* --from-ip: saved `ip -d link` text or JSON */
	size_t n_ip_files;
	char **bonds; /* live: BOND... */
	size_t n_bonds;
	const char *netns, *record_dir, *replay_dir; /* live only */
	bool json, quiet, verbose, json_line, brief;
	const char *json_file;
	const char *host; /* --host: the JSON's host member */
	const char *sos; /* --from-sos DIR|TARBALL */
	int format;	 /* enum bc_cli_format: --format, --nagios, -j */
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bondcheck inspect [OPTIONS] [BOND...]\n"
		"       bondcheck inspect --from-proc FILE [--name NAME] [FILE...]\n"
		"       bondcheck inspect --from-sos DIR|TARBALL\n"
		"       bondcheck inspect --from-ip FILE [--from-proc FILE]...\n"
		"\n"
		"Audit bonds and each of their slaves (mode, link monitoring, speed, duplex,\n"
		"driver, MTU, offloads, 802.3ad aggregator and LACP port states) and report\n"
		"findings: a stable id, a severity, the bond or slave concerned, the values\n"
		"that triggered it and what to do. The catalog is in docs/inspect.md.\n"
		"\n"
		"Offline (saved text, e.g. from a sosreport or a bug report):\n"
		"  --from-proc FILE  read FILE as a saved /proc/net/bonding/<bond>; repeat it,\n"
		"                    or list more FILEs after it. A pasted bug report is read\n"
		"                    as posted: prompts, comments, annotations, e-mail quoting\n"
		"                    and markdown are dropped with a warning; several bonds in\n"
		"                    one paste are split; a cut paste gives input-truncated,\n"
		"                    never no-slaves. The bond is named by a shell line in the\n"
		"                    text (cat /proc/net/bonding/bond1), else the file's stem\n"
		"                    (bond0, bond0.txt), else bond0 with a note.\n"
		"  --name NAME       the bond's name, overriding that. Names pair with files\n"
		"                    in order: the first --name names the first FILE, and so on.\n"
		"  --from-sos DIR|TARBALL  a sosreport folder or .tar/.tar.xz/.tar.gz/.tar.bz2:\n"
		"                    reads proc/net/bonding/*, sos_commands/networking/\n"
		"                    ip_-d_address (or ip_-s_-d_link, ip_-d_link), ethtool_-i_DEV\n"
		"                    and ethtool_DEV, and joins them per bond as the live inspect\n"
		"                    does: drivers and firmware per slave, and a\n"
		"                    source-disagreement wherever /proc and ip differ. Symlinks\n"
		"                    out of the tree are never followed.\n"
		"  --from-ip FILE    read FILE as saved `ip -d link show`, `ip -d address` or\n"
		"                    `ip -s -d link` output (multi-line or `ip -o`), or the\n"
		"                    JSON of `ip -j -d link show`; every bond in it is\n"
		"                    audited with the slaves it lists. Repeatable, and\n"
		"                    combinable with --from-proc for other bonds.\n"
		"\n"
		"Live (rtnetlink, ethtool netlink and ioctls, /proc, sysfs):\n"
		"  BOND...           inspect only these bonds (default: every bond)\n"
		"  --netns NAME      inspect the bonds of network namespace NAME\n"
		"                    (/run/netns/NAME, as `ip netns` makes them)\n"
		"  --record DIR      also save every source read (raw netlink replies,\n"
		"                    ioctl results, /proc text) under DIR, for --replay\n"
		"  --replay DIR      inspect a recording instead of the live system; needs\n"
		"                    no privilege and no bonding driver\n"
		"  Without CAP_NET_ADMIN the 802.3ad details that the kernel hides are\n"
		"  reported as hidden (finding lacp-details-hidden), never as missing.\n"
		"\n"
		"Output:\n"
		"  -j, --json        print JSON instead of text (docs/inspect-json.md)\n"
		"      --format F    text, json (-j), prometheus or nagios:\n"
		"                    prometheus: the Prometheus text format for\n"
		"                    node_exporter's textfile collector (bondcheck_* series;\n"
		"                    bondcheck_up 0 when inspect fails)\n"
		"      --nagios      the same as --format nagios: a monitoring-plugins check,\n"
		"                    'BONDCHECK STATE - text | perfdata', exit 0 OK, 1 WARNING,\n"
		"                    2 CRITICAL from the worst finding, 3 UNKNOWN when the\n"
		"                    check cannot run (any usage, environment or input error)\n"
		"      --json-file F also write the JSON document to F\n"
		"      --json-line   with -j: the document on one line (pdsh/clush prefix each\n"
		"                    line with the host; `bondcheck fleet` gathers them)\n"
		"      --host NAME   the JSON's host member (default: this node's name when\n"
		"                    live; none for a paste); network namespaces share one\n"
		"                    node name, so name each one\n"
		"  -q, --quiet       print only the findings, one line each, and no warnings\n"
		"      --brief       print only the answers (Health, Redundancy, Monitoring)\n"
		"  -v, --verbose     also print per-slave LACPDU/churn details and any lines\n"
		"                    of the file that were not understood\n"
		"  -h, --help        this help\n"
		"\n"
		"Examples:\n"
		"  bondcheck inspect                      # every bond, live\n"
		"  bondcheck inspect --netns a bond0 -j\n"
		"  bondcheck inspect --record /tmp/rec bond0; bondcheck inspect --replay /tmp/rec\n"
		"  bondcheck inspect --from-proc /proc/net/bonding/bond0\n"
		"  bondcheck inspect --from-proc sos/proc/net/bonding/bond0 "
		"sos/proc/net/bonding/bond1\n"
		"  bondcheck inspect --from-proc saved.txt --name bond1 -j --json-file bond1.json\n"
		"  bondcheck inspect --from-sos sosreport-host-2024-01-01-abcdef.tar.xz\n"
		"  ip -s -d link show > links.txt; bondcheck inspect --from-ip links.txt\n"
		"  bondcheck inspect --from-ip sos/sos_commands/networking/ip_-d_address\n"
		"\n"
		"Exit status:\n"
		"  0  no error-level finding      1  at least one error-level finding\n"
		"  2  usage error                 3  environment: no permission, no bond, no\n"
		"                                    such bond or namespace\n"
		"  4  bad input data: a file that is missing, unreadable, or not\n"
		"     /proc/net/bonding, ip or sosreport data; a --replay folder that is\n"
		"     no recording, or a damaged one\n"
		"With -j, exit 2, 3 and 4 also print {\"error\": {...}} on stdout (docs/json.md).\n"
		"With --nagios the exit status is the check's state (0 to 3) instead.\n"
		"\n"
		"SOURCE_DATE_EPOCH, when set, fixes the JSON generated_at time.\n");
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "bondcheck inspect: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nRun `bondcheck inspect --help` for the options.\n");
	return BC_EXIT_USAGE;
}

static int add_file(struct inspect_opts *o, const char *path)
{
	if (o->n_files >= MAX_FILES)
		return usage_error("more than 64 files given; expected at most 64%s", "");
	o->files[o->n_files++] = path;
	return 0;
}

static int parse_args(int argc, char **argv, struct inspect_opts *o)
{
	enum {
		OPT_FROM_PROC = 256,
		OPT_NAME,
		OPT_JSON_FILE,
		OPT_NETNS,
		OPT_RECORD,
		OPT_REPLAY,
		OPT_FROM_SOS,
		OPT_FROM_IP,
		OPT_JSON_LINE,
		OPT_HOST,
		OPT_BRIEF,
		OPT_FORMAT,
		OPT_NAGIOS,
	};
	static const struct option longopts[] = {
		{"from-proc", required_argument, NULL, OPT_FROM_PROC},
		{"from-ip", required_argument, NULL, OPT_FROM_IP},
		{"name", required_argument, NULL, OPT_NAME},
		{"json", no_argument, NULL, 'j'},
		{"json-file", required_argument, NULL, OPT_JSON_FILE},
		{"quiet", no_argument, NULL, 'q'},
		{"brief", no_argument, NULL, OPT_BRIEF},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{"netns", required_argument, NULL, OPT_NETNS},
		{"record", required_argument, NULL, OPT_RECORD},
		{"replay", required_argument, NULL, OPT_REPLAY},
		{"from-sos", required_argument, NULL, OPT_FROM_SOS},
		{"json-line", no_argument, NULL, OPT_JSON_LINE},
		{"host", required_argument, NULL, OPT_HOST},
		{"format", required_argument, NULL, OPT_FORMAT},
		{"nagios", no_argument, NULL, OPT_NAGIOS},
		{NULL, 0, NULL, 0},
	};
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jqvh", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_FROM_PROC:
			rc = add_file(o, optarg);
			if (rc)
				return rc;
			break;
		case OPT_FROM_IP:
			if (o->n_ip_files >= MAX_FILES)
				return usage_error("more than 64 --from-ip files%s", "");
			o->ip_files[o->n_ip_files++] = optarg;
			break;
		case OPT_NAME:
			if (o->n_names >= MAX_FILES)
				return usage_error("more than 64 --name options%s", "");
			o->names[o->n_names++] = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case OPT_FORMAT: {
			int f = bc_cli_format_from_name(optarg);

			if (f < 0)
				return usage_error("--format '%s': expected text, json, prometheus "
						   "or nagios",
						   optarg);
			if (o->format && o->format != f)
				return usage_error("--format given twice with different formats; "
						   "give one%s",
						   "");
			o->format = f;
			break;
		}
		case OPT_NAGIOS:
			if (o->format && o->format != BC_FORMAT_NAGIOS)
				return usage_error("--nagios and --format %s contradict each other",
						   bc_cli_format_name(o->format));
			o->format = BC_FORMAT_NAGIOS;
			break;
		case OPT_JSON_FILE:
			o->json_file = optarg;
			break;
		case OPT_JSON_LINE:
			o->json_line = true;
			break;
		case OPT_HOST:
			if (!optarg || !*optarg || strlen(optarg) > 64 || strpbrk(optarg, " \t\r\n:"))
				return usage_error("--host '%s': expected a host name of 1 to 64 "
						   "characters without spaces or ':'",
						   optarg);
			o->host = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case OPT_BRIEF:
			o->brief = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case OPT_NETNS:
			o->netns = optarg;
			break;
		case OPT_RECORD:
			o->record_dir = optarg;
			break;
		case OPT_REPLAY:
			o->replay_dir = optarg;
			break;
		case OPT_FROM_SOS:
			if (o->sos)
				return usage_error(
					"--from-sos given twice; expected one sosreport%s", "");
			o->sos = optarg;
			break;
		default:
			return bc_cli_opt_error("inspect", c, argv, longopts);
		}
	}
	if (o->format == BC_FORMAT_JSON)
		o->json = true;
	if (o->json && o->format > BC_FORMAT_JSON)
		return usage_error("-j and --format %s contradict each other; give one",
				   bc_cli_format_name(o->format));
	if (o->format > BC_FORMAT_JSON && (o->quiet || o->verbose || o->brief || o->json_line))
		return usage_error("--format %s is a monitoring format; it cannot be combined "
				   "with -q, -v, --brief or --json-line",
				   bc_cli_format_name(o->format));
	if (o->quiet && o->verbose)
		return usage_error("-q and -v contradict each other; give one%s", "");
	if (o->brief && (o->quiet || o->verbose || o->json))
		return usage_error(
			"--brief prints the answers alone; it cannot be combined with %s",
			o->json	   ? "-j"
			: o->quiet ? "-q"
				   : "-v");
	if (o->sos && (o->n_files || o->n_ip_files || o->n_names || o->netns || o->record_dir ||
		       o->replay_dir || optind < argc))
		return usage_error(
			"--from-sos reads one sosreport and nothing else; it cannot be "
			"combined with --from-proc, --from-ip, --name, BOND, --netns, --record or "
			"--replay%s",
			"");
	if (o->n_ip_files && !o->n_files) {
		if (optind < argc)
			return usage_error("unexpected argument '%s': give each ip listing with "
					   "its own --from-ip",
					   argv[optind]);
		if (o->n_names)
			return usage_error("--name names a --from-proc FILE; an ip listing names "
					   "its bonds itself%s",
					   "");
	}
	if (o->n_ip_files && (o->netns || o->record_dir || o->replay_dir))
		return usage_error("--netns, --record and --replay are for live inspection; "
				   "they cannot be combined with --from-ip%s",
				   "");
	if (o->n_files) {
		for (int i = optind; i < argc; i++) {
			rc = add_file(o, argv[i]);
			if (rc)
				return rc;
		}
		if (o->n_names > o->n_files)
			return usage_error("more --name options than files; expected at most one "
					   "--name per --from-proc FILE%s",
					   "");
		if (o->netns || o->record_dir || o->replay_dir)
			return usage_error("--netns, --record and --replay are for live "
					   "inspection; they cannot be combined with --from-proc%s",
					   "");
	} else {
		if (o->n_names)
			return usage_error("--name names a --from-proc FILE; no file was given%s",
					   "");
		o->bonds = argv + optind;
		o->n_bonds = (size_t)(argc - optind);
	}
	return 0;
}

/*
 * The exit status of a saved file that could not be read (the table in
 * bondcheck(8)): no permission or no memory is the environment (3); a
 * missing, unreadable, malformed or oversized file is bad input data (4).
 */
static int file_status(int rc)
{
	return rc == -EACCES || rc == -EPERM || rc == -ENOMEM ? BC_EXIT_ENV : BC_EXIT_DATA;
}

static int load_files(const struct inspect_opts *o, struct bc_snapshot *snap)
{
	snap->source = BC_SRC_PROC_FILE;
	for (size_t i = 0; i < o->n_files; i++) {
		struct bc_error err = {0};
		int rc;

		if (i < o->n_names && !bc_ifname_valid(o->names[i])) {
			fprintf(stderr,
				"bondcheck inspect: --name '%s' is not an interface name: "
				"expected 1-15 characters without spaces, '/' or ':'\n",
				o->names[i]);
			return BC_EXIT_USAGE;
		}
		/* without --name the parser names the bond: the text's shell line, the
		 * file's stem, else bond0 (with a note); it never refuses a file */
		rc = bc_proc_parse_file(o->files[i], i < o->n_names ? o->names[i] : NULL, snap,
					&err);
		if (rc < 0) {
			fprintf(stderr, "bondcheck inspect: %s\n", err.msg);
			return file_status(rc);
		}
	}
	return 0;
}

/* --from-sos: the walker and the merge live in src/decode/sos-walk.c, src/workflow/sos.c. */
static int load_sos(const char *path, struct bc_snapshot *snap)
{
	struct bc_error err = {0};
	int rc = bc_sos_inspect(path, snap, &err);

	if (rc) {
		/* what the walker skipped explains an empty result */
		for (size_t i = 0; i < snap->n_warnings; i++)
			fprintf(stderr, "bondcheck: warning: %s\n", snap->warnings[i]);
		fprintf(stderr, "bondcheck inspect: %s\n", err.msg[0] ? err.msg : strerror(-rc));
		return file_status(rc);
	}
	return 0;
}

/* --from-ip: each file may hold several bonds (bc_ip_parse_file, ip-link.h). */
static int load_ip_files(const struct inspect_opts *o, struct bc_snapshot *snap)
{
	if (o->n_ip_files && !o->n_files)
		snap->source = BC_SRC_IP_FILE;
	for (size_t i = 0; i < o->n_ip_files; i++) {
		struct bc_error err = {0};

		int rc = bc_ip_parse_file(o->ip_files[i], snap, &err);

		if (rc < 0) {
			fprintf(stderr, "bondcheck inspect: %s\n", err.msg);
			return file_status(rc);
		}
	}
	return 0;
}

/*
 * The live path (or a --replay of one): bc_collect_snapshot() reads every
 * source; its errors (no bond, unknown bond, no such netns) are environment
 * problems, exit 3; a --replay folder that is no recording, or a damaged
 * one (-EPROTO), is bad input, exit 4.
 */
static int run_live(const struct inspect_opts *o, struct bc_snapshot *snap)
{
	struct bc_collect_opts co = {
		.bonds = (const char *const *)o->bonds,
		.n_bonds = o->n_bonds,
		.netns = o->netns,
		.record_dir = o->record_dir,
		.replay_dir = o->replay_dir,
	};
	struct bc_error err = {0};
	int rc;

	if (o->record_dir && o->replay_dir)
		return usage_error("--record and --replay exclude each other%s", "");
	if (o->replay_dir && o->netns)
		return usage_error("--netns is recorded with --record; a --replay ignores the "
				   "live namespaces, so do not give both%s",
				   "");
	rc = bc_collect_snapshot(&co, snap, &err);
	if (rc) {
		fprintf(stderr, "bondcheck inspect: %s\n", err.msg[0] ? err.msg : strerror(-rc));
		/* a folder that is no recording, or a damaged one, is bad input */
		return o->replay_dir && rc == -EPROTO ? BC_EXIT_DATA : BC_EXIT_ENV;
	}
	return 0;
}

static int write_json_file(const char *path, const struct bc_snapshot *snap,
			   const struct bc_inspect_render_opts *ro)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f) {
		fprintf(stderr, "bondcheck inspect: cannot write --json-file '%s': %s\n", path,
			strerror(errno));
		return BC_EXIT_ENV;
	}
	rc = bc_inspect_json_write(f, snap, ro);
	if (fclose(f) != 0 || rc) {
		fprintf(stderr, "bondcheck inspect: writing '%s' failed: %s\n", path,
			strerror(rc ? -rc : errno));
		return BC_EXIT_ENV;
	}
	return 0;
}

static int report(const struct inspect_opts *o, struct bc_snapshot *snap)
{
	struct bc_inspect_render_opts ro = {
		.quiet = o->quiet, .verbose = o->verbose, .brief = o->brief};
	struct utsname u;
	char when[32];
	int rc;

	bc_json_generated_at(when, sizeof(when));
	ro.generated_at = when;
	ro.json_line = o->json_line;
	/* the node name only when this host's own bonds were read */
	ro.host = o->host ? o->host
		  : snap->source == BC_SRC_LIVE && !uname(&u) ? u.nodename
								: NULL;
	if (!o->quiet)
		for (size_t i = 0; i < snap->n_warnings; i++)
			fprintf(stderr, "bondcheck: warning: %s\n", snap->warnings[i]);
	if (o->json_file) {
		rc = write_json_file(o->json_file, snap, &ro);
		if (rc)
			return rc;
	}
	if (o->format == BC_FORMAT_PROMETHEUS)
		rc = bc_inspect_prom_write(stdout, snap);
	else if (o->format == BC_FORMAT_NAGIOS)
		rc = bc_inspect_nagios_write(stdout, snap);
	else
		rc = o->json ? bc_inspect_json_write(stdout, snap, &ro)
			     : bc_inspect_text_write(stdout, snap, &ro);
	if (rc || fflush(stdout) != 0) {
		fprintf(stderr, "bondcheck inspect: writing the report failed\n");
		return BC_EXIT_ENV;
	}
	return bc_findings_count(snap, BC_SEV_ERROR) ? BC_EXIT_FINDINGS : BC_EXIT_OK;
}

/*
 * The end of a monitoring format's run with @status (the exit-status table):
 * --nagios turns a check that could not run (2, 3, 4) into UNKNOWN with the
 * first error line on stdout, and a report into its state; prometheus says
 * bondcheck_up 0 when inspect failed and keeps the status.
 */
static int monitor_status(int format, int status, const struct bc_snapshot *snap)
{
	bool failed = status == BC_EXIT_USAGE || status == BC_EXIT_ENV || status == BC_EXIT_DATA;

	if (format == BC_FORMAT_NAGIOS) {
		if (failed) {
			bc_inspect_nagios_unknown(stdout, bc_cli_error_message());
			return BC_NAGIOS_UNKNOWN;
		}
		return bc_inspect_nagios_state(snap);
	}
	if (format == BC_FORMAT_PROMETHEUS && failed)
		bc_inspect_prom_write_failed(stdout);
	return status;
}

int bc_cmd_inspect(int argc, char **argv)
{
	struct inspect_opts o = {0};
	struct bc_snapshot snap = {0};
	/* known before the options are parsed: a bad option is UNKNOWN too */
	int format = bc_cli_format_requested(argc, argv);
	int rc;

	rc = parse_args(argc, argv, &o);
	if (rc)
		return rc < 0 ? BC_EXIT_OK : monitor_status(format, rc, &snap);
	if (o.sos) {
		rc = load_sos(o.sos, &snap);
	} else if (o.n_files || o.n_ip_files) {
		rc = load_files(&o, &snap);
		if (!rc)
			rc = load_ip_files(&o, &snap);
	} else {
		rc = run_live(&o, &snap);
	}
	if (!rc) {
		if (bc_findings_evaluate(&snap) < 0) {
			fprintf(stderr, "bondcheck inspect: out of memory\n");
			rc = BC_EXIT_ENV;
		} else {
			rc = report(&o, &snap);
		}
	}
	rc = monitor_status(o.format, rc, &snap);
	bc_snapshot_free(&snap);
	return rc;
}
