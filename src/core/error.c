// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bondcheck/error.h"

int bc_error_set(struct bc_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err || err->code)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

void bc_error_clear(struct bc_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}
