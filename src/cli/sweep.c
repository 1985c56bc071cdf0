/* sweep.c - pagelab sweep: run a matrix of designs x machines x seeds over
 * one workload command line, on a pool of threads, into a resumable
 * results file (src/engine/sweep.h), optionally one shard of it, and
 * print the results as JSON lines or CSV. */
#include "cli.h"
#include "machine_opts.h"
#include "../workload/wlist.h"
#include "../workload/wlshare.h"
#include "../lib/share.h"
#include "../engine/sweep.h"
#include "../engine/kexec.h"
#include "../engine/cellmarks.h"
#include "../engine/html_sweep.h"
#include "../lib/output.h"
#include "../lib/version.h"
#include "../lib/util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sweep_args {
	struct machine_args ma;
	struct matrix mx;
	struct sweep_opts o;
	const char *seed_list, *html;
	uint64_t nseeds;
	bool csv, list;
	bool kernel;     /* --executor kernel */
	uint64_t repeat; /* --repeat N, 0 if not given */
	const char *warmup; /* --warmup N|F, or NULL */
};

static int shard_opt(void *dest, const struct opt *o, const char *typed, const char *value);
static int executor_opt(void *dest, const struct opt *o, const char *typed, const char *value);

#define AT(f) offsetof(struct sweep_args, f)
static const struct opt sweep_table[] = {
	{ .kind = OPT_GROUP, .group = machine_opts, .at = AT(ma), .flags = OPT_LISTS },
	{ "--seeds", NULL, OPT_U64, AT(nseeds), "N", 1, 100000, "(1..100000)", .help = "seeds 1..N (default 1)" },
	{ "--seed", NULL, OPT_STR, AT(seed_list), "LIST", .help = "these seeds instead" },
	{ "--max-time", NULL, OPT_DURATION, AT(mx.max_time_ns), "SECONDS",
	  .help = "stop each run after this much simulated time" },
	{ "--check", NULL, OPT_FLAG, AT(mx.check), .help = "verify the mm invariants in every run (slow)" },
	{ "--executor", NULL, OPT_CALL, AT(kernel), "kernel", .range = "(sim or kernel)", .call = executor_opt,
	  .help = "run the cells on this host's kernel instead (root; one\n"
	  "at a time; as pagelab kernel: --memcg, --swap and the\nseeds are what it takes, --max-time is each run's\n"
	  "timeout, default 600 s; docs/sweeps.md)" },
	{ "--repeat", NULL, OPT_U64, AT(repeat), "N", 1, 100, "(1..100)",
	  .help = "with --executor kernel, each cell N times" },
	{ "--warmup", NULL, OPT_STR, AT(warmup), "N|F", .help = "also count each cell's misses after its first N\n"
	  "references (or share F of the trace): a lone trace on\n--machine ideal under a cache policy (docs/sweeps.md)" },
	{ "--window", NULL, OPT_U64, AT(o.window), "N", 1, (double)UINT64_MAX, "(references, at least 1)",
	  .help = "and its misses in each N references after the warm-up" },
	{ "Running and output:", .kind = OPT_SECTION },
	{ "--jobs", "-j", OPT_INT, AT(o.jobs), "N", 1, 256, "(1..256)", .help =
	  "run N cells in parallel (default: the number of CPUs);\nthe results are the same for every N" },
	{ "-o", "--output", OPT_STR, AT(o.out), "FILE", .help = "append results to FILE (JSON lines); a rerun skips the\n"
	  "cells FILE already holds, so an interrupted sweep resumes" },
	{ "--shard", NULL, OPT_CALL, 0, "I/N", .call = shard_opt, .range = "(I/N with 1 <= I <= N)",
	  .help = "run only cells I, I+N, I+2N... (1 <= I <= N)" },
	{ "--csv", NULL, OPT_FLAG, AT(csv), .help = "print one CSV row per cell (of this shard) on stdout\n"
	  "(with --cgroup, a column cgroup.PATH.FILE per cgroup\nfigure: docs/sweeps.md)" },
	{ "--html", NULL, OPT_STR, AT(html), "FILE", .help = "also write the results as a self-contained HTML page:\n"
	  "a chart per figure, every design against the swept\nparameter, mean and 95% interval over seeds, markers\n"
	  "for OOM kills and --max-time (with -o FILE of a\nfinished sweep: its page, nothing rerun)" },
	{ "--list", NULL, OPT_FLAG, AT(list), .help = "print the cells' pagelab run command lines, run nothing" },
	{ "--progress", NULL, OPT_FLAG, AT(o.progress), .help = "progress and ETA on stderr (default: on a tty)" },
	{ "--no-progress", NULL, OPT_UNFLAG, AT(o.progress), .flags = OPT_JOINED },
	{ .kind = OPT_END },
};

