/* stats.h - the statistics of comparisons over seeds: mean and sample
 * standard deviation, Student's t quantiles for 95% intervals, Welch's
 * t-test, and an exact Mann-Whitney U test for few seeds. */
#ifndef PAGELAB_STATS_H
#define PAGELAB_STATS_H

#include <stdbool.h>

struct summary {
	int n;
	double mean, sd;     /* sd: sample (n - 1); 0 when n < 2 */
};
struct summary summarize(const double *x, int n);

/* qsort()'s comparison of doubles, ascending: the one copy. */
int cmp_double_asc(const void *p, const void *q);

/* The midranks of v[0..n) (1-based; equal values share the mean of
 * their positions) into rank. */
void midranks(const double *v, int n, double *rank);
/* The median of v[0..n), which it sorts; NAN when n < 1. */
double median_inplace(double *v, int n);
/* Spearman's rank correlation of the pairs (a[i], b[i]): Pearson's r of
 * their midranks; NAN below 3 pairs or when either side is constant. */
double spearman_rho(const double *a, const double *b, int n);

/* Two-sided P(|T| >= |t|) for Student's t with df degrees of freedom. */
double t_two_sided_p(double t, double df);
/* The t with P(T <= t) = p (0 < p < 1), df > 0. */
double t_quantile(double p, double df);

/* Two-sided p-values of "a and b have the same mean (distribution)". */
double welch_p(const double *a, int na, const double *b, int nb);
/* Exact: every split of the pooled values into groups of na and nb
 * (midranks for ties); na + nb <= 20. */
double mann_whitney_p(const double *a, int na, const double *b, int nb);

enum sig_test { TEST_NONE, TEST_WELCH, TEST_MANN_WHITNEY };
/* Welch's t-test when both sides have at least 5 values, Mann-Whitney
 * below that (down to 2 a side), no test with fewer; *p = NAN then. */
enum sig_test significance(const double *a, int na, const double *b, int nb, double *p);
extern const char *const sig_test_names[];

#endif
