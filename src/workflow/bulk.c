// SPDX-License-Identifier: GPL-2.0-or-later
/* The bulk connection: the agent's pcap files to the client (workflow/bulk.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sodium.h>

#include "bondcheck/ctl.h"
#include "bondcheck/json-get.h"
#include "traffic/stream.h"
#include "traffic/test-end.h"
#include "workflow/bulk.h"

#define IO_TIMEOUT_MS 10000

/* Write all of @buf within IO_TIMEOUT_MS per chunk.  0 or -errno. */
static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		struct pollfd pf = {.fd = fd, .events = POLLOUT};
		ssize_t w;

		if (poll(&pf, 1, IO_TIMEOUT_MS) <= 0)
			return -ETIMEDOUT;
		w = send(fd, p, len, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		struct pollfd pf = {.fd = fd, .events = POLLIN};
		ssize_t r;

		if (poll(&pf, 1, IO_TIMEOUT_MS) <= 0)
			return -ETIMEDOUT;
		r = recv(fd, p, len, 0);
		if (r == 0)
			return -ECONNRESET;
		if (r < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

static int send_file(int fd, const struct bc_capture_if *ci, struct bc_error *err)
{
	struct json_object *o = json_object_new_object();
	char buf[65536];
	uint64_t left = ci->file_bytes;
	int in, r;

	json_object_object_add(o, "type", json_object_new_string("bulk-file"));
	json_object_object_add(o, "interface", json_object_new_string(ci->name));
	json_object_object_add(o, "bytes", json_object_new_int64((int64_t)ci->file_bytes));
	r = bc_ctl_send(fd, o, IO_TIMEOUT_MS, err);
	json_object_put(o);
	if (r < 0)
		return r;
	in = open(ci->path, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return bc_error_set(err, -errno, "cannot read %s: %s", ci->path, strerror(errno));
	while (left) {
		ssize_t n = read(in, buf, left < sizeof(buf) ? left : sizeof(buf));

		if (n <= 0) {
			r = bc_error_set(err, -EIO, "%s shrank while it was sent", ci->path);
			break;
		}
		r = write_all(fd, buf, (size_t)n);
		if (r < 0) {
			bc_error_set(err, r, "sending %s to the client: %s", ci->path,
				     strerror(-r));
			break;
		}
		left -= (uint64_t)n;
	}
	close(in);
	return r;
}

int bc_bulk_hello_check(struct json_object *m, uint32_t test_id, const char *token)
{
	struct json_object *v;
	const char *tok;

	if (strcmp(bc_ctl_type(m), "bulk-hello"))
		return -EPROTO;
	tok = bc_json_str(m, "token");
	if (!json_object_object_get_ex(m, "test_id", &v) ||
	    !json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) != (int64_t)test_id || strlen(tok) != strlen(token) ||
	    sodium_memcmp(tok, token, strlen(token)))
		return -EACCES;
	return 0;
}

int bc_bulk_send_files(int fd, const struct bc_capture *cap, struct bc_error *err)
{
	struct json_object *o;
	int r;

	for (size_t i = 0; i < cap->n; i++) {
		r = send_file(fd, &cap->ifs[i], err);
		if (r < 0)
			return r;
	}
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("bulk-end"));
	json_object_object_add(o, "files", json_object_new_int((int)cap->n));
	r = bc_ctl_send(fd, o, IO_TIMEOUT_MS, err);
	json_object_put(o);
	return r;
}

/* An interface name from the agent becomes part of a path: no '/', no leading '.'. */
static bool safe_name(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= 16 || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] == '/' || (unsigned char)s[i] < 0x21 || (unsigned char)s[i] > 0x7e)
			return false;
	return true;
}

/* Write all of @buf to a file.  0 or -errno (-ENOSPC for a write that stops short). */
static int write_file_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return errno > 0 ? -errno : -EIO;
		if (w == 0)
			return -ENOSPC;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

static int recv_file(int fd, struct json_object *m, const char *dir, struct bc_bulk_file *f,
		     struct bc_error *err)
{
	struct json_object *v;
	const char *name = bc_json_str(m, "interface"); /* "" for absent or null */
	int64_t bytes = json_object_object_get_ex(m, "bytes", &v) ? json_object_get_int64(v) : -1;
	char buf[65536];
	uint64_t left;
	int out, r = 0;

