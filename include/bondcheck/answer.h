/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The answer block (issue 15 item 1): every text report opens with its
 * answers, one line per question, e.g.
 *
 *   Drivers      FAIL   eth1's tbf (1.50 Mbit/s) caps 3 slaves at 4.30 of 16.74 Mbit/s: ...
 *
 * the question (BC_ANSWER_LABEL_COLS wide), the status word, then the one
 * number and the leading cause, and the next step after ": " where there is
 * one.  The evidence sections below the block give the rest.  A line longer
 * than the width wraps at spaces with a hanging indent under the text.
 *
 * One renderer for every report (src/report/answer.c); the reports fill
 * the structs, from a bc_verdict (bc_verdict_answer()) or from their own
 * figures.
 */
#ifndef BONDCHECK_ANSWER_H
#define BONDCHECK_ANSWER_H

#include <stddef.h>
#include <stdio.h>

/* Columns of the question, and of the status word (each followed by one space). */
#define BC_ANSWER_LABEL_COLS  12
#define BC_ANSWER_STATUS_COLS 6
/* Where the text starts: the hanging indent of wrapped lines. */
#define BC_ANSWER_TEXT_COL (BC_ANSWER_LABEL_COLS + 1 + BC_ANSWER_STATUS_COLS + 1)
/* The width when stdout is not a terminal and COLUMNS is unset: the goldens'. */
#define BC_ANSWER_DEFAULT_COLS 100

enum bc_answer_status {
	BC_ANSWER_PASS = 0, /* "PASS": the question is answered yes / within bounds */
	BC_ANSWER_FAIL,	    /* "FAIL": a verdict failed or an error-level finding */
	BC_ANSWER_WARN,	    /* "WARN": a warning-level finding, nothing failed */
	BC_ANSWER_UNSURE,   /* "UNSURE": inconclusive (CPU-bound, a ceiling unknown) */
	BC_ANSWER_NA,	    /* "N/A": the question does not apply */
	BC_ANSWER_INFO,	    /* "INFO": a figure without a judgement */
};

struct bc_answer {
	const char *label; /* the question, e.g. "Drivers", <= BC_ANSWER_LABEL_COLS */
	enum bc_answer_status status;
	char text[320]; /* the one number and the leading cause */
	char next[160]; /* the next step; "" none */
};

/* bc_answer_status_word() - "PASS", "FAIL", "WARN", "UNSURE", "N/A", "INFO"; "?" else. */
const char *bc_answer_status_word(enum bc_answer_status s);

/*
 * bc_answer_status_of() - the status of a verdict status name ("pass",
 * "fail", "inconclusive", "not-applicable"; bc_verdict_status_name()), or
 * of a finding severity ("error" FAIL, "warning" WARN, "info" PASS);
 * BC_ANSWER_UNSURE for anything else.
 */
enum bc_answer_status bc_answer_status_of(const char *name);

/*
 * bc_answer_set() - @a's text (printf-formatted), its @label and @status;
 * the next step is cleared.  bc_answer_next() sets the next step.
 */
void bc_answer_set(struct bc_answer *a, const char *label, enum bc_answer_status status,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void bc_answer_next(struct bc_answer *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * bc_answer_width() - the columns to render @out's text to: the terminal's
 * (TIOCGWINSZ) when @out is one, else $COLUMNS when it is a number >= 20,
 * else BC_ANSWER_DEFAULT_COLS (100).  Never below 20 nor above 1000.
 */
int bc_answer_width(FILE *out);

/*
 * bc_answer_print() - the @n answers of @a, one line each (wrapped with a
 * hanging indent at @width columns, 20..1000, else 100), to @out.  No
 * heading and no blank line after: the caller places the block.  Returns 0,
 * or -EIO when @out failed.
 */
int bc_answer_print(FILE *out, const struct bc_answer *a, size_t n, int width);

/*
 * bc_answer_wrap() - @text to @out at @width columns: @first before the
 * first line, @indent spaces before the others, broken at spaces (a word
 * longer than a line is cut): bc_wrap() (bondcheck/wrap.h), the one wrapping
 * of every text report.
 */
void bc_answer_wrap(FILE *out, int width, const char *first, size_t indent, const char *text);

#endif
