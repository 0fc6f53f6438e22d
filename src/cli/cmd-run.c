// SPDX-License-Identifier: GPL-2.0-or-later
/* `bondcheck run`: options, output formats and exit codes for bondcheck/client.h. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/client.h"
#include "bondcheck/ctl.h"
#include "bondcheck/run-report.h"
#include "bondcheck/units.h"
#include "cli/cli.h"
#include "cli/run-suite.h"
#include "workflow/run-capture.h"

enum { OUT_TEXT, OUT_JSON, OUT_JSON_STREAM };

/*
 * Options that shape one test: any of them runs that single test instead of
 * the suite ('C' cport, 'G' gso, 's' socket-buffer, 'Q' place, 'K' capture,
 * 'E' keep-pcaps, 'J' json-stream, 'D' bidir, 'r' rate-per-stream, 'T' tmax).
 */
#define SINGLE_SHORT "uPRDbrltOiTCGsQKEJ"

/* How to name the single-test option @c in a message. */
static const char *single_name(int c)
{
	static const struct {
		int c;
		const char *name;
	} names[] = {
		{'u', "-u/--udp"},	{'P', "-P/--parallel"},	  {'R', "-R/--reverse"},
		{'D', "--bidir"},	{'b', "-b/--rate"},	  {'r', "--rate-per-stream"},
		{'l', "-l/--length"},	{'t', "-t/--duration"},	  {'O', "-O/--omit"},
		{'i', "-i/--interval"}, {'T', "--tmax"},	  {'C', "--cport"},
		{'G', "--gso"},		{'s', "--socket-buffer"}, {'Q', "--place"},
		{'K', "--capture"},	{'E', "--keep-pcaps"},	  {'J', "--json-stream"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].c == c)
			return names[i].name;
	return "?";
}

struct run_out {
	int mode;
	FILE *f;
};

#ifdef BC_SUITE_PLOTS
#define PLOT_HELP                                                                                  \
	"  --plot DIR             SVG plots in DIR: links-tcp-k.svg, links-udp-over.svg\n"         \
	"                         (per-link throughput), reorder-density.svg, ledger.svg\n"
#else
#define PLOT_HELP                                                                                  \
	"  --plot DIR             SVG plots (not built yet: the option fails with exit 2)\n"
