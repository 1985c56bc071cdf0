/* test_reproduce.c - the experiment layer of `pagelab reproduce` on a small
 * experiment of its own: verdicts on hand-set figures, designs and
 * workloads missing from the build, a delayed start beside a filler, the
 * residency hook, and the same output for any number of jobs. */
#include "test.h"
#include "../src/reproduce/experiment.h"
#include "../src/lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct exp_design designs[] = {
	{ "A", "fifo", NULL, DESIGN_THREAD },
	{ "A2", "fifo", NULL, DESIGN_THREAD },
	{ "B", "lru", NULL, DESIGN_THREAD },
	{ "C", "clock", NULL, DESIGN_REFERENCE },
	{ "X", "nosuchpolicy", NULL, DESIGN_THREAD },
	{ "Y", "clock", "nosuchtunable=1", DESIGN_MODERN },
};
enum { D_A, D_A2, D_B, D_C, D_X, D_Y, ND };

static const struct exp_run runs[] = {
	{ .key = "u", .title = "usemem beyond RAM", .wl = { "usemem -m {M:24}" },
	  .repeats = 2, .quick_repeats = 1, .vmstat_s = 0.05, .max_time_s = 600,
	  .delayed = -1, .residency_wl = -1 },
	{ .key = "w", .title = "a workload this build lacks", .wl = { "nosuchworkload -x 1" },
	  .repeats = 1, .quick_repeats = 1, .vmstat_s = 1, .max_time_s = 60,
	  .delayed = -1, .residency_wl = -1 },
	{ .key = "d", .title = "a bench started on a filled machine",
	  .wl = { "usemem -m {M:12} -s 1000", "usemem -m {M:12}" },
	  .repeats = 1, .quick_repeats = 1, .vmstat_s = 0.02, .max_time_s = 3000,
	  .delayed = 1, .fill_wl = "usemem -m {M:12}", .residency_wl = 0, .stop_with = 2 },
};

/* Hand-set figures per design, so every verdict can be checked by hand. */
static const double fixed_values[ND] = { 10, 10.2, 20, 0, 0, 0 };

static bool fixed(const struct exp_result *r, const struct exp_metric *mt,
		  const struct run_result *rr, double *v)
{
	(void)mt;
	size_t per_design = (size_t)r->e->nr_runs * (size_t)r->reps;
	size_t d = (size_t)(rr - r->rr) / per_design;
	if (!rr->available)
		return false;
	*v = fixed_values[d];
	return true;
}

static const struct exp_metric metrics[] = {
	{ "f1", "fixed, published 1.8", "u", 0, MK_CUSTOM, NULL, false, fixed },
	{ "f2", "fixed, published 3", "u", 0, MK_CUSTOM, NULL, false, fixed },
	{ "f3", "fixed, published 0.5", "u", 0, MK_CUSTOM, NULL, false, fixed },
	{ "f4", "fixed, published a tie", "u", 0, MK_CUSTOM, NULL, false, fixed },
	{ "f5", "fixed, floor", "u", 0, MK_CUSTOM, NULL, false, fixed },
	{ "minflt", "usemem minor faults", "u", 0, MK_MINFLT, NULL, false, NULL },
	{ "bench", "bench elapsed", "d", 1, MK_ELAPSED, NULL, false, NULL },
	{ "filler", "filler elapsed", "d", 0, MK_ELAPSED, NULL, false, NULL },
	{ "missing", "from the missing workload", "w", 0, MK_ELAPSED, NULL, false, NULL },
};

static const struct exp_published published[] = {
	{ "A", "f1", 100, "100", "t:1" }, { "B", "f1", 180, "180", "t:1" },
	{ "A", "f2", 100, "100", "t:2" }, { "B", "f2", 300, "300", "t:2" },
	{ "A", "f3", 100, "100", "t:3" }, { "B", "f3", 50, "50", "t:3" },
	{ "A", "f4", 100, "100", "t:4" }, { "A2", "f4", 102, "102", "t:4" },
	{ "C", "f5", 0.5, "500kB", "t:5" }, { "B", "f5", 59, "59MB", "t:5" },
	{ "A", "missing", 1, "1", "t:6" }, { "B", "missing", 2, "2", "t:6" },
	{ "X", "f1", 1, "1", "t:7" },
};

