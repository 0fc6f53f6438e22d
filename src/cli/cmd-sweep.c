// SPDX-License-Identifier: GPL-2.0-or-later
/* `bondcheck sweep`: options, output formats and exit codes for bondcheck/sweep.h. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bondcheck/ctl.h"
#include "bondcheck/json-get.h"
#include "bondcheck/sweep.h"
#include "bondcheck/units.h"
#include "cli/cli.h"

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bondcheck sweep --peer HOST --param NAME=V1,V2,... [options]\n"
		"\n"
		"Goodput against one parameter of the test, each point repeated, with its 95 %%\n"
		"confidence interval (Student's t) and the ceiling at that point: the physical\n"
		"limit of the link for that message size, stream count, rate or MTU\n"
		"(tbf: IP length + 14 per segment; NIC speed: + 38 per frame).\n"
		"\n"
		"  --peer HOST            the agent (`bondcheck serve`)                (required)\n"
		"  --param NAME=V1,V2,..  what to sweep                                 "
		"(required):\n"
		"                           size=64,512,1472   UDP payload / TCP write size, "
		"bytes\n"
		"                           streams=1,2,4,8    streams\n"
		"                           rate=10M,20M,40M   UDP offered rate (all streams)\n"
		"                           mtu=1500,4000,9000 MTU of both ends' bond (or "
		"bridge);\n"
		"                                              needs --allow-changes here and\n"
		"                                              `serve --allow-changes` there\n"
		"  --repetitions R        runs per point, 1..%d (default 3; CI needs 2)\n"
		"  --allow-changes        let an MTU sweep change both ends (journaled; restored\n"
		"                         at the end, on error and on Ctrl-C; `bondcheck restore`\n"
		"                         after a crash)\n"
		"  --stable-timeout S     after an MTU change, wait at most S seconds for the "
		"bond\n"
		"                         to be stable (default 60)\n"
		"  -p, --port N           agent control port (default %d)\n"
		"  --auth-key FILE        prove this pre-shared key to the agent\n"
		"  -u, --udp              UDP streams (default TCP)\n"
		"  -P, --parallel N       streams (default 1)\n"
		"  -b, --rate R           UDP: total offered rate (default 1M per stream)\n"
		"  -l, --length N         UDP payload / TCP write size when not swept\n"
		"  -t, --duration S       seconds per run (default 10)\n"
		"  -O, --omit S           warm-up seconds excluded from goodput (default 0)\n"
		"  --tmax S               RFC 7680 Tmax (default 1)\n"
		"  --link-rate R          link rate for the ceiling (default: tbf limit or NIC "
		"speed)\n"
		"  --link-accounting A    ethernet (IP length + 38 per frame) or tbf (+ 14)\n"
		"  --dport N              agent data port base (default %d)\n"
		"  -j, --json             the sweep document (docs/sweep.md)\n"
		"  --brief                only the answer (the best point against its ceiling)\n"
		"  --csv FILE             one row per point (- : standard output, the\n"
		"                         CSV alone)\n"
		"  --plot DIR             DIR/sweep.svg: goodput with its CI and the ceiling\n"
		"Exit status: 0 every point ran, 1 some runs failed, 2 usage, 3 no run\n"
		"succeeded, the changes failed or interrupted (both ends restored).\n",
		BC_SWEEP_MAX_REPS, BC_CTL_PORT, BC_DATA_PORT);
}

static int bad(const char *opt, const char *val, const char *allowed)
{
	return bc_cli_bad("sweep", opt, val, allowed);
}

static void on_progress(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "sweep: %s\n", line);
}

int bc_cmd_sweep(int argc, char **argv)
{
	int key_rc;
	static const struct option opts[] = {
		{"peer", required_argument, NULL, 'c'},
		{"param", required_argument, NULL, 'X'},
		{"repetitions", required_argument, NULL, 'n'},
		{"allow-changes", no_argument, NULL, 'A'},
		{"stable-timeout", required_argument, NULL, 'S'},
		{"port", required_argument, NULL, 'p'},
		{"auth-key", required_argument, NULL, 'k'},
		{"udp", no_argument, NULL, 'u'},
		{"parallel", required_argument, NULL, 'P'},
		{"rate", required_argument, NULL, 'b'},
		{"length", required_argument, NULL, 'l'},
		{"duration", required_argument, NULL, 't'},
		{"omit", required_argument, NULL, 'O'},
		{"tmax", required_argument, NULL, 'T'},
		{"link-rate", required_argument, NULL, 'L'},
		{"link-accounting", required_argument, NULL, 'a'},
		{"dport", required_argument, NULL, 'd'},
		{"json", no_argument, NULL, 'j'},
		{"brief", no_argument, NULL, 'B'},
		{"csv", required_argument, NULL, 'C'},
		{"plot", required_argument, NULL, 'G'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct bc_sweep_cfg cfg;
	struct bc_error err = {0};
	struct json_object *doc = NULL, *points;
	const char *csv = NULL, *param = NULL, *plot = NULL;
	bool json = false, ok_all = true, any = false, brief = false;
	double rate = 0;
	uint32_t ms;
	uint64_t sz;
	char *end;
	long v;
	int c, r, rc = BC_EXIT_OK;

	bc_sweep_cfg_defaults(&cfg);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":p:uP:b:l:t:O:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cfg.client.peer = optarg;
			break;
		case 'X':
			param = optarg;
			break;
		case 'n':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > BC_SWEEP_MAX_REPS)
				return bad("--repetitions", optarg, "1..100 runs per point");
			cfg.repetitions = (unsigned)v;
			break;
		case 'A':
			cfg.allow_changes = true;
			break;
		case 'S':
			if (bc_parse_seconds(optarg, &ms) < 0 || ms < 1000 || ms > 600000)
				return bad("--stable-timeout", optarg, "seconds, 1..600");
			cfg.stable_timeout_ms = (int)ms;
			break;
		case 'p':
			if (bc_cli_port("sweep", optarg, &cfg.client.port))
				return BC_EXIT_USAGE;
			break;
		case 'k':
			key_rc = bc_cli_auth_key("sweep", optarg, &cfg.client.key);
			if (key_rc)
				return key_rc;
			break;
		case 'u':
			cfg.client.plan.proto = BC_L4_UDP;
			break;
		case 'P':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > BC_PLAN_MAX_STREAMS)
				return bad("-P/--parallel", optarg, "1..128 streams");
			cfg.client.plan.streams = (uint32_t)v;
			cfg.client.streams_given = true;
			break;
		case 'b':
			if (bc_parse_rate(optarg, &rate) < 0 || rate < 1)
				return bad("--rate", optarg,
					   "a rate in bit/s with SI suffix, e.g. 50M");
			break;
		case 'l':
			if (bc_parse_size(optarg, &sz) < 0 || sz < 1 || sz > 16 * 1024 * 1024)
				return bad("--length", optarg,
					   "bytes: UDP 32..65507 (IPv4) or 65527 (IPv6)");
			cfg.client.plan.length = (uint32_t)sz;
			cfg.length_given = true;
			break;
		case 't':
			if (bc_parse_seconds(optarg, &cfg.client.plan.duration_ms) < 0 ||
			    cfg.client.plan.duration_ms < 100)
				return bad("--duration", optarg, "seconds, 0.1..86400");
			break;
		case 'O':
			if (bc_parse_seconds(optarg, &cfg.client.plan.omit_ms) < 0)
				return bad("--omit", optarg, "seconds shorter than --duration");
			break;
		case 'T':
			if (bc_parse_seconds(optarg, &cfg.client.plan.tmax_ms) < 0 ||
			    cfg.client.plan.tmax_ms > 60000)
				return bad("--tmax", optarg, "seconds, 0..60");
			break;
		case 'L':
			if (bc_parse_rate(optarg, &cfg.client.link_rate_bps) < 0 ||
			    cfg.client.link_rate_bps < 1)
				return bad("--link-rate", optarg, "a rate in bit/s, e.g. 100M");
			break;
		case 'a':
			if (!strcmp(optarg, "ethernet"))
				cfg.client.link_conv = BC_CONV_ETHERNET;
			else if (!strcmp(optarg, "tbf") || !strcmp(optarg, "qdisc"))
				cfg.client.link_conv = BC_CONV_QDISC;
			else
				return bad("--link-accounting", optarg, "ethernet or tbf");
			break;
		case 'd':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 65535)
				return bad("--dport", optarg, "a port number 1..65535");
			cfg.client.plan.dport = (uint16_t)v;
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
			return bc_cli_opt_error("sweep", c, argv, opts);
		}
	}
	if (json && csv && !strcmp(csv, "-")) {
		fprintf(stderr, "bondcheck sweep: -j and --csv - both want standard output; give "
				"--csv a file\n");
		return BC_EXIT_USAGE;
	}
	if (brief && (json || (csv && !strcmp(csv, "-")))) {
		fprintf(stderr, "bondcheck sweep: --brief is text; it cannot be combined with %s\n",
			json ? "-j" : "--csv -");
		return BC_EXIT_USAGE;
	}
	if (optind < argc) {
		fprintf(stderr, "bondcheck sweep: unexpected argument '%s'\n", argv[optind]);
		return BC_EXIT_USAGE;
	}
	if (!cfg.client.peer || !param) {
		fprintf(stderr, "bondcheck sweep: --peer HOST and --param NAME=V1,V2,... are "
				"required; see --help\n");
		return BC_EXIT_USAGE;
	}
	if (bc_sweep_spec_parse(param, &cfg.spec, &err) < 0) {
		fprintf(stderr, "bondcheck sweep: %s\n", err.msg);
		return BC_EXIT_USAGE;
	}
	if (cfg.client.plan.proto == BC_L4_TCP && rate > 0) {
		fprintf(stderr, "bondcheck sweep: --rate applies to UDP (-u); TCP runs unpaced\n");
		return BC_EXIT_USAGE;
	}
	if (cfg.spec.param == BC_SWEEP_MTU && !cfg.allow_changes) {
		fprintf(stderr, "bondcheck sweep: --param mtu changes the MTU on both ends; add "
				"--allow-changes (the peer needs `serve --allow-changes`)\n");
		return BC_EXIT_USAGE;
	}
	if (cfg.spec.param != BC_SWEEP_MTU && cfg.allow_changes) {
		fprintf(stderr, "bondcheck sweep: --allow-changes is for --param mtu only\n");
		return BC_EXIT_USAGE;
	}
	if (cfg.spec.param == BC_SWEEP_RATE && cfg.client.plan.proto != BC_L4_UDP) {
		fprintf(stderr,
			"bondcheck sweep: --param rate sweeps the UDP offered rate; add -u\n");
		return BC_EXIT_USAGE;
	}
	if (rate > 0) {
		cfg.client.total_rate_bps = rate;
		cfg.client.plan.rate_bps = (uint64_t)(rate / cfg.client.plan.streams);
	}
	if (cfg.client.plan.proto == BC_L4_UDP && !cfg.length_given)
		cfg.client.plan.length = 1472;
	r = bc_plan_check(&cfg.client.plan, NULL, &err);
	if (r < 0) {
		fprintf(stderr, "bondcheck sweep: %s\n", err.msg);
		return BC_EXIT_USAGE;
	}
	if (plot && (r = bc_cli_plot_dir("sweep", plot)) != BC_EXIT_OK)
		return r;
	if (isatty(STDERR_FILENO))
		cfg.progress = on_progress;
	cfg.interrupted = &interrupted;
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	r = bc_sweep_run(&cfg, &doc, &err);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (r < 0) {
		fprintf(stderr, "bondcheck sweep: %s\n", err.msg);
		if (!doc)
			return r == -EINVAL ? BC_EXIT_USAGE : BC_EXIT_ENV;
		rc = BC_EXIT_ENV;
	}
	if (csv && bc_cli_write_csv("sweep", csv, doc, bc_sweep_report_csv))
		rc = BC_EXIT_ENV;
	if (plot && bc_cli_write_plot("sweep", plot, "sweep.svg", doc, bc_sweep_report_plot))
		rc = BC_EXIT_ENV;
	if (json)
		printf("%s\n", json_object_to_json_string_ext(
				       doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
	else if (brief)
		bc_sweep_report_answers(stdout, doc);
	else if (!csv || strcmp(csv, "-")) /* --csv -: the table alone on stdout */
		bc_sweep_report_text(stdout, doc);
	points = json_object_object_get(doc, "points");
	for (size_t i = 0; i < bc_json_len(points); i++) {
		long long n = bc_json_i64(json_object_array_get_idx(points, i), "n", 0);

		any |= n > 0;
		ok_all &= n == (long long)cfg.repetitions;
	}
	if (rc == BC_EXIT_OK)
		rc = !any ? BC_EXIT_ENV : ok_all ? BC_EXIT_OK : BC_EXIT_FINDINGS;
	json_object_put(doc);
	return rc;
}
