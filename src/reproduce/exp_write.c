/* exp_write.c - writing an experiment back as an experiment file
 * (exp_file.h, docs/experiments.md): what `reproduce --print-file N` prints and
 * exp_file_parse() reads back to the same experiment.  An argument with
 * blanks, quotes or backslashes is "quoted" with \" and \\ inside. */
#include "exp_file.h"
#include "exp_named.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void put(FILE *out, const char *s)
{
	if (!s) {
		fputs("-", out);
		return;
	}
	if (*s && !strpbrk(s, " \t\"\\#")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void exp_file_write(const struct experiment *e, FILE *out)
{
	fprintf(out, "experiment %d ", e->id);
	put(out, e->slug);
	fputs("\ntitle ", out);
	put(out, e->title);
	fputs("\nthread ", out);
	put(out, e->thread);
	fputs("\nwho ", out);
	put(out, e->who);
	fputs("\nmachine ", out);
	put(out, e->profile);
	if (e->machine_sets) {
		fputs("\nmachine-set ", out);
		put(out, e->machine_sets);
	}
	fprintf(out, "\nquick-scale %.17g\n", e->quick_scale);
	if (e->print && e->print != exp_print_generic && exp_printer_name(e->print))
		fprintf(out, "printer %s\n", exp_printer_name(e->print));
	fputs("\n# design LABEL POLICY KIND [\"TUNABLE=VALUE ...\"]\n", out);
	for (int i = 0; i < e->nr_designs; i++) {
		const struct exp_design *d = &e->designs[i];
		fputs("design ", out);
		put(out, d->label);
		fputc(' ', out);
		put(out, d->policy);
		fprintf(out, " %s", exp_kind_words[d->kind]);
		if (d->sets) {
			fputc(' ', out);
			put(out, d->sets);
		}
		fputc('\n', out);
	}
	for (int i = 0; i < e->nr_runs; i++) {
		const struct exp_run *x = &e->runs[i];
		fputs("\nrun ", out);
		put(out, x->key);
		fputc(' ', out);
		put(out, x->title);
		fputc('\n', out);
		if (x->machine_sets) {
			fputs("  machine-set ", out);
			put(out, x->machine_sets);
			fputc('\n', out);
		}
		for (int w = 0; w < EXP_MAX_WL && x->wl[w]; w++) {
			fputs("  wl ", out);
			put(out, x->wl[w]);
			fputc('\n', out);
		}
		fprintf(out, "  repeats %d %d\n  vmstat %.17g\n  max-time %.17g%s\n", x->repeats, x->quick_repeats,
			x->vmstat_s, x->max_time_s, x->max_time_unscaled ? " unscaled" : "");
		if (x->delayed >= 0) {
			fprintf(out, "  delayed %d ", x->delayed);
			put(out, x->fill_wl);
			fputc('\n', out);
		}
		if (x->residency_wl >= 0)
			fprintf(out, "  residency %d\n", x->residency_wl);
		if (x->stop_with)
			fprintf(out, "  stop-with %d\n", x->stop_with);
	}
	fputs("\n# metric KEY RUN WL KIND higher|lower \"NAME\"\n", out);
	for (int i = 0; i < e->nr_metrics; i++) {
		const struct exp_metric *m = &e->metrics[i];
		fputs("metric ", out);
		put(out, m->key);
		fputc(' ', out);
		put(out, m->run);
		fprintf(out, " %d ", m->wl);
		const char *w = NULL;
		for (size_t k = 0; k < ARRAY_SIZE(exp_metric_words); k++)
			if (exp_metric_words[k].kind == m->kind)
				w = exp_metric_words[k].word;
		if (m->kind == MK_COUNTER)
			fprintf(out, "counter:%s", m->arg);
		else if (m->kind == MK_CUSTOM)
			fprintf(out, "custom:%s%s%s", exp_metric_fn_name(m->fn), m->arg ? ":" : "", m->arg ? m->arg : "");
		else
			fputs(w, out);
		fprintf(out, " %s ", m->higher_better ? "higher" : "lower");
		put(out, m->name);
		fputc('\n', out);
	}
	fputs("\n# published DESIGN METRIC VALUE|- \"AS THE THREAD WROTE IT\" FILE:LINE\n", out);
	for (int i = 0; i < e->nr_published; i++) {
		const struct exp_published *x = &e->published[i];
		fputs("published ", out);
		put(out, x->design);
		fputc(' ', out);
		put(out, x->metric);
		if (isnan(x->value))
			fputs(" - ", out);
		else
			fprintf(out, " %.10g ", x->value);
		put(out, x->text);
		fputc(' ', out);
		put(out, x->source);
		fputc('\n', out);
	}
	fputs("\n# compare METRIC A|- B ratio|worse|not-worse|zero TOLERANCE TIE FLOOR FILE:LINE [\"STATEMENT\"]\n"
	      "#   [quick-note \"WHY QUICK MODE'S VERDICT CANNOT BE --full'S\"]\n", out);
	for (int i = 0; i < e->nr_cmps; i++) {
		const struct exp_comparison *c = &e->cmps[i];
		fputs("compare ", out);
		put(out, c->metric);
		fputc(' ', out);
		put(out, c->a);
		fputc(' ', out);
		put(out, c->b);
		fprintf(out, " %s %.10g %.10g %.10g ", exp_cmp_words[c->kind], c->tol, c->tie, c->floor);
		put(out, c->source);
		if (c->statement) {
			fputc(' ', out);
			put(out, c->statement);
		}
		fputc('\n', out);
		if (c->quick_note) {
			fputs("  quick-note ", out);
			put(out, c->quick_note);
			fputc('\n', out);
		}
	}
}