static const struct exp_comparison cmps[] = {
	/* 0: simulated 20/10 = 2 vs published 1.8: same winner, within x1.25 */
	{ "f1", "A", "B", CMP_RATIO, 0.25, 0.03, 0, NULL, "t:1", NULL },
	/* 1: 2 vs 3: same winner, off by x1.5 */
	{ "f2", "A", "B", CMP_RATIO, 0.25, 0.03, 0, NULL, "t:2", NULL },
	/* 2: 2 vs 0.5: winner differs */
	{ "f3", "A", "B", CMP_RATIO, 0.25, 0.03, 0, NULL, "t:3", NULL },
	/* 3: 10.2/10 and 102/100: both ties */
	{ "f4", "A", "A2", CMP_RATIO, 0.25, 0.03, 0, NULL, "t:4", NULL },
	/* 4: floor 1: published 59/1, simulated 20/1 (C's 0 counts as 1): x2.95 off, x4 allowed */
	{ "f5", "C", "B", CMP_RATIO, 3, 0.03, 1, NULL, "t:5", NULL },
	/* 5: B (20) is worse than A (10) for a lower-is-better figure */
	{ "f1", "A", "B", CMP_WORSE, 0, 0.03, 0, "B is worse", "t:8", NULL },
	/* 6: A is not worse than B */
	{ "f1", "B", "A", CMP_WORSE, 0, 0.03, 0, "A is worse", "t:9", NULL },
	/* 7: C (0) is not worse than A (10) */
	{ "f1", "A", "C", CMP_NOT_WORSE, 0.25, 0.03, 0, "C no worse", "t:10", NULL },
	/* 8: B (20) is worse than A (10) by more than x1.25 */
	{ "f1", "A", "B", CMP_NOT_WORSE, 0.25, 0.03, 0, "B no worse", "t:11", NULL },
	/* 9, 10: zero */
	{ "f1", NULL, "C", CMP_ZERO, 0, 0, 0, "C zero", "t:12", NULL },
	{ "f1", NULL, "B", CMP_ZERO, 0, 0, 0, "B zero", "t:13", NULL },
	/* 11: a design not in the build */
	{ "f1", "A", "X", CMP_RATIO, 0.25, 0.03, 0, NULL, "t:7", NULL },
	/* 12: a workload not in the build */
	{ "missing", "A", "B", CMP_RATIO, 0.25, 0.03, 0, NULL, "t:6", NULL },
};

static void print(const struct exp_result *r, FILE *out)
{
	for (int d = 0; d < r->e->nr_designs; d++)
		exp_print_times(r, d, 0, 0, SHAPE_ZSH, "  ", out);
}

static const struct experiment test_exp = {
	.id = 1, .slug = "test", .title = "test experiment", .thread = "none", .who = "tests",
	.profile = "vmm-2008", .machine_sets = "ram={S:24M} swap={S:64M} kernel_base=1M", .quick_scale = 0.5,
	.designs = designs, .nr_designs = ND,
	.runs = runs, .nr_runs = sizeof(runs) / sizeof(runs[0]),
	.metrics = metrics, .nr_metrics = sizeof(metrics) / sizeof(metrics[0]),
	.published = published, .nr_published = sizeof(published) / sizeof(published[0]),
	.cmps = cmps, .nr_cmps = sizeof(cmps) / sizeof(cmps[0]),
	.print = print,
};
static const struct experiment *const test_list[] = { &test_exp, NULL };

static char *json_of(struct exp_result **res)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	exp_print_json(res, f);
	exp_print_text(res, f);
	fclose(f);
	return buf;
}

void test_reproduce_verdicts(void);
void test_reproduce_verdicts(void)
{
	struct reproduce_opts o = { .full = true, .jobs = 2 };
	struct exp_result **res = experiments_run(test_list, &o);
	struct exp_result *r = res[0];
	CHECK(r && !res[1]);
	CHECK_EQ(experiments_check_failures(res), 0);
	static const enum verdict want[] = {
		V_AGREE, V_DISAGREE, V_DISAGREE, V_AGREE, V_AGREE, V_AGREE, V_DISAGREE,
		V_AGREE, V_DISAGREE, V_AGREE, V_DISAGREE, V_NA, V_NA,
	};
	CHECK_EQ(sizeof(want) / sizeof(want[0]), test_exp.nr_cmps);
	for (int c = 0; c < test_exp.nr_cmps; c++) {
		struct cmp_outcome out;
		exp_compare(r, c, &out);
		if (out.v != want[c])
			fprintf(stderr, "comparison %d: %s (%s), expected %s\n", c, verdict_names[out.v], out.note,
				verdict_names[want[c]]);
		CHECK_EQ(out.v, want[c]);
	}
	struct cmp_outcome out;
	exp_compare(r, 0, &out);
	CHECK(fabs(out.pub_ratio - 1.8) < 1e-9 && fabs(out.sim_ratio - 2.0) < 1e-9);
	exp_compare(r, 4, &out);
	CHECK(fabs(out.pub_ratio - 59) < 1e-9 && fabs(out.sim_ratio - 20) < 1e-9);
	/* The published ratio is known even where pagelab has no figure. */
	exp_compare(r, 11, &out);
	CHECK(fabs(out.pub_ratio - 0.01) < 1e-9 && strstr(out.note, "nosuchpolicy") != NULL);
	exp_compare(r, 12, &out);
	CHECK(strstr(out.note, "workload nosuchworkload not available in this build") != NULL);
	/* Designs missing from the build, and a tunable this policy lacks. */
	CHECK(r->design_ok[D_A] && r->design_ok[D_B] && r->design_ok[D_C]);
	CHECK(!r->design_ok[D_X] && strstr(r->design_why[D_X], "policy nosuchpolicy not available in this build"));
	CHECK(!r->design_ok[D_Y] && strstr(r->design_why[D_Y], "no tunable nosuchtunable"));
	CHECK(!exp_rr(r, D_X, 0, 0)->available && !exp_rr(r, D_Y, 2, 0)->available);
	experiments_free(res);
}

