/* ablate.c - the variants of an ablation and its table (ablate.h).  The
 * runs are a sweep's cells and the statistics compare.c's; what is here
 * is which designs to run and how to lay their comparison out: per
 * figure, the full design and its variants one under the other, so any
 * number of variants fits in 80 columns. */
#include "ablate.h"
#include "stats.h"
#include "../mm/work.h"
#include "../lib/util.h"
#include "../lib/wrap.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool ablate_is_switch(const struct tunable *t)
{
	return t->min == 0 && t->max == 1 && t->def == 1;
}

int ablate_switches(const struct policy_ops *pol, int *idx)
{
	int n = 0, nt = policy_nr_tunables(pol);
	for (int t = 0; t < nt; t++)
		if (ablate_is_switch(&pol->tunables[t]))
			idx[n++] = t;
	return n;
}

/* "walk_mmu, look_around, bloom" into buf: the switches a message offers. */
static void switch_names(const struct policy_ops *pol, char *buf, size_t len)
{
	int *idx = xcalloc((size_t)policy_nr_tunables(pol) + 1, sizeof(int));
	int n = ablate_switches(pol, idx);
	size_t o = 0;
	buf[0] = 0;
	for (int k = 0; k < n && o < len; k++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", k ? ", " : "", pol->tunables[idx[k]].name);
	free(idx);
}

/* The switch named `name`, checked: its tunable index, or -1 with err. */
static int switch_index(const struct policy_ops *pol, const char *name, char *err, size_t errlen)
{
	char names[600];
	int t = policy_tunable_index(pol, name);
	if (t >= 0 && ablate_is_switch(&pol->tunables[t]))
		return t;
	switch_names(pol, names, sizeof(names));
	if (t >= 0) {
		/* the tunable's own range and default, then what a switch's are */
		const struct tunable *x = &pol->tunables[t];
		snprintf(err, errlen, "ablate: %s is a tunable of %s (%g..%g, default %g), not a switch "
			 "(0..1, default 1): its switches are %s", name, pol->name, x->min, x->max, x->def, names);
	}
	else
		snprintf(err, errlen, "ablate: %s has no switch '%.60s' (its switches: %s)", pol->name, name, names);
	return -1;
}

/* The switches to turn off, as tunable indices into idx; how many, or -1
 * with err. */
static int off_list(const struct policy_ops *pol, const char *list, int *idx, char *err, size_t errlen)
{
	if (!list)
		return ablate_switches(pol, idx);
	if (!list[0] || list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,")) {
		snprintf(err, errlen, "ablate: empty name in --off '%.60s'", list);
		return -1;
	}
	char *copy = xstrdup(list), *save = NULL;
	int n = 0, nt = policy_nr_tunables(pol);
	for (char *s = strtok_r(copy, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		int t = switch_index(pol, s, err, errlen);
		for (int k = 0; t >= 0 && k < n; k++)
			if (idx[k] == t) {
				snprintf(err, errlen, "ablate: --off names %s twice", s);
				t = -1;
			}
		if (t < 0 || n >= nt) {
			n = -1;
			break;
		}
		idx[n++] = t;
	}
	free(copy);
	return n;
}

bool ablate_variants(const struct policy_ops *pol, const char *list, bool pairs, struct ablate_variant **v, int *n,
		     char *err, size_t errlen)
{
	*v = NULL;
	*n = 0;
	int *idx = xcalloc((size_t)policy_nr_tunables(pol) + 1, sizeof(int));
	int k = off_list(pol, list, idx, err, errlen);
	if (k == 0)
		snprintf(err, errlen, "ablate: %s has no mechanism switch (a tunable with min 0, max 1, default 1; "
			 "see pagelab policies --tunables %s)", pol->name, pol->name);
	if (k <= 0) {
		free(idx);
		return false;
	}
	int total = 1 + k + (pairs ? k * (k - 1) / 2 : 0);
	struct ablate_variant *x = xcalloc((size_t)total, sizeof(*x));
	int m = 1;   /* x[0]: the full design, nothing off */
	for (int a = 0; a < k; a++)
		x[m++] = (struct ablate_variant){ .n = 1, .off = { idx[a] } };
	for (int a = 0; pairs && a < k; a++)
		for (int b = a + 1; b < k; b++)
			x[m++] = (struct ablate_variant){ .n = 2, .off = { idx[a], idx[b] } };
	free(idx);
	*v = x;
	*n = total;
	return true;
}

const char **ablate_metrics(int nr_wl, char *const *figures)
{
	static const char *const head[] = { "elapsed_s", "pgmajfault", "workingset_refault", "pgscan", "pgsteal" };
	static const char *const own[] = { "elapsed_s.0", "elapsed_s.1", "elapsed_s.2", "elapsed_s.3",
					   "elapsed_s.4", "elapsed_s.5", "elapsed_s.6", "elapsed_s.7" };
	int nown = nr_wl > 1 ? (nr_wl < (int)ARRAY_SIZE(own) ? nr_wl : (int)ARRAY_SIZE(own)) : 0, nfig = 0;
	while (figures && figures[nfig])
		nfig++;
	const char **m = xcalloc(ARRAY_SIZE(head) + (size_t)(nown + nfig) + NR_RECLAIM_WORK + 1, sizeof(char *));
	int n = 0;
	m[n++] = head[0];
	for (int k = 0; k < nown; k++)
		m[n++] = own[k];
	/* the workloads' throughput and latency after their times, as
	 * mmtests puts a benchmark's own figures before the vmstat ones */
	for (int k = 0; k < nfig; k++)
		m[n++] = figures[k];
	for (size_t k = 1; k < ARRAY_SIZE(head); k++)
		m[n++] = head[k];
	for (int k = 0; k < NR_RECLAIM_WORK; k++)
		m[n++] = reclaim_work_names[k];
	return m;
}

/* A figure no run has (a work row the design does not count) or that is
 * 0 in every run says nothing about the switches. */
/* The label column: the longest single switch of today's designs
 * (aging_trigger=0) fits; a pair goes on a line of its own. */
#define ABLATE_LABEL_W 19

static bool figure_shown(const struct cmp_table *x, int m, bool *zero)
{
	bool any = false;
	*zero = true;
	for (int d = 0; d < x->nr_designs; d++) {
		const struct cmp_cell *c = &x->cells[m * x->nr_designs + d];
		any |= c->s.n > 0;
		if (c->s.n && (c->s.mean != 0 || c->s.sd != 0))
			*zero = false;
	}
	*zero &= any;
	return any && !*zero;
}

/* The median of figure m over the runs of design d (NAN when none has
 * it): beside the mean, it says whether one seed pulls the mean away. */
static double row_median(const struct cmp_table *x, const struct records *rs, int m, int d)
{
	double *v = xcalloc((size_t)rs->n + 1, sizeof(double));
	int n = 0;
	for (int i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].config, x->config) && !strcmp(rs->r[i].design, x->designs[d]) &&
		    record_metric(&rs->r[i], x->metrics[m], &v[n]))
			n++;
	double med = median_inplace(v, n);
	free(v);
	return med;
}

