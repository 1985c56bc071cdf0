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

/* The words of the format, shared by the reader and the writer: a
 * design's kind (in enum design_kind order), the metric kinds named by a
 * word (MK_COUNTER and MK_CUSTOM are not), a comparison's kind (in
 * enum cmp_kind order). */
#define NR_EXP_KIND_WORDS 3
#define NR_EXP_METRIC_WORDS 9
#define NR_EXP_CMP_WORDS 6
extern const char *const exp_kind_words[NR_EXP_KIND_WORDS];
struct exp_metric_word { const char *word; enum metric_kind kind; };
extern const struct exp_metric_word exp_metric_words[NR_EXP_METRIC_WORDS];
extern const char *const exp_cmp_words[NR_EXP_CMP_WORDS];

/* The built-in experiments, parsed from the embedded experiment files
 * on first use (NULL-terminated, in file-name order). */
const struct experiment *const *builtin_experiments(void);

#endif
