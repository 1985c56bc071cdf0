/* test_engine.c - the experiment engine's pieces on hand-checked inputs:
 * list and range expansion of sweep axes, the JSON reader, the derived
 * reclaim figures of a results record, and the cell order of a matrix. */
#include "test.h"
#include "../src/engine/matrix.h"
#include "../src/engine/record.h"
#include "../src/engine/stats.h"
#include "../src/reproduce/exp_file.h"
#include <stdio.h>
#include "../src/lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *expand(const char *list, enum axis_values kind)
{
	static char out[512];
	struct axis ax = { .name = xstrdup("x") };
	char err[200];
	out[0] = 0;
	if (!axis_expand(list, kind, &ax, err, sizeof(err))) {
		snprintf(out, sizeof(out), "error: %s", err);
	} else {
		for (int i = 0; i < ax.n; i++) {
			strcat(out, i ? " " : "");
			strcat(out, ax.values[i]);
		}
	}
	axis_free(&ax);
	return out;
}

void test_engine_axis_ranges(void)
{
	CHECK(!strcmp(expand("256M:1G:x2", AXV_SIZE), "256M 512M 1G"));
	CHECK(!strcmp(expand("256M:1G:+256M", AXV_SIZE), "256M 512M 768M 1G"));
	/* B need not be on the grid: the values stop below it */
	CHECK(!strcmp(expand("100M:1000M:x3", AXV_SIZE), "100M 300M 900M"));
	CHECK(!strcmp(expand("1:3,10", AXV_NUMBER), "1 2 3 10"));
	CHECK(!strcmp(expand("0:100:+50", AXV_ANY), "0 50 100"));
	CHECK(!strcmp(expand("0.1:0.3:+0.1", AXV_NUMBER), "0.1 0.2 0.3"));
	CHECK(!strcmp(expand("1M:4M:x2", AXV_ANY), "1M 2M 4M"));
	CHECK(!strcmp(expand("clock,mglru", AXV_WORD), "clock mglru"));
	CHECK(!strncmp(expand("1G:256M:x2", AXV_SIZE), "error: --x: range '1G:256M:x2' does not go up", 40));
	CHECK(!strncmp(expand("256M:1G:x1", AXV_SIZE), "error:", 6));
	CHECK(!strncmp(expand("256M:1G", AXV_SIZE), "error:", 6));
	CHECK(!strncmp(expand("a,,b", AXV_WORD), "error: --x: empty item", 22));
	CHECK(!strncmp(expand("12Q", AXV_SIZE), "error: --x: bad size", 20));
	CHECK(!strncmp(expand("1:5:+0", AXV_NUMBER), "error:", 6));
}

