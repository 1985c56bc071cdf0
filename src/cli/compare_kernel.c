/* compare_kernel.c - pagelab compare [machine options] -- WORKLOAD: run a
 * workload on this host's kernel (pagelab kernel, --repeat times) and in
 * the simulator under each policy on a machine sized like the kernel run
 * (the host's CPUs, the cgroup limit as --memcg, the same swap size), and
 * print one table per policy: each counter's kernel median (min..max),
 * pagelab's value, their ratio and whether it is within the tolerance.
 *
 * Both sides are this same binary, exec'd (/proc/self/exe): the kernel
 * side is `pagelab kernel` with its lock and cleanup, the simulator side
 * `pagelab run`; both print "name value" under "# /proc/vmstat", which is
 * all compare_table.c reads. */
#define _GNU_SOURCE
#include "cli.h"
#include "compare_table.h"
#include "compare_run.h"
#include "compare_fit.h"
#include "../lib/output.h"
#include "../report/htmlpage.h"
#include "../lib/util.h"
#include "../lib/version.h"
#include "../native/native.h"
#include "../policy/policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void compare_kernel_usage(FILE *out)
{
	fputs(
"usage: pagelab compare [OPTIONS] -- WORKLOAD [ARGS]\n"
"Run WORKLOAD on this host's kernel (pagelab kernel, in a memory cgroup and\n"
"with a swapfile of its own; needs root) and in the simulator on a machine\n"
"sized like it, and print per policy: counter, kernel median (min..max over\n"
"the runs), pagelab's value, pagelab/kernel and whether it is within +-T%.\n"
"\n"
"  --memcg LIMIT      the cgroup limit on both sides (default 512M)\n"
"  --swap SIZE        swapfile / simulated swap (default 512M)\n"
"  --policy P[,P...]  simulator policies (default workingset); a path\n"
"                     (./lifo.so) is a policy plugin\n"
"  --repeat N         kernel runs (default 3); the simulator is deterministic\n"
"  --seeds N          simulator runs per policy, seeds SEED..SEED+N-1; pagelab\n"
"                     shows their median, which agrees also when it lies in\n"
"                     the kernel's min..max (default 1); with 2 or more\n"
"                     runs and seeds, a column p says whether the runs and\n"
"                     the seeds differ by more than their spread (exact\n"
"                     Mann-Whitney U up to 20 in all, else Welch's t-test)\n"
"  --tolerance T      percent (default 25)\n"
"  --floor N          a counter under N on both sides agrees (default 0)\n"
"  --jobs N           simulator runs at once (default 1; same output)\n"
"  --html FILE        also write the tables as a self-contained HTML page,\n"
"                     with a chart of each policy's ratios\n"
"  --seed N           the workload's seed on both sides (default 1)\n"
"  --timeout T        seconds per kernel run (default 600)\n"
"  --fit-cpu LIMIT    first fit the simulated CPU to this host's on the same\n"
"                     workload in a cgroup of LIMIT, where it runs without\n"
"                     pressure (the kernel --repeat times, the first policy\n"
"                     once): cost.ref scaled by the ratio of the user times,\n"
"                     every other cost but cost.syscall by that of the system\n"
"                     times; a cost given with --set is kept\n"
"  --kernel-cache DIR keep each kernel run's report in DIR/kernel.N and reuse\n"
"                     it while the kernel command and the executor's\n"
"                     revision are the same (so the simulator side can be\n"
"                     rerun alone)\n"
"  --sim-cache DIR    the same for the simulator's runs, keyed by their whole\n"
"                     command and pagelab's version (a -dirty build's version\n"
"                     does not change with its edits: do not use it there)\n"
"  --machine NAME     simulated profile (default modern)\n"
"  --cpus N           simulated CPUs (default: the host's)\n"
"  --ram SIZE         simulated RAM (default LIMIT * 5/4 + 64M: room beside\n"
"                     the cgroup, as on the host)\n"
"  --disk MODEL       simulated disk (default: the profile's)\n"
"  --set NAME=VALUE   passed to pagelab run; set by themselves unless given:\n"
"                     memcg.v1=1 when the host's memory controller is\n"
"                     cgroup v1, sched_eevdf=1 when the host runs 6.6 or\n"
"                     later (EEVDF), vm.swap_rotational=1 when the swapfile's\n"
"                     device is rotational (slot-cluster swap readahead),\n"
"                     vm.ra_pages=KB/4 when its read_ahead_kb is not 128,\n"
"                     cost.tlb_ipi and cost.tlb_ipi_recv measured on the\n"
"                     host with two or more CPUs (pagelab kernel --tlb-cost;\n"
"                     once per --kernel-cache, kept there as tlb_cost)\n"
"\n"
"A file that dd reads and no earlier workload writes is made first, uncached,\n"
"as large as it is read, on both sides (pagelab run --make-inputs).\n"
"The kernel side's counters are the host's /proc/vmstat, except those the\n"
"cgroup's memory.stat has in every run, and pgactivate/pgdeactivate from\n"
"the tracepoints of the cgroup's own reclaim (docs/native.md) when every\n"
"run traced them.\n"
"Counters marked 'not counted' are ones the kernel does not count under\n"
"cgroup limit reclaim; they are shown, not compared.  Exit status: 0; 1 if\n"
"a kernel run failed; 2 on bad input or when the kernel side refuses (no\n"
"root, no memory cgroup).  docs/fidelity.md has the method and results.\n",
	      out);
}