#endif

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bondcheck run --peer HOST [--quick] [suite options]      the test suite\n"
		"       bondcheck run --peer HOST SINGLE-TEST OPTIONS...          one test\n"
		"       bondcheck run --from-json FILE [--csv F] [-j]             re-render a "
		"saved run\n"
		"\n"
		"Without single-test options, run measures the bond with a test suite and gives\n"
		"three verdicts (docs/run.md \"The suite\"): it inspects both ends' bonds, runs\n"
		"TCP with 1 flow (baseline) and with K flows placed one per slave (capture on\n"
		"every slave, both ends), searches the UDP no-drop rate (<= 6 trials of 5 s),\n"
		"probes 1.25x above it (capture, loss ledger), and reports per link, per flow,\n"
		"the ledger, reordering, findings and the verdicts Aggregation, UDP gap and\n"
		"Drivers.  About 70-120 s; --quick about 15 s.  Exit 1 when a verdict fails or\n"
		"an error-level finding stands, 3 when the agent was lost (partial report).\n"
		"Any single-test option (-u -P -R --bidir -b --rate-per-stream -l -t -O -i --tmax\n"
		"--cport --gso --socket-buffer --place --capture --keep-pcaps --json-stream) runs\n"
		"that one test instead, as before.  Rates are bit/s with SI suffixes: 100M, 1.5G.\n"
		"\n"
		"Both modes:\n"
		"  --peer HOST            the agent (name or address)            (required)\n"
		"  -p, --port N           agent control port (default %d)\n"
		"  --auth-key FILE        prove this pre-shared key to the agent\n"
		"  -4, -6                 IPv4 or IPv6 only\n"
		"  --dport N              agent data port base (default %d; UDP stream i uses "
		"N+i)\n"
		"  --link-rate R          per-link rate for the ceilings, each slave's on a bond\n"
		"                         (default: the slave's tbf limit, else its negotiated\n"
		"                         speed; a virtual device such as veth has none)\n"
		"  --link-accounting A    ethernet (IP length + 38 per frame) or tbf (IP length + "
		"14)\n"
		"  -j, --json             JSON to stdout instead of text\n"
		"  --brief                the answer block alone (the exit line on stderr);\n"
		"                         the same exit status as the full report\n"
		"  --json-file FILE       also write the JSON to FILE\n"
		"\n"
		"Suite only:\n"
		"  --quick                short suite (0.5 s omit, 1 s TCP, 3 trials of 0.75 s,\n"
		"                         a 1 s probe): what CI and tools/demo run\n"
		"  --csv FILE             one row per test and link (columns in docs/run.md);\n"
		"                         FILE - writes it to stdout instead of the "
		"text\n" PLOT_HELP
		"  --from-json FILE       analyse and render a saved suite document, or render a\n"
		"                         saved single-test one (-j output); no traffic\n"
		"\n"
		"Single test:\n"
		"  -u, --udp              UDP streams (default TCP)\n"
		"  -P, --parallel N       streams per direction, 1..%d (default 1)\n"
		"  -R, --reverse          the agent sends\n"
		"  --bidir                both directions at once (N streams each)\n"
		"  -b, --rate R           UDP: total offered rate per direction (default 1M per "
		"stream)\n"
		"  --rate-per-stream R    UDP: offered rate of each stream\n"
		"  -l, --length N         UDP payload bytes, 32..65507 (IPv4) / 65527 (IPv6);\n"
		"                         TCP write size (default 1472 UDP, 128K TCP)\n"
		"  -t, --duration S       seconds of traffic (default 10)\n"
		"  -O, --omit S           warm-up seconds excluded from goodput (default 0)\n"
		"  -i, --interval S       report interval, seconds (default 1)\n"
		"  --tmax S               RFC 7680 Tmax: wait after sending before counting loss "
		"(default 1)\n"
		"  --cport BASE[:STRIDE]  client ports BASE, BASE+STRIDE, ... (default ephemeral)\n"
		"  --gso                  UDP: send with GSO (UDP_SEGMENT), receive with GRO;\n"
		"                         --length must then fit the path MTU\n"
		"  --socket-buffer SIZE   UDP socket buffers to ask for (default 4M; clamping is "
		"reported)\n"
		"  --place per-slave[=K]  pick client ports so each usable slave of the bond the\n"
		"                         route leaves by transmits K streams (sets the count)\n"
		"  --capture [SOURCE]     capture on every slave on both ends (root), then\n"
		"                         per-link frames, paths, loss, reordering pairs;\n"
		"                         SOURCE: auto (default: the eBPF slave taps when both\n"
		"                         ends can load them, else pcap), pcap, taps (or fail),\n"
		"                         both (taps and pcap on the same run, compared)\n"
		"  --keep-pcaps DIR       with --capture: keep one pcap per slave and side in DIR\n"
		"                         (pcap then runs beside the taps)\n"
		"  --capture-buffer SIZE  capture ring per slave on both ends, 1M..256M (default\n"
		"                         64M; the suite sizes it to 0.5 s of the fastest slave);\n"
		"                         a ring that overflows is reported as capture-incomplete\n"
		"  --json-stream          one JSON line per interval, then the result\n",
		BC_CTL_PORT, BC_DATA_PORT, BC_PLAN_MAX_STREAMS);
}

static int bad(const char *opt, const char *val, const char *allowed)
{
	return bc_cli_bad("run", opt, val, allowed);
}

static void on_interval(void *ctx, struct json_object *ivl)
{
	struct run_out *o = ctx;

	if (o->mode == OUT_TEXT) {
		bc_run_report_interval(o->f, ivl);
	} else if (o->mode == OUT_JSON_STREAM) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "event", json_object_new_string("interval"));
		json_object_object_add(e, "data", json_object_get(ivl));
		fprintf(o->f, "%s\n", json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN));
		json_object_put(e);
	}
	fflush(o->f);
	json_object_put(ivl);
}

static int exit_for(int r)
{
	switch (r) {
	case -EINVAL: /* a usage problem found once the bond is known (--place, -P, --length) */
		return BC_EXIT_USAGE;
	default:
		return BC_EXIT_ENV;
	}
}

