/* mrc.c - pagelab mrc: miss-ratio curves of a trace (src/mrc/mrc.h,
 * docs/mrc.md): the exact LRU curve from stack distances in one pass,
 * SHARDS' sampled approximations of it, and any other policy's curve
 * simulated at every size on the ideal machine. */
#include "cli.h"
#include "../mrc/mrc.h"
#include "../mrc/mrc_out.h"
#include "../policy/policy.h"
#include "../lib/output.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void mrc_usage(FILE *out)
{
	fputs(
"usage: pagelab mrc [OPTIONS] TRACE\n"
"Miss ratio against cache size for a trace: the exact LRU curve from stack\n"
"distances in one pass, SHARDS' sampled estimate of it, and the curve of any\n"
"other policy simulated at each size on the ideal machine (the same counts as\n"
"pagelab run on the ideal machine with that much RAM replaying TRACE).\n"
"\n"
"  --policy LIST        curves to draw (default lru; lru is the exact curve;\n"
"                       none: SHARDS alone, holding only its sample; a path,\n"
"                       ./lifo.so, is a policy plugin)\n"
"  --sizes LIST         cache sizes: pages (4897p) or bytes (64M), ranges as\n"
"                       in pagelab sweep (16p:64K:x2, 1M:8M:+1M), or shares of\n"
"                       the trace's distinct pages (10%, 1%:64%:x2; 0 < N <= 100,\n"
"                       rounded to the nearest page once the pass counted them)\n"
"  --auto               log-spaced sizes up to the trace's distinct pages\n"
"                       (the default)\n"
"  --shards-rate R      add SHARDS at fixed sampling rate R (0 < R <= 1)\n"
"  --shards-size S      add SHARDS tracking at most S pages (fixed size)\n"
"  --seed N             SHARDS' hash seed (default 1)\n"
"  --jobs N             threads for the simulated curves (default: the CPUs);\n"
"                       the results are the same for every N\n"
"Output (default: a table on stdout):\n"
"  --csv                one row per curve and size\n"
"  --json               JSON with the pagelab version and this command line\n"
"  --svg FILE           also write the plot: miss ratio against cache size (log\n"
"                       axis), one line per curve\n"
"  --html FILE          also write a self-contained page with the plot and table\n"
"  --progress / --no-progress  progress on stderr (default: on a tty)\n"
"Reader options:\n"
"  --format F           " TRACE_FORMAT_NAMES "\n"
"                       (default: detect)\n"
"  --spec SPEC          csv/block columns: \"obj-id-col=5, time-col=2, op-col=3\"\n"
"  --no-instructions    lackey: leave out instruction fetches\n"
"  --max-request SIZE   the most pages one record (a block request, a lackey\n"
"                       access) may cover: pages (4096p) or bytes (16M); a\n"
"                       larger one is an error (default 262144p, 1G)\n"
"\n"
"A miss is a reference to a page not in the cache, first references included.\n"
"When both run, SHARDS' mean absolute error against the exact curve is\n"
"printed.  See docs/mrc.md.\n", out);
}

static const char *need_arg(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		die_usage("option %s needs a value", argv[*i]);
	return argv[++*i];
}

/* --policy: comma-separated names, each a policy of this build or a
 * plugin's path, each once. */
