/* aspace.c - address spaces, VMAs, page tables, the fault handler and the
 * reference hot path.
 *
 * A reference to a present page sets the PTE's accessed (and dirty) bit and
 * nothing else, exactly like an MMU: kernel-style policies only learn about
 * it when they test-and-clear the bit through rmap.  Only policies that ask
 * for the idealized MMU (POLICY_ACCESS_HOOK) are called per reference. */
#include "internal.h"
#include "swap.h"
#include "filemap.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

struct aspace *mm_aspace_new(struct mm *mm, int task)
{
	struct aspace *as = xcalloc(1, sizeof(*as));
	as->id = mm->nr_as;
	as->task = task;
	as->next_vpn = 0x400; /* leave page 0.. unmapped, like a real process */
	mm->as = xrealloc(mm->as, (mm->nr_as + 1) * sizeof(*mm->as));
	mm->as[mm->nr_as++] = as;
	return as;
}

uint32_t mm_mmap_anon(struct mm *mm, struct aspace *as, uint64_t npages, uint32_t flags)
{
	return mm_mmap_anon_ptes(mm, as, npages, flags, NULL);
}

uint32_t mm_mmap_anon_ptes(struct mm *mm, struct aspace *as, uint64_t npages, uint32_t flags, pte_t *ptes)
{
	as->vmas = xrealloc(as->vmas, (as->nr_vmas + 1) * sizeof(*as->vmas));
	struct vma *v = &as->vmas[as->nr_vmas];
	v->start = as->next_vpn;
	v->npages = npages;
	v->pte = ptes ? ptes : xcalloc_huge(npages ? npages : 1, sizeof(pte_t));
	v->flags = VMA_ANON | (flags & (VMA_NOZERO | 0xfu << VMA_KIND_SHIFT)) | (ptes ? VMA_PTE_LENT : 0);
	v->ino = 0;
	v->pgoff = 0;
	integrity_vma_init(mm, v);
	v->ra_off = 0;
	v->ra_win = 0;
	v->ra_hits = SWAP_RA_INIT_HITS;
	v->ra_set = false;
	as->next_vpn += npages + 16; /* a guard gap between mappings */
	as->total_vm += npages;
	return as->nr_vmas++;
}

/* Drop the mapping of a present PTE. */
static void zap_present(struct mm *mm, struct aspace *as, pte_t pte)
{
	pfn_t pfn = pte_pfn(pte);
	struct page *p = mm_page(mm, pfn);
	as->rss--;
	if (p->flags & PG_file) {
		/* The PTE's dirty bit moves to the page (zap_pte_range). */
		if (pte & PTE_DIRTY)
			set_page_dirty(mm, pfn);
		page_remove_rmap(mm, p);
		if ((p->flags & PG_mlocked) && !file_page_mlocked(mm, pfn)) {
			p->flags &= ~PG_mlocked;
			mm->stat.nr_mlock--;
		}
		free_if_orphan(mm, pfn);
		return;
	}
	page_remove_rmap(mm, p);
	if (p->mapcount > 0)
		return;
	if (p->flags & PG_mlocked) {
		p->flags &= ~PG_mlocked;
		mm->stat.nr_mlock--;
	}
	/* Exiting: the page's contents die with the mapping, so the swap copy
	 * (if any) is stale and the slot can go. */
	if ((p->flags & PG_swapcache) && !(p->flags & (PG_writeback | PG_locked)) &&
	    !mm->swap.map[p->swap - 1])
		swap_cache_del(mm, pfn);
	free_if_orphan(mm, pfn);
}

static void zap_swap(struct mm *mm, struct aspace *as, pte_t pte)
{
	uint32_t slot = pte_slot(pte);
	as->swapents--;
	swap_put_ref(&mm->swap, slot);
	pfn_t pfn = mm->swap.cache[slot];
	if (pfn != PFN_NONE)
		free_if_orphan(mm, pfn);
}

