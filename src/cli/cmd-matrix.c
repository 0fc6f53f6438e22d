// SPDX-License-Identifier: GPL-2.0-or-later
/* `bondcheck matrix`: options, output formats and exit codes for bondcheck/matrix.h. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bondcheck/ctl.h"
#include "bondcheck/json-get.h"
#include "bondcheck/matrix.h"
#include "bondcheck/units.h"
#include "cli/cli.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bondcheck matrix --hosts H1,H2,... --auth-key FILE [options]\n"
		"\n"
		"Test every ordered pair of a cluster's hosts.  Each host runs `bondcheck serve\n"
		"--auth-key FILE` with the same key.  The controller (this command) proves the\n"
		"key to every agent, then asks agent A to run the test towards agent B, which\n"
		"accepts A's authenticated connection: no agent sends to a host that did not\n"
		"consent.  After each test A sends DF probes of both hosts' MTU sizes to B (the\n"
		"path MTU check: jumbo frames set on a host but not along the path).\n"
		"Output: goodput matrix with efficiency against each pair's ceiling (the\n"
		"smaller of the two ends' links), path MTU matrix, findings per host (slow host,\n"
		"MTU mismatch, RX drops, unreachable).  A host that does not answer is\n"
		"reported and the rest of the matrix still runs.\n"
		"\n"
		"  --hosts H1,H2,...      the agents (names or addresses, 2..%d)      (required)\n"
		"  --auth-key FILE        the key every agent was started with        (required)\n"
		"  -p, --port N           agents' control port (default %d)\n"
		"  --concurrency N        pairs at once, in rounds of disjoint pairs (default 1:\n"
		"                         tests never share a NIC or a CPU)\n"
		"  -t, --duration S       seconds per pair (default 5)\n"
		"  -O, --omit S           warm-up seconds excluded from goodput (default 0)\n"
		"  -u, --udp              UDP (default TCP); give the rate with -b\n"
		"  -b, --rate R           UDP: offered rate per pair, bit/s with SI suffix (50M)\n"
		"  -P, --parallel N       streams per pair (default 1)\n"
		"  -l, --length N         UDP payload / TCP write size, bytes\n"
		"  --dport N              agents' data port base (default %d)\n"
		"  --no-pmtu              skip the DF probes\n"
		"  -j, --json             the matrix document (docs/matrix.md)\n"
		"  --brief                only the answers (slow hosts, MTU)\n"
		"  --csv FILE             one row per ordered pair (- : standard output, the\n"
		"                         CSV alone)\n"
		"  --plot DIR             DIR/matrix.svg: the goodput heatmap (PLplot)\n"
		"Exit status: 0 no error-level finding, 1 error-level findings (slow host, MTU\n"
		"mismatch, unreachable host, failed pair), 2 usage, 3 no pair could run.\n",
		BC_MATRIX_MAX_HOSTS, BC_CTL_PORT, BC_DATA_PORT);
}

static int bad(const char *opt, const char *val, const char *allowed)
{
	return bc_cli_bad("matrix", opt, val, allowed);
}

static void on_progress(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "matrix: %s\n", line);
}

/* Split @list at commas into @hosts (pointers into @list).  Returns the count or -1. */
static int split_hosts(char *list, const char **hosts, int max, const char **why)
{
	int n = 0;

	for (char *s = strtok(list, ","); s; s = strtok(NULL, ",")) {
		while (*s == ' ')
			s++;
		s[strcspn(s, " ")] = '\0';
		if (!*s)
			continue;
		if (n == max) {
			*why = "too many hosts";
			return -1;
		}
		for (int i = 0; i < n; i++)
			if (!strcmp(hosts[i], s)) {
				*why = "a host is listed twice";
				return -1;
			}
		hosts[n++] = s;
	}
	if (n < 2) {
		*why = "at least 2 hosts";
		return -1;
	}
	return n;
}

