/* compare_kernel.c - pagelab compare [machine options] -- WORKLOAD: the
 * options into a kcompare (src/engine/kcompare.h), whose two sides run as
 * sweeps (the host kernel's executor and the simulator's) and whose table
 * is drawn from their records. */
#define _GNU_SOURCE
#include "cli.h"
#include "compare_kernel.h"
#include "../engine/html_compare.h"
#include "../engine/kcompare.h"
#include "../lib/output.h"
#include "../lib/util.h"
#include "../lib/version.h"
#include "../native/native.h"
#include "../policy/policy.h"
#include "../report/htmlpage.h"
#include "../workload/wlist.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* --memcg, --swap (a size or zram:SIZE[,algo=NAME]), --fit-cpu (kept as
 * written) and --ram (bytes). */
static int size_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	uint64_t b;
	bool fit = !strcmp(o->name, "--fit-cpu");
	struct nzram_spec z;
	char err[256];
	int zram = strcmp(o->name, "--swap") ? 0 : native_zram_parse(value, &z, err, sizeof(err));
	if (zram < 0)
		die_usage("compare: %s", err);
	if (zram) {
		*(const char **)dest = value;
		return OPT_GO;
	}
	if (!parse_size(value, &b) || b > (1ULL << 50) || (!b && fit))
		die_usage("compare: bad size '%s' for %s", value, typed);
	if (!strcmp(o->name, "--ram"))
		*(uint64_t *)dest = b;
	else
		*(const char **)dest = value;
	return OPT_GO;
}

/* --kernel-cache DIR, --sim-cache DIR: a directory that exists. */
static int dir_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	struct stat st;
	(void)o;
	if (stat(value, &st) || !S_ISDIR(st.st_mode))
		die_usage("compare: %s %s is not a directory", typed, value);
	*(const char **)dest = value;
	return OPT_GO;
}

/* --floor, --tolerance: min <= v <= max (OPT_DOUBLE's min is exclusive,
 * and both take 0). */
static int limit_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	double x;
	(void)typed;
	if (!parse_double(value, &x) || x < o->min || x > o->max)
		opt_bad(o, value);
	*(double *)dest = x;
	return OPT_GO;
}

/* --seed: up to 2^64 - 101, so that SEED..SEED+N-1 fits (exact in
 * integers, where OPT_U64's double bounds would round). */
static int seed_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	uint64_t n;
	(void)typed;
	if (!parse_u64(value, &n) || n > UINT64_MAX - 100)
		opt_bad(o, value);
	*(uint64_t *)dest = n;
	return OPT_GO;
}

/* --cgroup SPEC: the tree on both sides (kcompare.c side_axes()). */
static int cgroup_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	struct kcompare *k = dest;
	(void)o;
	(void)typed;
	if (k->nr_cgroups == CG_MAX)
		die_usage("compare: more than %d --cgroup", CG_MAX);
	k->cgroups[k->nr_cgroups++] = value;
	return OPT_GO;
}

static int set_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	(void)o;
	(void)typed;
	kcompare_add_set(dest, value);
	return OPT_GO;
}

