/* compare_results.c - pagelab compare RESULTS...: designs against each
 * other over seeds from results files (src/engine/compare.h), in
 * mmtests' compare-kernels shape.  With "-- WORKLOAD" compare.c sends the
 * command to the kernel comparison (compare_kernel.c) instead. */
#include "cli.h"
#include "../engine/compare.h"
#include "../engine/html_compare.h"
#include "../lib/output.h"
#include "../lib/version.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void compare_usage(FILE *out)
{
	fputs(
"usage: pagelab compare [--baseline DESIGN] [--metric LIST] [--json]\n"
"                       [--html FILE] RESULTS...\n"
"       pagelab compare [machine options] -- WORKLOAD [ARGS]\n"
"The first form compares designs from results files (pagelab sweep -o) as\n"
"mmtests' compare-kernels does: per configuration (machine and workloads),\n"
"each figure's mean and standard deviation over seeds for the baseline and\n"
"every other design, with its % change and a significance marker (Welch's\n"
"t-test, or Mann-Whitney U for fewer than 5 seeds a side).\n"
"  --baseline DESIGN  the column the others are compared with (default: the\n"
"                     first design in the file)\n"
"  --metric LIST      figures to compare (default: the CSV figures of\n"
"                     docs/sweeps.md; for trace replays the misses, pgfault\n"
"                     and pgmajfault; any /proc/vmstat counter name works)\n"
"  --json             print the tables, with every p-value, as JSON\n"
"  --html FILE        also write them as a self-contained HTML page, with a\n"
"                     bar chart per figure (95% intervals, % change, *)\n"
"The second form runs the workload on this host's kernel and on the\n"
"simulator and compares them (docs/fidelity.md):\n\n", out);
	compare_kernel_usage(out);
}

/* Once, on stderr: seeds that changed nothing make every standard
 * deviation 0 and every test meaningless; more of them cost time only. */
static void warn_idle_seeds(const struct cmp_table *t, int nt)
{
	for (int c = 0; c < nt; c++)
		if (compare_seeds_idle(&t[c])) {
			fprintf(stderr, "pagelab: compare: every seed of '%s' gave the same figures (nothing in it is "
				"random, as in a trace replay): one seed is enough, and no difference can be significant\n", t[c].config);
			return;
		}
}

int cmd_compare_results(int argc, char **argv)
{
	const char *baseline = NULL, *metric_list = NULL, *html = NULL;
	bool json = false;
	struct records rs = { 0 };
	const char **files = NULL;
	int nfiles = 0;
	char err[600];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			compare_usage(stdout);
			free(files);
			return 0;
		} else if (!strcmp(a, "--baseline") || !strcmp(a, "--metric")) {
			if (i + 1 >= argc)
				die_usage("option %s needs a value", a);
			*(!strcmp(a, "--baseline") ? &baseline : &metric_list) = argv[++i];
		} else if (!strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--html")) {
			if (i + 1 >= argc)
				die_usage("option %s needs a value", a);
			html = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			die_usage("unknown option '%s' (see pagelab compare --help)", a);
		} else {
			files = xrealloc(files, (size_t)(nfiles + 1) * sizeof(*files));
			files[nfiles++] = a;
		}
	}
	if (!nfiles)
		die_usage("compare: no results file (see pagelab compare --help)");
	/* --html first: a path that cannot be written is refused before the
	 * results are read, and its temporary file is there (removed on a
	 * signal or an error) for the whole command. */
	struct atomic_file af;
	if (html && !atomic_open(&af, html, err, sizeof(err)))
		die_usage("%s", err);
	for (int k = 0; k < nfiles; k++)
		if (!records_load(files[k], &rs, false, NULL, err, sizeof(err)))
			die_usage("%s", err);
	free(files);
	/* A record given twice (a file named twice, overlapping shards) is
	 * one run, not another seed: counted once, as merge does. */
	int dup = records_dedupe(&rs);
	if (dup)
		fprintf(stderr, "pagelab compare: %d record%s repeated (the same command line), counted once\n", dup,
			dup == 1 ? "" : "s");
	records_mixed(&rs, err, sizeof(err));
	if (err[0])
		fprintf(stderr, "pagelab compare: note: %s\n", err);
	if (!rs.n)
		die_usage("compare: no results in the file%s", nfiles > 1 ? "s" : "");
	const char **metrics = NULL;
	char *mcopy = NULL;
	if (metric_list) {
		mcopy = xstrdup(metric_list);
		int n = 0;
		char *save = NULL;
		for (char *m = strtok_r(mcopy, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
			metrics = xrealloc(metrics, (size_t)(n + 2) * sizeof(char *));
			metrics[n++] = m;
		}
		if (!n)
			die_usage("compare: empty --metric");
		metrics[n] = NULL;
	}
	/* A figure asked for by name must exist somewhere. */
	for (int m = 0; metrics && metrics[m]; m++) {
		bool any = false;
		for (int i = 0; i < rs.n && !any; i++) {
			double v;
			any = record_metric(&rs.r[i], metrics[m], &v);
		}
		bool avail = false;
		for (int i = 0; i < rs.n && !avail; i++)
			json_get_bool(rs.r[i].j, "available", &avail);
		if (!any && avail)
			die_usage("compare: no result has a figure '%s'", metrics[m]);
	}
	if (baseline) {
		bool found = false;
		for (int i = 0; i < rs.n && !found; i++)
			found = !strcmp(rs.r[i].design, baseline);
		if (!found)
			die_usage("compare: no design '%s' in the results", baseline);
	}
	int nt, rc = 0;
	struct cmp_table *t = compare_records(&rs, baseline, metrics, &nt);
	warn_idle_seeds(t, nt);
	if (json)
		compare_print_json(t, nt, stdout);
	else
		compare_print_text(t, nt, stdout);
	if (html) {
		char date[64], *cmd = html_cmdline(argc, argv);
		html_date(date, sizeof(date));
		struct html_provenance pv = { .version = pagelab_version(), .cmdline = cmd, .date = date };
		compare_html(af.f, t, nt, &rs, &pv);
		free(cmd);
		if (!atomic_commit(&af, err, sizeof(err))) {
			fprintf(stderr, "pagelab: %s\n", err);
			rc = 1;
		}
	}
	compare_free(t, nt);
	free(metrics);
	free(mcopy);
	records_free(&rs);
	return rc; /* a stdout write error: one line and exit 1 at exit (output.c) */
}