void mm_munmap(struct mm *mm, struct mm_ctx *ctx, struct aspace *as, uint32_t vma)
{
	struct vma *v = &as->vmas[vma];
	if (v->flags & VMA_DEAD)
		return;
	struct mm_ctx *saved = mm->cur;
	mm->cur = ctx;
	for (uint64_t i = 0; i < v->npages; i++) {
		pte_t pte = v->pte[i];
		v->pte[i] = 0;
		if (pte_present(pte)) {
			zap_present(mm, as, pte);
			charge(ctx, mm->cost->free_page_ns);
		} else if (pte_is_swap(pte)) {
			zap_swap(mm, as, pte);
		}
	}
	if (v->flags & (VMA_LOCKED | VMA_MLOCKING))
		as->locked_vm -= v->npages;
	if (v->ino)
		file_vma_unlink(mm, as, vma);
	mm->cur = saved;
	as->total_vm -= v->npages;
	if (!(v->flags & VMA_PTE_LENT))
		free(v->pte);
	v->flags = VMA_DEAD;
	v->pte = NULL;
	free(v->ver);
	v->ver = NULL;
}

void mm_aspace_exit(struct mm *mm, struct mm_ctx *ctx, struct aspace *as)
{
	for (uint32_t v = 0; v < as->nr_vmas; v++)
		mm_munmap(mm, ctx, as, v);
	put_swap_token(mm, as);
	as->in_fault = false;
	as->dead = true;
}

/* Map a frame into an anonymous PTE and account it. */
static void map_anon(struct mm *mm, struct aspace *as, struct vma *v, uint64_t off, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	page_add_rmap(mm, p);
	as->rss++;
	v->pte[off] = mk_pte(pfn);
	if ((v->flags & VMA_LOCKED) && !(p->flags & PG_mlocked)) {
		p->flags |= PG_mlocked;
		mm->stat.nr_mlock++;
		mm->ev[UNEVICTABLE_PGS_MLOCKED]++;
	}
}

static enum fault_status fault_zero(struct mm *mm, struct mm_ctx *ctx, struct aspace *as,
				    uint32_t vma, uint64_t off, bool write)
{
	struct vma *v = &as->vmas[vma];
	if (!write && !(v->pte[off] & PTE_ZERO) && !(v->flags & (VMA_LOCKED | VMA_NOZERO))) {
		/* A read of untouched private memory maps the shared zero page. */
		v->pte[off] = PTE_ZERO;
		count_fault(mm, ctx, false);
		charge(ctx, mm->cost->fault_ns);
		return FAULT_DONE;
	}
	enum fault_status st;
	pfn_t pfn = mm_alloc_page(mm, ctx, &st);
	if (pfn == PFN_NONE)
		return st;
	struct page *p = mm_page(mm, pfn);
	p->flags = PG_anon;
	p->owner = as->id + 1;
	p->index = ANON_INDEX(vma, off);
	p->data_kind = (uint8_t)VMA_KIND(v->flags);
	p->data_ver = 0;
	mm->stat.nr_anon++;
	map_anon(mm, as, v, off, pfn);
	count_fault(mm, ctx, false);
	charge(ctx, mm->cost->fault_ns + mm->cost->zero_page_ns);
	mm_work(mm, W_CLEAR_BYTES, PAGE_SIZE);
	mm->pol.ops->add(mm_pol(mm, pfn), pfn, ADD_NEW_ANON);
	return FAULT_DONE;
}

/* do_swap_page(): the page is in the swap cache (possibly still being read,
 * or being written out after eviction) or must be read from its slot. */
