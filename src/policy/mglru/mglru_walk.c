/* mglru_walk.c - MGLRU aging, ~6.6: try_to_inc_max_seq() walks the page
 * tables of every address space that ran since the last walk
 * (iterate_mm_list / walk_mm / walk_pte_range), test-and-clears the
 * accessed bits and records young pages in the youngest generation, then
 * opens a new generation (inc_max_seq), first retiring the oldest one
 * (inc_min_seq) if MAX_NR_GENS are in use.  And lru_gen_look_around():
 * when eviction's rmap walk finds a young PTE, the PTEs around it in the
 * same page-table page are harvested too, at the cost of one rmap walk
 * (anonymous and file folios: folio_referenced_one()).
 *
 * PTE tables are PTRS_PER_PTE consecutive virtual pages (PMD granularity).
 * A walk descends only into tables the Bloom filter of the previous walk
 * holds - those where at least 1/N of the PTEs were young, N = PTEs per
 * cache line - except for address spaces new since the last walk
 * (force_scan).  The walker's CPU time: one scan unit (cost.scan) per
 * cache line of PTEs read and per young PTE whose page it updates.
 * Simplified: no huge pages or non-leaf PMD accessed bits; a table is
 * walked per VMA (the kernel continues into the next VMA sharing the
 * table); mm_struct skipping follows "ran since the last walk"
 * (aspace->ran, the kernel's lru_gen.bitmap) and the MIN_LRU_BATCH RSS
 * floor; file pages are walked like anon ones when their PTEs exist. */
#include "mglru.h"
#include "../../mm/filemap.h"
#include "../../lib/util.h"

#include <stdlib.h>
#include <string.h>

static inline uint64_t bloom_bits(const struct mglru *g) { return 1ULL << g->bloom_shift; }
static inline uint64_t bloom_words(const struct mglru *g) { return (bloom_bits(g) + 63) / 64; }

/* ---- Bloom filters (two: this walk's and the next one's) -------------- */

/* get_item_key(): two keys of BLOOM_FILTER_SHIFT bits from one hash of
 * the page-table page (here: address space and PMD index). */
static void bloom_keys(const struct mglru *g, const struct aspace *as, uint64_t pmd, uint64_t key[2])
{
	uint64_t x = ((uint64_t)as->id << 40) ^ pmd;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	key[0] = x & (bloom_bits(g) - 1);
	key[1] = (x >> g->bloom_shift) & (bloom_bits(g) - 1);
}

static bool test_bloom(const struct mglru *g, uint64_t seq, const struct aspace *as, uint64_t pmd)
{
	const uint64_t *f = g->filter[seq % 2];
	if (!g->bloom || !f)
		return true;
	uint64_t k[2];
	bloom_keys(g, as, pmd, k);
	return (f[k[0] / 64] >> (k[0] % 64) & 1) && (f[k[1] / 64] >> (k[1] % 64) & 1);
}

static void update_bloom(struct mglru *g, uint64_t seq, const struct aspace *as, uint64_t pmd)
{
	uint64_t *f = g->filter[seq % 2];
	if (!f)
		return;
	uint64_t k[2];
	bloom_keys(g, as, pmd, k);
	f[k[0] / 64] |= 1ULL << (k[0] % 64);
	f[k[1] / 64] |= 1ULL << (k[1] % 64);
}

static void reset_bloom(struct mglru *g, uint64_t seq)
{
	uint64_t **f = &g->filter[seq % 2];
	if (*f)
		memset(*f, 0, bloom_words(g) * sizeof(uint64_t));
	else
		*f = xcalloc(bloom_words(g), sizeof(uint64_t));
}

void mg_walk_init(struct mglru *g)
{
	g->filter[0] = g->filter[1] = NULL;
}

void mg_walk_destroy(struct mglru *g)
{
	free(g->filter[0]);
	free(g->filter[1]);
}

/* ---- one young PTE ---------------------------------------------------- */

/* Clear the accessed bit, move the hardware dirty bit to the page (unless
 * it is anon without a swap slot, which is dirty by definition), and
 * return the page, or PFN_NONE if this PTE is not for us. */
