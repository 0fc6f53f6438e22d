// SPDX-License-Identifier: GPL-2.0-or-later
/* `bondcheck matrix`: options, output formats and exit codes for bondcheck/matrix.h. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "bondcheck/ctl.h"
#include "bondcheck/hostlist.h"
#include "bondcheck/json-get.h"
#include "bondcheck/matrix-plan.h"
#include "bondcheck/matrix.h"
#include "bondcheck/units.h"
#include "cli/cli.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bondcheck matrix --hosts H1,H2,... --auth-key FILE [options]\n"
		"       bondcheck matrix --hosts H1,H2,... --plan [--pairs RULE] [options]\n"
		"\n"
		"Test the ordered pairs of a cluster's hosts (every pair, or a ring, random\n"
		"partners, a bisection), in rounds of disjoint pairs.  Each host runs\n"
		"`bondcheck serve --auth-key FILE` with the same key.  The controller (this\n"
		"command) proves the key to every agent, then asks agent A to run the test\n"
		"towards agent B, which accepts A's authenticated connection: no agent sends to\n"
		"a host that did not consent.  After each test A sends DF probes of both hosts'\n"
		"MTU sizes to B (the path MTU check: jumbo frames set on a host but not along\n"
		"the path).\n"
		"Output: goodput matrix with efficiency against each pair's ceiling (the\n"
		"smaller of the two ends' links), path MTU matrix, findings per host (slow host,\n"
		"MTU mismatch, RX drops, unreachable).  A host that does not answer is\n"
		"reported and the rest of the matrix still runs.\n"
		"\n"
		"  --hosts H1,H2,...      the agents (names or addresses, 2..%d; ranges as\n"
		"                         pdsh takes them: node[01-16])                (required)\n"
		"  --auth-key FILE        the key every agent was started with (required, but\n"
		"                         for --plan)\n"
		"  -p, --port N           agents' control port (default %d)\n"
		"  --pairs RULE           all (default: every ordered pair), ring (each host to\n"
		"                         the next, the last to the first), random:K (K distinct\n"
		"                         partners each way per host), bisection (the first\n"
		"                         half of --hosts against the second, a round at once)\n"
		"  --seed N               random:K: the seed (default: drawn; reported)\n"
		"  --concurrency N        pairs at once within a round of disjoint pairs, 1..%d\n"
		"                         (default 1: tests never share a NIC or a CPU;\n"
		"                         bisection: the whole round)\n"
		"  --plan                 print the rounds, pairs per round and the estimated\n"
		"                         time, and exit; contacts no host (-j: as JSON)\n"
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
		BC_MATRIX_MAX_HOSTS, BC_CTL_PORT, BC_MATRIX_MAX_CONCURRENCY, BC_DATA_PORT);
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

/* The host names of --hosts: @n of them, malloc'd (names[i] each). */
struct host_names {
	char **name;
	size_t n, cap;
};

static void names_free(struct host_names *h)
{
	for (size_t i = 0; i < h->n; i++)
		free(h->name[i]);
	free(h->name);
	memset(h, 0, sizeof(*h));
}

