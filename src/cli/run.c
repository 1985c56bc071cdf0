/* run.c - pagelab run: parse machine options, the policy and the workloads
 * joined by '+', run the machine and report. */
#include "cli.h"
#include "run_cache.h"
#include "../workload/wlist.h"
#include "../workload/wlshare.h"
#include "../lib/share.h"
#include "../machine/machine.h"
#include "../engine/runspec.h"
#include "../native/native.h"
#include "../report/report.h"
#include "../report/html_run.h"
#include "../lib/util.h"
#include "../lib/output.h"

#include <signal.h>

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
"                      is --memcg LIMIT)\n"
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

struct setting { const char *name, *value; };

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

/* --make-inputs: pagelab kernel's walk (src/native/prepare.c) over the
 * attached generators, each input made on the simulated disk. */
static void add_inputs(struct machine *m, const struct wl_list *wl, void *const *wls, uint64_t seed)
{
	struct nworkload *nw = xcalloc((size_t)wl->n, sizeof(*nw));
	for (int w = 0; w < wl->n; w++)
		nw[w] = (struct nworkload){ .ops = wl->v[w].ops, .argc = wl->v[w].argc, .argv = wl->v[w].argv,
					    .seed = runspec_seed(seed, w), .cmd = wl->v[w].cmd };
	struct nplan plan;
	char err[512];
	if (!nplan_build(&plan, nw, wls, wl->n, true, err, sizeof(err)))
		die_usage("%s", err);
	for (int i = 0; i < plan.ninputs; i++) {
		if (!machine_add_file(m, plan.inputs[i].name, plan.inputs[i].npages))
			die_usage("run: input %s exists already", plan.inputs[i].name);
		fprintf(stderr, "pagelab: made %s, %llu pages, on the disk and uncached\n", plan.inputs[i].name,
			(unsigned long long)plan.inputs[i].npages);
	}
	nplan_free(&plan);
	free(nw);
}

