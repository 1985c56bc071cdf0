/* cli.h - the subcommands of the pagelab command. */
#ifndef PAGELAB_CLI_H
#define PAGELAB_CLI_H

#include <stdio.h>

#include "opt.h"   /* (compare_*.c keep a cmp_double of their own) */

/* The whole command line, as main() got it (argc 0 when a harness calls
 * a command directly), for the provenance a report records. */
extern int cli_argc;
extern char **cli_argv;

/* The commands' option tables (opt.h). */
extern const struct opt_cmd run_cmd, sweep_cmd, mrc_cmd, reproduce_cmd, kernel_cmd, record_cmd, compare_cmd, trace_cmd, merge_cmd,
	policies_cmd, workloads_cmd, machines_cmd;

int cmd_run(int argc, char **argv);
int cmd_policies(int argc, char **argv);
int cmd_workloads(int argc, char **argv);
int cmd_machines(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_kernel(int argc, char **argv);
int cmd_mrc(int argc, char **argv);
/* compare.c dispatches: "-- WORKLOAD" -> the kernel against the simulator
 * (compare_kernel.c), else RESULTS.jsonl files (compare_results.c). */
int cmd_compare(int argc, char **argv);
int cmd_compare_kernel(int argc, char **argv);
int cmd_compare_results(int argc, char **argv);
/* The kernel form's usage (pagelab compare -- WORKLOAD), which the
 * results form's --help ends with. */
void compare_kernel_usage(FILE *out);

#endif