const struct opt_cmd sweep_cmd = {
	.name = "sweep",
	.usage =
"usage: pagelab sweep [OPTIONS] -- WORKLOAD [ARGS] [+ WORKLOAD [ARGS]]...\n"
"Run every combination of the listed designs, machines and seeds, each as\n"
"`pagelab run` would, and collect one result per combination (a cell).\n"
"\n"
"Lists are comma-separated; an item may be a range A:B:+STEP or A:B:xFACTOR\n"
"(--ram 256M:1G:x2 is 256M,512M,1G; --set swappiness=0:100:+50 is 0,50,100).\n",
	.opts = sweep_table,
	.col = 22,
	.after =
"\n"
"Without -o the results go to stdout as JSON lines (or CSV with --csv).\n"
"Exit status: 0; 1 if an output could not be written or --check found a broken\n"
"invariant in a cell; 2 on bad input; 3 if a cell stopped at --max-time (its\n"
"record says \"timed_out\": true).\n"
"Join shards with pagelab merge; compare designs with pagelab compare FILE.\n"
"See docs/sweeps.md.\n",
	.prefix = "",
	.unknown = "unknown option '%s' (see pagelab sweep --help)",
	.mode = OPT_DASHDASH,
};

static struct axis *axis_add(struct matrix *mx, const char *name, bool is_set)
{
	for (int a = 0; a < mx->nr_axes; a++)
		if (!strcmp(mx->axes[a].name, name))
			die_usage("sweep: %s%s given twice", is_set ? "--set " : "--", name);
	mx->axes = xrealloc(mx->axes, (size_t)(mx->nr_axes + 1) * sizeof(*mx->axes));
	struct axis *ax = &mx->axes[mx->nr_axes++];
	memset(ax, 0, sizeof(*ax));
	ax->name = xstrdup(name);
	ax->is_set = is_set;
	return ax;
}

static void axis_fill(struct axis *ax, const char *list, enum axis_values kind)
{
	char err[300];
	if (!axis_expand(list, kind, ax, err, sizeof(err)))
		die_usage("%s", err);
}

/* --ram N%: the trace's distinct pages, counted once for every cell
 * (each cell's command line says N% and resolves it the same way). */
static void count_trace_pages(struct matrix *mx, const struct wl_list *wll)
{
	for (int a = 0; a < mx->nr_axes; a++) {
		const struct axis *ax = &mx->axes[a];
		double sh;
		for (int k = 0; !ax->is_set && !strcmp(ax->name, "ram") && k < ax->n; k++) {
			char err[600];
			if (!parse_share(ax->values[k], &sh))
				continue;
			if (!wl_share_pages(wll, 1, &mx->trace_pages, err, sizeof(err)))
				die_usage("sweep: --ram %s: %s", ax->values[k], err);
			return;
		}
	}
}

int sweep_stopped_cells(const struct records *rs)
{
	int timed_out = 0, broken = 0;
	for (int i = 0; i < rs->n; i++) {
		bool b;
		timed_out += json_get_bool(rs->r[i].j, "timed_out", &b) && b;
		broken += json_get_bool(rs->r[i].j, "check_failed", &b) && b;
	}
	if (broken)
		fprintf(stderr, "pagelab: --check found a broken invariant in %d of %d cells\n", broken, rs->n);
	if (timed_out)
		fprintf(stderr, "pagelab: %d of %d cells stopped at --max-time; their records say \"timed_out\"\n",
			timed_out, rs->n);
	return broken ? 1 : timed_out ? 3 : 0;
}

static int shard_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	struct sweep_args *sa = dest;
	unsigned si, sn;
	char extra;
	(void)typed;
	if (sscanf(value, "%u/%u%c", &si, &sn, &extra) != 2 || si < 1 || sn < 1 || si > sn || sn > 100000)
		opt_bad(o, value);
	sa->o.shard = (int)si;
	sa->o.nshards = (int)sn;
	return OPT_GO;
}

/* --executor sim|kernel: where the cells run (src/engine/kexec.c). */
static int executor_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	(void)typed;
	if (strcmp(value, "sim") && strcmp(value, "kernel"))
		opt_bad(o, value);
	*(bool *)dest = !strcmp(value, "kernel");
	return OPT_GO;
}

/* --executor kernel: the cells become `pagelab kernel` runs, checked
 * before any runs (root, the cgroup, axes the kernel cannot take). */
static void sweep_kernel_cells(const struct sweep_args *sa, struct matrix_cell **cells, int *n)
{
	char err[1200];
	if (sa->repeat && !sa->kernel)
		die_usage("sweep: --repeat is for --executor kernel (a simulation is the same every time)");
	if (sa->kernel && !kexec_cells(cells, n, sa->mx.nr_axes, sa->repeat ? (int)sa->repeat : 1,
				       sa->mx.max_time_ns ? sa->mx.max_time_ns : KEXEC_TIMEOUT_NS, NULL, err,
				       sizeof(err)))
		die_usage("sweep: --executor kernel: %s", err);
}

