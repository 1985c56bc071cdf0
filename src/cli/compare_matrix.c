/* compare_matrix.c - pagelab compare --matrix FILE: every case of FILE
 * run as compare -- WORKLOAD runs it (compare_kernel.c, through the same
 * caches), a case whose kernel runs spread wide run again to 5, and the
 * strict count and rank test over all of them (src/engine/kmatrix.h). */
#define _GNU_SOURCE
#include "cli.h"
#include "compare_kernel.h"
#include "../engine/html_compare.h"
#include "../engine/kmatrix.h"
#include "../engine/stats.h"
#include "../lib/output.h"
#include "../lib/util.h"
#include "../lib/version.h"
#include "../report/htmlpage.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WIDE_RATIO 1.5   /* a headline counter's max/min over 3 runs */
#define WIDE_RUNS 5

/* A case of FILE: its name and its words (compare's options, "--", the
 * workloads), pointing into line. */
struct mline {
	char *line, *name;
	char *w[256];
	int n;
};

/* "NAME<TAB>words": false for a blank or # line; bad input exits 2. */
static bool mline_parse(struct mline *l, const char *path, int lineno)
{
	char *s = l->line;
	s[strcspn(s, "\n")] = 0;
	if (!s[strspn(s, " \t")] || s[strspn(s, " \t")] == '#')
		return false;
	char *tab = strchr(s, '\t');
	if (!tab || tab == s)
		die_usage("compare: %s:%d: want NAME, a tab, then compare's options -- WORKLOAD", path, lineno);
	*tab = 0;
	l->name = s;
	l->n = 0;
	for (char *save = NULL, *t = strtok_r(tab + 1, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (l->n == 255)
			die_usage("compare: %s:%d: too many words", path, lineno);
		l->w[l->n++] = t;
	}
	return true;
}

/* compare's argv without --matrix FILE and --html FILE (the matrix's
 * own), then the case's words. */
static char **case_argv(int argc, char **argv, const struct mline *l, int *n)
{
	char **av = xcalloc((size_t)argc + (size_t)l->n + 1, sizeof(char *));
	*n = 0;
	for (int i = 0; i < argc; i++) {
		if (i && i + 1 < argc && (!strcmp(argv[i], "--matrix") || !strcmp(argv[i], "--html"))) {
			i++;
			continue;
		}
		av[(*n)++] = argv[i];
	}
	for (int i = 0; i < l->n; i++)
		av[(*n)++] = l->w[i];
	return av;
}

/* The median of a top-level figure ("elapsed_s") of records r[from..to),
 * or of the kernel's "loadavg" when kernel_load. */
static double records_median(const struct record *const *r, int from, int to, const char *name, bool kernel_load)
{
	double *v = xcalloc((size_t)(to - from) + 1, sizeof(double));
	int n = 0;
	for (int i = from; i < to; i++) {
		const struct json *j = kernel_load ? json_get(r[i]->j, "kernel") : r[i]->j;
		n += json_get_num(j, name, &v[n]);
	}
	double m = n ? median_inplace(v, n) : NAN;
	free(v);
	return m;
}

/* The case's figures for the summary (sel/ssys allocated here). */
static void case_figures(const struct kcase *c, const char *name, struct kmatrix_case *mc)
{
	int seeds = (int)c->ca.k.seeds;
	size_t np = (size_t)c->npol + 1;
	double *sel = xcalloc(np, sizeof(double)), *ssys = xcalloc(np, sizeof(double));
	double *scpu = xcalloc(np, sizeof(double)), *swait = xcalloc(np, sizeof(double));
	for (int p = 0; p < c->npol; p++) {
		sel[p] = records_median(c->sr, p * seeds, (p + 1) * seeds, "elapsed_s", false);
		ssys[p] = records_median(c->sr, p * seeds, (p + 1) * seeds, "sys_s", false);
		scpu[p] = km_records_split(c->sr, p * seeds, (p + 1) * seeds, false);
		swait[p] = km_records_split(c->sr, p * seeds, (p + 1) * seeds, true);
	}
	double load = records_median(c->kr, 0, c->kern.n, "loadavg", true);
	*mc = (struct kmatrix_case){ .name = name, .x = &c->x, .runs = c->kern.n, .sel = sel, .ssys = ssys,
				     .kel = records_median(c->kr, 0, c->kern.n, "elapsed_s", false),
				     .ksys = records_median(c->kr, 0, c->kern.n, "sys_s", false),
				     .load = isnan(load) ? -1 : load, .scpu = scpu, .swait = swait,
				     .kcpu = km_records_split(c->kr, 0, c->kern.n, false),
				     .kwait = km_records_split(c->kr, 0, c->kern.n, true) };
}

/* One case: parsed, run, and run again to WIDE_RUNS kernel runs when its
 * kernel's spread is wide; true when it was widened. */
static bool case_run(struct kcase *c, int argc, char **argv, const struct mline *l, int i, int ncase)
{
	int n;
	char **av = case_argv(argc, argv, l, &n);
	struct cargs ca;
	if (!kcase_parse(n, av, &ca) || ca.o.matrix || ca.o.fit || ca.o.html)
		die_usage("compare: case %s: --help, --matrix, --fit-cpu and --html are not options of a case", l->name);
	free(av);
	fprintf(stderr, "pagelab: compare: case %d of %d: %s\n", i + 1, ncase, l->name);
	kcase_start(c, &ca);
	kcase_sides(c);
	if (c->ca.k.repeat >= WIDE_RUNS || !kmatrix_wide(&c->x, WIDE_RATIO, c->ca.o.floor))
		return false;
	c->ca.k.repeat = WIDE_RUNS;
	kcase_sides(c);
	return true;
}

/* The lines of FILE that are cases (lines[] own their text). */
static int read_cases(const char *path, struct mline **out)
{
	FILE *f = fopen(path, "r");
	if (!f)
		die_usage("compare: --matrix %s: cannot read it", path);
	struct mline *v = NULL;
	int n = 0, lineno = 0;
	char *buf = NULL;
	size_t cap = 0;
	while (getline(&buf, &cap, f) >= 0) {
		v = xrealloc(v, sizeof(*v) * (size_t)(n + 1));
		v[n].line = xstrdup(buf);
		if (mline_parse(&v[n], path, ++lineno))
			n++;
		else
			free(v[n].line);
	}
	free(buf);
	fclose(f);
	if (!n)
		die_usage("compare: --matrix %s has no case", path);
	*out = v;
	return n;
}

/* What every case shares, above the tables, folded at 79 columns. */
static void print_header(const struct kmatrix *m, const struct kcase *c, int ncase, int widened)
{
	int lo = WIDE_RUNS, hi = 0;
	double *load = xcalloc((size_t)ncase + 1, sizeof(double));
	int nl = 0;
	for (int i = 0; i < ncase; i++) {
		lo = c[i].kern.n < lo ? c[i].kern.n : lo;
		hi = c[i].kern.n > hi ? c[i].kern.n : hi;
		if (m->c[i].load >= 0)
			load[nl++] = m->c[i].load;
	}
	char text[1024];
	int len = snprintf(text, sizeof(text), "pagelab compare --matrix: %d cases; kernel: %d-%d runs a case (%d "
			   "widened to %d: a headline counter's max/min above %.1f); pagelab %s: %llu seeds a design",
			   ncase, lo, hi, widened, WIDE_RUNS, WIDE_RATIO, pagelab_version(),
			   (unsigned long long)c[0].ca.k.seeds);
	if (nl) {
		double l50 = median_inplace(load, nl);
		/* Loaded: more runnable tasks than CPUs, besides the runs'
		 * own (a 2-CPU host at 0.7 was idle but for the run). */
		uint64_t cpus = c[0].ca.k.cpus;
		len += snprintf(text + len, sizeof(text) - (size_t)len, "; the host's 1-minute load at the kernel "
				"runs' ends, the cases' medians: %.1f (%.1f..%.1f)", l50, load[0], load[nl - 1]);
		if (cpus && l50 > (double)cpus)
			snprintf(text + len, sizeof(text) - (size_t)len, "; times were taken on a loaded host");
	}
	free(load);
	kcmp_print_wrapped(text, "", "");
	putchar('\n');
}

static void matrix_page(FILE *out, const void *arg, const struct html_provenance *pv)
{
	compare_html_matrix(out, arg, pv);
}

int compare_matrix(struct cargs *ca, int argc, char **argv)
{
	struct atomic_file af;
	char err[512];
	if (ca->o.html && !atomic_open(&af, ca->o.html, err, sizeof(err)))
		die_usage("compare: %s", err);
	if (ca->o.html)
		atomic_abort(&af);
	if (ca->o.fit)
		die_usage("compare: --fit-cpu is not an option of --matrix");
	struct mline *l;
	int n = read_cases(ca->o.matrix, &l), widened = 0;
	struct kcase *c = xcalloc((size_t)n, sizeof(*c));
	struct kmatrix_case *mc = xcalloc((size_t)n, sizeof(*mc));
	for (int i = 0; i < n; i++) {
		widened += case_run(&c[i], argc, argv, &l[i], i, n);
		if (c[i].npol != c[0].npol || strcmp(c[i].ca.k.policies, c[0].ca.k.policies))
			die_usage("compare: case %s: every case of a matrix runs the same --policy", l[i].name);
		case_figures(&c[i], l[i].name, &mc[i]);
	}
	struct kmatrix m;
	kmatrix_build(&m, mc, n, ca->o.tol, ca->o.floor);
	print_header(&m, c, n, widened);
	kmatrix_print(&m, stdout);
	kmatrix_print_times(&m, stdout);
	int rc = ca->o.html ? compare_write_page(ca->o.html, argc, argv, matrix_page, &m) : 0;
	kmatrix_free(&m);
	for (int i = 0; i < n; i++) {
		free((void *)mc[i].sel);
		free((void *)mc[i].ssys);
		free((void *)mc[i].scpu);
		free((void *)mc[i].swait);
		kcase_free(&c[i]);
		free(l[i].line);
	}
	free(mc);
	free(c);
	free(l);
	kcompare_free(&ca->k);
	return rc;
}
