// SPDX-License-Identifier: GPL-2.0-or-later
/* `bondcheck scale`: options, output formats and exit codes for bondcheck/scale.h. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bondcheck/ctl.h"
#include "bondcheck/json-get.h"
#include "bondcheck/plot.h"
#include "bondcheck/scale-doc.h"
#include "bondcheck/scale-report.h"
#include "bondcheck/scale.h"
#include "bondcheck/units.h"
#include "cli/cli.h"

#define MAX_ORDER 16

static volatile sig_atomic_t stop_flag;

static void on_signal(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bondcheck scale --peer HOST [options]\n"
		"       bondcheck scale --from-json FILE [--margin P] [-j] [--csv FILE] [--plot "
		"DIR]\n"
		"\n"
		"Does N+1 links beat N?  Runs K flows over configurations of 1..n slaves of the\n"
		"bond the route to the agent leaves by, interleaved (N, N+1, ..., N+1, N), one\n"
		"goodput per run, and compares each configuration with the next larger one:\n"
		"Welch's t on log goodput, the speed-up with its 95 %% CI, against a practical\n"
		"margin.  Verdicts: \"3 links beat 2 by 1.48x (95 %% CI 1.40-1.57)\", "
		"scaling-flat\n"
		"(no significant gain) or scaling-negative (worse).  When a comparison is not a\n"
		"gain, a UDP capture run over the larger configuration names the cause: loss on\n"
		"a link, reordering on a link, an idle link.  Details: docs/scale.md.\n"
		"\n"
		"  --peer HOST            the agent (`bondcheck serve`)           (required)\n"
		"  -p, --port N           agent control port (default %d)\n"
		"  --auth-key FILE        prove this pre-shared key to the agent\n"
		"  --method M             placement (default): changes nothing; balance-xor or\n"
		"                         802.3ad with layer3+4: the K flows are placed onto the\n"
		"                         N slaves of each configuration by their source ports;\n"
		"                         links: takes slaves out on both ends (any mode), needs\n"
		"                         --allow-changes; both ends are journaled first and\n"
		"                         restored at the end, on Ctrl-C and on SIGTERM\n"
		"  --allow-changes        let --method links take slaves down and up\n"
		"  --order A,B,...        the slaves in the order they leave (default: placement\n"
		"                         the last enslaved first; links the worst by the inspect\n"
		"                         findings first)\n"
		"  --from N               smallest configuration (default 1)\n"
		"  -u, --udp              UDP only (same as --protocol udp)\n"
		"  --protocol P           tcp (default), udp or both\n"
		"  --flows K              flows in every configuration; placed flows need one per\n"
		"                         slave of the largest N (default: balance-rr 1, which\n"
		"                         every link carries; else the least common multiple of\n"
		"                         the sizes, e.g. 6 for 1..3 slaves, or 2 per slave)\n"
		"  --repetitions R        runs per configuration, 2..100 (default 5)\n"
		"  --margin P             practical margin: 5%% or 0.05 (default 5%%)\n"
		"  -t, --duration S       seconds per run (default 5)\n"
		"  -O, --omit S           warm-up excluded from goodput (default 1; 20 %% of -t\n"
		"                         when -t is given)\n"
		"  --quick                -t 2, 3 runs per configuration\n"
		"  -b, --rate R           UDP: total offered rate, the same for every\n"
		"                         configuration (default: 1.1 x a link's ceiling on\n"
		"                         every link of every configuration)\n"
		"  -l, --length N         UDP payload bytes (default the largest unfragmented)\n"
		"  --link-rate R          link rate for the ceilings (default: tbf limit or "
		"speed)\n"
		"  --link-accounting A    ethernet (IP length + 38 per frame) or tbf (+ 14)\n"
		"  --no-diagnose          no capture run for comparisons that are not a gain\n"
		"  -4, -6                 IPv4 or IPv6 only\n"
		"  -j, --json             the scale document as JSON\n"
		"  --brief                only the answers (does N+1 beat N), same exit status\n"
		"  --json-file FILE       also write the JSON document to FILE (keep it for\n"
		"                         --from-json later)\n"
		"  --csv FILE             a CSV table (a row per run, configuration, comparison);\n"
		"                         - for standard output\n"
		"  --plot DIR             write DIR/scaling.svg (goodput against N, every run,\n"
		"                         the mean with its 95 %% CI band, the ceiling; with both\n"
		"                         protocols scaling-tcp.svg and scaling-udp.svg)\n"
		"  --from-json FILE       re-analyse and print a saved scale document (no "
		"traffic)\n"
		"\n"
		"Exit status: 0 every added link gains or gives no significant gain; 1 a link\n"
		"makes it worse (scaling-negative) or a comparison had zero-goodput runs; 2 usage\n"
		"(also a method that does not fit the bond); 3 environment (agent unreachable,\n"
		"no bond on the route, interrupted); 4 a --from-json file that cannot be read\n"
		"or is not a scale document.\n",
		BC_CTL_PORT);
}

static int bad(const char *opt, const char *val, const char *allowed)
{
	return bc_cli_bad("scale", opt, val, allowed);
}

/* "5%", "5 %", "0.05" -> 0.05 */
static int parse_margin(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	while (*end == ' ')
		end++;
	if (*end == '%') {
		v /= 100;
		end++;
	}
	if (end == s || *end || !(v >= 0 && v < 10))
		return -EINVAL;
	*out = v;
	return 0;
}

