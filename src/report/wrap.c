// SPDX-License-Identifier: GPL-2.0-or-later
/* Prose wrapped to the terminal's width; see bondcheck/wrap.h. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bondcheck/answer.h"
#include "bondcheck/wrap.h"

void bc_wrap(FILE *out, int width, const char *first, size_t indent, const char *text)
{
	const char *p = text ? text : "";
	size_t col = strlen(first), w = width > 0 ? (size_t)width : BC_ANSWER_DEFAULT_COLS;

	if (w < indent + 10) /* keep at least 10 columns of text on a continuation line */
		indent = w > 14 ? 4 : 0;
	fputs(first, out);
	while (*p == ' ')
		p++;
	while (*p) {
		size_t room = w > col ? w - col : 0, n = strcspn(p, "\n");
		bool hard = false;

		if (n > room) {
			n = room;
			while (n > 0 && p[n] != ' ')
				n--;
			if (!n && col == indent) /* a word longer than a line: cut it */
				n = room;
		} else if (p[n] == '\n') {
			hard = true;
		}
		if (n) {
			fprintf(out, "%.*s", (int)n, p);
			p += n;
		}
		if (hard)
			p++;
		while (*p == ' ')
			p++;
		if (*p) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		}
	}
	fputc('\n', out);
}

void bc_wrapf(FILE *out, size_t indent, const char *fmt, ...)
{
	char buf[4096], first[64];
	size_t lead;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	lead = strspn(buf, " ");
	if (lead >= sizeof(first))
		lead = sizeof(first) - 1;
	memcpy(first, buf, lead);
	first[lead] = '\0';
	bc_wrap(out, bc_answer_width(out), first, indent, buf + lead);
}

void bc_wrap_lines(FILE *out, size_t indent, const char *text)
{
	int width = bc_answer_width(out);

	for (const char *p = text ? text : ""; *p;) {
		size_t n = strcspn(p, "\n"), lead = strspn(p, " ");
		char first[64], *line;

		if (lead > n)
			lead = n;
		if (lead >= sizeof(first))
			lead = sizeof(first) - 1;
		memcpy(first, p, lead);
		first[lead] = '\0';
		line = strndup(p + lead, n - lead);
		if (!line) { /* no memory: the line as it is */
			fprintf(out, "%.*s\n", (int)n, p);
		} else {
			bc_wrap(out, width, first, lead + indent, line);
			free(line);
		}
		p += n;
		if (*p == '\n')
			p++;
	}
}