#define AT(f) offsetof(struct cargs, f)
/* Every option takes a value, and "--" is none: the workload follows it. */
#define VALUE(n) .missing = "%soption " n " needs a value", .flags = OPT_DASHDASH_MISSING
static const struct opt compare_kernel_table[] = {
	{ "--memcg", NULL, OPT_CALL, AT(k.memcg), "LIMIT", .call = size_opt,
	  .help = "the cgroup limit on both sides (default 512M)", VALUE("--memcg") },
	{ "--swap", NULL, OPT_CALL, AT(k.swap), "SIZE", .call = size_opt,
	  .help = "swapfile / simulated swap (default 512M); zram:SIZE\n"
	  "[,algo=NAME]: the kernel's on a zram device of its own\n"
	  "(pagelab kernel --swap zram:..., its mm_stat and io_stat\n"
	  "rows beside the simulator's: '-' where it has none)", VALUE("--swap") },
	{ "--policy", NULL, OPT_STR, AT(k.policies), "P[,P...]",
	  .help = "simulator policies (default workingset); a path\n(./lifo.so) is a policy plugin", VALUE("--policy") },
	{ "--repeat", NULL, OPT_U64, AT(k.repeat), "N", 1, 100, "(1..100)",
	  .help = "kernel runs (default 3); the simulator is deterministic", VALUE("--repeat") },
	{ "--seeds", NULL, OPT_U64, AT(k.seeds), "N", 1, 100, "(1..100)",
	  .help = "simulator runs per policy, seeds SEED..SEED+N-1; pagelab\n"
	  "shows their median (default 1); with 2 or more runs\n"
	  "and seeds, a column p says whether the runs and the\n"
	  "seeds differ by more than their spread, apart from\n"
	  "the verdict (exact Mann-Whitney U below 5 a side,\n"
	  "else Welch's t-test: pagelab compare RESULTS' rule)", VALUE("--seeds") },
	{ "--tolerance", NULL, OPT_CALL, AT(o.tol), "T", 0, 1000, "(percent, 0..1000)", .call = limit_opt,
	  .help = "percent (default 25)", VALUE("--tolerance") },
	{ "--floor", NULL, OPT_CALL, AT(o.floor), "N", 0, HUGE_VAL, .call = limit_opt,
	  .help = "a counter under N on both sides agrees (default 0)", VALUE("--floor") },
	{ "--jobs", NULL, OPT_INT, AT(k.jobs), "N", 1, 64, "(1..64)",
	  .help = "simulator runs at once (default 1; same output)", VALUE("--jobs") },
	{ "--html", NULL, OPT_STR, AT(o.html), "FILE",
	  .help = "also write the tables as a self-contained HTML page,\nwith a chart of each policy's ratios",
	  VALUE("--html") },
	{ "--matrix", NULL, OPT_STR, AT(o.matrix), "FILE",
	  .help = "run every case of FILE (a line each: NAME, a tab,\n"
	  "then compare's options, -- and its workloads; the\n"
	  "options given here come first) and print the strict\n"
	  "count over them all (tools/fidelity.sh writes FILE;\n"
	  "docs/fidelity.md, \"The matrix\")", VALUE("--matrix") },
	{ "--seed", NULL, OPT_CALL, AT(k.seed0), "N", .range = "(0..18446744073709551515)", .call = seed_opt,
	  .help = "the workload's seed on both sides (default 1)", VALUE("--seed") },
	{ "--timeout", NULL, OPT_DURATION, AT(k.timeout_ns), "T",
	  .help = "seconds per kernel run (default 600)", VALUE("--timeout") },
	{ "--fit-cpu", NULL, OPT_CALL, AT(o.fit), "LIMIT", .call = size_opt,
	  .help = "first fit the simulated CPU to this host's on the same\n"
	  "workload in a cgroup of LIMIT, where it runs without\n"
	  "pressure (the kernel --repeat times, the first policy\n"
	  "once): cost.ref scaled by the ratio of the user times,\n"
	  "every other cost but cost.syscall by that of the system\n"
	  "times; a cost given with --set is kept", VALUE("--fit-cpu") },
	{ "--fit-profile", NULL, OPT_STR, AT(o.fit_profile), "FILE",
	  .help = "with --fit-cpu: write the fitted costs to FILE as a\n"
	  "machine profile (--machine FILE; docs/cost.md)", VALUE("--fit-profile") },
	{ "--kernel-cache", NULL, OPT_CALL, AT(k.kernel_cache), "DIR", .call = dir_opt,
	  .help = "keep the kernel runs' records in DIR/kernel.jsonl and\n"
	  "resume from it: a run whose command (with the\n"
	  "executor's revision) is there is not run again (so\n"
	  "the simulator side can be rerun alone); cached runs\n"
	  "set the simulated host: their records' CPUs, cgroup,\n"
	  "kernel, swap device, readahead, dirty sysctls",
	  VALUE("--kernel-cache") },
	{ "--sim-cache", NULL, OPT_CALL, AT(k.sim_cache), "DIR", .call = dir_opt,
	  .help = "the same for the simulator's runs, in\n"
	  "DIR/sim-VERSION.jsonl (-pHASH of a --machine file's\n"
	  "bytes before .jsonl; a -dirty build's version does\n"
	  "not change with its edits: do not use it there)", VALUE("--sim-cache") },
	{ "--machine", NULL, OPT_STR, AT(k.machine), "NAME",
	  .help = "simulated profile (default modern)", VALUE("--machine") },
	{ "--cpus", NULL, OPT_U64, AT(k.cpus), "N", 1, 1024, "(1..1024)",
	  .help = "simulated CPUs (default: the host's, or the\n"
	  "cached kernel runs' host's)", VALUE("--cpus") },
	{ "--ram", NULL, OPT_CALL, AT(k.ram), "SIZE", .call = size_opt,
	  .help = "simulated RAM (default LIMIT * 5/4 + 64M: room beside\nthe cgroup, as on the host)", VALUE("--ram") },
	{ "--disk", NULL, OPT_STR, AT(k.disk), "MODEL",
	  .help = "simulated disk (default: the profile's)", VALUE("--disk") },
	{ "--cgroup", NULL, OPT_CALL, AT(k), "SPEC", .call = cgroup_opt,
	  .help = "PATH[:KEY=VALUE,...], a cgroup tree on both sides\n"
	  "(repeatable; WORKLOAD ... @PATH): the kernel's below\n"
	  "its run's own cgroup of --memcg, pagelab's in the\n"
	  "machine's --ram (no --memcg); each cgroup's figures\n"
	  "both sides have as rows 'PATH FIGURE' (docs/native.md)",
	  VALUE("--cgroup") },
	{ "--set", NULL, OPT_CALL, AT(k), "NAME=VALUE", .call = set_opt,
	  .help = "passed to pagelab run (swappiness=N to the kernel's\n"
	  "cgroup too, as pagelab kernel --set); set by themselves\n"
	  "unless given:\n"
	  "memcg.v1=1 when the host's memory controller is\n"
	  "cgroup v1, sched_eevdf=1 when the host runs 6.6 or\n"
	  "later (EEVDF), sched_percpu=1 on 2.6 or later with\n"
	  "more than one CPU (a run queue per CPU),\n"
	  "vm.swap_rotational=1 when the swapfile's\n"
	  "device is rotational (slot-cluster swap readahead; not\n"
	  "with --swap zram:),\n"
	  "vm.ra_pages=KB/4 when its read_ahead_kb is not 128,\n"
	  "vm.dirty_* (ratio, background_ratio, bytes,\n"
	  "background_bytes, writeback_centisecs,\n"
	  "expire_centisecs) where the host's are not 6.x's\n"
	  "defaults (20, 10, 0, 0, 500, 3000); on a cgroup v1\n"
	  "host vm.dirty_bytes and vm.dirty_background_bytes,\n"
	  "its ratios of the host's dirtyable memory (a v1 memcg\n"
	  "has no dirty domain of its own: docs/fidelity.md),\n"
	  "cost.tlb_ipi and cost.tlb_ipi_recv measured on the\n"
	  "host with two or more CPUs (pagelab kernel --tlb-cost;\n"
	  "once per --kernel-cache, kept there as tlb_cost)", VALUE("--set") },
	{ .kind = OPT_END },
};

