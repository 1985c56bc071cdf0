/* compare.c - pagelab compare: with "--" and a workload, or --matrix
 * FILE of such cases, the kernel against the simulator
 * (compare_kernel.c, compare_matrix.c); otherwise the comparison of
 * experiment results (RESULTS.jsonl, compare_results.c). */
#include "cli.h"

#include <string.h>

int cmd_compare(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--") || !strcmp(argv[i], "--matrix"))
			return cmd_compare_kernel(argc, argv);
	return cmd_compare_results(argc, argv);
}
