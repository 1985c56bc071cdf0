/* mglru_evict.c - the multi-gen LRU's eviction and its refault feedback
 * loop, following Linux ~6.6 mm/vmscan.c (the "refault feedback loop"
 * and "eviction" parts: read_ctrl_pos, get_tier_idx, get_type_to_scan,
 * sort_folio, scan_folios, isolate_folios, evict_folios,
 * try_to_shrink_lruvec).  The generations, the policy hooks and the
 * version followed are mglru.c's; aging is mglru_walk.c's.  The flusher
 * wake-up on a pass that took only unqueued dirty file pages (sc->nr's
 * file_taken and unqueued_dirty, counted by sort_folio and scan_folios)
 * is 6.18's. */
#include "../policy.h"
#include "mglru.h"
#include "../../lib/util.h"

#include <stdlib.h>
#include <string.h>

/* fls_long(): 1-based index of the highest set bit, 0 for 0. */
static int fls64(uint64_t x)
{
	int n = 0;
	while (x) {
		n++;
		x >>= 1;
	}
	return n;
}

static uint64_t now_ns(const struct mglru *g)
{
	const struct mm_ctx *c = g->mm->cur;
	return c ? c->t0 + c->user_ns + c->sys_ns : 0;
}

/* Move pfn (on some physical list) to the physical list of its recorded
 * generation, at the head or the tail. */
static void refile(struct mglru *g, pfn_t pfn, bool tail)
{
	struct page *p = mm_page(g->mm, pfn);
	int l = g->list[mg_page_gen(p)][mg_type(p)];
	if (tail)
		lru_move_tail(&g->mm->fr, l, pfn);
	else
		lru_move_head(&g->mm->fr, l, pfn);
}

/* ---- the refault feedback loop --------------------------------------- */

struct ctrl_pos { uint64_t refaulted, total; int gain; };

static void read_ctrl_pos(const struct mglru *g, int type, int tier, int gain, struct ctrl_pos *pos)
{
	pos->refaulted = g->avg_refaulted[type][tier] + g->refaulted[type][tier];
	pos->total = g->avg_total[type][tier] + g->evicted[type][tier] +
		     g->protected_[type][tier];
	pos->gain = gain;
}

/* On each min_seq advance the current counts fold into the moving
 * averages (halved: an exponential decay per generation). */
void mg_reset_ctrl_pos(struct mglru *g, int type)
{
	for (unsigned t = 0; t < g->nr_tiers; t++) {
		g->avg_refaulted[type][t] = (g->avg_refaulted[type][t] + g->refaulted[type][t]) / 2;
		uint64_t sum = g->avg_total[type][t] + g->evicted[type][t] +
			       g->protected_[type][t];
		g->avg_total[type][t] = sum / 2;
		g->refaulted[type][t] = g->evicted[type][t] = 0;
		g->protected_[type][t] = 0;
	}
}

/* The process variable pv is no worse than the set point sp: its refault
 * rate, weighted by its gain, does not exceed sp's (with sp smoothed by
 * +1/+MIN_LRU_BATCH); too few refaults to tell also counts as fine. */
static bool positive_ctrl_err(const struct mglru *g, const struct ctrl_pos *sp, const struct ctrl_pos *pv)
{
	return pv->refaulted < g->min_lru_batch ||
	       pv->refaulted * (sp->total + g->min_lru_batch) * (uint64_t)sp->gain <=
	       (sp->refaulted + 1) * pv->total * (uint64_t)pv->gain;
}

/* Highest tier not to protect: tiers above it refault more than tier 0
 * (tiers get gain 2 against tier 0's 1, i.e. they must refault at over
 * twice tier 0's rate to be protected). */
int mg_get_tier_idx(struct mglru *g, int type)
{
	struct ctrl_pos sp, pv;
	unsigned tier;
	read_ctrl_pos(g, type, 0, 1, &sp);
	for (tier = 1; tier < g->nr_tiers; tier++) {
		read_ctrl_pos(g, type, (int)tier, 2, &pv);
		if (!positive_ctrl_err(g, &sp, &pv))
			break;
	}
	return (int)tier - 1;
}

