/* exp_named.h - the C functions experiment files refer to by name: custom
 * metrics ("metric ... custom:NAME") and table printers ("printer NAME").
 * Each is defined next to the experiment that needs it (exp1_pageaging.c
 * ...) and listed in exp_named.c. */
#ifndef PAGELAB_EXP_NAMED_H
#define PAGELAB_EXP_NAMED_H

#include "experiment.h"

typedef bool exp_metric_fn(const struct exp_result *r, const struct exp_metric *mt, const struct run_result *rr,
			   double *v);
typedef void exp_print_fn(const struct exp_result *r, FILE *out);

struct exp_named_metric { const char *name; exp_metric_fn *fn; };
struct exp_named_printer { const char *name; exp_print_fn *fn; };

exp_metric_fn *exp_metric_fn_find(const char *name);
const char *exp_metric_fn_name(exp_metric_fn *fn);
exp_print_fn *exp_printer_find(const char *name);
const char *exp_printer_name(exp_print_fn *fn);
/* For files without a printer: each run's time lines per design. */
void exp_print_generic(const struct exp_result *r, FILE *out);

#endif
