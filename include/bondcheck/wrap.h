/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Prose of the text reports wrapped to the terminal's width (issue 15 item
 * 5): the verdicts, notes, findings and the other sentences of every text
 * report go through bc_wrap() or bc_wrapf(); tables keep their own layout.
 * The width is bc_answer_width()'s (TIOCGWINSZ on a terminal, else
 * $COLUMNS, else 100), the one the answer block uses.
 */
#ifndef BONDCHECK_WRAP_H
#define BONDCHECK_WRAP_H

#include <stddef.h>
#include <stdio.h>

/*
 * bc_wrap() - @text to @out at @width columns (<= 0: 100): @first before the
 * first line, @indent spaces before the others (the hanging indent), broken
 * at spaces; a word longer than a line is cut, so no line is wider than
 * @width.  A '\n' in @text ends a line and the next starts at the hanging
 * indent.  Ends with a newline.  When @width leaves fewer than 10 columns
 * after @indent, the indent shrinks to 4 (or 0).
 */
void bc_wrap(FILE *out, int width, const char *first, size_t indent, const char *text);

/*
 * bc_wrapf() - one paragraph formatted from @fmt, wrapped at
 * bc_answer_width(@out) columns: its leading spaces stay before the first
 * line, @indent spaces go before the others.  No trailing newline in @fmt:
 * bc_wrapf() ends the paragraph.  A paragraph longer than 4095 bytes is
 * cut there.
 */
void bc_wrapf(FILE *out, size_t indent, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * bc_wrap_lines() - each line of @text (a section printed to memory first,
 * e.g. with open_memstream()) wrapped on its own at bc_answer_width(@out)
 * columns: its leading spaces stay, its continuation lines get @indent
 * more.  Empty lines stay empty.  For sections of sentences built piece
 * by piece; never for tables.
 */
void bc_wrap_lines(FILE *out, size_t indent, const char *text);

#endif
