// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bondcheck watch [BOND]: the traffic the host really runs on its bond,
 * passive (issue 17 item 4; docs/watch.md).  Samples once per interval
 * (bondcheck/watch-run.h), prints each interval, and at the end the
 * answers and verdicts on the whole watch (bondcheck/watch.h).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bondcheck/error.h"
#include "bondcheck/plot.h"
#include "bondcheck/units.h"
#include "bondcheck/watch-report.h"
#include "bondcheck/watch-run.h"
#include "cli/cli.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bondcheck watch [options] [BOND]\n"
		"\n"
		"Watches the traffic this host really runs on a bond, passively: no agent, no\n"
		"generated traffic.  Once per interval: each slave's TX and RX rate and share\n"
		"of the bond, drops and errors (rtnetlink stats64), the host's TCP\n"
		"retransmissions and reordering events, and this host's TCP connections over\n"
		"the bond with the slave each one is sent on.  Without the slave taps that\n"
		"slave is predicted by the bond's transmit hash (marked \"predicted\"), and what\n"
		"the peer sends back is shown as unknown.  At the end (--duration, or Ctrl-C):\n"
		"answers and verdicts on the whole watch: is the load balanced over the slaves\n"
		"(is a slave at >= 90 %% of its speed beside an idle one: then the bond is the\n"
		"limit; not judged when the slave reports no speed), does one flow carry it\n"
		"(one TCP connection never uses more than one slave in a hash mode), does a\n"
		"slave outside the transmit set send, does balance-rr reorder TCP.\n"
		"\n"
		"BOND defaults to the only bond of the network namespace (use\n"
		"`ip netns exec NS bondcheck watch` for another namespace).\n"
		"\n"
		"Options:\n"
		"  -i, --interval S   seconds between samples (default 1, at least 0.1)\n"
		"  -d, --duration S   stop after S seconds (default: at Ctrl-C)\n"
		"  --top N            flows listed (default 5)\n"
		"  -j, --json         one JSON object per line: each interval, then the summary\n"
		"  --brief            at the end only the answers, same exit status\n"
		"  --taps WHEN        auto (default): the slave taps observe each flow's slave\n"
		"                     both ways when this bondcheck has them and may load them\n"
		"                     (CAP_BPF, CAP_NET_ADMIN); on: required; off: predicted\n"
		"  --plot DIR         at the end DIR/watch-slaves.svg: each slave's TX and RX\n"
		"                     rate per interval (the first 4096 intervals); and\n"
		"                     DIR/watch-flows.svg: the 12 busiest flows' bytes on each\n"
		"                     slave, TX and RX, marked observed (taps), predicted (hash)\n"
		"                     or unknown (grey: RX without the taps)\n"
		"  -h, --help         this text\n"
		"\n"
		"Examples:\n"
		"  bondcheck watch bond0 -d 30          # 30 s, a line per second, then answers\n"
		"  bondcheck watch -j -d 10 | jq -c 'select(.type == \"summary\") | .verdicts'\n"
		"\n"
		"Exit status: 0 no verdict failed; 1 a verdict failed; 2 usage; 3 environment\n"
		"(no such bond, a counter source unreadable).\n");
}

/* The only bond of the namespace, from /sys/class/net/<dev>/bonding. */
static int only_bond(char *out, size_t len)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	char names[512] = "";
	int n = 0;

	if (!d) {
		fprintf(stderr, "bondcheck watch: cannot list /sys/class/net: %s\n",
			strerror(errno));
		return BC_EXIT_ENV;
	}
	while ((e = readdir(d))) {
		char p[512];

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/sys/class/net/%s/bonding", e->d_name);
		if (access(p, F_OK))
			continue;
		if (!n++)
			snprintf(out, len, "%s", e->d_name);
		snprintf(names + strlen(names), sizeof(names) - strlen(names), " %s", e->d_name);
	}
	closedir(d);
	if (n == 1)
		return BC_EXIT_OK;
	if (!n) {
		fprintf(stderr, "bondcheck watch: no bond in this network namespace (no "
				"/sys/class/net/*/bonding)\n");
		return BC_EXIT_ENV;
	}
	fprintf(stderr, "bondcheck watch: %d bonds here (%s): name one; see `bondcheck watch "
			"--help`\n", n, names + 1);
	return BC_EXIT_USAGE;
}

