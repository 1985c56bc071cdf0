/* sweep.c - pagelab sweep: run a matrix of designs x machines x seeds over
 * one workload command line, on a pool of threads, into a resumable
 * results file (src/engine/sweep.h), optionally one shard of it, and
 * print the results as JSON lines or CSV. */
#include "cli.h"
#include "../workload/wlist.h"
#include "../workload/wlshare.h"
#include "../lib/share.h"
#include "../engine/sweep.h"
#include "../engine/html_sweep.h"
#include "../lib/output.h"
#include "../lib/version.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void sweep_usage(FILE *out)
{
	fputs(
"usage: pagelab sweep [OPTIONS] -- WORKLOAD [ARGS] [+ WORKLOAD [ARGS]]...\n"
"Run every combination of the listed designs, machines and seeds, each as\n"
"`pagelab run` would, and collect one result per combination (a cell).\n"
"\n"
"Lists are comma-separated; an item may be a range A:B:+STEP or A:B:xFACTOR\n"
"(--ram 256M:1G:x2 is 256M,512M,1G; --set swappiness=0:100:+50 is 0,50,100).\n"
"  --policy LIST       reclaim policies (default clock); a path (./lifo.so)\n"
"                      is a policy plugin\n"
"  --machine LIST      machine profiles (default vmm-2008)\n"
"  --ram LIST          physical memory sizes; with a trace replay alone, shares\n"
"                      of its distinct pages too (10%,50%; 1%:64%:x2)\n"
"  --swap LIST         swap sizes\n"
"  --cpus LIST         CPU counts\n"
"  --disk LIST         disk models\n"
"  --memcg LIST        memory cgroup limits, as pagelab run --memcg (each\n"
"                      cell's RAM at least LIMIT * 5/4 + 64M without --ram)\n"
"  --set NAME=LIST     a machine parameter or policy tunable (repeatable);\n"
"                      memcg.v1=0,1: cgroup v1 or v2 with --memcg\n"
"  --seeds N           seeds 1..N (default 1)\n"
"  --seed LIST         these seeds instead\n"
"  --max-time SECONDS  stop each run after this much simulated time\n"
"  --check             verify the mm invariants in every run (slow)\n"
"Running and output:\n"
"  --jobs N            run N cells in parallel (default: the number of CPUs);\n"
"                      the results are the same for every N\n"
"  -o FILE             append results to FILE (JSON lines); a rerun skips the\n"
"                      cells FILE already holds, so an interrupted sweep resumes\n"
"  --shard I/N         run only cells I, I+N, I+2N... (1 <= I <= N)\n"
"  --csv               print one CSV row per cell (of this shard) on stdout\n"
"  --html FILE         also write the results as a self-contained HTML page:\n"
"                      a chart per figure, every design against the swept\n"
"                      parameter, mean and 95% interval over seeds, markers\n"
"                      for OOM kills and --max-time (with -o FILE of a\n"
"                      finished sweep: its page, nothing rerun)\n"
"  --list              print the cells' pagelab run command lines, run nothing\n"
"  --progress / --no-progress  progress and ETA on stderr (default: on a tty)\n"
"\n"
"Without -o the results go to stdout as JSON lines (or CSV with --csv).\n"
"Exit status: 0; 1 if an output could not be written or --check found a broken\n"
"invariant in a cell; 2 on bad input; 3 if a cell stopped at --max-time (its\n"
"record says \"timed_out\": true).\n"
"Join shards with pagelab merge; compare designs with pagelab compare FILE.\n"
"See docs/sweeps.md.\n", out);
}

static const char *need_arg(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		die_usage("option %s needs a value", argv[*i]);
	return argv[++*i];
}

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

/* As run's exit status: 1 if --check failed in a cell, else 3 if a cell
 * stopped at --max-time (each said on stderr), else 0. */
static int stopped_cells(const struct records *rs)
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

