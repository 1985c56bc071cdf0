/* kmatrix.h - `pagelab compare --matrix FILE`: many cases of compare --
 * WORKLOAD summed up by the strict rule (docs/fidelity.md, "The matrix").
 *
 * A cell is one (case, counter) of one design.  It is "within" when the
 * simulator's median over its seeds is within +-T % of the kernel's median
 * over its runs, a "miss" otherwise, and "small" when both medians are
 * under the floor (100 pages): small cells are counted apart, never as
 * passes, and the strict share is within / (within + miss).  Counters the
 * kernel does not count under cgroup limit reclaim, and those a side
 * lacks, are not cells.  Elapsed and system time (the longest workload's
 * wall time, the workloads' system time summed) are cells of their own,
 * with no floor.  Beside the count, never merged into it, the rank test:
 * Spearman's rho over the cases of each counter, kernel medians against
 * simulated ones (does the simulator order the cases as the kernel
 * does?). */
#ifndef PAGELAB_KMATRIX_H
#define PAGELAB_KMATRIX_H

#include <stdbool.h>
#include <stdio.h>

#include "kcompare.h"

/* One case, run: its table (kcmp_build) and its times. */
struct kmatrix_case {
	const char *name;
	const struct kcmp *x;
	int runs;               /* kernel runs */
	double kel, ksys;       /* the kernel's medians, s */
	const double *sel, *ssys;   /* per design: the simulator's medians */
	double load;            /* median 1-minute load of its runs, or -1 */
	/* The longest workload's CPU (user + system) and wait (its elapsed
	 * less its CPU, 0 when its tasks ran in parallel), medians, s: the
	 * kernel's, then per design the simulator's (kmatrix_time.c). */
	double kcpu, kwait;
	const double *scpu, *swait;
};

enum km_class { KM_NONE, KM_WITHIN, KM_MISS, KM_SMALL };

struct km_tally {
	int within, miss, small;
};

struct kmatrix {
	int ncase, npol, nrows;
	const struct kmatrix_case *c;
	const char *const *pol;
	double tol, floor;
	struct km_tally *pages, *elapsed, *sys;   /* per design */
	struct km_tally *by_row;                  /* [p * nrows + k] */
	double *rho;                              /* [p * nrows + k], NAN */
	int *rho_n;                               /* cases ranked */
	double rho_el[32], rho_sys[32];           /* per design, times */
};

/* The class of a cell: medians k and s under tolerance tol (percent)
 * and floor (KM_SMALL when both are under it; 0: none). */
enum km_class km_classify(double k, double s, double tol, double floor);
/* The class of counter row k of design p in case c (KM_NONE: not a
 * cell). */
enum km_class km_row_class(const struct kmatrix *m, int c, int p, int k);
/* The kernel's spread is wide: one of the headline counters (pgmajfault,
 * pswpout, pgsteal_anon, pgsteal_file) has max/min over the runs above
 * ratio (1.5) where its max reaches the floor.  The matrix runs such a
 * case again to 5 runs. */
bool kmatrix_wide(const struct kcmp *x, double ratio, double floor);

/* Sum up ncase cases (all with the same designs, at most 32). */
void kmatrix_build(struct kmatrix *m, const struct kmatrix_case *c, int ncase, double tol, double floor);
void kmatrix_free(struct kmatrix *m);
/* The tables, 80 columns: the strict count per design, each counter's
 * count and rho, each case's count. */
void kmatrix_print(const struct kmatrix *m, FILE *out);

/* kmatrix_time.c: where a time misses, waits or work. */
enum km_cause { KM_CAUSE_NONE, KM_CAUSE_WORK, KM_CAUSE_WAITS, KM_CAUSE_BOTH, KM_CAUSE_UNSPLIT };
struct record;
/* The median over records r[from..to) of their longest workload's CPU
 * (wait false) or wait (true), s; NAN when none has the figures. */
double km_records_split(const struct record *const *r, int from, int to, bool wait);
/* Which part of an elapsed time misses: the CPU (work), the wait, both,
 * neither, or unsplit (a figure is NAN); a part misses when it is outside +-tol % of the kernel's
 * and differs by more than tol % of the kernel's elapsed kel. */
enum km_cause km_time_cause(double kel, double kcpu, double scpu, double kwait, double swait, double tol);
/* Per design, the cases that miss on a time, each time split into CPU
 * and wait on both sides, and the counts by cause (80 columns). */
void kmatrix_print_times(const struct kmatrix *m, FILE *out);

#endif