static int get_type_to_scan(struct mglru *g, int swappiness, int *tier_idx)
{
	struct ctrl_pos sp, pv;
	int gain[2] = { swappiness, 200 - swappiness };
	read_ctrl_pos(g, MG_ANON, 0, gain[MG_ANON], &sp);
	read_ctrl_pos(g, MG_FILE, 0, gain[MG_FILE], &pv);
	int type = positive_ctrl_err(g, &sp, &pv);
	read_ctrl_pos(g, !type, 0, gain[!type], &sp);
	unsigned tier;
	for (tier = 1; tier < g->nr_tiers; tier++) {
		read_ctrl_pos(g, type, (int)tier, gain[type], &pv);
		if (!positive_ctrl_err(g, &sp, &pv))
			break;
	}
	*tier_idx = (int)tier - 1;
	return type;
}

/* ---- eviction ------------------------------------------------------- */

int mg_get_swappiness(const struct mglru *g, const struct scan_control *sc)
{
	const struct swap_area *sw = &g->mm->swap;
	if (!sc->may_swap || sw->nr_slots - sw->used < g->min_lru_batch)
		return 0;
	/* sc->proactive_swappiness of memory.reclaim (6.9+), else the lruvec's */
	return mm_reclaim_swappiness(g->mm, g->swappiness);
}

/* sort_folio(): true if the page was filed elsewhere instead of isolated. */
static bool sort_folio(struct mglru *g, pfn_t pfn, int tier_idx)
{
	struct page *p = mm_page(g->mm, pfn);
	int type = mg_type(p);
	unsigned tier = mg_tier(g, p);
	bool lazy = mg_lazy_promoted(g, p);
	if (p->flags & PG_mlocked) {
		/* unevictable: to the unevictable list */
		mg_gen_del(g, pfn);
		mm_cull_unevictable(g->mm, pfn);
		return true;
	}
	if (mg_page_gen(p) != mg_gen(g, g->min_seq[type])) {
		/* promoted by aging or look-around since it was filed */
		refile(g, pfn, false);
		return true;
	}
	if ((int)tier > tier_idx || lazy) {
		/* accessed through fds often enough, and that tier is protected */
		if (!lazy) {
			g->protected_[type][tier]++;
			g->nr_protected++;
		}
		mg_inc_gen(g, pfn);
		refile(g, pfn, !g->ws_rework);   /* 6.14+: list_move, the head */
		return true;
	}
	if (type == MG_FILE && (p->flags & PG_dirty)) {
		g->file_taken++;
		g->unqueued_dirty += !(p->flags & PG_writeback);
	}
	/* 6.14 dropped the PG_locked test */
	uint32_t wait = g->ws_rework ? PG_writeback : PG_locked | PG_writeback;
	if ((p->flags & wait) || (type == MG_FILE && (p->flags & PG_dirty))) {
		/* waiting for I/O: next generation, rotated when the write ends */
		mg_inc_gen(g, pfn);
		p->pol32[2] |= MG_ROTATE;
		refile(g, pfn, false);
		return true;
	}
	return false;
}

/* isolate_folio(): take it off the lists; without PG_referenced (a
 * recent fd access) its refs are history and go.  6.6 also drops
 * PG_workingset and PG_referenced; 6.14+ keeps both (the refs bits mean
 * nothing without PG_referenced). */
static void isolate_folio(struct mglru *g, pfn_t pfn)
{
	struct page *p = mm_page(g->mm, pfn);
	if (g->ws_rework) {
		if (!(p->flags & PG_referenced))
			p->pol32[1] = 0;
	} else {
		if (!(p->flags & PG_referenced))
			mg_clear_refs(p);
		p->flags &= ~PG_referenced;
	}
	p->pol32[2] &= ~MG_ROTATE;
	mg_gen_del(g, pfn);
}

