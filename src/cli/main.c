/* main.c - pagelab's entry point: dispatch to a subcommand. */
#include "cli.h"
#include "../lib/util.h"
#include "../lib/output.h"
#include "../lib/version.h"
#include "../trace/input.h"

#include <stdio.h>
#include <string.h>

static void usage(FILE *out)
{
	fputs(
"usage: pagelab COMMAND [ARGS]\n"
"       pagelab --version\n"
"A laboratory for Linux page reclaim: historical and modern reclaim designs as\n"
"policies on one simulated machine, driven by benchmark-like workloads and\n"
"traces.\n"
"\n"
"Commands:\n"
"  run        run workloads on a simulated machine under a reclaim policy\n"
"  policies   list the reclaim policies (and their tunables)\n"
"  workloads  list the workloads (and their options)\n"
"  machines   list the machine profiles (and their parameters)\n"
"  reproduce  re-run the five threads' experiments beside their published figures\n"
"  sweep      run designs x machines x seeds into a results file (JSONL, CSV)\n"
"  merge      join results files (the shards of a sweep)\n"
"  mrc        miss ratio against cache size for a trace (exact LRU, SHARDS, any\n"
"             policy)\n"
"  trace      convert a trace to pagelab's binary format, or print its figures\n"
"  record     run a program under valgrind's lackey and write its reference trace\n"
"  kernel     run workloads natively on this host's kernel in a memory cgroup\n"
"  compare    results files side by side (designs, seeds, significance), or\n"
"             the kernel against the simulator (-- WORKLOAD)\n"
"\n"
"Every command takes --help.  Example:\n"
"  pagelab run --machine vmm-2008 --policy clock --vmstat 1 usemem -m 1000\n", out);
}

int main(int argc, char **argv)
{
	output_init();
	cli_argc = argc;
	cli_argv = argv;
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		/* One line, the version its second word; then the compressed
		 * traces it reads: "pagelab 0.21.0-g54f12eb (zstd, zlib)". */
		printf("pagelab %s (%s)\n", pagelab_version(), input_codecs());
		return 0;
	}
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "policies"))
		return cmd_policies(argc - 1, argv + 1);
	if (!strcmp(cmd, "workloads"))
		return cmd_workloads(argc - 1, argv + 1);
	if (!strcmp(cmd, "machines"))
		return cmd_machines(argc - 1, argv + 1);
	if (!strcmp(cmd, "reproduce"))
		return cmd_reproduce(argc - 1, argv + 1);
	if (!strcmp(cmd, "sweep"))
		return cmd_sweep(argc - 1, argv + 1);
	if (!strcmp(cmd, "merge"))
		return cmd_merge(argc - 1, argv + 1);
	if (!strcmp(cmd, "trace"))
		return cmd_trace(argc - 1, argv + 1);
	if (!strcmp(cmd, "record"))
		return cmd_record(argc - 1, argv + 1);
	if (!strcmp(cmd, "mrc"))
		return cmd_mrc(argc - 1, argv + 1);
	if (!strcmp(cmd, "kernel"))
		return cmd_kernel(argc - 1, argv + 1);
	if (!strcmp(cmd, "compare"))
		return cmd_compare(argc - 1, argv + 1);
	die_usage("unknown command '%s' (try pagelab --help)", cmd);
}
