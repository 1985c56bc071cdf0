/* compare_results.c - pagelab compare RESULTS.jsonl: a placeholder until
 * the experiment engine's results comparison lands (issue 13). */
#include "cli.h"
#include "../lib/util.h"

#include <stdio.h>
#include <string.h>

int cmd_compare_results(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return cmd_compare_kernel(argc, argv);  /* its usage */
	die_usage("compare: give '-- WORKLOAD [ARGS]' to compare the kernel with the simulator (RESULTS.jsonl comparison is not implemented yet)");
}
