/* reclaim.c - the mechanics of reclaim that every policy shares:
 * page_referenced() through rmap, try_to_unmap(), add_to_swap(), pageout()
 * with asynchronous completion, and freeing.  Policies choose the pages;
 * this file does what the kernel's shrink_page_list() does to each one.
 * mm_try_to_unmap_file() is 6.18 shrink_folio_list()'s try_to_unmap()
 * before its dirty test; nr_vmscan_write counts pageout()'s writes
 * (6.18 mm/vmscan.c, NR_VMSCAN_WRITE).  Under the reclaimer's block plug
 * (plug.c) pageout()'s bio is held until the pass ends. */
#include "internal.h"
#include "swap.h"
#include "zram.h"
#include "zswap.h"
#include "filemap.h"
#include "inode_index.h"
#include "../lib/util.h"

/* rmap: the PTE mapping an anonymous page.  Anonymous pages have a single
 * mapper in the foundation (no fork/COW sharing yet); file pages will walk
 * the file's mappings here. */
static pte_t *anon_pte(struct mm *mm, const struct page *p)
{
	if (!(p->flags & PG_anon) || !p->owner || p->mapcount <= 0)
		return NULL;
	struct aspace *as = mm->as[p->owner - 1];
	uint32_t vma = ANON_INDEX_VMA(p->index);
	if (vma >= as->nr_vmas || !as->vmas[vma].pte)
		return NULL;
	return &as->vmas[vma].pte[ANON_INDEX_OFF(p->index)];
}

int mm_page_young(const struct mm *mm, pfn_t pfn)
{
	if (mm->fr.pages[pfn].flags & PG_file)
		return file_page_referenced((struct mm *)mm, pfn, false) ? 1 : 0;
	pte_t *pte = anon_pte((struct mm *)mm, &mm->fr.pages[pfn]);
	return pte && (*pte & PTE_ACCESSED) ? 1 : 0;
}

int mm_page_referenced_vmflags(struct mm *mm, pfn_t pfn, uint32_t *vm_flags)
{
	if (mm->cache.only)
		return cache_page_referenced(mm, pfn, vm_flags);
	struct page *p = mm_page(mm, pfn);
	if (p->flags & PG_file) {
		/* The file rmap checks PTEs until it has found all mapcount
		 * of them (file_page_referenced_vmflags). */
		if (p->mapcount > 0 && page_inode(mm, p)) {
			mm_work(mm, W_FOLIO_REFERENCED, 1);
			mm_work(mm, W_FOLIO_REFERENCED_PTES, (uint64_t)p->mapcount);
		}
		return file_page_referenced_vmflags(mm, pfn, true, vm_flags);
	}
	pte_t *pte = anon_pte(mm, p);
	if (!pte)
		return 0;
	mm_work(mm, W_FOLIO_REFERENCED, 1);
	mm_work(mm, W_FOLIO_REFERENCED_PTES, 1);
	charge(mm->cur, mm->cost->rmap_ns);
	int young = 0;
	if (*pte & PTE_ACCESSED) {
		*pte &= ~PTE_ACCESSED;
		young = 1;
		if (vm_flags)
			*vm_flags |= mm->as[p->owner - 1]->vmas[ANON_INDEX_VMA(p->index)].flags;
	}
	if (swap_token_referenced(mm, mm->as[p->owner - 1]))
		young++;
	return young;
}

/* try_to_unmap() for an anonymous page already in the swap cache: every
 * PTE becomes a swap entry and the hardware dirty bit moves to the page.
 * false: it was not mapped. */
static bool unmap_anon(struct mm *mm, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	pte_t *pte = anon_pte(mm, p);
	if (!pte)
		return false;
	struct aspace *as = mm->as[p->owner - 1];
	if (*pte & PTE_DIRTY)
		p->flags |= PG_dirty;
	*pte = mk_swap_pte(p->swap - 1);
	swap_get_ref(&mm->swap, p->swap - 1);
	as->rss--;
	as->swapents++;
	as->nswap++;
	page_remove_rmap(mm, p);
	charge(mm->cur, mm->cost->rmap_ns);
	mm_work(mm, W_TRY_TO_UNMAP, 1);
	mm_work(mm, W_TRY_TO_UNMAP_PTES, 1);
	return true;
}