static pfn_t harvest(struct mglru *g, pte_t *pte, bool can_swap)
{
	pte_t v = *pte;
	if (!pte_present(v) || !(v & PTE_ACCESSED))
		return PFN_NONE;
	pfn_t pfn = pte_pfn(v);
	struct page *p = mm_page(g->mm, pfn);
	if (mg_type(p) == MG_ANON && !can_swap)
		return PFN_NONE;
	/* get_pfn_folio(): another memcg's folio is not this lruvec's */
	if (mm_pol(g->mm, pfn) != g)
		return PFN_NONE;
	*pte = v & ~PTE_ACCESSED;
	/* A file page's dirty state is also the page cache's (nr_dirty and
	 * the inode's dirty bitmap, which the flusher walks): set_page_dirty(). */
	if ((v & PTE_DIRTY) && !(p->flags & PG_dirty)) {
		if (p->flags & PG_file)
			set_page_dirty(g->mm, pfn);
		else if (p->flags & PG_swapcache)
			p->flags |= PG_dirty;
	}
	return pfn;
}

static void charge_ptes(struct mglru *g, uint64_t ptes, uint64_t young)
{
	uint64_t lines = (ptes + g->ptes_per_line - 1) / g->ptes_per_line;
	mg_charge(g, (lines + young) * g->mm->cost->scan_ns);
	g->ptes_walked += ptes;
	g->ptes_young += young;
}

/* suitable_to_scan(): a table is worth walking next time if at least
 * 1/N of its PTEs were young. */
static bool suitable_to_scan(const struct mglru *g, uint64_t total, uint64_t young)
{
	return young * g->ptes_per_line >= total;
}

/* ---- the walk --------------------------------------------------------- */

/* PTRS_PER_PMD (x86-64): walk_pud_range() checks its batch once a PUD. */
#define MG_PTRS_PER_PMD 512

/* walk_mm()'s lru_lock: walk_pud_range() ends the walk with -EAGAIN after
 * a PUD (one VMA's part of it) once MAX_LRU_BATCH folios changed
 * generation, and walk_mm() takes the lock to apply them
 * (reset_batch_size) before it goes on; the last batch once more. */
static void walk_batch_check(struct mglru *g, uint64_t *batched, bool last)
{
	if (*batched && (last || *batched >= g->max_lru_batch)) {
		mm_work(g->mm, W_LRU_LOCK, 1);
		*batched = 0;
	}
}

static void walk_mm(struct mglru *g, struct aspace *as, uint64_t max_seq, bool can_swap, bool force_scan)
{
	int new_gen = mg_gen(g, max_seq);
	uint64_t ptes = 0, young_all = 0, batched = 0;
	uint64_t pud_pages = (uint64_t)g->ptrs_per_pte * MG_PTRS_PER_PMD;
	mm_work(g->mm, W_WALK_MM, 1);
	for (uint32_t vi = 0; vi < as->nr_vmas; vi++) {
		struct vma *v = &as->vmas[vi];
		/* should_skip_vma(): mlocked pages are unevictable anyway;
		 * anon VMAs are pointless to age when nothing can be swapped. */
		if ((v->flags & (VMA_DEAD | VMA_LOCKED)) || !v->pte)
			continue;
		if ((v->flags & VMA_ANON) && !can_swap)
			continue;
		for (uint64_t off = 0; off < v->npages;) {
			uint64_t vpn = v->start + off;
			uint64_t pmd = vpn / g->ptrs_per_pte;
			uint64_t end = (pmd + 1) * g->ptrs_per_pte - v->start;
			if (end > v->npages)
				end = v->npages;
			bool pud_end = (vpn / pud_pages) != ((v->start + end) / pud_pages) || end == v->npages;
			if (!force_scan && !test_bloom(g, max_seq, as, pmd)) {
				mm_work(g->mm, W_WALK_PMD_SKIPPED, 1);
				off = end;
				if (pud_end)
					walk_batch_check(g, &batched, false);
				continue;
			}
			mm_work(g->mm, W_WALK_PMD_FOUND, 1);
			uint64_t young = 0;
			for (uint64_t i = off; i < end; i++) {
				pfn_t pfn = harvest(g, &v->pte[i], can_swap);
				if (pfn == PFN_NONE)
					continue;
				young++;
				int old = mg_update_gen(g, pfn, new_gen);
				if (old >= 0 && old != new_gen) {
					g->walk_promoted++;
					batched++;  /* update_batch_size() */
				}
			}
			ptes += end - off;
			young_all += young;
			if (suitable_to_scan(g, end - off, young))
				update_bloom(g, max_seq + 1, as, pmd);
			off = end;
			if (pud_end)
				walk_batch_check(g, &batched, false);
		}
	}
	walk_batch_check(g, &batched, true);
	mm_work(g->mm, W_WALK_PTES, ptes);
	mm_work(g->mm, W_WALK_PTES_YOUNG, young_all);
	charge_ptes(g, ptes, young_all);
	g->nr_walks++;
}