/*
 * One interval into the --plot timeline (bondcheck/plot.h
 * bc_plot_link_timeline(): bins of the nominal interval, a tx: and an rx:
 * link per slave of the first sample, bytes per bin).  Intervals past
 * 4096 (BC_ATTRIB_MAX_BINS) are not drawn.
 */
static void timeline_add(struct json_object **tl, const struct bc_watch_sample *first,
			 const struct bc_watch_interval *iv, uint32_t interval_ms)
{
	struct json_object *links;

	if (!*tl) {
		*tl = json_object_new_object();
		json_object_object_add(*tl, "bin_ns",
				       json_object_new_int64((int64_t)interval_ms * 1000000));
		json_object_object_add(*tl, "start_ns", json_object_new_int64(0));
		links = json_object_new_array();
		for (int side = 0; side < 2; side++)
			for (size_t i = 0; i < first->n_slaves && i < 16; i++) {
				struct json_object *l = json_object_new_object();
				char name[48];

				snprintf(name, sizeof(name), "%s:%s", side ? "rx" : "tx",
					 first->slaves[i].name);
				json_object_object_add(l, "name", json_object_new_string(name));
				json_object_object_add(l, "side",
						       json_object_new_string(side ? "rx" : "tx"));
				json_object_object_add(l, "wire_bytes", json_object_new_array());
				json_object_array_add(links, l);
			}
		json_object_object_add(*tl, "links", links);
	}
	links = json_object_object_get(*tl, "links");
	for (size_t k = 0; k < json_object_array_length(links); k++) {
		struct json_object *l = json_object_array_get_idx(links, k);
		struct json_object *w = json_object_object_get(l, "wire_bytes");
		const char *name = json_object_get_string(json_object_object_get(l, "name"));
		uint64_t bytes = 0;

		if (json_object_array_length(w) >= 4096)
			return;
		for (size_t i = 0; i < iv->n_slaves; i++)
			if (!strcmp(iv->slaves[i].name, name + 3))
				bytes = name[0] == 't' ? iv->slaves[i].tx_bytes : iv->slaves[i].rx_bytes;
		json_object_array_add(w, json_object_new_int64((int64_t)bytes));
	}
}

static void sleep_until(const struct timespec *t)
{
	while (!stop && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) == EINTR)
		;
}

