/* compare.c - mmtests-style comparison tables from results records
 * (compare.h).  Text output stays within 80 columns: the baseline and at
 * most two other designs per table, more designs in further tables with
 * the same baseline; mean ("Amean") and standard deviation ("Stddev") rows
 * as compare-kernels prints them. */
#include "compare.h"
#include "json.h"
#include "../lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int find(const char *const *v, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return i;
	return -1;
}

static bool usable(const struct record *r, bool *unfinished)
{
	bool avail = false, fin = false;
	json_get_bool(r->j, "available", &avail);
	json_get_bool(r->j, "finished", &fin);
	*unfinished = avail && !fin;
	return avail;
}

/* A trace replay's figures are a cache's: misses (pgfault, every
 * reference to a page not in memory, first references included, as
 * pagelab mrc counts them) and the misses of pages met before
 * (pgmajfault: the first references' cold misses left out). */
const char *const compare_trace_metrics[] = { "pgfault", "pgmajfault", NULL };

/* Whether every workload of a record is a trace replay (a record that did
 * not run has no workloads: false). */
static bool trace_only(const struct record *r)
{
	const struct json *w = json_get(r->j, "workloads");
	if (!w || w->type != JSON_ARR || !w->n)
		return false;
	for (int i = 0; i < w->n; i++) {
		const char *c = json_get_str(&w->items[i], "command");
		if (!c || strncmp(c, "trace", 5) || (c[5] && c[5] != ' '))
			return false;
	}
	return true;
}

const char *const *compare_default_metrics(const struct records *rs, const char *config)
{
	for (int i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].config, config) && trace_only(&rs->r[i]))
			return compare_trace_metrics;
	return record_csv_metrics;
}

static int count(char *const *v)
{
	int n = 0;
	while (v[n])
		n++;
	return n;
}

/* compare_default_metrics(), config's workloads' figures of merit and its
 * cgroups' figures, into *own. */
static const char *const *default_metrics(const struct records *rs, const char *config, char ***own)
{
	const char *const *base = compare_default_metrics(rs, config);
	char **fig = record_figure_columns(rs, config), **cg = record_cgroup_columns(rs, config, true);
	int nb = 0, nf = count(fig), nc = count(cg);
	while (base[nb])
		nb++;
	*own = xcalloc((size_t)(nb + nf + nc + 1), sizeof(char *));
	for (int i = 0; i < nb; i++)
		(*own)[i] = xstrdup(base[i]);
	memcpy(*own + nb, fig, (size_t)nf * sizeof(char *));
	memcpy(*own + nb + nf, cg, (size_t)nc * sizeof(char *));
	free(fig);
	free(cg);
	return (const char *const *)*own;
}

int compare_better(const struct cmp_table *x, int m)
{
	return x->better ? x->better[m] : 0;
}

const char *compare_better_words(int better)
{
	return better > 0 ? "higher is better" : better < 0 ? "lower is better" : "";
}