int bc_cmd_matrix(int argc, char **argv)
{
	int key_rc;
	static const struct option opts[] = {
		{"hosts", required_argument, NULL, 'H'},
		{"auth-key", required_argument, NULL, 'k'},
		{"port", required_argument, NULL, 'p'},
		{"concurrency", required_argument, NULL, 'c'},
		{"duration", required_argument, NULL, 't'},
		{"omit", required_argument, NULL, 'O'},
		{"udp", no_argument, NULL, 'u'},
		{"rate", required_argument, NULL, 'b'},
		{"parallel", required_argument, NULL, 'P'},
		{"length", required_argument, NULL, 'l'},
		{"dport", required_argument, NULL, 'd'},
		{"no-pmtu", no_argument, NULL, 'N'},
		{"json", no_argument, NULL, 'j'},
		{"brief", no_argument, NULL, 'B'},
		{"csv", required_argument, NULL, 'C'},
		{"plot", required_argument, NULL, 'G'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const char *hosts[BC_MATRIX_MAX_HOSTS];
	struct bc_matrix_cfg cfg;
	struct bc_error err = {0};
	struct json_object *doc = NULL, *fs;
	const char *csv = NULL, *why = "", *plot = NULL;
	char *host_list = NULL;
	bool json = false, have_key = false, have_len = false, brief = false;
	double rate = 0;
	uint64_t sz;
	char *end;
	long v;
	int c, r, n, rc = BC_EXIT_OK;

	bc_matrix_cfg_defaults(&cfg);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:t:O:ub:P:l:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'H':
			host_list = optarg;
			break;
		case 'k':
			key_rc = bc_cli_auth_key("matrix", optarg, &cfg.key);
			if (key_rc)
				return key_rc;
			have_key = true;
			break;
		case 'p':
			if (bc_cli_port("matrix", optarg, &cfg.port))
				return BC_EXIT_USAGE;
			break;
		case 'c':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > BC_MATRIX_MAX_HOSTS / 2)
				return bad("--concurrency", optarg, "1..32 pairs at once");
			cfg.concurrency = (unsigned)v;
			break;
		case 't':
			if (bc_parse_seconds(optarg, &cfg.plan.duration_ms) < 0 ||
			    cfg.plan.duration_ms < 100)
				return bad("--duration", optarg, "seconds, 0.1..86400");
			break;
		case 'O':
			if (bc_parse_seconds(optarg, &cfg.plan.omit_ms) < 0)
				return bad("--omit", optarg, "seconds shorter than --duration");
			break;
		case 'u':
			cfg.plan.proto = BC_L4_UDP;
			break;
		case 'b':
			if (bc_parse_rate(optarg, &rate) < 0 || rate < 1)
				return bad("--rate", optarg,
					   "a rate in bit/s with SI suffix, e.g. 50M");
			break;
		case 'P':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > BC_PLAN_MAX_STREAMS)
				return bad("-P/--parallel", optarg, "1..128 streams");
			cfg.plan.streams = (uint32_t)v;
			break;
		case 'l':
			if (bc_parse_size(optarg, &sz) < 0 || sz < 1 || sz > 16 * 1024 * 1024)
				return bad("--length", optarg,
					   "bytes: UDP 32..65507 (IPv4) or 65527 (IPv6)");
			cfg.plan.length = (uint32_t)sz;
			have_len = true;
			break;
		case 'd':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 65535)
				return bad("--dport", optarg, "a port number 1..65535");
			cfg.plan.dport = (uint16_t)v;
			break;
		case 'N':
			cfg.pmtu = false;
			break;
		case 'j':
			json = true;
			break;
		case 'B':
			brief = true;
			break;
		case 'C':
			csv = optarg;
			break;
		case 'G':
			plot = optarg;
			break;
		case 'h':
			usage(stdout);
			return BC_EXIT_OK;
		default:
			return bc_cli_opt_error("matrix", c, argv, opts);
		}
	}
	if (json && csv && !strcmp(csv, "-")) {
		fprintf(stderr, "bondcheck matrix: -j and --csv - both want standard output; give "
				"--csv a file\n");
		return BC_EXIT_USAGE;
	}
	if (brief && (json || (csv && !strcmp(csv, "-")))) {
		fprintf(stderr,
			"bondcheck matrix: --brief is text; it cannot be combined with %s\n",
			json ? "-j" : "--csv -");
		return BC_EXIT_USAGE;
	}
	if (optind < argc) {
		fprintf(stderr, "bondcheck matrix: unexpected argument '%s'; hosts go in --hosts\n",
			argv[optind]);
		return BC_EXIT_USAGE;
	}
	if (!host_list) {
		fprintf(stderr,
			"bondcheck matrix: --hosts H1,H2,... is required (the hosts running "
			"`bondcheck serve --auth-key FILE`)\n");
		return BC_EXIT_USAGE;
	}
	n = split_hosts(host_list, hosts, BC_MATRIX_MAX_HOSTS, &why);
	if (n < 0) {
		fprintf(stderr, "bondcheck matrix: --hosts: %s; expected 2..%d distinct hosts\n",
			why, BC_MATRIX_MAX_HOSTS);
		return BC_EXIT_USAGE;
	}
	if (!have_key) {
		fprintf(stderr,
			"bondcheck matrix: --auth-key FILE is required: agents relay tests "
			"only between hosts that prove the same key (start each with `bondcheck "
			"serve --auth-key FILE`)\n");
		return BC_EXIT_USAGE;
	}
	if (cfg.plan.proto == BC_L4_TCP && rate > 0) {
		fprintf(stderr, "bondcheck matrix: --rate applies to UDP (-u); TCP runs unpaced\n");
		return BC_EXIT_USAGE;
	}
	if (cfg.plan.proto == BC_L4_UDP) {
		if (!(rate > 0)) {
			fprintf(stderr, "bondcheck matrix: -u needs --rate R (the offered rate per "
					"pair, e.g. 50M)\n");
			return BC_EXIT_USAGE;
		}
		cfg.plan.rate_bps = (uint64_t)(rate / cfg.plan.streams);
		if (!have_len)
			cfg.plan.length = 1472;
	}
	r = bc_plan_check(&cfg.plan, NULL, &err);
	if (r < 0) {
		fprintf(stderr, "bondcheck matrix: %s\n", err.msg);
		return BC_EXIT_USAGE;
	}
	if (plot && (r = bc_cli_plot_dir("matrix", plot)) != BC_EXIT_OK)
		return r;
	cfg.hosts = hosts;
	cfg.n_hosts = (unsigned)n;
	if (isatty(STDERR_FILENO))
		cfg.progress = on_progress;
	signal(SIGPIPE, SIG_IGN);
	r = bc_matrix_run(&cfg, &doc, &err);
	if (r < 0) {
		fprintf(stderr, "bondcheck matrix: %s\n", err.msg);
		return r == -EINVAL ? BC_EXIT_USAGE : BC_EXIT_ENV;
	}
	if (csv && bc_cli_write_csv("matrix", csv, doc, bc_matrix_report_csv))
		rc = BC_EXIT_ENV;
	if (plot && bc_cli_write_plot("matrix", plot, "matrix.svg", doc, bc_matrix_report_plot))
		rc = BC_EXIT_ENV;
	if (json)
		printf("%s\n", json_object_to_json_string_ext(
				       doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
	else if (brief)
		bc_matrix_report_answers(stdout, doc);
	else if (!csv || strcmp(csv, "-")) /* --csv -: the table alone on stdout */
		bc_matrix_report_text(stdout, doc);
	if (rc == BC_EXIT_OK) {
		struct json_object *pairs = json_object_object_get(doc, "pairs");
		bool any_ok = false;

		for (size_t k = 0; k < bc_json_len(pairs); k++)
			any_ok |= !strcmp(
				bc_json_str(json_object_array_get_idx(pairs, k), "status"), "ok");
		fs = json_object_object_get(doc, "findings");
		for (size_t k = 0; k < bc_json_len(fs); k++)
			if (!strcmp(bc_json_str(json_object_array_get_idx(fs, k), "severity"),
				    "error"))
				rc = BC_EXIT_FINDINGS;
		if (!any_ok)
			rc = BC_EXIT_ENV;
	}
	json_object_put(doc);
	return rc;
}
