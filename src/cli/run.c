/* run.c - pagelab run: parse the options into a run spec (run_spec.c,
 * src/engine/runspec.h), run it and report. */
#include "cli.h"
#include "run_spec.h"
#include "../lib/share.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void run_usage(FILE *out)
{
	fputs(
"usage: pagelab run [OPTIONS] WORKLOAD [ARGS] [+ WORKLOAD [ARGS]]...\n"
"Run workloads together on one simulated machine under a reclaim policy.\n"
"\n"
"Machine:\n"
"  --machine NAME      profile (default vmm-2008; see pagelab machines)\n"
"  --ram SIZE          physical memory (K/M/G/T suffixes are powers of 1024;\n"
"                      a 'p' suffix counts 4 KiB pages); N% with a trace\n"
"                      replay alone: N% of the trace's distinct pages\n"
"                      (10%, 0.5%; 0 < N <= 100), the pages counted first\n"
"  --swap SIZE         swap space\n"
"  --cpus N            number of CPUs\n"
"  --disk MODEL        disk model (see pagelab machines)\n"
"  --set NAME=VALUE    any machine parameter or policy tunable (memcg=LIMIT\n"
"                      is --memcg LIMIT; disk=, vmstat=, make-inputs=1 are\n"
"                      --disk, --vmstat, --make-inputs; start.K=SECONDS:\n"
"                      workload K, from 0, starts SECONDS into the run;\n"
"                      residency=K: --json's vmstat samples give workload\n"
"                      K's resident set, resident_kb)\n"
"  --memcg LIMIT       run the workloads in one memory cgroup of LIMIT bytes:\n"
"                      limit reclaim by the charging task, no kswapd\n"
"                      (--ram defaults to at least LIMIT * 5/4 + 64M;\n"
"                      --set memcg.v1=1: cgroup v1, reclaim waits on\n"
"                      writeback); prints memory.stat\n"
"Policy and run:\n"
"  --policy NAME       reclaim policy (default clock; see pagelab policies);\n"
"                      a path (./lifo.so) loads a policy plugin\n"
"  --seed N            random seed (default 1); same inputs, same output\n"
"  --vmstat [-a] SECONDS  print a vmstat line every SECONDS of simulated time\n"
"                      (-a: inact/active columns, as vmstat -a)\n"
"  --check             verify the mm invariants after every step (slow)\n"
"  --json              print everything as one JSON object\n"
"  --html FILE         also write the run as a self-contained HTML page:\n"
"                      time figures, timelines (sampled every 0.05 s, or at\n"
"                      a shorter --vmstat), OOM kill and --max-time markers,\n"
"                      counters; FILE is replaced only when complete\n"
"  --max-time SECONDS  stop after this much simulated time (default 100000)\n"
"  --progress / --no-progress  progress on stderr (default: on a terminal)\n"
"  --make-inputs       make each file a workload opens and none creates (dd\n"
"                      if=FILE), as large as the workloads read it, on the\n"
"                      disk and uncached, before the run: what pagelab kernel\n"
"                      does (without it, such a file is bad input)\n"
"  --full-machine      replay a trace on the whole machine even where the\n"
"                      cache-only replay would do (--machine ideal with only\n"
"                      --ram, --policy of a cache policy and its --set, and\n"
"                      one trace workload: docs/trace-format.md)\n"
"\n"
"Exit status: 0 on success; 1 if --check found a broken invariant or the\n"
"output could not be written; 2 on bad input; 3 if the run was stopped at\n"
"--max-time (the report covers what ran until then); 130 / 143 if it was\n"
"interrupted by SIGINT / SIGTERM (the report is still printed).\n", out);
}

/* Set by main(); see cli.h.  Here, not in main.c, so that the harnesses
 * linking the commands without main() have them. */
int cli_argc;
char **cli_argv;

static const char *need_arg(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		die_usage("option %s needs a value", argv[*i]);
	return argv[++*i];
}

static uint64_t size_arg(const char *opt, const char *v)
{
	uint64_t b;
	if (!parse_size(v, &b))
		die_usage("bad size '%s' for %s%s", v, opt,
			  strchr(v, '%') && !strcmp(opt, "--ram") ? " (a share of a trace's pages is N%, 0 < N <= 100)" : "");
	if (b > (1ULL << 50))
		die_usage("%s %s is more than 1P (1024T), the most pagelab takes", opt, v);
	return b;
}

