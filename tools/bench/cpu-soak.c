// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU soaker: what every other task, interrupt and softirq on the machine
 * used, measured as the CPU time they took from soakers (the "cyclesoak"
 * method of Andrew Morton's zc tools; tools/bench/tap/live.sh).
 *
 *   bc-cpu-soak [PERIOD_MS]
 *
 * One thread per online CPU, pinned to it, SCHED_IDLE, counts loop
 * iterations; it runs only when nothing else wants the CPU, so work done in
 * softirq or interrupt context, and work the scheduler charges to the idle
 * task (which per-process accounting misses), takes iterations from it.
 * Every PERIOD_MS (default 100) a line on stdout:
 *     CLOCK_MONOTONIC_ns  iterations_summed_over_CPUs  CPUs
 * (flushed).  Calibrate with a window where nothing runs: the iterations
 * per CPU-second then; a later window's CPU used by others is
 *     CPUs * dt - d_iterations / calibrated_rate   (CPU-seconds).
 * Until SIGTERM/SIGINT.  Exit 0, 1 on a setup failure.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define MAX_CPUS 256

struct soaker {
	_Alignas(64) _Atomic uint64_t count;
	int cpu;
};

static struct soaker soakers[MAX_CPUS];

static void *soak(void *arg)
{
	struct soaker *s = arg;
	struct sched_param sp = {0};
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_setschedparam(pthread_self(), SCHED_IDLE, &sp);
	for (;;) {
		/* a fixed chunk of work between stores: the count is in chunks */
		for (volatile unsigned i = 0; i < 1000; i++)
			;
		atomic_store_explicit(&s->count, atomic_load_explicit(&s->count,
								      memory_order_relaxed) + 1,
				      memory_order_relaxed);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long period_ms = argc > 1 ? strtol(argv[1], NULL, 10) : 100;
	int n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	struct timespec ts, nap;
	sigset_t set;
	pthread_t th;
	int sig;

	if (period_ms <= 0 || n <= 0 || n > MAX_CPUS) {
		fprintf(stderr, "usage: bc-cpu-soak [PERIOD_MS > 0] (%d CPUs)\n", n);
		return 1;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	for (int i = 0; i < n; i++) {
		soakers[i].cpu = i;
		if (pthread_create(&th, NULL, soak, &soakers[i])) {
			perror("pthread_create");
			return 1;
		}
	}
	nap.tv_sec = period_ms / 1000;
	nap.tv_nsec = (period_ms % 1000) * 1000000;
	for (;;) {
		struct timespec zero = {0, 0};
		uint64_t sum = 0;

		if (sigtimedwait(&set, NULL, &zero) >= 0)
			break;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		for (int i = 0; i < n; i++)
			sum += atomic_load_explicit(&soakers[i].count, memory_order_relaxed);
		printf("%lld %llu %d\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec,
		       (unsigned long long)sum, n);
		fflush(stdout);
		sig = sigtimedwait(&set, NULL, &nap);
		if (sig >= 0)
			break;
	}
	return 0;
}
