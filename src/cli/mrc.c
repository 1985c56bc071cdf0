/* mrc.c - pagelab mrc: miss-ratio curves of a trace (src/mrc/mrc.h,
 * docs/mrc.md): the exact LRU curve from stack distances in one pass,
 * SHARDS' sampled approximations of it, and any other policy's curve
 * simulated at every size on the ideal machine. */
#include "cli.h"
#include "reader_opts.h"
#include "../mrc/mrc.h"
#include "../mrc/mrc_out.h"
#include "../cachesim/marks.h"
#include "../policy/policy.h"
#include "../lib/output.h"
#include "../lib/util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct mrc_args {
	struct mrc_opts o;
	const char *policy_list, *svg, *html, *warmup;
	uint64_t *sizes;
	double *shares;
	bool csv, json, sizes_given, auto_given;
};

static int sizes_opt(void *dest, const struct opt *o, const char *typed, const char *value);
static int mrc_pos(void *dest, const char *arg);

#define AT(f) offsetof(struct mrc_args, f)
static const struct opt mrc_table[] = {
	{ "--policy", NULL, OPT_STR, AT(policy_list), "LIST", .help = "curves to draw (default lru; lru is the exact curve;\n"
	  "none: SHARDS alone, holding only its sample; a path,\n./lifo.so, is a policy plugin)" },
	{ "--sizes", NULL, OPT_CALL, 0, "LIST", .call = sizes_opt, .help = "cache sizes: pages (4897p) or bytes (64M), ranges as\n"
	  "in pagelab sweep (16p:64K:x2, 1M:8M:+1M), or shares of\nthe trace's distinct pages (10%, 1%:64%:x2; 0 < N <= 100,\n"
	  "rounded to the nearest page once the pass counted them)" },
	{ "--auto", NULL, OPT_FLAG, AT(auto_given), .help = "log-spaced sizes up to the trace's distinct pages\n(the default)" },
	{ "--shards-rate", NULL, OPT_DOUBLE, AT(o.shards_rate), "R", 0, 1, "(0 < R <= 1)",
	  .help = "add SHARDS at fixed sampling rate R (0 < R <= 1)" },
	{ "--shards-size", NULL, OPT_U64, AT(o.shards_size), "S", 1, UINT32_MAX, "(pages, 1..4294967295)",
	  .help = "add SHARDS tracking at most S pages (fixed size)" },
	{ "--seed", NULL, OPT_U64, AT(o.seed), "N", 0, (double)UINT64_MAX, .help = "SHARDS' hash seed (default 1)" },
	{ "--warmup", NULL, OPT_STR, AT(warmup), "N|F", .help = "the first N references (or a fraction 0 < F < 1 of\n"
	  "them) warm every curve and are not counted; not with\nopt, kernel designs or plugins (docs/mrc.md)" },
	{ "--window", NULL, OPT_U64, AT(o.window), "N", 1, (double)UINT64_MAX, "(references, at least 1)",
	  .help = "also the misses of every N references (after the\nwarm-up) at each size; needs --sizes" },
	{ "--jobs", "-j", OPT_INT, AT(o.jobs), "N", 1, 256, "(1..256)", .help = "threads for the simulated curves "
	  "(default: the CPUs);\nthe results are the same for every N" },
	{ "Output (default: a table on stdout):", .kind = OPT_SECTION },
	{ "--csv", NULL, OPT_FLAG, AT(csv), .help = "one row per curve and size" },
	{ "--json", NULL, OPT_FLAG, AT(json), .help = "JSON with the pagelab version and this command line" },
	{ "--svg", NULL, OPT_STR, AT(svg), "FILE", .help = "also write the plot: miss ratio against cache size (log\n"
	  "axis), one line per curve" },
	{ "--html", NULL, OPT_STR, AT(html), "FILE", .help = "also write a self-contained page with the plot and table" },
	{ "--progress", NULL, OPT_FLAG, AT(o.progress), .help = "progress on stderr (default: on a tty)" },
	{ "--no-progress", NULL, OPT_UNFLAG, AT(o.progress), .flags = OPT_JOINED },
	{ .kind = OPT_GROUP, .group = reader_opts, .at = AT(o.topts) },
	{ .kind = OPT_END },
};

const struct opt_cmd mrc_cmd = {
	.name = "mrc",
	.usage =
"usage: pagelab mrc [OPTIONS] TRACE\n"
"Miss ratio against cache size for a trace: the exact LRU curve from stack\n"
"distances in one pass, SHARDS' sampled estimate of it, and the curve of any\n"
"other policy simulated at each size on the ideal machine (the same counts as\n"
"pagelab run on the ideal machine with that much RAM replaying TRACE).\n"
"\n",
	.opts = mrc_table,
	.col = 23,
	.after =
"\n"
"A miss is a reference to a page not in the cache, first references included.\n"
"When both run, SHARDS' mean absolute error against the exact curve is\n"
"printed.  See docs/mrc.md.\n",
	.prefix = "mrc: ",
	.unknown = "mrc: unknown option '%s' (see pagelab mrc --help)",
	.mode = OPT_ANYWHERE,
	.pos = mrc_pos,
};

