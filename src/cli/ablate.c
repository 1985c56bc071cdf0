/* ablate.c - pagelab ablate: a design with each of its mechanism switches
 * off in turn (and every pair with --pairs), over seeds, against the full
 * design (src/engine/ablate.h).  The runs are a sweep's: one matrix per
 * variant (the machine options, and the variant's switches as --set
 * NAME=0 axes of one value), their cells joined in variant order and run
 * by the sweep's pool (src/engine/sweep.h), so the figures are the same
 * for any --jobs and each is its record's `pagelab run` line.  The
 * comparison is pagelab compare's (src/engine/compare.h). */
#include "cli.h"
#include "machine_opts.h"
#include "../engine/ablate.h"
#include "../engine/sweep.h"
#include "../engine/html_compare.h"
#include "../lib/output.h"
#include "../lib/version.h"
#include "../lib/util.h"
#include "../policy/policy.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ablate_args {
	struct machine_args ma;
	struct matrix mx;        /* the full design's: policy, machine, options */
	const char *off, *html, *out;
	bool pairs, json, list, progress;
	uint64_t nseeds;
	int jobs;
};

#define AT(f) offsetof(struct ablate_args, f)
static const struct opt ablate_table[] = {
	{ .kind = OPT_GROUP, .group = machine_opts, .at = AT(ma) },
	{ "Ablation:", .kind = OPT_SECTION },
	{ "--off", NULL, OPT_STR, AT(off), "LIST", .help = "the switches to turn off, comma-separated (default:\n"
	  "every switch of the policy: pagelab policies --tunables)" },
	{ "--pairs", NULL, OPT_FLAG, AT(pairs), .help = "also every pair of them off together" },
	{ "--seeds", NULL, OPT_U64, AT(nseeds), "N", 1, 1000, "(1..1000)", .help = "seeds 1..N per design (default 5)" },
	{ "--max-time", NULL, OPT_DURATION, AT(mx.max_time_ns), "SECONDS",
	  .help = "stop each run after this much simulated time" },
	{ "Running and output:", .kind = OPT_SECTION },
	{ "--jobs", "-j", OPT_INT, AT(jobs), "N", 1, 256, "(1..256)", .help =
	  "run N cells in parallel (default: the number of CPUs);\nthe results are the same for every N" },
	{ "--json", NULL, OPT_FLAG, AT(json), .help = "print the comparison, with every p-value, as JSON" },
	{ "--html", NULL, OPT_STR, AT(html), "FILE", .help = "also write it as a self-contained HTML page (pagelab\n"
	  "compare's: a bar chart per figure, 95% intervals)" },
	{ "-o", "--output", OPT_STR, AT(out), "FILE", .help = "also append every run's record to FILE (pagelab sweep\n"
	  "-o's JSON lines, for pagelab compare); a rerun skips\nthe runs FILE already holds" },
	{ "--list", NULL, OPT_FLAG, AT(list), .help = "print the runs' pagelab run command lines, run nothing" },
	{ "--progress", NULL, OPT_FLAG, AT(progress), .help = "progress and ETA on stderr (default: on a tty)" },
	{ "--no-progress", NULL, OPT_UNFLAG, AT(progress), .flags = OPT_JOINED },
	{ .kind = OPT_END },
};

const struct opt_cmd ablate_cmd = {
	.name = "ablate",
	.usage =
"usage: pagelab ablate --policy NAME [--off LIST] [--pairs] [--seeds N]\n"
"                      [OPTIONS] -- WORKLOAD [ARGS] [+ WORKLOAD [ARGS]]...\n"
"Run a design with each of its mechanism switches off in turn (a switch: a\n"
"tunable with min 0, max 1, default 1; 1 is the kernel's code), over seeds,\n"
"and compare every variant with the full design as pagelab compare does:\n"
"per figure the mean over seeds, its % change and whether it is significant.\n"
"The machine options take one value each, as in pagelab run.\n",
	.opts = ablate_table,
	.col = 22,
	.after =
"\n"
"Figures: elapsed_s (and each workload's own, elapsed_s.K, when there are\n"
"several), the workloads' throughput and latency where they measure them\n"
"(fio's read_iops and clat percentiles, memtier's ops_s and p99_ms,\n"
"applaunch's switch times, dd's and dbench's mb_s; NAME.K with several\n"
"workloads), each saying whether higher or lower is better, pgmajfault,\n"
"workingset_refault, pgscan, pgsteal and every row of reclaim's work the\n"
"design counts (docs/cost.md): mean, median, standard deviation over seeds,\n"
"% change and p.\n"
"Exit status: 0; 1 if the HTML page could not be written or --check found a\n"
"broken invariant; 2 on bad input; 3 if a run stopped at --max-time.\n"
"See docs/ablate.md.\n",
	.prefix = "ablate: ",
	.unknown = "unknown option '%s' (see pagelab ablate --help)",
	.mode = OPT_DASHDASH,
};

