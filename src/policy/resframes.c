/* resframes.c - see resframes.h. */
#include "resframes.h"
#include "../lib/util.h"

#include <stdlib.h>

void rf_init(struct resframes *r, struct mm *mm, const char *name, void *const *recs, size_t rec_size,
	     void (*hit)(void *priv, pfn_t pfn, uint32_t rec))
{
	r->mm = mm;
	r->list = lru_register(&mm->fr, name);
	r->fresh = PFN_NONE;
	if (mm->cache.only) {
		r->ids = xcalloc(mm->fr.nr, sizeof(*r->ids));
		mm_cache_frame_records(mm, recs, rec_size);
		mm_cache_hit_hook(mm, hit);
		mm_cache_unlisted(mm);
	}
}

void rf_destroy(struct resframes *r)
{
	free(r->ids);
	r->ids = NULL;
}

/* Whether the page added in pfn is the one the fault is for (the
 * reference that faulted follows at once): readahead pages added beside
 * it are not referenced (research.c: rp_add). */
static bool faulting(const struct mm *mm, pfn_t pfn)
{
	const struct page *p = &mm->fr.pages[pfn];
	return !mm->fault.owner || (mm->fault.owner == p->owner && mm->fault.index == p->index &&
				    mm->fault.file == ((p->flags & PG_file) != 0));
}

void rf_add(struct resframes *r, pfn_t pfn)
{
	struct mm *mm = r->mm;
	r->n++;
	if (r->ids) {
		/* a cache: every page is added for its own fault */
		r->ids[pfn] = mm->cache.fault_id;
		r->fresh = pfn;
		return;
	}
	lru_add_head(&mm->fr, r->list, pfn);
	if (faulting(mm, pfn))
		r->fresh = pfn;
}

/* The page in pfn is off the resident set (its frame still in use). */
static void unlist(struct resframes *r, pfn_t pfn)
{
	r->n--;
	if (!r->ids)
		lru_del(&r->mm->fr, pfn);
}

void rf_leave(struct resframes *r, pfn_t pfn, bool resident)
{
	if (resident)
		unlist(r, pfn);
	if (r->fresh == pfn)
		r->fresh = PFN_NONE;
}

enum victim_outcome rf_evict(struct resframes *r, struct scan_control *sc, pfn_t pfn)
{
	unlist(r, pfn);
	enum victim_outcome o = textbook_evict(r->mm, sc, pfn);
	if (o == VICTIM_REFUSED || o == VICTIM_NOSWAP) {
		/* never in a cache, where every eviction frees the page */
		r->n++;
		lru_add_head(&r->mm->fr, r->list, pfn);
	}
	return o;
}

bool rf_check(const struct resframes *r, uint64_t counted, const char *name, FILE *err)
{
	uint64_t listed = r->ids ? r->n : lru_count(&r->mm->fr, r->list);
	if (counted != r->n || listed != r->n) {
		fprintf(err, "check: %s holds %llu pages, its count %llu, its frame list %llu\n", name,
			(unsigned long long)counted, (unsigned long long)r->n, (unsigned long long)listed);
		return false;
	}
	return true;
}

bool rf_frame_ok(const struct resframes *r, pfn_t pfn, const char *name, FILE *err)
{
	const struct mm *mm = r->mm;
	/* in a cache: its page's PTE maps it (the replay's record map) */
	bool ok = pfn < mm->fr.nr && !(mm->fr.pages[pfn].flags & PG_free) &&
		  (r->ids ? pte_present(mm->cache.ptes[r->ids[pfn]]) && pte_pfn(mm->cache.ptes[r->ids[pfn]]) == pfn
			  : lru_on(&mm->fr, pfn) == r->list);
	if (!ok)
		fprintf(err, "check: %s frame %u is not a resident page of its own\n", name, pfn);
	return ok;
}
