/* cpu_claim.h - the threads' CPU claims from counted work (issue 38,
 * deliverable 6): a reclaimer's CPU time rebuilt as reclaim's counted
 * operations (src/mm/work.h's rows, by who ran them, and the vmstat
 * counts of the work with no row) times the run's machine costs, each
 * operation with where its cost comes from. */
#ifndef PAGELAB_CPU_CLAIM_H
#define PAGELAB_CPU_CLAIM_H

#include "experiment.h"
#include "exp_named.h"
#include "../report/result.h"

/* Columns of reclaim's work (1 << enum work_who), and CPU_TASK_SIDE: the
 * workloads' own kernel work with no row (faults, swap-in reads). */
#define CPU_WHO(w) (1u << (w))
#define CPU_TASK_SIDE (1u << NR_WORK_WHO)
/* What a task's system time holds: its reclaim, its faults and calls. */
#define CPU_TASK (CPU_WHO(WHO_DIRECT) | CPU_WHO(WHO_MEMCG) | CPU_WHO(WHO_OTHER) | CPU_TASK_SIDE)

/* One counted operation's share of a CPU time. */
struct cpu_part {
	const char *op;      /* the row (work.h) or vmstat counter */
	uint64_t n;          /* counted */
	double ns_each;      /* cost per operation, ns (0: not priced) */
	double ns;           /* n x ns_each */
	const char *src;     /* where ns_each comes from */
};
#define CPU_MAX_PARTS 40

/* The parts of the columns in `who` (a mask of CPU_WHO bits and
 * CPU_TASK_SIDE), in work.h's order, counted ones only; returns how many
 * were written to p (at most CPU_MAX_PARTS) and their sum in *total_ns. */
int cpu_work_parts(const struct run_result *rr, unsigned who, struct cpu_part *p, double *total_ns);
/* "kswapd", "aging", "task"... -> the mask, 0 if unknown. */
unsigned cpu_who_parse(const char *name);

/* An estimate for a cost the era's profile leaves at 0: a figure measured
 * on this project's host (docs/cost.md), scaled by the clocks.  Returns
 * false (and 0) when there is none; *src says where it comes from. */
bool cpu_era_estimate(const struct profile *prof, enum work_op w, double *ns, const char **src);

/* Cache lines the columns' walks read: PTEs 8 a line (swap_out_ptes,
 * walk_pte_range), a struct page each per page or folio looked at
 * (try_to_swap_out, the isolation rows, the old designs' pgscan_*). */
uint64_t cpu_lines_read(const struct run_result *rr, unsigned who);

/* The experiments' custom metrics (exp_named.c): work_cpu:WHO (seconds),
 * work_share:WHO (% of the workload's elapsed time) and
 * work_ratio:WHO/WHO (one column's CPU over another's). */
extern const struct exp_named_metric cpu_claim_metric_fns[];

/* The metric is one of the above (a CPU claim from counted work). */
bool cpu_claim_metric(const struct exp_metric *mt);

/* Under the verdicts: for each comparison of a work_* metric, the
 * breakdown of each of its designs' figure (the first seed's run). */
void cpu_claim_print(const struct exp_result *r, FILE *out);
/* The same as --json's `,"cpu_claims": [...]` (nothing without a claim). */
void cpu_claim_json(const struct exp_result *r, FILE *out);

#endif