int cmd_sweep(int argc, char **argv)
{
	struct matrix mx = { 0 };
	struct sweep_opts o = { .progress = isatty(2), .nshards = 1, .shard = 1 };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	o.jobs = ncpu > 0 ? (int)ncpu : 1;
	const char *policy = "clock", *machine = "vmm-2008", *seed_list = NULL;
	uint64_t nseeds = 1;
	bool csv = false, list = false;
	const char *html = NULL;
	/* axes[0] policy and axes[1] machine, the others in the order given */
	axis_add(&mx, "policy", false);
	axis_add(&mx, "machine", false);
	int i;
	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];
		uint64_t v;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			sweep_usage(stdout);
			matrix_free(&mx);
			return 0;
		} else if (!strcmp(a, "--policy")) {
			policy = need_arg(argc, argv, &i);
		} else if (!strcmp(a, "--machine")) {
			machine = need_arg(argc, argv, &i);
		} else if (!strcmp(a, "--ram") || !strcmp(a, "--swap") || !strcmp(a, "--memcg")) {
			axis_fill(axis_add(&mx, a + 2, false), need_arg(argc, argv, &i), AXV_SIZE);
		} else if (!strcmp(a, "--cpus")) {
			axis_fill(axis_add(&mx, "cpus", false), need_arg(argc, argv, &i), AXV_NUMBER);
		} else if (!strcmp(a, "--disk")) {
			axis_fill(axis_add(&mx, "disk", false), need_arg(argc, argv, &i), AXV_WORD);
		} else if (!strcmp(a, "--set")) {
			const char *kv = need_arg(argc, argv, &i);
			const char *eq = strchr(kv, '=');
			if (!eq || eq == kv)
				die_usage("--set wants NAME=LIST, got '%s'", kv);
			char name[128];
			snprintf(name, sizeof(name), "%.*s", (int)(eq - kv), kv);
			if (!strcmp(name, "policy") || !strcmp(name, "machine") || !strcmp(name, "seed"))
				die_usage("--set %s: use --%s", name, name);
			axis_fill(axis_add(&mx, name, true), eq + 1, AXV_ANY);
		} else if (!strcmp(a, "--seeds")) {
			const char *s = need_arg(argc, argv, &i);
			if (!parse_u64(s, &nseeds) || nseeds < 1 || nseeds > 100000)
				die_usage("bad --seeds '%s' (1..100000)", s);
		} else if (!strcmp(a, "--seed")) {
			seed_list = need_arg(argc, argv, &i);
		} else if (!strcmp(a, "--max-time")) {
			const char *s = need_arg(argc, argv, &i);
			if (!parse_duration_ns(s, &mx.max_time_ns) || !mx.max_time_ns)
				die_usage("bad --max-time '%s'", s);
		} else if (!strcmp(a, "--check")) {
			mx.check = true;
		} else if (!strcmp(a, "--jobs") || !strcmp(a, "-j")) {
			const char *s = need_arg(argc, argv, &i);
			if (!parse_u64(s, &v) || v < 1 || v > 256)
				die_usage("bad --jobs '%s' (1..256)", s);
			o.jobs = (int)v;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			o.out = need_arg(argc, argv, &i);
		} else if (!strcmp(a, "--shard")) {
			const char *s = need_arg(argc, argv, &i);
			unsigned si, sn;
			char extra;
			if (sscanf(s, "%u/%u%c", &si, &sn, &extra) != 2 || si < 1 || sn < 1 || si > sn || sn > 100000)
				die_usage("bad --shard '%s' (I/N with 1 <= I <= N)", s);
			o.shard = (int)si;
			o.nshards = (int)sn;
		} else if (!strcmp(a, "--csv")) {
			csv = true;
		} else if (!strcmp(a, "--html")) {
			html = need_arg(argc, argv, &i);
		} else if (!strcmp(a, "--list")) {
			list = true;
		} else if (!strcmp(a, "--progress")) {
			o.progress = true;
		} else if (!strcmp(a, "--no-progress")) {
			o.progress = false;
		} else {
			die_usage("unknown option '%s' (see pagelab sweep --help)", a);
		}
	}
	if (i >= argc || i + 1 >= argc)
		die_usage("sweep: no workload: put it after '--' (see pagelab sweep --help)");
	axis_fill(&mx.axes[0], policy, AXV_WORD);
	axis_fill(&mx.axes[1], machine, AXV_WORD);
	if (seed_list) {
		struct axis sx = { .name = xstrdup("seed") };
		axis_fill(&sx, seed_list, AXV_NUMBER);
		mx.seeds = xcalloc((size_t)sx.n, sizeof(uint64_t));
		for (int k = 0; k < sx.n; k++)
			if (!parse_u64(sx.values[k], &mx.seeds[k]))
				die_usage("bad --seed '%s'", sx.values[k]);
		mx.nr_seeds = sx.n;
		axis_free(&sx);
	} else {
		mx.seeds = xcalloc(nseeds, sizeof(uint64_t));
		for (uint64_t k = 0; k < nseeds; k++)
			mx.seeds[k] = k + 1;
		mx.nr_seeds = (int)nseeds;
	}
	/* Workloads, separated by '+'. */
	struct wl_list wll;
	char lerr[256];
	if (!wl_list_parse(argc - i - 1, argv + i + 1, &wll, lerr, sizeof(lerr)))
		die_usage("sweep: %s", lerr);
	if (wll.help) {
		wll.help->help(stdout);
		wl_list_free(&wll);
		matrix_free(&mx);
		return 0;
	}
	if (wll.n > EXP_MAX_WL)
		die_usage("sweep: at most %d workloads", EXP_MAX_WL);
	count_trace_pages(&mx, &wll);
	for (int w = 0; w < wll.n; w++) {
		/* a cell's workloads are command strings split on blanks again */
		for (int k = 0; k < wll.v[w].argc; k++)
			if (strchr(wll.v[w].argv[k], ' ') || !wll.v[w].argv[k][0])
				die_usage("sweep: workload argument '%s' is empty or has a blank", wll.v[w].argv[k]);
		mx.wl[mx.nr_wl++] = xstrdup(wll.v[w].cmd);
	}
	wl_list_free(&wll);
	struct matrix_cell *cells;
	int n;
	char err[1200];
	if (!matrix_cells(&mx, &cells, &n, err, sizeof(err)))
		die_usage("%s", err);
	if (!cell_check(&cells[0].c, err, sizeof(err)))
		die_usage("%s", err);
	const char **names = xcalloc((size_t)mx.nr_axes, sizeof(char *));
	for (int a = 0; a < mx.nr_axes; a++)
		names[a] = mx.axes[a].name;
	int rc = 0;
	if (list) {
		for (int k = 0; k < n; k++)
			if (o.nshards <= 1 || cells[k].index % o.nshards == o.shard - 1)
				printf("%s\n", cells[k].cmd);
	} else {
		o.axis_names = names;
		o.nr_axes = mx.nr_axes;
		if (!o.out && !csv)
			o.stream = stdout;
		struct records rs = { 0 };
		/* Opened first: a path that cannot be written is refused before
		 * the sweep runs. */
		struct atomic_file af;
		if (html && !atomic_open(&af, html, err, sizeof(err)))
			die_usage("%s", err);
		rc = sweep_run(cells, n, &o, &rs, err, sizeof(err));
		if (rc) {
			fprintf(stderr, "pagelab: %s\n", err);
		} else if (csv) {
			sweep_csv(stdout, &rs, names, mx.nr_axes);
		}
		int stop_rc = rc ? 0 : stopped_cells(&rs);
		if (html && rc) {
			atomic_abort(&af);
		} else if (html) {
			char date[64], *cmd = html_cmdline(argc, argv);
			html_date(date, sizeof(date));
			struct html_provenance pv = { .version = pagelab_version(), .cmdline = cmd, .date = date };
			sweep_html(af.f, &rs, names, mx.nr_axes, &pv);
			free(cmd);
			if (!atomic_commit(&af, err, sizeof(err))) {
				fprintf(stderr, "pagelab: %s\n", err);
				rc = 1;
			}
		}
		if (!rc)
			rc = stop_rc;
		records_free(&rs);
	}
	/* A stdout write error: one line and exit 1 at exit (output.c). */
	free(names);
	matrix_cells_free(cells, n);
	matrix_free(&mx);
	return rc;
}