	if (!safe_name(name))
		return bc_error_set(err, -EPROTO, "the agent sent a file for an unsafe name '%s'",
				    name);
	if (bytes < 0 || (uint64_t)bytes > BC_BULK_MAX_FILE)
		return bc_error_set(err, bytes < 0 ? -EPROTO : -EFBIG,
				    "the agent's capture file for %s has a bad size %lld "
				    "(limit %llu bytes)",
				    name, (long long)bytes, (unsigned long long)BC_BULK_MAX_FILE);
	snprintf(f->name, sizeof(f->name), "%s", name);
	snprintf(f->path, sizeof(f->path), "%s/agent-%s.pcap", dir, name);
	f->bytes = (uint64_t)bytes;
	/* no symlink followed: the folder may be the user's --keep-pcaps */
	out = open(f->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (out < 0)
		return bc_error_set(err, -errno, "cannot write %s: %s", f->path, strerror(errno));
	for (left = f->bytes; left && r == 0;) {
		size_t n = left < sizeof(buf) ? (size_t)left : sizeof(buf);

		r = read_all(fd, buf, n);
		if (r < 0) {
			bc_error_set(err, r, "the bulk connection broke off in %s: %s", f->path,
				     strerror(-r));
		} else {
			r = write_file_all(out, buf, n);
			if (r < 0)
				bc_error_set(err, r, "cannot write %s: %s", f->path, strerror(-r));
		}
		left -= n;
	}
	if (close(out) < 0 && r == 0)
		r = bc_error_set(err, errno > 0 ? -errno : -EIO, "cannot write %s: %s", f->path,
				 strerror(errno));
	return r;
}

int bc_bulk_receive(int fd, const char *dir, struct bc_bulk_file *files, size_t *n,
		    struct bc_error *err)
{
	struct json_object *m;
	int r = 0;

	*n = 0;
	while (r == 0) {
		r = bc_ctl_recv(fd, BC_CTL_MAX_REQUEST, IO_TIMEOUT_MS, &m, err);
		if (r < 0)
			break;
		if (!strcmp(bc_ctl_type(m), "bulk-end")) {
			json_object_put(m);
			break;
		}
		if (!strcmp(bc_ctl_type(m), "error")) {
			r = bc_error_set(err, -EACCES, "the agent refused the bulk connection: %s",
					 bc_json_str(m, "message"));
		} else if (strcmp(bc_ctl_type(m), "bulk-file") || *n == BC_CAPTURE_MAX_IFS) {
			r = bc_error_set(err, -EPROTO,
					 "unexpected '%s' on the bulk connection (or more than "
					 "%d files)",
					 bc_ctl_type(m), BC_CAPTURE_MAX_IFS);
		} else {
			r = recv_file(fd, m, dir, &files[*n], err);
			if (r == 0)
				(*n)++;
		}
		json_object_put(m);
	}
	return r;
}

int bc_bulk_fetch(const struct sockaddr_storage *agent, uint32_t test_id, const char *token,
		  const char *dir, struct bc_bulk_file *files, size_t *n, struct bc_error *err)
{
	struct json_object *o;
	int fd, r;

	*n = 0;
	fd = socket(agent->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return bc_error_set(err, -errno, "bulk connection: %s", strerror(errno));
	if (connect(fd, (const struct sockaddr *)agent, bc_sockaddr_len(agent)) < 0) {
		r = -errno;
		close(fd);
		return bc_error_set(err, r, "cannot open the bulk connection to the agent: %s",
				    strerror(-r));
	}
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("bulk-hello"));
	json_object_object_add(o, "test_id", json_object_new_int64(test_id));
	json_object_object_add(o, "token", json_object_new_string(token));
	r = bc_ctl_send(fd, o, IO_TIMEOUT_MS, err);
	json_object_put(o);
	if (r == 0)
		r = bc_bulk_receive(fd, dir, files, n, err);
	close(fd);
	return r;
}