int bc_cmd_run(int argc, char **argv)
{
	int key_rc;
	enum {
		OPT_QUICK = 256,
		OPT_JSON_FILE,
		OPT_CSV,
		OPT_PLOT,
		OPT_FROM_JSON,
		OPT_CAPTURE_BUFFER,
		OPT_TEST_CAPTURE_STALL,
		OPT_BRIEF,
	};
	static const struct option opts[] = {
		{"peer", required_argument, NULL, 'c'},
		{"port", required_argument, NULL, 'p'},
		{"auth-key", required_argument, NULL, 'k'},
		{"udp", no_argument, NULL, 'u'},
		{"parallel", required_argument, NULL, 'P'},
		{"reverse", no_argument, NULL, 'R'},
		{"bidir", no_argument, NULL, 'D'},
		{"rate", required_argument, NULL, 'b'},
		{"rate-per-stream", required_argument, NULL, 'r'},
		{"length", required_argument, NULL, 'l'},
		{"duration", required_argument, NULL, 't'},
		{"omit", required_argument, NULL, 'O'},
		{"interval", required_argument, NULL, 'i'},
		{"tmax", required_argument, NULL, 'T'},
		{"cport", required_argument, NULL, 'C'},
		{"dport", required_argument, NULL, 'd'},
		{"socket-buffer", required_argument, NULL, 's'},
		{"link-rate", required_argument, NULL, 'L'},
		{"link-accounting", required_argument, NULL, 'A'},
		{"json", no_argument, NULL, 'j'},
		{"json-stream", no_argument, NULL, 'J'},
		{"place", required_argument, NULL, 'Q'},
		{"gso", no_argument, NULL, 'G'},
		{"capture", no_argument, NULL, 'K'},
		{"keep-pcaps", required_argument, NULL, 'E'},
		{"quick", no_argument, NULL, OPT_QUICK},
		{"json-file", required_argument, NULL, OPT_JSON_FILE},
		{"csv", required_argument, NULL, OPT_CSV},
		{"plot", required_argument, NULL, OPT_PLOT},
		{"from-json", required_argument, NULL, OPT_FROM_JSON},
		{"brief", no_argument, NULL, OPT_BRIEF},
		{"capture-buffer", required_argument, NULL, OPT_CAPTURE_BUFFER},
		/* test only, not in --help (docs/run.md "Test-only options") */
		{"test-capture-stall", required_argument, NULL, OPT_TEST_CAPTURE_STALL},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct bc_client_cfg cfg;
	struct bc_error err = {0};
	struct run_out out = {OUT_TEXT, stdout};
	struct json_object *res = NULL, *errs;
	double total_rate = 0, stream_rate = 0;
	bool have_len = false, reverse = false, bidir = false, capsrc_given = false;
	struct suite_opts so = {0};
	const char *single = NULL; /* the first single-test option given */
	uint64_t sz;
	char *end;
	long v;
	int c, r;

	bc_client_cfg_defaults(&cfg);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:p:uP:Rb:l:t:O:i:46jh", opts, NULL)) != -1) {
		if (!single && c > 0 && c < 256 && strchr(SINGLE_SHORT, c))
			single = single_name(c);
		switch (c) {
		case 'c':
			cfg.peer = optarg;
			break;
		case 'p':
			if (bc_cli_port("run", optarg, &cfg.port))
				return BC_EXIT_USAGE;
			break;
		case 'k':
			key_rc = bc_cli_auth_key("run", optarg, &cfg.key);
			if (key_rc)
				return key_rc;
			break;
		case 'u':
			cfg.plan.proto = BC_L4_UDP;
			break;
		case 'P':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > BC_PLAN_MAX_STREAMS)
				return bad("-P/--parallel", optarg, "1..128 streams");
			cfg.plan.streams = (uint32_t)v;
			cfg.streams_given = true;
			break;
		case 'R':
			reverse = true;
			break;
		case 'D':
			bidir = true;
			break;
		case 'b':
			if (bc_parse_rate(optarg, &total_rate) < 0 || total_rate < 1)
				return bad("--rate", optarg,
					   "a rate in bit/s with SI suffix, e.g. 50M");
			break;
		case 'r':
			if (bc_parse_rate(optarg, &stream_rate) < 0 || stream_rate < 1)
				return bad("--rate-per-stream", optarg,
					   "a rate in bit/s, e.g. 10M");
			break;
		case 'l':
			if (bc_parse_size(optarg, &sz) < 0 || sz < 1 || sz > 16 * 1024 * 1024)
				return bad("--length", optarg,
					   "bytes: UDP 32..65507 (IPv4) or 65527 (IPv6)");
			cfg.plan.length = (uint32_t)sz;
			have_len = true;
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
		case 'i':
			if (bc_parse_seconds(optarg, &cfg.plan.interval_ms) < 0 ||
			    cfg.plan.interval_ms < 100)
				return bad("--interval", optarg, "seconds, at least 0.1");
			break;
		case 'T':
			if (bc_parse_seconds(optarg, &cfg.plan.tmax_ms) < 0 ||
			    cfg.plan.tmax_ms > 60000)
				return bad("--tmax", optarg, "seconds, 0..60");
			break;
		case '4':
			cfg.family = 4;
			break;
		case '6':
			cfg.family = 6;
			break;
		case 'C': {
			unsigned long b = strtoul(optarg, &end, 10), s = 1;

			if (*end == ':')
				s = strtoul(end + 1, &end, 10);
			if (*end || b < 1 || b > 65535 || s < 1 || s > 65535)
				return bad("--cport", optarg, "BASE[:STRIDE] with ports 1..65535");
			cfg.cport_base = (uint16_t)b;
			cfg.cport_stride = (uint16_t)s;
			break;
		}
		case 'd':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 65535)
				return bad("--dport", optarg, "a port number 1..65535");
			cfg.plan.dport = (uint16_t)v;
			break;
		case 's':
			if (bc_parse_size(optarg, &sz) < 0 || sz > (1u << 30))
				return bad("--socket-buffer", optarg, "bytes up to 1G, e.g. 4M");
			cfg.plan.sock_buf = (uint32_t)sz;
			break;
		case 'L':
			if (bc_parse_rate(optarg, &cfg.link_rate_bps) < 0 || cfg.link_rate_bps < 1)
				return bad("--link-rate", optarg, "a rate in bit/s, e.g. 100M");
			break;
		case 'A':
			if (!strcmp(optarg, "ethernet"))
				cfg.link_conv = BC_CONV_ETHERNET;
			else if (!strcmp(optarg, "tbf") || !strcmp(optarg, "qdisc"))
				cfg.link_conv = BC_CONV_QDISC;
			else
				return bad("--link-accounting", optarg, "ethernet or tbf");
			break;
		case 'G':
			cfg.plan.udp_gso = true;
			break;
		case 'Q':
			if (!strcmp(optarg, "per-slave")) {
				cfg.place_k = 1;
			} else if (!strncmp(optarg, "per-slave=", 10)) {
				v = strtol(optarg + 10, &end, 10);
				if (*end || v < 1 || v > 64)
					return bad("--place", optarg,
						   "per-slave or per-slave=K with K 1..64");
				cfg.place_k = (uint32_t)v;
			} else {
				return bad("--place", optarg, "per-slave or per-slave=K");
			}
			break;
		case 'K': {
			/* --capture [auto|pcap|taps|both]: the word follows as its own argument */
			enum bc_capsrc src = BC_CAPSRC_AUTO;

			if (optind < argc && bc_capsrc_parse(argv[optind], &src) == 0)
				optind++;
			cfg.capture = true;
			cfg.capture_source = (int)src;
			capsrc_given = true;
			break;
		}
		case 'E':
			cfg.capture = true;
			cfg.keep_pcaps = optarg;
			if (!capsrc_given)
				cfg.capture_source = BC_CAPSRC_AUTO;
			break;
		case 'j':
			out.mode = OUT_JSON;
			break;
		case 'J':
			out.mode = OUT_JSON_STREAM;
			break;
		case OPT_QUICK:
			so.quick = true;
			break;
		case OPT_JSON_FILE:
			so.json_file = optarg;
			break;
		case OPT_CSV:
			so.csv = optarg;
			break;
		case OPT_PLOT:
			so.plot = optarg;
			break;
		case OPT_FROM_JSON:
			so.from_json = optarg;
			break;
		case OPT_BRIEF:
			so.brief = true;
			break;
		case OPT_CAPTURE_BUFFER:
			if (bc_parse_size(optarg, &sz) < 0 || sz < BC_PLAN_CAPTURE_BUFFER_MIN ||
			    sz > BC_PLAN_CAPTURE_BUFFER_MAX)
				return bad("--capture-buffer", optarg,
					   "bytes per slave and end, 1M..256M, e.g. 16M");
			cfg.plan.capture_buffer = (uint32_t)sz;
			break;
		case OPT_TEST_CAPTURE_STALL:
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 60000)
				return bad("--test-capture-stall", optarg, "milliseconds 1..60000");
			cfg.test_capture_stall_ms = (uint32_t)v;
			break;
		case 'h':
			usage(stdout);
			return BC_EXIT_OK;
		default:
			return bc_cli_opt_error("run", c, argv, opts);
		}
	}
	if (optind < argc) {
		fprintf(stderr,
			"bondcheck run: unexpected argument '%s'; the agent is given with --peer\n",
			argv[optind]);
		return BC_EXIT_USAGE;
	}
	if (so.brief && out.mode != OUT_TEXT) {
		fprintf(stderr, "bondcheck run: --brief is text; it cannot be combined with %s\n",
			out.mode == OUT_JSON ? "-j" : "--json-stream");
		return BC_EXIT_USAGE;
	}
	if (!single) {
		so.json = out.mode == OUT_JSON;
		return bc_cmd_run_suite(&cfg, &so);
	}
	if (so.quick || so.csv || so.plot || so.from_json) {
		fprintf(stderr,
			"bondcheck run: %s runs the suite; it cannot be combined with the "
			"single-test option %s (drop one of them)\n",
			so.quick  ? "--quick"
			: so.csv  ? "--csv"
			: so.plot ? "--plot"
				  : "--from-json",
			single);
		return BC_EXIT_USAGE;
	}
	if (!cfg.peer) {
		fprintf(stderr, "bondcheck run: --peer HOST is required (the host running "
				"`bondcheck serve`)\n");
		return BC_EXIT_USAGE;
	}
	if (reverse && bidir) {
		fprintf(stderr,
			"bondcheck run: --reverse and --bidir exclude each other; choose one\n");
		return BC_EXIT_USAGE;
	}
	cfg.plan.dir = bidir ? BC_DIR_BIDIR : reverse ? BC_DIR_REVERSE : BC_DIR_FORWARD;
	if (total_rate > 0 && stream_rate > 0) {
		fprintf(stderr,
			"bondcheck run: --rate (total) and --rate-per-stream exclude each other\n");
		return BC_EXIT_USAGE;
	}
	if (cfg.plan.proto == BC_L4_TCP && cfg.plan.udp_gso) {
		fprintf(stderr, "bondcheck run: --gso applies to UDP (-u)\n");
		return BC_EXIT_USAGE;
	}
	if (cfg.plan.proto == BC_L4_TCP && (total_rate > 0 || stream_rate > 0)) {
		fprintf(stderr, "bondcheck run: --rate applies to UDP (-u); TCP runs unpaced\n");
		return BC_EXIT_USAGE;
	}
	if (total_rate > 0) {
		cfg.plan.rate_bps = (uint64_t)(total_rate / cfg.plan.streams);
		cfg.total_rate_bps = total_rate;
	} else if (stream_rate > 0)
		cfg.plan.rate_bps = (uint64_t)stream_rate;
	if (cfg.plan.proto == BC_L4_UDP && !have_len)
		cfg.plan.length = cfg.family == 6 ? 1452 : 1472;
	if (cfg.family)
		cfg.plan.family = cfg.family;
	r = bc_plan_check(&cfg.plan, NULL, &err);
	if (r < 0) {
		fprintf(stderr, "bondcheck run: %s\n", err.msg);
		return BC_EXIT_USAGE;
	}
	signal(SIGPIPE, SIG_IGN);
	if (out.mode != OUT_JSON && !so.brief)
		cfg.on_interval = on_interval;
	cfg.ctx = &out;
	r = bc_client_run(&cfg, &res, &err);
	if (r < 0) {
		fprintf(stderr, "bondcheck run: %s\n", err.msg);
		return exit_for(r);
	}
	if (so.brief) {
		bc_run_report_answers(stdout, res);
	} else if (out.mode == OUT_TEXT) {
		bc_run_report_text(stdout, res);
	} else if (out.mode == OUT_JSON) {
		printf("%s\n", json_object_to_json_string_ext(
				       res, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
	} else {
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "event", json_object_new_string("end"));
		json_object_object_add(e, "data", json_object_get(res));
		printf("%s\n", json_object_to_json_string_ext(e, JSON_C_TO_STRING_PLAIN));
		json_object_put(e);
	}
	if (so.json_file) {
		FILE *f = fopen(so.json_file, "w");

		if (!f ||
		    fprintf(f, "%s\n",
			    json_object_to_json_string_ext(
				    res, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED)) < 0 ||
		    fclose(f)) {
			fprintf(stderr, "bondcheck run: cannot write --json-file %s\n",
				so.json_file);
			json_object_put(res);
			return BC_EXIT_ENV;
		}
	}
	/* the report is out; files that could not be written (full disk) still fail the run */
	errs = json_object_object_get(json_object_object_get(res, "capture"), "errors");
	for (size_t i = 0; errs && i < json_object_array_length(errs); i++)
		fprintf(stderr, "bondcheck run: capture: %s\n",
			json_object_get_string(json_object_array_get_idx(errs, i)));
	if (errs && json_object_array_length(errs))
		r = BC_EXIT_ENV;
	else /* an error-level finding (wire-loss, ...) fails the run, as in the suite */
		r = bc_cli_exit_status(out.mode == OUT_TEXT && !so.brief ? stdout : stderr, "run",
				       NULL,
				       json_object_object_get(res, "findings"));
	json_object_put(res);
	return r;
}
