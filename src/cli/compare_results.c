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

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct compare_args {
	const char *baseline, *metric_list, *html;
	bool json;
	const char **files;
	int nfiles;
};

static int compare_pos(void *dest, const char *arg);

#define AT(f) offsetof(struct compare_args, f)
static const struct opt compare_table[] = {
	{ "--baseline", NULL, OPT_STR, AT(baseline), "DESIGN", .help = "the column the others are compared with "
	  "(default: the\nfirst design in the file)" },
	{ "--metric", NULL, OPT_STR, AT(metric_list), "LIST", .help = "figures to compare (default: the CSV figures of\n"
	  "docs/sweeps.md; for trace replays the misses, pgfault\nand pgmajfault; with --cgroup records, each cgroup's\nfigures not 0 everywhere, cgroup.PATH.FILE; after\nthe CSV figures the workloads' throughput and\nlatency (read_iops, p99_ms...: docs/sweeps.md); any\n/proc/vmstat counter name works, and any row of\nreclaim's work: docs/cost.md)" },
	{ "--json", NULL, OPT_FLAG, AT(json), .help = "print the tables, with every p-value, as JSON" },
	{ "--html", NULL, OPT_STR, AT(html), "FILE", .help = "also write them as a self-contained HTML page, with a\n"
	  "bar chart per figure (95% intervals, % change, *)" },
	{ .kind = OPT_END },
};

const struct opt_cmd compare_cmd = {
	.name = "compare",
	.usage =
"usage: pagelab compare [--baseline DESIGN] [--metric LIST] [--json]\n"
"                       [--html FILE] RESULTS...\n"
"       pagelab compare [machine options] -- WORKLOAD [ARGS]\n"
"The first form compares designs from results files (pagelab sweep -o) as\n"
"mmtests' compare-kernels does: per configuration (machine and workloads),\n"
"each figure's mean and standard deviation over seeds for the baseline and\n"
"every other design, with its % change and a significance marker (Welch's\n"
"t-test, or Mann-Whitney U for fewer than 5 seeds a side).\n",
	.opts = compare_table,
	.col = 21,
	.after =
"The second form runs the workload on this host's kernel and on the\n"
"simulator and compares them (docs/fidelity.md):\n\n",
	.also = &compare_kernel_cmd,
	.prefix = "",
	.unknown = "unknown option '%s' (see pagelab compare --help)",
	.mode = OPT_ANYWHERE,
	.pos = compare_pos,
};

static int compare_pos(void *dest, const char *arg)
{
	struct compare_args *ca = dest;
	ca->files = xrealloc(ca->files, (size_t)(ca->nfiles + 1) * sizeof(*ca->files));
	ca->files[ca->nfiles++] = arg;
	return OPT_GO;
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

/* The records of every file, each once. */
static void compare_load(const struct compare_args *ca, struct records *rs)
{
	char err[600];
	for (int k = 0; k < ca->nfiles; k++)
		if (!records_load(ca->files[k], rs, false, NULL, err, sizeof(err)))
			die_usage("%s", err);
	/* A record given twice (a file named twice, overlapping shards) is
	 * one run, not another seed: counted once, as merge does. */
	int dup = records_dedupe(rs);
	if (dup)
		fprintf(stderr, "pagelab compare: %d record%s repeated (the same command line), counted once\n", dup,
			dup == 1 ? "" : "s");
	records_mixed(rs, err, sizeof(err));
	if (err[0])
		fprintf(stderr, "pagelab compare: note: %s\n", err);
	if (!rs->n)
		die_usage("compare: no results in the file%s", ca->nfiles > 1 ? "s" : "");
}

/* --metric LIST, split in *mcopy: NULL-terminated names (NULL: none
 * given), each a figure some result has; --baseline a design in them. */
static const char **compare_metrics(const struct compare_args *ca, const struct records *rs, char **mcopy)
{
	const char **metrics = NULL;
	if (ca->metric_list) {
		*mcopy = xstrdup(ca->metric_list);
		int n = 0;
		char *save = NULL;
		for (char *m = strtok_r(*mcopy, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
			metrics = xrealloc(metrics, (size_t)(n + 2) * sizeof(char *));
			metrics[n++] = m;
		}
		if (!n)
			die_usage("compare: empty --metric");
		metrics[n] = NULL;
	}
	/* A figure asked for by name must exist somewhere. */
	for (int m = 0; metrics && metrics[m]; m++) {
		bool any = false, avail = false;
		double v;
		for (int i = 0; i < rs->n && !any; i++)
			any = record_metric(&rs->r[i], metrics[m], &v);
		for (int i = 0; i < rs->n && !avail; i++)
			json_get_bool(rs->r[i].j, "available", &avail);
		if (!any && avail)
			die_usage("compare: no result has a figure '%s'", metrics[m]);
	}
	bool found = !ca->baseline;
	for (int i = 0; i < rs->n && !found; i++)
		found = !strcmp(rs->r[i].design, ca->baseline);
	if (!found)
		die_usage("compare: no design '%s' in the results", ca->baseline);
	return metrics;
}

int cmd_compare_results(int argc, char **argv)
{
	struct compare_args ca = { 0 };
	struct records rs = { 0 };
	char err[600];
	int next, rc = opt_parse(&compare_cmd, argc, argv, &ca, &next);
	if (rc != OPT_GO) {
		free(ca.files);
		return rc;
	}
	if (!ca.nfiles)
		die_usage("compare: no results file (see pagelab compare --help)");
	rc = 0;
	/* --html first: a path that cannot be written is refused before the
	 * results are read, and its temporary file is there (removed on a
	 * signal or an error) for the whole command. */
	struct atomic_file af;
	if (ca.html && !atomic_open(&af, ca.html, err, sizeof(err)))
		die_usage("%s", err);
	compare_load(&ca, &rs);
	free(ca.files);
	char *mcopy = NULL;
	const char **metrics = compare_metrics(&ca, &rs, &mcopy);
	int nt;
	struct cmp_table *t = compare_records(&rs, ca.baseline, metrics, &nt);
	warn_idle_seeds(t, nt);
	if (ca.json)
		compare_print_json(t, nt, stdout);
	else
		compare_print_text(t, nt, stdout);
	if (ca.html) {
		char date[64], *cmd = html_cmdline(argc, argv);
		html_date(date, sizeof(date));
		struct html_provenance pv = { .version = pagelab_version(), .cmdline = cmd, .date = date };
		compare_html(af.f, t, nt, &rs, NULL, &pv);
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