/* One design's row: its label (the switches off, as --set would say it),
 * then the mean, median, standard deviation, % change and p; a label too
 * long for its column goes on a line of its own. */
static void print_row(const struct cmp_table *x, const struct records *rs, int m, int d, FILE *out)
{
	const struct cmp_cell *c = &x->cells[m * x->nr_designs + d];
	const char *label = x->designs[d];
	size_t base = strlen(x->designs[0]);
	char full[64], mean[32], med[32], sd[32], pc[16] = "", p[16] = "";
	if (d == 0) {
		snprintf(full, sizeof(full), "%.40s (full)", label);
		label = full;
	} else if (!strncmp(label, x->designs[0], base) && label[base] == ' ') {
		label += base + 1;
	}
	compare_fmt_value(mean, sizeof(mean), c->s.mean, c->s.n);
	compare_fmt_value(med, sizeof(med), row_median(x, rs, m, d), c->s.n);
	compare_fmt_value(sd, sizeof(sd), c->s.sd, c->s.n);
	if (d && !isnan(c->change_pct))
		compare_fmt_change(pc, sizeof(pc), c->change_pct, x->cells[m * x->nr_designs].s.mean, 9);
	if (d && !isnan(c->p))
		snprintf(p, sizeof(p), "%.4f", c->p);
	bool sig = d && !isnan(c->p) && c->p < CMP_ALPHA;
	if (strlen(label) > ABLATE_LABEL_W) {
		fprintf(out, "  %s\n", label);
		label = "";
	}
	char line[256];
	snprintf(line, sizeof(line), "  %-*s %s %s %s %9s %7s%s", ABLATE_LABEL_W, label, mean, med, sd, pc, p,
		 sig ? " *" : "");
	size_t n = strlen(line);
	while (n && line[n - 1] == ' ')
		line[--n] = 0;
	fprintf(out, "%s\n", line);
}

