// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The byte store behind every fetch: live, record (fetch, then save the
 * bytes as DIR/KEY) or replay (read DIR/KEY instead of the kernel).  A
 * fetch that failed is saved as DIR/KEY.errno, so a replay sees the same
 * failure (EOPNOTSUPP from a driver without rings, a missing /proc file).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/collect-int.h"

#define FORMAT_KEY    "meta/format"
#define FORMAT_MARKER "bondcheck-recording 1\n"
/* Largest source file read; a link dump of hundreds of links is ~1 MiB. */
#define MAX_FILE (64u << 20)

void bc_buf_free(struct bc_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
}

int bc_buf_append(struct bc_buf *b, const void *p, size_t len)
{
	char *d = realloc(b->data, b->len + len + 1);

	if (!d)
		return -ENOMEM;
	memcpy(d + b->len, p, len);
	b->len += len;
	d[b->len] = '\0';
	b->data = d;
	return 0;
}

static int read_all(int fd, struct bc_buf *out)
{
	char chunk[16384];
	ssize_t n;

	if (bc_buf_append(out, "", 0))
		return -ENOMEM;
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (out->len + (size_t)n > MAX_FILE)
			return -EFBIG;
		if (bc_buf_append(out, chunk, (size_t)n))
			return -ENOMEM;
	}
	return 0;
}

int fetch_file(void *arg, struct bc_buf *out, struct bc_error *err)
{
	const char *path = arg;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0) {
		rc = errno > 0 ? -errno : -EIO; /* never 0: callers read out->data on 0 */
		return bc_error_set(err, rc, "cannot open %s: %s", path, strerror(-rc));
	}
	rc = read_all(fd, out);
	close(fd);
	if (rc)
		bc_buf_free(out);
	return rc ? bc_error_set(err, rc, "cannot read %s: %s", path, strerror(-rc)) : 0;
}

static int mkdirs(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			int e = -errno;

			*p = '/';
			return e;
		}
		*p = '/';
	}
	return 0;
}

static int write_file(const struct store *st, const char *key, const void *p, size_t len,
		      struct bc_error *err)
{
	char path[PATH_MAX + 128];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", st->dir, key);
	rc = mkdirs(path);
	if (rc)
		return bc_error_set(err, rc, "cannot create the folders of %s: %s", path,
				    strerror(-rc));
	f = fopen(path, "we");
	if (!f)
		return bc_error_set(err, -errno, "cannot write %s: %s", path, strerror(errno));
	if (len && fwrite(p, 1, len, f) != len) {
		fclose(f);
		return bc_error_set(err, -EIO, "cannot write %s", path);
	}
	if (fclose(f))
		return bc_error_set(err, -errno, "cannot write %s: %s", path, strerror(errno));
	return 0;
}

static int replay(const struct store *st, const char *key, struct bc_buf *out, struct bc_error *err)
{
	char path[PATH_MAX + 128];
	struct bc_buf eb = {0};
	int rc, e;

	snprintf(path, sizeof(path), "%s/%s", st->dir, key);
	if (access(path, F_OK) == 0)
		return fetch_file(path, out, err);
	snprintf(path, sizeof(path), "%s/%s.errno", st->dir, key);
	if (access(path, F_OK))
		return bc_error_set(err, -ENOENT, "%s is not in the recording %s", key, st->dir);
	rc = fetch_file(path, &eb, err);
	if (rc)
		return rc;
	/* eb.data is set when fetch_file() returns 0; clang 14 cannot follow -errno */
	e = eb.data ? atoi(eb.data) : 0;
	bc_buf_free(&eb);
	if (e >= 0 || e < -4095)
		return bc_error_set(err, -EPROTO, "%s holds no negative errno", path);
	return bc_error_set(err, e, "%s (recorded): %s", key, strerror(-e));
}

int store_get(struct store *st, const char *key, store_fetch_fn fetch, void *arg,
	      struct bc_buf *out, struct bc_error *err)
{
	struct bc_error ferr = {0};
	char num[16];
	int rc, wrc;

	memset(out, 0, sizeof(*out));
	if (st->mode == STORE_REPLAY)
		return replay(st, key, out, err);
	rc = fetch(arg, out, &ferr);
	if (err && rc && !err->code)
		*err = ferr;
	if (st->mode != STORE_RECORD)
		return rc;
	if (rc == 0) {
		wrc = write_file(st, key, out->data, out->len, err);
	} else {
		char k[PATH_MAX];

		snprintf(num, sizeof(num), "%d\n", rc);
		snprintf(k, sizeof(k), "%s.errno", key);
		wrc = write_file(st, k, num, strlen(num), err);
	}
	if (wrc) {
		bc_buf_free(out);
		return wrc;
	}
	return rc;
}

int store_open(struct store *st, struct bc_error *err)
{
	char path[PATH_MAX + 32];
	struct bc_buf b = {0};
	int rc;

	if (st->mode == STORE_LIVE)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", st->dir, FORMAT_KEY);
	if (st->mode == STORE_RECORD) {
		if (mkdir(st->dir, 0755) && errno != EEXIST)
			return bc_error_set(err, -errno,
					    "cannot create the recording folder %s: %s", st->dir,
					    strerror(errno));
		return write_file(st, FORMAT_KEY, FORMAT_MARKER, strlen(FORMAT_MARKER), err);
	}
	rc = fetch_file(path, &b, NULL);
	if (rc || !b.data || strcmp(b.data, FORMAT_MARKER)) {
		bc_buf_free(&b);
		/* -EPROTO: the folder is readable but no recording (bad input) */
		return bc_error_set(err, rc == -EACCES || rc == -EPERM ? rc : -EPROTO,
				    "%s is not a bondcheck recording: expected %s saying '%.*s' "
				    "(made by `bondcheck inspect --record DIR`)",
				    st->dir, path, (int)strlen(FORMAT_MARKER) - 1, FORMAT_MARKER);
	}
	bc_buf_free(&b);
	return 0;
}
