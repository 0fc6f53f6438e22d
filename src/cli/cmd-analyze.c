// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `bondcheck analyze tx:LINK=FILE... rx:LINK=FILE...`: offline attribution
 * of per-slave captures (docs/analyze.md).  Parses options, reads the files
 * through the library, prints text or JSON, picks the exit status.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bondcheck/json-get.h"
#include "bondcheck/analyze-report.h"
#include "bondcheck/attrib.h"
#include "bondcheck/plot.h"
#include "cli/cli.h"

#define ANALYZE_JSON_SCHEMA 1

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bondcheck analyze [OPTIONS] tx:LINK=FILE... rx:LINK=FILE...\n"
		"\n"
		"Attribute every packet of per-slave captures (pcap or pcapng, from bondcheck\n"
		"or tcpdump -i SLAVE) to the link it left on and the link it arrived on:\n"
		"per-link frames, bytes and wire rate, paths, per-path loss, reordering by\n"
		"link pair, fragments and the loss ledger stages the captures can show.\n"
		"tx: files come from the sending host's slaves, rx: files from the\n"
		"receiver's; LINK may carry the host (hostA/eth0).\n"
		"\n"
		"Options:\n"
		"  --local-addr ADDR   the sending host's address: packets from it travel\n"
		"                      forward (default: the source of most bytes in tx: files)\n"
		"  --mtu BYTES         L3 MTU for expanding TSO/GRO super-frames (1500; 0 off)\n"
		"  --ipfrag-time SEC   fragment join window, net.ipv4.ipfrag_time (30)\n"
		"  --ipfrag-max-dist N net.ipv4.ipfrag_max_dist for the reassembly check (64)\n"
		"  --bin-ms MS         width of the per-link timeline's bins (100; a capture\n"
		"                      longer than 4096 bins gets wider ones)\n"
		"  --plot DIR          also write SVG plots into DIR (created if missing):\n"
		"                      links-timeline.svg (per-link throughput over time),\n"
		"                      reorder-density.svg (RFC 5236 histogram) and\n"
		"                      ledger.svg (loss ledger waterfall), each where the\n"
		"                      captures hold its data\n"
		"  -j, --json          JSON instead of text\n"
		"  --brief             only the answers (Loss, Reordering, Capture), same exit\n"
		"                      status\n"
		"  -h, --help          this text\n"
		"\n"
		"Exit status: 0 no error-level finding, 1 error-level findings (wire-loss,\n"
		"rx-loss-reassembly), 2 usage, 3 environment (--plot cannot write), 4 a\n"
		"capture cannot be read or is not a pcap/pcapng of Ethernet frames.\n");
}

static int print_json(struct json_object *o)
{
	struct json_object *root = json_object_new_object();
	char when[32];

	if (!root)
		return -ENOMEM;
	bc_json_generated_at(when, sizeof(when));
	json_object_object_add(root, "schema_version", json_object_new_int(ANALYZE_JSON_SCHEMA));
	json_object_object_add(root, "bondcheck_version", json_object_new_string(BC_VERSION));
	json_object_object_add(root, "generated_at", json_object_new_string(when));
	json_object_object_foreach(o, k, v) json_object_object_add(root, k, json_object_get(v));
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_SPACED |
							  JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
	return 0;
}

/* The plots of the analysis that have data; -ENODATA ones are noted. */
static int write_plots(const char *dir, struct json_object *an)
{
	static const struct {
		const char *file;
		int (*fn)(const char *, struct json_object *, struct bc_error *);
	} plots[] = {
		{"links-timeline.svg", bc_plot_link_timeline},
		{"reorder-density.svg", bc_plot_reorder_density},
		{"ledger.svg", bc_plot_ledger},
	};
	int status = BC_EXIT_OK;

	for (size_t i = 0; i < sizeof(plots) / sizeof(plots[0]); i++) {
		struct bc_error err = {0};
		char path[4096];
		int rc;

		snprintf(path, sizeof(path), "%s/%s", dir, plots[i].file);
		rc = plots[i].fn(path, an, &err);
		if (!rc)
			fprintf(stderr, "bondcheck analyze: wrote %s\n", path);
		else if (rc == -ENODATA)
			fprintf(stderr, "bondcheck analyze: no %s: %s\n", plots[i].file, err.msg);
		else {
			fprintf(stderr, "bondcheck analyze: --plot '%s': %s\n", dir, err.msg);
			status = BC_EXIT_ENV;
		}
	}
	return status;
}

