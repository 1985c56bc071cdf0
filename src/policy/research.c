/* research.c - see research.h. */
#include "research.h"
#include "../mm/mm.h"

#include <stddef.h>

void rp_init(struct rp_base *b, struct mm *mm, const char *name) { rp_init_sized(b, mm, name, 2ULL * mm->fr.nr); }

void rp_init_sized(struct rp_base *b, struct mm *mm, const char *name, uint64_t entries)
{
	b->mm = mm;
	ghost_init(&b->g, entries);
	/* A cache's pages are dense ids, page->swap (cache_pte). */
	if (mm->cache.only) {
		ghost_dense(&b->g, &mm->cache.recmap);
		mm_cache_records(mm, (void *const *)&b->g.e, sizeof(struct gh_entry));
		mm_cache_unlisted(mm);
	}
	b->list = lru_register(&mm->fr, name);
	b->fresh = PFN_NONE;
}

void rp_hits_move(struct rp_base *b)
{
	if (!b->g.byid)
		return;
	mm_cache_record_links(b->mm, offsetof(struct gh_entry, prev), offsetof(struct gh_entry, next));
}

void rp_set_hit(struct rp_base *b, void (*hit)(void *priv, pfn_t pfn, uint32_t i))
{
	b->hit = hit;
	if (b->g.byid)
		mm_cache_hit_hook(b->mm, hit);
}

void rp_access(void *priv, pfn_t pfn, bool write)
{
	struct rp_base *b = priv;
	(void)write;
	uint32_t i;
	if (!rp_fault_ref(b, pfn) && (i = ghost_of(b->mm->fr.pages, pfn)) != GH_NONE)
		b->hit(priv, pfn, i);
}

void rp_destroy(struct rp_base *b) { ghost_destroy(&b->g); }

/* rp_add() in a cache: one address space, every page added for its own
 * fault, none resident twice. */
static uint32_t rp_add_id(struct rp_base *b, pfn_t pfn, bool *known)
{
	struct mm *mm = b->mm;
	uint32_t id = (uint32_t)mm->fr.pages[pfn].swap;
	uint32_t i = ghost_find_id(&b->g, id);
	*known = i != GH_NONE;
	if (i == GH_NONE)
		i = ghost_new_id(&b->g, id);
	else if (ghost_e(&b->g, i)->pfn != PFN_NONE)
		panic("%s: page %u resident twice", mm->pol.ops->name, id);
	ghost_attach(&b->g, i, mm->fr.pages, pfn);
	b->nres++;
	b->fresh = pfn;
	return i;
}

uint32_t rp_add(struct rp_base *b, pfn_t pfn, bool *known)
{
	struct mm *mm = b->mm;
	if (b->g.byid)
		return rp_add_id(b, pfn, known);
	struct page *p = &mm->fr.pages[pfn];
	uint64_t okey = ghost_page_okey(p), index = p->index;
	uint32_t i = p->owner ? ghost_find(&b->g, okey, index) : GH_NONE;
	*known = i != GH_NONE;
	if (!p->owner || (i != GH_NONE && ghost_e(&b->g, i)->pfn != PFN_NONE)) {
		/* A swap-readahead page whose owner is not known yet, or an
		 * identity resident in another frame too: an identity private
		 * to this frame (a stale one left by an earlier page is
		 * forgotten). */
		okey = ghost_okey(0, true);
		index = pfn;
		i = ghost_find(&b->g, okey, index);
		if (i != GH_NONE && b->forget)
			b->forget(b, i);
		else if (i != GH_NONE)
			ghost_free(&b->g, i);
		i = GH_NONE;
		*known = false;
	}
	if (i == GH_NONE)
		i = ghost_new(&b->g, okey, index);
	ghost_attach(&b->g, i, mm->fr.pages, pfn);
	lru_add_head(&mm->fr, b->list, pfn);
	/* The reference that faulted follows at once; readahead pages added
	 * alongside it are not referenced. */
	if (!mm->fault.owner ||
	    (mm->fault.owner == p->owner && mm->fault.index == p->index &&
	     mm->fault.file == ((p->flags & PG_file) != 0)))
		b->fresh = pfn;
	return i;
}

bool rp_fault_ref(struct rp_base *b, pfn_t pfn)
{
	if (b->fresh != pfn)
		return false;
	b->fresh = PFN_NONE;
	return true;
}

/* The page in pfn leaves the resident set. */
static void unlist(struct rp_base *b, pfn_t pfn)
{
	if (b->g.byid)
		b->nres--;
	else
		lru_del(&b->mm->fr, pfn);
}

uint32_t rp_remove(struct rp_base *b, pfn_t pfn)
{
	struct mm *mm = b->mm;
	uint32_t i = ghost_of(mm->fr.pages, pfn);
	unlist(b, pfn);
	if (b->fresh == pfn)
		b->fresh = PFN_NONE;
	if (i != GH_NONE)
		ghost_detach(&b->g, i, mm->fr.pages);
	return i;
}

enum victim_outcome rp_evict(struct rp_base *b, struct scan_control *sc, uint32_t i)
{
	struct mm *mm = b->mm;
	pfn_t pfn = ghost_e(&b->g, i)->pfn;
	unlist(b, pfn);
	ghost_detach(&b->g, i, mm->fr.pages);
	enum victim_outcome o = textbook_evict(mm, sc, pfn);
	if (o == VICTIM_REFUSED || o == VICTIM_NOSWAP) {
		ghost_attach(&b->g, i, mm->fr.pages, pfn);
		if (b->g.byid)
			b->nres++;
		else
			lru_add_head(&mm->fr, b->list, pfn);
	}
	return o;
}

enum victim_outcome rp_evict_tail(struct rp_base *b, struct scan_control *sc, int from, int ghost)
{
	struct ghost *g = &b->g;
	uint32_t i = ghost_tail(g, from);
	enum victim_outcome o = rp_evict(b, sc, i);
	if (o == VICTIM_GONE && ghost >= 0)
		ghost_move_head(g, ghost, i);
	else if (o == VICTIM_GONE || o == VICTIM_CULLED)
		ghost_free(g, i);
	else
		ghost_move_head(g, from, i);
	rp_prefetch_tail(b, from);
	return o;
}

uint32_t rp_incoming(const struct rp_base *b)
{
	const struct mm *mm = b->mm;
	if (!mm->fault.owner)
		return GH_NONE;
	if (b->g.byid)
		return ghost_find_id(&b->g, mm->cache.fault_id);
	return ghost_find(&b->g, ghost_okey(mm->fault.owner, mm->fault.file), mm->fault.index);
}

bool rp_check(struct rp_base *b, const char *name, FILE *err)
{
	struct mm *mm = b->mm;
	if (!ghost_check(&b->g, mm->fr.pages, name, err))
		return false;
	for (pfn_t pfn = mm->fr.lists[b->list].head; pfn != PFN_NONE; pfn = lru_next(&mm->fr, pfn)) {
		uint32_t i = ghost_of(mm->fr.pages, pfn);
		if (i == GH_NONE || ghost_e(&b->g, i)->pfn != pfn) {
			fprintf(err, "check: %s frame %u has no history entry\n", name, pfn);
			return false;
		}
	}
	return true;
}
