/* exp_text.h - reproduce's text fitted to 80 columns (wrap.h's width):
 * prose word-wrapped under its label, a program's own output (a time(1)
 * line, Bonnie's table, vmstat) kept verbatim and moved as a block. */
#ifndef PAGELAB_EXP_TEXT_H
#define PAGELAB_EXP_TEXT_H

#include <stdio.h>

/* LEFT padded to column COL, then the formatted text word-wrapped with
 * continuation lines starting at COL (wrap_row). */
void exp_wrap(FILE *out, const char *left, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* LINES (newline-separated, verbatim) under LABEL: beside it, as
 * INDENT and LABEL padded to 10 columns on the first line and blanks on
 * the others, when every line fits; otherwise
 * the label on a line of its own and the lines below it, their common
 * leading blanks removed and shifted left together as far as needed, so
 * that the columns of a table stay aligned.  A line that is wider than
 * the terminal even then is printed as it is. */
void exp_block(FILE *out, const char *indent, const char *label, const char *lines);

#endif
