/* exp1_pageaging.c - experiment 1: Zlatko Calusic's test of the 2.1.63
 * "vhand" page-aging patch, late 1997 (threads/003_0155de3220ccaa78.txt):
 * a kernel build with make -j10 "to make it swap" and Bonnie -s 100 on a
 * P133 with 32 MB, 2.1.63 (linux22: 2.2's shrink_mmap clock and swap_out)
 * against 2.1.63 + vhand (vhand: per-page ages aged by a kernel thread).
 *
 * Quick mode runs the thread's sizes: the machine is already small (32 MB),
 * and the kbuild workload's size is its own (the number of compilations). */
#include "experiment.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct exp_design designs[] = {
	{ "2.1.63", "linux22", NULL, DESIGN_THREAD },
	{ "2.1.63 + vhand patch", "vhand", NULL, DESIGN_THREAD },
	{ "workingset", "workingset", NULL, DESIGN_MODERN },
	{ "mglru", "mglru", NULL, DESIGN_MODERN },
	{ "clock", "clock", NULL, DESIGN_REFERENCE },
};

static const struct exp_run runs[] = {
	{ .key = "kbuild", .title = "Kernel build, MAKE=make -j10 (to make it swap)",
	  .wl = { "kbuild -j 10" }, .repeats = 1, .quick_repeats = 1,
	  .vmstat_s = 5, .max_time_s = 4 * 3600, .delayed = -1, .residency_wl = -1 },
	{ .key = "bonnie", .title = "Bonnie -s 100",
	  .wl = { "bonnie -s {M:100}" }, .repeats = 1, .quick_repeats = 1,
	  .vmstat_s = 1, .max_time_s = 3600, .delayed = -1, .residency_wl = -1 },
};

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

static const struct exp_metric metrics[] = {
	{ "kb_elapsed", "make -j10 elapsed (s)", "kbuild", 0, MK_ELAPSED, NULL, false, NULL },
	{ "kb_user", "make -j10 user time (s)", "kbuild", 0, MK_USER, NULL, false, NULL },
	{ "kb_sys", "make -j10 system time (s)", "kbuild", 0, MK_SYS, NULL, false, NULL },
	{ "kb_cpu", "make -j10 %CPU", "kbuild", 0, MK_CPU_PCT, NULL, true, NULL },
	{ "kb_majflt", "make -j10 major faults", "kbuild", 0, MK_MAJFLT, NULL, false, NULL },
	{ "kb_minflt", "make -j10 minor faults", "kbuild", 0, MK_MINFLT, NULL, false, NULL },
	{ "kb_swaps", "make -j10 swaps", "kbuild", 0, MK_SWAPS, NULL, false, NULL },
	{ "kb_kthread", "reclaim kernel threads' CPU during the build (s)", "kbuild", 0, MK_KTHREAD_CPU, NULL, false, NULL },
	{ "bo_putc", "Bonnie per-char output (K/sec)", "bonnie", 0, MK_CUSTOM, "0", true, bonnie_field },
	{ "bo_block", "Bonnie block output (K/sec)", "bonnie", 0, MK_CUSTOM, "2", true, bonnie_field },
	{ "bo_rewrite", "Bonnie rewrite (K/sec)", "bonnie", 0, MK_CUSTOM, "4", true, bonnie_field },
	{ "bo_getc", "Bonnie per-char input (K/sec)", "bonnie", 0, MK_CUSTOM, "6", true, bonnie_field },
	{ "bo_bin", "Bonnie block input (K/sec)", "bonnie", 0, MK_CUSTOM, "8", true, bonnie_field },
	{ "bo_seeks", "Bonnie random seeks (/sec)", "bonnie", 0, MK_CUSTOM, "10", true, bonnie_field },
};

#define T3 "003_0155de3220ccaa78.txt"
static const struct exp_published published[] = {
	/* 003_0155de3220ccaa78.txt:28-29 */
	{ "2.1.63", "kb_user", 645.05, "645.05user", T3 ":28" },
	{ "2.1.63", "kb_sys", 57.93, "57.93system", T3 ":28" },
	{ "2.1.63", "kb_elapsed", 14 * 60 + 58.99, "14:58.99elapsed", T3 ":28" },
	{ "2.1.63", "kb_cpu", 78, "78%CPU", T3 ":28" },
	{ "2.1.63", "kb_majflt", 329363, "329363major", T3 ":29" },
	{ "2.1.63", "kb_minflt", 240410, "240410minor", T3 ":29" },
	{ "2.1.63", "kb_swaps", 42103, "42103swaps", T3 ":29" },
	/* 003_0155de3220ccaa78.txt:31-32 */
	{ "2.1.63 + vhand patch", "kb_user", 915.98, "915.98user", T3 ":31" },
	{ "2.1.63 + vhand patch", "kb_sys", 66.63, "66.63system", T3 ":31" },
	{ "2.1.63 + vhand patch", "kb_elapsed", 18 * 60 + 12.94, "18:12.94elapsed", T3 ":31" },
	{ "2.1.63 + vhand patch", "kb_cpu", 89, "89%CPU", T3 ":31" },
	{ "2.1.63 + vhand patch", "kb_majflt", 280238, "280238major", T3 ":32" },
	{ "2.1.63 + vhand patch", "kb_minflt", 237365, "237365minor", T3 ":32" },
	{ "2.1.63 + vhand patch", "kb_swaps", 39048, "39048swaps", T3 ":32" },
	/* 003_0155de3220ccaa78.txt:40-41: ps, CPU since boot, not per build */
	{ "2.1.63 + vhand patch", "kb_kthread", NAN, "kswapd 0:03, vhand 7:51 (ps, since boot)", T3 ":40-41" },
	/* 003_0155de3220ccaa78.txt:49 */
	{ "2.1.63", "bo_putc", 1963, "1963", T3 ":49" },
	{ "2.1.63", "bo_block", 5711, "5711", T3 ":49" },
	{ "2.1.63", "bo_rewrite", 2235, "2235", T3 ":49" },
	{ "2.1.63", "bo_getc", 2013, "2013", T3 ":49" },
	{ "2.1.63", "bo_bin", 7191, "7191", T3 ":49" },
	{ "2.1.63", "bo_seeks", 59.2, "59.2", T3 ":49" },
	/* 003_0155de3220ccaa78.txt:54 */
	{ "2.1.63 + vhand patch", "bo_putc", 1116, "1116", T3 ":54" },
	{ "2.1.63 + vhand patch", "bo_block", 5209, "5209", T3 ":54" },
	{ "2.1.63 + vhand patch", "bo_rewrite", 1811, "1811", T3 ":54" },
	{ "2.1.63 + vhand patch", "bo_getc", 1344, "1344", T3 ":54" },
	{ "2.1.63 + vhand patch", "bo_bin", 6184, "6184", T3 ":54" },
	{ "2.1.63 + vhand patch", "bo_seeks", 59.6, "59.6", T3 ":54" },
};

