// SPDX-License-Identifier: GPL-2.0-or-later
/* A sentence built piece by piece (src/report/line.h). */
#include <stdarg.h>
#include <stdio.h>

#include "report/line.h"

void bc_line_put(struct bc_line *l, const char *fmt, ...)
{
	va_list ap;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(l->n < l->len ? l->s + l->n : NULL, l->n < l->len ? l->len - l->n : 0, fmt,
		      ap);
	va_end(ap);
	if (w > 0)
		l->n += (size_t)w;
}