/* A machine option: an axis of one value of the full design's matrix. */
static int ablate_take(struct machine_args *ma, const struct machine_arg *a)
{
	static const enum axis_values kinds[] = { [MO_WORD] = AXV_WORD, [MO_SIZE] = AXV_SIZE,
						  [MO_NUMBER] = AXV_NUMBER, [MO_SET] = AXV_ANY };
	struct matrix *mx = ma->ctx;
	char err[600];
	bool is_set = a->kind == MO_SET;
	if (is_set && (!strcmp(a->name, "policy") || !strcmp(a->name, "machine") || !strcmp(a->name, "seed")))
		die_usage("ablate: --set %s: use --%s", a->name, a->name);
	if (!matrix_add_axis(mx, a->name, is_set, a->value, kinds[a->kind], err, sizeof(err)))
		die_usage("ablate: %s", err);
	if (mx->axes[mx->nr_axes - 1].n != 1)
		die_usage("ablate: %s takes one value (pagelab sweep takes lists)", a->typed);
	return OPT_GO;
}

/* Variant v's matrix: the full design's axes, then its switches at 0. */
static void variant_matrix(const struct matrix *full, const struct policy_ops *pol, const struct ablate_variant *v,
			   struct matrix *mx)
{
	char err[600];
	memset(mx, 0, sizeof(*mx));
	for (int a = 0; a < full->nr_axes; a++)
		if (!matrix_add_axis(mx, full->axes[a].name, full->axes[a].is_set, full->axes[a].values[0], AXV_WORD,
				     err, sizeof(err)))
			die_usage("ablate: %s", err);
	for (int k = 0; k < v->n; k++)
		if (!matrix_add_axis(mx, pol->tunables[v->off[k]].name, true, "0", AXV_ANY, err, sizeof(err)))
			die_usage("ablate: --set %s and --off %s: a switch is either set or ablated",
				  pol->tunables[v->off[k]].name, pol->tunables[v->off[k]].name);
	mx->seeds = xcalloc(full->nr_seeds, sizeof(uint64_t));
	memcpy(mx->seeds, full->seeds, (size_t)full->nr_seeds * sizeof(uint64_t));
	mx->nr_seeds = full->nr_seeds;
	for (int w = 0; w < full->nr_wl; w++)
		mx->wl[w] = xstrdup(full->wl[w]);
	mx->nr_wl = full->nr_wl;
	mx->max_time_ns = full->max_time_ns;
	mx->check = full->check;
	mx->make_inputs = full->make_inputs;
	mx->trace_pages = full->trace_pages;
}

/* Every variant's cells, in variant order, seeds innermost, numbered
 * 0.. as one sweep's; *mxs the matrices their strings point into. */
static struct matrix_cell *ablate_cells(const struct matrix *full, const struct policy_ops *pol,
					const struct ablate_variant *v, int nv, struct matrix **mxs, int *n)
{
	struct matrix_cell *all = xcalloc((size_t)nv * (size_t)full->nr_seeds, sizeof(*all));
	char err[1200];
	*mxs = xcalloc((size_t)nv, sizeof(**mxs));
	*n = 0;
	for (int i = 0; i < nv; i++) {
		struct matrix_cell *cells;
		int nc;
		variant_matrix(full, pol, &v[i], &(*mxs)[i]);
		if (!matrix_cells(&(*mxs)[i], &cells, &nc, err, sizeof(err)))
			die_usage("ablate: %s", err);
		for (int k = 0; k < nc; k++) {
			all[*n] = cells[k];
			all[*n].index = *n;
			(*n)++;
		}
		free(cells);   /* the cells' own strings moved into all */
	}
	return all;
}