struct cmp_table *compare_records(const struct records *rs, const char *baseline, const char *const *asked,
				  int *ntables)
{
	const char **configs = NULL;
	int nc = 0;
	for (int i = 0; i < rs->n; i++)
		if (find(configs, nc, rs->r[i].config) < 0) {
			configs = xrealloc(configs, (size_t)(nc + 1) * sizeof(char *));
			configs[nc++] = rs->r[i].config;
		}
	struct cmp_table *t = xcalloc((size_t)nc + 1, sizeof(*t));
	double *va = xcalloc((size_t)rs->n + 1, sizeof(double)), *vb = xcalloc((size_t)rs->n + 1, sizeof(double));
	for (int c = 0; c < nc; c++) {
		struct cmp_table *x = &t[c];
		x->config = xstrdup(configs[c]);
		const char *const *metrics = asked ? asked : default_metrics(rs, configs[c], &x->own_metrics);
		int nm = 0;
		while (metrics[nm])
			nm++;
		x->metrics = metrics;
		x->nr_metrics = nm;
		x->better = xcalloc((size_t)nm + 1, sizeof(int));
		for (int m = 0; m < nm; m++)
			x->better[m] = record_metric_better(rs, metrics[m]);
		for (int i = 0; i < rs->n; i++) {
			const struct record *r = &rs->r[i];
			if (strcmp(r->config, configs[c]))
				continue;
			bool unf;
			x->nr_runs++;
			if (!usable(r, &unf))
				x->nr_unavailable++;
			x->nr_unfinished += unf;
			if (find((const char *const *)x->designs, x->nr_designs, r->design) < 0) {
				x->designs = xrealloc(x->designs, (size_t)(x->nr_designs + 1) * sizeof(char *));
				x->designs[x->nr_designs++] = xstrdup(r->design);
			}
		}
		int bi = baseline ? find((const char *const *)x->designs, x->nr_designs, baseline) : 0;
		if (bi > 0) {
			char *b = x->designs[bi];
			memmove(x->designs + 1, x->designs, (size_t)bi * sizeof(char *));
			x->designs[0] = b;
		}
		x->cells = xcalloc((size_t)nm * (size_t)x->nr_designs, sizeof(*x->cells));
		for (int m = 0; m < nm; m++) {
			int nb = 0;
			for (int i = 0; i < rs->n; i++) {
				const struct record *r = &rs->r[i];
				double v;
				if (!strcmp(r->config, configs[c]) && !strcmp(r->design, x->designs[0]) &&
				    record_metric(r, metrics[m], &v))
					vb[nb++] = v;
			}
			for (int d = 0; d < x->nr_designs; d++) {
				int na = 0;
				for (int i = 0; i < rs->n; i++) {
					const struct record *r = &rs->r[i];
					double v;
					if (!strcmp(r->config, configs[c]) && !strcmp(r->design, x->designs[d]) &&
					    record_metric(r, metrics[m], &v))
						va[na++] = v;
				}
				struct cmp_cell *cc = &x->cells[m * x->nr_designs + d];
				cc->s = summarize(va, na);
				cc->change_pct = NAN;
				cc->p = NAN;
				if (d == 0 || !na || !nb)
					continue;
				struct summary base = summarize(vb, nb);
				if (base.mean != 0)
					cc->change_pct = (cc->s.mean - base.mean) / fabs(base.mean) * 100;
				cc->test = significance(vb, nb, va, na, &cc->p);
			}
		}
	}
	free(va);
	free(vb);
	free(configs);
	*ntables = nc;
	return t;
}

bool compare_seeds_idle(const struct cmp_table *t)
{
	bool repeated = false;
	for (int i = 0; i < t->nr_metrics * t->nr_designs; i++) {
		if (t->cells[i].s.n >= 2 && t->cells[i].s.sd != 0)
			return false;
		repeated |= t->cells[i].s.n >= 2;
	}
	return repeated;
}

void compare_free(struct cmp_table *t, int n)
{
	for (int c = 0; c < n; c++) {
		for (int d = 0; d < t[c].nr_designs; d++)
			free(t[c].designs[d]);
		free(t[c].designs);
		record_cgroup_columns_free(t[c].own_metrics);
		free(t[c].cells);
		free(t[c].better);
		free(t[c].config);
	}
	free(t);
}

/* A value in 10 columns: enough digits to tell designs apart. */
void compare_fmt_value(char *buf, size_t len, double v, int n)
{
	if (!n)
		snprintf(buf, len, "%10s", "-");
	else if (fabs(v) >= 1e7)
		snprintf(buf, len, "%10.4g", v);
	else if (fabs(v) >= 1000)
		snprintf(buf, len, "%10.1f", v);
	else
		snprintf(buf, len, "%10.4f", v);
}

