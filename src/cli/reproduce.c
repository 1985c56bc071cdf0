/* reproduce.c - pagelab reproduce: re-run the five threads' experiments and
 * print, for each, the thread's figures next to pagelab's with a verdict per
 * comparison (src/reproduce/experiment.h). */
#include "cli.h"
#include "../lib/wrap.h"
#include "../reproduce/experiment.h"
#include "../reproduce/calibrate.h"
#include "../reproduce/html.h"
#include "../reproduce/exp_file.h"
#include "../lib/util.h"
#include "../lib/output.h"
#include "../lib/version.h"

#include <signal.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Streaming: each experiment is written (and stdout flushed) as soon as it
 * and every one before it have finished, so a long --full run shows its
 * results as it goes and an interrupted one keeps them.  Called under the
 * pool's lock, in experiment order. */
struct stream {
	bool json, host_times, progress;
	int counts[EXP_COUNTS];
	int done, total;
	double t0, cpu_s;
};

static double host_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The progress line ("\rpagelab reproduce: 12/50 runs done, ...") is on
 * stderr, usually the same terminal as stdout: it is erased (carriage
 * return, erase to the end of the line) before an experiment is printed,
 * or the experiment's first line would follow it on the same row.  The
 * pool draws it again, below, at the next finished run. */
static void clear_progress(FILE *err)
{
	fputs("\r\033[K", err);
	fflush(err);
}

static void stream_one(const struct exp_result *r, void *arg)
{
	struct stream *st = arg;
	if (st->progress)
		clear_progress(stderr);
	(st->json ? exp_print_json_experiment : exp_print_experiment)(r, stdout, st->counts);
	fflush(stdout);
	st->done++;
	st->cpu_s += r->host_cpu_s;
	/* Host time is not part of the output (it depends on the host): it
	 * goes to stderr. */
	if (st->host_times)
		fprintf(stderr, "pagelab reproduce: experiment %d done at %.1f s, its runs %.1f s of CPU (%d of %d)\n",
			r->e->id, host_now() - st->t0, r->host_cpu_s, st->done, st->total);
}

struct reproduce_args {
	struct reproduce_opts o;
	bool json, calibrate, quiet;
	const char *html, *file;
	uint64_t max_time_ns;
};

static int only_opt(void *dest, const struct opt *o, const char *typed, const char *value);
static int print_file_opt(void *dest, const struct opt *o, const char *typed, const char *value);
static int quiet_opt(void *dest, const struct opt *o, const char *typed, const char *value);
static int reproduce_pos(void *dest, const char *arg);
static void reproduce_more(FILE *out);

#define AT(f) offsetof(struct reproduce_args, f)
static const struct opt reproduce_table[] = {
	{ "--full", NULL, OPT_FLAG, AT(o.full), .help = "the threads' machines and sizes (default: quick mode, machines\n"
	  "and sizes scaled down together, under a minute)" },
	{ "--only", NULL, OPT_CALL, 0, "N", .call = only_opt, .help = "run experiment N only (1-5)" },
	{ "--json", NULL, OPT_FLAG, AT(json), .help = "print everything as one JSON object" },
	{ "--html", NULL, OPT_STR, AT(html), "FILE", .missing = "option --html needs a file name",
	  .help = "also write a self-contained HTML report: per experiment the\n"
	  "verdicts with the thread's ratios beside pagelab's as bars,\nthe timelines of every design, the text report folded" },
	{ "--jobs", "-j", OPT_INT, AT(o.jobs), "N", 1, 256, "(1..256)", .help = "run N simulations in parallel "
	  "(default: the number of CPUs);\nthe output is the same for every N" },
	{ "--check", NULL, OPT_FLAG, AT(o.check), .help = "verify the mm invariants after every step of every run (slow)" },
	{ "--max-time", NULL, OPT_DURATION, AT(max_time_ns), "T", .range = "(a duration: 30, 7200s, 500ms)",
	  .help = "stop every run after T of simulated time (30, 7200s,\n"
	  "500ms); a run stopped so is marked in the tables and\nverdicts; exit status 3" },
	{ "--calibrate", NULL, OPT_FLAG, AT(calibrate), .help = "fit the machine parameters the thread does not state "
	  "(machines\n--show NAME lists them) to the baseline design's published\n"
	  "figures, then print the fit and both the raw verdicts and those\nwith the fitted values (a few minutes in quick mode)" },
	{ "--print-file", NULL, OPT_CALL, 0, "N", .call = print_file_opt,
	  .missing = "option --print-file needs an experiment number",
	  .help = "print experiment N as an experiment file, to start your own" },
	{ "EXP", .kind = OPT_POS, .help = "run the experiment file EXP instead (docs/experiments.md)" },
	{ "--progress", NULL, OPT_FLAG, AT(o.progress), .help = "progress on stderr (default: on a terminal)" },
	{ "--no-progress", NULL, OPT_CALL, 0, .call = quiet_opt, .flags = OPT_JOINED },
	{ .kind = OPT_END },
};