/* scan_folios(): isolate up to MIN_LRU_BATCH pages from the oldest
 * generation of `type`, looking at MAX_LRU_BATCH at most. */
static uint64_t scan_folios(struct mglru *g, int type, int tier, pfn_t *iso, unsigned *nr_iso)
{
	struct frames *fr = &g->mm->fr;
	unsigned remaining = g->max_lru_batch, sorted = 0;
	uint64_t scanned = 0;
	*nr_iso = 0;
	if (mg_nr_gens(g, type) == g->min_nr_gens)
		return 0;
	int l = g->list[mg_gen(g, g->min_seq[type])][type];
	while (lru_count(fr, l)) {
		pfn_t pfn = lru_tail(fr, l);
		scanned++;
		if (sort_folio(g, pfn, tier)) {
			sorted++;
		} else {
			isolate_folio(g, pfn);
			iso[(*nr_iso)++] = pfn;
		}
		if (!--remaining || *nr_iso >= g->min_lru_batch)
			break;
	}
	if (type == MG_FILE)
		g->file_taken += *nr_iso;
	/* Sorting looked at each page like any scanner (pgrefill). */
	g->nr_sorted += sorted;
	g->mm->ev[PGREFILL] += sorted;
	mg_charge(g, (uint64_t)sorted * g->mm->cost->scan_ns);
	return *nr_iso || !remaining ? scanned : 0;
}

static uint64_t isolate_folios(struct mglru *g, int swappiness, pfn_t *iso, unsigned *nr_iso)
{
	int type, tier = -1;
	if (!swappiness)
		type = MG_FILE;
	else if (g->min_seq[MG_ANON] < g->min_seq[MG_FILE])
		type = MG_ANON;   /* the older type first */
	else if (swappiness == 1)
		type = MG_FILE;
	else if (swappiness == 200)
		type = MG_ANON;
	else
		type = get_type_to_scan(g, swappiness, &tier);
	uint64_t scanned = 0;
	for (int i = !swappiness; i < 2; i++) {
		if (tier < 0)
			tier = mg_get_tier_idx(g, type);
		if (!g->tiers)
			tier = (int)g->nr_tiers - 1;   /* no tier above it: none protected */
		scanned = scan_folios(g, type, tier, iso, nr_iso);
		if (scanned)
			break;
		type = !type;
		tier = -1;
	}
	return scanned;
}

/* try_to_inc_min_seq(): step min_seq past empty generations, keeping at
 * least MIN_NR_GENS, and file's min_seq never behind anon's. */
static bool try_to_inc_min_seq(struct mglru *g, bool can_swap)
{
	uint64_t min_seq[2] = { g->min_seq[0], g->min_seq[1] };
	bool success = false;
	for (int type = !can_swap; type < 2; type++) {
		while (min_seq[type] + g->min_nr_gens <= g->max_seq) {
			if (lru_count(&g->mm->fr, g->list[mg_gen(g, min_seq[type])][type]))
				break;
			min_seq[type]++;
		}
	}
	if (can_swap) {
		min_seq[MG_ANON] = min_seq[MG_ANON] < min_seq[MG_FILE] ? min_seq[MG_ANON] : min_seq[MG_FILE];
		min_seq[MG_FILE] = min_seq[MG_ANON] > g->min_seq[MG_FILE] ? min_seq[MG_ANON] : g->min_seq[MG_FILE];
	}
	for (int type = !can_swap; type < 2; type++) {
		if (min_seq[type] == g->min_seq[type])
			continue;
		mg_reset_ctrl_pos(g, type);
		g->min_seq[type] = min_seq[type];
		success = true;
	}
	return success;
}

