/* exp_named.c - the table of named functions experiment files use
 * (exp_named.h), and the printer of files that name none. */
#include "exp_named.h"

#include "../lib/wrap.h"

#include <string.h>

extern const struct exp_named_printer exp1_printer, exp2_printer, exp3_printer, exp4_printer, exp5_printer;
extern const struct exp_named_metric exp1_metric_fns[], exp2_metric_fns[], exp3_metric_fns[], exp4_metric_fns[],
	exp5_metric_fns[], cpu_claim_metric_fns[], exp_cgroup_metric_fns[], swappool_metric_fns[],
	exp_mglru_metric_fns[];

static const struct exp_named_printer *const printers[] = {
	&exp1_printer, &exp2_printer, &exp3_printer, &exp4_printer, &exp5_printer, NULL,
};
static const struct exp_named_metric *const metric_tables[] = {
	exp1_metric_fns, exp2_metric_fns, exp3_metric_fns, exp4_metric_fns, exp5_metric_fns, cpu_claim_metric_fns,
	exp_cgroup_metric_fns, swappool_metric_fns, exp_mglru_metric_fns, NULL,
};

exp_metric_fn *exp_metric_fn_find(const char *name)
{
	for (int t = 0; metric_tables[t]; t++)
		for (int i = 0; metric_tables[t][i].name; i++)
			if (!strcmp(metric_tables[t][i].name, name))
				return metric_tables[t][i].fn;
	return NULL;
}

const char *exp_metric_fn_name(exp_metric_fn *fn)
{
	for (int t = 0; metric_tables[t]; t++)
		for (int i = 0; metric_tables[t][i].name; i++)
			if (metric_tables[t][i].fn == fn)
				return metric_tables[t][i].name;
	return "?";
}

exp_print_fn *exp_printer_find(const char *name)
{
	for (int i = 0; printers[i]; i++)
		if (!strcmp(printers[i]->name, name))
			return printers[i]->fn;
	return NULL;
}

const char *exp_printer_name(exp_print_fn *fn)
{
	for (int i = 0; printers[i]; i++)
		if (printers[i]->fn == fn)
			return printers[i]->name;
	return NULL;
}

/* Each run's commands once, wrapped at 80 columns, then its time lines
 * per design with each command cut to its program's name. */
void exp_print_generic(const struct exp_result *r, FILE *out)
{
	const struct experiment *e = r->e;
	for (int run = 0; run < e->nr_runs; run++) {
		fprintf(out, "%s%s\n", run ? "\n" : "", e->runs[run].title);
		for (int w = 0; w < EXP_MAX_WL && e->runs[run].wl[w]; w++)
			wrap_row(out, "  $", 4, exp_wl_cmd(r, run, w), "    ", WRAP_WIDTH);
		for (int d = 0; d < e->nr_designs; d++) {
			fprintf(out, "  %s:  [%s]\n", e->designs[d].label, e->designs[d].policy);
			for (int w = 0; w < EXP_MAX_WL && e->runs[run].wl[w]; w++)
				exp_print_times(r, d, run, w, SHAPE_ZSH_PROG, "    ", out);
		}
	}
}