static bool tty;

static void on_progress(void *ctx, const struct bc_scale_progress *p)
{
	(void)ctx;
	if (!tty)
		return;
	if (!strcmp(p->phase, "run"))
		fprintf(stderr, "\r\033[Kscale: run %u/%u  %s N=%u rep %u", p->run, p->runs,
			p->protocol, p->n, p->rep);
	else
		fprintf(stderr, "\r\033[Kscale: %s N=%u", p->phase, p->n);
	if (p->last_bps > 0)
		fprintf(stderr, "  (last %.2f Mbit/s)", p->last_bps / 1e6);
	fflush(stderr);
}

static int exit_for_doc(struct json_object *doc)
{
	struct json_object *f = json_object_object_get(doc, "findings");
	const char *st = bc_json_str(json_object_object_get(doc, "verdict"), "status");

	if (!strcmp(st, "fail") || !strcmp(st, "invalid"))
		return BC_EXIT_FINDINGS;
	for (size_t i = 0; i < bc_json_len(f); i++)
		if (!strcmp(bc_json_str(json_object_array_get_idx(f, i), "severity"), "error"))
			return BC_EXIT_FINDINGS;
	return BC_EXIT_OK;
}

/* DIR/scaling.svg, or scaling-tcp.svg and scaling-udp.svg with both protocols. */
static int write_plots(const char *dir, struct json_object *doc)
{
	static const char *const protos[] = {"tcp", "udp"};
	bool both = !strcmp(bc_json_str(doc, "protocol"), "both");
	int status = BC_EXIT_OK;

	for (int p = 0; p < 2; p++) {
		struct json_object *v = bc_scale_doc_view(doc, protos[p]);
		struct bc_error err = {0};
		char path[4096];
		int rc;

		if (!v)
			continue;
		snprintf(path, sizeof(path), "%s/scaling%s%s.svg", dir, both ? "-" : "",
			 both ? protos[p] : "");
		rc = bc_plot_scaling(path, v, &err);
		json_object_put(v);
		if (!rc) {
			fprintf(stderr, "bondcheck scale: wrote %s\n", path);
		} else if (rc == -ENODATA) {
			fprintf(stderr, "bondcheck scale: no %s: %s\n", path, err.msg);
		} else {
			fprintf(stderr, "bondcheck scale: --plot '%s': %s\n", dir, err.msg);
			status = BC_EXIT_ENV;
		}
	}
	return status;
}

struct outputs {
	bool json;
	const char *csv, *plot, *json_file;
	bool brief; /* --brief: the answer block alone */
};

