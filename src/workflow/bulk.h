/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The bulk connection (docs/protocol.md "Bulk connection"): the agent's
 * per-slave pcap files travel to the client on a second TCP connection to
 * the control port, never inside the size-capped JSON control messages.
 *
 *   client -> agent  {"type":"bulk-hello","test_id":N,"token":"hex"}
 *   agent -> client  {"type":"bulk-file","interface":"eth0","bytes":B}
 *                    followed by B raw bytes (the pcap file), per file
 *   agent -> client  {"type":"bulk-end","files":K}
 *
 * The token is 32 random bytes (hex) the agent sent in its result over the
 * authenticated control connection; it binds the bulk connection to that
 * session and test.
 */
#ifndef BC_WORKFLOW_BULK_H
#define BC_WORKFLOW_BULK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "bondcheck/capture.h"
#include "bondcheck/error.h"

/* Largest file the client accepts, bytes (a 1 h run at 1 Mpkt/s is ~0.5 TB: refuse). */
#define BC_BULK_MAX_FILE (8ull << 30)

/*
 * bc_bulk_serve() - wait up to @timeout_ms on @listen_fd for the client's
 * bulk connection carrying @test_id and @token and send every file of @cap.
 * Other connections meanwhile get `busy`.  Returns 0; -ETIMEDOUT when the
 * client never came; -EPIPE/-ECONNRESET/-EIO when the transfer failed.
 */
int bc_bulk_serve(int listen_fd, uint32_t test_id, const char *token, const struct bc_capture *cap,
		  int timeout_ms, struct bc_error *err);

struct bc_bulk_file {
	char name[16];	 /* the agent's interface */
	char path[4096]; /* where the client wrote it */
	uint64_t bytes;
};

/*
 * bc_bulk_fetch() - connect to @agent (address and control port), send
 * bulk-hello and write each file to "@dir/agent-NAME.pcap".  @files has
 * room for BC_CAPTURE_MAX_IFS entries; *@n receives the count.
 * Returns 0; -ECONNREFUSED etc. when the agent is unreachable; -EPROTO for
 * a malformed transfer or an unsafe interface name; -EFBIG above
 * BC_BULK_MAX_FILE; -EACCES when the agent refused the token.
 */
int bc_bulk_fetch(const struct sockaddr_storage *agent, uint32_t test_id, const char *token,
		  const char *dir, struct bc_bulk_file *files, size_t *n, struct bc_error *err);

#endif