/* evict_folios() of 6.14+ for a survivor: PG_active only where
 * shrink_folio_list() activated it; one lru_gen_folio_seq() would add to
 * min_seq gets PG_active with LRU_REFS_FLAGS cleared ("don't add
 * rejected folios to the oldest generation"). */
static void putback_618(struct mglru *g, pfn_t pfn, bool wrote)
{
	struct page *p = mm_page(g->mm, pfn);
	mm_work(g->mm, W_MOVE_FOLIOS_TO_LRU, 1);
	if (wrote)
		p->pol32[2] |= MG_ROTATE;
	if (mg_folio_seq_618(g, p, false) == g->min_seq[mg_type(p)]) {
		mg_clear_refs_flags(p);
		p->flags |= PG_active;
	}
	mg_add_folio(g, pfn, false);
}

/* activate_locked of shrink_folio_list(): PG_active for the putback
 * (6.14+ only: 6.6's evict_folios() sets it on every survivor). */
static void activate(struct mglru *g, struct page *p)
{
	if (g->ws_rework)
		p->flags |= PG_active;
}

/* Put back a page reclaim could not free (evict_folios' survivors). */
static void putback(struct mglru *g, pfn_t pfn, bool wrote)
{
	struct page *p = mm_page(g->mm, pfn);
	if (g->ws_rework) {
		putback_618(g, pfn, wrote);
		return;
	}
	mm_work(g->mm, W_MOVE_FOLIOS_TO_LRU, 1);
	if (wrote) {
		/* pageout() started: rotated to the oldest generation when the
		 * write completes (PG_reclaim in the kernel). */
		p->pol32[2] |= MG_ROTATE;
		if (p->flags & PG_workingset)
			p->flags |= PG_referenced;
	} else {
		/* referenced, mapped, locked or no swap: to the youngest
		 * generation, refs reset. */
		mg_clear_refs(p);
		p->flags |= PG_active;
	}
	mg_add_folio(g, pfn, false);
}

/* folio_check_references() of 6.14+ for a mapped folio: no young PTE,
 * reclaim it (false); else lru_gen_set_refs() decides between
 * FOLIOREF_ACTIVATE (a second sighting) and FOLIOREF_KEEP, both kept.
 * The look-around of folio_referenced() skips the isolated folio itself
 * (get_pfn_folio(): no generation). */
static bool check_references_618(struct mglru *g, pfn_t pfn)
{
	struct mm *mm = g->mm;
	struct page *p = mm_page(mm, pfn);
	bool young = mm_page_young(mm, pfn);
	int ptes = mm_page_referenced(mm, pfn);
	if (young && g->look_around)
		mg_look_around(g, pfn);
	if (!ptes)
		return false;
	if (mg_set_refs(p)) {
		mm->ev[PGACTIVATE]++;
		activate(g, p);
	}
	putback(g, pfn, false);
	return true;
}

