/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading a saved text file that a user names (a /proc/net/bonding paste, an
 * `ip -d link` listing): whole, into memory, never more than a cap.
 */
#ifndef BONDCHECK_FILE_H
#define BONDCHECK_FILE_H

#include <stddef.h>

#include "bondcheck/error.h"

/*
 * bc_file_read_capped() - read all of @path (a regular file, a /proc file
 * whose st_size is 0, or a pipe) into a new buffer.
 * @max:    largest size accepted, bytes; at most @max + 1 bytes are read
 * @expect: what the file should be, for messages ("a /proc/net/bonding/<bond>
 *          file")
 * @small:  why @max is plenty, for the size message ("a /proc/net/bonding
 *          file is a few KiB")
 * @out, @out_len: the bytes (not NUL-terminated; free() them) and their count
 *
 * Return: 0; -EISDIR for a directory; -EFBIG when the file is larger than
 *   @max ("'P' is larger than N MiB; <small>: is it the right file?");
 *   -ENOMEM; the open/read errno (-ENOENT, -EACCES, ...) with a message
 *   naming @path.
 */
int bc_file_read_capped(const char *path, size_t max, const char *expect, const char *small,
			char **out, size_t *out_len, struct bc_error *err);

#endif