/* try_to_unmap_flush_dirty(): before a page just unmapped is written, no
 * CPU may still hold a writable TLB entry for it.  try_to_unmap() deferred
 * the flush to a batch (another CPU was in the mm's cpumask), and a batch
 * flush names no mm, so x86 (6.18 arch_tlbbatch_flush, should_flush_tlb)
 * interrupts every CPU in the batch's mask that is not lazy, i.e. runs a
 * task; the mask is the victim's mm_cpumask (arch_tlbbatch_add_pending),
 * which only a flush naming the mm trims (flush_tlb_func), so every CPU a
 * task of that mm has run on (as->cpumask; the machine says which of
 * them run a task now).  Measured on a
 * 2-CPU 6.18 host: one IPI per page swapped out (0.92-0.96 per pswpout
 * under qsbench), none without reclaim.  The asking CPU waits for every
 * ack (cost.tlb_ipi, system time); the interrupted CPU's task loses
 * cost.tlb_ipi_recv.  The batched flush of clean pages at the end of a
 * shrink_folio_list() is left out: one IPI a batch, not a page.
 * The flushes and their IPIs are counted (work.h) whatever they cost: a
 * remote flush that costs nothing changes nothing on the other CPUs. */
static void flush_tlb_dirty(struct mm *mm, struct mm_ctx *ctx, uint64_t cpumask)
{
	if (!mm->io.remote_tlb_flush)
		return;
	bool costed = mm->cost->tlb_ipi_ns | mm->cost->tlb_ipi_recv_ns;
	unsigned n = mm->io.remote_tlb_flush(mm->io.arg, ctx_now(ctx), costed ? mm->cost->tlb_ipi_recv_ns : 0,
					     cpumask);
	mm_work(mm, W_TLB_FLUSH_DIRTY, 1);
	mm_work(mm, W_TLB_IPI, n);
	if (!costed)
		return;
	mm->nr_tlb_remote_flush += n;
	charge(ctx, n * mm->cost->tlb_ipi_ns);
}

void page_writeback(struct mm *mm, struct mm_ctx *ctx, pfn_t pfn, struct io_run *run)
{
	struct page *p = mm_page(mm, pfn);
	bool file = p->flags & PG_file;
	if (file) {
		file_page_mkclean(mm, pfn);
		clear_page_dirty(mm, pfn);
	} else
		p->flags &= ~PG_dirty;
	p->flags |= PG_writeback;
	mm->stat.nr_writeback++;
	if (mm->integrity)
		integrity_writeback(mm, pfn);
	if (!file && mm->swap.zswap && zswap_has(mm->swap.zswap, p->swap - 1)) {
		/* swap_writepage(): kept compressed by zswap_store() in
		 * reclaim_one() (the only writer of anonymous pages), no
		 * disk write */
		mm_io_done(mm, IO_WRITE, pfn);
		return;
	}
	if (!file)
		mm->ev[PSWPOUT]++;
	mm->ev[PGPGOUT] += PAGE_SIZE / 1024;
	uint64_t block = p->swap - 1;
	if (file) {
		struct inode *ino = page_inode(mm, p);
		ino->nr_writeback++;
		inode_set_wb(ino, p->index);
		block = filemap_block(ino, p->index);
		if (block == UINT64_MAX)
			block = inode_fill_hole(mm, ino, p->index); /* its data needs a block now */
	}
	io_request(mm, ctx, run, block);
	if (!file && mm->swap.zram) {
		/* zram: compressed here, the write done on return (a
		 * synchronous bdev's bio completes inside submit_bio) */
		zram_write(mm->swap.zram, ctx, pfn, p->swap - 1);
		mm_io_done(mm, IO_WRITE, pfn);
	} else if (mm->untimed)
		mm_io_done(mm, IO_WRITE, pfn);
	else if (mm->plug.on && !run)
		mm_plug_add(mm, ctx, file, block, pfn); /* held till the pass ends */
	else if (file)
		mm->io.submit_block(mm->io.arg, IO_WRITE, block, pfn, ctx_now(ctx));
	else
		mm->io.submit_swap(mm->io.arg, IO_WRITE, p->swap - 1, pfn, ctx_now(ctx));
}

/* Drop a clean, unmapped page from the swap cache (leaving the policy's
 * shadow entry in the slot when it keeps them) and free it. */
static void remove_mapping_and_free(struct mm *mm, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	if (p->flags & PG_file)
		pagecache_delete(mm, pfn, true);
	if (p->flags & PG_swapcache) {
		uint32_t slot = p->swap - 1;
		if (mm->pol.ops->evict_shadow && mm->swap.shadow && mm->swap.map[slot])
			mm->swap.shadow[slot] = mm_evict_shadow(mm, pfn);
		swap_cache_del(mm, pfn);
	}
	free_frame(mm, pfn);
}