/* shrink_folio_list() for one isolated page, MGLRU flavour. */
static void reclaim_isolated(struct mglru *g, struct scan_control *sc, pfn_t pfn)
{
	struct mm *mm = g->mm;
	struct page *p = mm_page(mm, pfn);
	/* folio_update_gen() tried to promote it while it was isolated
	 * (6.6; 6.14's rework removed the check) */
	if (!g->ws_rework && p->mapcount > 0 && (p->flags & PG_referenced)) {
		g->nr_kept_referenced++;
		putback(g, pfn, false);
		return;
	}
	if (g->ws_rework && !(p->flags & PG_mlocked) && p->mapcount > 0) {
		if (check_references_618(g, pfn))
			return;
	} else if (!(p->flags & PG_mlocked) && p->mapcount > 0) {
		/* folio_referenced(): a young PTE triggers look-around, which
		 * also marks this (isolated) page referenced. */
		bool young = mm_page_young(mm, pfn);
		int ptes = mm_page_referenced(mm, pfn);
		if (young && g->look_around) {
			mg_look_around(g, pfn);
			p->flags |= PG_referenced;
		}
		bool referenced_page = p->flags & PG_referenced;
		p->flags &= ~PG_referenced;
		if (ptes) {
			/* FOLIOREF_ACTIVATE or FOLIOREF_KEEP: either way a
			 * survivor, and survivors go to the youngest generation.
			 * 6.x counts pgactivate only for ACTIVATE (the page was
			 * referenced before: lru_gen_set_refs() true), through
			 * shrink_folio_list()'s activate_locked; MGLRU has no
			 * other activation and never deactivates (pgdeactivate
			 * stays 0). */
			if (referenced_page)
				mm->ev[PGACTIVATE]++;
			putback(g, pfn, false);
			return;
		}
	}
	/* try_to_unmap() before the dirty test (6.18 shrink_folio_list,
	 * shared with the classic LRU): outside kswapd a dirty file folio is
	 * not written but marked PG_reclaim and activated, to rotate to the
	 * oldest generation when the flusher has written it. */
	mm_try_to_unmap_file(mm, pfn);
	if ((p->flags & (PG_file | PG_dirty)) == (PG_file | PG_dirty) && sc->who != RECLAIM_KSWAPD) {
		mm->ev[NR_VMSCAN_IMMEDIATE]++;
		mm->ev[PGACTIVATE]++;
		activate(g, p);
		p->pol32[2] |= MG_ROTATE;   /* folio_set_reclaim() */
		putback(g, pfn, false);
		return;
	}
	switch (mm_reclaim_page(mm, sc, pfn)) {
	case EVICT_FREED:
		return;
	case EVICT_WRITEBACK:
		g->wb_pass++;
		putback(g, pfn, true);
		return;
	case EVICT_MLOCKED:
		mm_cull_unevictable(mm, pfn);
		return;
	case EVICT_BUSY:
		putback(g, pfn, (p->flags & PG_writeback) != 0);
		return;
	case EVICT_NOSWAP:
		mm->ev[PGACTIVATE]++;   /* add_to_swap() failed: activate_locked */
		activate(g, p);
		putback(g, pfn, false);
		return;
	}
}

/* mg_evict_folios(): one batch from the oldest generation.  Returns pages
 * scanned (0: nothing to do without aging first). */
uint64_t mg_evict_folios(struct mglru *g, struct scan_control *sc, int swappiness)
{
	pfn_t iso[4096];
	unsigned n = 0;
	uint64_t scanned = isolate_folios(g, swappiness, iso, &n);
	scanned += try_to_inc_min_seq(g, swappiness != 0);
	/* evict_folios(): one lru_lock hold to isolate; one to put the
	 * survivors back (move_folios_to_lru, counted in putback()) when
	 * anything was isolated. */
	mm_work(g->mm, W_ISOLATE_FOLIOS, n);
	mm_work(g->mm, W_ISOLATE_BATCHES, 1);
	mm_work(g->mm, W_LRU_LOCK, n ? 2 : 1);
	if (n)
		mm_work(g->mm, W_PUTBACK_BATCHES, 1);
	if (mg_nr_gens(g, !swappiness) == g->min_nr_gens)
		scanned = 0;
	/* pgscan counts isolated pages, as the kernel's scan_folios() does */
	for (unsigned i = 0; i < n; i++)
		sc_scanned(sc, mm_page(g->mm, iso[i]), 1);
	for (unsigned i = 0; i < n; i++)
		reclaim_isolated(g, sc, iso[i]);
	return scanned;
}

/* should_run_aging() of ~6.6: age when only MIN_NR_GENS generations are
 * left, or at MIN_NR_GENS + 1 when the youngest holds over 1/MIN_NR_GENS
 * of the pages or the oldest under 1/(MIN_NR_GENS + 2). */
