// SPDX-License-Identifier: GPL-2.0-or-later
/* One CSV field (csv.h), RFC 4180. */
#include <string.h>

#include "bondcheck/csv.h"

void bc_csv_text(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}