/* memory.stat pgsteal of the page's cgroup. */
static void count_steal(struct mm *mm, const struct page *p)
{
	if (mm->cgt) {
		cgtree_count(mm, p->memcg, CGS_PGSTEAL, 1);
		cgtree_count_proactive(mm, p->memcg, 0, 1);
	}
}

/* swap_writeout() (6.18 mm/page_io.c): an anonymous page is offered to
 * zswap_store() before the disk.  One zswap refuses is written to disk
 * unless memory.zswap.writeback is 0 for its cgroup
 * (mem_cgroup_zswap_writeback_enabled()): then folio_mark_dirty() and
 * AOP_WRITEPAGE_ACTIVATE, which pageout() turns into PAGE_ACTIVATE: the
 * page stays, unmapped, dirty, in the swap cache with its slot, and is
 * activated (false here).  True: stored, or on its way to disk. */
static bool zswap_first(struct mm *mm, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	struct zswap *z = mm->swap.zswap;
	if (!z || (p->flags & PG_file))
		return true;
	if (zswap_store(z, mm->cur, pfn, p->swap - 1))
		return true;
	int cg = mm->cgt && p->memcg < z->nr_cg ? p->memcg : 0;
	return zswap_writeback_enabled(z, cg);
}

static enum evict_result reclaim_one(struct mm *mm, struct scan_control *sc, pfn_t pfn, bool textbook)
{
	struct page *p = mm_page(mm, pfn);
	if (lru_on(&mm->fr, pfn) != LRU_NONE)
		panic("reclaim: pfn %u is not isolated", pfn);
	if (p->flags & (PG_locked | PG_writeback))
		return EVICT_BUSY;
	if (p->flags & PG_mlocked)
		return EVICT_MLOCKED;
	if (mm->cgt && cgtree_skip(mm, p))
		return EVICT_BUSY;
	if (mm->cache.only)
		return cache_drop(mm, sc, pfn);
	/* zram: a page to be written that the pool has no room for stays
	 * resident (zram's -ENOMEM write), decided before it is unmapped */
	if (mm->swap.zram && (p->flags & PG_anon) && !(p->flags & PG_file) &&
	    (!(p->flags & PG_swapcache) || (p->flags & PG_dirty)) && !zram_can_store(mm->swap.zram, pfn))
		return EVICT_NOSWAP;
	if (p->flags & PG_file) {
		/* A file page outside any page cache (truncated pages are,
		 * only while their I/O is in flight; unit tests build such
		 * pages by hand) has nothing to unmap or write: it is freed. */
		struct inode *ino = page_inode(mm, p);
		if (!ino && (p->flags & PG_dirty))
			return EVICT_BUSY;
		if (ino && (ino->flags & INODE_UNEVICTABLE))
			return EVICT_MLOCKED;
		if (ino && p->mapcount > 0) {
			/* try_to_unmap(): every PTE of the file rmap */
			mm_work(mm, W_TRY_TO_UNMAP, 1);
			mm_work(mm, W_TRY_TO_UNMAP_PTES, (uint64_t)p->mapcount);
		}
		if (ino)
			file_page_unmap(mm, pfn);
	} else if ((p->flags & PG_anon) && !(p->flags & PG_swapcache)) {
		if (!sc->may_swap)
			return EVICT_NOSWAP;
		uint32_t slot = cgtree_swap_alloc(mm, p->memcg);
		if (slot == UINT32_MAX)
			return EVICT_NOSWAP;
		swap_cache_add(mm, pfn, slot);
		mm_work(mm, W_ADD_TO_SWAP, 1);
		p->flags |= PG_dirty; /* the swap copy does not exist yet */
	}
	bool unmapped = false;
	uint64_t cpumask = 0;
	if (!(p->flags & PG_file) && p->owner)
		cpumask = mm->as[p->owner - 1]->cpumask;
	if (!(p->flags & PG_file))
		unmapped = unmap_anon(mm, pfn);
	if (p->flags & PG_dirty) {
		if (unmapped)
			flush_tlb_dirty(mm, mm->cur, cpumask);
		if (!zswap_first(mm, pfn))
			return EVICT_NOSWAP;  /* PAGE_ACTIVATE */
		p->flags |= PG_reclaim;
		mm->stat.nr_pending_free++;
		sc->nr_writeback++;
		if (textbook) {
			/* Counted as reclaimed now; freed when the write is done. */
			count_steal(mm, p);
			sc->nr_reclaimed++;
			if (!(p->flags & PG_anon))
				sc->nr_reclaimed_file++;
			lru_add_tail(&mm->fr, mm->list_wb_free, pfn);
		}
		mm->ev[NR_VMSCAN_WRITE]++;      /* pageout() */
		mm_work(mm, W_PAGEOUT, 1);
		page_writeback(mm, mm->cur, pfn, NULL); /* pageout(): a bio of its own */
		if (p->flags & PG_free)
			return EVICT_FREED;   /* untimed: written and freed already */
		if (p->flags & PG_writeback)
			return EVICT_WRITEBACK;
		/* untimed, kernel-style: the write completed; free it now. */
	}
	count_steal(mm, p);
	sc->nr_reclaimed++;
	if (!(p->flags & PG_anon))
		sc->nr_reclaimed_file++;
	if (p->flags & PG_file) {
		if (p->flags & PG_private)
			mm_work(mm, W_RELEASE_FOLIO, 1); /* filemap_release_folio() */
		mm_work(mm, W_REMOVE_MAPPING, 1);
	}
	remove_mapping_and_free(mm, pfn);
	return EVICT_FREED;
}

