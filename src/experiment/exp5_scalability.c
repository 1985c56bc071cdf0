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

#include <string.h>

static const struct exp_design designs[] = {
	{ "mainline", "linux26", NULL, DESIGN_THREAD },
	{ "2.6.26-rc5-mm3", "splitlru", NULL, DESIGN_THREAD },
	{ "workingset", "workingset", NULL, DESIGN_MODERN },
	{ "mglru", "mglru", NULL, DESIGN_MODERN },
	{ "clock", "clock", NULL, DESIGN_REFERENCE },
};

static const struct exp_run runs[] = {
	{ .key = "usemem", .title = "On a 900MB 2-way, allocate and memset 1000MB.",
	  .wl = { "usemem -m {M:1000}" }, .repeats = 5, .quick_repeats = 5,
	  .vmstat_s = 0.25, .max_time_s = 600, .delayed = -1, .residency_wl = -1 },
	{ .key = "qsbench", .title = "qsbench, 4 processes, memory size tuned to threshold-of-swapping*1.1:",
	  .machine_sets = "ram={S:836M}",
	  .wl = { "qsbench -p 4 -m {M:230}" }, .repeats = 1, .quick_repeats = 1,
	  .vmstat_s = 2, .max_time_s = 7200, .delayed = -1, .residency_wl = -1 },
};

static const struct exp_metric metrics[] = {
	{ "usemem_elapsed", "usemem elapsed (s), mean of 5", "usemem", 0, MK_ELAPSED, NULL, false, NULL },
	{ "usemem_sys", "usemem system time (s), mean of 5", "usemem", 0, MK_SYS, NULL, false, NULL },
	{ "usemem_user", "usemem user time (s), mean of 5", "usemem", 0, MK_USER, NULL, false, NULL },
	{ "usemem_cpu", "usemem %cpu, mean of 5", "usemem", 0, MK_CPU_PCT, NULL, true, NULL },
	{ "usemem_pswpout", "usemem pswpout", "usemem", 0, MK_COUNTER, "pswpout", false, NULL },
	{ "qs_elapsed", "qsbench elapsed (s)", "qsbench", 0, MK_ELAPSED, NULL, false, NULL },
	{ "qs_sys", "qsbench system time (s)", "qsbench", 0, MK_SYS, NULL, false, NULL },
	{ "qs_user", "qsbench user time (s)", "qsbench", 0, MK_USER, NULL, false, NULL },
	{ "qs_cpu", "qsbench %cpu", "qsbench", 0, MK_CPU_PCT, NULL, true, NULL },
};

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

/* Means of the five runs, computed from the lines above. */
static const struct exp_published published[] = {
	{ "mainline", "usemem_elapsed", (16.567 + 16.234 + 15.812 + 15.494 + 16.000) / 5,
	  "16.567 16.234 15.812 15.494 16.000 total", "004_508c73bd66067c88.txt:34-42" },
	{ "2.6.26-rc5-mm3", "usemem_elapsed", (19.117 + 20.403 + 28.533 + 19.196 + 17.993) / 5,
	  "19.117 20.403 28.533 19.196 17.993 total", "004_508c73bd66067c88.txt:47-55" },
	{ "mainline", "usemem_sys", (10.27 + 10.23 + 9.90 + 9.98 + 9.94) / 5,
	  "10.27 10.23 9.90 9.98 9.94 system", "004_508c73bd66067c88.txt:34-42" },
	{ "2.6.26-rc5-mm3", "usemem_sys", (9.81 + 9.07 + 9.63 + 9.35 + 8.79) / 5,
	  "9.81 9.07 9.63 9.35 8.79 system", "004_508c73bd66067c88.txt:47-55" },
	{ "mainline", "usemem_user", (0.10 + 0.12 + 0.13 + 0.11 + 0.12) / 5,
	  "0.10 0.12 0.13 0.11 0.12 user", "004_508c73bd66067c88.txt:34-42" },
	{ "2.6.26-rc5-mm3", "usemem_user", (0.15 + 0.14 + 0.25 + 0.15 + 0.13) / 5,
	  "0.15 0.14 0.25 0.15 0.13 user", "004_508c73bd66067c88.txt:47-55" },
	{ "mainline", "usemem_cpu", (62 + 63 + 63 + 65 + 62) / 5.0,
	  "62% 63% 63% 65% 62% cpu", "004_508c73bd66067c88.txt:34-42" },
	{ "2.6.26-rc5-mm3", "usemem_cpu", (52 + 45 + 34 + 49 + 49) / 5.0,
	  "52% 45% 34% 49% 49% cpu", "004_508c73bd66067c88.txt:47-55" },
	{ "mainline", "qs_elapsed", 6 * 60 + 8.40, "6:08.40 total", "004_508c73bd66067c88.txt:66" },
	{ "2.6.26-rc5-mm3", "qs_elapsed", 3 * 60 + 27.14, "3:27.14 total", "004_508c73bd66067c88.txt:71" },
	{ "mainline", "qs_sys", 45.67, "45.67s system", "004_508c73bd66067c88.txt:66" },
	{ "2.6.26-rc5-mm3", "qs_sys", 28.49, "28.49s system", "004_508c73bd66067c88.txt:71" },
	{ "mainline", "qs_user", 175.45, "175.45s user", "004_508c73bd66067c88.txt:66" },
	{ "2.6.26-rc5-mm3", "qs_user", 178.21, "178.21s user", "004_508c73bd66067c88.txt:71" },
	{ "mainline", "qs_cpu", 60, "60% cpu", "004_508c73bd66067c88.txt:66" },
	{ "2.6.26-rc5-mm3", "qs_cpu", 99, "99% cpu", "004_508c73bd66067c88.txt:71" },
};

