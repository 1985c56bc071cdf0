/* filemap_mmap.c - file mappings: mmap of a file, the file rmap (i_mmap:
 * every VMA mapping the file) that page_referenced() and try_to_unmap()
 * walk for page-cache pages, and the file fault handler (filemap_fault with
 * the era's readahead of filemap_mmap_ra.c: 2.2/2.4's aligned cluster,
 * 2.6's read-around, 3.0+'s read-around and asynchronous readahead; and
 * the copy-on-write of MAP_PRIVATE pages).
 *
 * Private mappings map page-cache pages write-protected (PTE_WP); a write
 * copies the page into a new anonymous page, as do_wp_page() does.  Shared
 * mappings, by default, map them writable: a write sets the PTE dirty bit,
 * which moves to PG_dirty when the PTE is unmapped, by reclaim, or by
 * writeback's page_mkclean() (fsync, the flusher) - the pre-2.6.19 scheme.
 * With vm.dirty_fault (2.6.19's shared dirty accounting, as 6.18
 * mm/memory.c has it: do_shared_fault(), wp_page_shared() and
 * fault_dirty_shared_page(); folio_mkclean() in mm/rmap.c) a clean page is
 * mapped write-protected, the write fault marks it dirty and maps it
 * writable, and writeback write-protects it again (file_page_mkclean()).
 * The writer's pause in balance_dirty_pages_ratelimited() at that fault is
 * left out: the fault only wakes the flusher above the background limit. */
#include "filemap.h"
#include "internal.h"
#include "inode_index.h"
#include "../lib/util.h"

#include <stdlib.h>

uint32_t mm_mmap_file(struct mm *mm, struct aspace *as, struct inode *ino, uint64_t pgoff,
		      uint64_t npages, bool shared)
{
	uint32_t v = mm_mmap_anon(mm, as, npages, 0);
	struct vma *vma = &as->vmas[v];
	vma->flags = shared ? VMA_SHARED : 0;
	vma->ino = ino->id + 1;
	vma->pgoff = pgoff;
	if (ino->nr_maps == ino->cap_maps) {
		ino->cap_maps = ino->cap_maps ? ino->cap_maps * 2 : 4;
		ino->maps = xrealloc(ino->maps, ino->cap_maps * sizeof(*ino->maps));
	}
	ino->maps[ino->nr_maps++] = (struct file_map){ .as = as->id, .vma = v };
	if (ino->nr_maps == 1)
		inode_dirty_update(mm->fs, ino);
	filemap_get(ino);
	return v;
}

void file_vma_unlink(struct mm *mm, struct aspace *as, uint32_t vma)
{
	struct vma *v = &as->vmas[vma];
	struct inode *ino = mm_inode(mm, v->ino - 1);
	for (uint32_t i = 0; i < ino->nr_maps; i++) {
		if (ino->maps[i].as == as->id && ino->maps[i].vma == vma) {
			ino->maps[i] = ino->maps[--ino->nr_maps];
			if (!ino->nr_maps)
				inode_dirty_update(mm->fs, ino);
			break;
		}
	}
	v->ino = 0;
	filemap_put(mm, mm->cur, ino);
}

/* The PTE of (map, index) if it maps pfn, else NULL. */
static pte_t *map_pte(struct mm *mm, const struct file_map *fm, uint64_t index, pfn_t pfn)
{
	struct vma *v = &mm->as[fm->as]->vmas[fm->vma];
	if (!v->pte || index < v->pgoff || index >= v->pgoff + v->npages)
		return NULL;
	pte_t *pte = &v->pte[index - v->pgoff];
	return pte_present(*pte) && pte_pfn(*pte) == pfn ? pte : NULL;
}

int file_page_referenced(struct mm *mm, pfn_t pfn, bool clear)
{
	return file_page_referenced_vmflags(mm, pfn, clear, NULL);
}

int file_page_referenced_vmflags(struct mm *mm, pfn_t pfn, bool clear, uint32_t *vm_flags)
{
	struct page *p = mm_page(mm, pfn);
	struct inode *ino = page_inode(mm, p);
	if (!ino || p->mapcount <= 0)
		return 0;
	int young = 0, seen = 0;
	for (uint32_t i = 0; i < ino->nr_maps && seen < p->mapcount; i++) {
		pte_t *pte = map_pte(mm, &ino->maps[i], p->index, pfn);
		if (!pte)
			continue;
		seen++;
		if (clear)
			charge(mm->cur, mm->cost->rmap_ns);
		if (*pte & PTE_ACCESSED) {
			young++;
			if (clear)
				*pte &= ~PTE_ACCESSED;
			if (vm_flags)
				*vm_flags |= mm->as[ino->maps[i].as]->vmas[ino->maps[i].vma].flags;
		}
		if (clear && swap_token_referenced(mm, mm->as[ino->maps[i].as]))
			young++;
	}
	return young;
}