void test_engine_json(void)
{
	char err[200];
	const char *s = " {\"a\": [1, -2.5e1, true, null], \"b\": \"x\\\"\\u00e9\\ud83d\\ude00\", \"c\": {}} ";
	struct json *j = json_parse(s, strlen(s), err, sizeof(err));
	CHECK(j != NULL);
	if (j) {
		const struct json *a = json_get(j, "a");
		CHECK(a && a->type == JSON_ARR && a->n == 4);
		CHECK(a && a->items[1].num == -25);
		CHECK(a && a->items[2].type == JSON_BOOL && a->items[2].b);
		CHECK(!strcmp(json_get_str(j, "b"), "x\"\xc3\xa9\xf0\x9f\x98\x80"));
		CHECK(json_get(j, "c")->type == JSON_OBJ);
		CHECK(json_get(j, "d") == NULL);
		json_free(j);
	}
	static const char *const bad[][2] = {
		{ "{\"a\" 1}", "column 6: expected ':'" },
		{ "[1, 2", "column 6: expected ',' or ']'" },
		{ "\"abc", "column 5: unterminated string" },
		{ "01", "column 2: text after the value" },
		{ "{} x", "column 4: text after the value" },
		{ "-", "column 2: bad number" },
		{ "tru", "column 1: unknown literal" },
		{ "\"\\x\"", "column 4: bad escape in a string" },
		{ "", "column 1: unexpected end" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = 0;
		struct json *x = json_parse(bad[i][0], strlen(bad[i][0]), err, sizeof(err));
		CHECK(x == NULL);
		CHECK(!strcmp(err, bad[i][1]));
		json_free(x);
	}
	/* 40 nested arrays: refused, not a deep recursion */
	char deep[100];
	memset(deep, '[', 40);
	deep[40] = 0;
	CHECK(json_parse(deep, 40, err, sizeof(err)) == NULL && !strcmp(err, "column 34: nested too deeply"));
}

void test_engine_record_metrics(void)
{
	/* 10 s, 1000 pages scanned by kswapd (600 stolen) and 1000 directly
	 * (200 stolen); 2560 pages swapped out (10 MB), 256 in (1 MB), 50
	 * major faults. */
	const char *line = "{\"cell\": 3, \"cmd\": \"pagelab run x\", \"design\": \"d\", \"config\": \"c\", "
		"\"seed\": 2, \"available\": true, \"elapsed_s\": 10, \"counters\": {\"pgscan_kswapd\": 1000, "
		"\"pgscan_direct\": 1000, \"pgsteal_kswapd\": 600, \"pgsteal_direct\": 200, \"pswpout\": 2560, "
		"\"pswpin\": 256, \"pgmajfault\": 50}}";
	struct record r;
	char err[200];
	CHECK(record_parse(line, &r, err, sizeof(err)));
	double v = -1;
	CHECK(record_metric(&r, "kswapd_efficiency", &v) && v == 60);
	CHECK(record_metric(&r, "direct_reclaim", &v) && v == 25);
	CHECK(record_metric(&r, "scan_velocity", &v) && v == 200);
	CHECK(record_metric(&r, "swapout_mbs", &v) && v == 1);
	CHECK(record_metric(&r, "swapin_mbs", &v) && fabs(v - 0.1) < 1e-12);
	CHECK(record_metric(&r, "majflt_per_s", &v) && v == 5);
	CHECK(record_metric(&r, "pswpout", &v) && v == 2560);
	CHECK(!record_metric(&r, "seed", &v));
	CHECK(!record_metric(&r, "nosuch", &v));
	CHECK(r.cell == 3 && r.seed == 2 && !strcmp(r.design, "d"));
	record_free(&r);
	/* no kswapd scans: efficiency undefined, not 0 or NaN */
	const char *idle = "{\"cell\": 0, \"cmd\": \"x\", \"design\": \"d\", \"config\": \"c\", \"seed\": 1, "
		"\"available\": true, \"elapsed_s\": 0, \"counters\": {\"pgscan_kswapd\": 0, \"pgsteal_kswapd\": 0}}";
	CHECK(record_parse(idle, &r, err, sizeof(err)));
	CHECK(!record_metric(&r, "kswapd_efficiency", &v));
	CHECK(!record_metric(&r, "majflt_per_s", &v));
	record_free(&r);
	CHECK(!record_parse("{\"cell\": 0}", &r, err, sizeof(err)));
	CHECK(!strcmp(err, "not a pagelab result (needs cell, cmd, design, config, seed)"));
}

void test_engine_matrix_order(void)
{
	/* 2 policies x 2 RAM sizes x 3 seeds: the seed varies fastest */
	struct matrix mx = { 0 };
	char err[300];
	mx.axes = xcalloc(3, sizeof(*mx.axes));
	mx.nr_axes = 3;
	mx.axes[0].name = xstrdup("policy");
	mx.axes[1].name = xstrdup("machine");
	mx.axes[2].name = xstrdup("ram");
	CHECK(axis_expand("clock,lru", AXV_WORD, &mx.axes[0], err, sizeof(err)));
	CHECK(axis_expand("vmm-2008", AXV_WORD, &mx.axes[1], err, sizeof(err)));
	CHECK(axis_expand("32M,64M", AXV_SIZE, &mx.axes[2], err, sizeof(err)));
	mx.seeds = xcalloc(3, sizeof(uint64_t));
	mx.seeds[0] = 1, mx.seeds[1] = 2, mx.seeds[2] = 9;
	mx.nr_seeds = 3;
	mx.wl[0] = xstrdup("usemem -m 1");
	mx.nr_wl = 1;
	struct matrix_cell *c;
	int n;
	CHECK(matrix_cells(&mx, &c, &n, err, sizeof(err)));
	CHECK_EQ(n, 12);
	if (n == 12) {
		CHECK(!strcmp(c[0].cmd, "pagelab run --machine vmm-2008 --ram 32M --policy clock --seed 1 usemem -m 1"));
		CHECK(!strcmp(c[5].cmd, "pagelab run --machine vmm-2008 --ram 64M --policy clock --seed 9 usemem -m 1"));
		CHECK(!strcmp(c[6].design, "lru") && c[6].seed == 1 && c[6].c.prof.ram == (32ULL << 20));
		CHECK(!strcmp(c[11].config, "--machine vmm-2008 --ram 64M usemem -m 1"));
		CHECK_EQ(c[11].index, 11);
	}
	matrix_cells_free(c, n);
	matrix_free(&mx);
}

void test_engine_stats(void)
{
	/* Student's t quantiles from the tables */
	CHECK(fabs(t_quantile(0.975, 1) - 12.7062) < 1e-3);
	CHECK(fabs(t_quantile(0.975, 4) - 2.7764) < 1e-3);
	CHECK(fabs(t_quantile(0.975, 10) - 2.2281) < 1e-3);
	CHECK(fabs(t_quantile(0.025, 10) + 2.2281) < 1e-3);
	/* Welch: means 3 and 5, variances 2.5, n 5: t = -2, df = 8, p = 0.0805 */
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 4, 5, 6, 7 };
	CHECK(fabs(welch_p(a, 5, b, 5) - 0.0805) < 1e-3);
	struct summary s = summarize(a, 5);
	CHECK(s.n == 5 && s.mean == 3 && fabs(s.sd - sqrt(2.5)) < 1e-12);
	/* no spread on either side: equal means p = 1, different p = 0 */
	const double c[] = { 7, 7, 7, 7, 7 }, d[] = { 8, 8, 8, 8, 8 };
	CHECK(welch_p(c, 5, c, 5) == 1 && welch_p(c, 5, d, 5) == 0);
	/* Mann-Whitney, exact: complete separation of 3 and 3 is 2 of the
	 * C(6,3) = 20 splits, of 4 and 4 is 2 of 70 */
	const double x[] = { 1, 2, 3, 4 }, y[] = { 5, 6, 7, 8 };
	CHECK(fabs(mann_whitney_p(x, 3, y, 3) - 0.1) < 1e-12);
	CHECK(fabs(mann_whitney_p(x, 4, y, 4) - 2.0 / 70) < 1e-12);
	CHECK(mann_whitney_p(c, 3, c, 3) == 1);  /* all tied */
	double p;
	CHECK(significance(a, 5, b, 5, &p) == TEST_WELCH && fabs(p - 0.0805) < 1e-3);
	CHECK(significance(x, 4, y, 4, &p) == TEST_MANN_WHITNEY && p < 0.05);
	CHECK(significance(x, 1, y, 4, &p) == TEST_NONE && isnan(p));
}

