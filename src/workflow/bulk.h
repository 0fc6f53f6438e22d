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

#include <json-c/json.h>

#include "bondcheck/capture.h"
#include "bondcheck/error.h"

/* Largest file the client accepts, bytes (a 1 h run at 1 Mpkt/s is ~0.5 TB: refuse). */
#define BC_BULK_MAX_FILE (8ull << 30)

/*
 * bc_bulk_send_files() - the agent's side of a bulk connection whose
 * bulk-hello was accepted (bc_bulk_hello_check): a bulk-file header and the
 * bytes of every file of @cap, then bulk-end.  Each write must progress
 * within 10 s.  Returns 0; -EPIPE/-ECONNRESET/-ETIMEDOUT when the client
 * went away; -EIO when a file cannot be read.
 */
int bc_bulk_send_files(int fd, const struct bc_capture *cap, struct bc_error *err);

/*
 * bc_bulk_hello_check() - is @m the bulk-hello for @test_id carrying @token
 * (the hex string of the result's bulk_token)?  Pure.  Returns 0 yes;
 * -EACCES a bulk-hello for another test or with another token (compared in
 * constant time); -EPROTO another message type.
 */
int bc_bulk_hello_check(struct json_object *m, uint32_t test_id, const char *token);

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
 * BC_BULK_MAX_FILE; -EACCES when the agent refused the token; the write
 * errors of bc_bulk_receive() (-ENOSPC, ...).
 */
int bc_bulk_fetch(const struct sockaddr_storage *agent, uint32_t test_id, const char *token,
		  const char *dir, struct bc_bulk_file *files, size_t *n, struct bc_error *err);

/*
 * bc_bulk_receive() - the client's end of a bulk connection after its
 * bulk-hello: bulk-file headers each followed by their bytes, written to
 * "@dir/agent-NAME.pcap", until bulk-end.  The interface name must be a
 * plain file-name component (no '/', no leading '.', printable ASCII, < 16
 * bytes) and the size at most BC_BULK_MAX_FILE.  @files has room for
 * BC_CAPTURE_MAX_IFS entries; *@n receives the count.  Returns 0 at
 * bulk-end; -EACCES for an error reply; -EPROTO for another message, a bad
 * name or size; -EFBIG; -ECONNRESET/-ETIMEDOUT (10 s without progress) when
 * the stream breaks off; -ENOSPC, -EDQUOT, -EIO, -EROFS... when a file cannot
 * be written here (the local disk).  Files are never written through a
 * symlink (O_NOFOLLOW).
 */
int bc_bulk_receive(int fd, const char *dir, struct bc_bulk_file *files, size_t *n,
		    struct bc_error *err);

#endif