/* Tolerance: the thread's own spread.  akpm's five usemem runs on -mm3 range
 * from 18.0 to 28.5 s (a factor 1.6) and he calls qsbench "pretty unstable,
 * especially on the threshold": a ratio within x1.25 counts as the same
 * margin; ratios within 3% are a tie. */
static const struct exp_comparison cmps[] = {
	{ "usemem_elapsed", "mainline", "2.6.26-rc5-mm3", CMP_RATIO, 0.25, 0.03, 0, NULL,
	  "004_508c73bd66067c88.txt:34-55" },
	{ "usemem_sys", "mainline", "2.6.26-rc5-mm3", CMP_RATIO, 0.25, 0.03, 0,
	  "Seems to have saved a little CPU but the IO patterns got worse.", "004_508c73bd66067c88.txt:34-57" },
	{ "usemem_cpu", "mainline", "2.6.26-rc5-mm3", CMP_RATIO, 0.25, 0.03, 0, NULL,
	  "004_508c73bd66067c88.txt:34-55" },
	{ "qs_elapsed", "mainline", "2.6.26-rc5-mm3", CMP_RATIO, 0.25, 0.03, 0, NULL,
	  "004_508c73bd66067c88.txt:66,71" },
	{ "qs_sys", "mainline", "2.6.26-rc5-mm3", CMP_RATIO, 0.25, 0.03, 0, NULL,
	  "004_508c73bd66067c88.txt:66,71" },
	{ "qs_user", "mainline", "2.6.26-rc5-mm3", CMP_RATIO, 0.25, 0.03, 0, NULL,
	  "004_508c73bd66067c88.txt:66,71" },
};

static void print_published(const char *const *lines, int n, FILE *out)
{
	for (int i = 0; i < n; i++)
		fprintf(out, "    thread    %s\n", lines[i]);
}

static void print(const struct exp_result *r, FILE *out)
{
	const struct experiment *e = r->e;
	for (int run = 0; run < e->nr_runs; run++) {
		char cmd[256];
		exp_expand(r, e->runs[run].wl[0], cmd, sizeof(cmd));
		fprintf(out, "%s%s\n", run ? "\n" : "", e->runs[run].title);
		if (!r->full)
			fprintf(out, "(quick mode runs: %s)\n", cmd);
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
}

const struct experiment exp5_scalability = {
	.id = 5,
	.slug = "pageout-scalability-2008",
	.title = "Pageout scalability V12, June 2008: usemem and qsbench, mainline vs -mm3",
	.thread = "004_508c73bd66067c88.txt",
	.who = "Andrew Morton, 11 Jun 2008",
	.profile = "vmm-2008",
	.quick_scale = 1.0 / 8,
	EXP_ARRAY(designs), EXP_ARRAY(runs), EXP_ARRAY(metrics),
	EXP_ARRAY(published), EXP_ARRAY(cmps),
	.print = print,
};
