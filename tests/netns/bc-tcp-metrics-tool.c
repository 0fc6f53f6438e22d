// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Test driver for bondcheck/tcp-metrics.h (tests/netns/tcp-metrics.sh):
 *   bc-tcp-metrics-tool forget ADDRESS
 * Prints "rc=N message" and exits 0 when the call returned 0, else 1.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/tcp-metrics.h"

int main(int argc, char **argv)
{
	struct sockaddr_storage ss = {0};
	struct bc_error err = {0};
	int r;

	if (argc != 3 || strcmp(argv[1], "forget")) {
		fprintf(stderr, "usage: bc-tcp-metrics-tool forget ADDRESS\n");
		return 2;
	}
	if (inet_pton(AF_INET, argv[2], &((struct sockaddr_in *)&ss)->sin_addr) == 1)
		ss.ss_family = AF_INET;
	else if (inet_pton(AF_INET6, argv[2], &((struct sockaddr_in6 *)&ss)->sin6_addr) == 1)
		ss.ss_family = AF_INET6;
	else {
		fprintf(stderr, "bc-tcp-metrics-tool: '%s' is not an IPv4 or IPv6 address\n",
			argv[2]);
		return 2;
	}
	r = bc_tcp_metrics_forget(&ss, &err);
	printf("rc=%d %s\n", r, err.msg);
	return r == 0 ? 0 : 1;
}