void mm_try_to_unmap_file(struct mm *mm, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	if (!(p->flags & PG_file) || p->mapcount <= 0 || mm->cache.only)
		return;
	struct inode *ino = page_inode(mm, p);
	if (ino && !(ino->flags & INODE_UNEVICTABLE))
		file_page_unmap(mm, pfn);
}

enum evict_result mm_evict(struct mm *mm, struct scan_control *sc, pfn_t pfn)
{
	/* A cache page is never locked, under writeback or mlocked: only
	 * reclaim_one()'s first test applies. */
	if (mm->cache.only) {
		mm_cache_evict(mm, sc, pfn);
		return EVICT_FREED;
	}
	return reclaim_one(mm, sc, pfn, true);
}

enum evict_result mm_reclaim_page(struct mm *mm, struct scan_control *sc, pfn_t pfn)
{
	return reclaim_one(mm, sc, pfn, false);
}

void mm_cull_unevictable(struct mm *mm, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	p->flags |= PG_unevictable;
	lru_add_head(&mm->fr, mm->list_unevictable, pfn);
	mm->ev[UNEVICTABLE_PGS_CULLED]++;
}

uint64_t mm_writes_will_free(const struct mm *mm)
{
	return lru_count(&mm->fr, mm->list_wb_free);
}

void free_if_orphan(struct mm *mm, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	if (p->mapcount > 0 || (p->flags & (PG_locked | PG_writeback | PG_free)))
		return;
	if ((p->flags & PG_file) && p->owner)
		return; /* the page cache holds it */
	if (p->flags & PG_swapcache) {
		if (mm->swap.map[p->swap - 1])
			return; /* a swap PTE still needs this copy */
		swap_cache_del(mm, pfn);
	}
	detach_page(mm, pfn);
	free_frame(mm, pfn);
}

void mm_io_done(struct mm *mm, enum io_dir dir, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	if (dir == IO_READ) {
		p->flags &= ~PG_locked;
		mm->stat.nr_reading--;
		free_if_orphan(mm, pfn);
		return;
	}
	p->flags &= ~PG_writeback;
	mm->stat.nr_writeback--;
	if (mm->swap.zswap && zswap_wb_done(mm->swap.zswap, pfn))
		return;  /* a zswap writeback's folio */
	if ((p->flags & PG_file) && p->owner) {
		struct inode *ino = page_inode(mm, p);
		ino->nr_writeback--;
		ino->nrdirty_wb -= !!(p->flags & PG_dirty);
		inode_clear_wb(ino, p->index);
		if (p->flags & PG_dirty) /* redirtied while written: writable again */
			inode_dirty_update(mm->fs, ino);
	}
	if (p->flags & PG_reclaim) {
		p->flags &= ~PG_reclaim;
		mm->stat.nr_pending_free--;
	}
	if (lru_on(&mm->fr, pfn) == mm->list_wb_free) {
		/* Evicted by a textbook policy: nobody mapped it again. */
		lru_del(&mm->fr, pfn);
		if (!(p->flags & PG_dirty) && p->mapcount == 0) {
			remove_mapping_and_free(mm, pfn);
			return;
		}
		mm->pol.ops->add(mm_pol(mm, pfn), pfn, ADD_PUTBACK);
		return;
	}
	if (mm->pol.ops->end_writeback && lru_on(&mm->fr, pfn) != LRU_NONE)
		mm->pol.ops->end_writeback(mm_pol(mm, pfn), pfn);
	if ((p->flags & (PG_file | PG_dropbehind)) == (PG_file | PG_dropbehind) && p->owner) {
		filemap_end_dropbehind_write(mm, pfn); /* folio_end_dropbehind() */
		return;
	}
	free_if_orphan(mm, pfn);
}
