// SPDX-License-Identifier: GPL-2.0-or-later
/* Control-protocol framing: header, JSON body, timed reads and writes. */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bondcheck/ctl.h"

int bc_ctl_header_parse(const uint8_t hdr[BC_CTL_HDR_LEN], size_t cap, uint32_t *len,
			unsigned *version, struct bc_error *err)
{
	if (memcmp(hdr, "BCK", 3))
		return bc_error_set(err, -EBADMSG,
				    "the peer does not speak the bondcheck control protocol "
				    "(first bytes %02x %02x %02x, expected \"BCK\")",
				    hdr[0], hdr[1], hdr[2]);
	*version = hdr[3];
	*len = (uint32_t)hdr[4] << 24 | (uint32_t)hdr[5] << 16 | (uint32_t)hdr[6] << 8 | hdr[7];
	if (*version != BC_CTL_VERSION)
		return bc_error_set(err, -EPROTONOSUPPORT,
				    "control protocol version %u, this bondcheck speaks version %d",
				    *version, BC_CTL_VERSION);
	if (*len > cap)
		return bc_error_set(err, -EMSGSIZE,
				    "control message of %u bytes exceeds the %zu-byte cap", *len,
				    cap);
	return 0;
}

int bc_ctl_body_parse(const char *buf, size_t len, struct json_object **out, struct bc_error *err)
{
	struct json_tokener *tok;
	struct json_object *o, *t;
	enum json_tokener_error je;
	size_t used;

	*out = NULL;
	if (len == 0 || len > INT32_MAX)
		return bc_error_set(err, -EBADMSG, "empty control message");
	tok = json_tokener_new();
	if (!tok)
		return bc_error_set(err, -ENOMEM, "out of memory");
	o = json_tokener_parse_ex(tok, buf, (int)len);
	je = json_tokener_get_error(tok);
	used = tok->char_offset;
	json_tokener_free(tok);
	if (!o || je != json_tokener_success) {
		json_object_put(o);
		return bc_error_set(err, -EBADMSG, "control message is not valid JSON: %s",
				    je == json_tokener_continue ? "truncated"
								: json_tokener_error_desc(je));
	}
	while (used < len &&
	       (buf[used] == ' ' || buf[used] == '\n' || buf[used] == '\r' || buf[used] == '\t'))
		used++;
	if (used != len) {
		json_object_put(o);
		return bc_error_set(err, -EBADMSG,
				    "control message has %zu bytes after its JSON value",
				    len - used);
	}
	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "type", &t) ||
	    !json_object_is_type(t, json_type_string)) {
		json_object_put(o);
		return bc_error_set(err, -EBADMSG,
				    "control message must be a JSON object with a string \"type\"");
	}
	*out = o;
	return 0;
}

int bc_ctl_encode(struct json_object *msg, size_t cap, uint8_t **buf, size_t *len,
		  struct bc_error *err)
{
	size_t n;
	const char *s = json_object_to_json_string_length(msg, JSON_C_TO_STRING_PLAIN, &n);

	if (!s)
		return bc_error_set(err, -ENOMEM, "out of memory");
	if (n > cap)
		return bc_error_set(err, -EMSGSIZE, "control message of %zu bytes exceeds %zu", n,
				    cap);
	*buf = malloc(BC_CTL_HDR_LEN + n);
	if (!*buf)
		return bc_error_set(err, -ENOMEM, "out of memory");
	memcpy(*buf, "BCK", 3);
	(*buf)[3] = BC_CTL_VERSION;
	(*buf)[4] = (uint8_t)(n >> 24);
	(*buf)[5] = (uint8_t)(n >> 16);
	(*buf)[6] = (uint8_t)(n >> 8);
	(*buf)[7] = (uint8_t)n;
	memcpy(*buf + BC_CTL_HDR_LEN, s, n);
	*len = BC_CTL_HDR_LEN + n;
	return 0;
}

const char *bc_ctl_type(struct json_object *msg)
{
	struct json_object *t;

	if (!msg || !json_object_object_get_ex(msg, "type", &t))
		return "";
	return json_object_get_string(t);
}

struct json_object *bc_ctl_error_msg(const char *code, const char *fmt, ...)
{
	struct json_object *o = json_object_new_object();
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	json_object_object_add(o, "type", json_object_new_string("error"));
	json_object_object_add(o, "code", json_object_new_string(code));
	json_object_object_add(o, "message", json_object_new_string(text));
	return o;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* -errno of the call that just failed; -EIO should errno be unset. */
static int neg_errno(void)
{
	int e = errno;

	return e > 0 ? -e : -EIO;
}

/* Move @len bytes to or from @fd before @deadline (CLOCK_MONOTONIC ms). */
static int xfer(int fd, void *buf, size_t len, int64_t deadline, int out)
{
	size_t done = 0;

	while (done < len) {
		struct pollfd p = {.fd = fd, .events = out ? POLLOUT : POLLIN};
		int64_t left = deadline - now_ms();
		ssize_t n;

		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&p, 1, (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return neg_errno(); /* never 0: 0 means all moved */
		if (n == 0)
			return -ETIMEDOUT;
		if (out)
			n = send(fd, (char *)buf + done, len - done, MSG_NOSIGNAL | MSG_DONTWAIT);
		else
			n = recv(fd, (char *)buf + done, len - done, MSG_DONTWAIT);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return neg_errno();
		if (n == 0)
			return -ECONNRESET;
		done += (size_t)n;
	}
	return 0;
}

int bc_ctl_send(int fd, struct json_object *msg, int timeout_ms, struct bc_error *err)
{
	uint8_t *buf = NULL; /* set by bc_ctl_encode() when it returns 0 */
	size_t len = 0;
	int r = bc_ctl_encode(msg, BC_CTL_MAX_REPLY, &buf, &len, err);

	if (r < 0)
		return r;
	r = xfer(fd, buf, len, now_ms() + timeout_ms, 1);
	free(buf);
	if (r == -ETIMEDOUT)
		return bc_error_set(err, r, "sending a control message took longer than %d ms",
				    timeout_ms);
	if (r < 0)
		return bc_error_set(err, r, "sending a control message failed: %s", strerror(-r));
	return 0;
}

int bc_ctl_recv(int fd, size_t cap, int timeout_ms, struct json_object **out, struct bc_error *err)
{
	int64_t deadline = now_ms() + timeout_ms;
	uint8_t hdr[BC_CTL_HDR_LEN] = {0}; /* the analyzer cannot tie xfer() == 0 to "filled" */
	unsigned version;
	uint32_t len = 0;
	char *body;
	int r;

	*out = NULL;
	r = xfer(fd, hdr, sizeof(hdr), deadline, 0);
	if (r == -ECONNRESET)
		return bc_error_set(err, r, "the peer closed the control connection");
	if (r == -ETIMEDOUT)
		return bc_error_set(err, r, "no control message within %d ms", timeout_ms);
	if (r < 0)
		return bc_error_set(err, r, "reading the control connection failed: %s",
				    strerror(-r));
	r = bc_ctl_header_parse(hdr, cap, &len, &version, err);
	if (r < 0)
		return r;
	body = malloc(len ? len : 1);
	if (!body)
		return bc_error_set(err, -ENOMEM, "out of memory");
	r = xfer(fd, body, len, deadline, 0);
	if (r == 0)
		r = bc_ctl_body_parse(body, len, out, err);
	else if (r == -ETIMEDOUT)
		bc_error_set(err, r, "a %u-byte control message did not arrive within %d ms", len,
			     timeout_ms);
	else
		bc_error_set(err, r, "the peer closed the control connection mid-message");
	free(body);
	return r;
}
