/* work.h - reclaim's work, counted: the operations whose CPU cost the
 * kernel pays, named after the kernel functions that do them (mm/vmscan.c,
 * mm/rmap.c, arch/x86/mm/tlb.c of Linux 6.18), counted as pagelab's model
 * does them and attributed to whoever runs them: kswapd, direct reclaim,
 * memcg limit reclaim (try_to_free_mem_cgroup_pages), a design's periodic
 * aging thread, or none of them (a fault, a system call, the flusher).
 *
 * Two kinds of rows.  WK_CORE rows are the mm core's own mechanics and are
 * counted for every design.  WK_DESIGN rows are mechanics a design models
 * itself (isolation batches, the LRU lock, MGLRU's page-table walks); a
 * design says which it keeps with mm_work_keep() in its init(), and the
 * others are absent from every report, never printed as 0: a mechanism
 * pagelab does not model has no figure (docs/cost.md lists which).  */
#ifndef PAGELAB_WORK_H
#define PAGELAB_WORK_H

#include <stdint.h>

#define WK_CORE 0
#define WK_DESIGN 1

/* X(id, name, kind) */
#define RECLAIM_WORK(X) \
	/* classic LRU (linux6): shrink_inactive_list / shrink_active_list */ \
	X(W_ISOLATE_LRU_FOLIOS, "isolate_lru_folios", WK_DESIGN) \
	/* 2.6 (linux26, splitlru, workingset): pages isolate_lru_pages() \
	 * took, a call each isolation batch, under zone->lru_lock */ \
	X(W_ISOLATE_LRU_PAGES, "isolate_lru_pages", WK_DESIGN) \
	/* MGLRU: evict_folios -> isolate_folios -> scan_folios */ \
	X(W_ISOLATE_FOLIOS, "isolate_folios", WK_DESIGN) \
	/* isolation batches: one lruvec->lru_lock hold each */ \
	X(W_ISOLATE_BATCHES, "isolate_batches", WK_DESIGN) \
	/* folios put back on the lists under the lock, and the holds */ \
	X(W_MOVE_FOLIOS_TO_LRU, "move_folios_to_lru", WK_DESIGN) \
	X(W_PUTBACK_BATCHES, "putback_batches", WK_DESIGN) \
	/* every spin_lock_irq(&lruvec->lru_lock) counted */ \
	X(W_LRU_LOCK, "lru_lock", WK_DESIGN) \
	/* rmap: folio_referenced() walks, and the PTEs they found mapping \
	 * the folio (folio_referenced_one / page_vma_mapped_walk) */ \
	X(W_FOLIO_REFERENCED, "folio_referenced", WK_CORE) \
	X(W_FOLIO_REFERENCED_PTES, "folio_referenced_ptes", WK_CORE) \
	/* add_to_swap(): anonymous folios reclaim gave a swap slot and put \
	 * in the swap cache (folio_alloc_swap, swap_cache_add_folio and \
	 * the memcg's swap charge; 2.2/2.4: add_to_swap_cache) */ \
	X(W_ADD_TO_SWAP, "add_to_swap", WK_CORE) \
	/* __read_swap_cache_async() (6.18 mm/swap_state.c): pages read back \
	 * from a swap device, each a folio allocated, its memcg charge \
	 * (mem_cgroup_swapin_charge_folio) and swap_cache_add_folio(); not \
	 * zram's, which 6.x reads without the swap cache */ \
	X(W_READ_SWAP_CACHE, "read_swap_cache", WK_CORE) \
	/* try_to_unmap() walks and the PTEs they cleared */ \
	X(W_TRY_TO_UNMAP, "try_to_unmap", WK_CORE) \
	X(W_TRY_TO_UNMAP_PTES, "try_to_unmap_ptes", WK_CORE) \
	/* try_to_unmap_flush_dirty() flushes, and the IPIs they sent \
	 * (arch_tlbbatch_flush to every busy CPU but the reclaimer's) */ \
	X(W_TLB_FLUSH_DIRTY, "try_to_unmap_flush_dirty", WK_CORE) \
	X(W_TLB_IPI, "tlb_flush_ipis", WK_CORE) \
	/* pageout(): folios reclaim wrote (swap_writepage / writepage) */ \
	X(W_PAGEOUT, "pageout", WK_CORE) \
	/* clean file folios reclaim took out of the page cache and freed \
	 * (shrink_folio_list -> __remove_mapping, free_unref_folios), and \
	 * those whose buffer heads it freed first (filemap_release_folio \
	 * -> try_to_free_buffers: a page ext4's buffered write made) */ \
	X(W_REMOVE_MAPPING, "remove_mapping", WK_CORE) \
	X(W_RELEASE_FOLIO, "filemap_release_folio", WK_CORE) \
	/* MGLRU aging: try_to_inc_max_seq -> walk_mm -> walk_page_range */ \
	X(W_INC_MAX_SEQ, "inc_max_seq", WK_DESIGN) \
	X(W_WALK_MM, "walk_mm", WK_DESIGN) \
	/* PTE tables walked (mm_stats MM_NONLEAF_FOUND), and those the \
	 * Bloom filter let the walk skip */ \
	X(W_WALK_PMD_FOUND, "walk_pmd_range", WK_DESIGN) \
	X(W_WALK_PMD_SKIPPED, "walk_pmd_range_skipped", WK_DESIGN) \
	/* PTEs read (MM_LEAF_TOTAL) and young ones cleared (MM_LEAF_YOUNG) */ \
	X(W_WALK_PTES, "walk_pte_range", WK_DESIGN) \
	X(W_WALK_PTES_YOUNG, "walk_pte_range_young", WK_DESIGN) \
	/* lru_gen_look_around() from the rmap walk, and the PTEs it read */ \
	X(W_LOOK_AROUND, "lru_gen_look_around", WK_DESIGN) \
	X(W_LOOK_AROUND_PTES, "lru_gen_look_around_ptes", WK_DESIGN) \
	/* before rmap (2.2/2.4 swap_out, src/mm/ptescan.c): PTEs the page \
	 * table walk read (swap_out_pmd), present ones handed to \
	 * try_to_swap_out(), and those it unmapped */ \
	X(W_SWAP_OUT_PTES, "swap_out_ptes", WK_DESIGN) \
	X(W_TRY_TO_SWAP_OUT, "try_to_swap_out", WK_DESIGN) \
	X(W_TRY_TO_SWAP_OUT_UNMAP, "try_to_swap_out_unmapped", WK_DESIGN) \
	/* bytes the CPU cleared (an anonymous fault's folio_zero_user, a \
	 * hole read), copied from page to page (a COW fault: \
	 * copy_mc_user_highpage) and between the page cache and a user \
	 * buffer (read() and write(): copy_page_to_iter, \
	 * copy_page_from_iter) */ \
	X(W_CLEAR_BYTES, "clear_page_bytes", WK_CORE) \
	X(W_COPY_BYTES, "copy_bytes", WK_CORE) \
	X(W_COPY_USER_BYTES, "copy_user_bytes", WK_CORE) \
	/* the buffered write path (6.18 generic_perform_write(), ext4's \
	 * delayed allocation): pages a write() created in the page cache \
	 * (ext4_da_write_begin -> __filemap_get_folio(FGP_CREAT): the \
	 * folio allocated, charged, added), pages a write() copied \
	 * (generic_perform_write()'s loop: ->write_begin and ->write_end \
	 * on the folio, beyond the copy), clean pages made dirty \
	 * (mark_buffer_dirty / folio_mark_dirty -> __folio_mark_dirty), \
	 * and pages ->writepages wrote back (ext4_writepages: the flusher, \
	 * fsync(); not reclaim's pageout()) */ \
	X(W_WRITE_BEGIN, "write_begin", WK_CORE) \
	X(W_PERFORM_WRITE, "generic_perform_write", WK_CORE) \
	X(W_FOLIO_MARK_DIRTY, "folio_mark_dirty", WK_CORE) \
	/* ... and what a write() call does once, whatever its size \
	 * (ext4_buffered_write_iter(): the inode lock, \
	 * generic_write_checks(), file_modified(); beyond cost.syscall, \
	 * which a read() pays too), once more when it dirtied a clean page, \
	 * and once more when it extended the file (ext4_da_write_end(): \
	 * i_size, the inode dirtied in a journal handle) */ \
	X(W_WRITE_ITER, "write_iter", WK_CORE) \
	X(W_WRITE_ITER_DIRTIED, "write_iter_dirtied", WK_CORE) \
	X(W_WRITE_ITER_EXTEND, "write_iter_extend", WK_CORE) \
	X(W_WRITEPAGES, "writepages", WK_CORE) \
	/* --swap zram (zram.c): bytes zram_write_page() compressed and \
	 * zram_read_page() decompressed (kept when the device is zram) */ \
	X(W_ZRAM_COMPRESS, "zram_compress_bytes", WK_DESIGN) \
	X(W_ZRAM_DECOMPRESS, "zram_decompress_bytes", WK_DESIGN)