/* A change in at most width (7 to 9) columns, so the columns after it
 * stay under their headers: "%+.1f%%" ("+4066.7%"), else without the
 * decimal ("+4067%"), up to +99999%; beyond (a figure the baseline barely
 * has) the design's mean as a multiple of the baseline's, "x1001",
 * "x1.0e+12" (or "x1e+12" in 7 columns; the legends say so), which the
 * ratio is while the baseline's mean is positive (figures are counts and
 * times); otherwise, or not finite, clamped to ">+99999%" ("<-9999%" in
 * 7 columns: as many 9s as fit). */
void compare_fmt_change(char *buf, size_t len, double pct, double base, int width)
{
	double ratio = 1 + pct / 100;
	if (fabs(pct) < 99999.95 && snprintf(buf, len, "%+.1f%%", pct) <= width)
		return;
	if (fabs(pct) < 99999.5 && snprintf(buf, len, "%+.0f%%", pct) <= width)
		return;
	if (base > 0 && isfinite(ratio)) {
		if (ratio < 99999999.5 && snprintf(buf, len, "x%.0f", ratio) <= width)
			return;
		if (snprintf(buf, len, "x%.1e", ratio) <= width)
			return;
		snprintf(buf, len, "x%.0e", ratio);
		return;
	}
	int nines = width - 3 < 5 ? width - 3 : 5;
	snprintf(buf, len, "%s%.*s%%", pct > 0 ? ">+" : "<-", nines, "99999");
}

/* Print a line without its trailing blanks. */
static void put_line(FILE *out, char *line)
{
	size_t n = strlen(line);
	while (n && line[n - 1] == ' ')
		line[--n] = 0;
	fprintf(out, "%s\n", line);
}

static void print_part(const struct cmp_table *x, int first, int last, FILE *out)
{
	char line[512];
	size_t o = 0;
	/* names right-aligned over their values, longer ones spill right */
	o += (size_t)snprintf(line + o, sizeof(line) - o, "%-24s %10.10s", "", x->designs[0]);
	for (int d = first; d < last; d++) {
		if (strlen(x->designs[d]) <= 10)
			o += (size_t)snprintf(line + o, sizeof(line) - o, " %10s%11s", x->designs[d], "");
		else
			o += (size_t)snprintf(line + o, sizeof(line) - o, " %-21.21s", x->designs[d]);
	}
	put_line(out, line);
	for (int m = 0; m < x->nr_metrics; m++) {
		/* A name too long for the column (cgroup./a.memory.events.high)
		 * gets a line of its own, the rows under it only their word; so
		 * does a workload's figure, with which way is better. */
		int better = compare_better(x, m);
		bool own_line = strlen(x->metrics[m]) + strlen("Stddev ") > 24 || better;
		if (own_line)
			fprintf(out, "%s%s%s%s\n", x->metrics[m], better ? " (" : "", compare_better_words(better),
				better ? ")" : "");
		for (int row = 0; row < 2; row++) {
			char label[40], v[32];
			snprintf(label, sizeof(label), "%s %s", row ? "Stddev" : "Amean", own_line ? "" : x->metrics[m]);
			const struct cmp_cell *b = &x->cells[m * x->nr_designs];
			compare_fmt_value(v, sizeof(v), row ? b->s.sd : b->s.mean, b->s.n);
			o = (size_t)snprintf(line, sizeof(line), "%-24.24s %s", label, v);
			for (int d = first; d < last; d++) {
				const struct cmp_cell *cc = &x->cells[m * x->nr_designs + d];
				compare_fmt_value(v, sizeof(v), row ? cc->s.sd : cc->s.mean, cc->s.n);
				if (row || isnan(cc->change_pct)) {
					o += (size_t)snprintf(line + o, sizeof(line) - o, " %s%11s", v, "");
				} else {
					bool sig = !isnan(cc->p) && cc->p < CMP_ALPHA;
					char pc[16];
					compare_fmt_change(pc, sizeof(pc), cc->change_pct, b->s.mean, 7);
					o += (size_t)snprintf(line + o, sizeof(line) - o, " %s (%7s)%s", v, pc, sig ? "*" : " ");
				}
				if (o >= sizeof(line))
					o = sizeof(line) - 1;
			}
			put_line(out, line);
		}
	}
}

