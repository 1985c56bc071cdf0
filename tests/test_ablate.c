/* test_ablate.c - pagelab ablate's logic (src/engine/ablate.c): which
 * tunables are switches, the variants an --off list and --pairs give, the
 * errors, the figures, record_metric's sums the table reads, and the
 * table itself from records (a change too wide for its column too). */
#include "test.h"
#include "../src/engine/ablate.h"
#include "../src/mm/work.h"
#include "../src/lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_ablate_switches(void)
{
	const struct policy_ops *mg = policy_find("mglru"), *l6 = policy_find("linux6");
	int idx[64];
	int n = ablate_switches(mg, idx);
	const char *want[] = { "walk_mmu", "look_around", "bloom", "tiers", "aging_trigger", "memcg_lru" };
	CHECK_EQ(n, 6);
	for (int k = 0; k < n && k < 6; k++)
		CHECK(!strcmp(mg->tunables[idx[k]].name, want[k]));
	/* swapin_referenced is 0..1 but off by default: no switch */
	int t = policy_tunable_index(l6, "swapin_referenced");
	CHECK(t >= 0 && !ablate_is_switch(&l6->tunables[t]));
	t = policy_tunable_index(l6, "two_touch");
	CHECK(t >= 0 && ablate_is_switch(&l6->tunables[t]));
	CHECK_EQ(ablate_switches(policy_find("clock"), idx), 1);   /* first_ref */
	CHECK_EQ(ablate_switches(policy_find("fifo"), idx), 0);
}

void test_ablate_variants(void)
{
	const struct policy_ops *mg = policy_find("mglru");
	struct ablate_variant *v;
	int n;
	char err[600];
	CHECK(ablate_variants(mg, NULL, false, &v, &n, err, sizeof(err)));
	CHECK_EQ(n, 7);
	CHECK_EQ(v[0].n, 0);
	CHECK(v[1].n == 1 && !strcmp(mg->tunables[v[1].off[0]].name, "walk_mmu"));
	free(v);
	/* a list in its own order, then the pairs in list order */
	CHECK(ablate_variants(mg, "bloom,walk_mmu,tiers", true, &v, &n, err, sizeof(err)));
	CHECK_EQ(n, 1 + 3 + 3);
	CHECK(!strcmp(mg->tunables[v[1].off[0]].name, "bloom") && !strcmp(mg->tunables[v[3].off[0]].name, "tiers"));
	CHECK(v[4].n == 2 && !strcmp(mg->tunables[v[4].off[0]].name, "bloom") &&
	      !strcmp(mg->tunables[v[4].off[1]].name, "walk_mmu"));
	CHECK(v[6].n == 2 && !strcmp(mg->tunables[v[6].off[0]].name, "walk_mmu") &&
	      !strcmp(mg->tunables[v[6].off[1]].name, "tiers"));
	free(v);
	CHECK(!ablate_variants(mg, "walk_mmu,nosuch", false, &v, &n, err, sizeof(err)) && !v && !n);
	CHECK(!strcmp(err, "ablate: mglru has no switch 'nosuch' (its switches: walk_mmu, look_around, bloom, "
		      "tiers, aging_trigger, memcg_lru)"));
	CHECK(!ablate_variants(mg, "swappiness", false, &v, &n, err, sizeof(err)));
	CHECK(!strncmp(err, "ablate: swappiness is a tunable of mglru (0..200, default 60), not a switch", 75));
	CHECK(!ablate_variants(mg, "bloom,bloom", false, &v, &n, err, sizeof(err)));
	CHECK(!strcmp(err, "ablate: --off names bloom twice"));
	CHECK(!ablate_variants(mg, "bloom,", false, &v, &n, err, sizeof(err)));
	CHECK(!strcmp(err, "ablate: empty name in --off 'bloom,'"));
	CHECK(!ablate_variants(mg, "", false, &v, &n, err, sizeof(err)));
	CHECK(!ablate_variants(policy_find("fifo"), NULL, true, &v, &n, err, sizeof(err)));
	CHECK(!strncmp(err, "ablate: fifo has no mechanism switch", 36));
}

