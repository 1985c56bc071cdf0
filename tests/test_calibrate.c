/* test_calibrate.c - reproduce --calibrate: the fit uses the baseline's
 * published figures and nothing else.  Cost: three fits of 46 runs of a
 * usemem on a 24 MB machine, about a second of CPU in all. */
#include "test.h"
#include "../src/reproduce/calibrate.h"
#include "../src/reproduce/exp_file.h"
#include "../src/machine/profile.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Two designs, one run, published figures for both.  The figures are
 * made up: what matters is which of them the fit may look at. */
static const char *calib_exp(char *buf, size_t len, const char *base_elapsed, const char *other_elapsed,
			     const char *other_sys)
{
	snprintf(buf, len,
		 "experiment 9 calib-test\n"
		 "title \"calibration test\"\n"
		 "machine vmm-2008\n"
		 "machine-set \"ram=24M swap=64M\"\n"
		 "design base linux26 thread\n"
		 "design other splitlru thread\n"
		 "run u \"usemem beyond RAM\"\n"
		 "  wl \"usemem -m 30\"\n"
		 "  repeats 1 1\n"
		 "metric el u 0 elapsed lower \"usemem elapsed (s)\"\n"
		 "metric sy u 0 sys lower \"usemem system time (s)\"\n"
		 "published base el %s \"x\" t.txt:1\n"
		 "published base sy 0.2 \"x\" t.txt:1\n"
		 "published other el %s \"x\" t.txt:2\n"
		 "published other sy %s \"x\" t.txt:2\n"
		 "compare el base other ratio 0.25 0.03 0 t.txt:1-2\n"
		 "compare sy base other ratio 0.25 0.03 0 t.txt:1-2\n",
		 base_elapsed, other_elapsed, other_sys);
	return buf;
}

static struct calib_result **calib_fit(const char *text, struct experiment **ep)
{
	char err[300];
	*ep = exp_file_parse("calib-test", text, strlen(text), err, sizeof(err));
	CHECK(*ep != NULL);
	if (!*ep) {
		fprintf(stderr, "%s\n", err);
		return NULL;
	}
	const struct experiment *list[2] = { *ep, NULL };
	struct reproduce_opts o = { .full = true, .jobs = 1 };
	return calibrate_run(list, &o);
}

void test_calibrate_uses_only_the_baseline(void)
{
	char t1[2048], t2[2048], t3[2048];
	struct experiment *e1, *e2, *e3;
	struct calib_result **a = calib_fit(calib_exp(t1, sizeof(t1), "3.0", "4.0", "0.3"), &e1);
	/* The compared design's figures changed: the fit must not move. */
	struct calib_result **b = calib_fit(calib_exp(t2, sizeof(t2), "3.0", "40.0", "9.0"), &e2);
	/* The baseline's figure changed: the fit must move. */
	struct calib_result **c = calib_fit(calib_exp(t3, sizeof(t3), "30.0", "4.0", "0.3"), &e3);
	if (!a || !b || !c)
		return;
	const struct profile *vmm = profile_find("vmm-2008");
	CHECK(vmm && vmm->unknown);
	CHECK(a[0] && !a[1] && a[0]->why == NULL);
	CHECK_EQ(a[0]->nr_params, 5);
	CHECK_EQ(a[0]->nr_figs, 2);
	/* 1 start + 5 parameters x (6 + 3) golden-section evaluations */
	CHECK_EQ(a[0]->evals, 46);
	CHECK(!strcmp(a[0]->baseline, "base"));
	/* The fit improves on the profile's values... */
	CHECK(a[0]->err_fit < a[0]->err_raw);
	/* ... and is the same whatever the other design published. */
	int same = 1, moved = 0;
	for (int i = 0; i < a[0]->nr_params; i++) {
		same &= a[0]->fit[i].factor == b[0]->fit[i].factor;
		moved |= a[0]->fit[i].factor != c[0]->fit[i].factor;
	}
	CHECK(same);
	CHECK(a[0]->err_fit == b[0]->err_fit);
	CHECK(moved);
	/* The baseline's fitted figure follows its target: x10 more elapsed
	 * time asked for gives more elapsed time. */
	CHECK(c[0]->figs[0].fitted > a[0]->figs[0].fitted);
	calibrate_free(a);
	calibrate_free(b);
	calibrate_free(c);
	exp_file_free(e1);
	exp_file_free(e2);
	exp_file_free(e3);
}

void test_calibrate_profile_unknowns(void)
{
	/* Every listed unknown is a numeric parameter the fit can scale. */
	for (int i = 0; profile_presets[i]; i++) {
		const struct profile *p = profile_presets[i];
		if (!p->unknown)
			continue;
		char buf[256];
		snprintf(buf, sizeof(buf), "%s", p->unknown);
		int n = 0;
		for (char *s = strtok(buf, " "); s; s = strtok(NULL, " "), n++) {
			uint64_t v;
			/* a factor on 0 stays 0: a zero default cannot be fitted */
			CHECK(profile_get_u64(p, s, &v) && v > 0);
			CHECK(profile_param_unit(s) != NULL);
		}
		CHECK(n > 0 && n <= CALIB_MAX_PARAMS);
	}
	struct profile q = *profile_find("vmm-2008");
	uint64_t v = 0;
	CHECK(profile_set_u64(&q, "cost.fault", 2500));
	CHECK(profile_get_u64(&q, "cost.fault", &v));
	CHECK_EQ(v, 2500);
	/* clamped to the parameter's range */
	CHECK(profile_set_u64(&q, "cpus", 0));
	CHECK(profile_get_u64(&q, "cpus", &v));
	CHECK_EQ(v, 1);
	CHECK(!profile_get_u64(&q, "disk.kind", &v));
	CHECK(!profile_set_u64(&q, "nosuch", 1));
}
