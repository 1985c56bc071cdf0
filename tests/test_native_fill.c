/* test_native_fill.c - the executor's writes to a region whose workload
 * declares its data kind (src/native/executor.c, src/lib/pagefill.h):
 * the page's whole contents are pagefill()'s bytes for that kind, so a
 * same-filled kind stays same-filled (zram stores it as same_pages);
 * load_first reads before it writes; a trace's DK_RATIO and an
 * undeclared region keep the word stores. */
#include "test.h"
#include "../src/lib/pagefill.h"
#include "../src/native/native.h"

#include <string.h>

void test_native_fill_page(void);
void test_native_fill_kinds(void);

void test_native_fill_page(void)
{
	static unsigned char page[PAGEFILL_SIZE] __attribute__((aligned(8))), want[PAGEFILL_SIZE];
	uint64_t v;
	for (int k = DK_SAME; k < DK_NR; k++) {
		if (k == DK_RATIO)
			continue;
		memset(page, 0xa5, sizeof(page));
		nexec_fill_page(page, (uint8_t)k, 77, 5, 4, k == DK_INTS);
		pagefill((enum data_kind)k, 77, 5, want);
		CHECK(!memcmp(page, want, sizeof(page)));
	}
	nexec_fill_page(page, DK_SAME, 77, 9, 1, false);
	CHECK(page_same_filled(page, &v));
	/* Another page of the region: other bytes for a kind that has them. */
	nexec_fill_page(page, DK_INTS, 77, 6, 1, false);
	pagefill(DK_INTS, 77, 5, want);
	CHECK(memcmp(page, want, sizeof(page)) != 0);
}

void test_native_fill_kinds(void)
{
	struct op op = { .kind = OP_MMAP_ANON, .data_kind = DK_SAME };
	CHECK_EQ(nexec_written_kind(&op), DK_SAME);
	op.data_kind = DK_TEXT;
	CHECK_EQ(nexec_written_kind(&op), DK_TEXT);
	op.data_kind = DK_RANDOM;
	CHECK_EQ(nexec_written_kind(&op), DK_RANDOM);
	op.data_kind = DK_RATIO;   /* a trace's: no bytes */
	CHECK_EQ(nexec_written_kind(&op), DK_RANDOM);
	op.kind = OP_MMAP_DATA;
	op.data_kind = DK_INTS;
	CHECK_EQ(nexec_written_kind(&op), DK_INTS);
	op.kind = OP_MMAP_FILE;    /* a file's pages are the file's */
	CHECK_EQ(nexec_written_kind(&op), DK_RANDOM);
}