int cmd_run(int argc, char **argv)
{
	const char *machine = "vmm-2008", *policy = "clock";
	struct machine_opts mo = { .seed = 1, .max_time_ns = 100000ULL * 1000000000ULL,
				   .progress = isatty(2), .spill_samples = true };
	bool json = false, full_machine = false, machine_sets = false, make_inputs = false;
	const char *html = NULL;
	uint64_t ram = 0, swap = UINT64_MAX, cpus = 0, memcg = 0;
	double ram_share = 0;          /* --ram N%: resolved once the trace is known */
	const char *disk = NULL, *ram_arg = NULL;
	struct setting *sets = NULL;
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
			sets[nsets++] = (struct setting){ name, eq + 1 };
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
		    (cpus && !strcmp(sets[s].name, "cpus")) || (memcg && !strcmp(sets[s].name, "memcg")))
			die_usage("give --%s or --set %s=, not both", sets[s].name, sets[s].name);
	const struct profile *base = profile_find(machine);
	if (!base)
		die_usage("unknown machine '%s' (see pagelab machines)", machine);
	struct profile prof = *base;
	if (ram)
		prof.ram = ram;
	mo.memcg_pages = memcg / PAGE_SIZE;   /* sized once the --set are in */
	if (swap != UINT64_MAX)
		prof.swap = swap;
	if (cpus)
		prof.cpus = cpus;
	if (disk) {
		const struct disk_params *d = disk_preset_find(disk);
		if (!d)
			die_usage("unknown disk model '%s' (see pagelab machines)", disk);
		prof.disk = *d;
	}
	char err[512];
	const struct policy_ops *pol = policy_lookup(policy, err, sizeof(err));
	if (!pol)
		die_usage("%s", err);
	double *tun = runspec_default_tunables(pol);
	bool ram_given = ram != 0;
	for (int s = 0; s < nsets; s++) {
		enum runspec_set_kind k = runspec_set(&prof, &mo, pol, tun, sets[s].name, sets[s].value, err, sizeof(err));
		if (k == RS_SET_BAD)
			die_usage("%s", err);
		machine_sets |= k == RS_SET_MACHINE && strcmp(sets[s].name, "ram") != 0;
		ram_given |= !strcmp(sets[s].name, "ram");
	}
	runspec_set_memcg(&prof, &mo, memcg ? memcg : mo.memcg_pages * PAGE_SIZE, ram_given);
	if (!runspec_memcg_ok(pol, &mo, err, sizeof(err)))
		die_usage("%s", err);

	if (pol->check_tunables && !pol->check_tunables(tun, err, sizeof(err)))
		die_usage("%s", err);

	/* Workloads, separated by '+'. */
	struct wl_list wl;
	if (!wl_list_parse(argc - i, argv + i, &wl, err, sizeof(err)))
		die_usage("%s", err);
	uint64_t share_pg;
	if (ram_share > 0 && !wl.help) {
		if (!wl_share_pages(&wl, ram_share, &share_pg, err, sizeof(err)))
			die_usage("--ram %s: %s", ram_arg, err);
		prof.ram = share_pg * PAGE_SIZE;
	}
	if (wl.help) {
		wl.help->help(stdout);
		/* Free what was parsed: leak checkers stay quiet. */
		wl_list_free(&wl);
		for (int s = 0; s < nsets; s++)
			free((char *)sets[s].name);
		free(sets);
		free(tun);
		return 0;
	}
	/* The cache-only replay: a trace alone on the ideal machine as it is
	 * (no other machine option), under a cache policy, with nothing that
	 * reads the machine's time or state (--vmstat, --check, --json, --html). */
	struct runspec_cache_q cq = {
		.machine = machine, .pol = pol, .wl_name = wl.n == 1 ? wl.v[0].ops->name : NULL,
		.full_machine = full_machine,
		.machine_options = swap != UINT64_MAX || cpus || disk || mo.memcg_pages || machine_sets,
		.observed = mo.vmstat_ns || mo.check || json || html || make_inputs,
	};
	if (runspec_cache_only(&cq)) {
		uint64_t reserve = profile_kernel_reserve(&prof);
		if (prof.ram <= reserve || (prof.ram - reserve) / PAGE_SIZE >= PFN_NONE)
			die_usage("RAM of %llu KiB: the cache-only replay takes 1 to %u pages",
				  (unsigned long long)(prof.ram / 1024), PFN_NONE - 1);
		struct run_cache_args ca = { .machine = machine, .policy = pol, .tun = tun,
					     .frames = (prof.ram - reserve) / PAGE_SIZE, .seed = mo.seed,
					     .progress = mo.progress, .argc = wl.v[0].argc, .argv = wl.v[0].argv };
		int rc = run_cache(&ca);
		wl_list_free(&wl);
		for (int s = 0; s < nsets; s++)
			free((char *)sets[s].name);
		free(sets);
		free(tun);
		return rc;
	}

	int nwl = wl.n;
	void **wls = xcalloc((size_t)nwl, sizeof(void *));
	struct runspec_wl *rw = xcalloc((size_t)nwl, sizeof(*rw));
	for (int w = 0; w < nwl; w++) {
		if (!(wls[w] = wl_spec_create(&wl.v[w], runspec_seed(mo.seed, w), err, sizeof(err))))
			die_usage("%s", err);
		rw[w] = (struct runspec_wl){ .ops = wl.v[w].ops, .w = wls[w], .cmd = wl.v[w].cmd };
	}

	/* --html wants timelines: sample as vmstat would, without printing
	 * the lines nobody asked for. */
	bool html_samples = html && !mo.vmstat_ns && !prof.untimed;
	if (html_samples)
		mo.vmstat_ns = HTML_VMSTAT_NS;
	/* With --vmstat SECONDS the lines keep their interval and the page's
	 * timelines take samples of their own, as finely as without it
	 * (--vmstat 1 on a 2 s run used to give timelines of 2 points). */
	else if (html && mo.vmstat_ns > HTML_VMSTAT_NS)
		mo.timeline_ns = HTML_VMSTAT_NS;
	struct machine m;
	struct runspec rs = { .prof = &prof, .mo = &mo, .pol = pol, .tun = tun };
	if (runspec_machine(&m, &rs, rw, nwl, NULL, err, sizeof(err)) != RS_BUILT)
		die_usage("%s", err);
	/* Opened before the run, so a path that cannot be written is refused
	 * at once (exit 2), not after hours of simulation. */
	struct atomic_file af;
	if (html && !atomic_open(&af, html, err, sizeof(err)))
		die_usage("%s", err);
	if (make_inputs)
		add_inputs(&m, &wl, wls, mo.seed);
	free(rw);
	free(wls);
	wl_list_free(&wl);
	output_catch_interrupts();
	machine_run(&m);
	if (m.timed_out)
		fprintf(stderr, "pagelab: stopped at --max-time %.9g s of simulated time; the report covers what ran until then\n",
			(double)mo.max_time_ns / 1e9);
	if (m.interrupted)
		fprintf(stderr, "pagelab: interrupted by %s; the report covers what ran until then\n",
			m.interrupted == SIGTERM ? "SIGTERM" : "SIGINT");
	struct run_info ri = { .machine = machine, .policy = pol->name, .seed = mo.seed,
			       .argc = cli_argc, .argv = cli_argv, .hide_vmstat = html_samples };
	if (json)
		report_json(&m, &ri, stdout);
	else
		report_text(&m, &ri, stdout);
	int rc = m.check_failed ? 1 : m.interrupted ? 128 + m.interrupted : m.timed_out ? EXIT_MAX_TIME : 0;
	if (html) {
		report_html(&m, &ri, af.f);
		if (!atomic_commit(&af, err, sizeof(err))) {
			fprintf(stderr, "pagelab: %s\n", err);
			rc = 1;
		}
	}
	machine_free(&m);
	for (int s = 0; s < nsets; s++)
		free((char *)sets[s].name);
	free(sets);
	free(tun);
	return rc;
}