/* inc_min_seq(): retire the oldest generation of `type`, moving what is
 * left in it to the next one.  6.6 counts none of them; since 6.14
 * ("mm/mglru: rework aging feedback", as in 6.18, with the
 * workingset_rework switch) each folio moved counts in
 * lrugen->protected[tier], its tier read before folio_inc_gen() drops
 * the refs, so that the feedback loop's totals cover what this
 * generation kept, not only what it evicted; "rework workingset
 * protection" leaves out the workingset being lazily promoted.
 * reset_ctrl_pos() then folds the counts into the averages. */
static void inc_min_seq(struct mglru *g, int type, bool can_swap)
{
	struct frames *fr = &g->mm->fr;
	if (!(type == MG_ANON && !can_swap)) {
		int l = g->list[mg_gen(g, g->min_seq[type])][type];
		uint64_t moved = 0;
		while (lru_count(fr, l)) {
			pfn_t pfn = lru_tail(fr, l);
			const struct page *p = mm_page(g->mm, pfn);
			if (g->ws_rework && !mg_lazy_promoted(g, p))
				g->protected_[type][mg_tier(g, p)]++;
			int gen = mg_inc_gen(g, pfn);
			lru_move_head(fr, g->list[gen][type], pfn);
			moved++;
		}
		/* The kernel moves MAX_LRU_BATCH folios a hold, then drops
		 * the lock and inc_max_seq() takes it again. */
		mm_work(g->mm, W_LRU_LOCK, moved / g->max_lru_batch);
	}
	mg_reset_ctrl_pos(g, type);
	g->min_seq[type]++;
}

void mg_inc_max_seq(struct mglru *g, bool can_swap)
{
	mm_work(g->mm, W_INC_MAX_SEQ, 1);
	mm_work(g->mm, W_LRU_LOCK, 1);
	for (int type = 1; type >= 0; type--)
		if (g->max_seq - g->min_seq[type] + 1 == g->max_nr_gens)
			inc_min_seq(g, type, can_swap);
	const struct mm_ctx *c = g->mm->cur;
	g->timestamps[mg_gen(g, g->max_seq + 1)] = c ? c->t0 + c->user_ns + c->sys_ns : 0;
	g->max_seq++;
	mg_set_active_gens(g);
}

/* lru_gen_is_active(): the two youngest generations are what 6.x reports
 * as nr_active_anon/file (lru_gen_update_size()). */
void mg_set_active_gens(struct mglru *g)
{
	for (unsigned gen = 0; gen < g->max_nr_gens; gen++) {
		bool active = gen == (unsigned)mg_gen(g, g->max_seq) ||
			      gen == (unsigned)mg_gen(g, g->max_seq - 1);
		for (int type = 0; type < 2; type++)
			lru_set_kind(&g->mm->fr, g->list[gen][type],
				     active ? LRU_KIND_ACTIVE : LRU_KIND_INACTIVE);
	}
}

bool mg_try_to_inc_max_seq(struct mglru *g, uint64_t max_seq, bool can_swap, bool force_scan)
{
	struct mm *mm = g->mm;
	if (max_seq <= g->mm_seq)
		return false;   /* another walk already produced this generation */
	g->nr_agings++;
	if (g->walk_mmu) {
		bool first = true;
		for (uint32_t a = 0; a < mm->nr_as; a++) {
			struct aspace *as = mm->as[a];
			/* An address space new since the last walk has no
			 * Bloom filter history: walk everything from here on. */
			if (a >= g->nr_as_walked)
				force_scan = true;
			if (as->dead || !mm_pol_owns_aspace(mm, g, as))   /* the memcg's mm_list */
				continue;
			/* should_skip_mm() */
			if (!force_scan && !as->ran)
				continue;
			as->ran = false;
			if (as->rss < g->min_lru_batch)
				continue;
			if (first) {
				reset_bloom(g, max_seq + 1);
				first = false;
			}
			walk_mm(g, as, max_seq, can_swap, force_scan);
		}
		g->nr_as_walked = mm->nr_as;
	}
	g->mm_seq++;
	mg_inc_max_seq(g, can_swap);
	return true;
}

