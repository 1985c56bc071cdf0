/* pagefill.h - what a workload's page holds: its data kind, and one
 * deterministic 4 KiB page of that kind.
 *
 * The simulator never stores page contents; it only needs what a page
 * compresses to (compress_table.c, measured from these very pages by
 * bench/compress.c).  A kernel executor that writes real memory writes
 * the same bytes, so the two see the same data.  Self-contained (no
 * other pagelab file), and fast: one 64-bit mix per 8 bytes at most. */
#ifndef PAGELAB_PAGEFILL_H
#define PAGELAB_PAGEFILL_H

#include <stdbool.h>
#include <stdint.h>

/* The order is the table's (compress_table.c) and the value is kept in
 * struct page and in VMA flags: append only. */
enum data_kind {
	DK_RANDOM = 0, /* incompressible (the default of an undeclared region) */
	DK_SAME,       /* one 8-byte word repeated: a memset (usemem) */
	DK_INTS,       /* random 31-bit ints, rand()'s range (qsbench) */
	DK_TEXT,       /* a text-like mix: words, zero runs, small ints,
			* pointers (kbuild's compiler heap) */
	DK_RATIO,      /* a trace's pages: compressed size = 4096 / the
			* --set zram.trace_ratio (no bytes; pagefill gives
			* DK_RANDOM's) */
	DK_NR
};

#define PAGEFILL_SIZE 4096

void pagefill(enum data_kind k, uint64_t seed, uint64_t page_index,
	      unsigned char out[PAGEFILL_SIZE]);
/* "random", "same", "ints", "text", "ratio"; NULL past the last. */
const char *data_kind_name(enum data_kind k);
/* The kind named s; false if none is. */
bool data_kind_parse(const char *s, enum data_kind *k);
/* zram's page_same_filled() (6.x drivers/block/zram/zram_drv.c): every
 * unsigned long of the page equal to the first; *value gets it. */
bool page_same_filled(const unsigned char page[PAGEFILL_SIZE], uint64_t *value);

#endif
