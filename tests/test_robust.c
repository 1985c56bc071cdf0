/* test_robust.c - issue 9's fixes that can be pinned without a whole run:
 * dd's short reads at the end of its input, worked out by hand. */
#include "test.h"
#include "sim.h"
#include "../src/workload/workload.h"
#include "../src/lib/util.h"

#include <stdlib.h>
#include <string.h>

void test_dd_short_read(void);


/* Replay dd's op stream against an input of `size` pages the way the
 * machine does (each read reports how many of its pages were inside the
 * input); return the reads issued and the report's first three lines. */
static int dd_against(const char *cmd, uint64_t size, char l[3][128])
{
	const struct workload_ops *ops = workload_find("dd");
	void *w = wl_make(cmd, NULL);
	if (!w)
		return -1;
	struct op op;
	int reads = 0;
	while (ops->next_op(w, 0, &op)) {
		if (op.kind != OP_READ)
			continue;
		reads++;
		uint64_t in = size > op.first ? size - op.first : 0;
		ops->read_done(w, 0, in < op.npages ? in : op.npages);
		if (reads > 1000)
			break;
	}
	FILE *f = tmpfile();
	double el = 1.0;
	ops->report(w, &el, f);
	rewind(f);
	for (int i = 0; i < 3; i++)
		if (!fgets(l[i], 128, f))
			l[i][0] = 0;
	fclose(f);
	ops->destroy(w);
	return reads;
}

void test_dd_short_read(void)
{
	char l[3][128];
	/* 10 pages in 16 KiB (4-page) blocks: 4 + 4 + a short 2; the copy
	 * stops there, as dd does when the next read returns 0. */
	CHECK_EQ(dd_against("dd if=/f of=/g bs=16K count=10", 10, l), 3);
	CHECK(!strcmp(l[0], "2+1 records in\n"));
	CHECK(!strcmp(l[1], "2+1 records out\n"));
	CHECK(!strncmp(l[2], "40960 bytes (41 kB) copied, 1 seconds", 37));
	/* Exactly 2 blocks: the third read returns 0, no partial record. */
	CHECK_EQ(dd_against("dd if=/f bs=16K count=10", 8, l), 3);
	CHECK(!strcmp(l[0], "2+0 records in\n"));
	CHECK(!strncmp(l[2], "32768 bytes (33 kB) copied", 26));
	/* skip= past the end: nothing read, dd says it cannot skip. */
	CHECK_EQ(dd_against("dd if=/f bs=16K skip=5 count=2", 8, l), 1);
	CHECK(!strcmp(l[0], "dd: /f: cannot skip to specified offset\n"));
	CHECK(!strcmp(l[1], "0+0 records in\n"));
	/* count= within the input: whole records only. */
	CHECK_EQ(dd_against("dd if=/f bs=4K count=3", 8, l), 3);
	CHECK(!strcmp(l[0], "3+0 records in\n"));
}
