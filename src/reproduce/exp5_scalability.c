/* exp5_scalability.c - experiment 5: Andrew Morton's test of Rik van Riel's
 * "VM pageout scalability improvements (V12)", 11 Jun 2008
 * (threads/004_508c73bd66067c88.txt): on a 900 MB 2-way, `usemem -m 1000`
 * five times and `qsbench -p 4 -m 230` with memory at 1.1 x the threshold of
 * swapping, mainline (2.6.26-rc5, the single active/inactive LRU: linux26)
 * against 2.6.26-rc5-mm3 (the split LRU: splitlru).
 *
 * qsbench's machine: "memory size tuned to threshold-of-swapping*1.1" means
 * the four processes' 920 MB are 1.1 x what fits; pagelab sets RAM to
 * 920 MB / 1.1 = 836 MB rather than shrinking the sort (issue 4's reading). */
#include "experiment.h"
#include "exp_text.h"
#include "exp_named.h"

#include <math.h>
#include <string.h>

/* The thread's lines, verbatim. */
static const char *const pub_usemem_mainline[] = {
	/* 004_508c73bd66067c88.txt:34,36,38,40,42 */
	"usemem -m 1000  0.10s user 10.27s system 62% cpu 16.567 total",
	"usemem -m 1000  0.12s user 10.23s system 63% cpu 16.234 total",
	"usemem -m 1000  0.13s user 9.90s system 63% cpu 15.812 total",
	"usemem -m 1000  0.11s user 9.98s system 65% cpu 15.494 total",
	"usemem -m 1000  0.12s user 9.94s system 62% cpu 16.000 total",
};
static const char *const pub_usemem_mm3[] = {
	/* 004_508c73bd66067c88.txt:47,49,51,53,55 */
	"usemem -m 1000  0.15s user 9.81s system 52% cpu 19.117 total",
	"usemem -m 1000  0.14s user 9.07s system 45% cpu 20.403 total",
	"usemem -m 1000  0.25s user 9.63s system 34% cpu 28.533 total",
	"usemem -m 1000  0.15s user 9.35s system 49% cpu 19.196 total",
	"usemem -m 1000  0.13s user 8.79s system 49% cpu 17.993 total",
};
/* 004_508c73bd66067c88.txt:66 */
static const char pub_qs_mainline[] = "./qsbench -p 4 -m 230  175.45s user 45.67s system 60% cpu 6:08.40 total";
/* 004_508c73bd66067c88.txt:71 */
static const char pub_qs_mm3[] = "./qsbench -p 4 -m 230  178.21s user 28.49s system 99% cpu 3:27.14 total";

static void print_published(const char *const *lines, int n, FILE *out)
{
	char block[1024];
	size_t len = 0;
	block[0] = 0;
	for (int i = 0; i < n && len < sizeof(block); i++)
		len += (size_t)snprintf(block + len, sizeof(block) - len, "%s%s", i ? "\n" : "", lines[i]);
	exp_block(out, "    ", "thread", block);
}

/* "It could have been a fluke though - iirc qsbench is pretty unstable,
 * especially on the threshold" (004_508c73bd66067c88.txt:73-75): the
 * spread of qsbench's elapsed time over the seeds pagelab ran, and the
 * interval of the -mm3 / mainline ratio. */
static void print_fluke(const struct exp_result *r, FILE *out)
{
	const struct experiment *e = r->e;
	int run = exp_run_index(e, "qsbench"), mi = exp_metric_index(e, "qs_elapsed");
	fprintf(out, "\n  Could it have been a fluke?  qsbench elapsed over %d seed%s:\n", exp_reps(r, run),
		exp_reps(r, run) == 1 ? "" : "s");
	for (int d = 0; d < 2; d++) {
		double lo = INFINITY, hi = -INFINITY;
		int n = 0;
		for (int k = 0; k < exp_reps(r, run); k++) {
			const struct run_result *rr = exp_rr(r, d, run, k);
			if (!rr->available || !rr->nr_wl || !rr->wl[0].done)
				continue;
			double v = rr->wl[0].tf.elapsed;
			lo = v < lo ? v : lo;
			hi = v > hi ? v : hi;
			n++;
		}
		if (n)
			fprintf(out, "    %-16s %.2f to %.2f s (%d run%s)\n", e->designs[d].label, lo, hi, n, n == 1 ? "" : "s");
		else
			fprintf(out, "    %-16s no finished run\n", e->designs[d].label);
	}
	for (int c = 0; c < e->nr_cmps; c++) {
		if (strcmp(e->cmps[c].metric, e->metrics[mi].key))
			continue;
		struct cmp_outcome o;
		exp_compare(r, c, &o);
		if (o.v == V_NA)
			break;
		fprintf(out, "    ratio -mm3 / mainline %.3g, 95%% interval %.3g to %.3g:\n      %s\n", o.sim_ratio, o.lo,
			o.hi,
			o.nr_seeds < 2 ? "one seed cannot tell" :
			o.lo == o.hi ? "every seed gave the same run: this build's qsbench does not vary with the seed" :
			o.lo <= 1 && o.hi >= 1 ? "the seeds do not rule out no difference: it could be a fluke" :
			"the difference holds across the seeds: not a fluke in pagelab");
	}
}

static void print(const struct exp_result *r, FILE *out)
{
	const struct experiment *e = r->e;
	for (int run = 0; run < e->nr_runs; run++) {
		char cmd[256];
		exp_expand(r, e->runs[run].wl[0], cmd, sizeof(cmd));
		fprintf(out, "%s%s\n", run ? "\n" : "", e->runs[run].title);
		if (!r->full)
			exp_wrap(out, "(quick mode runs:", 18, "%s)", cmd);
		for (int d = 0; d < e->nr_designs; d++) {
			const struct exp_design *ds = &e->designs[d];
			fprintf(out, "  %s:%*s[%s%s]\n", ds->label, (int)(18 - strlen(ds->label)), "", ds->policy,
				ds->kind == DESIGN_MODERN ? ", today's kernel" : ds->kind == DESIGN_REFERENCE ? ", textbook" : "");
			if (d == 0 && run == 0)
				print_published(pub_usemem_mainline, 5, out);
			if (d == 1 && run == 0)
				print_published(pub_usemem_mm3, 5, out);
			if (d == 0 && run == 1)
				print_published(&(const char *){ pub_qs_mainline }, 1, out);
			if (d == 1 && run == 1)
				print_published(&(const char *){ pub_qs_mm3 }, 1, out);
			exp_print_times(r, d, run, 0, SHAPE_ZSH, "    ", out);
		}
	}
	print_fluke(r, out);
}

/* For the experiment files: the printer and metric functions by name. */
const struct exp_named_printer exp5_printer = { "exp5_scalability", print };
const struct exp_named_metric exp5_metric_fns[] = {
	{ NULL, NULL },
};
