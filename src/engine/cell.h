/* cell.h - the experiment engine's unit: one simulation of a run matrix.
 *
 * A cell is a machine (a profile with its settings applied), a design (a
 * policy and its tunables), up to EXP_MAX_WL workload command lines and a
 * seed.  cell_run() builds a fresh machine, runs it to the end and collects
 * everything a printer, a verdict or a results file needs into a
 * run_result.  `pagelab reproduce`, `sweep` and `compare` all run cells; a
 * cell depends on nothing but its own fields, so any number of them can run
 * on a pool of threads with the same results (pool.h). */
#ifndef PAGELAB_CELL_H
#define PAGELAB_CELL_H

#include <stdbool.h>
#include <stdint.h>

#include "../report/report.h"
#include "../report/result.h"
#include "../machine/machine.h"

/* The simulator (cell_run), or this host's kernel (src/engine/kexec.c). */
enum cell_executor { EXEC_SIM, EXEC_KERNEL };

struct cell {
	struct profile prof;
	const struct policy_ops *pol;
	const double *tun;               /* policy_nr_tunables(pol) values */
	const char *wl[EXP_MAX_WL];      /* command lines, split on blanks */
	int nr_wl;
	uint64_t start_ns[EXP_MAX_WL];   /* a workload starting late, or 0 */
	struct machine_opts mo;          /* seed, vmstat, max time, stop_with, check */
	int residency_wl;                /* workload whose resident set is sampled, or -1 */
	enum cell_executor executor;     /* who runs it (executor.h) */
	int run;                         /* the kernel's repeat of the same cell, from 1 */
	char swap_dev[80];               /* kernel cells: --swap zram:SIZE[,algo=NAME] as
					  * written (src/native/zram.c), "" for a swapfile */
	const char *kset;                /* the kernel's: a knob of its cgroup,
					  * NAME=VALUE (pagelab kernel --set), or
					  * NULL; the simulator's is a tunable */
};

/* Run the cell into rr (zeroed by the caller).  A workload this build lacks
 * or that rejects its command line, or a machine that cannot be sized,
 * leaves rr->available false with rr->why saying why. */
void cell_run(const struct cell *c, struct run_result *rr);
/* Check that the cell's workloads accept their command lines; false with a
 * message in err if not (for callers that must refuse bad input first). */
bool cell_check(const struct cell *c, char *err, size_t errlen);

/* Split a command line on blanks (no quoting: no workload needs it). */
int cell_split_args(char *s, char **argv, int max);

#endif