const struct opt_cmd reproduce_cmd = {
	.name = "reproduce",
	.usage =
"usage: pagelab reproduce [--full] [--only N] [--json] [--html F] [--jobs N]\n"
"                         [--calibrate] [EXP]\n"
"Re-run the experiments of the five mailing-list threads with the designs they\n"
"compared, and print for each a table in the thread's own shape: the figures\n"
"the thread published next to pagelab's, and per comparison a verdict: does\n"
"pagelab agree on which design wins, and by roughly how much?\n"
"\n",
	.opts = reproduce_table,
	.col = 16,
	.after = "\nExperiments:\n",
	.more = reproduce_more,
	.prefix = "",
	.unknown = "unknown option '%s' (see pagelab reproduce --help)",
	.mode = OPT_ANYWHERE,
	.pos = reproduce_pos,
};

/* The experiments, and what the report says about them. */
static void reproduce_more(FILE *out)
{
	const struct experiment *const *ex = builtin_experiments();
	for (int i = 0; ex[i]; i++) {
		char left[16], text[600];
		snprintf(left, sizeof(left), "  %d", ex[i]->id);
		snprintf(text, sizeof(text), "%s (%s)", ex[i]->title, ex[i]->thread);
		wrap_row(out, left, 5, text, "", WRAP_WIDTH);
	}
	fputs(
"\n"
"A design or workload this build does not have is reported as not available,\n"
"with verdict n/a.  Many comparisons disagree, and are expected to:\n"
"docs/reproduce.md lists the verdict each comparison gives in this version and\n"
"explains every disagreement; the threads' messages are in docs/threads/.\n"
"\n"
"Each experiment is printed as soon as it and those before it are done; its\n"
"host time goes to stderr (with --full or --progress), with progress and an\n"
"estimate of the time left when stderr is a terminal.\n"
"\n"
"Exit status: 0; 1 if --check found a broken invariant or an output could not\n"
"be written; 2 on bad input; 3 if a run was stopped at its simulated time\n"
"limit (--max-time, or the experiment's own); 130 / 143 on SIGINT / SIGTERM,\n"
"after writing the experiments that had finished (--html FILE is replaced\n"
"only by a complete report).\n", out);
}

/* An experiment's number, 1..nr_experiments(). */
static int experiment_number(const struct opt *o, const char *value)
{
	uint64_t v;
	if (!parse_u64(value, &v) || v < 1 || v > (uint64_t)nr_experiments())
		die_usage("bad %s '%s' (1..%d)", o->name, value, nr_experiments());
	return (int)v;
}

static int only_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	(void)typed;
	((struct reproduce_args *)dest)->o.only = experiment_number(o, value);
	return OPT_GO;
}

static int print_file_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	(void)dest;
	(void)typed;
	exp_file_write(builtin_experiments()[experiment_number(o, value) - 1], stdout);
	return 0;
}

static int quiet_opt(void *dest, const struct opt *o, const char *typed, const char *value)
{
	struct reproduce_args *ra = dest;
	(void)o;
	(void)typed;
	(void)value;
	ra->o.progress = false;
	ra->quiet = true;
	return OPT_GO;
}

/* EXP: one experiment file; "-" or a second one is no option here. */
static int reproduce_pos(void *dest, const char *arg)
{
	struct reproduce_args *ra = dest;
	if (!strcmp(arg, "-") || ra->file)
		die_usage(reproduce_cmd.unknown, arg);
	ra->file = arg;
	return OPT_GO;
}

/* --calibrate: the fit, then the verdicts with it. */
static int reproduce_calibrate(const struct reproduce_args *ra, const struct experiment *const *list)
{
	output_catch_interrupts();
	struct calib_result **cr = calibrate_run(list, &ra->o);
	int sig = output_interrupted();
	if (ra->json)
		calibrate_print_json(cr, stdout);
	else
		calibrate_print_text(cr, stdout);
	calibrate_free(cr);
	if (sig)
		fprintf(stderr, "pagelab: interrupted by %s: the fit is incomplete\n", sig == SIGTERM ? "SIGTERM" : "SIGINT");
	return sig ? 128 + sig : 0;
}

/* --html FILE of the experiments that finished, renamed over FILE only
 * when complete; after a signal none (README: an existing report
 * survives an interrupted run; a page of the experiments that finished
 * would read as the whole report, and stdout has them). */