/* ---- rmap look-around ------------------------------------------------- */

/* The look-around of one young PTE: at vpn `addr` of VMA v of address
 * space as, the PTEs around it in the same page table, MIN_LRU_BATCH at
 * most, centred on it where the table allows. */
static void look_around_pte(struct mglru *g, struct aspace *as, struct vma *v, uint64_t addr)
{
	struct mm *mm = g->mm;
	uint64_t pmd = addr / g->ptrs_per_pte;
	uint64_t start = MAX(pmd * g->ptrs_per_pte, v->start);
	uint64_t end = MIN((pmd + 1) * g->ptrs_per_pte, v->start + v->npages);
	uint64_t batch = g->min_lru_batch;
	if (end - start > batch) {
		if (addr - start < batch / 2)
			end = start + batch;
		else if (end - addr < batch / 2)
			start = end - batch;
		else {
			start = addr - batch / 2;
			end = addr + batch / 2;
		}
	}
	int new_gen = mg_gen(g, g->max_seq);
	uint64_t young = 0;
	for (uint64_t a = start; a < end; a++) {
		pte_t *pt = &v->pte[a - v->start];
		/* 6.14+ get_pfn_folio(): an isolated folio is skipped, its
		 * accessed bit left alone */
		if (g->ws_rework && pte_present(*pt) && mg_page_gen(mm_page(mm, pte_pfn(*pt))) < 0)
			continue;
		pfn_t q = harvest(g, pt, true);
		if (q == PFN_NONE)
			continue;
		young++;
		if (g->have_walk) {
			mg_update_gen(g, q, new_gen);   /* lazily, sorted at eviction */
		} else if (g->ws_rework) {
			/* lru_gen_set_refs(): promote on a second sighting */
			int old = mg_page_gen(mm_page(mm, q));
			if (mg_set_refs(mm_page(mm, q)) && old != new_gen)
				mg_activate(g, q);
		} else {
			int old = mg_page_gen(mm_page(mm, q));
			if (old < 0)
				mm_page(mm, q)->flags |= PG_referenced;
			else if (old != new_gen)
				mg_activate(g, q);
		}
	}
	charge_ptes(g, end - start, young);
	mm_work(mm, W_LOOK_AROUND, 1);
	mm_work(mm, W_LOOK_AROUND_PTES, end - start);
	g->la_young += young;
	if (suitable_to_scan(g, end - start, young))
		update_bloom(g, g->max_seq, as, pmd);
}

/* folio_referenced_one() calls lru_gen_look_around() for a young PTE of
 * an anonymous or a file folio alike.  An anonymous page has one PTE; a
 * file page one in each VMA mapping it (the i_mmap walk).  Simplified:
 * eviction's rmap walk has cleared the accessed bits before this runs,
 * so a file page mapped more than once is looked around in every
 * mapping, not only those whose PTE was young. */
void mg_look_around(struct mglru *g, pfn_t pfn)
{
	struct mm *mm = g->mm;
	const struct page *p = mm_page(mm, pfn);
	if (p->flags & PG_file) {
		struct inode *ino = page_inode(mm, p);
		for (uint32_t i = 0; ino && i < ino->nr_maps; i++) {
			struct aspace *as = mm->as[ino->maps[i].as];
			struct vma *v = &as->vmas[ino->maps[i].vma];
			if ((v->flags & VMA_DEAD) || !v->pte || p->index < v->pgoff ||
			    p->index >= v->pgoff + v->npages)
				continue;
			pte_t pte = v->pte[p->index - v->pgoff];
			if (pte_present(pte) && pte_pfn(pte) == pfn)
				look_around_pte(g, as, v, v->start + p->index - v->pgoff);
		}
		return;
	}
	if (!(p->flags & PG_anon) || !p->owner)
		return;
	struct aspace *as = mm->as[p->owner - 1];
	uint32_t vi = ANON_INDEX_VMA(p->index);
	if (vi >= as->nr_vmas)
		return;
	struct vma *v = &as->vmas[vi];
	if ((v->flags & VMA_DEAD) || !v->pte)
		return;
	look_around_pte(g, as, v, v->start + ANON_INDEX_OFF(p->index));
}