void test_ablate_metrics(void)
{
	const char **m = ablate_metrics(1, NULL);
	CHECK(!strcmp(m[0], "elapsed_s") && !strcmp(m[1], "pgmajfault") && !strcmp(m[2], "workingset_refault") &&
	      !strcmp(m[3], "pgscan") && !strcmp(m[4], "pgsteal") && !strcmp(m[5], reclaim_work_names[0]));
	int n = 0;
	while (m[n])
		n++;
	CHECK_EQ(n, 5 + NR_RECLAIM_WORK);
	free(m);
	m = ablate_metrics(2, NULL);
	CHECK(!strcmp(m[1], "elapsed_s.0") && !strcmp(m[2], "elapsed_s.1") && !strcmp(m[3], "pgmajfault"));
	free(m);
}

void test_ablate_record_sums(void)
{
	const char *line = "{\"cell\": 0, \"cmd\": \"x\", \"design\": \"d\", \"config\": \"c\", \"seed\": 1, "
		"\"available\": true, \"elapsed_s\": 9, \"workloads\": [{\"elapsed_s\": 9}, {\"elapsed_s\": 4}], "
		"\"counters\": {\"pgscan_anon\": 10, \"pgscan_file\": 5, \"pgsteal_anon\": 3, \"pgsteal_file\": 4, "
		"\"workingset_refault_anon\": 7, \"workingset_refault_file\": 8}}";
	struct record r;
	char err[200];
	double v = -1;
	CHECK(record_parse(line, &r, err, sizeof(err)));
	CHECK(record_metric(&r, "pgscan", &v) && v == 15);
	CHECK(record_metric(&r, "pgsteal", &v) && v == 7);
	CHECK(record_metric(&r, "workingset_refault", &v) && v == 15);
	CHECK(record_metric(&r, "elapsed_s.1", &v) && v == 4);
	CHECK(record_metric(&r, "elapsed_s.0", &v) && v == 9);
	CHECK(!record_metric(&r, "elapsed_s.2", &v));
	CHECK(!record_metric(&r, "elapsed_s.", &v));
	CHECK(!record_metric(&r, "elapsed_s.-1", &v));
	CHECK(!record_metric(&r, "elapsed_s.1x", &v));
	record_free(&r);
}

/* A record of design d, seed s: elapsed e, pgscan_file p, killed k. */
static void add(struct records *rs, const char *d, int s, double e, double p, bool k)
{
	char line[600], err[200];
	snprintf(line, sizeof(line), "{\"cell\": %d, \"cmd\": \"pagelab run %s %d\", \"design\": \"%s\", "
		 "\"config\": \"c\", \"seed\": %d, \"available\": true, \"finished\": true, \"elapsed_s\": %g, "
		 "\"workloads\": [{\"elapsed_s\": %g, \"killed\": %s}], \"counters\": {\"pgscan_anon\": 0, "
		 "\"pgscan_file\": %g, \"pgmajfault\": 0}}", rs->n, d, s, d, s, e, e, k ? "true" : "false", p);
	rs->r = xrealloc(rs->r, (size_t)(rs->n + 1) * sizeof(*rs->r));
	CHECK(record_parse(line, &rs->r[rs->n], err, sizeof(err)));
	rs->n++;
}

/* compare_records() of rs against policy on metrics, printed by
 * ablate_print_text(): the text, to free(). */
static char *table_text(const struct records *rs, const char *policy, const char *const *metrics)
{
	int nt;
	struct cmp_table *t = compare_records(rs, policy, metrics, &nt);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ablate_print_text(t, nt, rs, policy, f);
	fclose(f);
	compare_free(t, nt);
	return buf;
}

