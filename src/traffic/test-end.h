/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One end of one test: the plan, this end's streams and their sockets.
 * Used by the agent (workflow/agent.c) and the client (workflow/client.c).
 *
 * Lifecycle: bc_test_init -> (plan set) -> bc_test_open (sockets; the client
 * also connects) -> bc_test_start (threads) -> bc_test_stop_senders ->
 * bc_test_stop_receivers -> results -> bc_test_free.
 */
#ifndef BC_TRAFFIC_TEST_END_H
#define BC_TRAFFIC_TEST_END_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/socket.h>

#include <json-c/json.h>

#include "bondcheck/plan.h"
#include "traffic/stream.h"

struct bc_test {
	struct bc_plan plan;
	bool client;
	struct sockaddr_storage peer;	   /* the control connection's peer */
	struct sockaddr_storage local;	   /* the control connection's local address */
	uint16_t cport_base, cport_stride; /* client source ports; base 0 = ephemeral */
	const uint16_t *cports; /* client: explicit per-stream ports (placement), or NULL */
	struct bc_stream *streams;
	uint32_t n;
	int tcp_listen;
	atomic_int stop_send, stop_recv;
	int64_t start_ns;
	uint64_t *peer_sent; /* per stream: the peer sender's datagram count */
	/* test only: receivers get SO_RCVBUF test_rcvbuf bytes (0: the plan's) and
	 * start reading test_read_stall_ms after the senders start, so their
	 * sockets overflow (Udp RcvbufErrors) */
	uint32_t test_read_stall_ms, test_rcvbuf;
	/* test only: this end's CLOCK_REALTIME readings are off by this much */
	int64_t test_clock_offset_ns;
	pthread_t stall_thread;
	bool stalling;
	struct bc_error err;
};

void bc_test_init(struct bc_test *t, bool client);
void bc_test_free(struct bc_test *t);

/*
 * bc_test_open() - create this end's sockets.  Agent: UDP sockets on the
 * control connection's local address, ports dport + i, or the TCP listener
 * on dport.  Client: sockets bound to the source ports and connected to the
 * agent; reverse UDP streams send their hello.  Returns 0; -EADDRINUSE for
 * a taken port; -ECONNREFUSED etc. for a data connection that fails.
 */
int bc_test_open(struct bc_test *t, struct bc_error *err);

/* bc_test_start() - agent: accept the TCP data connections; then start every thread. */
int bc_test_start(struct bc_test *t, struct bc_error *err);

/* bc_test_stop_senders() - stop and join this end's senders. */
void bc_test_stop_senders(struct bc_test *t);

/* bc_test_stop_receivers() - after @wait_ms (RFC 7680 Tmax), stop and join receivers. */
void bc_test_stop_receivers(struct bc_test *t, uint32_t wait_ms);

/* bc_test_finish() - the agent's ending: senders, Tmax, receivers. */
void bc_test_finish(struct bc_test *t);

/* [{"id":i,"port":p}]: the agent's data ports. */
struct json_object *bc_test_ports_json(struct bc_test *t);
/* cumulative per-stream snapshot for interval reports */
struct json_object *bc_test_snap_json(struct bc_test *t);
/* [{"id":i,"packets":n,"bytes":b}] for this end's senders */
struct json_object *bc_test_sent_json(struct bc_test *t);
/* record the peer's sender counts from bc_test_sent_json() output */
void bc_test_set_peer_sent(struct bc_test *t, struct json_object *sent);
/* per-stream results from this end (bc_stream_result_json) */
struct json_object *bc_test_results_json(struct bc_test *t);

/* Address helpers (sockaddr.c). */
int bc_sockaddr_parse(const char *addr, uint16_t port, struct sockaddr_storage *ss, socklen_t *len,
		      struct bc_error *err);
void bc_sockaddr_unmap(struct sockaddr_storage *ss);
void bc_sockaddr_set_port(struct sockaddr_storage *ss, uint16_t port);
socklen_t bc_sockaddr_len(const struct sockaddr_storage *ss);
bool bc_sockaddr_same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b);

#endif
