/* exp1_pageaging.c - experiment 1: Zlatko Calusic's test of the 2.1.63
 * "vhand" page-aging patch, late 1997 (threads/003_0155de3220ccaa78.txt):
 * a kernel build with make -j10 "to make it swap" and Bonnie -s 100 on a
 * P133 with 32 MB, 2.1.63 (linux22: 2.2's shrink_mmap clock and swap_out)
 * against 2.1.63 + vhand (vhand: per-page ages aged by a kernel thread).
 *
 * Quick mode runs the thread's sizes: the machine is already small (32 MB),
 * and the kbuild workload's size is its own (the number of compilations). */
#include "experiment.h"
#include "exp_text.h"
#include "exp_named.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Bonnie's result line: K/sec and %CPU for per-char output, block output,
 * rewrite, per-char input, block input, then seeks/sec and %CPU; the
 * metric's arg is the field's index. */
static bool bonnie_field(const struct exp_result *r, const struct exp_metric *mt,
			 const struct run_result *rr, double *v)
{
	(void)r;
	double f[12];
	if (mt->wl >= rr->nr_wl || !rr->wl[mt->wl].done || !exp_last_numbers(rr->wl[mt->wl].output, 12, f))
		return false;
	*v = f[atoi(mt->arg)];
	return true;
}

#define T3 "003_0155de3220ccaa78.txt"

#define A "2.1.63"
#define B "2.1.63 + vhand patch"
static const char *const bonnie_header[] = {
	/* 003_0155de3220ccaa78.txt:46-48 */
	"-------Sequential Output-------- ---Sequential Input-- --Random--",
	"-Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---",
	"Machine MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU /sec %CPU",
};

static void print(const struct exp_result *r, FILE *out)
{
	const struct experiment *e = r->e;
	fprintf(out, "%s\n", e->runs[0].title);
	for (int d = 0; d < e->nr_designs; d++) {
		const struct exp_design *ds = &e->designs[d];
		fprintf(out, "(%s)%*s[%s]\n", ds->label, (int)(26 - strlen(ds->label)), "", ds->policy);
		if (d == 0) {
			/* 003_0155de3220ccaa78.txt:28-29 */
			fprintf(out, "    thread    645.05user 57.93system 14:58.99elapsed 78%%CPU\n");
			fprintf(out, "              (329363major+240410minor)pagefaults 42103swaps\n");
			fprintf(out, "              ps: kswapd 0:03\n");
		} else if (d == 1) {
			/* 003_0155de3220ccaa78.txt:31-32, 41 */
			fprintf(out, "    thread    915.98user 66.63system 18:12.94elapsed 89%%CPU\n");
			fprintf(out, "              (280238major+237365minor)pagefaults 39048swaps\n");
			fprintf(out, "              ps: vhand 7:51 <<--\n");
		}
		exp_print_times(r, d, 0, 0, SHAPE_GNU, "    ", out);
		const struct run_result *rr = exp_rr(r, d, 0, 0);
		if (rr->available)
			fprintf(out, "    pagelab   kswapd + the design's aging thread: %.2f s CPU\n", rr->kthread_cpu_s);
	}
	char cmd[128];
	exp_expand(r, e->runs[1].wl[0], cmd, sizeof(cmd));
	fprintf(out, "\n%s%s\n", e->runs[1].title, r->full ? "" : " (quick mode: the same)");
	for (int d = 0; d < e->nr_designs; d++) {
		const struct exp_design *ds = &e->designs[d];
		fprintf(out, "(%s)%*s[%s]\n", ds->label, (int)(26 - strlen(ds->label)), "", ds->policy);
		/* 003_0155de3220ccaa78.txt:49, 54: the thread's table, its header first */
		const char *row = d == 0 ? "100 1963 95.0 5711 30.1 2235 24.5 2013 93.3 7191 33.6 59.2 2.8"
			: d == 1 ? "100 1116 84.7 5209 35.6 1811 30.6 1344 91.6 6184 56.8 59.6 3.8" : NULL;
		if (row) {
			char table[512];
			snprintf(table, sizeof(table), "%s\n%s\n%s\n%s", bonnie_header[0], bonnie_header[1],
				 bonnie_header[2], row);
			exp_block(out, "    ", "thread", table);
		}
		exp_print_output(r, d, 1, 0, 0, "    ", out);
	}
}

/* For the experiment files: the printer and metric functions by name. */
const struct exp_named_printer exp1_printer = { "exp1_pageaging", print };
const struct exp_named_metric exp1_metric_fns[] = {
	{ "bonnie_field", bonnie_field },
	{ NULL, NULL },
};