enum work_op {
#define X(id, name, kind) id,
	RECLAIM_WORK(X)
#undef X
	NR_RECLAIM_WORK
};

/* Who does the work: the columns of the report. */
enum work_who { WHO_KSWAPD, WHO_DIRECT, WHO_MEMCG, WHO_AGING, WHO_OTHER, NR_WORK_WHO };

struct reclaim_work {
	uint64_t n[NR_WORK_WHO][NR_RECLAIM_WORK];
	uint64_t kept;   /* WK_DESIGN rows the design counts (bit per row) */
};

extern const char *const reclaim_work_names[NR_RECLAIM_WORK];
extern const char *const work_who_names[NR_WORK_WHO];
/* The row is reported: a core row, or a design row the design keeps. */
int reclaim_work_present(const struct reclaim_work *w, enum work_op i);
/* The row summed over every column. */
uint64_t reclaim_work_total(const struct reclaim_work *w, enum work_op i);

#define WORK_BIT(id) (1ULL << (id))
/* The rows of the 2.6 designs' isolate_lru_pages(). */
#define WORK_ISOLATE_26_ROWS (WORK_BIT(W_ISOLATE_LRU_PAGES) | WORK_BIT(W_ISOLATE_BATCHES))
/* The rows of the page-table scanners before rmap (ptescan.h's users). */
#define WORK_SWAP_OUT_ROWS (WORK_BIT(W_SWAP_OUT_PTES) | WORK_BIT(W_TRY_TO_SWAP_OUT) | WORK_BIT(W_TRY_TO_SWAP_OUT_UNMAP))

#endif