static enum fault_status fault_swap(struct mm *mm, struct mm_ctx *ctx, struct aspace *as,
				    uint32_t vma, uint64_t off, bool write)
{
	struct vma *v = &as->vmas[vma];
	uint32_t slot = pte_slot(v->pte[off]);
	pfn_t pfn = mm->swap.cache[slot];
	if (pfn == PFN_NONE) {
		enum fault_status st;
		pfn = mm_alloc_page(mm, ctx, &st);
		if (pfn == PFN_NONE)
			return st;
		if (mm->swap.cache[slot] != PFN_NONE) {
			/* Reclaim's I/O completions filled it meanwhile. */
			free_frame(mm, pfn);
			return FAULT_DONE;
		}
		if (mm->vm.swap_token)
			grab_swap_token(mm, as); /* contend for the token before the read */
		swapin_page(mm, ctx, pfn, slot, as->id + 1, ANON_INDEX(vma, off));
		count_fault(mm, ctx, true);
		charge(ctx, mm->cost->fault_ns);
		ctx->retry = true; /* the fault completes when we come back */
		swapin_read(mm, ctx, v, off, slot, pfn);
		if (mm_page(mm, pfn)->flags & PG_locked) {
			ctx->wait_pfn = pfn;
			return FAULT_WAIT_PAGE;
		}
		pfn = mm->swap.cache[slot];
		if (pfn == PFN_NONE)
			return FAULT_DONE; /* untimed: read and reclaimed already */
	}
	struct page *p = mm_page(mm, pfn);
	if ((p->flags & (PG_readahead | PG_file)) == PG_readahead) {
		/* swap_cache_get_folio(): a readahead page was wanted. */
		p->flags &= ~PG_readahead;
		mm->ev[SWAP_RA_HIT]++;
		if (swap_use_vma_readahead(mm)) {
			if (v->ra_hits < SWAP_RA_HITS_MAX)
				v->ra_hits++;
		} else if (mm->vm.swap_vma_ra) {
			mm->swap.ra_hits++; /* swapin_readahead_hits */
		}
	}
	if (swap_use_vma_readahead(mm)) {
		v->ra_off = off; /* swap_update_readahead(): SWAP_RA_VAL(addr, ...) */
		v->ra_set = true;
	}
	if (p->flags & PG_locked) {
		count_fault(mm, ctx, false);
		ctx->retry = true;
		ctx->wait_pfn = pfn;
		return FAULT_WAIT_PAGE;
	}
	if (lru_on(&mm->fr, pfn) == mm->list_wb_free) {
		/* Evicted, still being written: rescue it (a minor fault). */
		lru_del(&mm->fr, pfn);
		p->flags &= ~PG_reclaim;
		mm->stat.nr_pending_free--;
		mm->pol.ops->add(mm_pol(mm, pfn), pfn, ADD_SWAPCACHE);
	}
	p->owner = as->id + 1;
	p->index = ANON_INDEX(vma, off);
	swap_put_ref(&mm->swap, slot);
	as->swapents--;
	map_anon(mm, as, v, off, pfn);
	p->data_kind = (uint8_t)VMA_KIND(v->flags);
	p->data_ver += write; /* new contents: zram draws a new size */
	count_fault(mm, ctx, false);
	charge(ctx, mm->cost->fault_ns);
	/* try_to_free_swap(): a page about to be dirtied, or a swap area more
	 * than half full, gives its slot back; otherwise the clean swap copy
	 * saves a write if the page is evicted again unchanged. */
	/* zram (SWP_SYNCHRONOUS_IO): 6.x do_swap_page() read a page whose
	 * slot had one user without the swap cache, and the slot is freed
	 * (its zram copy with it): the page is written anew if evicted. */
	if ((write || swap_full(&mm->swap) || (p->flags & PG_mlocked) || mm->swap.zram) &&
	    !(p->flags & PG_writeback) && !mm->swap.map[slot]) {
		swap_cache_del(mm, pfn);
		p->flags |= PG_dirty;
	}
	return FAULT_DONE;
}

static enum fault_status handle_fault_page(struct mm *mm, struct mm_ctx *ctx, struct aspace *as,
					   uint32_t vma, uint64_t off, bool write)
{
	pte_t pte = as->vmas[vma].pte[off];
	if (pte_is_swap(pte))
		return fault_swap(mm, ctx, as, vma, off, write);
	if (as->vmas[vma].ino)
		return fault_file(mm, ctx, as, vma, off, write);
	return fault_zero(mm, ctx, as, vma, off, write);
}