/* The five built-in experiment files through the parser: each written back
 * parses to the same text; 3000 mutated copies (bytes flipped, lines cut)
 * are each parsed or refused with FILE:LINE, never a crash (ASan in make
 * sancheck). */
void test_engine_exp_files(void)
{
	extern const char *const builtin_experiment_files[][2];
	const struct experiment *const *ex = builtin_experiments();
	int n = 0;
	while (ex[n])
		n++;
	CHECK_EQ(n, 5);
	struct rng rng;
	rng_seed(&rng, 13);
	for (int i = 0; i < n; i++) {
		CHECK_EQ(ex[i]->id, i + 1);
		char *a = NULL, *b = NULL;
		size_t la, lb;
		FILE *f = open_memstream(&a, &la);
		exp_file_write(ex[i], f);
		fclose(f);
		char err[600];
		struct experiment *e = exp_file_parse("again", a, la, err, sizeof(err));
		CHECK(e != NULL);
		if (e) {
			f = open_memstream(&b, &lb);
			exp_file_write(e, f);
			fclose(f);
			CHECK(la == lb && !memcmp(a, b, la));
			free(b);
			exp_file_free(e);
		}
		free(a);
		const char *text = builtin_experiment_files[i][1];
		size_t len = strlen(text);
		char *m = xmalloc(len + 1);
		for (int k = 0; k < 600; k++) {
			memcpy(m, text, len + 1);
			size_t ml = len;
			int edits = 1 + (int)rng_below(&rng, 4);
			for (int x = 0; x < edits; x++) {
				size_t at = rng_below(&rng, ml);
				switch (rng_below(&rng, 3)) {
				case 0: m[at] = (char)rng_below(&rng, 256); break;
				case 1: ml = at; break;
				default: m[at] = "\" {}:#\n"[rng_below(&rng, 7)]; break;
				}
			}
			err[0] = 0;
			e = exp_file_parse("m", m, ml, err, sizeof(err));
			CHECK(e != NULL || !strncmp(err, "m:", 2));
			exp_file_free(e);
		}
		free(m);
	}
}