static int names_add(struct host_names *h, const char *s)
{
	if (h->n == h->cap) {
		size_t c = h->cap ? 2 * h->cap : 16;
		char **p = realloc(h->name, c * sizeof(*p));

		if (!p)
			return -ENOMEM;
		h->name = p;
		h->cap = c;
	}
	h->name[h->n] = strdup(s);
	return h->name[h->n++] ? 0 : -ENOMEM;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Split @list at the commas outside brackets into @h: a plain item as it is,
 * an item with a range (node[01-16]) expanded by bc_hostlist_parse().
 * Returns 0 or -1 with @why (@len bytes) saying what is wrong: a host listed
 * twice, fewer than 2 or more than BC_MATRIX_MAX_HOSTS hosts, a bad range.
 */
static int split_hosts(char *list, struct host_names *h, char *why, size_t len)
{
	char **sorted;
	int depth = 0;

	for (char *s = list, *p = list;; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']' && depth)
			depth--;
		if (*p && (*p != ',' || depth))
			continue;
		{
			char save = *p, *e = p;

			while (*s == ' ')
				s++;
			while (e > s && e[-1] == ' ')
				e--;
			*e = '\0';
			if (strchr(s, '[')) {
				struct bc_hostlist hl = {0};
				char herr[200];

				if (bc_hostlist_parse(s, &hl, herr, sizeof(herr)) < 0) {
					snprintf(why, len, "%s", herr);
					return -1;
				}
				for (size_t i = 0; i < hl.n && h->n <= BC_MATRIX_MAX_HOSTS; i++)
					if (names_add(h, hl.name[i]) < 0) {
						bc_hostlist_free(&hl);
						snprintf(why, len, "out of memory");
						return -1;
					}
				bc_hostlist_free(&hl);
			} else if (*s && names_add(h, s) < 0) {
				snprintf(why, len, "out of memory");
				return -1;
			}
			if (h->n > BC_MATRIX_MAX_HOSTS) {
				snprintf(why, len, "too many hosts");
				return -1;
			}
			if (!save)
				break;
			s = p + 1;
		}
	}
	if (h->n < 2) {
		snprintf(why, len, "at least 2 hosts");
		return -1;
	}
	sorted = malloc(h->n * sizeof(*sorted));
	if (!sorted) {
		snprintf(why, len, "out of memory");
		return -1;
	}
	memcpy(sorted, h->name, h->n * sizeof(*sorted));
	qsort(sorted, h->n, sizeof(*sorted), cmp_name);
	for (size_t i = 1; i < h->n; i++)
		if (!strcmp(sorted[i - 1], sorted[i])) {
			snprintf(why, len, "host '%.80s' is listed twice", sorted[i]);
			free(sorted);
			return -1;
		}
	free(sorted);
	return 0;
}

/*
 * A seed for random:K when --seed is not given: the kernel's, else the
 * clock's; below 2^32, so that it is short to type back and exact in every
 * JSON reader (jq holds numbers as doubles: 53 bits).
 */
static uint64_t draw_seed(void)
{
	uint32_t s = 0;
	struct timespec ts;

	if (getrandom(&s, sizeof(s), GRND_NONBLOCK) == (ssize_t)sizeof(s))
		return s;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint32_t)((uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^
			  (uint64_t)getpid());
}

/*
 * --plan: the plan of @cfg's rule over @hosts and its estimate, text or
 * (@json) the plan document; no host is contacted.  Returns the exit status.
 */
static int print_plan(const struct bc_matrix_cfg *cfg, const char *const *hosts, unsigned n,
		      bool json)
{
	struct bc_matrix_plan p;
	struct bc_matrix_estimate e;
	struct bc_error err = {0};
	int r;

	if (bc_matrix_plan_make(n, &cfg->rule, cfg->concurrency, &p, &err) < 0) {
		fprintf(stderr, "bondcheck matrix: --plan: %s\n", err.msg);
		return BC_EXIT_USAGE;
	}
	bc_matrix_plan_estimate(&p, cfg->plan.duration_ms, cfg->plan.tmax_ms, cfg->pmtu, &e);
	if (json) {
		r = bc_matrix_plan_report_json(stdout, &p, hosts, &e);
	} else {
		bc_matrix_plan_report_text(stdout, &p, hosts, &e);
		r = ferror(stdout) ? -1 : 0;
	}
	bc_matrix_plan_free(&p);
	if (r < 0 || fflush(stdout)) {
		fprintf(stderr, "bondcheck matrix: --plan: cannot write the plan: %s\n",
			strerror(errno));
		return BC_EXIT_ENV;
	}
	return BC_EXIT_OK;
}