enum fault_status handle_fault(struct mm *mm, struct mm_ctx *ctx, struct aspace *as,
			       uint32_t vma, uint64_t off, bool write)
{
	/* Tell the policy which page is coming in (mm->fault.owner). */
	const struct vma *v = &as->vmas[vma];
	bool file = v->ino && !pte_is_swap(v->pte[off]);
	mm->fault.owner = file ? v->ino : as->id + 1;
	mm->fault.file = file;
	mm->fault.index = file ? v->pgoff + off : ANON_INDEX(vma, off);
	enum fault_status st = handle_fault_page(mm, ctx, as, vma, off, write);
	mm->fault.owner = 0;
	return st;
}

/* A page's references: whole nanoseconds, and the picoseconds beyond
 * them carried to the next page (no division per page). */
static inline void charge_refs(struct mm_ctx *ctx, uint64_t ns, uint64_t rem_ps, uint64_t *carry_ps)
{
	ctx->user_ns += ns;
	*carry_ps += rem_ps;
	if (*carry_ps >= 1000) {
		ctx->user_ns++;
		*carry_ps -= 1000;
	}
}

uint64_t mm_touch(struct mm *mm, struct mm_ctx *ctx, struct aspace *as, uint32_t vma,
		  uint64_t off, uint64_t n, uint32_t refs, enum touch_kind kind,
		  uint64_t budget_ns, enum fault_status *st)
{
	const bool write = kind != TOUCH_READ;
	/* 6.x do_swap_page() on a read fault maps an exclusive page writable
	 * (clean) and keeps its swap slot (should_try_to_free_swap() asks for
	 * FAULT_FLAG_WRITE), so the store that follows neither faults nor
	 * frees the slot.  Only a swapped-out page is read-faulted here: a
	 * never-touched or private file page still takes one write fault,
	 * where the kernel takes the load's and the store's. */
	const bool load_swapin = kind == TOUCH_LOAD_STORE && mm->vm.anon_exclusive;
	struct vma *v = &as->vmas[vma];
	if (vma >= as->nr_vmas || (v->flags & VMA_DEAD) || off + n > v->npages || off + n < off) {
		*st = FAULT_SEGV;
		return 0;
	}
	/* User time in picoseconds, carried from page to page so that a
	 * fraction of a nanosecond per reference is not lost. */
	const uint64_t ucost_ps = (uint64_t)refs * mm->cost->ref_ps;
	const uint64_t ucost_ns = ucost_ps / 1000, ucost_rem = ucost_ps % 1000;
	uint64_t carry_ps = 0;
	const pte_t set = PTE_ACCESSED | (write ? PTE_DIRTY : 0);
	/* A PTE needs the fault handler unless it is present and, for a
	 * write, not write-protected: one mask and compare per page. */
	const pte_t need = PTE_PRESENT | (write ? PTE_WP : 0);
	/* One branch per page serves both per-page hooks: the policy's
	 * access hook and --check's content versions of a write. */
	const bool versions = write && mm->integrity;
	const bool hook = mm->access_hook || versions;
	pte_t *pt = v->pte + off;
	uint64_t i;
	*st = FAULT_DONE;
	as->ran = true;
	for (i = 0; i < n; i++) {
		if (ctx->user_ns + ctx->sys_ns >= budget_ns || ctx->high_sleep)
			break;
		pte_t pte = pt[i];
		bool faulted = false;
		if ((pte & need) != PTE_PRESENT) {
			if ((pte & PTE_ZERO) && !write) {
				charge_refs(ctx, ucost_ns, ucost_rem, &carry_ps);
				continue;
			}
			*st = handle_fault(mm, ctx, as, vma, off + i,
					   write && !(load_swapin && pte_is_swap(pte)));
			if (*st != FAULT_DONE)
				break;
			faulted = true;
			pte = pt[i];
			if (!(pte & (PTE_PRESENT | PTE_ZERO))) {
				i--; /* the fault lost a race with reclaim: again */
				continue;
			}
		}
		/* The faulting reference of a one-reference touch leaves the
		 * page unreferenced when the policy asks (fault_not_young). */
		pt[i] = pte | (faulted && mm->fault_not_young && refs == 1 ? set & ~PTE_ACCESSED : set);
		charge_refs(ctx, ucost_ns, ucost_rem, &carry_ps);
		if (hook) {
			if (mm->access_hook)
				mm->pol.ops->access(mm_pol(mm, pte_pfn(pte)), pte_pfn(pte), write);
			if (versions)
				integrity_write(mm, pte_pfn(pte));
		}
	}
	return i;
}

