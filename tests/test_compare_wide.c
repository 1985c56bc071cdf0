/* test_compare_wide.c - pagelab compare's table (src/engine/compare.c)
 * with changes too wide for its 7-column change field: a figure the
 * baseline barely has.  The columns must stay where the header puts
 * them and the lines within 80 columns. */
#include "test.h"
#include "../src/engine/compare.h"
#include "../src/lib/util.h"

#include <stdlib.h>
#include <string.h>

/* Seed s of design d, with pswpout v. */
static void put(struct records *rs, const char *d, int s, double v)
{
	char line[400], err[200];
	snprintf(line, sizeof(line),
		 "{\"cell\": %d, \"cmd\": \"pagelab run %s %d\", \"design\": \"%s\", \"config\": \"c\", "
		 "\"seed\": %d, \"available\": true, \"finished\": true, \"counters\": {\"pswpout\": %.17g}}",
		 rs->n, d, s, d, s, v);
	rs->r = xrealloc(rs->r, (size_t)(rs->n + 1) * sizeof(*rs->r));
	CHECK(record_parse(line, &rs->r[rs->n], err, sizeof(err)));
	rs->n++;
}

/* Before: "+4066.7%" and "+100000.0%" widened the field and pushed the
 * next design's column right, "+99999999999900.0%" far past 80. */
void test_compare_wide_change(void)
{
	struct records rs = { 0 };
	const char *d[] = { "base", "a", "b", "c", "e" };
	const double v[] = { 3, 125, 3006, 3e12, 0 };   /* +4066.7%, x1002, x1e+12, -100% */
	for (int s = 1; s <= 2; s++)
		for (int i = 0; i < 5; i++)
			put(&rs, d[i], s, v[i]);
	static const char *const metrics[] = { "pswpout", NULL };
	int nt;
	struct cmp_table *t = compare_records(&rs, "base", metrics, &nt);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	compare_print_text(t, nt, f);
	fclose(f);
	const char *want =
		"                               base          a                     b\n"
		"Amean pswpout                3.0000   125.0000 ( +4067%)      3006.0 (  x1002)\n"
		"Stddev pswpout               0.0000     0.0000                0.0000\n"
		"\n"
		"                               base          c                     e\n"
		"Amean pswpout                3.0000      3e+12 ( x1e+12)      0.0000 (-100.0%)\n"
		"Stddev pswpout               0.0000     0.0000                0.0000\n";
	CHECK(strstr(buf, want) != NULL);
	if (!strstr(buf, want))
		fprintf(stderr, "got:\n%s", buf);
	for (const char *l = buf; *l; l = strchr(l, '\n') + 1)
		CHECK(strcspn(l, "\n") <= 80);
	CHECK(strstr(buf, "(x1001: 1001 times it)") != NULL);
	free(buf);
	compare_free(t, nt);
	records_free(&rs);
}

/* The forms in each width: ablate's 9 columns keep the decimal up to
 * +99999.9%; a baseline of 0 or less has no multiple. */
void test_compare_fmt_change_widths(void)
{
	char b[16];
	compare_fmt_change(b, sizeof(b), 99999.4, 1, 7);
	CHECK(!strcmp(b, "+99999%"));
	compare_fmt_change(b, sizeof(b), 99999.4, 1, 9);
	CHECK(!strcmp(b, "+99999.4%"));
	compare_fmt_change(b, sizeof(b), 99999.96, 1, 9);
	CHECK(!strcmp(b, "x1001"));
	compare_fmt_change(b, sizeof(b), 1e8, 1, 7);
	CHECK(!strcmp(b, "x1e+06"));
	compare_fmt_change(b, sizeof(b), 1e8, 1, 9);
	CHECK(!strcmp(b, "x1000001"));
	compare_fmt_change(b, sizeof(b), 2e5, -1, 7);
	CHECK(!strcmp(b, ">+9999%"));
	compare_fmt_change(b, sizeof(b), -2e5, -1, 9);
	CHECK(!strcmp(b, "<-99999%"));
}
