/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A sentence built piece by piece into a fixed buffer, for the renderers of
 * verdicts (src/report/verdict-text.c, matrix-verdict.c).  Report-internal.
 */
#ifndef BC_REPORT_LINE_H
#define BC_REPORT_LINE_H

#include <stddef.h>

/* @s holds @len bytes; @n is the length wanted so far (snprintf's convention). */
struct bc_line {
	char *s;
	size_t len, n;
};

/*
 * bc_line_put() - append printf-formatted text: as much as fits, always
 * terminated while @len > 0; @n grows by the full length, so a caller
 * returning @n reports truncation as snprintf() does.
 */
void bc_line_put(struct bc_line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
