/* compare_kernel.c - pagelab compare [machine options] -- WORKLOAD: the
 * options into a kcompare (src/engine/kcompare.h), whose two sides run as
 * sweeps (the host kernel's executor and the simulator's) and whose table
 * is drawn from their records. */
#define _GNU_SOURCE
#include "cli.h"
#include "../engine/kcompare.h"
#include "../lib/output.h"
#include "../lib/util.h"
#include "../lib/version.h"
#include "../policy/policy.h"
#include "../report/htmlpage.h"
#include "../workload/wlist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void compare_kernel_usage(FILE *out)
{
	fputs(
"usage: pagelab compare [OPTIONS] -- WORKLOAD [ARGS]\n"
"Run WORKLOAD on this host's kernel (pagelab kernel, in a memory cgroup and\n"
"with a swapfile of its own; needs root) and in the simulator on a machine\n"
"sized like it, and print per policy: counter, kernel median (min..max over\n"
"the runs), pagelab's value, pagelab/kernel and whether it is within +-T% of\n"
"the kernel's median.  Both sides are one sweep (pagelab sweep --executor\n"
"kernel for the kernel's runs); docs/fidelity.md has the statistics rule.\n"
"\n"
"  --memcg LIMIT      the cgroup limit on both sides (default 512M)\n"
"  --swap SIZE        swapfile / simulated swap (default 512M)\n"
"  --policy P[,P...]  simulator policies (default workingset); a path\n"
"                     (./lifo.so) is a policy plugin\n"
"  --repeat N         kernel runs (default 3); the simulator is deterministic\n"
"  --seeds N          simulator runs per policy, seeds SEED..SEED+N-1; pagelab\n"
"                     shows their median (default 1); with 2 or more runs\n"
"                     and seeds, a column p says whether the runs and the\n"
"                     seeds differ by more than their spread, apart from\n"
"                     the verdict (exact Mann-Whitney U below 5 a side,\n"
"                     else Welch's t-test: pagelab compare RESULTS' rule)\n"
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
"  --fit-profile FILE with --fit-cpu: write the fitted costs to FILE as a\n"
"                     machine profile (--machine FILE; docs/cost.md)\n"
"  --kernel-cache DIR keep the kernel runs' records in DIR/kernel.jsonl and\n"
"                     resume from it: a run whose command (with the\n"
"                     executor's revision) is there is not run again (so\n"
"                     the simulator side can be rerun alone)\n"
"  --sim-cache DIR    the same for the simulator's runs, in\n"
"                     DIR/sim-VERSION.jsonl (a -dirty build's version does\n"
"                     not change with its edits: do not use it there)\n"
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
"A file that a workload reads and no earlier workload writes (dd if=FILE,\n"
"fileio's) is made first, uncached, as large as it is read, on both sides\n"
"(pagelab run --make-inputs).\n"
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

/* Every name in the comma-separated list is a policy that can run under
 * --memcg (checked before anything runs): how many, their names in pol[]
 * pointing into *names (to free). */
static int pols_check(const char *list, const char **pol, int max, char **names)
{
	int n = 0;
	char *l = *names = xstrdup(list), *save = NULL;
	for (char *p = strtok_r(l, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		char err[300];
		const struct policy_ops *ops = policy_lookup(p, err, sizeof(err));
		if (!ops)
			die_usage("compare: %s", err);
		if (ops->flags & (POLICY_NO_MEMCG | POLICY_NEEDS_ORACLE))
			die_usage("compare: policy %s cannot run under --memcg", p);
		if (n == max)
			die_usage("compare: at most %d policies", max);
		pol[n++] = p;
	}
	if (!n)
		die_usage("compare: --policy names no policy");
	return n;
}

/* What the options give beside the kcompare. */
struct copts {
	const char *html, *fit, *fit_profile;
	double tol, floor;
};

static uint64_t num_opt(const char *a, const char *v, uint64_t lo, uint64_t hi)
{
	uint64_t n;
	if (!parse_u64(v, &n) || n < lo || n > hi)
		die_usage("compare: bad %s '%s' (%llu..%llu)", a, v, (unsigned long long)lo, (unsigned long long)hi);
	return n;
}

static const char *size_opt(const char *a, const char *v, uint64_t *b)
{
	if (!parse_size(v, b) || *b > (1ULL << 50) || (!*b && !strcmp(a, "--fit-cpu")))
		die_usage("compare: bad size '%s' for %s", v, a);
	return v;
}

static const char *dir_opt(const char *a, const char *v)
{
	struct stat st;
	if (stat(v, &st) || !S_ISDIR(st.st_mode))
		die_usage("compare: %s %s is not a directory", a, v);
	return v;
}

/* --fit-profile FILE: the fitted costs as a profile (kcompare_fit_profile.c). */
static void write_fit_profile(const struct kcompare *k, const struct kfit *fit, const char *path)
{
	struct atomic_file af;
	char err[600];
	if (!atomic_open(&af, path, err, sizeof(err)))
		die_usage("compare: %s", err);
	if (!kcompare_fit_profile(k, fit, af.f, err, sizeof(err))) {
		atomic_abort(&af);
		die_usage("compare: %s", err);
	}
	if (!atomic_commit(&af, err, sizeof(err))) {
		fprintf(stderr, "pagelab: compare: %s\n", err);
		exit(1);
	}
}

/* One option and its value; false if a is none of compare's. */
static bool option(struct kcompare *k, struct copts *o, const char *a, const char *v)
{
	uint64_t b;
	if (!strcmp(a, "--memcg"))
		k->memcg = size_opt(a, v, &b);
	else if (!strcmp(a, "--swap"))
		k->swap = size_opt(a, v, &b);
	else if (!strcmp(a, "--ram"))
		size_opt(a, v, &k->ram);
	else if (!strcmp(a, "--fit-cpu"))
		o->fit = size_opt(a, v, &b);
	else if (!strcmp(a, "--fit-profile"))
		o->fit_profile = v;
	else if (!strcmp(a, "--policy"))
		k->policies = v;
	else if (!strcmp(a, "--html"))
		o->html = v;
	else if (!strcmp(a, "--repeat"))
		k->repeat = num_opt(a, v, 1, 100);
	else if (!strcmp(a, "--seeds"))
		k->seeds = num_opt(a, v, 1, 100);
	else if (!strcmp(a, "--jobs"))
		k->jobs = (int)num_opt(a, v, 1, 64);
	else if (!strcmp(a, "--cpus"))
		k->cpus = num_opt(a, v, 1, 1024);
	else if (!strcmp(a, "--seed"))
		k->seed0 = num_opt(a, v, 0, UINT64_MAX - 100);
	else if (!strcmp(a, "--floor") && (!parse_double(v, &o->floor) || o->floor < 0))
		die_usage("compare: bad --floor '%s'", v);
	else if (!strcmp(a, "--tolerance") && (!parse_double(v, &o->tol) || o->tol < 0 || o->tol > 1000))
		die_usage("compare: bad --tolerance '%s' (percent, 0..1000)", v);
	else if (!strcmp(a, "--timeout") && (!parse_duration_ns(v, &k->timeout_ns) || !k->timeout_ns))
		die_usage("compare: bad --timeout '%s'", v);
	else if (!strcmp(a, "--kernel-cache"))
		k->kernel_cache = dir_opt(a, v);
	else if (!strcmp(a, "--sim-cache"))
		k->sim_cache = dir_opt(a, v);
	else if (!strcmp(a, "--machine"))
		k->machine = v;
	else if (!strcmp(a, "--disk"))
		k->disk = v;
	else if (!strcmp(a, "--set"))
		kcompare_add_set(k, v);
	else
		return !strcmp(a, "--floor") || !strcmp(a, "--tolerance") || !strcmp(a, "--timeout");
	return true;
}

/* The options up to "--", then the workloads after it: false for --help. */
static bool parse(int argc, char **argv, struct kcompare *k, struct copts *o)
{
	int i = 1;
	while (i < argc && strcmp(argv[i], "--")) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h"))
			return false;
		if (!v || !strcmp(v, "--"))
			die_usage("compare: option %s needs a value", a);
		if (!option(k, o, a, v))
			die_usage("compare: unknown option '%s' (see pagelab compare --help)", a);
		i += 2;
	}
	if (i + 1 >= argc)
		die_usage("compare: no workload after '--' (see pagelab compare --help)");
	struct wl_list wll;
	char err[300];
	if (!wl_list_parse(argc - i - 1, argv + i + 1, &wll, err, sizeof(err)))
		die_usage("compare: %s", err);
	if (wll.n > EXP_MAX_WL)
		die_usage("compare: at most %d workloads", EXP_MAX_WL);
	for (int w = 0; w < wll.n; w++)
		k->wl[k->nr_wl++] = xstrdup(wll.v[w].cmd);
	wl_list_free(&wll);
	return true;
}

/* Run a side; its errors end compare (1: a kernel run failed, 2: bad
 * input or a refusal). */
static void side(const struct kcompare *k, bool kernel, struct records *rs, int *resumed)
{
	char err[1200];
	int rc = kcompare_side(k, kernel, k->policies, k->memcg, k->ram, kernel ? 1 : k->seeds, rs, resumed, err,
			       sizeof(err));
	if (rc == 2)
		die_usage("compare: %s", err);
	if (rc) {
		fprintf(stderr, "pagelab: compare: %s\n", err);
		exit(1);
	}
}

static int write_html(const char *html, const struct kcmp *x, const struct kcmp_setup *s, const char *cmd,
		      int argc, char **argv)
{
	struct atomic_file af;
	char err[512], date[64], *cmdline = html_cmdline(argc, argv);
	int rc = 0;
	if (!atomic_open(&af, html, err, sizeof(err))) {
		fprintf(stderr, "pagelab: compare: %s\n", err);
		rc = 1;
	} else {
		html_date(date, sizeof(date));
		struct html_provenance pv = { .version = pagelab_version(), .cmdline = cmdline, .date = date };
		kcmp_html(af.f, x, s, cmd, &pv);
		if (!atomic_commit(&af, err, sizeof(err))) {
			fprintf(stderr, "pagelab: %s\n", err);
			rc = 1;
		}
	}
	free(cmdline);
	return rc;
}

int cmd_compare_kernel(int argc, char **argv)
{
	struct kcompare k = { .memcg = "512M", .swap = "512M", .machine = "modern", .policies = "workingset",
			      .repeat = 3, .seeds = 1, .seed0 = 1, .timeout_ns = 600ULL * 1000000000ULL, .jobs = 1,
			      .progress = isatty(2) };
	struct copts o = { .tol = 25 };
	if (!parse(argc, argv, &k, &o)) {
		compare_kernel_usage(stdout);
		kcompare_free(&k);
		return 0;
	}
	uint64_t limit = 0;
	parse_size(k.memcg, &limit);
	if (!k.cpus) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		k.cpus = n > 0 ? (uint64_t)n : 1;
	}
	if (!k.ram)
		k.ram = limit + limit / 4 + (64ULL << 20);
	const char *pol[32];
	char *pol_names;
	int npol = pols_check(k.policies, pol, 32, &pol_names);
	kcompare_host_sets(&k);
	/* A page that cannot be written is refused now, not after the runs. */
	struct atomic_file af;
	char err[512], note[512] = "";
	if (o.html && !atomic_open(&af, o.html, err, sizeof(err)))
		die_usage("compare: %s", err);
	if (o.html)
		atomic_abort(&af);
	if (o.fit_profile && !o.fit)
		die_usage("compare: --fit-profile needs --fit-cpu");
	if (o.fit_profile && (!kcompare_fit_profile_can(&k, err, sizeof(err)) ||
			      !atomic_open(&af, o.fit_profile, err, sizeof(err))))
		die_usage("compare: %s", err);
	if (o.fit_profile)
		atomic_abort(&af);
	if (o.fit) {
		struct kfit fit;
		kcompare_fit(&k, o.fit, note, sizeof(note), &fit);
		if (o.fit_profile)
			write_fit_profile(&k, &fit, o.fit_profile);
	}
	/* The simulator first: bad input shows before minutes of kernel runs. */
	struct records sim = { 0 }, kern = { 0 };
	int sim_resumed = 0, cached = 0;
	side(&k, false, &sim, &sim_resumed);
	side(&k, true, &kern, &cached);
	const struct record **kr = xcalloc((size_t)kern.n + 1, sizeof(*kr)), **sr = xcalloc((size_t)sim.n + 1, sizeof(*sr));
	uint64_t warmed = 0;
	for (int i = 0; i < kern.n; i++) {
		bool w = false;
		kr[i] = &kern.r[i];
		warmed += json_get_bool(json_get(kern.r[i].j, "kernel"), "warmed", &w) && w;
	}
	for (int i = 0; i < sim.n; i++)
		sr[i] = &sim.r[i];
	char *cmd = kcompare_workloads(&k), *setlist = join_words(k.nsets, k.sets);
	struct kcmp_setup setup = { .memcg = k.memcg, .swap = k.swap, .machine = k.machine, .sets = setlist,
				    .repeat = k.repeat, .cached = (uint64_t)cached, .warmed = warmed, .cpus = k.cpus,
				    .seeds = k.seeds, .seed0 = k.seed0, .tol = o.tol, .floor = o.floor, .fit = note };
	struct kcmp x;
	kcmp_build(&x, kr, sr, npol, pol, &setup);
	kcmp_print(&x, &setup, cmd);
	int rc = o.html ? write_html(o.html, &x, &setup, cmd, argc, argv) : 0;
	kcmp_free(&x);
	free(cmd);
	free(setlist);
	free(pol_names);
	free(kr);
	free(sr);
	records_free(&kern);
	records_free(&sim);
	kcompare_free(&k);
	return rc;
}