int bc_cmd_analyze(int argc, char **argv)
{
	static const struct option opts[] = {
		{"local-addr", required_argument, NULL, 'L'},
		{"mtu", required_argument, NULL, 'M'},
		{"ipfrag-time", required_argument, NULL, 'T'},
		{"ipfrag-max-dist", required_argument, NULL, 'D'},
		{"bin-ms", required_argument, NULL, 'B'},
		{"plot", required_argument, NULL, 'P'},
		{"json", no_argument, NULL, 'j'},
		{"brief", no_argument, NULL, 'b'},
		{"help", no_argument, NULL, 'h'},
		{0},
	};
	struct bc_attrib_cfg cfg;
	struct bc_error err = {0};
	struct json_object *an = NULL;
	struct bc_attrib a;
	const char *plot = NULL;
	bool json = false, brief = false;
	int c, rc, status = BC_EXIT_OK;
	char *end;

	bc_attrib_cfg_default(&cfg);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jh", opts, NULL)) != -1) {
		switch (c) {
		case 'L':
			if (inet_pton(AF_INET, optarg, cfg.local) == 1) {
				cfg.local_version = 4;
			} else if (inet_pton(AF_INET6, optarg, cfg.local) == 1) {
				cfg.local_version = 6;
			} else {
				fprintf(stderr,
					"bondcheck analyze: --local-addr '%s' is not an "
					"IPv4 or IPv6 address\n",
					optarg);
				return BC_EXIT_USAGE;
			}
			cfg.have_local = true;
			break;
		case 'M':
			cfg.mtu = (uint32_t)strtoul(optarg, &end, 10);
			if (*end || cfg.mtu > 65535) {
				fprintf(stderr,
					"bondcheck analyze: --mtu '%s': expected 0..65535\n",
					optarg);
				return BC_EXIT_USAGE;
			}
			break;
		case 'T': {
			double s = strtod(optarg, &end);

			if (*end || s <= 0 || s > 3600) {
				fprintf(stderr,
					"bondcheck analyze: --ipfrag-time '%s': expected "
					"seconds in (0, 3600]\n",
					optarg);
				return BC_EXIT_USAGE;
			}
			cfg.ipfrag_window_ns = (uint64_t)(s * 1e9);
			break;
		}
		case 'D':
			cfg.ipfrag_max_dist = (uint32_t)strtoul(optarg, &end, 10);
			if (*end) {
				fprintf(stderr,
					"bondcheck analyze: --ipfrag-max-dist '%s' is not a "
					"number\n",
					optarg);
				return BC_EXIT_USAGE;
			}
			break;
		case 'B': {
			double ms = strtod(optarg, &end);

			if (*end || !(ms >= 0.001 && ms <= 3600000)) {
				fprintf(stderr,
					"bondcheck analyze: --bin-ms '%s': expected milliseconds "
					"in "
					"[0.001, 3600000]\n",
					optarg);
				return BC_EXIT_USAGE;
			}
			cfg.bin_ns = (uint64_t)(ms * 1e6 + 0.5);
			break;
		}
		case 'P':
			if (!*optarg) {
				fprintf(stderr, "bondcheck analyze: --plot needs a folder\n");
				return BC_EXIT_USAGE;
			}
			plot = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'b':
			brief = true;
			break;
		case 'h':
			usage(stdout);
			return BC_EXIT_OK;
		default:
			return bc_cli_opt_error("analyze", c, argv, opts);
		}
	}
	if (brief && json) {
		fprintf(stderr,
			"bondcheck analyze: --brief is text; it cannot be combined with -j\n");
		return BC_EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, "bondcheck analyze: no capture given; expected tx:LINK=FILE and/or "
				"rx:LINK=FILE arguments\n");
		return BC_EXIT_USAGE;
	}
	if (plot && (rc = bc_cli_plot_dir("analyze", plot)) != BC_EXIT_OK)
		return rc;
	if (bc_attrib_init(&a, &cfg, &err)) {
		fprintf(stderr, "bondcheck analyze: %s\n", err.msg);
		return BC_EXIT_ENV;
	}
	for (int i = optind; i < argc; i++) {
		char name[64];
		const char *arg = argv[i], *eq = strchr(arg, '=');
		enum bc_side side;
		int link;

		if (!strncmp(arg, "tx:", 3))
			side = BC_SIDE_TX;
		else if (!strncmp(arg, "rx:", 3))
			side = BC_SIDE_RX;
		else
			eq = NULL;
		if (!eq || eq - arg - 3 <= 0 || (size_t)(eq - arg - 3) >= sizeof(name) || !eq[1]) {
			fprintf(stderr,
				"bondcheck analyze: argument '%s': expected tx:LINK=FILE or "
				"rx:LINK=FILE\n",
				arg);
			bc_attrib_free(&a);
			return BC_EXIT_USAGE;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(eq - arg - 3), arg + 3);
		link = bc_attrib_add_link(&a, side, name, &err);
		if (link < 0) {
			fprintf(stderr, "bondcheck analyze: %s\n", err.msg);
			bc_attrib_free(&a);
			return BC_EXIT_USAGE;
		}
		rc = bc_attrib_read_pcap(&a, link, eq + 1, &err);
		if (rc) {
			fprintf(stderr, "bondcheck analyze: %s\n", err.msg);
			bc_attrib_free(&a);
			return BC_EXIT_DATA;
		}
	}
	rc = bc_attrib_finish(&a, &err);
	if (!rc && (json || plot) && !(an = bc_analyze_json(&a)))
		rc = -ENOMEM;
	if (!rc)
		rc = json    ? print_json(an)
		     : brief ? (bc_analyze_answers(stdout, &a), 0)
			     : (bc_analyze_text(stdout, &a), 0);
	if (rc) {
		json_object_put(an);
		fprintf(stderr, "bondcheck analyze: %s\n", err.msg[0] ? err.msg : strerror(-rc));
		bc_attrib_free(&a);
		return BC_EXIT_ENV;
	}
	for (size_t i = 0; i < a.n_findings; i++)
		if (a.findings[i].severity == BC_SEV_ERROR)
			status = BC_EXIT_FINDINGS;
	bc_attrib_free(&a);
	if (plot && write_plots(plot, an) != BC_EXIT_OK)
		status = BC_EXIT_ENV;
	json_object_put(an);
	return status;
}