void file_page_unmap(struct mm *mm, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	struct inode *ino = page_inode(mm, p);
	if (!ino)
		return;
	for (uint32_t i = 0; i < ino->nr_maps && p->mapcount > 0; i++) {
		pte_t *pte = map_pte(mm, &ino->maps[i], p->index, pfn);
		if (!pte)
			continue;
		if (*pte & PTE_DIRTY)
			set_page_dirty(mm, pfn);
		*pte = 0;
		mm->as[ino->maps[i].as]->rss--;
		page_remove_rmap(mm, p);
		charge(mm->cur, mm->cost->rmap_ns);
	}
}

bool file_page_mlocked(struct mm *mm, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	struct inode *ino = page_inode(mm, p);
	if (!ino)
		return false;
	for (uint32_t i = 0; i < ino->nr_maps; i++) {
		const struct file_map *fm = &ino->maps[i];
		if ((mm->as[fm->as]->vmas[fm->vma].flags & VMA_LOCKED) && map_pte(mm, fm, p->index, pfn))
			return true;
	}
	return false;
}

static void mlock_if_locked(struct mm *mm, struct vma *v, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	if ((v->flags & VMA_LOCKED) && !(p->flags & PG_mlocked)) {
		p->flags |= PG_mlocked;
		mm->stat.nr_mlock++;
		mm->ev[UNEVICTABLE_PGS_MLOCKED]++;
	}
}

void file_page_mkclean(struct mm *mm, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	struct inode *ino = page_inode(mm, p);
	if (!ino || !mm->vm.dirty_fault)
		return;
	for (uint32_t i = 0, seen = 0; i < ino->nr_maps && (int)seen < p->mapcount; i++) {
		pte_t *pte = map_pte(mm, &ino->maps[i], p->index, pfn);
		if (!pte)
			continue;
		seen++;
		*pte = (*pte & ~PTE_DIRTY) | PTE_WP;
		charge(mm->cur, mm->cost->rmap_ns);
	}
}

/* fault_dirty_shared_page(): the page is dirtied at its write fault, and
 * the writer wakes the flusher above the background limit. */
static void dirty_shared_page(struct mm *mm, struct mm_ctx *ctx, pfn_t pfn)
{
	struct mm_ctx *saved = mm->cur; /* NULL in a fault: the task pays */
	mm->cur = ctx;
	set_page_dirty(mm, pfn);
	mm_page(mm, pfn)->flags |= PG_private; /* ->page_mkwrite: block_page_mkwrite()'s buffers */
	mm->cur = saved;
	if (mm_over_bg_thresh(mm))
		mm->wake.flusher = true;
}

/* wp_page_shared(): a write to a clean page of a shared mapping. */
static enum fault_status wp_shared(struct mm *mm, struct mm_ctx *ctx, struct vma *v, uint64_t off)
{
	pfn_t pfn = pte_pfn(v->pte[off]);
	dirty_shared_page(mm, ctx, pfn);
	v->pte[off] &= ~PTE_WP;
	count_fault(mm, ctx, false);
	charge(ctx, mm->cost->fault_ns);
	return FAULT_DONE;
}

/* Copy-on-write of a private file page into a new anonymous page. */
static enum fault_status cow_page(struct mm *mm, struct mm_ctx *ctx, struct aspace *as,
				  uint32_t vma, uint64_t off, pfn_t src)
{
	struct vma *v = &as->vmas[vma];
	enum fault_status st;
	pfn_t pfn = mm_alloc_page(mm, ctx, &st);
	if (pfn == PFN_NONE)
		return st;
	pte_t pte = v->pte[off];
	bool mapped = pte_present(pte);
	if (mapped ? pte_pfn(pte) != src : pc_page(mm_inode(mm, v->ino - 1), v->pgoff + off) != src) {
		/* Reclaim took the source page meanwhile: fault again. */
		free_frame(mm, pfn);
		return FAULT_DONE;
	}
	if (mapped) {
		struct page *sp = mm_page(mm, src);
		v->pte[off] = 0;
		page_remove_rmap(mm, sp);
		as->rss--;
		if ((sp->flags & PG_mlocked) && !file_page_mlocked(mm, src)) {
			sp->flags &= ~PG_mlocked;
			mm->stat.nr_mlock--;
		}
	}
	struct page *p = mm_page(mm, pfn);
	p->flags = PG_anon;
	p->owner = as->id + 1;
	p->index = ANON_INDEX(vma, off);
	if (mm->integrity)
		integrity_cow(mm, pfn, src);
	page_add_rmap(mm, p);
	mm->stat.nr_anon++;
	as->rss++;
	v->pte[off] = mk_pte(pfn);
	mlock_if_locked(mm, v, pfn);
	count_fault(mm, ctx, false);
	charge(ctx, mm->cost->fault_ns + mm->cost->copy_page_ns);
	mm_work(mm, W_COPY_BYTES, PAGE_SIZE);
	mm->pol.ops->add(mm_pol(mm, pfn), pfn, ADD_NEW_ANON);
	return FAULT_DONE;
}