/* --json: the ablation's words, then compare's object. */
static void ablate_json(const struct cmp_table *t, int nt, const struct records *rs, const struct policy_ops *pol,
			const struct ablate_variant *v, int nv, int seeds, FILE *out)
{
	fputs("{\"policy\": ", out);
	json_put_str(out, pol->name);
	fprintf(out, ", \"seeds\": %d, \"oom_killed\": {", seeds);
	for (int c = 0; c < nt; c++)
		for (int d = 0; d < t[c].nr_designs; d++) {
			fputs(c || d ? ", " : "", out);
			json_put_str(out, t[c].designs[d]);
			fprintf(out, ": %d", ablate_killed(rs, t[c].config, t[c].designs[d]));
		}
	fputs("}, \"variants\": [", out);
	for (int i = 1; i < nv; i++) {
		fputs(i > 1 ? ", [" : "[", out);
		for (int k = 0; k < v[i].n; k++) {
			fputs(k ? ", " : "", out);
			json_put_str(out, pol->tunables[v[i].off[k]].name);
		}
		fputc(']', out);
	}
	fputs("], \"comparison\": ", out);
	compare_print_json(t, nt, out);
	fputs("}\n", out);
}

/* The comparison: text or --json on stdout, --html into af. */
static int ablate_report(const struct ablate_args *aa, const struct records *rs, const struct policy_ops *pol,
			 const struct ablate_variant *v, int nv, struct atomic_file *af, int argc, char **argv)
{
	char **figures = record_figure_columns(rs, NULL);
	const char **metrics = ablate_metrics(aa->mx.nr_wl, figures);
	char err[600];
	int nt, rc = 0;
	struct cmp_table *t = compare_records(rs, rs->n ? rs->r[0].design : NULL, metrics, &nt);
	if (aa->json)
		ablate_json(t, nt, rs, pol, v, nv, aa->mx.nr_seeds, stdout);
	else
		ablate_print_text(t, nt, rs, aa->ma.policy, stdout);
	if (aa->html) {
		char date[64], *cmd = html_cmdline(argc, argv);
		html_date(date, sizeof(date));
		struct html_provenance pv = { .version = pagelab_version(), .cmdline = cmd, .date = date };
		compare_html(af->f, t, nt, rs, NULL, &pv);
		free(cmd);
		if (!atomic_commit(af, err, sizeof(err))) {
			fprintf(stderr, "pagelab: %s\n", err);
			rc = 1;
		}
	}
	compare_free(t, nt);
	free(metrics);
	record_cgroup_columns_free(figures);
	return rc;
}

/* Run the cells and report; the exit status. */
static int ablate_execute(struct ablate_args *aa, const struct matrix_cell *cells, int n,
			  const struct policy_ops *pol, const struct ablate_variant *v, int nv, int argc, char **argv)
{
	char err[1200];
	struct atomic_file af;
	/* Opened first: a path that cannot be written is refused before
	 * anything runs. */
	if (aa->html && !atomic_open(&af, aa->html, err, sizeof(err)))
		die_usage("%s", err);
	const char **names = xcalloc((size_t)aa->mx.nr_axes, sizeof(char *));
	for (int a = 0; a < aa->mx.nr_axes; a++)
		names[a] = aa->mx.axes[a].name;
	struct sweep_opts o = { .jobs = aa->jobs, .out = aa->out, .shard = 1, .nshards = 1, .progress = aa->progress,
				.axis_names = names, .nr_axes = aa->mx.nr_axes };
	struct records rs = { 0 };
	int rc = sweep_run(cells, n, &o, &rs, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "pagelab: %s\n", err);
		if (aa->html)
			atomic_abort(&af);
	} else {
		int stop = sweep_stopped_cells(&rs);
		rc = ablate_report(aa, &rs, pol, v, nv, &af, argc, argv);
		rc = rc ? rc : stop;
	}
	records_free(&rs);
	free(names);
	return rc;
}

/* Without --off: every switch of pol the user did not --set (a switch
 * set is part of the design, not ablated), comma-separated in a new
 * string; NULL when none is left. */
