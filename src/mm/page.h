/* page.h - the frame descriptor (struct page) and its flags.
 *
 * One struct page per simulated frame, kept at <= 64 bytes so that 16 GiB of
 * simulated RAM costs at most 256 MiB of host memory (with the frame's LRU
 * record, lru.h).  The LRU links and the list a frame is on are not here
 * but in a dense array of their own (struct lru_link, lru.h): exact LRU
 * moves a page on every hit, and moving it among 12-byte records that fit
 * the host's L2 instead of among 48-byte struct pages that do not is what
 * a hit costs (docs/trace-format.md, "Speed").
 */
#ifndef PAGELAB_PAGE_H
#define PAGELAB_PAGE_H

#include <stdint.h>

typedef uint32_t pfn_t;
#define PFN_NONE UINT32_MAX

/* Page flags, named after the kernel's PG_* bits. */
enum {
	PG_anon       = 1u << 0,  /* swap-backed (PageSwapBacked) */
	PG_referenced = 1u << 1,  /* software reference bit (mark_page_accessed) */
	PG_active     = 1u << 2,  /* for policies with an active list */
	PG_dirty      = 1u << 3,  /* must be written before it is freed */
	PG_writeback  = 1u << 4,  /* write I/O in flight */
	PG_locked     = 1u << 5,  /* read I/O in flight (not uptodate yet) */
	PG_swapcache  = 1u << 6,  /* page->swap holds its swap slot */
	PG_mlocked    = 1u << 7,  /* mapped by an mlocked VMA */
	PG_unevictable= 1u << 8,  /* on the unevictable list */
	PG_reclaim    = 1u << 9,  /* free it as soon as writeback completes */
	PG_free       = 1u << 10, /* on the free list */
	PG_workingset = 1u << 11, /* refaulted while in the workingset */
	PG_file       = 1u << 12, /* page-cache page of a file */
	PG_readahead  = 1u << 13, /* readahead marker */
	PG_dropbehind = 1u << 14, /* not admitted or RWF_DONTCACHE: dropped once a
				   * read copied it or its writeback ended */
	PG_private    = 1u << 15, /* file: buffer heads attached (folio->private:
				   * ext4's buffered write or a shared mapping's
				   * write fault made them; a read did not) */
};

/* Owner kinds for page->owner. */
#define OWNER_NONE 0u

struct page {
	uint32_t flags;
	uint8_t zone;
	uint8_t folio_order;    /* page cache: the order of the folio it is part of */
	uint16_t memcg;        /* --cgroup: the id of the cgroup it is charged to (cgtree.h) */
	uint8_t data_kind;      /* anon: enum data_kind (pagefill.h), from its VMA */
	uint8_t data_ver;       /* anon: write faults so far, mod 256 (zram.c draws by it) */
	uint32_t owner;         /* anon: address-space id + 1; file: file id + 1 */
	int32_t mapcount;       /* number of PTEs mapping the frame */
	uint64_t index;         /* anon: (vma << 40) | page offset; file: page index */
	uint32_t swap;          /* swap slot + 1 while PG_swapcache (0 = none) */
	uint32_t pol32[3];      /* per-policy words: age, generation, tier, heap slot... */
	uint64_t pol64;         /* per-policy 64-bit word: timestamps, next use */
};

_Static_assert(sizeof(struct page) <= 64, "struct page must stay within 64 bytes");

#define ANON_INDEX(vma, off) (((uint64_t)(vma) << 40) | (uint64_t)(off))
#define ANON_INDEX_VMA(idx)  ((uint32_t)((idx) >> 40))
#define ANON_INDEX_OFF(idx)  ((idx) & ((1ULL << 40) - 1))

#endif
