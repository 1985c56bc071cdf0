/* compare_table.h - pagelab compare -- WORKLOAD's table (compare_kernel.c
 * runs the two sides; this reads their reports and compares): each
 * counter's kernel median (min..max over the runs) beside pagelab's value
 * per policy, their ratio and whether it agrees; as text and as HTML. */
#ifndef PAGELAB_COMPARE_TABLE_H
#define PAGELAB_COMPARE_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* "name value" pairs of one report's # /proc/vmstat section; with_cgroup
 * (the kernel's report) also its "# cgroup" section, memory.stat's
 * counters as memcg.NAME. */
struct counters {
	int n;
	char (*name)[48];
	double *val;
};
void counters_parse(struct counters *c, FILE *f, bool with_cgroup);
void counters_free(struct counters *c);

/* What the runs were, for the headers. */
struct kcmp_setup {
	const char *memcg, *swap, *machine;
	const char *sets;   /* the --set options of pagelab run, "" when none */
	uint64_t repeat, cached, cpus, seeds, seed0;
	uint64_t warmed;    /* kernel runs whose host pages were warmed first */
	double tol, floor;  /* percent; pages under which both sides agree */
	const char *fit;    /* --fit-cpu's note, "" or NULL when none */
};

enum kcmp_verdict { KCMP_YES, KCMP_NO, KCMP_MISSING, KCMP_NOT_COUNTED };

struct kcmp_row {
	const char *name;
	bool kfound, sfound;
	double med, kmin, kmax;  /* the kernel's, over the runs */
	double sim;              /* pagelab's median over the seeds */
	double p;                /* two-sided p of "the runs and the seeds are
				  * one distribution" (kcmp_p); NAN if untested */
	enum kcmp_verdict verdict;
};

struct kcmp {
	int npol;
	const char *const *pol;
	int nrows;
	struct kcmp_row *row;    /* [p * nrows + k] */
	int *agree, *compared;   /* per policy */
	char own[256];           /* counters taken from the cgroup's memory.stat */
	char traced[256];        /* ... from its tracepoints (src/native/tracer.c) */
};

/* The test beside each compared counter when both sides have at least two
 * values: Mann-Whitney's U, exact, while the runs and seeds are 20 or
 * fewer together (counts like pgdeactivate come in two modes, which a
 * rank test takes as they are), Welch's t-test above that.  NAN when
 * either side has fewer than two. */
double kcmp_p(const double *runs, int nruns, const double *seeds, int nseeds);
/* The line under a table that says what p is, in two halves (the text
 * breaks between them); false when the setup's runs or seeds are fewer
 * than two, so that there is no p column. */
bool kcmp_p_note(const struct kcmp_setup *s, char *head, size_t headlen, const char **tail);

/* kern: setup->repeat reports; sim: npol * setup->seeds, policy-major. */
void kcmp_build(struct kcmp *x, const struct counters *kern, const struct counters *sim, int npol,
		const char *const *pol, const struct kcmp_setup *setup);
void kcmp_free(struct kcmp *x);
/* cmd: the workload's words. */
void kcmp_print(const struct kcmp *x, const struct kcmp_setup *s, const char *cmd);
struct html_provenance;
void kcmp_html(FILE *out, const struct kcmp *x, const struct kcmp_setup *s, const char *cmd,
	       const struct html_provenance *pv);

#endif
