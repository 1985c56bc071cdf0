/* ptescan.c - see ptescan.h. */
#include "ptescan.h"
#include "filemap.h"
#include "internal.h"
#include "swap.h"

bool ptescan_at_end(const struct aspace *as, const struct pte_cursor *c)
{
	return c->vma >= as->nr_vmas;
}

bool ptescan_next(struct mm *mm, struct aspace *as, struct pte_cursor *c, struct pte_ref *r)
{
	while (c->vma < as->nr_vmas) {
		struct vma *v = &as->vmas[c->vma];
		if (!(v->flags & VMA_DEAD) && v->pte) {
			while (c->off < v->npages) {
				uint64_t off = c->off++;
				pte_t pte = v->pte[off];
				mm_work(mm, W_SWAP_OUT_PTES, 1);
				if (!pte_present(pte))
					continue;
				mm_work(mm, W_TRY_TO_SWAP_OUT, 1);
				*r = (struct pte_ref){ .as = as, .vma = c->vma, .off = off,
						       .pte = &v->pte[off], .pfn = pte_pfn(pte),
						       .locked_vma = (v->flags & VMA_LOCKED) != 0 };
				return true;
			}
		}
		c->vma++;
		c->off = 0;
	}
	return false;
}

bool ptescan_test_and_clear_young(struct pte_ref *r)
{
	if (*r->pte & PTE_ACCESSED) {
		*r->pte &= ~PTE_ACCESSED;
		return true;
	}
	return false;
}

enum unmap_result ptescan_unmap(struct mm *mm, struct pte_ref *r)
{
	struct page *p = mm_page(mm, r->pfn);
	if (r->locked_vma || (p->flags & (PG_locked | PG_mlocked)))
		return UNMAP_BUSY;
	pte_t pte = *r->pte;
	if (pte & PTE_DIRTY) {
		/* A file page's dirty state is also the page cache's (counts
		 * and the dirty bitmap): go through set_page_dirty(). */
		if (p->flags & PG_file)
			set_page_dirty(mm, r->pfn);
		else
			p->flags |= PG_dirty;
	}
	charge(mm->cur, mm->cost->rmap_ns);
	if (p->flags & PG_file) {
		/* A clean or dirty file page: drop the PTE; the page cache keeps
		 * the page (dirty data is written by whoever frees it). */
		*r->pte = 0;
		r->as->rss--;
		page_remove_rmap(mm, p);
		mm_work(mm, W_TRY_TO_SWAP_OUT_UNMAP, 1);
		return UNMAP_DROPPED;
	}
	if (!(p->flags & PG_swapcache)) {
		uint32_t slot = cgtree_swap_alloc(mm, p->memcg);
		if (slot == UINT32_MAX)
			return UNMAP_NOSWAP;
		swap_cache_add(mm, r->pfn, slot);
		mm_work(mm, W_ADD_TO_SWAP, 1);
		p->flags |= PG_dirty; /* the swap copy does not exist yet */
	}
	uint32_t slot = p->swap - 1;
	*r->pte = mk_swap_pte(slot);
	swap_get_ref(&mm->swap, slot);
	r->as->rss--;
	r->as->swapents++;
	r->as->nswap++;
	page_remove_rmap(mm, p);
	mm_work(mm, W_TRY_TO_SWAP_OUT_UNMAP, 1);
	return UNMAP_SWAPCACHE;
}
