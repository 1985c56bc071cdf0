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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void reproduce_usage(FILE *out)
{
	fputs(
"usage: pagelab reproduce [--full] [--only N] [--json] [--html F] [--jobs N]\n"
"                         [--calibrate] [EXP]\n"
"Re-run the experiments of the five mailing-list threads with the designs they\n"
"compared, and print for each a table in the thread's own shape: the figures\n"
"the thread published next to pagelab's, and per comparison a verdict: does\n"
"pagelab agree on which design wins, and by roughly how much?\n"
"\n"
"  --full        the threads' machines and sizes (default: quick mode, machines\n"
"                and sizes scaled down together, under a minute)\n"
"  --only N      run experiment N only (1-5)\n"
"  --json        print everything as one JSON object\n"
"  --html FILE   also write a self-contained HTML report: per experiment the\n"
"                verdicts with the thread's ratios beside pagelab's as bars,\n"
"                the timelines of every design, the text report folded\n"
"  --jobs N      run N simulations in parallel (default: the number of CPUs);\n"
"                the output is the same for every N\n"
"  --check       verify the mm invariants after every step of every run (slow)\n"
"  --max-time T  stop every run after T of simulated time (30, 10m, 2h); a run\n"
"                stopped so is marked in the tables and verdicts; exit status 3\n"
"  --calibrate   fit the machine parameters the thread does not state (machines\n"
"                --show NAME lists them) to the baseline design's published\n"
"                figures, then print the fit and both the raw verdicts and those\n"
"                with the fitted values (a few minutes in quick mode)\n"
"  --print-file N  print experiment N as an experiment file, to start your own\n"
"  EXP           run the experiment file EXP instead (docs/experiments.md)\n"
"  --progress / --no-progress  progress on stderr (default: on a terminal)\n"
"\n"
"Experiments:\n", out);
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

int cmd_reproduce(int argc, char **argv)
{
	struct reproduce_opts o = { .progress = isatty(2) };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	o.jobs = ncpu > 0 ? (int)ncpu : 1;
	bool json = false, calibrate = false, quiet = false;
	const char *html = NULL, *file = NULL;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		uint64_t v;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			reproduce_usage(stdout);
			return 0;
		} else if (!strcmp(a, "--full")) {
			o.full = true;
		} else if (!strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--only")) {
			if (i + 1 >= argc)
				die_usage("option --only needs a value");
			const char *s = argv[++i];
			if (!parse_u64(s, &v) || v < 1 || v > (uint64_t)nr_experiments())
				die_usage("bad --only '%s' (1..%d)", s, nr_experiments());
			o.only = (int)v;
		} else if (!strcmp(a, "--jobs") || !strcmp(a, "-j")) {
			if (i + 1 >= argc)
				die_usage("option %s needs a value", a);
			const char *s = argv[++i];
			if (!parse_u64(s, &v) || v < 1 || v > 256)
				die_usage("bad --jobs '%s' (1..256)", s);
			o.jobs = (int)v;
		} else if (!strcmp(a, "--html")) {
			if (i + 1 >= argc)
				die_usage("option --html needs a file name");
			html = argv[++i];
		} else if (!strcmp(a, "--print-file")) {
			if (i + 1 >= argc)
				die_usage("option --print-file needs an experiment number");
			const char *s = argv[++i];
			if (!parse_u64(s, &v) || v < 1 || v > (uint64_t)nr_experiments())
				die_usage("bad --print-file '%s' (1..%d)", s, nr_experiments());
			exp_file_write(builtin_experiments()[v - 1], stdout);
			return 0;
		} else if (!strcmp(a, "--check")) {
			o.check = true;
		} else if (!strcmp(a, "--max-time")) {
			uint64_t ns;
			if (i + 1 >= argc)
				die_usage("option --max-time needs a value");
			if (!parse_duration_ns(argv[++i], &ns) || !ns)
				die_usage("bad --max-time '%s' (a duration: 30, 10m, 2h)", argv[i]);
			o.max_time_s = (double)ns / 1e9;
		} else if (!strcmp(a, "--calibrate")) {
			calibrate = true;
		} else if (!strcmp(a, "--progress")) {
			o.progress = true;
		} else if (!strcmp(a, "--no-progress")) {
			o.progress = false;
			quiet = true;
		} else if (a[0] != '-' && !file) {
			file = a;
		} else {
			die_usage("unknown option '%s' (see pagelab reproduce --help)", a);
		}
	}
	struct experiment *own = NULL;
	const struct experiment *one[2] = { NULL, NULL };
	char err[700];
	if (file) {
		own = exp_file_load(file, err, sizeof(err));
		if (!own)
			die_usage("%s", err);
		if (o.only && o.only != own->id)
			die_usage("--only %d: %s is experiment %d", o.only, file, own->id);
		one[0] = own;
	}
	if (calibrate && html)
		die_usage("--calibrate does not write --html (use --json for the fit)");
	if (calibrate) {
		output_catch_interrupts();
		struct calib_result **cr = calibrate_run(own ? one : builtin_experiments(), &o);
		int sig = output_interrupted();
		if (json)
			calibrate_print_json(cr, stdout);
		else
			calibrate_print_text(cr, stdout);
		calibrate_free(cr);
		exp_file_free(own);
		if (sig)
			fprintf(stderr, "pagelab: interrupted by %s: the fit is incomplete\n",
				sig == SIGTERM ? "SIGTERM" : "SIGINT");
		return sig ? 128 + sig : 0;
	}
	/* The report goes to FILE.tmp.PID, renamed over FILE only once it is
	 * complete: an existing report survives a failed or interrupted run
	 * (interrupted, FILE is not written at all). */
	struct atomic_file af;
	FILE *hf = NULL;
	if (html && !(hf = atomic_open(&af, html, err, sizeof(err))))
		die_usage("%s", err);
	output_catch_interrupts();
	struct stream st = { .json = json, .host_times = !quiet && (o.full || o.progress), .progress = o.progress,
			     .total = own ? 1 : o.only ? 1 : nr_experiments(), .t0 = host_now() };
	(json ? exp_print_json_start : exp_print_text_start)(o.full, stdout);
	fflush(stdout);
	o.on_done = stream_one;
	o.on_done_arg = &st;
	struct exp_result **res = experiments_run(own ? one : builtin_experiments(), &o);
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
	(json ? exp_print_json_end : exp_print_text_end)(st.counts, stdout);
	if (!json && !own)
		exp_print_expectations(stdout);
	if (st.host_times)
		fprintf(stderr, "pagelab reproduce: %d experiment%s in %.1f s of host time (%.1f s of CPU)\n", st.done,
			st.done == 1 ? "" : "s", host_now() - st.t0, st.cpu_s);
	int rc = experiments_check_failures(fin) ? 1 : st.counts[6] ? 3 : 0;
	if (rc == 3)
		fprintf(stderr, "pagelab: %d run%s stopped at the simulated time limit (marked in the output)\n",
			st.counts[6], st.counts[6] == 1 ? "" : "s");
	if (hf && sig) {
		/* README: an existing report survives an interrupted run; a
		 * page of the experiments that finished would read as the
		 * whole report, so none is written (stdout has them). */
		atomic_abort(&af);
		fprintf(stderr, "pagelab: %s not written (interrupted): left as it was\n", html);
	} else if (hf) {
		char date[64], *cmdline = html_cmdline(argc, argv);
		html_date(date, sizeof(date));
		struct html_provenance pv = { .version = pagelab_version(), .cmdline = cmdline, .date = date };
		html_report(fin, &pv, !own, hf);
		free(cmdline);
		if (!atomic_commit(&af, err, sizeof(err))) {
			fprintf(stderr, "pagelab: %s\n", err);
			rc = 1;
		}
	}
	if (sig) {
		fprintf(stderr, "pagelab: interrupted by %s: %d of %d experiments finished; %s written\n",
			sig == SIGTERM ? "SIGTERM" : "SIGINT", nfin, n, nfin == 1 ? "it is" : "those are");
		rc = 128 + sig;
	}
	free(fin);
	experiments_free(res);
	exp_file_free(own);
	return rc;
}