uint64_t mm_mlock(struct mm *mm, struct mm_ctx *ctx, struct aspace *as, uint32_t vma,
		  uint64_t off, uint64_t n, uint64_t budget_ns, enum fault_status *st)
{
	struct vma *v = &as->vmas[vma];
	if (vma >= as->nr_vmas || (v->flags & VMA_DEAD) || off + n > v->npages || off + n < off) {
		*st = FAULT_SEGV;
		return 0;
	}
	/* The VMA counts as locked only once every page in it is marked
	 * PG_mlocked, so --check can hold the two to agreement between the
	 * chunks of a long mlock(). */
	if (!(v->flags & (VMA_LOCKED | VMA_MLOCKING))) {
		v->flags |= VMA_MLOCKING;
		as->locked_vm += v->npages;
	}
	uint64_t i;
	*st = FAULT_DONE;
	for (i = 0; i < n; i++) {
		if (ctx->user_ns + ctx->sys_ns >= budget_ns)
			break;
		pte_t pte = v->pte[off + i];
		bool shared_file = v->ino && (v->flags & VMA_SHARED);
		if (!pte_present(pte)) {
			/* make_pages_present(): a write fault on private memory
			 * (a private file page is copied), a read fault on a
			 * shared file mapping. */
			*st = handle_fault(mm, ctx, as, vma, off + i, !shared_file);
			if (*st != FAULT_DONE)
				break;
			if (!pte_present(v->pte[off + i])) {
				i--; /* lost a race with reclaim: again */
				continue;
			}
		}
		struct page *p = mm_page(mm, pte_pfn(v->pte[off + i]));
		if (!(p->flags & PG_mlocked)) {
			p->flags |= PG_mlocked;
			mm->stat.nr_mlock++;
			mm->ev[UNEVICTABLE_PGS_MLOCKED]++;
		}
		bool file_page = mm_page(mm, pte_pfn(v->pte[off + i]))->flags & PG_file;
		v->pte[off + i] |= PTE_ACCESSED | (file_page ? 0 : PTE_DIRTY);
	}
	if (i == n && (v->flags & VMA_MLOCKING)) {
		v->flags &= ~VMA_MLOCKING;
		v->flags |= VMA_LOCKED;
	}
	return i;
}

void mm_munlock(struct mm *mm, struct mm_ctx *ctx, struct aspace *as, uint32_t vma)
{
	(void)ctx;
	struct vma *v = &as->vmas[vma];
	if (vma >= as->nr_vmas || (v->flags & VMA_DEAD) || !(v->flags & VMA_LOCKED))
		return;
	v->flags &= ~VMA_LOCKED;
	as->locked_vm -= v->npages;
	for (uint64_t i = 0; i < v->npages; i++) {
		pte_t pte = v->pte[i];
		if (!pte_present(pte))
			continue;
		pfn_t pfn = pte_pfn(pte);
		struct page *p = mm_page(mm, pfn);
		if (!(p->flags & PG_mlocked))
			continue;
		if ((p->flags & PG_file) && file_page_mlocked(mm, pfn))
			continue; /* another locked VMA maps it */
		p->flags &= ~PG_mlocked;
		mm->stat.nr_mlock--;
		mm->ev[UNEVICTABLE_PGS_MUNLOCKED]++;
		if (lru_on(&mm->fr, pfn) == mm->list_unevictable) {
			lru_del(&mm->fr, pfn);
			p->flags &= ~PG_unevictable;
			mm->ev[UNEVICTABLE_PGS_RESCUED]++;
			mm->pol.ops->add(mm_pol(mm, pfn), pfn, ADD_PUTBACK);
		}
	}
}