static char *default_off(const struct policy_ops *pol, const struct matrix *given)
{
	int *idx = xcalloc((size_t)policy_nr_tunables(pol) + 1, sizeof(int));
	int n = ablate_switches(pol, idx);
	size_t len = 1, o = 0;
	for (int k = 0; k < n; k++)
		len += strlen(pol->tunables[idx[k]].name) + 1;
	char *list = xcalloc(len, 1);
	for (int k = 0; k < n; k++) {
		const char *name = pol->tunables[idx[k]].name;
		bool set = false;
		for (int a = 0; a < given->nr_axes; a++)
			set |= given->axes[a].is_set && !strcmp(given->axes[a].name, name);
		if (!set)
			o += (size_t)snprintf(list + o, len - o, "%s%s", o ? "," : "", name);
	}
	free(idx);
	if (!o && n)
		die_usage("ablate: every switch of %s is --set: nothing to turn off", pol->name);
	if (!o) {
		free(list);
		return NULL;
	}
	return list;
}

int cmd_ablate(int argc, char **argv)
{
	struct ablate_args aa = { .progress = isatty(2), .nseeds = 5,
				  .ma = { .machine = "vmm-2008", .take = ablate_take } };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	aa.jobs = ncpu > 0 ? (int)ncpu : 1;
	aa.ma.ctx = &aa.mx;
	char err[1200];
	int i, rc = opt_parse(&ablate_cmd, argc, argv, &aa, &i);
	if (rc != OPT_GO) {
		matrix_free(&aa.mx);
		return rc;
	}
	if (!aa.ma.policy)
		die_usage("ablate: which design? --policy NAME (see pagelab policies --tunables NAME)");
	const struct policy_ops *pol = policy_lookup(aa.ma.policy, err, sizeof(err));
	if (!pol)
		die_usage("ablate: %s", err);
	struct ablate_variant *v;
	int nv;
	char *off = aa.off ? NULL : default_off(pol, &aa.mx);
	if (!ablate_variants(pol, aa.off ? aa.off : off, aa.pairs, &v, &nv, err, sizeof(err)))
		die_usage("%s", err);
	free(off);
	if (i >= argc || i + 1 >= argc)
		die_usage("ablate: no workload: put it after '--' (see pagelab ablate --help)");
	/* the full design's matrix: policy and machine first, as a sweep's */
	struct matrix full = { 0 };
	if (!matrix_add_axis(&full, "policy", false, aa.ma.policy, AXV_WORD, err, sizeof(err)) ||
	    !matrix_add_axis(&full, "machine", false, aa.ma.machine, AXV_WORD, err, sizeof(err)))
		die_usage("ablate: %s", err);
	for (int a = 0; a < aa.mx.nr_axes; a++)
		if (!matrix_add_axis(&full, aa.mx.axes[a].name, aa.mx.axes[a].is_set, aa.mx.axes[a].values[0], AXV_WORD,
				     err, sizeof(err)))
			die_usage("ablate: %s", err);
	full.max_time_ns = aa.mx.max_time_ns;
	matrix_free(&aa.mx);
	aa.mx = full;
	aa.mx.seeds = xcalloc(aa.nseeds, sizeof(uint64_t));
	for (uint64_t k = 0; k < aa.nseeds; k++)
		aa.mx.seeds[k] = k + 1;
	aa.mx.nr_seeds = (int)aa.nseeds;
	if (sweep_workloads("ablate", &aa.mx, argc - i - 1, argv + i + 1)) {
		matrix_free(&aa.mx);
		free(v);
		return 0;
	}
	struct matrix *mxs;
	int n;
	struct matrix_cell *cells = ablate_cells(&aa.mx, pol, v, nv, &mxs, &n);
	if (!cell_check(&cells[0].c, err, sizeof(err)))
		die_usage("%s", err);
	rc = 0;
	if (aa.list)
		for (int k = 0; k < n; k++)
			printf("%s\n", cells[k].cmd);
	else
		rc = ablate_execute(&aa, cells, n, pol, v, nv, argc, argv);
	matrix_cells_free(cells, n);
	for (int k = 0; k < nv; k++)
		matrix_free(&mxs[k]);
	free(mxs);
	free(v);
	matrix_free(&aa.mx);
	return rc;
}
