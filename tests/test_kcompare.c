/* test_kcompare.c - compare -- WORKLOAD's table from records
 * (src/engine/kcompare_table.c): the strict verdict (+-T of the kernel's
 * median, the kernel's min..max no part of it), the test beside it by the
 * records comparison's rule (stats.h significance()), and the kernel's
 * own counters (memory.stat, traced) taken when every run has them. */
#include "test.h"
#include "../src/engine/kcompare.h"
#include "../src/engine/json.h"
#include "../src/engine/kexec.h"
#include "../src/lib/util.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* A record of run i: pswpout v, and memcg.pgfault m (if m >= 0). */
static void rec(struct record *r, bool kernel, int i, double v, double m)
{
	char line[512], err[200];
	snprintf(line, sizeof(line),
		 "{\"cell\": %d, \"cmd\": \"c%d\", \"design\": \"%s\", \"config\": \"\", \"seed\": 1, "
		 "\"available\": true, \"counters\": {\"pswpout\": %.0f, \"pgfault\": 9}%s%.0f%s}",
		 i, i, kernel ? "kernel" : "linux6", v,
		 m >= 0 ? ", \"kernel\": {\"memory_stat\": {\"pgfault\": " : "", m >= 0 ? m : 0, m >= 0 ? "}}" : "");
	if (m < 0)
		strstr(line, "}0")[1] = ' ';   /* no kernel object: drop the 0 */
	CHECK(record_parse(line, r, err, sizeof(err)));
}

static const struct kcmp_row *row(const struct kcmp *x, const char *name)
{
	for (int k = 0; k < x->nrows; k++)
		if (!strcmp(x->row[k].name, name))
			return &x->row[k];
	return NULL;
}

void test_kcompare_verdict(void)
{
	/* kernel 1000, 20000 (median 10500); pagelab 4000 and 4200: inside
	 * min..max, outside +-25%: no.  Two a side: Mann-Whitney's exact p,
	 * pagelab's values both between the kernel's (p 1). */
	struct record k[2], s[2];
	rec(&k[0], true, 0, 1000, 20500);
	rec(&k[1], true, 1, 20000, 20510);
	rec(&s[0], false, 2, 4000, -1);
	rec(&s[1], false, 3, 4200, -1);
	const struct record *kp[] = { &k[0], &k[1] }, *sp[] = { &s[0], &s[1] };
	const char *pol[] = { "linux6" };
	struct kcmp_setup st = { .repeat = 2, .seeds = 2, .tol = 25 };
	struct kcmp x;
	kcmp_build(&x, kp, sp, 1, pol, &st);
	const struct kcmp_row *r = row(&x, "pswpout");
	CHECK(r && r->verdict == KCMP_NO && r->med == 10500 && r->kmin == 1000 && r->kmax == 20000);
	CHECK(r && r->sim == 4100 && r->test == TEST_MANN_WHITNEY && fabs(r->p - 1) < 1e-12);
	/* pgfault: the cgroup's own 20505 (every run has it), pagelab's 9 */
	r = row(&x, "pgfault");
	CHECK(r && r->med == 20505 && r->verdict == KCMP_NO);
	CHECK(!strcmp(x.own, "pgfault"));
	kcmp_free(&x);
	/* --floor 25000: both medians under it agree; 4100 / 10500 is 0.390:
	 * outside +-60%, inside +-62% (the median's band alone) */
	st.floor = 25000;
	kcmp_build(&x, kp, sp, 1, pol, &st);
	CHECK(row(&x, "pswpout")->verdict == KCMP_YES);
	kcmp_free(&x);
	st.floor = 0;
	st.tol = 60;
	kcmp_build(&x, kp, sp, 1, pol, &st);
	CHECK(row(&x, "pswpout")->verdict == KCMP_NO);
	kcmp_free(&x);
	st.tol = 62;
	kcmp_build(&x, kp, sp, 1, pol, &st);
	CHECK(row(&x, "pswpout")->verdict == KCMP_YES);
	kcmp_free(&x);
	for (int i = 0; i < 2; i++) {
		record_free(&k[i]);
		record_free(&s[i]);
	}
}

void test_kcompare_p_note(void)
{
	char head[200];
	const char *tail;
	struct kcmp_setup st = { .repeat = 3, .seeds = 3 };
	CHECK(kcmp_p_note(&st, head, sizeof(head), &tail) && strstr(head, "exact Mann-Whitney U"));
	st.repeat = st.seeds = 5;
	CHECK(kcmp_p_note(&st, head, sizeof(head), &tail) && strstr(head, "Welch's t-test"));
	st.seeds = 1;
	CHECK(!kcmp_p_note(&st, head, sizeof(head), &tail));
}

/* A kernel run's record (src/engine/record.c): "executor": "kernel", the
 * host's /proc/vmstat deltas as its counters (names the simulator does
 * not count too), "kernel" with memory.stat and the traced counts, no
 * simulated machine's parameters; and it reads back into the table. */
void test_kcompare_kernel_record(void)
{
	struct run_result rr = { .available = true, .finished = true, .nr_wl = 1 };
	rr.wl[0].cmd = xstrdup("usemem -m 40");
	rr.wl[0].tf.user = 0.25;
	struct kernel_result *k = kernel_result_attach(&rr);
	nstat_parse(&k->vmstat, "pswpout 2237\nnr_foll_pin_acquired 3\n");
	nstat_parse(&k->memstat, "pgfault 10328\n");
	nstat_parse(&k->traced, "pgactivate 5\n");
	k->cg_version = 1;
	k->warmed = true;
	struct record_meta m = { .cmd = "pagelab kernel x # run 1, executor 2", .design = "kernel", .config = "x",
				 .seed = 1, .kernel = true };
	char *line = record_format(&m, &rr), err[200];
	line[strcspn(line, "\n")] = 0;
	struct record r;
	CHECK(record_parse(line, &r, err, sizeof(err)));
	double v;
	bool w = false;
	CHECK(!strcmp(json_get_str(r.j, "executor"), "kernel") && !json_get(r.j, "machine_params"));
	CHECK(record_metric(&r, "pswpout", &v) && v == 2237);
	CHECK(record_metric(&r, "nr_foll_pin_acquired", &v) && v == 3);
	CHECK(record_metric(&r, "user_s", &v) && v == 0.25);
	CHECK(json_get_bool(json_get(r.j, "kernel"), "warmed", &w) && w);
	CHECK(json_get_num(json_get(json_get(r.j, "kernel"), "memory_stat"), "pgfault", &v) && v == 10328);
	CHECK(json_get_num(json_get(json_get(r.j, "kernel"), "traced"), "pgactivate", &v) && v == 5);
	const struct record *kp[] = { &r }, *sp[] = { &r };
	const char *pol[] = { "p" };
	struct kcmp_setup st = { .repeat = 1, .seeds = 1, .tol = 25 };
	struct kcmp x;
	kcmp_build(&x, kp, sp, 1, pol, &st);
	CHECK(row(&x, "pgactivate")->kfound && row(&x, "pgactivate")->med == 5);
	CHECK(!strcmp(x.own, "pgfault") && !strcmp(x.traced, "pgactivate"));
	kcmp_free(&x);
	record_free(&r);
	free(line);
	run_result_free(&rr);
}
