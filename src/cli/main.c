// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bondcheck: validate Linux bonds with measurements.
 * Dispatches to the subcommands that exist; each parses its own options.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const struct bc_command commands[] = {
	{ "inspect", "audit bonds and every slave (netlink, ethtool, /proc); or saved /proc text",
	  bc_cmd_inspect },
	{ "serve", "the agent on the peer host: answers `run` over the control protocol", bc_cmd_serve },
	{ "run", "test a bond against an agent: the suite with three verdicts, or one TCP/UDP test",
	  bc_cmd_run },
	{ "analyze", "attribute per-slave captures (pcap): per-link loss, reordering pairs, paths",
	  bc_cmd_analyze },
	{ "restore", "put bonds back from their journals after scale/failover/sweep (or a crash)",
	  bc_cmd_restore },
	{ "matrix", "every ordered pair of a cluster's agents: goodput matrix, path MTU, slow hosts",
	  bc_cmd_matrix },
	{ "sweep", "goodput against message size, streams, UDP rate or MTU, with CIs and the ceiling",
	  bc_cmd_sweep },
	{ "scale", "does N+1 links beat N: repeated runs per slave count, speed-up with 95 % CI",
	  bc_cmd_scale },
	{ "failover", "take a slave down and back under paced UDP: traffic gap, loss, GARP/NA, recovery",
	  bc_cmd_failover },
	{ "fleet", "compare many hosts' inspect -j documents: drift from the majority, missing hosts",
	  bc_cmd_fleet },
	{ "watch", "the host's own traffic on a bond, passive: slave rates and shares, flows, verdicts",
	  bc_cmd_watch },
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bondcheck [--version] [--help] COMMAND [ARGS]\n"
		"\n"
		"bondcheck tells, with measurements, whether a Linux bond delivers what its\n"
		"NICs promise, and if not, why.\n"
		"\n"
		"Commands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(out,
		"\n"
		"Run `bondcheck COMMAND --help` for a command's options.\n"
		"Exit status: 0 ok, 1 a verdict failed or an error-level finding stands,\n"
		"2 usage error, 3 environment problem (no permission, no such bond, no\n"
		"bonding driver, peer unreachable), 4 bad input data (an unreadable or\n"
		"malformed file).  With -j, a failing command also prints\n"
		"{\"error\": {\"exit\": N, \"kind\": ..., \"message\": ...}} on stdout (docs/json.md).\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return BC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return BC_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("bondcheck %s\n", BC_VERSION);
		return BC_EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		/* inspect's monitoring formats keep the error line for their own output */
		bool json = bc_cli_json_requested(argc - 1, argv + 1) ||
			    (!strcmp(argv[1], "inspect") &&
			     bc_cli_format_requested(argc - 1, argv + 1) != BC_FORMAT_TEXT);
		int status;

		if (strcmp(argv[1], commands[i].name))
			continue;
		if (json) {
			bool one_line = false;

			for (int a = 2; a < argc && strcmp(argv[a], "--"); a++)
				one_line = one_line || !strcmp(argv[a], "--json-line");
			bc_cli_error_capture(commands[i].name, one_line);
		}
		status = commands[i].run(argc - 1, argv + 1);
		if (json)
			bc_cli_error_finish(status);
		return status;
	}
	fprintf(stderr, "bondcheck: unknown command '%s'; expected one of:", argv[1]);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(stderr, " %s", commands[i].name);
	fprintf(stderr, ". See `bondcheck --help`.\n");
	return BC_EXIT_USAGE;
}