int bc_cmd_matrix(int argc, char **argv)
{
	int key_rc;
	static const struct option opts[] = {
		{"hosts", required_argument, NULL, 'H'},
		{"auth-key", required_argument, NULL, 'k'},
		{"port", required_argument, NULL, 'p'},
		{"concurrency", required_argument, NULL, 'c'},
		{"pairs", required_argument, NULL, 'R'},
		{"seed", required_argument, NULL, 'S'},
		{"plan", no_argument, NULL, 'L'},
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
	struct host_names hosts = {0};
	struct bc_matrix_cfg cfg;
	struct bc_error err = {0};
	struct json_object *doc = NULL, *fs;
	const char *csv = NULL, *plot = NULL;
	char *host_list = NULL, why[300];
	bool json = false, have_key = false, have_len = false, brief = false, plan = false;
	bool have_conc = false;
	unsigned long long seed = 0;
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
			if (*end || v < 1 || v > BC_MATRIX_MAX_CONCURRENCY)
				return bad("--concurrency", optarg, "1..512 pairs at once");
			cfg.concurrency = (unsigned)v;
			have_conc = true;
			break;
		case 'R':
			if (bc_matrix_rule_parse(optarg, &cfg.rule, &err) < 0)
				return bad("--pairs", optarg,
					   "all, ring, random:K (K partners per host) or bisection");
			break;
		case 'S':
			errno = 0;
			seed = strtoull(optarg, &end, 10);
			if (*optarg < '0' || *optarg > '9' || *end || errno)
				return bad("--seed", optarg, "an integer 0..18446744073709551615");
			cfg.seed_given = true;
			break;
		case 'L':
			plan = true;
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
	if (plan && (csv || plot || brief)) {
		fprintf(stderr, "bondcheck matrix: --plan prints the plan (text, or -j); it cannot "
				"be combined with %s\n",
			csv ? "--csv" : plot ? "--plot" : "--brief");
		return BC_EXIT_USAGE;
	}
	if (cfg.seed_given && cfg.rule.kind != BC_MATRIX_PAIRS_RANDOM) {
		fprintf(stderr, "bondcheck matrix: --seed applies to --pairs random:K\n");
		return BC_EXIT_USAGE;
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
	if (split_hosts(host_list, &hosts, why, sizeof(why)) < 0) {
		fprintf(stderr, "bondcheck matrix: --hosts: %s; expected 2..%d distinct hosts\n",
			why, BC_MATRIX_MAX_HOSTS);
		names_free(&hosts);
		return BC_EXIT_USAGE;
	}
	n = (int)hosts.n;
	if (cfg.rule.kind == BC_MATRIX_PAIRS_RANDOM)
		cfg.rule.seed = cfg.seed_given ? seed : draw_seed();
	/* bisection loads the fabric with a whole round at once */
	if (cfg.rule.kind == BC_MATRIX_PAIRS_BISECTION && !have_conc)
		cfg.concurrency = n / 2 < BC_MATRIX_MAX_CONCURRENCY ? (unsigned)n / 2
								   : BC_MATRIX_MAX_CONCURRENCY;
	rc = BC_EXIT_USAGE;
	if (!have_key && !plan) {
		fprintf(stderr,
			"bondcheck matrix: --auth-key FILE is required: agents relay tests "
			"only between hosts that prove the same key (start each with `bondcheck "
			"serve --auth-key FILE`)\n");
		goto out;
	}
	if (cfg.plan.proto == BC_L4_TCP && rate > 0) {
		fprintf(stderr, "bondcheck matrix: --rate applies to UDP (-u); TCP runs unpaced\n");
		goto out;
	}
	if (cfg.plan.proto == BC_L4_UDP) {
		if (!(rate > 0)) {
			fprintf(stderr, "bondcheck matrix: -u needs --rate R (the offered rate per "
					"pair, e.g. 50M)\n");
			goto out;
		}
		cfg.plan.rate_bps = (uint64_t)(rate / cfg.plan.streams);
		if (!have_len)
			cfg.plan.length = 1472;
	}
	r = bc_plan_check(&cfg.plan, NULL, &err);
	if (r < 0) {
		fprintf(stderr, "bondcheck matrix: %s\n", err.msg);
		goto out;
	}
	if (plan) {
		rc = print_plan(&cfg, (const char *const *)hosts.name, (unsigned)n, json);
		goto out;
	}
	if (plot && (rc = bc_cli_plot_dir("matrix", plot)) != BC_EXIT_OK)
		goto out;
	cfg.hosts = (const char *const *)hosts.name;
	cfg.n_hosts = (unsigned)n;
	if (isatty(STDERR_FILENO))
		cfg.progress = on_progress;
	signal(SIGPIPE, SIG_IGN);
	r = bc_matrix_run(&cfg, &doc, &err);
	if (r < 0) {
		fprintf(stderr, "bondcheck matrix: %s\n", err.msg);
		rc = r == -EINVAL ? BC_EXIT_USAGE : BC_EXIT_ENV;
		goto out;
	}
	rc = BC_EXIT_OK;
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
out:
	names_free(&hosts);
	return rc;
}