int bc_cmd_watch(int argc, char **argv)
{
	static const struct option opts[] = {
		{"interval", required_argument, NULL, 'i'}, {"duration", required_argument, NULL, 'd'},
		{"top", required_argument, NULL, 't'},	    {"json", no_argument, NULL, 'j'},
		{"brief", no_argument, NULL, 'b'},	    {"help", no_argument, NULL, 'h'},
		{"plot", required_argument, NULL, 'p'},	    {"taps", required_argument, NULL, 'T'},
		{NULL, 0, NULL, 0},
	};
	struct bc_watch_sample *first = NULL, *prev = NULL, *cur = NULL;
	struct bc_watch_interval *iv = NULL;
	struct bc_watch_flow_sums *sums = NULL;
	struct bc_watch_verdicts *v = NULL;
	struct bc_watch_run_info ri = {0};
	uint32_t interval_ms = 1000, duration_ms = 0;
	size_t top = 5, n_iv = 0, n_tcp = 0, n_reorder = 0;
	uint64_t tap_evicted = 0; /* the taps' flow table evictions, all intervals */
	bool json = false, brief = false, redraw;
	const char *plot = NULL;
	int taps_when = 0; /* 0 auto, 1 on, 2 off */
	struct bc_watch_taps *taps = NULL;
	struct json_object *tl = NULL;
	char bond[64] = "";
	struct sigaction sa;
	struct timespec next;
	struct bc_error err = {0};
	int c, lines = 0, status = BC_EXIT_OK;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:d:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (bc_parse_seconds(optarg, &interval_ms) || interval_ms < 100)
				return bc_cli_bad("watch", "--interval", optarg,
						  "seconds, at least 0.1");
			break;
		case 'd':
			if (bc_parse_seconds(optarg, &duration_ms) || !duration_ms)
				return bc_cli_bad("watch", "--duration", optarg,
						  "seconds above 0");
			break;
		case 't': {
			char *end;
			unsigned long n = strtoul(optarg, &end, 10);

			if (*end || !*optarg || n < 1 || n > BC_WATCH_MAX_FLOWS)
				return bc_cli_bad("watch", "--top", optarg, "1..256");
			top = n;
			break;
		}
		case 'j':
			json = true;
			break;
		case 'b':
			brief = true;
			break;
		case 'p':
			plot = optarg;
			break;
		case 'T':
			if (strcmp(optarg, "auto") && strcmp(optarg, "on") && strcmp(optarg, "off"))
				return bc_cli_bad("watch", "--taps", optarg, "auto, on or off");
			taps_when = optarg[1] == 'u' ? 0 : optarg[1] == 'n' ? 1 : 2;
			break;
		case 'h':
			usage(stdout);
			return BC_EXIT_OK;
		default:
			return bc_cli_opt_error("watch", c, argv, opts);
		}
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "bondcheck watch: one bond at a time (found %s and %s); see "
				"`bondcheck watch --help`\n", argv[optind], argv[optind + 1]);
		return BC_EXIT_USAGE;
	}
	if (plot && (status = bc_cli_plot_dir("watch", plot)) != BC_EXIT_OK)
		return status;
	if (optind < argc)
		snprintf(bond, sizeof(bond), "%s", argv[optind]);
	else if ((status = only_bond(bond, sizeof(bond))) != BC_EXIT_OK)
		return status;

	first = calloc(1, sizeof(*first));
	prev = calloc(1, sizeof(*prev));
	cur = calloc(1, sizeof(*cur));
	iv = calloc(1, sizeof(*iv));
	v = calloc(1, sizeof(*v));
	sums = calloc(1, sizeof(*sums));
	if (!first || !prev || !cur || !iv || !v || !sums) {
		fprintf(stderr, "bondcheck watch: out of memory\n");
		status = BC_EXIT_ENV;
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (bc_watch_sample_take(bond, first, &err) < 0) {
		fprintf(stderr, "bondcheck watch: %s\n", err.msg);
		status = BC_EXIT_ENV;
		goto out;
	}
	if (first->flows_error[0])
		fprintf(stderr, "bondcheck watch: connections not read: %s\n", first->flows_error);
	if (taps_when != 2) {
		struct bc_error te = {0};

		if (bc_watch_taps_open(&taps, first, &te) < 0) {
			if (taps_when == 1) {
				fprintf(stderr, "bondcheck watch: --taps on: %s\n", te.msg);
				status = BC_EXIT_ENV;
				goto out;
			}
			fprintf(stderr, "bondcheck watch: no slave taps (%s): TX slaves are "
					"predicted, RX slaves unknown\n", te.msg);
		} else if (bc_watch_sample_take(bond, first, &err) < 0) {
			/*
			 * Loading and attaching took time (seconds under emulation):
			 * the first interval starts now, with the taps watching, not
			 * before they were attached.
			 */
			fprintf(stderr, "bondcheck watch: %s\n", err.msg);
			status = BC_EXIT_ENV;
			goto out;
		} else if (bc_watch_taps_read(taps, first, &te) < 0) {
			fprintf(stderr, "bondcheck watch: slave taps unreadable: %s\n", te.msg);
		}
	}
	*prev = *first;
	redraw = !json && isatty(fileno(stdout));
	if (!json && !redraw)
		fprintf(stdout, "bondcheck watch: %s, a line every %.1f s%s\n", bond,
			interval_ms / 1000.0, duration_ms ? "" : " until Ctrl-C");
	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!stop) {
		double t_s;

		next.tv_nsec += (long)(interval_ms % 1000) * 1000000;
		next.tv_sec += interval_ms / 1000 + next.tv_nsec / 1000000000;
		next.tv_nsec %= 1000000000;
		sleep_until(&next);
		if (stop)
			break;
		if (bc_watch_sample_take(bond, cur, &err) < 0) {
			fprintf(stderr, "bondcheck watch: %s; the watch ends here\n", err.msg);
			status = BC_EXIT_ENV;
			break;
		}
		if (taps && !bc_watch_taps_cover(taps, cur)) {
			/* a slave came or went: taps on the new set (their counters restart) */
			struct bc_error te = {0};

			bc_watch_taps_close(taps);
			taps = NULL;
			if (bc_watch_taps_open(&taps, cur, &te) < 0)
				fprintf(stderr, "bondcheck watch: slave taps not reopened on the new "
						"slaves: %s\n", te.msg);
		}
		if (taps) {
			struct bc_error te = {0};

			if (bc_watch_taps_read(taps, cur, &te) < 0)
				fprintf(stderr, "bondcheck watch: slave taps unreadable: %s\n",
					te.msg);
		}
		if (bc_watch_delta(prev, cur, iv) < 0)
			continue;
		n_iv++;
		tap_evicted += iv->tap_flow_evicted;
		bc_watch_flows_add(sums, iv);
		if (plot)
			timeline_add(&tl, first, iv, interval_ms);
		n_tcp += iv->tcp_out_segs > 0;
		n_reorder += iv->tcp_reorder > 0;
		t_s = (double)(cur->mono_ns - first->mono_ns) / 1e9;
		if (json) {
			struct json_object *o = bc_watch_json_interval(iv, t_s);

			puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
			fflush(stdout);
			json_object_put(o);
		} else {
			lines = bc_watch_text_interval(stdout, iv, t_s, redraw, lines, top);
		}
		*prev = *cur;
		if (duration_ms && t_s * 1000 >= duration_ms - interval_ms / 2.0)
			break;
	}
	if (!n_iv) {
		fprintf(stderr, "bondcheck watch: stopped before the first interval ended: nothing "
				"to judge\n");
		status = status ? status : BC_EXIT_USAGE;
		goto out;
	}
	bc_watch_delta(first, prev, iv);
	bc_watch_flows_apply(sums, iv);
	bc_watch_judge(first, iv, n_iv, n_reorder, n_tcp, v);
	ri.bond = bond;
	ri.mode = first->mode;
	ri.policy = first->policy;
	ri.elapsed_s = (double)(prev->mono_ns - first->mono_ns) / 1e9;
	ri.n_intervals = n_iv;
	ri.top = top;
	ri.flows_error = prev->flows_error;
	ri.flows_dropped = prev->flows_dropped + sums->dropped;
	ri.taps = prev->taps;
	ri.sums = sums;
	ri.tap_flow_entries = prev->tap_flow_entries;
	ri.tap_flow_capacity = prev->tap_flow_capacity;
	ri.tap_flow_fail = prev->tap_flow_fail;
	ri.tap_flow_evicted = tap_evicted;
	if (json) {
		struct json_object *o = bc_watch_json_summary(&ri, iv, v);

		puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
		json_object_put(o);
	} else {
		fputc('\n', stdout);
		bc_watch_text_summary(stdout, &ri, iv, v, brief);
	}
	if (plot && tl) {
		int r = bc_cli_write_plot("watch", plot, "watch-slaves.svg", tl,
					  bc_plot_link_timeline);

		if (r != BC_EXIT_OK && status == BC_EXIT_OK)
			status = r;
	}
	if (plot) {
		struct json_object *pl = bc_watch_json_placement(sums, bond, BC_PLOT_WATCH_MAX_FLOWS);
		int r = bc_cli_write_plot("watch", plot, "watch-flows.svg", pl, bc_plot_watch_flows);

		json_object_put(pl);
		if (r != BC_EXIT_OK && status == BC_EXIT_OK)
			status = r;
	}
	if (status == BC_EXIT_OK && bc_watch_failed(v))
		status = BC_EXIT_FINDINGS;
out:
	bc_watch_taps_close(taps);
	json_object_put(tl);
	free(first);
	free(prev);
	free(cur);
	free(iv);
	free(v);
	free(sums);
	return status;
}