/* What a remote TLB flush costs on this host (src/native/tlbprobe.c), as
 * the two --set values for the simulator, measured once per kernel cache:
 * kept in DIR/tlb_cost (those values) beside the kernel runs, so that a
 * rerun with the cache simulates the same machine (the measurement moves
 * by a fifth between two tries).  false: nothing to measure (one CPU,
 * not x86). */
static bool host_tlb_cost(const char *cache, char args[2][48])
{
	char path[4096], why[256];
	unsigned long long s, r;
	FILE *f = NULL;
	if (cache) {
		snprintf(path, sizeof(path), "%s/tlb_cost", cache);
		f = fopen(path, "r");
	}
	int n = f ? fscanf(f, "cost.tlb_ipi=%lluns cost.tlb_ipi_recv=%lluns", &s, &r) : 0;
	if (f)
		fclose(f);
	if (n != 2) {
		uint64_t send, recv;
		if (!nhost_tlb_ipi_cost(&send, &recv, why, sizeof(why)))
			return false;
		s = send;
		r = recv;
	}
	snprintf(args[0], 48, "cost.tlb_ipi=%lluns", s);
	snprintf(args[1], 48, "cost.tlb_ipi_recv=%lluns", r);
	struct atomic_file af;
	if (n != 2 && cache && atomic_open(&af, path, why, sizeof(why))) {
		fprintf(af.f, "%s %s\n", args[0], args[1]);
		atomic_commit(&af, why, sizeof(why)); /* a cache: not kept is no error */
	}
	return true;
}

/* Every name in the comma-separated list is a policy that can run under
 * --memcg (checked before anything runs). */
