// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One end's live capture, as `bondcheck run --capture` runs it, for the
 * live CPU comparison of the slave taps and libpcap (issue 17 item 3;
 * tools/bench/tap/live.sh, RESULTS.md "Live capture CPU"):
 *
 *   bc-capture-bench pcap|taps LOCAL PEER READY
 *
 * Opens the capture of this end exactly as a run does
 * (bc_run_capture_open(): the slaves of the interface LOCAL leaves by, the
 * host-pair filter LOCAL <-> PEER, the taps or libpcap), starts it, creates
 * the file READY, captures until SIGTERM or SIGINT, then stops (pcap:
 * pcap_stats and closing the files; taps: draining the ring and writing
 * the per-slave pcap files of synthesized frames) and prints one JSON
 * line: {"mode", "cpu_s": this process's user + system CPU from READY to
 * the end of the stop, seconds (getrusage(RUSAGE_SELF), every thread),
 * "setup_cpu_s": the same before READY (loading, verifying, attaching),
 * "captured": frames written (pcap: ps_recv over the slaves; taps: ring
 * records), "lost": ps_drop or ring drops, "capture": the run's capture
 * JSON}.  The files are deleted at exit.  Needs root.
 * Exit: 0, 1 the capture failed (message on stderr), 2 usage.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bondcheck/error.h"
#include "workflow/run-capture.h"

#define CTL_PORT 5301 /* bondcheck's control port: the filter leaves it out */

static double cpu_s(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static int parse(const char *s, struct sockaddr_storage *ss)
{
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, s, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		return 0;
	}
	return -1;
}

/* Sum of @key over the members of "interfaces[].pcap_stats" (pcap) */
static uint64_t pcap_sum(struct json_object *cap, const char *key)
{
	struct json_object *ifs, *st, *v;
	uint64_t n = 0;

	if (!json_object_object_get_ex(cap, "interfaces", &ifs))
		return 0;
	for (size_t i = 0; i < json_object_array_length(ifs); i++)
		if (json_object_object_get_ex(json_object_array_get_idx(ifs, i), "pcap_stats",
					      &st) &&
		    json_object_object_get_ex(st, key, &v))
			n += (uint64_t)json_object_get_int64(v);
	return n;
}

static uint64_t tap_counter(struct json_object *cap, const char *key)
{
	struct json_object *t, *c, *v;

	if (json_object_object_get_ex(cap, "taps", &t) &&
	    json_object_object_get_ex(t, "counters", &c) && json_object_object_get_ex(c, key, &v))
		return (uint64_t)json_object_get_int64(v);
	return 0;
}

int main(int argc, char **argv)
{
	struct bc_run_capture rc;
	struct sockaddr_storage local, peer;
	struct bc_error err = {0};
	struct json_object *o, *cap;
	enum bc_capsrc want;
	sigset_t set;
	double c0, c1, c2;
	int sig, fd, pcap;

	if (argc != 5 || parse(argv[2], &local) || parse(argv[3], &peer) ||
	    (strcmp(argv[1], "pcap") && strcmp(argv[1], "taps"))) {
		fprintf(stderr, "usage: bc-capture-bench pcap|taps LOCAL PEER READY\n");
		return 2;
	}
	pcap = !strcmp(argv[1], "pcap");
	want = pcap ? BC_CAPSRC_PCAP : BC_CAPSRC_TAPS;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL); /* before the capture threads start */
	c0 = cpu_s();
	if (bc_run_capture_open(&rc, "client", &local, &peer, CTL_PORT, NULL, 0, 0, want, &err) <
		    0 ||
	    bc_run_capture_start(&rc, &err) < 0) {
		fprintf(stderr, "bc-capture-bench: %s\n", err.msg);
		return 1;
	}
	c1 = cpu_s();
	fd = open(argv[4], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[4]);
		bc_run_capture_free(&rc);
		return 1;
	}
	close(fd);
	sigwait(&set, &sig);
	bc_run_capture_stop(&rc);
	c2 = cpu_s();
	cap = bc_run_capture_json(&rc);
	o = json_object_new_object();
	json_object_object_add(o, "mode", json_object_new_string(argv[1]));
	json_object_object_add(o, "cpu_s", json_object_new_double(c2 - c1));
	json_object_object_add(o, "setup_cpu_s", json_object_new_double(c1 - c0));
	json_object_object_add(
		o, "captured",
		json_object_new_int64((int64_t)(pcap ? pcap_sum(cap, "ps_recv")
						     : tap_counter(cap, "records"))));
	json_object_object_add(
		o, "lost",
		json_object_new_int64((int64_t)(pcap ? pcap_sum(cap, "ps_drop")
						     : tap_counter(cap, "ring_drop"))));
	json_object_object_add(o, "capture", cap);
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	bc_run_capture_free(&rc);
	return 0;
}