enum fault_status fault_file(struct mm *mm, struct mm_ctx *ctx, struct aspace *as,
			     uint32_t vma, uint64_t off, bool write)
{
	struct vma *v = &as->vmas[vma];
	struct inode *ino = mm_inode(mm, v->ino - 1);
	uint64_t index = v->pgoff + off;
	if (index >= ino->size)
		return FAULT_SIGBUS; /* filemap_fault(): VM_FAULT_SIGBUS past EOF */
	pte_t pte = v->pte[off];
	if (pte_present(pte) && (v->flags & VMA_SHARED))
		return wp_shared(mm, ctx, v, off);   /* vm.dirty_fault's PTE_WP */
	if (pte_present(pte))
		return cow_page(mm, ctx, as, vma, off, pte_pfn(pte)); /* write to PTE_WP */
	pfn_t pfn = pc_page(ino, index);
	if (pfn != PFN_NONE && !ctx->retry) {
		/* filemap_fault(): found, so maybe read further ahead before
		 * waiting for it (3.0+: filemap_mmap_ra.c). */
		enum fault_status st = mmap_async_readahead(mm, ctx, ino, pfn, index);
		if (st != FAULT_DONE)
			return st;
	} else if (pfn == PFN_NONE) {
		/* filemap_fault(): a major fault; read around the faulting
		 * page, the era's way (filemap_mmap_ra.c). */
		enum fault_status st = mmap_sync_readahead(mm, ctx, ino, index);
		pfn = pc_page(ino, index);
		if (pfn == PFN_NONE)
			return st == FAULT_DONE ? FAULT_WAIT_RECLAIM : st;
		count_fault(mm, ctx, true);
		charge(ctx, mm->cost->fault_ns);
		ctx->retry = true; /* the fault completes when we come back */
	}
	struct page *p = mm_page(mm, pfn);
	if (p->flags & PG_locked) {
		count_fault(mm, ctx, false);
		ctx->retry = true;
		ctx->wait_pfn = pfn;
		return FAULT_WAIT_PAGE;
	}
	filemap_rescue(mm, pfn);
	/* 6.14+ filemap_fault() finds the folio with filemap_get_folio(),
	 * no FGP_DONTCACHE: "not an uncached lookup, clear uncached if set"
	 * (6.18 __filemap_get_folio_mpol()).  A page an uncached read left
	 * behind, or a plugin did not admit, is a cached page once mapped. */
	p->flags &= ~PG_dropbehind;
	/* 2.4.10 to 2.6.28: filemap_nopage / filemap_fault call
	 * mark_page_accessed() on the page they return, so a page faulted in
	 * by two processes (or twice) is activated like a twice-read one. */
	if (mm->vm.fault_mark_accessed && mm->pol.ops->mark_accessed)
		mm->pol.ops->mark_accessed(mm_pol(mm, pfn), pfn);
	if (write && !(v->flags & VMA_SHARED))
		return cow_page(mm, ctx, as, vma, off, pfn);
	bool clean_wp = (v->flags & VMA_SHARED) && mm->vm.dirty_fault && !write;
	if ((v->flags & VMA_SHARED) && mm->vm.dirty_fault && write)
		dirty_shared_page(mm, ctx, pfn);
	page_add_rmap(mm, p);
	as->rss++;
	v->pte[off] = mk_pte(pfn) | (v->flags & VMA_SHARED && !clean_wp ? 0 : PTE_WP);
	mlock_if_locked(mm, v, pfn);
	count_fault(mm, ctx, false);
	charge(ctx, mm->cost->fault_ns);
	return FAULT_DONE;
}
