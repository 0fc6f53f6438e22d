// SPDX-License-Identifier: GPL-2.0-or-later
/* `bondcheck serve`: option parsing and logging for the agent (bondcheck/agent.h). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <sys/stat.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bondcheck/agent.h"
#include "bondcheck/ctl.h"
#include "bondcheck/journal.h"
#include "bondcheck/privdrop.h"
#include "bondcheck/tap.h"
#include "bondcheck/units.h"
#include "cli/cli.h"

static volatile sig_atomic_t quit;

static void on_signal(int sig)
{
	(void)sig;
	quit = 1;
}

static void log_stderr(void *ctx, const char *msg)
{
	char ts[32];
	time_t now = time(NULL);
	struct tm tm;

	if (ctx)
		return; /* --quiet */
	/* sessions log from their own threads: localtime_r, one fprintf per line */
	strftime(ts, sizeof(ts), "%H:%M:%S", localtime_r(&now, &tm));
	fprintf(stderr, "%s bondcheck serve: %s\n", ts, msg);
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bondcheck serve [--bind ADDR] [--port N] [--once] [--auth-key FILE]\n"
		"                       [--max-duration S] [--max-rate R] [--max-streams N]\n"
		"                       [--user USER] [--allow-changes [--change-idle S]] [-q]\n"
		"\n"
		"Run the agent: answers `bondcheck run` over the control protocol (TCP port %d),\n"
		"sinks and sources its test streams and reports this host's counters.  Traffic\n"
		"goes only to the host of an accepted control connection.\n"
		"  --bind ADDR        listen on this address only (default: every address)\n"
		"  --port N           control port (default %d)\n"
		"  --once             exit after one test\n"
		"  --auth-key FILE    require clients to prove this pre-shared key (HMAC-SHA256)\n"
		"  --max-duration S   longest test accepted, seconds (default 3600)\n"
		"  --max-rate R       highest total UDP rate accepted (with a paced TCP flow\n"
		"                     beside the datagrams, as failover's), bit/s, SI units\n"
		"                     (default 100G)\n"
		"  --max-streams N    most streams per test (default %d)\n"
		"  --user USER        started as root: after binding, run as USER keeping only\n"
		"                     CAP_NET_RAW and CAP_NET_ADMIN, and CAP_BPF with\n"
		"                     CAP_PERFMON (the slave taps; 6.1's verifier needs\n"
		"                     CAP_PERFMON) when this binary has the taps and root\n"
		"                     holds them; without them captures fall back to pcap\n"
		"  --allow-changes    let an authenticated client journal this host's bond,\n"
		"                     take its slaves down and up and change their MTU\n"
		"                     (`scale --method links`, `failover`, `sweep`); the agent\n"
		"                     changes only slaves of the bond journaled in that session\n"
		"                     and restores it when the session ends in any way and on\n"
		"                     SIGINT/SIGTERM (journals in $BC_JOURNAL_DIR, default\n"
		"                     %s; after a crash: `bondcheck restore`).\n"
		"                     Use it with --auth-key: without a key, anyone who\n"
		"                     reaches the port can take slaves down\n"
		"  --change-idle S    a change session silent for S seconds ends and its bond\n"
		"                     is restored (default 3600; a vanished client is noticed\n"
		"                     by TCP keepalive within about 25 s)\n"
		"  -q, --quiet        no log lines on stderr\n",
		BC_CTL_PORT, BC_CTL_PORT, BC_PLAN_MAX_STREAMS, BC_JOURNAL_DIR);
}

/* The journal directory, owned by USER (0700), so the agent can journal after --user. */
static int serve_journal_dir(const char *user, struct bc_error *err)
{
	const char *dir = getenv("BC_JOURNAL_DIR");
	struct passwd *pw = getpwnam(user);
	char path[PATH_MAX];

	if (!pw)
		return bc_error_set(err, -ENOENT, "no user '%s'", user);
	if (!dir || !*dir)
		dir = BC_JOURNAL_DIR;
	snprintf(path, sizeof(path), "%s", dir);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	if (mkdir(path, 0700) < 0 && errno != EEXIST)
		return bc_error_set(err, -errno, "cannot create %s: %s", path, strerror(errno));
	if (chown(path, pw->pw_uid, pw->pw_gid) < 0)
		return bc_error_set(err, -errno, "cannot give %s to %s: %s", path, user,
				    strerror(errno));
	return 0;
}

static int bad(const char *opt, const char *val, const char *allowed)
{
	return bc_cli_bad("serve", opt, val, allowed);
}

