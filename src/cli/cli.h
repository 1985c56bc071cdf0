/* cli.h - the subcommands of the pagelab command. */
#ifndef PAGELAB_CLI_H
#define PAGELAB_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "opt.h"   /* (compare_*.c keep a cmp_double of their own) */

/* The whole command line, as main() got it (argc 0 when a harness calls
 * a command directly), for the provenance a report records. */
extern int cli_argc;
extern char **cli_argv;

/* The commands' option tables (opt.h). */
extern const struct opt_cmd run_cmd, sweep_cmd, ablate_cmd, mrc_cmd, reproduce_cmd, kernel_cmd, record_cmd, compare_cmd, trace_cmd, merge_cmd,
	policies_cmd, workloads_cmd, machines_cmd;

/* sweep.c's, which ablate shares: the workloads after "--", separated
 * by '+', into mx (bad input: "CMD: ..." and exit 2); true when one asked
 * for its --help (printed). */
struct matrix;
struct records;
bool sweep_workloads(const char *cmd, struct matrix *mx, int argc, char **argv);
/* As run's exit status: 1 if --check failed in a cell, else 3 if a cell
 * stopped at --max-time (each said on stderr), else 0. */
int sweep_stopped_cells(const struct records *rs);

int cmd_run(int argc, char **argv);
int cmd_ablate(int argc, char **argv);
int cmd_policies(int argc, char **argv);
int cmd_workloads(int argc, char **argv);
int cmd_machines(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_kernel(int argc, char **argv);
/* kernel_tree.c: pagelab kernel --cgroup's cgroups in the report. */
struct ntree;
struct nrun;
void kernel_tree_text(const struct ntree *t, const struct nrun *r, FILE *out);
int cmd_mrc(int argc, char **argv);
/* compare.c dispatches: "-- WORKLOAD" -> the kernel against the simulator
 * (compare_kernel.c), else RESULTS.jsonl files (compare_results.c). */
int cmd_compare(int argc, char **argv);
int cmd_compare_kernel(int argc, char **argv);
int cmd_compare_results(int argc, char **argv);
/* The kernel form's options (pagelab compare -- WORKLOAD), which the
 * results form's --help and --dump-options show after its own. */
extern const struct opt_cmd compare_kernel_cmd;

#endif