/* --warmup, --window: every cell one the cache-only replay can run
 * (cellmarks.h), the warm-up resolved once against the trace, and each
 * cell's command line saying them (a resumed sweep with other marks
 * runs its cells again). */
static void sweep_marks(struct sweep_args *sa, struct matrix_cell *cells, int n)
{
	char err[600];
	struct warmup_arg w = { 0 };
	sa->o.marks = sa->warmup || sa->o.window;
	if (!sa->o.marks)
		return;
	if (sa->warmup && !warmup_parse(sa->warmup, &w))
		die_usage("bad --warmup '%s' (references, 0 or more, or a fraction 0 < F < 1)", sa->warmup);
	/* a cell stopped early would not have replayed what the marks count */
	if (sa->mx.max_time_ns)
		die_usage("sweep: --warmup and --window count the whole trace: no --max-time");
	for (int k = 0; k < n; k++)
		if (!cell_marks_ok(&cells[k].c, err, sizeof(err)))
			die_usage("sweep: %s", err);
	if (n && !cell_marks_warmup(&cells[0].c, &w, &sa->o.warmup, err, sizeof(err)))
		die_usage("sweep: %s", err);
	char opts[64];
	int len = snprintf(opts, sizeof(opts), " --warmup %llu", (unsigned long long)sa->o.warmup);
	if (sa->o.window)
		snprintf(opts + len, sizeof(opts) - (size_t)len, " --window %llu", (unsigned long long)sa->o.window);
	for (int k = 0; k < n; k++) {
		const char *head = "pagelab run";
		if (strncmp(cells[k].cmd, head, strlen(head)))
			panic("sweep: a cell's command line '%s'", cells[k].cmd);
		size_t size = strlen(cells[k].cmd) + strlen(opts) + 1;
		char *cmd = xmalloc(size);
		snprintf(cmd, size, "%s%s%s", head, opts, cells[k].cmd + strlen(head));
		free(cells[k].cmd);
		cells[k].cmd = cmd;
	}
}

/* A machine option: an axis, in the order given. */
static int sweep_take(struct machine_args *ma, const struct machine_arg *a)
{
	static const enum axis_values kinds[] = { [MO_WORD] = AXV_WORD, [MO_SIZE] = AXV_SIZE,
						  [MO_NUMBER] = AXV_NUMBER, [MO_SET] = AXV_ANY };
	struct matrix *mx = ma->ctx;
	bool is_set = a->kind == MO_SET;
	if (!strcmp(a->name, "cgroup")) {   /* --cgroup or --set cgroup=: the whole tree in every cell */
		if (mx->nr_cgroups == CG_MAX)
			die_usage("sweep: more than %d --cgroup", CG_MAX);
		mx->cgroups[mx->nr_cgroups++] = a->value;
		return OPT_GO;
	}
	if (is_set && (!strcmp(a->name, "policy") || !strcmp(a->name, "machine") || !strcmp(a->name, "seed")))
		die_usage("--set %s: use --%s", a->name, a->name);
	axis_fill(axis_add(mx, a->name, is_set), a->value, kinds[a->kind]);
	return OPT_GO;
}

/* --seed LIST, or seeds 1..--seeds N. */
static void sweep_seeds(struct sweep_args *sa)
{
	struct matrix *mx = &sa->mx;
	if (sa->seed_list) {
		struct axis sx = { .name = xstrdup("seed") };
		axis_fill(&sx, sa->seed_list, AXV_NUMBER);
		mx->seeds = xcalloc((size_t)sx.n, sizeof(uint64_t));
		for (int k = 0; k < sx.n; k++)
			if (!parse_u64(sx.values[k], &mx->seeds[k]))
				die_usage("bad --seed '%s'", sx.values[k]);
		mx->nr_seeds = sx.n;
		axis_free(&sx);
	} else {
		mx->seeds = xcalloc(sa->nseeds, sizeof(uint64_t));
		for (uint64_t k = 0; k < sa->nseeds; k++)
			mx->seeds[k] = k + 1;
		mx->nr_seeds = (int)sa->nseeds;
	}
}

