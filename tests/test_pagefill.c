/* test_pagefill.c - src/lib/pagefill.c's pages are a function of (kind,
 * seed, index) alone, and each kind is what it says; compress_draw()
 * follows the table. */
#include "test.h"
#include "../src/lib/pagefill.h"
#include "../src/mm/compress_table.h"

#include <string.h>

void test_pagefill_deterministic(void)
{
	unsigned char a[PAGEFILL_SIZE], b[PAGEFILL_SIZE], c[PAGEFILL_SIZE];
	for (int k = 0; k < DK_NR; k++) {
		/* page 7 made alone, and after page 8: the same bytes */
		pagefill((enum data_kind)k, 42, 7, a);
		pagefill((enum data_kind)k, 42, 8, c);
		pagefill((enum data_kind)k, 42, 7, b);
		CHECK(!memcmp(a, b, sizeof(a)));
		/* another index or seed: another page (same's one byte may
		 * repeat: 1 in 256; these two differ) */
		CHECK(memcmp(a, c, sizeof(a)) != 0);
		pagefill((enum data_kind)k, 43, 7, c);
		CHECK(memcmp(a, c, sizeof(a)) != 0);
	}
}

void test_pagefill_kinds(void)
{
	unsigned char p[PAGEFILL_SIZE];
	uint64_t v = 1;
	/* never the zero page (6.12+'s swap zeromap would take it before
	 * zram): a nonzero byte repeated, for every page of a sample */
	for (uint64_t i = 0; i < 1024; i++) {
		pagefill(DK_SAME, 0, i, p);
		CHECK(page_same_filled(p, &v));
		CHECK(v != 0);
		CHECK_EQ(v, 0x0101010101010101ULL * (p[0]));
	}
	pagefill(DK_INTS, 5, 3, p);
	CHECK(!page_same_filled(p, &v));
	for (int i = 3; i < PAGEFILL_SIZE; i += 4)
		CHECK_EQ(p[i] & 0x80, 0);  /* rand()'s range: bit 31 clear */
	pagefill(DK_TEXT, 5, 3, p);
	CHECK(!page_same_filled(p, &v));
	p[4095] ^= 1;
	CHECK(!page_same_filled(p, &v));
}

void test_pagefill_names(void)
{
	enum data_kind k;
	CHECK(data_kind_parse("text", &k));
	CHECK_EQ(k, DK_TEXT);
	CHECK(!data_kind_parse("texts", &k));
	CHECK(data_kind_name(DK_NR) == NULL);
	enum zalgo a;
	CHECK(zalgo_parse("lzo", &a));
	CHECK_EQ(a, ZALGO_LZO_RLE);
	CHECK(!zalgo_parse("lz5", &a));
}

void test_compress_draw(void)
{
	const struct compress_row *r = &compress_table[DK_TEXT][ZALGO_LZ4];
	/* u's low half 0: the minimum; all ones: just under the maximum */
	CHECK_EQ(compress_draw(DK_TEXT, ZALGO_LZ4, 0xffffffff00000000ULL, 0), r->q[0]);
	unsigned top = compress_draw(DK_TEXT, ZALGO_LZ4, ~0ULL, 0);
	CHECK(top <= r->q[COMPRESS_NQ - 1] && top >= r->q[COMPRESS_NQ - 2]);
	/* half way: the median quantile */
	CHECK_EQ(compress_draw(DK_TEXT, ZALGO_LZ4, 0xffffffff80000000ULL, 0), r->q[8]);
	/* every page of the same kind is same-filled, whatever u */
	CHECK_EQ(compress_draw(DK_SAME, ZALGO_ZSTD, ~0ULL, 0), 0);
	CHECK_EQ(compress_draw(DK_RATIO, ZALGO_LZ4, 12345, 250), 1638);
}
