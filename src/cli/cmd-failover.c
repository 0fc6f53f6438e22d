// SPDX-License-Identifier: GPL-2.0-or-later
/* `bondcheck failover`: options, output and exit codes for bondcheck/failover-run.h. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bondcheck/ctl.h"
#include "bondcheck/failover-report.h"
#include "bondcheck/failover-run.h"
#include "bondcheck/json-get.h"
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
		"Usage: bondcheck failover --peer HOST --slave NAME --allow-changes [options]\n"
		"\n"
		"Take one slave of the local bond down under a paced UDP stream in both\n"
		"directions, bring it back after a hold, and measure what the streams saw:\n"
		"the traffic gap each way (last datagram before, first after, from the\n"
		"captures on every slave of both ends), datagrams lost, duplicated and\n"
		"reordered, gratuitous ARPs and unsolicited NAs, the slaves before and after,\n"
		"and when the slave carries traffic again (LACP re-sync).  Each gap is set\n"
		"against what the bond's configuration implies (miimon + downdelay,\n"
		"arp_interval x arp_missed_max, LACP 3 s / 90 s): failover-slow, and\n"
		"failover-black-hole when no monitoring sees the cut.  The bond is put back\n"
		"on every exit (also SIGINT/SIGTERM).  The agent needs no special option.\n"
		"\n"
		"  --peer HOST         the agent (`bondcheck serve`)                (required)\n"
		"  --slave NAME        the local slave to cut; its bond must carry the route\n"
		"                      to HOST                                       (required)\n"
		"  --allow-changes     consent: this command takes a slave down      (required)\n"
		"  -p, --port N        agent control port (default %d)\n"
		"  --auth-key FILE     prove this pre-shared key to the agent\n"
		"  -4, -6              IPv4 or IPv6 only\n"
		"  --rate PPS          datagrams/s in each direction (default 2000); the gap\n"
		"                      resolution is one datagram interval\n"
		"  -l, --length N      UDP payload bytes, 32..1472 (default 256)\n"
		"  --tcp               also run one TCP flow, client -> agent only, beside the\n"
		"                      UDP streams, and report its stall (the longest time\n"
		"                      without new in-order data at the agent around the\n"
		"                      cut), retransmissions, goodput before/after and the\n"
		"                      slaves it used.  Expect the stall to be at least the\n"
		"                      client-to-agent UDP gap, longer when TCP waits for its\n"
		"                      retransmission timeout (RTO; Linux: srtt + 200 ms at\n"
		"                      least), at most twice the gap + one RTO (RFC 6298\n"
		"                      doubles it per timeout)\n"
		"  --tcp-rate RATE     its pacing, payload bits/s (default 8M; 0: unpaced,\n"
		"                      which fills the link and delays the UDP streams)\n"
		"  --pre S             seconds of traffic before the cut (default 1)\n"
		"  --hold S            seconds the slave stays cut (default 2, or the\n"
		"                      configuration's longest detection + 1 s)\n"
		"  --settle S          seconds after the slave returns (default from the\n"
		"                      configuration: updelay + 1.5 s, 5 s for 802.3ad)\n"
		"  --cut-mode M        carrier: admin down (a veth peer, a switch port see\n"
		"                      carrier loss; default); silent: run --cut-cmd, which\n"
		"                      must drop the slave's frames without a carrier change\n"
		"                      (only ARP monitoring or LACP can see that)\n"
		"  --cut-cmd CMD       silent: shell command that starts dropping (e.g. a tc\n"
		"                      drop filter on the wire or a switch port ACL)\n"
		"  --restore-cmd CMD   silent: shell command that stops dropping; run on every\n"
		"                      exit once --cut-cmd ran\n"
		"  --keep-pcaps DIR    keep both ends' per-slave pcaps in DIR\n"
		"  --plot DIR          write the timeline plot (datagrams per 10 ms per slave)\n"
		"  -j, --json          the JSON document (docs/failover.md)\n"
		"  --brief             only the answers (gap vs expected), same exit status\n"
		"  --from-json FILE    no test: read a saved document (-j output) and print\n"
		"                      its report (text, -j, --plot) again\n"
		"\n"
		"Exit status: 0 ran (failover-slow is a warning), 1 an error-level finding\n"
		"(black hole, not recovered), 2 usage, 3 environment or interrupted (the\n"
		"bond is restored first), 4 a --from-json file that cannot be read or is\n"
		"not a failover document.\n",
		BC_CTL_PORT);
}

static int bad(const char *opt, const char *val, const char *allowed)
{
	return bc_cli_bad("failover", opt, val, allowed);
}

static void on_progress(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "bondcheck failover: %s\n", line);
}

static int seconds(const char *opt, const char *v, uint32_t *ms, uint32_t min_ms)
{
	if (bc_parse_seconds(v, ms) < 0 || *ms < min_ms || *ms > 600000)
		return bad(opt, v, "seconds, e.g. 2 or 0.5, at most 600");
	return 0;
}

static bool has_error(struct json_object *doc)
{
	struct json_object *fs = json_object_object_get(doc, "findings");

	for (size_t i = 0; i < bc_json_len(fs); i++)
		if (!strcmp(bc_json_str(json_object_array_get_idx(fs, i), "severity"), "error"))
			return true;
	return false;
}

/* --brief: the answer block alone (one run per process: a file-scope flag) */
static bool brief;