bool sweep_workloads(const char *cmd, struct matrix *mx, int argc, char **argv)
{
	struct wl_list wll;
	char lerr[256];
	if (!wl_list_parse(argc, argv, &wll, lerr, sizeof(lerr)))
		die_usage("%s: %s", cmd, lerr);
	if (wll.help) {
		wll.help->help(stdout);
		wl_list_free(&wll);
		return true;
	}
	if (wll.n > EXP_MAX_WL)
		die_usage("%s: at most %d workloads", cmd, EXP_MAX_WL);
	count_trace_pages(mx, &wll);
	for (int w = 0; w < wll.n; w++) {
		/* a cell's workloads are command strings split on blanks again */
		for (int k = 0; k < wll.v[w].argc; k++)
			if (strchr(wll.v[w].argv[k], ' ') || !wll.v[w].argv[k][0])
				die_usage("%s: workload argument '%s' is empty or has a blank", cmd, wll.v[w].argv[k]);
		mx->wl[mx->nr_wl++] = xstrdup(wll.v[w].cmd);
	}
	wl_list_free(&wll);
	return false;
}

/* Run the cells (of this shard) and write the results; the exit status. */
static int sweep_execute(struct sweep_args *sa, struct matrix_cell *cells, int n, const char **names, int argc,
			 char **argv)
{
	struct sweep_opts *o = &sa->o;
	char err[1200];
	o->axis_names = names;
	o->nr_axes = sa->mx.nr_axes;
	if (!o->out && !sa->csv)
		o->stream = stdout;
	struct records rs = { 0 };
	/* Opened first: a path that cannot be written is refused before
	 * the sweep runs. */
	struct atomic_file af;
	if (sa->html && !atomic_open(&af, sa->html, err, sizeof(err)))
		die_usage("%s", err);
	int rc = sweep_run(cells, n, o, &rs, err, sizeof(err));
	if (rc)
		fprintf(stderr, "pagelab: %s\n", err);
	else if (sa->csv)
		sweep_csv(stdout, &rs, names, sa->mx.nr_axes);
	int stop_rc = rc ? 0 : sweep_stopped_cells(&rs);
	if (sa->html && rc) {
		atomic_abort(&af);
	} else if (sa->html) {
		char date[64], *cmd = html_cmdline(argc, argv);
		html_date(date, sizeof(date));
		struct html_provenance pv = { .version = pagelab_version(), .cmdline = cmd, .date = date };
		sweep_html(af.f, &rs, names, sa->mx.nr_axes, &pv);
		free(cmd);
		if (!atomic_commit(&af, err, sizeof(err))) {
			fprintf(stderr, "pagelab: %s\n", err);
			rc = 1;
		}
	}
	records_free(&rs);
	return rc ? rc : stop_rc;
}

int cmd_sweep(int argc, char **argv)
{
	struct sweep_args sa = { .o = { .progress = isatty(2), .nshards = 1, .shard = 1 }, .nseeds = 1,
				 .ma = { .lists = true, .policy = "clock", .machine = "vmm-2008", .take = sweep_take } };
	struct matrix *mx = &sa.mx;
	sa.ma.ctx = mx;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	sa.o.jobs = ncpu > 0 ? (int)ncpu : 1;
	/* axes[0] policy and axes[1] machine, the others in the order given */
	axis_add(mx, "policy", false);
	axis_add(mx, "machine", false);
	int i, rc = opt_parse(&sweep_cmd, argc, argv, &sa, &i);
	if (rc != OPT_GO) {
		matrix_free(mx);
		return rc;
	}
	if (i >= argc || i + 1 >= argc)
		die_usage("sweep: no workload: put it after '--' (see pagelab sweep --help)");
	axis_fill(&mx->axes[0], sa.ma.policy, AXV_WORD);
	axis_fill(&mx->axes[1], sa.ma.machine, AXV_WORD);
	sweep_seeds(&sa);
	if (sweep_workloads("sweep", mx, argc - i - 1, argv + i + 1)) {
		matrix_free(mx);
		return 0;
	}
	struct matrix_cell *cells;
	int n;
	char err[1200];
	if (!matrix_cells(mx, &cells, &n, err, sizeof(err)))
		die_usage("%s", err);
	if (!cell_check(&cells[0].c, err, sizeof(err)))
		die_usage("%s", err);
	sweep_kernel_cells(&sa, &cells, &n);
	sweep_marks(&sa, cells, n);
	const char **names = xcalloc((size_t)mx->nr_axes, sizeof(char *));
	for (int a = 0; a < mx->nr_axes; a++)
		names[a] = mx->axes[a].name;
	rc = 0;
	if (sa.list) {
		for (int k = 0; k < n; k++)
			if (sa.o.nshards <= 1 || cells[k].index % sa.o.nshards == sa.o.shard - 1)
				printf("%s\n", cells[k].cmd);
	} else {
		rc = sweep_execute(&sa, cells, n, names, argc, argv);
	}
	/* A stdout write error: one line and exit 1 at exit (output.c). */
	free(names);
	matrix_cells_free(cells, n);
	matrix_free(mx);
	return rc;
}