#define A "2.1.63"
#define B "2.1.63 + vhand patch"
/* One build each: a ratio within x1.25 is the same margin, within 3% a tie. */
static const struct exp_comparison cmps[] = {
	{ "kb_elapsed", A, B, CMP_RATIO, 0.25, 0.03, 0, NULL, T3 ":28,31" },
	{ "kb_user", A, B, CMP_RATIO, 0.25, 0.03, 0, "it also took more CPU time to complete", T3 ":28,31,34" },
	{ "kb_sys", A, B, CMP_RATIO, 0.25, 0.03, 0, NULL, T3 ":28,31" },
	{ "kb_majflt", A, B, CMP_RATIO, 0.25, 0.03, 0, "with the patch it took less I/O operations (paging)", T3 ":29,32,33" },
	{ "kb_swaps", A, B, CMP_RATIO, 0.25, 0.03, 0, NULL, T3 ":29,32" },
	{ "kb_kthread", A, B, CMP_WORSE, 0, 0.03, 0,
	  "vhand kernel thread is definitely burning too much CPU cycles", T3 ":36-41" },
	{ "bo_putc", A, B, CMP_RATIO, 0.25, 0.03, 0, NULL, T3 ":49,54" },
	{ "bo_block", A, B, CMP_RATIO, 0.25, 0.03, 0, NULL, T3 ":49,54" },
	{ "bo_rewrite", A, B, CMP_RATIO, 0.25, 0.03, 0, NULL, T3 ":49,54" },
	{ "bo_getc", A, B, CMP_RATIO, 0.25, 0.03, 0, NULL, T3 ":49,54" },
	{ "bo_bin", A, B, CMP_RATIO, 0.25, 0.03, 0, NULL, T3 ":49,54" },
	{ "bo_seeks", A, B, CMP_RATIO, 0.25, 0.03, 0, NULL, T3 ":49,54" },
};

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
			fprintf(out, "    pagelab   reclaim kernel threads (kswapd + the design's aging thread): %.2f s CPU\n",
				rr->kthread_cpu_s);
	}
	char cmd[128];
	exp_expand(r, e->runs[1].wl[0], cmd, sizeof(cmd));
	fprintf(out, "\n%s%s\n", e->runs[1].title, r->full ? "" : " (quick mode: the same)");
	for (int i = 0; i < 3; i++)
		fprintf(out, "              %s\n", bonnie_header[i]);
	for (int d = 0; d < e->nr_designs; d++) {
		const struct exp_design *ds = &e->designs[d];
		fprintf(out, "(%s)%*s[%s]\n", ds->label, (int)(26 - strlen(ds->label)), "", ds->policy);
		if (d == 0) /* 003_0155de3220ccaa78.txt:49 */
			fprintf(out, "    thread    100 1963 95.0 5711 30.1 2235 24.5 2013 93.3 7191 33.6 59.2 2.8\n");
		else if (d == 1) /* 003_0155de3220ccaa78.txt:54 */
			fprintf(out, "    thread    100 1116 84.7 5209 35.6 1811 30.6 1344 91.6 6184 56.8 59.6 3.8\n");
		exp_print_output(r, d, 1, 0, 0, "    ", out);
	}
}

const struct experiment exp1_pageaging = {
	.id = 1,
	.slug = "page-aging-1997",
	.title = "Page aging, 1997: make -j10 and Bonnie on a P133, 2.1.63 vs the vhand patch",
	.thread = "003_0155de3220ccaa78.txt",
	.who = "Zlatko Calusic, late 1997",
	.profile = "p133-1997",
	.quick_scale = 1.0,
	EXP_ARRAY(designs), EXP_ARRAY(runs), EXP_ARRAY(metrics),
	EXP_ARRAY(published), EXP_ARRAY(cmps),
	.print = print,
};