static int emit(struct json_object *doc, const struct outputs *o)
{
	bool json = o->json;
	const char *csv = o->csv, *plot = o->plot;

	if (json)
		printf("%s\n", json_object_to_json_string_ext(
				       doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
	else if (o->brief)
		bc_scale_report_answers(stdout, doc);
	else if (!csv || strcmp(csv, "-"))
		bc_scale_report_text(stdout, doc);
	if (o->json_file &&
	    json_object_to_file_ext(o->json_file, doc,
				    JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED) < 0) {
		fprintf(stderr, "bondcheck scale: --json-file %s: cannot write: %s\n", o->json_file,
			strerror(errno));
		return BC_EXIT_ENV;
	}
	if (csv && bc_cli_write_csv("scale", csv, doc, bc_scale_report_csv))
		return BC_EXIT_ENV;
	return plot ? write_plots(plot, doc) : BC_EXIT_OK;
}

static int from_json(const char *path, double margin, const struct outputs *o)
{
	struct json_object *doc;
	struct bc_error err = {0};
	int rc;

	rc = bc_cli_read_json("scale", "--from-json", path, &doc);
	if (rc != BC_EXIT_OK)
		return rc;
	if (strcmp(bc_json_str(doc, "kind"), "scale")) {
		fprintf(stderr,
			"bondcheck scale: --from-json %s: expected a scale document (\"kind\": "
			"\"scale\"), found kind '%s'\n",
			path, bc_json_str(doc, "kind"));
		json_object_put(doc);
		return BC_EXIT_DATA;
	}
	if (margin >= 0)
		json_object_object_add(doc, "margin", json_object_new_double(margin));
	if (bc_scale_doc_compare(doc, &err) < 0 || bc_scale_doc_conclude(doc, &err) < 0) {
		fprintf(stderr, "bondcheck scale: --from-json %s: %s\n", path, err.msg);
		json_object_put(doc);
		return BC_EXIT_DATA;
	}
	rc = emit(doc, o);
	if (rc == BC_EXIT_OK)
		rc = exit_for_doc(doc);
	json_object_put(doc);
	return rc;
}

/* "a,b,c" -> names (pointing into @buf) */
static int split_order(char *buf, const char **names, size_t *n)
{
	*n = 0;
	for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
		if (*n == MAX_ORDER || !*tok)
			return -EINVAL;
		names[(*n)++] = tok;
	}
	return *n ? 0 : -EINVAL;
}

int bc_cmd_scale(int argc, char **argv)
{
	int key_rc;
	static const struct option opts[] = {
		{"peer", required_argument, NULL, 'c'},
		{"port", required_argument, NULL, 'p'},
		{"auth-key", required_argument, NULL, 'k'},
		{"method", required_argument, NULL, 'M'},
		{"allow-changes", no_argument, NULL, 'A'},
		{"order", required_argument, NULL, 'o'},
		{"from", required_argument, NULL, 'F'},
		{"udp", no_argument, NULL, 'u'},
		{"protocol", required_argument, NULL, 'P'},
		{"flows", required_argument, NULL, 'K'},
		{"repetitions", required_argument, NULL, 'r'},
		{"margin", required_argument, NULL, 'm'},
		{"duration", required_argument, NULL, 't'},
		{"omit", required_argument, NULL, 'O'},
		{"quick", no_argument, NULL, 'Q'},
		{"rate", required_argument, NULL, 'b'},
		{"length", required_argument, NULL, 'l'},
		{"link-rate", required_argument, NULL, 'L'},
		{"link-accounting", required_argument, NULL, 'a'},
		{"no-diagnose", no_argument, NULL, 'N'},
		{"json", no_argument, NULL, 'j'},
		{"csv", required_argument, NULL, 'C'},
		{"from-json", required_argument, NULL, 'J'},
		{"plot", required_argument, NULL, 'G'},
		{"json-file", required_argument, NULL, 'W'},
		{"brief", no_argument, NULL, 'B'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct bc_scale_cfg cfg;
	struct bc_error err = {0};
	struct json_object *doc = NULL;
	const char *csv = NULL, *replay = NULL, *plot = NULL, *json_file = NULL, *order[MAX_ORDER];
	struct outputs outs;
	char order_buf[256];
	bool json = false, quick = false, have_t = false, have_o = false, have_r = false;
	bool brief = false;
	double margin = -1;
	struct sigaction sa;
	uint64_t sz;
	char *end;
	long v;
	int c, r, rc;

	bc_scale_cfg_defaults(&cfg);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:p:ut:O:b:l:46jh", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cfg.client.peer = optarg;
			break;
		case 'p':
			if (bc_cli_port("scale", optarg, &cfg.client.port))
				return BC_EXIT_USAGE;
			break;
		case 'k':
			key_rc = bc_cli_auth_key("scale", optarg, &cfg.client.key);
			if (key_rc)
				return key_rc;
			break;
		case 'M':
			if (!strcmp(optarg, "placement"))
				cfg.method = BC_SCALE_METHOD_PLACEMENT;
			else if (!strcmp(optarg, "links"))
				cfg.method = BC_SCALE_METHOD_LINKS;
			else
				return bad("--method", optarg, "placement or links");
			break;
		case 'A':
			cfg.allow_changes = true;
			break;
		case 'o':
			if (strlen(optarg) >= sizeof(order_buf))
				return bad("--order", optarg,
					   "at most 255 characters of slave names");
			memcpy(order_buf, optarg, strlen(optarg) + 1);
			if (split_order(order_buf, order, &cfg.n_order) < 0)
				return bad("--order", optarg,
					   "slave names separated by commas, e.g. eth2,eth1");
			cfg.order = order;
			break;
		case 'F':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 15)
				return bad("--from", optarg, "a number of links, 1..15");
			cfg.min_n = (uint32_t)v;
			break;
		case 'u':
			cfg.tcp = false;
			cfg.udp = true;
			break;
		case 'P':
			if (!strcmp(optarg, "tcp") || !strcmp(optarg, "both") ||
			    !strcmp(optarg, "udp")) {
				cfg.tcp = strcmp(optarg, "udp") != 0;
				cfg.udp = strcmp(optarg, "tcp") != 0;
			} else {
				return bad("--protocol", optarg, "tcp, udp or both");
			}
			break;
		case 'K':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > BC_PLAN_MAX_STREAMS)
				return bad("--flows", optarg, "1..128 flows");
			cfg.flows = (uint32_t)v;
			break;
		case 'r':
			v = strtol(optarg, &end, 10);
			if (*end || v < 2 || v > 100)
				return bad("--repetitions", optarg,
					   "2..100 runs per configuration (a CI needs 2)");
			cfg.repetitions = (uint32_t)v;
			have_r = true;
			break;
		case 'm':
			if (parse_margin(optarg, &margin) < 0)
				return bad("--margin", optarg, "a share such as 5% or 0.05");
			cfg.margin = margin;
			break;
		case 't':
			if (bc_parse_seconds(optarg, &cfg.client.plan.duration_ms) < 0 ||
			    cfg.client.plan.duration_ms < 500)
				return bad("--duration", optarg, "seconds, 0.5..86400");
			have_t = true;
			break;
		case 'O':
			if (bc_parse_seconds(optarg, &cfg.client.plan.omit_ms) < 0)
				return bad("--omit", optarg, "seconds shorter than --duration");
			have_o = true;
			break;
		case 'Q':
			quick = true;
			break;
		case 'b':
			if (bc_parse_rate(optarg, &cfg.udp_rate_bps) < 0 || cfg.udp_rate_bps < 1)
				return bad("--rate", optarg,
					   "a rate in bit/s with SI suffix, e.g. 50M");
			break;
		case 'l':
			if (bc_parse_size(optarg, &sz) < 0 || sz < 32 || sz > 65507)
				return bad("--length", optarg, "UDP payload bytes, 32..65507");
			cfg.client.plan.length = (uint32_t)sz;
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
		case 'N':
			cfg.diagnose = false;
			break;
		case '4':
			cfg.client.family = 4;
			break;
		case '6':
			cfg.client.family = 6;
			break;
		case 'j':
			json = true;
			break;
		case 'C':
			csv = optarg;
			break;
		case 'J':
			replay = optarg;
			break;
		case 'W':
			json_file = optarg;
			break;
		case 'B':
			brief = true;
			break;
		case 'G':
			if (!*optarg)
				return bad("--plot", optarg, "a folder for the SVG files");
			plot = optarg;
			break;
		case 'h':
			usage(stdout);
			return BC_EXIT_OK;
		default:
			return bc_cli_opt_error("scale", c, argv, opts);
		}
	}
	if (optind < argc) {
		fprintf(stderr,
			"bondcheck scale: unexpected argument '%s'; the agent is given with "
			"--peer\n",
			argv[optind]);
		return BC_EXIT_USAGE;
	}
	if (json && csv && !strcmp(csv, "-")) {
		fprintf(stderr, "bondcheck scale: -j and --csv - both want standard output; give "
				"--csv a file\n");
		return BC_EXIT_USAGE;
	}
	if (brief && (json || (csv && !strcmp(csv, "-")))) {
		fprintf(stderr, "bondcheck scale: --brief is text; it cannot be combined with %s\n",
			json ? "-j" : "--csv -");
		return BC_EXIT_USAGE;
	}
	outs = (struct outputs){json, csv, plot, json_file, brief};
	if (plot && (rc = bc_cli_plot_dir("scale", plot)) != BC_EXIT_OK) {
		return rc;
	}
	if (replay) {
		if (cfg.client.peer) {
			fprintf(stderr,
				"bondcheck scale: --from-json re-analyses a saved document; "
				"it takes no --peer\n");
			return BC_EXIT_USAGE;
		}
		return from_json(replay, margin, &outs);
	}
	if (!cfg.client.peer) {
		fprintf(stderr, "bondcheck scale: --peer HOST is required (the host running "
				"`bondcheck serve`)\n");
		return BC_EXIT_USAGE;
	}
	if (cfg.allow_changes && cfg.method != BC_SCALE_METHOD_LINKS) {
		fprintf(stderr, "bondcheck scale: --allow-changes goes with --method links; "
				"--method placement changes nothing\n");
		return BC_EXIT_USAGE;
	}
	if (quick) {
		if (!have_t)
			cfg.client.plan.duration_ms = 2000;
		if (!have_r)
			cfg.repetitions = 3;
	}
	if ((have_t || quick) && !have_o)
		cfg.client.plan.omit_ms = cfg.client.plan.duration_ms / 5 < 1000
						  ? cfg.client.plan.duration_ms / 5
						  : 1000;
	if (cfg.client.plan.omit_ms >= cfg.client.plan.duration_ms) {
		fprintf(stderr,
			"bondcheck scale: --omit %.1f s leaves nothing of --duration %.1f s\n",
			cfg.client.plan.omit_ms / 1000.0, cfg.client.plan.duration_ms / 1000.0);
		return BC_EXIT_USAGE;
	}
	if (cfg.client.family)
		cfg.client.plan.family = cfg.client.family;
	tty = isatty(STDERR_FILENO);
	cfg.on_progress = on_progress;
	cfg.stop = &stop_flag;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: a blocked read returns and the flag is seen */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	r = bc_scale_run(&cfg, &doc, &err);
	if (tty)
		fprintf(stderr, "\r\033[K");
	if (r == -EINTR) {
		struct json_object *rs =
			json_object_object_get(json_object_object_get(doc, "links"), "restore");

		fprintf(stderr, "bondcheck scale: interrupted%s; the report is partial\n",
			!rs ? ""
			: json_object_get_boolean(json_object_object_get(rs, "ok"))
				? "; both ends restored"
				: "; RESTORE FAILED: run `bondcheck restore` on both hosts");
	} else if (r < 0) {
		fprintf(stderr, "bondcheck scale: %s\n", err.msg);
	}
	if (doc && (r == 0 || r == -EINTR ||
		    bc_json_len(json_object_object_get(
			    json_object_array_get_idx(json_object_object_get(doc, "configs"), 0),
			    "runs")))) {
		rc = emit(doc, &outs);
		if (r == 0 && rc == BC_EXIT_OK)
			rc = exit_for_doc(doc);
	} else {
		rc = BC_EXIT_OK;
	}
	json_object_put(doc);
	if (r == -EINVAL)
		return BC_EXIT_USAGE;
	if (r < 0)
		return BC_EXIT_ENV;
	return rc;
}