static int sizes_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	struct mrc_args *ma = dest;
	char err[1200];
	(void)o;
	(void)typed;
	if (ma->sizes_given)
		die_usage("mrc: --sizes given twice");
	if (!mrc_parse_size_list(value, &ma->sizes, &ma->o.nr_sizes, &ma->shares, &ma->o.nr_shares, err,
				 sizeof(err)))
		die_usage("mrc: %s", err);
	ma->sizes_given = true;
	return OPT_GO;
}

static int mrc_pos(void *dest, const char *arg)
{
	struct mrc_args *ma = dest;
	if (ma->o.path)
		die_usage("mrc: expected exactly one TRACE (see pagelab mrc --help)");
	ma->o.path = arg;
	return OPT_GO;
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

/* What the options say together: the curves, and the plot files opened
 * first, so that a path that cannot be written is refused before a long
 * pass (each is renamed into place only when complete). */
static char *mrc_prepare(struct mrc_args *ma, const char **pols, struct atomic_file *af_svg,
			 struct atomic_file *af_html)
{
	struct mrc_opts *o = &ma->o;
	char err[1200];
	if (!o->path)
		die_usage("mrc: expected exactly one TRACE (see pagelab mrc --help)");
	if (ma->sizes_given && ma->auto_given)
		die_usage("mrc: --sizes and --auto exclude each other");
	if (ma->csv && ma->json)
		die_usage("mrc: --csv and --json exclude each other");
	char *policy_list = xstrdup(ma->policy_list ? ma->policy_list : "lru");
	if (!strcmp(policy_list, "none")) {
		if (!(o->shards_rate > 0) && !o->shards_size)
			die_usage("mrc: --policy none leaves no curve: give --shards-rate or --shards-size");
	} else {
		o->nr_policies = parse_policies(policy_list, pols, MAX_POLICIES);
	}
	o->policies = pols;
	if (ma->warmup) {
		struct warmup_arg w;
		if (!warmup_parse(ma->warmup, &w))
			die_usage("mrc: bad --warmup '%s' (references, 0 or more, or a fraction 0 < F < 1)", ma->warmup);
		if (!warmup_resolve(&w, o->path, &o->topts, &o->warmup, err, sizeof(err)))
			die_usage("mrc: %s", err);
	}
	o->sizes = ma->sizes;
	o->shares = ma->shares;
	if (ma->svg && ma->html && !strcmp(ma->svg, ma->html))
		die_usage("mrc: --svg and --html name the same file");
	if (ma->svg && !atomic_open(af_svg, ma->svg, err, sizeof(err)))
		die_usage("mrc: %s", err);
	if (ma->html && !atomic_open(af_html, ma->html, err, sizeof(err))) {
		if (ma->svg)
			atomic_abort(af_svg);
		die_usage("mrc: %s", err);
	}
	return policy_list;
}

/* The plot files, renamed into place: 1 if one could not be written. */
static int mrc_plots(const struct mrc_args *ma, const struct mrc_result *r, struct atomic_file *af_svg,
		     struct atomic_file *af_html, int argc, char **argv)
{
	char err[1200];
	int rc = 0;
	if (ma->svg) {
		mrc_plot_svg(af_svg->f, r, ma->o.path);
		if (!atomic_commit(af_svg, err, sizeof(err))) {
			fprintf(stderr, "pagelab: %s\n", err);
			rc = 1;
		}
	}
	if (ma->html) {
		mrc_plot_html(af_html->f, r, ma->o.path, argc, argv);
		if (!atomic_commit(af_html, err, sizeof(err))) {
			fprintf(stderr, "pagelab: %s\n", err);
			rc = 1;
		}
	}
	return rc;
}

int cmd_mrc(int argc, char **argv)
{
	struct mrc_args ma = { .o = { .topts = { .format = TRACE_FMT_AUTO }, .seed = 1, .progress = isatty(2) } };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	ma.o.jobs = ncpu > 0 ? (int)ncpu : 1;
	const char *pols[MAX_POLICIES];
	char err[1200];
	int next, rc = opt_parse(&mrc_cmd, argc, argv, &ma, &next);
	if (rc != OPT_GO)
		return rc;
	struct atomic_file af_svg = { 0 }, af_html = { 0 };
	char *policy_list = mrc_prepare(&ma, pols, &af_svg, &af_html);
	output_catch_interrupts();
	struct mrc_result r;
	if (!mrc_compute(&ma.o, &r, err, sizeof(err))) {
		if (ma.svg)
			atomic_abort(&af_svg);
		if (ma.html)
			atomic_abort(&af_html);
		/* A signal that stopped a blocked read (a FIFO's writer that
		 * never writes) is an interruption, not bad input. */
		int sig = output_interrupted();
		if (sig) {
			fprintf(stderr, "pagelab: mrc: interrupted while reading %s\n", ma.o.path);
			exit(128 + sig);
		}
		die_usage("%s", err);
	}
	rc = mrc_plots(&ma, &r, &af_svg, &af_html, argc, argv);
	if (ma.csv)
		mrc_print_csv(stdout, &r);
	else if (ma.json)
		mrc_print_json(stdout, &r, ma.o.path, cli_argc ? cli_argc : argc, cli_argc ? cli_argv : argv);
	else
		mrc_print_table(stdout, &r, ma.o.path);
	int sig = r.interrupted;
	mrc_result_free(&r);
	free(ma.sizes);
	free(ma.shares);
	free(policy_list);
	if (!output_close_stdout())
		return 1;
	return sig ? 128 + sig : rc;
}
