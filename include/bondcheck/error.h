/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Error detail carried next to a negative errno return.
 *
 * Library functions return 0 or a negative errno and, when the caller passes
 * a struct bc_error, write one human sentence there: what was expected, what
 * was found and, where it helps, what to do.  Library code never prints.
 */
#ifndef BONDCHECK_ERROR_H
#define BONDCHECK_ERROR_H

#include <stddef.h>

#define BC_ERROR_MSG_MAX 512

struct bc_error {
	int code;                    /* negative errno, 0 when unset */
	char msg[BC_ERROR_MSG_MAX];  /* NUL-terminated sentence */
};

/*
 * bc_error_set() - record an error and return @code.
 * @err:  may be NULL (the detail is then dropped)
 * @code: negative errno
 * @fmt:  printf format of the message
 *
 * Returns @code so callers can write `return bc_error_set(err, -EINVAL, ...)`.
 * The first error recorded wins; a later call does not overwrite it.
 */
int bc_error_set(struct bc_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* bc_error_clear() - reset @err (NULL allowed). */
void bc_error_clear(struct bc_error *err);

#endif
