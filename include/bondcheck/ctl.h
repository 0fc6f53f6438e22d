/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The control protocol between `bondcheck run` and `bondcheck serve`
 * (docs/protocol.md).  TCP, default port 5301.  Every message is one frame:
 *
 *   offset size
 *        0    3 magic "BCK"
 *        3    1 protocol version (BC_CTL_VERSION)
 *        4    4 length of the JSON body, bytes, network order
 *        8    n JSON object with a string member "type"
 *
 * The reader states a size cap (the agent accepts BC_CTL_MAX_REQUEST from a
 * client, the client BC_CTL_MAX_REPLY from an agent) and a timeout per frame.
 */
#ifndef BONDCHECK_CTL_H
#define BONDCHECK_CTL_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "bondcheck/error.h"

#define BC_CTL_PORT	   5301
#define BC_CTL_VERSION	   1
#define BC_CTL_HDR_LEN	   8
#define BC_CTL_MAX_REQUEST (64 * 1024)
#define BC_CTL_MAX_REPLY   (16 * 1024 * 1024)

/* Error codes carried in {"type":"error","code":...}; stable strings. */
#define BC_CTL_E_MALFORMED     "malformed"
#define BC_CTL_E_TOO_LARGE     "too-large"
#define BC_CTL_E_VERSION       "version-mismatch"
#define BC_CTL_E_AUTH_REQUIRED "auth-required"
#define BC_CTL_E_AUTH_FAILED   "auth-failed"
#define BC_CTL_E_TIMEOUT       "timeout"
#define BC_CTL_E_BUSY	       "busy"
#define BC_CTL_E_BAD_PLAN      "bad-plan"
#define BC_CTL_E_PORT_IN_USE   "port-in-use"
#define BC_CTL_E_UNEXPECTED    "unexpected"
#define BC_CTL_E_UNSUPPORTED   "unsupported"
#define BC_CTL_E_CAPTURE       "capture-failed" /* plan.capture: the agent cannot capture */
/* change sessions (docs/protocol.md "Changes") */
#define BC_CTL_E_CHANGES_NOT_ALLOWED "changes-not-allowed" /* serve without --allow-changes */
#define BC_CTL_E_CHANGE_REFUSED	     "change-refused" /* not a slave of the journaled bond */
#define BC_CTL_E_NO_JOURNAL	     "no-journal"     /* change/restore before journal */
#define BC_CTL_E_JOURNAL_EXISTS	     "journal-exists" /* unrestored journal on the agent */
#define BC_CTL_E_NO_SUCH_BOND	     "no-such-bond"
#define BC_CTL_E_CHANGE_FAILED	     "change-failed"  /* the kernel refused */
#define BC_CTL_E_NOT_STABLE	     "not-stable"     /* changed/restored, not stable in time */

/*
 * bc_ctl_header_parse() - check a frame header and return the body length.
 * Returns 0; -EBADMSG when the magic is not "BCK" (not a bondcheck peer);
 * -EPROTONOSUPPORT for another protocol version (*@version says which);
 * -EMSGSIZE when the length exceeds @cap (*@len still set).
 */
int bc_ctl_header_parse(const uint8_t hdr[BC_CTL_HDR_LEN], size_t cap, uint32_t *len,
			unsigned *version, struct bc_error *err);

/*
 * bc_ctl_body_parse() - parse a frame body: exactly one JSON object with a
 * string "type".  Returns 0 and a new reference in *@out; -EBADMSG for
 * anything else (said in @err).
 */
int bc_ctl_body_parse(const char *buf, size_t len, struct json_object **out, struct bc_error *err);

/*
 * bc_ctl_encode() - frame @msg.  Returns 0 and a malloc'd buffer of *@len
 * bytes in *@buf; -EMSGSIZE above @cap; -ENOMEM.
 */
int bc_ctl_encode(struct json_object *msg, size_t cap, uint8_t **buf, size_t *len,
		  struct bc_error *err);

/* bc_ctl_type() - the message's "type", or "" when absent. */
const char *bc_ctl_type(struct json_object *msg);

/* bc_ctl_error_msg() - a new {"type":"error","code":@code,"message":...}. */
struct json_object *bc_ctl_error_msg(const char *code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * bc_ctl_send() - write one frame to @fd within @timeout_ms.
 * Returns 0; -ETIMEDOUT; -EPIPE/-ECONNRESET when the peer went away.
 */
int bc_ctl_send(int fd, struct json_object *msg, int timeout_ms, struct bc_error *err);

/*
 * bc_ctl_recv() - read one frame from @fd within @timeout_ms (the whole
 * frame, so a slow sender cannot hold the reader).  Returns 0 and a new
 * reference; -ECONNRESET at EOF; -ETIMEDOUT; the header and body errors
 * above.  After -EMSGSIZE, -EBADMSG from the header, -EPROTONOSUPPORT or
 * -ETIMEDOUT the stream is out of step and must be closed; after a body
 * -EBADMSG the next frame can be read.
 */
int bc_ctl_recv(int fd, size_t cap, int timeout_ms, struct json_object **out, struct bc_error *err);

#endif