static bool should_run_aging(struct mglru *g, const struct scan_control *sc, bool can_swap, uint64_t *nr_to_scan)
{
	uint64_t old = 0, young = 0, total = 0;
	if (g->min_seq[!can_swap] + g->min_nr_gens > g->max_seq) {
		*nr_to_scan = 0;
		return true;
	}
	for (int type = !can_swap; type < 2; type++) {
		for (uint64_t seq = g->min_seq[type]; seq <= g->max_seq; seq++) {
			int64_t s = g->nr_pages[mg_gen(g, seq)][type];
			uint64_t size = s > 0 ? (uint64_t)s : 0;
			total += size;
			if (seq == g->max_seq)
				young += size;
			else if (seq + g->min_nr_gens == g->max_seq)
				old += size;
		}
	}
	*nr_to_scan = total >> sc->priority;
	if (g->min_seq[!can_swap] + g->min_nr_gens < g->max_seq || !g->aging_trigger)
		return false;
	if (young * g->min_nr_gens > total)
		return true;
	if (old * (g->min_nr_gens + 2) < total)
		return true;
	return false;
}

static int64_t get_nr_to_scan(struct mglru *g, const struct scan_control *sc, bool can_swap)
{
	uint64_t nr;
	if (!should_run_aging(g, sc, can_swap, &nr))
		return (int64_t)nr;
	if (sc->priority == DEF_PRIORITY)
		return (int64_t)nr;   /* skip the aging path at the default priority */
	return mg_try_to_inc_max_seq(g, g->max_seq, can_swap, false) ? -1 : 0;
}

/* should_abort_scan().  Pages this pass sent to writeback count towards
 * the target: they are freed when the write completes, and the mm core
 * makes the allocator wait for them rather than scan for more - pagelab's
 * stand-in for the kernel's writeback throttling of reclaimers. */
static bool should_abort_scan(const struct mglru *g, const struct scan_control *sc)
{
	if (sc->nr_progress + sc->nr_reclaimed + g->wb_pass >= sc->nr_to_reclaim)
		return true;
	if (sc->who != RECLAIM_KSWAPD)
		return false;
	const struct zone *z = &g->mm->zones[0];
	return g->mm->stat.nr_free > z->wmark_high + g->min_lru_batch;
}

/* lruvec_is_reclaimable() for min_ttl: the oldest file generation was
 * born long enough ago. */
static bool old_enough(const struct mglru *g)
{
	uint64_t birth = g->timestamps[mg_gen(g, g->min_seq[MG_FILE])];
	return now_ns(g) >= birth + g->min_ttl_ns;
}

/* The pages of the generations lru_gen counts as inactive (all but
 * max_seq and max_seq - 1), file and, when it may swap, anon. */
static uint64_t inactive_pages(const struct mglru *g, bool anon)
{
	uint64_t n = 0;
	for (int type = !anon; type < 2; type++)
		for (uint64_t seq = g->min_seq[type]; seq + 1 < g->max_seq; seq++)
			n += (uint64_t)g->nr_pages[mg_gen(g, seq)][type];
	return n;
}

/* set_initial_priority(): aim one pass at roughly nr_to_reclaim. */
static void initial_priority(const struct mglru *g, uint64_t reclaimable, struct scan_control *sc)
{
	if (sc->priority != DEF_PRIORITY || sc->nr_to_reclaim < g->min_lru_batch)
		return;
	int pr = fls64(reclaimable) - 1 - fls64(sc->nr_to_reclaim - 1);
	sc->priority = pr < 0 ? 0 : pr > DEF_PRIORITY ? DEF_PRIORITY : pr;
}

/* lru_gen_shrink_node()'s set_initial_priority() under the memcg LRU:
 * node_page_state(NR_INACTIVE_FILE), plus anon when the root's lruvec
 * may swap, over every memcg's lruvec. */
void mg_node_priority(void *const *lruvecs, int n, struct scan_control *sc)
{
	const struct mglru *root = lruvecs[0];
	bool anon = mg_get_swappiness(root, sc) != 0;
	uint64_t reclaimable = 0;
	for (int i = 0; i < n; i++)
		reclaimable += inactive_pages(lruvecs[i], anon);
	initial_priority(root, reclaimable, sc);
}