/* The second form of compare (compare_results.c's compare_cmd shows it
 * after its own in --help, --dump-options, the man page, completion). */
const struct opt_cmd compare_kernel_cmd = {
	.name = "compare",
	.usage =
"usage: pagelab compare [OPTIONS] -- WORKLOAD [ARGS]\n"
"       pagelab compare [OPTIONS] --matrix FILE\n"
"Run WORKLOAD on this host's kernel (pagelab kernel, in a memory cgroup and\n"
"with a swapfile of its own; needs root) and in the simulator on a machine\n"
"sized like it, and print per policy: counter, kernel median (min..max over\n"
"the runs), pagelab's value, pagelab/kernel and whether it is within +-T% of\n"
"the kernel's median.  Both sides are one sweep (pagelab sweep --executor\n"
"kernel for the kernel's runs); docs/fidelity.md has the statistics rule.\n"
"\n",
	.opts = compare_kernel_table,
	.col = 21,
	.after =
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
	.prefix = "compare: ",
	.unknown = "compare: unknown option '%s' (see pagelab compare --help)",
	.mode = OPT_DASHDASH,
};

bool kcase_parse(int argc, char **argv, struct cargs *ca)
{
	int i;
	*ca = (struct cargs){ .k = { .memcg = "512M", .swap = "512M", .machine = "modern", .policies = "workingset",
				     .repeat = 3, .seeds = 1, .seed0 = 1, .timeout_ns = 600ULL * 1000000000ULL,
				     .jobs = 1, .progress = isatty(2) },
			      .o = { .tol = 25 } };
	if (opt_parse(&compare_kernel_cmd, argc, argv, ca, &i) != OPT_GO)
		return false;
	struct kcompare *k = &ca->k;
	if (ca->o.matrix && i < argc)
		die_usage("compare: --matrix takes its workloads from its file, not after '--'");
	if (ca->o.matrix)
		return true;
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

int compare_write_page(const char *path, int argc, char **argv, compare_page_fn *page, const void *arg)
{
	struct atomic_file af;
	char err[512], date[64], *cmdline = html_cmdline(argc, argv);
	int rc = 0;
	if (!atomic_open(&af, path, err, sizeof(err))) {
		fprintf(stderr, "pagelab: compare: %s\n", err);
		rc = 1;
	} else {
		html_date(date, sizeof(date));
		struct html_provenance pv = { .version = pagelab_version(), .cmdline = cmdline, .date = date };
		page(af.f, arg, &pv);
		if (!atomic_commit(&af, err, sizeof(err))) {
			fprintf(stderr, "pagelab: %s\n", err);
			rc = 1;
		}
	}
	free(cmdline);
	return rc;
}

/* compare -- WORKLOAD's page (a cmp_html_kernel). */
static void kernel_page(FILE *out, const void *arg, const struct html_provenance *pv)
{
	compare_html(out, NULL, 0, NULL, arg, pv);
}

/* The machine sized like the host, the policies checked, the host's
 * --set options added: a parsed case ready to run. */
static void case_prepare(struct kcase *c)
{
	struct kcompare *k = &c->ca.k;
	uint64_t limit = 0;
	parse_size(k->memcg, &limit);
	if (!k->ram)
		k->ram = limit + limit / 4 + (64ULL << 20);
	c->npol = pols_check(k->policies, c->pol, 32, &c->pol_names);
	char err[1200];
	if (!kcompare_host_sets(k, err, sizeof(err)))
		die_usage("compare: %s", err);
}

void kcase_sides(struct kcase *c)
{
	struct kcompare *k = &c->ca.k;
	kcase_clear(c);
	/* The simulator's input checked first: bad input shows before
	 * minutes of kernel runs.  Then the kernel's runs, and the simulator
	 * on the disk they met (kcompare_disk_sets()). */
	char err[1200];
	if (!kcompare_check_sim(k, err, sizeof(err)))
		die_usage("compare: %s", err);
	int sim_resumed = 0, cached = 0;
	side(k, true, &c->kern, &cached);
	kcompare_disk_sets(k, &c->kern);
	side(k, false, &c->sim, &sim_resumed);
	c->kr = xcalloc((size_t)c->kern.n + 1, sizeof(*c->kr));
	c->sr = xcalloc((size_t)c->sim.n + 1, sizeof(*c->sr));
	uint64_t warmed = 0;
	for (int i = 0; i < c->kern.n; i++) {
		bool w = false;
		c->kr[i] = &c->kern.r[i];
		warmed += json_get_bool(json_get(c->kern.r[i].j, "kernel"), "warmed", &w) && w;
	}
	for (int i = 0; i < c->sim.n; i++)
		c->sr[i] = &c->sim.r[i];
	c->cmd = kcompare_workloads(k);
	/* A tree has no --memcg on pagelab's side: memcg.v1 is not passed
	 * (kcompare.c side_axes()), so not shown either. */
	char **shown = xcalloc((size_t)k->nsets + 1, sizeof(char *));
	int ns = 0;
	for (int i = 0; i < k->nsets; i++)
		if (!k->nr_cgroups || strncmp(k->sets[i], "memcg.v1=", 9))
			shown[ns++] = k->sets[i];
	c->setlist = join_words(ns, shown);
	free(shown);
	c->setup = (struct kcmp_setup){ .memcg = k->memcg, .swap = k->swap, .machine = k->machine,
					.sets = c->setlist, .repeat = k->repeat, .cached = (uint64_t)cached,
					.warmed = warmed, .cpus = k->cpus, .seeds = k->seeds, .seed0 = k->seed0,
					.tol = c->ca.o.tol, .floor = c->ca.o.floor, .fit = c->note };
	kcmp_build(&c->x, c->kr, c->sr, c->npol, c->pol, &c->setup);
	c->built = true;
}

void kcase_clear(struct kcase *c)
{
	if (c->built)
		kcmp_free(&c->x);
	c->built = false;
	free(c->cmd);
	free(c->setlist);
	free(c->kr);
	free(c->sr);
	c->cmd = c->setlist = NULL;
	c->kr = c->sr = NULL;
	records_free(&c->kern);
	records_free(&c->sim);
	memset(&c->kern, 0, sizeof(c->kern));
	memset(&c->sim, 0, sizeof(c->sim));
}

void kcase_free(struct kcase *c)
{
	kcase_clear(c);
	free(c->pol_names);
	kcompare_free(&c->ca.k);
}

void kcase_start(struct kcase *c, const struct cargs *ca)
{
	memset(c, 0, sizeof(*c));
	c->ca = *ca;
	case_prepare(c);
}

/* --html, --fit-cpu and --fit-profile: refused now, not after the runs,
 * when a file cannot be written. */
static void check_outputs(const struct kcase *c)
{
	const struct copts *o = &c->ca.o;
	struct atomic_file af;
	char err[512];
	if (o->html && !atomic_open(&af, o->html, err, sizeof(err)))
		die_usage("compare: %s", err);
	if (o->html)
		atomic_abort(&af);
	if (o->fit_profile && !o->fit)
		die_usage("compare: --fit-profile needs --fit-cpu");
	if (o->fit_profile && (!kcompare_fit_profile_can(&c->ca.k, err, sizeof(err)) ||
			       !atomic_open(&af, o->fit_profile, err, sizeof(err))))
		die_usage("compare: %s", err);
	if (o->fit_profile)
		atomic_abort(&af);
}

int cmd_compare_kernel(int argc, char **argv)
{
	struct cargs ca;
	if (!kcase_parse(argc, argv, &ca)) {
		kcompare_free(&ca.k);
		return 0;
	}
	if (ca.o.matrix)
		return compare_matrix(&ca, argc, argv);
	struct kcase c;
	kcase_start(&c, &ca);
	check_outputs(&c);
	if (c.ca.o.fit) {
		struct kfit fit;
		kcompare_fit(&c.ca.k, c.ca.o.fit, c.note, sizeof(c.note), &fit);
		if (c.ca.o.fit_profile)
			write_fit_profile(&c.ca.k, &fit, c.ca.o.fit_profile);
	}
	kcase_sides(&c);
	kcmp_print(&c.x, &c.setup, c.cmd);
	struct cmp_html_kernel kh = { .x = &c.x, .s = &c.setup, .cmd = c.cmd };
	int rc = c.ca.o.html ? compare_write_page(c.ca.o.html, argc, argv, kernel_page, &kh) : 0;
	kcase_free(&c);
	return rc;
}