static char *const *pols_check(const char *list)
{
	char *l = xstrdup(list), *save = NULL;
	for (char *p = strtok_r(l, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		char err[300];
		const struct policy_ops *ops = policy_lookup(p, err, sizeof(err));
		if (!ops)
			die_usage("compare: %s", err);
		if (ops->flags & (POLICY_NO_MEMCG | POLICY_NEEDS_ORACLE))
			die_usage("compare: policy %s cannot run under --memcg", p);
	}
	free(l);
	return NULL;
}

/* Whether workload argument w is a file that a dd reads and no earlier
 * workload writes: pagelab kernel makes such a file before the run,
 * uncached, and so does the simulator with --make-inputs. */
static bool reads_input(char **wl, int w)
{
	if (strncmp(wl[w], "if=", 3) || !strncmp(wl[w], "if=/dev/", 8))
		return false;
	int start = w;
	while (start > 0 && strcmp(wl[start - 1], "+"))
		start--;
	if (strcmp(wl[start], "dd"))
		return false;
	for (int i = 0; i < w; i++)
		if (!strncmp(wl[i], "of=", 3) && !strcmp(wl[i] + 3, wl[w] + 3))
			return false;
	return true;
}

int cmd_compare_kernel(int argc, char **argv)
{
	const char *machine = "modern", *policies = "workingset", *disk = NULL;
	const char *memcg = "512M", *swap = "512M", *seed = "1", *timeout = "600", *cache = NULL;
	const char *sim_cache = NULL, *html = NULL, *fit_limit = NULL;
	uint64_t repeat = 3, cpus = 0, ram = 0, limit = 0, seeds = 1, seed0 = 1, jobs = 1;
	double tol = 25, floor_pages = 0;
	struct argv_buf sets = { 0 };
	int i;
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			compare_kernel_usage(stdout);
			argv_free(&sets);
			return 0;
		}
		if (!v || !strcmp(v, "--"))
			die_usage("compare: option %s needs a value", a);
		i++;
		uint64_t b;
		if (!strcmp(a, "--memcg") || !strcmp(a, "--swap") || !strcmp(a, "--ram")) {
			if (!parse_size(v, &b) || b > (1ULL << 50))
				die_usage("compare: bad size '%s' for %s", v, a);
			if (a[2] == 'm')
				memcg = v;
			else if (a[2] == 's')
				swap = v;
			else
				ram = b;
		} else if (!strcmp(a, "--fit-cpu")) {
			if (!parse_size(v, &b) || !b || b > (1ULL << 50))
				die_usage("compare: bad size '%s' for --fit-cpu", v);
			fit_limit = v;
		} else if (!strcmp(a, "--policy")) {
			policies = v;
		} else if (!strcmp(a, "--html")) {
			html = v;
		} else if (!strcmp(a, "--repeat")) {
			if (!parse_u64(v, &repeat) || !repeat || repeat > 100)
				die_usage("compare: bad --repeat '%s' (1..100)", v);
		} else if (!strcmp(a, "--seeds")) {
			if (!parse_u64(v, &seeds) || !seeds || seeds > 100)
				die_usage("compare: bad --seeds '%s' (1..100)", v);
		} else if (!strcmp(a, "--jobs")) {
			if (!parse_u64(v, &jobs) || !jobs || jobs > 64)
				die_usage("compare: bad --jobs '%s' (1..64)", v);
		} else if (!strcmp(a, "--floor")) {
			if (!parse_double(v, &floor_pages) || floor_pages < 0)
				die_usage("compare: bad --floor '%s'", v);
		} else if (!strcmp(a, "--kernel-cache") || !strcmp(a, "--sim-cache")) {
			struct stat st;
			if (stat(v, &st) || !S_ISDIR(st.st_mode))
				die_usage("compare: %s %s is not a directory", a, v);
			if (a[2] == 'k')
				cache = v;
			else
				sim_cache = v;
		} else if (!strcmp(a, "--tolerance")) {
			if (!parse_double(v, &tol) || tol < 0 || tol > 1000)
				die_usage("compare: bad --tolerance '%s' (percent, 0..1000)", v);
		} else if (!strcmp(a, "--seed")) {
			if (!parse_u64(v, &seed0) || seed0 > UINT64_MAX - 100)
				die_usage("compare: bad --seed '%s'", v);
			seed = v;
		} else if (!strcmp(a, "--timeout")) {
			if (!parse_duration_ns(v, &b) || !b)
				die_usage("compare: bad --timeout '%s'", v);
			timeout = v;
		} else if (!strcmp(a, "--machine")) {
			machine = v;
		} else if (!strcmp(a, "--cpus")) {
			if (!parse_u64(v, &cpus) || !cpus || cpus > 1024)
				die_usage("compare: bad --cpus '%s' (1..1024)", v);
		} else if (!strcmp(a, "--disk")) {
			disk = v;
		} else if (!strcmp(a, "--set")) {
			argv_push(&sets, v);
		} else {
			die_usage("compare: unknown option '%s' (see pagelab compare --help)", a);
		}
	}
	if (i + 1 >= argc)
		die_usage("compare: no workload after '--' (see pagelab compare --help)");
	char **wl = argv + i + 1;
	int nwl = argc - i - 1;
	if (!parse_size(memcg, &limit))
		die_usage("compare: bad --memcg '%s'", memcg);
	if (!cpus) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		cpus = n > 0 ? (uint64_t)n : 1;
	}
	if (!ram)
		ram = limit + limit / 4 + (64ULL << 20);
	for (char *const *pp = pols_check(policies); pp && *pp; pp++)
		;
	if (!workload_find(wl[0]))
		die_usage("compare: unknown workload '%s' (see pagelab workloads)", wl[0]);
	/* The simulated host runs as the host does: a cgroup of the host's
	 * kind (v1 reclaim waits on writeback, src/mm/memcg.c) and, on 6.6
	 * or later, EEVDF's pick order (src/machine/sched.c), and with the
	 * swapfile's device rotational, slot-cluster swap readahead where a
	 * solid-state one would read around the faulting address
	 * (src/mm/swapin.c), and files read ahead in windows of the
	 * device's read_ahead_kb (bdi->ra_pages), and what a remote TLB
	 * flush costs on it (src/native/tlbprobe.c: reclaim's IPIs before it
	 * writes a mapped page).  A --set of any wins. */
	bool v1_set = false, eevdf_set = false, rot_set = false, ra_set = false, tlb_set = false;
	for (int s = 0; s < sets.n; s++) {
		v1_set |= !strncmp(sets.v[s], "memcg.v1=", 9);
		eevdf_set |= !strncmp(sets.v[s], "sched_eevdf=", 12);
		rot_set |= !strncmp(sets.v[s], "vm.swap_rotational=", 19);
		ra_set |= !strncmp(sets.v[s], "vm.ra_pages=", 12);
		tlb_set |= !strncmp(sets.v[s], "cost.tlb_ipi", 12);
	}
	struct ncgroup cg;
	char cgerr[256];
	if (!v1_set && ncg_detect(&cg, cgerr, sizeof(cgerr)) && cg.version == 1)
		argv_push(&sets, "memcg.v1=1");
	if (!eevdf_set && nhost_kernel_at_least(6, 6))
		argv_push(&sets, "sched_eevdf=1");
	if (!rot_set && nhost_swap_rotational())
		argv_push(&sets, "vm.swap_rotational=1");
	long ra_kb = ra_set ? -1 : nhost_read_ahead_kb();
	if (ra_kb >= 0 && ra_kb != 128 && ra_kb / 4 <= 65536) {
		char ra_arg[48];
		snprintf(ra_arg, sizeof(ra_arg), "vm.ra_pages=%ld", ra_kb / 4);
		argv_push(&sets, ra_arg);
	}
	char tlb_args[2][48];
	if (!tlb_set && cpus > 1 && host_tlb_cost(cache, tlb_args)) {
		argv_push(&sets, tlb_args[0]);
		argv_push(&sets, tlb_args[1]);
	}
	/* A page that cannot be written is refused now, not after the runs
	 * (which may die on the way: the page is opened only at the end). */
	struct atomic_file af;
	if (html) {
		if (!atomic_open(&af, html, cgerr, sizeof(cgerr)))
			die_usage("compare: %s", cgerr);
		atomic_abort(&af);
	}
	bool progress = isatty(2);
	char num[32], ramb[32];
	snprintf(ramb, sizeof(ramb), "%llu", (unsigned long long)ram);
	const char **swl = xcalloc((size_t)nwl + 1, sizeof(*swl));
	int nswl = 0;
	for (int w = 0; w < nwl && !nswl; w++)
		if (reads_input(wl, w))
			swl[nswl++] = "--make-inputs";
	for (int w = 0; w < nwl; w++)
		swl[nswl++] = wl[w];
	char fit_note[512] = "";
	if (fit_limit) {
		uint64_t fl = 0;
		parse_size(fit_limit, &fl);
		char *first = xstrdup(policies);
		first[strcspn(first, ",")] = 0;
		struct fit_cpu_req q = { .limit = fit_limit, .swap = swap, .seed = seed, .timeout = timeout,
					 .machine = machine, .disk = disk, .policy = first, .repeat = repeat,
					 .cpus = cpus, .ram = fl + fl / 4 + (64ULL << 20), .sets = &sets, .kwl = wl,
					 .swl = swl, .nwl = nwl, .nswl = nswl, .kernel_cache = cache, .sim_cache = sim_cache,
					 .progress = progress };
		struct argv_buf fitted = { 0 };
		compare_fit_cpu(&q, &fitted, fit_note, sizeof(fit_note));
		for (int f = 0; f < fitted.n; f++)
			argv_push(&sets, fitted.v[f]);
		argv_free(&fitted);
		free(first);
	}

	/* The simulator first: bad input shows before minutes of kernel runs. */
	int npol = 0;
	char *pols = xstrdup(policies), *save = NULL;
	char *pol[32];
	for (char *p = strtok_r(pols, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (npol == 32)
			die_usage("compare: at most 32 policies");
		pol[npol++] = p;
	}
	if (!npol)
		die_usage("compare: --policy names no policy");
	size_t nsim = (size_t)npol * seeds;
	struct counters *sim = xcalloc(nsim, sizeof(*sim));
	struct sim_run { pid_t pid; FILE *out, *err; char *key; char path[4096]; } *run = xcalloc(nsim, sizeof(*run));
	char msg[512];
	/* Up to --jobs simulator runs at once, collected in order: the
	 * results do not depend on which finishes first. */
	size_t done = 0;
	for (size_t k = 0; k <= nsim; k++) {
		while (done < k && (k == nsim || k - done >= jobs)) {
			struct sim_run *r = &run[done];
			int p = (int)(done / seeds);
			if (r->pid) {
				if (wait_self(r->pid, r->out, r->err)) {
					first_line(r->err, msg, sizeof(msg));
					die_usage("compare: simulator (%s): %s", pol[p], msg);
				}
				if (r->key)
					cache_store(r->path, r->key, r->out);
				counters_parse(&sim[done], r->out, false);
				fclose(r->out);
				fclose(r->err);
			}
			free(r->key);
			done++;
		}
		if (k == nsim)
			break;
		int p = (int)(k / seeds);
		uint64_t sd = k % seeds;
		struct argv_buf a = { 0 };
		argv_push(&a, "pagelab");
		argv_push(&a, "run");
		argv_push(&a, "--machine"); argv_push(&a, machine);
		snprintf(num, sizeof(num), "%llu", (unsigned long long)cpus);
		argv_push(&a, "--cpus"); argv_push(&a, num);
		argv_push(&a, "--ram"); argv_push(&a, ramb);
		argv_push(&a, "--swap"); argv_push(&a, swap);
		argv_push(&a, "--memcg"); argv_push(&a, memcg);
		if (disk) {
			argv_push(&a, "--disk"); argv_push(&a, disk);
		}
		for (int s = 0; s < sets.n; s++) {
			argv_push(&a, "--set"); argv_push(&a, sets.v[s]);
		}
		argv_push(&a, "--policy"); argv_push(&a, pol[p]);
		snprintf(num, sizeof(num), "%llu", (unsigned long long)(seed0 + sd));
		argv_push(&a, "--seed"); argv_push(&a, num);
		argv_push(&a, "--no-progress");
		for (int w = 0; w < nswl; w++)
			argv_push(&a, swl[w]);
		if (sim_cache) {
			char *cmd = join_words(a.n, a.v);
			const char *ver = pagelab_version();
			run[k].key = xmalloc(strlen(cmd) + strlen(ver) + 8);
			sprintf(run[k].key, "%s (%s)\n", cmd, ver);
			free(cmd);
			snprintf(run[k].path, sizeof(run[k].path), "%s/sim.%016llx", sim_cache,
				 (unsigned long long)fnv1a64(run[k].key));
			if (cache_load(run[k].path, run[k].key, &sim[k], false)) {
				argv_free(&a);
				continue;
			}
		}
		if (progress)
			fprintf(stderr, "compare: pagelab run --policy %s --seed %s...\n", pol[p], num);
		run[k].pid = spawn_self(a.v, &run[k].out, &run[k].err);
		argv_free(&a);
	}
	free(run);

	struct counters *kern = xcalloc(repeat, sizeof(*kern));
	uint64_t cached = 0, warmed = 0;
	const struct kernel_cmd kc = { .memcg = memcg, .swap = swap, .seed = seed, .timeout = timeout, .tag = "",
				       .wl = wl, .nwl = nwl };
	for (uint64_t r = 0; r < repeat; r++) {
		bool hit;
		FILE *f = kernel_report(&kc, cache, "kernel", r, repeat, progress, &hit);
		cached += hit;
		warmed += report_warmed(f);
		counters_parse(&kern[r], f, true);
		fclose(f);
	}

	char *cmd = join_words(nwl, wl);
	char *setlist = join_words(sets.n, sets.v);
	struct kcmp_setup setup = { .memcg = memcg, .swap = swap, .machine = machine, .sets = setlist, .repeat = repeat,
				    .cached = cached, .warmed = warmed, .cpus = cpus, .seeds = seeds, .seed0 = seed0, .tol = tol,
				    .floor = floor_pages, .fit = fit_note };
	struct kcmp x;
	kcmp_build(&x, kern, sim, npol, (const char *const *)pol, &setup);
	kcmp_print(&x, &setup, cmd);
	int rc = 0;
	if (html && !atomic_open(&af, html, cgerr, sizeof(cgerr))) {
		fprintf(stderr, "pagelab: compare: %s\n", cgerr);
		rc = 1;
	} else if (html) {
		char date[64], *cmdline = html_cmdline(argc, argv);
		html_date(date, sizeof(date));
		struct html_provenance pv = { .version = pagelab_version(), .cmdline = cmdline, .date = date };
		kcmp_html(af.f, &x, &setup, cmd, &pv);
		free(cmdline);
		if (!atomic_commit(&af, cgerr, sizeof(cgerr))) {
			fprintf(stderr, "pagelab: %s\n", cgerr);
			rc = 1;
		}
	}
	kcmp_free(&x);
	free(cmd);
	for (uint64_t k = 0; k < (uint64_t)npol * seeds; k++)
		counters_free(&sim[k]);
	for (uint64_t r = 0; r < repeat; r++)
		counters_free(&kern[r]);
	free(sim);
	free(kern);
	free(swl);
	free(pols);
	argv_free(&sets);
	free(setlist);
	return rc;
}