static int reproduce_html(const struct reproduce_args *ra, struct atomic_file *af, struct exp_result **fin, int sig,
			  bool builtin, int argc, char **argv)
{
	char err[700];
	if (sig) {
		atomic_abort(af);
		fprintf(stderr, "pagelab: %s not written (interrupted): left as it was\n", ra->html);
		return 0;
	}
	char date[64], *cmdline = html_cmdline(argc, argv);
	html_date(date, sizeof(date));
	struct html_provenance pv = { .version = pagelab_version(), .cmdline = cmdline, .date = date };
	html_report(fin, &pv, builtin, af->f);
	free(cmdline);
	if (!atomic_commit(af, err, sizeof(err))) {
		fprintf(stderr, "pagelab: %s\n", err);
		return 1;
	}
	return 0;
}

/* Run the experiments, each written as it finishes; the exit status. */
static int reproduce_run(struct reproduce_args *ra, const struct experiment *const *list, bool own, int argc,
			 char **argv)
{
	/* The report goes to FILE.tmp.PID, renamed over FILE only once it is
	 * complete: an existing report survives a failed or interrupted run
	 * (interrupted, FILE is not written at all). */
	struct atomic_file af;
	char err[700];
	if (ra->html && !atomic_open(&af, ra->html, err, sizeof(err)))
		die_usage("%s", err);
	output_catch_interrupts();
	struct reproduce_opts *o = &ra->o;
	struct stream st = { .json = ra->json, .host_times = !ra->quiet && (o->full || o->progress),
			     .progress = o->progress, .total = own || o->only ? 1 : nr_experiments(), .t0 = host_now() };
	(ra->json ? exp_print_json_start : exp_print_text_start)(o->full, stdout);
	fflush(stdout);
	o->on_done = stream_one;
	o->on_done_arg = &st;
	struct exp_result **res = experiments_run(list, o);
	/* After SIGINT/SIGTERM only the experiments whose every run finished
	 * are written: a half-run experiment's verdicts would be wrong. */
	int n = 0, nfin = 0;
	while (res[n])
		n++;
	struct exp_result **fin = xcalloc((size_t)n + 1, sizeof(*fin));
	for (int k = 0; k < n; k++)
		if (res[k]->jobs_done == res[k]->nr_jobs)
			fin[nfin++] = res[k];
	int sig = output_interrupted();
	(ra->json ? exp_print_json_end : exp_print_text_end)(st.counts, stdout);
	if (!ra->json && !own)
		exp_print_expectations(stdout);
	if (st.host_times)
		fprintf(stderr, "pagelab reproduce: %d experiment%s in %.1f s of host time (%.1f s of CPU)\n", st.done,
			st.done == 1 ? "" : "s", host_now() - st.t0, st.cpu_s);
	int rc = experiments_check_failures(fin) ? 1 : st.counts[6] ? 3 : 0;
	if (rc == 3)
		fprintf(stderr, "pagelab: %d run%s stopped at the simulated time limit (marked in the output)\n",
			st.counts[6], st.counts[6] == 1 ? "" : "s");
	if (ra->html && reproduce_html(ra, &af, fin, sig, !own, argc, argv))
		rc = 1;
	if (sig) {
		fprintf(stderr, "pagelab: interrupted by %s: %d of %d experiments finished; %s written\n",
			sig == SIGTERM ? "SIGTERM" : "SIGINT", nfin, n, nfin == 1 ? "it is" : "those are");
		rc = 128 + sig;
	}
	free(fin);
	experiments_free(res);
	return rc;
}

int cmd_reproduce(int argc, char **argv)
{
	struct reproduce_args ra = { .o = { .progress = isatty(2) } };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	ra.o.jobs = ncpu > 0 ? (int)ncpu : 1;
	int next, rc = opt_parse(&reproduce_cmd, argc, argv, &ra, &next);
	if (rc != OPT_GO)
		return rc;
	if (ra.max_time_ns)
		ra.o.max_time_s = (double)ra.max_time_ns / 1e9;
	struct experiment *own = NULL;
	const struct experiment *one[2] = { NULL, NULL };
	char err[700];
	if (ra.file) {
		own = exp_file_load(ra.file, err, sizeof(err));
		if (!own)
			die_usage("%s", err);
		if (ra.o.only && ra.o.only != own->id)
			die_usage("--only %d: %s is experiment %d", ra.o.only, ra.file, own->id);
		one[0] = own;
	}
	if (ra.calibrate && ra.html)
		die_usage("--calibrate does not write --html (use --json for the fit)");
	const struct experiment *const *list = own ? one : builtin_experiments();
	rc = ra.calibrate ? reproduce_calibrate(&ra, list) : reproduce_run(&ra, list, own != NULL, argc, argv);
	exp_file_free(own);
	return rc;
}
