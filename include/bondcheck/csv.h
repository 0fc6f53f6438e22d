/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * CSV output shared by the reports (suite, scale, matrix, fleet --csv).
 */
#ifndef BONDCHECK_CSV_H
#define BONDCHECK_CSV_H

#include <stdio.h>

/*
 * bc_csv_text() - @s as one CSV field on @out: as it is, or quoted when it
 * holds a comma, a double quote, CR or LF, with its quotes doubled (RFC
 * 4180 section 2, rules 6 and 7).  Writes no separator.
 */
void bc_csv_text(FILE *out, const char *s);

#endif
