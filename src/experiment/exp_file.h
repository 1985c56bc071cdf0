/* exp_file.h - experiments as plain text files (docs/experiments.md): the
 * designs, machine, runs, metrics, the thread's figures with their
 * file:line, and the comparisons, one per line.  What needs code - a
 * figure read out of a program's own output, a table in the thread's own
 * shape - is a small named C function the file refers to (exp_named.h).
 * pagelab's own five experiments are such files (experiments/NAME.exp),
 * built into the binary; `pagelab reproduce FILE` reads a user's. */
#ifndef PAGELAB_EXP_FILE_H
#define PAGELAB_EXP_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "experiment.h"

/* Parse text (name is used in messages: "NAME:LINE: ..."); NULL with the
 * message in err on bad input.  The experiment owns all its strings. */
struct experiment *exp_file_parse(const char *name, const char *text, size_t len, char *err, size_t errlen);
/* Read and parse a file. */
struct experiment *exp_file_load(const char *path, char *err, size_t errlen);
void exp_file_free(struct experiment *e);
/* Write e in the file format (what exp_file_parse reads back to the same
 * experiment). */
void exp_file_write(const struct experiment *e, FILE *out);

/* The built-in experiments, parsed from the embedded experiment files
 * on first use (NULL-terminated, in file-name order). */
const struct experiment *const *builtin_experiments(void);

#endif