static int print_doc(struct json_object *doc, bool json)
{
	if (brief)
		bc_failover_report_answers(stdout, doc);
	else if (json)
		printf("%s\n", json_object_to_json_string_ext(
				       doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
	else
		bc_failover_report_text(stdout, doc);
	return has_error(doc) ? BC_EXIT_FINDINGS : BC_EXIT_OK;
}

/* --from-json FILE: the report of a saved document; exit 4 for no JSON or another kind. */
static int from_json(const char *file, bool json, const char *plot_dir)
{
	struct json_object *doc;
	struct bc_error err = {0};
	int rc;

	rc = bc_cli_read_json("failover", "--from-json", file, &doc);
	if (rc != BC_EXIT_OK)
		return rc;
	if (strcmp(bc_json_str(doc, "kind"), "failover")) {
		fprintf(stderr,
			"bondcheck failover: --from-json %s: a '%s' document, not 'failover'; "
			"give the -j output of bondcheck failover\n",
			file, bc_json_str(doc, "kind")[0] ? bc_json_str(doc, "kind") : "(no kind)");
		json_object_put(doc);
		return BC_EXIT_DATA;
	}
	if (bc_failover_reread(doc, &err) < 0) {
		fprintf(stderr, "bondcheck failover: --from-json %s: %s\n", file, err.msg);
		json_object_put(doc);
		return BC_EXIT_ENV;
	}
	if (plot_dir && bc_failover_plot(plot_dir, doc, &err) < 0)
		fprintf(stderr, "bondcheck failover: no failover-timeline.svg: %s\n", err.msg);
	rc = print_doc(doc, json);
	json_object_put(doc);
	return rc;
}

int bc_cmd_failover(int argc, char **argv)
{
	int key_rc;
	static const struct option opts[] = {
		{"peer", required_argument, NULL, 'c'},
		{"slave", required_argument, NULL, 'S'},
		{"allow-changes", no_argument, NULL, 'A'},
		{"port", required_argument, NULL, 'p'},
		{"auth-key", required_argument, NULL, 'k'},
		{"rate", required_argument, NULL, 'r'},
		{"length", required_argument, NULL, 'l'},
		{"tcp", no_argument, NULL, 'T'},
		{"tcp-rate", required_argument, NULL, 'R'},
		{"pre", required_argument, NULL, 'P'},
		{"hold", required_argument, NULL, 'H'},
		{"settle", required_argument, NULL, 's'},
		{"cut-mode", required_argument, NULL, 'm'},
		{"cut-cmd", required_argument, NULL, 'x'},
		{"restore-cmd", required_argument, NULL, 'y'},
		{"keep-pcaps", required_argument, NULL, 'K'},
		{"plot", required_argument, NULL, 'G'},
		{"json", no_argument, NULL, 'j'},
		{"from-json", required_argument, NULL, 'F'},
		{"brief", no_argument, NULL, 'B'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct bc_failover_run_cfg cfg;
	struct bc_error err = {0};
	struct json_object *doc = NULL;
	struct sigaction sa = {.sa_handler = on_signal};
	bool allow = false, json = false, tcp_rate = false;
	const char *from = NULL;
	char *end;
	long v;
	int c, r;

	bc_failover_run_defaults(&cfg);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:p:l:46jh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cfg.client.peer = optarg;
			break;
		case 'S':
			cfg.slave = optarg;
			break;
		case 'A':
			allow = true;
			break;
		case 'p':
			if (bc_cli_port("failover", optarg, &cfg.client.port))
				return BC_EXIT_USAGE;
			break;
		case 'k':
			key_rc = bc_cli_auth_key("failover", optarg, &cfg.client.key);
			if (key_rc)
				return key_rc;
			break;
		case '4':
			cfg.client.family = 4;
			break;
		case '6':
			cfg.client.family = 6;
			break;
		case 'r':
			v = strtol(optarg, &end, 10);
			if (*end || v < 10 || v > 1000000)
				return bad("--rate", optarg, "datagrams per second, 10..1000000");
			cfg.rate_pps = (uint32_t)v;
			break;
		case 'l':
			v = strtol(optarg, &end, 10);
			if (*end || v < 32 || v > 1472)
				return bad("--length", optarg,
					   "payload bytes 32..1472 (one unfragmented datagram)");
			cfg.length = (uint32_t)v;
			break;
		case 'T':
			cfg.tcp = true;
			break;
		case 'R': {
			double bps;

			if (bc_parse_rate(optarg, &bps) < 0 || bps > 100e9)
				return bad("--tcp-rate", optarg,
					   "payload bits/s such as 8M or 500k (0: unpaced)");
			cfg.tcp_rate_bps = (uint64_t)bps;
			tcp_rate = true;
			break;
		}
		case 'P':
			if (seconds("--pre", optarg, &cfg.pre_ms, 200))
				return BC_EXIT_USAGE;
			break;
		case 'H':
			if (seconds("--hold", optarg, &cfg.hold_ms, 100))
				return BC_EXIT_USAGE;
			break;
		case 's':
			if (seconds("--settle", optarg, &cfg.settle_ms, 500))
				return BC_EXIT_USAGE;
			break;
		case 'm':
			if (!strcmp(optarg, "carrier"))
				cfg.cut = BC_FO_CUT_CARRIER;
			else if (!strcmp(optarg, "silent"))
				cfg.cut = BC_FO_CUT_SILENT;
			else
				return bad("--cut-mode", optarg, "carrier or silent");
			break;
		case 'x':
			cfg.cut_cmd = optarg;
			break;
		case 'y':
			cfg.restore_cmd = optarg;
			break;
		case 'K':
			cfg.keep_pcaps = optarg;
			break;
		case 'G':
			cfg.plot_dir = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'F':
			from = optarg;
			break;
		case 'B':
			brief = true;
			break;
		case 'h':
			usage(stdout);
			return BC_EXIT_OK;
		default:
			return bc_cli_opt_error("failover", c, argv, opts);
		}
	}
	if (optind < argc) {
		fprintf(stderr, "bondcheck failover: unexpected argument '%s'\n", argv[optind]);
		return BC_EXIT_USAGE;
	}
	if (brief && json) {
		fprintf(stderr,
			"bondcheck failover: --brief is text; it cannot be combined with -j\n");
		return BC_EXIT_USAGE;
	}
	if (from)
		return from_json(from, json, cfg.plot_dir);
	if (!cfg.client.peer || !cfg.slave) {
		fprintf(stderr, "bondcheck failover: --peer HOST and --slave NAME are required "
				"(the agent, and the local slave to take down)\n");
		return BC_EXIT_USAGE;
	}
	if (!allow) {
		fprintf(stderr,
			"bondcheck failover: --allow-changes is required: this command takes "
			"%s down (and puts it back); traffic on it stops meanwhile\n",
			cfg.slave);
		return BC_EXIT_USAGE;
	}
	if (tcp_rate && !cfg.tcp) {
		fprintf(stderr, "bondcheck failover: --tcp-rate paces the TCP flow of --tcp; "
				"give --tcp too\n");
		return BC_EXIT_USAGE;
	}
	if (cfg.cut == BC_FO_CUT_CARRIER && (cfg.cut_cmd || cfg.restore_cmd)) {
		fprintf(stderr, "bondcheck failover: --cut-cmd and --restore-cmd belong to "
				"--cut-mode silent\n");
		return BC_EXIT_USAGE;
	}
	if (cfg.cut == BC_FO_CUT_SILENT && (!cfg.cut_cmd || !cfg.restore_cmd)) {
		fprintf(stderr, "bondcheck failover: --cut-mode silent needs --cut-cmd CMD and "
				"--restore-cmd CMD (the commands that start and stop dropping the "
				"slave's frames on the wire)\n");
		return BC_EXIT_USAGE;
	}
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	cfg.interrupted = &interrupted;
	if (isatty(STDERR_FILENO))
		cfg.progress = on_progress;
	r = bc_failover_run(&cfg, &doc, &err);
	if (r < 0 && !doc) {
		if (r == -EINTR)
			fprintf(stderr, "bondcheck failover: interrupted; %s/%s restored\n",
				"the bond", cfg.slave);
		else
			fprintf(stderr, "bondcheck failover: %s\n", err.msg);
		return r == -EINVAL ? BC_EXIT_USAGE : BC_EXIT_ENV;
	}
	c = print_doc(doc, json);
	if (r < 0) {
		fprintf(stderr, "bondcheck failover: %s\n", err.msg);
		c = BC_EXIT_ENV;
	}
	json_object_put(doc);
	return c;
}