/* try_to_shrink_lruvec(), with lru_gen_shrink_node()'s min_ttl and
 * set_initial_priority() before it: true when it ended because the aging
 * ran (get_nr_to_scan() < 0: the lruvec was low on cold folios). */
static bool try_to_shrink(struct mglru *g, struct scan_control *sc)
{
	int swappiness = mg_get_swappiness(g, sc);
	/* Enough pages are already being written on their way to the free
	 * list: a direct reclaimer waits for them (reclaim_throttle on
	 * writeback) instead of writing more. */
	if (sc->who == RECLAIM_DIRECT && g->mm->stat.nr_pending_free >= sc->nr_to_reclaim)
		return false;
	g->have_walk = sc->who == RECLAIM_KSWAPD;
	g->file_taken = g->unqueued_dirty = 0;
	/* lru_gen_age_node(): every generation is younger than min_ttl, so
	 * evicting would thrash the working set the user asked to protect:
	 * kswapd calls the OOM killer instead. */
	if (g->min_ttl_ns && sc->who == RECLAIM_KSWAPD && sc->priority < DEF_PRIORITY && !old_enough(g)) {
		mm_want_oom(g->mm);
		return false;
	}
	/* set_initial_priority(), the lruvec's own unless the memcg LRU
	 * did it for the node (mg_node_priority()) */
	if (!sc->lru_gen_node)
		initial_priority(g, inactive_pages(g, swappiness != 0), sc);
	uint64_t scanned = 0;
	int64_t nr_to_scan;
	for (;;) {
		nr_to_scan = get_nr_to_scan(g, sc, swappiness != 0);
		if (nr_to_scan <= 0)
			break;
		uint64_t delta = mg_evict_folios(g, sc, swappiness);
		if (!delta)
			break;
		scanned += delta;
		if (scanned >= (uint64_t)nr_to_scan)
			break;
		if (should_abort_scan(g, sc))
			break;
	}
	/* try_to_shrink_lruvec() (6.18): the file pages this pass took were
	 * all dirty and not being written: wake the flushers. */
	if (g->unqueued_dirty && g->unqueued_dirty == g->file_taken)
		mm_wakeup_flusher_threads(g->mm);
	g->have_walk = false;
	return nr_to_scan < 0;
}

/* lruvec_is_sizable() (6.6 vmscan.c): the lruvec's evictable pages, of
 * the types it may reclaim, are worth a pass at this priority (every
 * memcg here is online). */
static bool lruvec_is_sizable(const struct mglru *g, const struct scan_control *sc)
{
	uint64_t total = 0;
	for (int type = !mg_get_swappiness(g, sc); type < 2; type++)
		for (uint64_t seq = g->min_seq[type]; seq <= g->max_seq; seq++) {
			int64_t n = g->nr_pages[mg_gen(g, seq)][type];
			total += n > 0 ? (uint64_t)n : 0;
		}
	return (total >> sc->priority) != 0;
}

/* shrink(): the lruvec's part of shrink_one() / lru_gen_shrink_lruvec();
 * the memcg LRU (src/mm/memcg_lru.c) reads the verdicts it leaves. */
void mg_shrink(void *priv, struct scan_control *sc)
{
	struct mglru *g = priv;
	g->wb_pass = 0;
	sc->lru_gen_rotate = try_to_shrink(g, sc);
	sc->lru_gen_sizable = lruvec_is_sizable(g, sc);
	sc->lru_gen_abort = should_abort_scan(g, sc);
}

/* ---- inspection for tests ------------------------------------------- */

uint64_t mglru_evict(struct mglru *g, struct scan_control *sc)
{
	return mg_evict_folios(g, sc, mg_get_swappiness(g, sc));
}

int mglru_tier_idx(struct mglru *g, int type)
{
	return mg_get_tier_idx(g, type);
}