static int parse_policies(char *list, const char **out, int max)
{
	int n = 0;
	if (!list[0] || list[0] == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,"))
		die_usage("mrc: empty item in --policy '%s'", list);
	char *save = NULL;
	for (char *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		char err[300];
		if (!policy_lookup(p, err, sizeof(err)))
			die_usage("%s", err);
		for (int k = 0; k < n; k++)
			if (!strcmp(out[k], p))
				die_usage("mrc: policy '%s' given twice", p);
		if (n == max)
			die_usage("mrc: at most %d policies", max);
		out[n++] = p;
	}
	return n;
}

#define MAX_POLICIES 64

int cmd_mrc(int argc, char **argv)
{
	struct mrc_opts o = { .topts = { .format = TRACE_FMT_AUTO }, .seed = 1, .progress = isatty(2) };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	o.jobs = ncpu > 0 ? (int)ncpu : 1;
	const char *pols[MAX_POLICIES];
	char *policy_list = NULL;
	uint64_t *sizes = NULL;
	double *shares = NULL;
	bool csv = false, json = false, sizes_given = false, auto_given = false;
	const char *svg = NULL, *html = NULL;
	char err[1200];
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		uint64_t v;
		double x;
		int rc;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			mrc_usage(stdout);
			return 0;
		} else if (!strcmp(a, "--policy")) {
			free(policy_list);
			policy_list = xstrdup(need_arg(argc, argv, &i));
		} else if (!strcmp(a, "--sizes")) {
			if (sizes_given)
				die_usage("mrc: --sizes given twice");
			if (!mrc_parse_size_list(need_arg(argc, argv, &i), &sizes, &o.nr_sizes, &shares, &o.nr_shares,
						 err, sizeof(err)))
				die_usage("mrc: %s", err);
			sizes_given = true;
		} else if (!strcmp(a, "--auto")) {
			auto_given = true;
		} else if (!strcmp(a, "--shards-rate")) {
			const char *s = need_arg(argc, argv, &i);
			if (!parse_double(s, &x) || !(x > 0) || x > 1)
				die_usage("mrc: bad --shards-rate '%s' (0 < R <= 1)", s);
			o.shards_rate = x;
		} else if (!strcmp(a, "--shards-size")) {
			const char *s = need_arg(argc, argv, &i);
			if (!parse_u64(s, &v) || v < 1 || v > UINT32_MAX)
				die_usage("mrc: bad --shards-size '%s' (pages, 1..%u)", s, UINT32_MAX);
			o.shards_size = v;
		} else if (!strcmp(a, "--seed")) {
			const char *s = need_arg(argc, argv, &i);
			if (!parse_u64(s, &o.seed))
				die_usage("mrc: bad --seed '%s'", s);
		} else if (!strcmp(a, "--jobs") || !strcmp(a, "-j")) {
			const char *s = need_arg(argc, argv, &i);
			if (!parse_u64(s, &v) || v < 1 || v > 256)
				die_usage("mrc: bad --jobs '%s' (1..256)", s);
			o.jobs = (int)v;
		} else if (!strcmp(a, "--csv")) {
			csv = true;
		} else if (!strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--svg")) {
			svg = need_arg(argc, argv, &i);
		} else if (!strcmp(a, "--html")) {
			html = need_arg(argc, argv, &i);
		} else if (!strcmp(a, "--progress")) {
			o.progress = true;
		} else if (!strcmp(a, "--no-progress")) {
			o.progress = false;
		} else if ((rc = trace_reader_option(argc, argv, &i, &o.topts, err, sizeof(err))) != 0) {
			if (rc < 0)
				die_usage("mrc: %s", err);
		} else if (a[0] == '-' && a[1]) {
			die_usage("mrc: unknown option '%s' (see pagelab mrc --help)", a);
		} else if (o.path) {
			die_usage("mrc: expected exactly one TRACE (see pagelab mrc --help)");
		} else {
			o.path = a;
		}
	}
	if (!o.path)
		die_usage("mrc: expected exactly one TRACE (see pagelab mrc --help)");
	if (sizes_given && auto_given)
		die_usage("mrc: --sizes and --auto exclude each other");
	if (csv && json)
		die_usage("mrc: --csv and --json exclude each other");
	if (!policy_list)
		policy_list = xstrdup("lru");
	if (!strcmp(policy_list, "none")) {
		if (!(o.shards_rate > 0) && !o.shards_size)
			die_usage("mrc: --policy none leaves no curve: give --shards-rate or --shards-size");
	} else {
		o.nr_policies = parse_policies(policy_list, pols, MAX_POLICIES);
	}
	o.policies = pols;
	o.sizes = sizes;
	o.shares = shares;
	/* The plot files are opened first, so that a path that cannot be
	 * written is refused before a long pass; each is renamed into place
	 * only when complete. */
	struct atomic_file af_svg = { 0 }, af_html = { 0 };
	if (svg && html && !strcmp(svg, html))
		die_usage("mrc: --svg and --html name the same file");
	if (svg && !atomic_open(&af_svg, svg, err, sizeof(err)))
		die_usage("mrc: %s", err);
	if (html && !atomic_open(&af_html, html, err, sizeof(err))) {
		if (svg)
			atomic_abort(&af_svg);
		die_usage("mrc: %s", err);
	}
	output_catch_interrupts();
	struct mrc_result r;
	if (!mrc_compute(&o, &r, err, sizeof(err))) {
		if (svg)
			atomic_abort(&af_svg);
		if (html)
			atomic_abort(&af_html);
		/* A signal that stopped a blocked read (a FIFO's writer that
		 * never writes) is an interruption, not bad input. */
		int sig = output_interrupted();
		if (sig) {
			fprintf(stderr, "pagelab: mrc: interrupted while reading %s\n", o.path);
			exit(128 + sig);
		}
		die_usage("%s", err);
	}
	int rc = 0;
	if (svg) {
		mrc_plot_svg(af_svg.f, &r, o.path);
		if (!atomic_commit(&af_svg, err, sizeof(err))) {
			fprintf(stderr, "pagelab: %s\n", err);
			rc = 1;
		}
	}
	if (html) {
		mrc_plot_html(af_html.f, &r, o.path, argc, argv);
		if (!atomic_commit(&af_html, err, sizeof(err))) {
			fprintf(stderr, "pagelab: %s\n", err);
			rc = 1;
		}
	}
	if (csv)
		mrc_print_csv(stdout, &r);
	else if (json)
		mrc_print_json(stdout, &r, o.path, cli_argc ? cli_argc : argc, cli_argc ? cli_argv : argv);
	else
		mrc_print_table(stdout, &r, o.path);
	int sig = r.interrupted;
	mrc_result_free(&r);
	free(sizes);
	free(shares);
	free(policy_list);
	if (!output_close_stdout())
		return 1;
	return sig ? 128 + sig : rc;
}
