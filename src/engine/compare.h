/* compare.h - designs side by side from results records, in the shape of
 * mmtests' compare-kernels: per configuration (machine and workloads), a
 * baseline design's column and the others with their % change, mean and
 * standard deviation over seeds, and a significance marker from Welch's
 * t-test (Mann-Whitney U for fewer than 5 seeds a side). */
#ifndef PAGELAB_COMPARE_H
#define PAGELAB_COMPARE_H

#include <stdio.h>

#include "record.h"
#include "stats.h"

struct cmp_cell {             /* one design's figure in one configuration */
	struct summary s;
	double change_pct;        /* vs the baseline, NAN for the baseline or 0 base */
	double p;                 /* NAN: no test */
	enum sig_test test;
};

struct cmp_table {
	char *config;
	int nr_designs;
	char **designs;           /* [0] is the baseline */
	int nr_metrics;
	const char *const *metrics;
	char **own_metrics;       /* the default's, built for config: metrics */
	int *better;              /* [metric]: 1 higher is better (a workload's
				   * throughput), -1 lower (its latency), 0 not
				   * said (record_metric_better()) */
	struct cmp_cell *cells;   /* [metric][design] */
	int nr_runs, nr_unavailable, nr_unfinished;
};

/* Tables for every configuration in rs (in order of first appearance),
 * designs in order of first appearance with baseline (if present in the
 * configuration) moved first.  metrics is NULL-terminated; NULL: each
 * configuration's compare_default_metrics(). */
struct cmp_table *compare_records(const struct records *rs, const char *baseline, const char *const *metrics,
				  int *ntables);
/* The figures compared when none are asked for: a configuration whose
 * workloads are all trace replays gets compare_trace_metrics (the misses a
 * cache researcher reads), any other the CSV figures (record_csv_metrics);
 * compare_records() adds the workloads' figures of merit
 * (record_figure_columns(): read_iops, p99_ms...) and each cgroup's
 * record_cgroup_figures that its records have and that are not 0 in all
 * of them (cgroup.PATH.FILE). */
const char *const *compare_default_metrics(const struct records *rs, const char *config);
extern const char *const compare_trace_metrics[];
/* Whether the seeds changed nothing in t: some design ran with two seeds
 * or more and every figure's standard deviation is 0 (a trace replay has
 * no randomness), so no difference can be significant. */
bool compare_seeds_idle(const struct cmp_table *t);
void compare_free(struct cmp_table *t, int n);

/* Significance below this p-value is marked. */
#define CMP_ALPHA 0.05

/* A figure in 10 columns ("-" when n is 0), as the tables print it. */
void compare_fmt_value(char *buf, size_t len, double v, int n);
/* A % change against base (the baseline's mean) in at most width (7 to
 * 9) columns: "+4066.7%", "+40667%", from +100000% on the multiple
 * "x1001", "x1.0e+12" (compare.c says how). */
void compare_fmt_change(char *buf, size_t len, double pct, double base, int width);

/* x->better[m] (0 for a table without them); "higher is better", "lower
 * is better" or "" for it. */
int compare_better(const struct cmp_table *x, int m);
const char *compare_better_words(int better);

void compare_print_text(const struct cmp_table *t, int n, FILE *out);
void compare_print_json(const struct cmp_table *t, int n, FILE *out);

#endif