int bc_cmd_serve(int argc, char **argv)
{
	int key_rc;
	static const struct option opts[] = {
		{"bind", required_argument, NULL, 'B'},
		{"port", required_argument, NULL, 'p'},
		{"once", no_argument, NULL, '1'},
		{"auth-key", required_argument, NULL, 'k'},
		{"max-duration", required_argument, NULL, 'D'},
		{"max-rate", required_argument, NULL, 'R'},
		{"max-streams", required_argument, NULL, 'S'},
		{"user", required_argument, NULL, 'U'},
		{"quiet", no_argument, NULL, 'q'},
		{"allow-changes", no_argument, NULL, 'A'},
		{"change-idle", required_argument, NULL, 'I'},
		/* test only, not in --help (docs/run.md "Test-only options") */
		{"test-read-stall", required_argument, NULL, 1001},
		{"test-rcvbuf", required_argument, NULL, 1002},
		{"test-any-master", no_argument, NULL, 1003},
		{"test-setup-timeout", required_argument, NULL, 1010},
		{"test-clock-offset", required_argument, NULL, 1004},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct bc_agent_cfg cfg;
	struct bc_error err = {0};
	struct sigaction sa = {.sa_handler = on_signal};
	const char *user = NULL;
	int c, fd, r, quiet = 0;
	uint32_t idle_ms;
	double rate;
	char *end;
	long v;

	bc_agent_cfg_defaults(&cfg);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":B:p:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'B':
			cfg.bind_addr = optarg;
			break;
		case 'p':
			if (bc_cli_port("serve", optarg, &cfg.port))
				return BC_EXIT_USAGE;
			break;
		case '1':
			cfg.once = true;
			break;
		case 'k':
			key_rc = bc_cli_auth_key("serve", optarg, &cfg.key);
			if (key_rc)
				return key_rc;
			break;
		case 'D':
			if (bc_parse_seconds(optarg, &cfg.limits.max_duration_ms) < 0 ||
			    cfg.limits.max_duration_ms < 100)
				return bad("--max-duration", optarg, "seconds, 0.1..86400");
			break;
		case 'R':
			if (bc_parse_rate(optarg, &rate) < 0 || rate < 1)
				return bad("--max-rate", optarg,
					   "a rate in bit/s with SI suffix (100M, 10G)");
			cfg.limits.max_rate_bps = (uint64_t)rate;
			break;
		case 'S':
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > BC_PLAN_MAX_STREAMS)
				return bad("--max-streams", optarg, "1..128");
			cfg.limits.max_streams = (uint32_t)v;
			break;
		case 'U':
			user = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'A':
			cfg.allow_changes = true;
			break;
		case 'I':
			if (bc_parse_seconds(optarg, &idle_ms) < 0 || idle_ms < 1000 ||
			    idle_ms > 86400000u)
				return bad("--change-idle", optarg, "seconds, 1..86400");
			cfg.change_idle_timeout_ms = (int)idle_ms;
			break;
		case 1001:
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 60000)
				return bad("--test-read-stall", optarg, "milliseconds 1..60000");
			cfg.test_read_stall_ms = (uint32_t)v;
			break;
		case 1002:
			v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > (1 << 30))
				return bad("--test-rcvbuf", optarg, "bytes 1..1073741824");
			cfg.test_rcvbuf = (uint32_t)v;
			break;
		case 1003:
			cfg.test_any_master = true;
			break;
		case 1010:
			v = strtol(optarg, &end, 10);
			if (*end || v < 100 || v > 600000)
				return bad("--test-setup-timeout", optarg,
					   "milliseconds 100..600000");
			cfg.setup_timeout_ms = (int)v;
			break;
		case 1004:
			v = strtol(optarg, &end, 10);
			if (*end || v < -86400000 || v > 86400000 || !*optarg)
				return bad("--test-clock-offset", optarg,
					   "milliseconds -86400000..86400000");
			cfg.test_clock_offset_ns = (int64_t)v * 1000000;
			break;
		case 'h':
			usage(stdout);
			return BC_EXIT_OK;
		default:
			return bc_cli_opt_error("serve", c, argv, opts);
		}
	}
	if (optind < argc) {
		fprintf(stderr,
			"bondcheck serve: unexpected argument '%s'; serve takes only options\n",
			argv[optind]);
		return BC_EXIT_USAGE;
	}
	cfg.log = log_stderr;
	cfg.log_ctx = quiet ? (void *)1 : NULL;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	fd = bc_agent_listen(&cfg, &err);
	if (fd < 0) {
		fprintf(stderr, "bondcheck serve: %s\n", err.msg);
		return fd == -EINVAL ? BC_EXIT_USAGE : BC_EXIT_ENV;
	}
	/* the journal directory is created while still root: --user may not */
	if (cfg.allow_changes && user) {
		r = serve_journal_dir(user, &err);
		if (r < 0) {
			fprintf(stderr, "bondcheck serve: --allow-changes: %s\n", err.msg);
			close(fd);
			return BC_EXIT_ENV;
		}
	}
	/* after the bind (a port below 1024 needs root) and the key file read */
	if (user) {
		uid_t uid;
		bool bpf;

		r = bc_privdrop_to_user(user, &uid, &bpf, &err);
		if (r < 0) {
			fprintf(stderr, "bondcheck serve: --user: %s\n", err.msg);
			close(fd);
			return r == -ENOENT || r == -EINVAL ? BC_EXIT_USAGE : BC_EXIT_ENV;
		}
		if (!quiet)
			fprintf(stderr,
				"bondcheck serve: running as %s (uid %u) with %s only%s\n",
				user, (unsigned)uid,
				bpf ? "CAP_NET_RAW, CAP_NET_ADMIN, CAP_BPF and CAP_PERFMON"
				    : "CAP_NET_RAW and CAP_NET_ADMIN",
				bpf || !bc_tap_built()
					? ""
					: " (CAP_BPF or CAP_PERFMON not held: captures use pcap, "
					  "not the slave taps)");
	}
	if (!quiet)
		fprintf(stderr, "bondcheck serve: listening on %s port %u%s%s\n",
			cfg.bind_addr ? cfg.bind_addr : "every address", cfg.port,
			cfg.key.len ? " (pre-shared key required)" : "",
			cfg.allow_changes ? "; changes allowed (journal, slave down/up, MTU)" : "");
	if (cfg.allow_changes && !cfg.key.len)
		fprintf(stderr,
			"bondcheck serve: warning: --allow-changes without --auth-key: any host "
			"that reaches port %u can take this bond's slaves down\n",
			cfg.port);
	r = bc_agent_serve(&cfg, fd, &quit, &err);
	close(fd);
	if (r < 0) {
		fprintf(stderr, "bondcheck serve: %s\n", err.msg);
		return BC_EXIT_ENV;
	}
	return BC_EXIT_OK;
}