int cmd_run(int argc, char **argv)
{
	const char *machine = "vmm-2008", *policy = "clock";
	struct machine_opts mo = { .seed = 1, .max_time_ns = 100000ULL * 1000000000ULL,
				   .progress = isatty(2), .spill_samples = true };
	bool json = false, full_machine = false, make_inputs = false;
	const char *html = NULL;
	uint64_t ram = 0, swap = UINT64_MAX, cpus = 0, memcg = 0;
	double ram_share = 0;          /* --ram N%: resolved once the trace is known */
	const char *disk = NULL, *ram_arg = NULL;
	struct run_set *sets = NULL;
	int nsets = 0, i;
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			run_usage(stdout);
			return 0;
		} else if (!strcmp(a, "--machine")) {
			machine = need_arg(argc, argv, &i);
		} else if (!strcmp(a, "--policy")) {
			policy = need_arg(argc, argv, &i);
		} else if (!strcmp(a, "--ram")) {
			ram_arg = need_arg(argc, argv, &i);
			ram = parse_share(ram_arg, &ram_share) ? 1 : size_arg(a, ram_arg);
			if (!ram)
				die_usage("--ram 0: a machine needs memory");
		} else if (!strcmp(a, "--swap")) {
			swap = size_arg(a, need_arg(argc, argv, &i));
		} else if (!strcmp(a, "--cpus")) {
			const char *v = need_arg(argc, argv, &i);
			if (!parse_u64(v, &cpus) || !cpus || cpus > 1024)
				die_usage("bad --cpus '%s' (1..1024)", v);
		} else if (!strcmp(a, "--disk")) {
			disk = need_arg(argc, argv, &i);
		} else if (!strcmp(a, "--set")) {
			const char *v = need_arg(argc, argv, &i);
			const char *eq = strchr(v, '=');
			if (!eq || eq == v)
				die_usage("--set wants NAME=VALUE, got '%s'", v);
			sets = xrealloc(sets, (nsets + 1) * sizeof(*sets));
			char *name = xstrdup(v);
			name[eq - v] = 0;
			sets[nsets++] = (struct run_set){ name, eq + 1 };
		} else if (!strcmp(a, "--memcg")) {
			memcg = size_arg(a, need_arg(argc, argv, &i));
			if (memcg < RUNSPEC_MIN_MEMCG)
				die_usage("--memcg %s: a cgroup needs at least 16 pages", argv[i]);
		} else if (!strcmp(a, "--seed")) {
			const char *v = need_arg(argc, argv, &i);
			if (!parse_u64(v, &mo.seed))
				die_usage("bad --seed '%s'", v);
		} else if (!strcmp(a, "--vmstat")) {
			if (i + 1 < argc && !strcmp(argv[i + 1], "-a")) {
				mo.vmstat_active = true;  /* vmstat -a */
				i++;
			}
			const char *v = need_arg(argc, argv, &i);
			if (!parse_duration_ns(v, &mo.vmstat_ns) || mo.vmstat_ns < 1000000)
				die_usage("bad --vmstat '%s' (seconds, at least 0.001)", v);
		} else if (!strcmp(a, "--max-time")) {
			const char *v = need_arg(argc, argv, &i);
			if (!parse_duration_ns(v, &mo.max_time_ns) || !mo.max_time_ns)
				die_usage("bad --max-time '%s'", v);
		} else if (!strcmp(a, "--check")) {
			mo.check = true;
		} else if (!strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--html")) {
			html = need_arg(argc, argv, &i);
		} else if (!strcmp(a, "--progress")) {
			mo.progress = true;
		} else if (!strcmp(a, "--no-progress")) {
			mo.progress = false;
		} else if (!strcmp(a, "--full-machine")) {
			full_machine = true;
		} else if (!strcmp(a, "--make-inputs")) {
			make_inputs = true;
		} else {
			die_usage("unknown option '%s' (see pagelab run --help)", a);
		}
	}
	if (i >= argc)
		die_usage("run: no workload given (see pagelab workloads)");

	/* --ram and --set ram= (and swap, cpus) say the same thing: one of
	 * them, or which wins would depend on an order nobody sees. */
	for (int s = 0; s < nsets; s++)
		if ((ram && !strcmp(sets[s].name, "ram")) || (swap != UINT64_MAX && !strcmp(sets[s].name, "swap")) ||
		    (cpus && !strcmp(sets[s].name, "cpus")) || (memcg && !strcmp(sets[s].name, "memcg")) ||
		    (disk && !strcmp(sets[s].name, "disk")) || (mo.vmstat_ns && !strcmp(sets[s].name, "vmstat")) ||
		    (make_inputs && !strcmp(sets[s].name, "make-inputs")))
			die_usage("give --%s or --set %s=, not both", sets[s].name, sets[s].name);
	struct runspec spec;
	struct run_opts ro = { .machine = machine, .policy = policy, .mo = &mo, .ram = ram, .swap = swap,
			       .cpus = cpus, .memcg = memcg, .disk = disk, .sets = sets, .nsets = nsets };
	const char *err = run_spec(&spec, &ro);
	for (int s = 0; s < nsets; s++)
		free((char *)sets[s].name);
	free(sets);
	if (err)
		die_usage("%s", err);
	struct run_out out = { .machine = machine, .ram_arg = ram_arg, .ram_share = ram_share,
			       .machine_options = swap != UINT64_MAX || cpus || disk || ro.machine_sets,
			       .full_machine = full_machine, .json = json, .html = html, .make_inputs = make_inputs };
	return run_workloads(&spec, &out, argc - i, argv + i);
}
