/* wrap.h - rows of a listing that fit a terminal: a left part padded to a
 * column, then text word-wrapped so that no line passes the width. */
#ifndef PAGELAB_WRAP_H
#define PAGELAB_WRAP_H

#include <stdio.h>

/* The width every listing keeps to. */
#define WRAP_WIDTH 80

/* Print LEFT padded to column COL, then TEXT word-wrapped so that no line
 * passes WIDTH; continuation lines start at COL with CONT (may be "").
 * When LEFT (without its trailing blanks) leaves no blank before COL,
 * TEXT starts on a line of its own.  A word
 * longer than the room is put on a line by itself, unbroken. */
void wrap_row(FILE *out, const char *left, int col, const char *text,
	      const char *cont, int width);

#endif