static void print_table(const struct cmp_table *x, const struct records *rs, FILE *out)
{
	char zeros[2000] = "";
	size_t zo = 0;
	for (int m = 0; m < x->nr_metrics; m++) {
		bool zero;
		if (!figure_shown(x, m, &zero)) {
			if (zero && zo < sizeof(zeros))
				zo += (size_t)snprintf(zeros + zo, sizeof(zeros) - zo, " %s", x->metrics[m]);
			continue;
		}
		/* a name too long for the label column goes on a line of its
		 * own, as a row's label does: the headers stay over their
		 * columns */
		const char *name = x->metrics[m];
		int better = compare_better(x, m);
		if (strlen(name) > ABLATE_LABEL_W + 2 || better) {
			/* a workload's figure says which way is better */
			fprintf(out, "\n%s%s%s%s", name, better ? " (" : "", compare_better_words(better),
				better ? ")" : "");
			name = "";
		}
		fprintf(out, "\n%-*s %10s %10s %10s %9s %7s\n", ABLATE_LABEL_W + 2, name, "mean", "median",
			"stddev", "change", "p");
		for (int d = 0; d < x->nr_designs; d++)
			print_row(x, rs, m, d, out);
	}
	if (zeros[0]) {
		fputc('\n', out);
		wrap_row(out, "0 in every run:", 16, zeros + 1, "", WRAP_WIDTH);
	}
}

int ablate_killed(const struct records *rs, const char *config, const char *design)
{
	int n = 0;
	for (int i = 0; i < rs->n; i++) {
		const struct record *r = &rs->r[i];
		const struct json *w = json_get(r->j, "workloads");
		bool k = false;
		for (int j = 0; w && w->type == JSON_ARR && j < w->n && !k; j++)
			json_get_bool(&w->items[j], "killed", &k);
		n += k && !strcmp(r->config, config) && !strcmp(r->design, design);
	}
	return n;
}

/* How many runs of config stopped at --max-time (an OOM-killed run is
 * unfinished too, but said on its own line). */
static int ablate_timed_out(const struct records *rs, const char *config)
{
	int n = 0;
	for (int i = 0; i < rs->n; i++) {
		bool t = false;
		json_get_bool(rs->r[i].j, "timed_out", &t);
		n += t && !strcmp(rs->r[i].config, config);
	}
	return n;
}

static bool ablate_killed_any(const struct records *rs, const struct cmp_table *x)
{
	for (int d = 0; d < x->nr_designs; d++)
		if (ablate_killed(rs, x->config, x->designs[d]))
			return true;
	return false;
}

/* The variants in which the OOM killer ended a workload: their figures
 * are those of a shorter run, not of the design doing the same work. */
static void print_killed(const struct cmp_table *x, const struct records *rs, FILE *out)
{
	for (int d = 0; d < x->nr_designs; d++) {
		int k = ablate_killed(rs, x->config, x->designs[d]);
		char left[64];
		snprintf(left, sizeof(left), "OOM kill in %d run%s of", k, k == 1 ? "" : "s");
		if (k)
			wrap_row(out, left, (int)strlen(left) + 1, x->designs[d], "", WRAP_WIDTH);
	}
}

void ablate_print_text(const struct cmp_table *t, int n, const struct records *rs, const char *policy, FILE *out)
{
	for (int c = 0; c < n; c++) {
		const struct cmp_table *x = &t[c];
		int seeds = x->nr_designs ? x->nr_runs / x->nr_designs : 0;
		fprintf(out, "%sablate %s: %d variant%s and the full design, %d seed%s each\n", c ? "\n" : "", policy,
			x->nr_designs - 1, x->nr_designs == 2 ? "" : "s", seeds, seeds == 1 ? "" : "s");
		wrap_row(out, "config:", 8, x->config, "", WRAP_WIDTH);
		if (x->nr_unavailable)
			fprintf(out, "%d of %d runs could not run\n", x->nr_unavailable, x->nr_runs);
		int stopped = ablate_timed_out(rs, x->config);
		if (stopped)
			fprintf(out, "%d of %d runs stopped at --max-time\n", stopped, x->nr_runs);
		print_killed(x, rs, out);
		if (x->nr_designs && ablate_killed_any(rs, x))
			fprintf(out, "(an OOM-killed run's figures are those of a shorter run)\n");
		if (compare_seeds_idle(x))
			fprintf(out, "every seed gave the same figures: no difference can be significant\n");
		if (x->nr_unavailable == x->nr_runs) {
			fprintf(out, "none to compare\n");
			continue;
		}
		print_table(x, rs, out);
	}
	fprintf(out, "\nA variant is the full design with the switches named off (=0).  Mean,\n"
		"median and standard deviation over seeds; %% change against the full\n"
		"design's mean, from +100000%% on as a multiple of it (x1001: 1001 times\n"
		"it); p of Welch's t-test (5 or more seeds a side) or an exact\n"
		"Mann-Whitney U test (fewer; it cannot reach p < 0.05 below 4 seeds a\n"
		"side); * p < %.2f.\n", CMP_ALPHA);
}
