/* test_hostile.c - hostile inputs refused before they cost the host
 * (issue 36): what a bad argument may build before it is refused; and
 * cache sizes as shares of a trace's pages (issue 35). */
#include "test.h"
#include "../src/engine/matrix.h"
#include "../src/lib/share.h"
#include "../src/lib/util.h"
#include "../src/mrc/mrc.h"

#include <stdlib.h>
#include <string.h>

/* A factor range of 4 * 10^7 steps ("1p:64p:x1.0000001") is refused
 * with no value built; it used to build 100000 of them first. */
void test_hostile_factor_range_counted(void)
{
	char err[200];
	struct axis ax = { .name = xstrdup("sizes") };
	CHECK(!axis_expand("1p:64p:x1.0000001", AXV_SIZE, &ax, err, sizeof(err)));
	CHECK_EQ(ax.n, 0);
	CHECK(!strcmp(err, "--sizes: more than 100000 values"));
	axis_free(&ax);
	/* 1:2:x1.000006932223714 is 99990 values (2^(1/99989.5)): after 10
	 * values the limit is reached, after 11 it is refused as a whole. */
	const char *ten = "1,2,3,4,5,6,7,8,9,10,1:2:x1.000006932223714";
	const char *eleven = "1,2,3,4,5,6,7,8,9,10,11,1:2:x1.000006932223714";
	ax = (struct axis){ .name = xstrdup("n") };
	CHECK(axis_expand(ten, AXV_NUMBER, &ax, err, sizeof(err)));
	CHECK_EQ(ax.n, 100000);
	axis_free(&ax);
	ax = (struct axis){ .name = xstrdup("n") };
	CHECK(!axis_expand(eleven, AXV_NUMBER, &ax, err, sizeof(err)));
	CHECK_EQ(ax.n, 11);
	axis_free(&ax);
	/* A factor range of a few values is built as before. */
	ax = (struct axis){ .name = xstrdup("sizes") };
	CHECK(axis_expand("1M:8M:x2", AXV_SIZE, &ax, err, sizeof(err)));
	CHECK_EQ(ax.n, 4);
	CHECK(ax.n == 4 && !strcmp(ax.values[3], "8M"));
	axis_free(&ax);
}

/* Cache sizes as a share of a trace's distinct pages (issue 35): "N%"
 * with 0 < N <= 100, nothing else; rounded to the nearest page, at least
 * one. */
void test_hostile_share_syntax(void)
{
	double v = -1;
	CHECK(parse_share("10%", &v) && v == 0.1);
	CHECK(parse_share("0.5%", &v) && v == 0.005);
	CHECK(parse_share("100%", &v) && v == 1);
	const char *bad[] = { "0%", "100.1%", "%", "10", "-5%", "1e1%", "0x10%", " 5%", "5 %", "inf%", "5%%", "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(!parse_share(bad[i], &v));
	CHECK_EQ(share_pages(0.1, 355), 36);     /* 35.5 rounds up */
	CHECK_EQ(share_pages(0.01, 355), 4);     /* 3.55 */
	CHECK_EQ(share_pages(0.001, 355), 1);    /* never 0 pages */
	CHECK_EQ(share_pages(1, 355), 355);
	/* parse_size is untouched: K/M/G/T and p as before, no share. */
	uint64_t b;
	CHECK(!parse_size("10%", &b));
	CHECK(parse_size("36p", &b) && b == 36 * 4096);
}

/* --sizes and sweep's --ram take shares and ranges of them; mrc resolves
 * them after its pass, beside the sizes in pages. */
void test_hostile_share_lists(void)
{
	char err[300];
	struct axis ax = { .name = xstrdup("ram") };
	CHECK(axis_expand("1%:64%:x4,5%:15%:+5%,100p", AXV_SIZE, &ax, err, sizeof(err)));
	const char *want[] = { "1%", "4%", "16%", "64%", "5%", "10%", "15%", "100p" };
	CHECK_EQ(ax.n, 8);
	for (int k = 0; k < ax.n && k < 8; k++)
		CHECK(!strcmp(ax.values[k], want[k]));
	axis_free(&ax);
	uint64_t *sz;
	double *sh;
	int n, nsh;
	CHECK(mrc_parse_size_list("10%,8p,1%:4%:x2,8p", &sz, &n, &sh, &nsh, err, sizeof(err)));
	CHECK_EQ(n, 1);
	CHECK_EQ(nsh, 4);
	CHECK(n == 1 && sz[0] == 8 && nsh == 4 && sh[0] == 0.1 && sh[1] == 0.01 && sh[2] == 0.02 && sh[3] == 0.04);
	free(sz);
	free(sh);
	/* where no share is taken, one line says so */
	CHECK(!mrc_parse_sizes("10%", &sz, &n, err, sizeof(err)) && !sz);
	CHECK(!strcmp(err, "bad --sizes '10%': a share of the trace's pages is not taken here"));
}
