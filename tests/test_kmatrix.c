/* test_kmatrix.c - compare --matrix's strict rule and rank test
 * (src/engine/kmatrix.c, stats.c's spearman_rho): a cell's class at the
 * tolerance's edges and the floor, Spearman's rho with ties, and when a
 * case's kernel spread counts as wide; the load a kernel record keeps. */
#include "test.h"
#include "../src/engine/kmatrix.h"
#include "../src/engine/json.h"
#include "../src/engine/kexec.h"
#include "../src/engine/stats.h"
#include "../src/lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_kmatrix_classify(void)
{
	/* +-25 % of the kernel's median, both edges in */
	CHECK(km_classify(1000, 1250, 25, 100) == KM_WITHIN);
	CHECK(km_classify(1000, 750, 25, 100) == KM_WITHIN);
	CHECK(km_classify(1000, 1251, 25, 100) == KM_MISS);
	CHECK(km_classify(1000, 749, 25, 100) == KM_MISS);
	/* both under the floor: apart, never a pass; one above it: judged */
	CHECK(km_classify(99, 0, 25, 100) == KM_SMALL);
	CHECK(km_classify(0, 99, 25, 100) == KM_SMALL);
	CHECK(km_classify(99, 100, 25, 100) == KM_WITHIN);
	CHECK(km_classify(0, 100, 25, 100) == KM_MISS);
	/* no floor (the times): 0 against 0 agrees, 0 against more misses */
	CHECK(km_classify(0, 0, 25, 0) == KM_WITHIN);
	CHECK(km_classify(0, 0.1, 25, 0) == KM_MISS);
	CHECK(km_classify(NAN, 1, 25, 0) == KM_NONE);
}

void test_kmatrix_spearman(void)
{
	double a[] = { 1, 2, 3, 4, 5 }, up[] = { 10, 20, 25, 400, 500 }, down[] = { 5, 4, 3, 2, 1 };
	CHECK(fabs(spearman_rho(a, up, 5) - 1) < 1e-12);
	CHECK(fabs(spearman_rho(a, down, 5) + 1) < 1e-12);
	/* ties keep their midranks: ranks 1 2 3 4 5 against 1.5 1.5 3 4 5,
	 * r = 9.5 / sqrt(10 * 9.5) */
	double tie[] = { 7, 7, 8, 9, 10 };
	CHECK(fabs(spearman_rho(a, tie, 5) - 9.5 / sqrt(95)) < 1e-12);
	double flat[] = { 3, 3, 3, 3, 3 };
	CHECK(isnan(spearman_rho(a, flat, 5)));
	CHECK(isnan(spearman_rho(a, up, 2)));
	double r[5];
	midranks(tie, 5, r);
	CHECK(r[0] == 1.5 && r[1] == 1.5 && r[2] == 3 && r[4] == 5);
}

/* A one-design table with pswpout's kernel runs spread lo..hi. */
static bool wide(double lo, double hi)
{
	struct kcmp_row row = { .name = "pswpout", .kfound = true, .sfound = true, .kmin = lo, .kmax = hi };
	static const char *const pol[] = { "linux6" };
	struct kcmp x = { .npol = 1, .pol = pol, .nrows = 1, .row = &row };
	return kmatrix_wide(&x, 1.5, 100);
}

void test_kmatrix_wide(void)
{
	CHECK(!wide(1000, 1500));   /* max/min 1.5: not above it */
	CHECK(wide(1000, 1501));
	CHECK(wide(0, 100));        /* 0 and a run at the floor */
	CHECK(!wide(0, 99));        /* all under the floor: noise */
	struct kcmp_row other = { .name = "pgfault", .kfound = true, .kmin = 1, .kmax = 1000 };
	struct kcmp x = { .npol = 1, .nrows = 1, .row = &other };
	CHECK(!kmatrix_wide(&x, 1.5, 100));   /* not a headline counter */
}

/* A kernel run's record carries the host's 1-minute load when it was
 * read (kexec.c), and none when it was not (-1, kernel_result_attach's). */
void test_kmatrix_record_loadavg(void)
{
	for (int read = 0; read < 2; read++) {
		struct run_result rr = { .available = true, .finished = true, .nr_wl = 1 };
		rr.wl[0].cmd = xstrdup("usemem -m 40");
		struct kernel_result *k = kernel_result_attach(&rr);
		CHECK(k->loadavg == -1);
		if (read)
			k->loadavg = 7.25;
		struct record_meta m = { .cmd = "pagelab kernel x # run 1, executor 2", .design = "kernel",
					 .config = "x", .seed = 1, .kernel = true };
		char *line = record_format(&m, &rr), err[200];
		line[strcspn(line, "\n")] = 0;
		struct record r;
		double v = 0;
		CHECK(record_parse(line, &r, err, sizeof(err)));
		CHECK(json_get_num(json_get(r.j, "kernel"), "loadavg", &v) == (bool)read);
		CHECK(!read || v == 7.25);
		record_free(&r);
		free(line);
		run_result_free(&rr);
	}
}
