/* test_hostile.c - hostile inputs refused before they cost the host
 * (issue 36): what a bad argument may build before it is refused. */
#include "test.h"
#include "../src/experiment/matrix.h"
#include "../src/lib/util.h"

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
