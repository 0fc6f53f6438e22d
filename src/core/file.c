// SPDX-License-Identifier: GPL-2.0-or-later
/* A saved text file read whole, under a cap (bondcheck/file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bondcheck/file.h"

static int too_big(const char *path, size_t max, const char *small, struct bc_error *err)
{
	return bc_error_set(err, -EFBIG, "'%s' is larger than %zu MiB; %s: is it the right file?",
			    path, max >> 20, small);
}

/* Read at most @max + 1 bytes of @fd (/proc files report st_size 0). */
static int read_fd(int fd, const char *path, size_t max, const char *small, char **out,
		   size_t *out_len, struct bc_error *err)
{
	size_t cap = 64 * 1024, len = 0;
	char *buf = malloc(cap);

	if (!buf)
		return bc_error_set(err, -ENOMEM, "out of memory");
	for (;;) {
		ssize_t r;

		if (len == cap) {
			char *nb;

			if (cap > max) {
				free(buf);
				return too_big(path, max, small, err);
			}
			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				return bc_error_set(err, -ENOMEM, "out of memory");
			}
			buf = nb;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0) {
			int e = errno;

			if (e == EINTR)
				continue;
			free(buf);
			return bc_error_set(err, -e, "cannot read '%s': %s", path, strerror(e));
		}
		if (!r)
			break;
		len += (size_t)r;
	}
	*out = buf;
	*out_len = len;
	return 0;
}

int bc_file_read_capped(const char *path, size_t max, const char *expect, const char *small,
			char **out, size_t *out_len, struct bc_error *err)
{
	struct stat st;
	int fd, rc;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		return bc_error_set(err, -e, "cannot open '%s': %s", path, strerror(e));
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return bc_error_set(err, -EISDIR, "'%s' is a directory; expected %s", path, expect);
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size > max) {
		close(fd);
		return too_big(path, max, small, err);
	}
	rc = read_fd(fd, path, max, small, out, out_len, err);
	close(fd);
	return rc;
}
