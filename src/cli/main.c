/* main.c - pagelab's entry point: dispatch to a subcommand, by the table
 * of commands that also gives `pagelab --help`. */
#include "cli.h"
#include "../lib/util.h"
#include "../lib/output.h"
#include "../lib/version.h"
#include "../trace/input.h"

#include <stdio.h>
#include <string.h>

/* Every command: its name, what runs it and its option table. */
static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const struct opt_cmd *opts;
} commands[] = {
	{ "run", cmd_run, &run_cmd },
	{ "policies", cmd_policies, &policies_cmd },
	{ "workloads", cmd_workloads, &workloads_cmd },
	{ "machines", cmd_machines, &machines_cmd },
	{ "reproduce", cmd_reproduce, &reproduce_cmd },
	{ "sweep", cmd_sweep, &sweep_cmd },
	{ "ablate", cmd_ablate, &ablate_cmd },
	{ "merge", cmd_merge, &merge_cmd },
	{ "mrc", cmd_mrc, &mrc_cmd },
	{ "trace", cmd_trace, &trace_cmd },
	{ "record", cmd_record, &record_cmd },
	{ "kernel", cmd_kernel, &kernel_cmd },
	{ "compare", cmd_compare, &compare_cmd },
};

/* `pagelab --help`: the commands as the rows of a table (opt.h). */
static const struct opt command_rows[] = {
	{ "Commands:", .kind = OPT_SECTION },
	{ "run", .kind = OPT_POS, .help = "run workloads on a simulated machine under a reclaim policy" },
	{ "policies", .kind = OPT_POS, .help = "list the reclaim policies (and their tunables)" },
	{ "workloads", .kind = OPT_POS, .help = "list the workloads (and their options)" },
	{ "machines", .kind = OPT_POS, .help = "list the machine profiles (and their parameters)" },
	{ "reproduce", .kind = OPT_POS, .help = "re-run the five threads' experiments beside their published figures" },
	{ "sweep", .kind = OPT_POS, .help = "run designs x machines x seeds into a results file (JSONL, CSV)" },
	{ "ablate", .kind = OPT_POS, .help = "a design with each mechanism switch off in turn, over seeds,\n"
	  "against the full design (significance)" },
	{ "merge", .kind = OPT_POS, .help = "join results files (the shards of a sweep)" },
	{ "mrc", .kind = OPT_POS, .help = "miss ratio against cache size for a trace (exact LRU, SHARDS, any\npolicy)" },
	{ "trace", .kind = OPT_POS, .help = "convert a trace to pagelab's binary format, or print its figures" },
	{ "record", .kind = OPT_POS, .help = "run a program under valgrind's lackey and write its reference trace" },
	{ "kernel", .kind = OPT_POS, .help = "run workloads natively on this host's kernel in a memory cgroup" },
	{ "compare", .kind = OPT_POS, .help = "results files side by side (designs, seeds, significance), or\n"
	  "the kernel against the simulator (-- WORKLOAD)" },
	{ .kind = OPT_END },
};

static const struct opt_cmd pagelab_cmd = {
	.name = "",
	.usage =
"usage: pagelab COMMAND [ARGS]\n"
"       pagelab --version\n"
"A laboratory for Linux page reclaim: historical and modern reclaim designs as\n"
"policies on one simulated machine, driven by benchmark-like workloads and\n"
"traces.\n"
"\n",
	.opts = command_rows,
	.col = 13,
	.after =
"\n"
"Every command takes --help.  Example:\n"
"  pagelab run --machine vmm-2008 --policy clock --vmstat 1 usemem -m 1000\n",
};

/* pagelab --dump-options [CMD]: a command's table, for tools/genman.sh
 * and tools/gencompletion.sh (opt_dump()); without CMD the commands. */
static int dump_options(int argc, char **argv)
{
	if (argc < 3) {
		opt_dump(&pagelab_cmd, stdout);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[2], commands[i].name)) {
			opt_dump(commands[i].opts, stdout);
			return 0;
		}
	die_usage("unknown command '%s' (try pagelab --help)", argv[2]);
}

int main(int argc, char **argv)
{
	output_init();
	cli_argc = argc;
	cli_argv = argv;
	if (argc < 2) {
		opt_usage(&pagelab_cmd, stderr);
		return EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
		opt_usage(&pagelab_cmd, stdout);
		return 0;
	}
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
		/* One line, the version its second word; then the compressed
		 * traces it reads: "pagelab 0.21.0-g54f12eb (zstd, zlib)". */
		printf("pagelab %s (%s)\n", pagelab_version(), input_codecs());
		return 0;
	}
	if (!strcmp(cmd, "--dump-options"))
		return dump_options(argc, argv);
	for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(cmd, commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	die_usage("unknown command '%s' (try pagelab --help)", cmd);
}