void test_reproduce_runs(void);
void test_reproduce_runs(void)
{
	struct reproduce_opts o = { .full = true, .jobs = 1, .check = true };
	struct exp_result **res = experiments_run(test_list, &o);
	struct exp_result *r = res[0];
	/* usemem -m 24 touches 6144 pages once each: that many minor faults,
	 * in each of its two repeats (on 24 MB of RAM less the reserve, so it
	 * swaps). */
	for (int k = 0; k < 2; k++) {
		const struct run_result *rr = exp_rr(r, D_B, 0, k);
		CHECK(rr->available && rr->finished && rr->nr_wl == 1);
		CHECK_EQ(rr->wl[0].tf.minflt, 6144);
		CHECK(rr->ev[PSWPOUT] > 0 && rr->swap_peak_kb > 0 && rr->nr_samples > 0);
	}
	double v;
	CHECK(exp_metric_value(r, D_B, exp_metric_index(&test_exp, "minflt"), &v) && v == 6144);
	/* The bench starts one second after the filler alone had finished;
	 * the run ends with the bench while the filler still holds its memory. */
	const struct run_result *d = exp_rr(r, D_C, 2, 0);
	CHECK(d->available && d->finished && d->nr_wl == 2);
	CHECK_EQ(d->wl[0].start_ns, 0);
	CHECK(d->wl[1].start_ns > 1000000000ULL);
	CHECK(d->wl[1].done && !d->wl[0].done);
	CHECK(d->wl[1].tf.elapsed > 0 && (double)d->sim_ns / 1e9 <= (double)d->wl[1].start_ns / 1e9 + d->wl[1].tf.elapsed + 0.001);
	CHECK(!exp_metric_value(r, D_C, exp_metric_index(&test_exp, "filler"), &v));
	CHECK(exp_metric_value(r, D_C, exp_metric_index(&test_exp, "bench"), &v) && v > 0);
	/* Residency of the filler: sampled, never above its 12 MB, and all of
	 * it resident before the bench starts (24 MB of RAM). */
	CHECK(d->resident_kb != NULL);
	uint64_t max = 0, before = 0;
	for (uint64_t i = 0; d->resident_kb && i < d->nr_samples; i++) {
		if (d->resident_kb[i] > max)
			max = d->resident_kb[i];
		if (d->samples[i].t < d->wl[1].start_ns)
			before = d->resident_kb[i];
	}
	CHECK(max <= 12 * 1024 && before == 12 * 1024);
	/* Same output for any number of jobs. */
	char *one = json_of(res);
	experiments_free(res);
	o.jobs = 4;
	o.check = false;
	res = experiments_run(test_list, &o);
	char *four = json_of(res);
	CHECK(one && four && strcmp(one, four) == 0);
	free(one);
	free(four);
	experiments_free(res);
}

void test_reproduce_templates(void);
void test_reproduce_templates(void)
{
	struct exp_result r = { .e = &test_exp, .scale = 1.0 / 16 };
	char buf[256];
	exp_expand(&r, "mtest01 -b {B:536870912} -w", buf, sizeof(buf));
	CHECK(!strcmp(buf, "mtest01 -b 33554432 -w"));
	exp_expand(&r, "usemem -n 3 -m {M:1536} x{N:40}", buf, sizeof(buf));
	CHECK(!strcmp(buf, "usemem -n 3 -m 96 x3"));
	exp_expand(&r, "ram={S:4G} pool={S:8M} one={N:1}", buf, sizeof(buf));
	CHECK(!strcmp(buf, "ram=256M pool=512K one=1"));
	double f[12];
	CHECK(exp_last_numbers("Bonnie 1.0\nmachine 100 1963 95.0 5711 30.1 2235 24.5 2013 93.3 7191 33.6 59.2 2.8\n", 12, f));
	CHECK(f[0] == 1963 && f[10] == 59.2 && f[11] == 2.8);
	CHECK(!exp_last_numbers("only 3 4\n", 12, f));
	double v;
	CHECK(exp_number_after("40 clients started\nThroughput 9.40112 MB/sec (NB=11.75 MB/sec)", "Throughput", &v) && v == 9.40112);
	CHECK(exp_cmd_number("dd if=/dev/sda of=/dev/null bs=1M count=2336", "count=", &v) && v == 2336);
}
