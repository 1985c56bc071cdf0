/* test_verdict_seeds.c - reproduce's verdicts on distributions: a metric
 * that differs by seed gives an interval of the ratio, and the verdict
 * agrees when the thread's ratio lies within it (and the tolerance),
 * disagrees when not, and is "too noisy to tell" when the interval spans
 * both winners.  Three repeats of a 1 MB usemem (cheap); the figures are
 * set by hand per repeat. */
#include "test.h"
#include "../src/reproduce/experiment.h"

#include <math.h>
#include <string.h>

static const struct exp_design designs[] = {
	{ "A", "fifo", NULL, DESIGN_THREAD },
	{ "B", "fifo", NULL, DESIGN_THREAD },
};

static const struct exp_run runs[] = {
	{ .key = "u", .title = "tiny", .wl = { "usemem -m 1" }, .repeats = 3, .quick_repeats = 3,
	  .vmstat_s = 1, .max_time_s = 60, .delayed = -1, .residency_wl = -1 },
};

/* per metric, per design, per repeat */
static const double figures[3][2][3] = {
	{ { 10, 10, 10 }, { 19, 20, 21 } },   /* ratios 1.9 2.0 2.1: tight around 2 */
	{ { 10, 10, 10 }, { 5, 20, 10 } },    /* ratios 0.5 2 1: both ways */
	{ { 10, 10, 10 }, { 20, 20, 20 } },   /* no spread: a point */
};

static bool fixed(const struct exp_result *r, const struct exp_metric *mt, const struct run_result *rr, double *v)
{
	size_t k = (size_t)(rr - r->rr);
	size_t d = k / (size_t)r->reps, rep = k % (size_t)r->reps;
	int m = mt->key[1] - '0';
	*v = figures[m][d][rep];
	return rr->available;
}

static const struct exp_metric metrics[] = {
	{ "m0", "tight", "u", 0, MK_CUSTOM, NULL, false, fixed },
	{ "m1", "noisy", "u", 0, MK_CUSTOM, NULL, false, fixed },
	{ "m2", "point", "u", 0, MK_CUSTOM, NULL, false, fixed },
};

static const struct exp_published published[] = {
	{ "A", "m0", 100, "100", "t:1" }, { "B", "m0", 230, "230", "t:1" },
	{ "A", "m1", 100, "100", "t:2" }, { "B", "m1", 200, "200", "t:2" },
	{ "A", "m2", 100, "100", "t:3" }, { "B", "m2", 250, "250", "t:3" },
};

static const struct exp_comparison cmps[] = {
	/* 2.3 against the interval of 1.9..2.1 (about 1.75..2.28) with x1.05: agree */
	{ "m0", "A", "B", CMP_RATIO, 0.05, 0.03, 0, NULL, "t:1", NULL },
	/* 2 against an interval reaching below 1/1.03 and above 1.03: too noisy */
	{ "m1", "A", "B", CMP_RATIO, 0.05, 0.03, 0, NULL, "t:2", NULL },
	/* 2.5 against the point 2 with x1.05: disagree, as with one seed */
	{ "m2", "A", "B", CMP_RATIO, 0.05, 0.03, 0, NULL, "t:3", NULL },
	/* words: B worse than A, but the noisy figure cannot say */
	{ "m1", "A", "B", CMP_WORSE, 0, 0.03, 0, "B is worse", "t:4", NULL },
};

static void print(const struct exp_result *r, FILE *out)
{
	(void)r;
	(void)out;
}

static const struct experiment seeds_exp = {
	.id = 1, .slug = "seeds", .title = "verdicts over seeds", .thread = "none", .who = "tests",
	.profile = "vmm-2008", .machine_sets = "ram=24M swap=16M kernel_base=1M", .quick_scale = 1,
	EXP_ARRAY(designs), EXP_ARRAY(runs), EXP_ARRAY(metrics), EXP_ARRAY(published), EXP_ARRAY(cmps),
	.print = print,
};
static const struct experiment *const seeds_list[] = { &seeds_exp, NULL };

void test_verdict_seed_intervals(void)
{
	struct reproduce_opts o = { .full = true, .jobs = 1 };
	struct exp_result **res = experiments_run(seeds_list, &o);
	struct cmp_outcome c;
	exp_compare(res[0], 0, &c);
	/* log ratios ln 1.9, ln 2, ln 2.1: mean ln 1.9975, sd 0.05 in log
	 * terms; t(0.975, 2) = 4.303 */
	CHECK_EQ(c.nr_seeds, 3);
	CHECK(c.v == V_AGREE);
	CHECK(c.lo > 1.75 && c.lo < 1.8 && c.hi > 2.2 && c.hi < 2.3);
	exp_compare(res[0], 1, &c);
	CHECK(c.v == V_NOISY);
	CHECK(c.lo < 1 && c.hi > 1);
	CHECK(!strcmp(verdict_names[c.v], "too noisy"));
	exp_compare(res[0], 2, &c);
	CHECK(c.v == V_DISAGREE && c.lo == 2 && c.hi == 2);
	exp_compare(res[0], 3, &c);
	CHECK(c.v == V_NOISY);
	experiments_free(res);
}
