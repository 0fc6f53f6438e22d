// SPDX-License-Identifier: GPL-2.0-or-later
/* The answer block of every text report; see bondcheck/answer.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "bondcheck/answer.h"
#include "bondcheck/wrap.h"

static const char *const words[] = {"PASS", "FAIL", "WARN", "UNSURE", "N/A", "INFO"};

const char *bc_answer_status_word(enum bc_answer_status s)
{
	return (unsigned)s < sizeof(words) / sizeof(words[0]) ? words[s] : "?";
}

enum bc_answer_status bc_answer_status_of(const char *name)
{
	if (!name)
		return BC_ANSWER_UNSURE;
	if (!strcmp(name, "pass") || !strcmp(name, "info") || !strcmp(name, "ok"))
		return BC_ANSWER_PASS;
	if (!strcmp(name, "fail") || !strcmp(name, "error"))
		return BC_ANSWER_FAIL;
	if (!strcmp(name, "warning") || !strcmp(name, "warn"))
		return BC_ANSWER_WARN;
	if (!strcmp(name, "not-applicable") || !strcmp(name, "n/a"))
		return BC_ANSWER_NA;
	return BC_ANSWER_UNSURE;
}

void bc_answer_set(struct bc_answer *a, const char *label, enum bc_answer_status status,
		   const char *fmt, ...)
{
	va_list ap;

	a->label = label;
	a->status = status;
	a->next[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(a->text, sizeof(a->text), fmt, ap);
	va_end(ap);
}

void bc_answer_next(struct bc_answer *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->next, sizeof(a->next), fmt, ap);
	va_end(ap);
}

static int clamp(long w)
{
	return w >= 20 && w <= 1000 ? (int)w : BC_ANSWER_DEFAULT_COLS;
}

int bc_answer_width(FILE *out)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS");
	char *end;
	long w;

	if (out && isatty(fileno(out)) && !ioctl(fileno(out), TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col < 20 ? 20 : clamp(ws.ws_col);
	if (c && *c) {
		w = strtol(c, &end, 10);
		if (!*end)
			return clamp(w);
	}
	return BC_ANSWER_DEFAULT_COLS;
}

void bc_answer_wrap(FILE *out, int width, const char *first, size_t indent, const char *text)
{
	bc_wrap(out, width, first, indent, text);
}

int bc_answer_print(FILE *out, const struct bc_answer *a, size_t n, int width)
{
	if (width < 20 || width > 1000)
		width = BC_ANSWER_DEFAULT_COLS;
	for (size_t i = 0; i < n; i++) {
		char first[64], line[512];

		snprintf(first, sizeof(first), "%-*s %-*s ", BC_ANSWER_LABEL_COLS,
			 a[i].label ? a[i].label : "?", BC_ANSWER_STATUS_COLS,
			 bc_answer_status_word(a[i].status));
		snprintf(line, sizeof(line), "%s%s%s", a[i].text, a[i].next[0] ? ": " : "",
			 a[i].next);
		bc_answer_wrap(out, width, first, BC_ANSWER_TEXT_COL, line);
	}
	return ferror(out) ? -EIO : 0;
}