void test_ablate_text(void)
{
	struct records rs = { 0 };
	const char *long_d = "mglru aging_trigger=0 look_around=0 walk_mmu=0";
	for (int s = 1; s <= 5; s++) {
		add(&rs, "mglru", s, 10 + s * 0.01, 100, false);
		add(&rs, "mglru bloom=0", s, 20 + s * 0.01, 100, false);
		add(&rs, long_d, s, 10 + s * 0.01, 100, s == 1);
	}
	static const char *const metrics[] = { "elapsed_s", "pgscan", "pgmajfault", "walk_mm", NULL };
	char *buf = table_text(&rs, "mglru", metrics);
	const char *want =
		"ablate mglru: 2 variants and the full design, 5 seeds each\n"
		"config: c\n"
		"OOM kill in 1 run of mglru aging_trigger=0 look_around=0 walk_mmu=0\n"
		"(an OOM-killed run's figures are those of a shorter run)\n"
		"\n"
		"elapsed_s                   mean     median     stddev    change       p\n"
		"  mglru (full)           10.0300    10.0300     0.0158\n"
		"  bloom=0                20.0300    20.0300     0.0158    +99.7%  0.0000 *\n"
		"  aging_trigger=0 look_around=0 walk_mmu=0\n"
		"                         10.0300    10.0300     0.0158     +0.0%  1.0000\n"
		"\n"
		"pgscan                      mean     median     stddev    change       p\n"
		"  mglru (full)          100.0000   100.0000     0.0000\n"
		"  bloom=0               100.0000   100.0000     0.0000     +0.0%  1.0000\n"
		"  aging_trigger=0 look_around=0 walk_mmu=0\n"
		"                        100.0000   100.0000     0.0000     +0.0%  1.0000\n"
		"\n"
		"0 in every run: pgmajfault\n";
	CHECK(!strncmp(buf, want, strlen(want)));
	if (strncmp(buf, want, strlen(want)))
		fprintf(stderr, "got:\n%s", buf);
	free(buf);
	records_free(&rs);
}

/* The median column: one seed far off pulls the mean, not the median
 * (seeds 10, 11, 12 and 99: mean 33, median 11.5). */
void test_ablate_median(void)
{
	struct records rs = { 0 };
	static const double e[] = { 10, 11, 12, 99 };
	for (int s = 0; s < 4; s++) {
		add(&rs, "linux6", s + 1, 5, 1, false);
		add(&rs, "linux6 two_touch=0", s + 1, e[s], 1, false);
	}
	static const char *const metrics[] = { "elapsed_s", NULL };
	char *buf = table_text(&rs, "linux6", metrics);
	CHECK(strstr(buf, "\n  two_touch=0            33.0000    11.5000    44.0076   +560.0%  0.0286 *\n") != NULL);
	if (!strstr(buf, "two_touch=0            33.0000    11.5000    44.0076"))
		fprintf(stderr, "got:\n%s", buf);
	free(buf);
	records_free(&rs);
}

/* A change too wide for the column's 9 characters (+100000% and more) is
 * the variant's mean as a multiple of the full design's: the columns stay
 * under their headers (before, "+100000.0%" pushed p one column right,
 * and 2e12 over 2 printed "+99999999999900", cut at 15 characters). */
void test_ablate_wide_change(void)
{
	struct records rs = { 0 };
	for (int s = 1; s <= 2; s++) {
		add(&rs, "mglru", s, 1, 2, false);
		add(&rs, "mglru bloom=0", s, 1, 1999.9, false);      /* +99895.0%: 9 columns */
		add(&rs, "mglru tiers=0", s, 1, 2002, false);        /* +100000.0%: x1001 */
		add(&rs, "mglru walk_mmu=0", s, 1, 2e12, false);     /* x1.0e+12 */
	}
	static const char *const metrics[] = { "pgscan", NULL };
	char *buf = table_text(&rs, "mglru", metrics);
	const char *want =
		"pgscan                      mean     median     stddev    change       p\n"
		"  mglru (full)            2.0000     2.0000     0.0000\n"
		"  bloom=0                 1999.9     1999.9     0.0000 +99895.0%  0.3333\n"
		"  tiers=0                 2002.0     2002.0     0.0000     x1001  0.3333\n"
		"  walk_mmu=0               2e+12      2e+12     0.0000  x1.0e+12  0.3333\n";
	CHECK(strstr(buf, want) != NULL);
	if (!strstr(buf, want))
		fprintf(stderr, "got:\n%s", buf);
	/* the legend says what x means */
	CHECK(strstr(buf, "(x1001: 1001 times") != NULL);
	free(buf);
	records_free(&rs);
}