void compare_print_text(const struct cmp_table *t, int n, FILE *out)
{
	for (int c = 0; c < n; c++) {
		const struct cmp_table *x = &t[c];
		int seeds = x->nr_designs ? x->nr_runs / x->nr_designs : 0;
		fprintf(out, "%sconfig: %s\n", c ? "\n" : "", x->config);
		fprintf(out, "%d design%s, %d run%s (about %d per design)", x->nr_designs,
			x->nr_designs == 1 ? "" : "s", x->nr_runs, x->nr_runs == 1 ? "" : "s", seeds);
		if (x->nr_unavailable)
			fprintf(out, ", %d could not run", x->nr_unavailable);
		if (x->nr_unfinished)
			fprintf(out, ", %d did not finish (OOM kill or --max-time)", x->nr_unfinished);
		if (x->nr_unavailable == x->nr_runs) {
			fprintf(out, "; none to compare\n");
			continue;
		}
		fprintf(out, "; baseline %s\n\n", x->designs[0]);
		if (x->nr_designs == 1)
			print_part(x, 1, 1, out);
		for (int d = 1; d < x->nr_designs; d += 2) {
			if (d > 1)
				fputc('\n', out);
			print_part(x, d, d + 2 < x->nr_designs ? d + 2 : x->nr_designs, out);
		}
	}
	fprintf(out, "\n%% change against the baseline's mean, from +100000%% on as a multiple of\n"
		"it (x1001: 1001 times it); * the difference is significant\n"
		"(p < %.2f: Welch's t-test with 5 or more seeds a side, else an exact\n"
		"Mann-Whitney U test, which cannot reach p < 0.05 below 4 seeds a side;\n"
		"p-values in --json).\n", CMP_ALPHA);
}

static void json_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.6g", v);
	else
		fputs("null", out);
}

void compare_print_json(const struct cmp_table *t, int n, FILE *out)
{
	fputs("{\"alpha\": ", out);
	json_num(out, CMP_ALPHA);
	fputs(", \"configs\": [", out);
	for (int c = 0; c < n; c++) {
		const struct cmp_table *x = &t[c];
		fprintf(out, "%s\n {\"config\": ", c ? "," : "");
		json_put_str(out, x->config);
		fprintf(out, ", \"runs\": %d, \"unavailable\": %d, \"unfinished\": %d, \"baseline\": ", x->nr_runs,
			x->nr_unavailable, x->nr_unfinished);
		json_put_str(out, x->designs[0]);
		fputs(", \"metrics\": [", out);
		for (int m = 0; m < x->nr_metrics; m++) {
			fprintf(out, "%s\n  {\"metric\": ", m ? "," : "");
			json_put_str(out, x->metrics[m]);
			if (compare_better(x, m))
				fprintf(out, ", \"better\": \"%s\"", compare_better(x, m) > 0 ? "higher" : "lower");
			fputs(", \"designs\": [", out);
			for (int d = 0; d < x->nr_designs; d++) {
				const struct cmp_cell *cc = &x->cells[m * x->nr_designs + d];
				fprintf(out, "%s{\"design\": ", d ? ", " : "");
				json_put_str(out, x->designs[d]);
				fprintf(out, ", \"n\": %d, \"mean\": ", cc->s.n);
				json_num(out, cc->s.n ? cc->s.mean : NAN);
				fputs(", \"stddev\": ", out);
				json_num(out, cc->s.n ? cc->s.sd : NAN);
				if (d) {
					fputs(", \"change_pct\": ", out);
					json_num(out, cc->change_pct);
					fprintf(out, ", \"test\": \"%s\", \"p\": ", sig_test_names[cc->test]);
					json_num(out, cc->p);
					fprintf(out, ", \"significant\": %s",
						!isnan(cc->p) && cc->p < CMP_ALPHA ? "true" : "false");
				}
				fputc('}', out);
			}
			fputs("]}", out);
		}
		fputs("]}", out);
	}
	fputs("\n]}\n", out);
}
