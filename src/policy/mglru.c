/* mglru.c - the multi-generational LRU, following Linux ~6.6
 * (mm/vmscan.c "multi-gen LRU" part, include/linux/mm_inline.h
 * lru_gen_add_folio, mm/swap.c folio_inc_refs, mm/workingset.c
 * lru_gen_eviction / lru_gen_refault; Documentation/mm/multigen_lru.rst).
 *
 * Pages live in generations numbered by sequence: max_seq is the youngest
 * (shared by anon and file), min_seq[type] the oldest of each type, and
 * between MIN_NR_GENS and MAX_NR_GENS of them exist.  Faulted-in pages
 * enter max_seq.  Aging (mglru_walk.c) walks the processes' page tables,
 * test-and-clears accessed bits and moves young pages' recorded generation
 * to max_seq, then opens a new max_seq: everything else is one generation
 * older.  Eviction takes pages from the tail of the oldest generation;
 * sort_folio() first files pages whose recorded generation moved (lazy
 * promotion) or whose tier is protected.  Within a generation, tiers count
 * accesses through file descriptors (mark_page_accessed); the refault
 * feedback loop (a PID controller with only the P term) compares each
 * tier's refault rate with tier 0's to decide which tiers to protect, and
 * anon's tier-0 refault rate (gain swappiness) with file's (gain 200 -
 * swappiness) to decide which type to evict.  Shadow entries record the
 * eviction's min_seq and refs; a refault is "recent" when min_seq has not
 * moved since.
 *
 * Version details: lru_gen_add_folio() placement, should_run_aging() and
 * the refault "restore" rule are 6.6's (before 6.8's "fix underprotected
 * page cache", which also protects saturated refs in sort_folio());
 * workingset accounting follows the later fix counting every refault in
 * workingset_refault_* and the recent ones in workingset_activate_*.
 *
 * Simplified: one node, one memcg, one zone (no memcg LRU, no per-zone
 * lists, no lruvec protection); NR_HIST_GENS is 1 (no debugfs history);
 * no huge pages (the non-leaf PMD accessed bit and THP paths are absent);
 * walks are never interrupted (no contention, no -EAGAIN restarts, sizes
 * are updated at once rather than batched); folio_activate() happens at
 * once rather than through a per-CPU batch; the retry of clean survivors
 * in evict_folios() is not needed because the mm core never returns a
 * clean unmapped page it refused.  lru_gen_min_ttl: when every generation
 * is younger than min_ttl_ms kswapd invokes the OOM killer (through
 * mm->oom_wanted); the victim's exit is immediate, so there is no
 * oom_lock / existing-victim wait.  Shadows carry no memcg or node id.
 */
#include "policy.h"
#include "mglru.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

enum {
	T_SWAPPINESS, T_MIN_NR_GENS, T_MAX_NR_GENS, T_MAX_NR_TIERS, T_MIN_LRU_BATCH,
	T_MIN_TTL_MS, T_WALK_MMU, T_LOOK_AROUND, T_BLOOM, T_BLOOM_SHIFT, T_PTRS_PER_PTE, T_PTES_PER_LINE,
};

static const struct tunable mglru_tunables[] = {
	[T_SWAPPINESS] = { "swappiness", "/proc/sys/vm/swappiness", 60, 0, 200,
		"anon vs file: controller gains swappiness and 200 - swappiness" },
	[T_MIN_NR_GENS] = { "min_nr_gens", "MIN_NR_GENS (mmzone.h)", 2, 2, 6,
		"fewest generations; eviction stops and aging must run below it" },
	[T_MAX_NR_GENS] = { "max_nr_gens", "MAX_NR_GENS (mmzone.h)", 4, 4, MG_GENS_CAP,
		"most generations; must exceed min_nr_gens + 1" },
	[T_MAX_NR_TIERS] = { "max_nr_tiers", "MAX_NR_TIERS (mmzone.h)", 4, 2, MG_TIERS_CAP,
		"tiers of fd-accessed pages (refs counter of max_nr_tiers - 2 bits)" },
	[T_MIN_LRU_BATCH] = { "min_lru_batch", "MIN_LRU_BATCH = BITS_PER_LONG", 64, 1, 4096,
		"isolation batch, smallest walked mm, controller noise floor" },
	[T_MIN_TTL_MS] = { "min_ttl_ms", "/sys/kernel/mm/lru_gen/min_ttl_ms", 0, 0, 1e9,
		"kswapd leaves generations younger than this (0 = off)" },
	[T_WALK_MMU] = { "walk_mmu", "lru_gen/enabled bit 1 (LRU_GEN_MM_WALK)", 1, 0, 1,
		"age by page-table walks (0: rmap look-around only)" },
	[T_LOOK_AROUND] = { "look_around", "lru_gen_look_around() (pagelab switch)", 1, 0, 1,
		"on a young PTE found by rmap, promote young neighbours too" },
	[T_BLOOM] = { "bloom", "Bloom filters of mm_state (pagelab switch)", 1, 0, 1,
		"walk only PTE tables found dense in young PTEs last time" },
	[T_BLOOM_SHIFT] = { "bloom_shift", "BLOOM_FILTER_SHIFT (vmscan.c)", 15, 6, 24,
		"Bloom filters of 2^N bits, two hash keys of N bits each" },
	[T_PTRS_PER_PTE] = { "ptrs_per_pte", "PTRS_PER_PTE (x86-64)", 512, 8, 4096,
		"PTEs in one page-table page (PMD granularity of walks)" },
	[T_PTES_PER_LINE] = { "ptes_per_line", "cache_line_size()/sizeof(pte_t), clamped 2..8", 8, 2, 8,
		"a table is worth rewalking if 1/N of its PTEs were young" },
	{ 0 },
};

/* ---- generations ---------------------------------------------------- */

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

static inline unsigned refs_mask(const struct mglru *g) { return (1u << g->refs_width) - 1; }

/* folio_lru_refs(): accesses beyond PG_referenced, 0 .. BIT(LRU_REFS_WIDTH). */
static unsigned page_refs(const struct mglru *g, const struct page *p)
{
	(void)g;
	return p->pol32[1] + !!(p->flags & PG_workingset);
}

/* lru_tier_from_refs(): order_base_2(refs + 1), so tier 0 = 0 or 1
 * access, tier 1 = 2, tier 2 = 3-4, tier 3 = 5+. */
static unsigned tier_from_refs(unsigned refs)
{
	unsigned n = refs + 1, t = 0;
	while ((1u << t) < n)
		t++;
	return t;
}

static void clear_refs(struct page *p)
{
	p->pol32[1] = 0;
	p->flags &= ~(PG_referenced | PG_workingset);
}

static unsigned nr_gens(const struct mglru *g, int type)
{
	return (unsigned)(g->max_seq - g->min_seq[type] + 1);
}

static uint64_t now_ns(const struct mglru *g)
{
	const struct mm_ctx *c = g->mm->cur;
	return c ? c->t0 + c->user_ns + c->sys_ns : 0;
}

void mg_charge(struct mglru *g, uint64_t ns)
{
	if (g->mm->cur)
		g->mm->cur->sys_ns += ns;
}

/* Put an off-list page on generation gen's list (head, or tail when it
 * should be evicted first) and record it. */
static void gen_add(struct mglru *g, pfn_t pfn, int gen, bool tail)
{
	struct page *p = mm_page(g->mm, pfn);
	int type = mg_type(p);
	p->pol32[0] = (uint32_t)gen + 1;
	p->flags &= ~PG_active;
	g->nr_pages[gen][type]++;
	if (tail)
		lru_add_tail(&g->mm->fr, g->list[gen][type], pfn);
	else
		lru_add_head(&g->mm->fr, g->list[gen][type], pfn);
}

static void gen_del(struct mglru *g, pfn_t pfn)
{
	struct page *p = mm_page(g->mm, pfn);
	int gen = mg_page_gen(p);
	if (gen < 0)
		return;
	g->nr_pages[gen][mg_type(p)]--;
	p->pol32[0] = 0;
	lru_del(&g->mm->fr, pfn);
}

int mg_update_gen(struct mglru *g, pfn_t pfn, int gen)
{
	struct page *p = mm_page(g->mm, pfn);
	int old = mg_page_gen(p);
	if (old < 0) {
		/* Isolated by reclaim right now: shrink_folio_list() keeps it. */
		p->flags |= PG_referenced;
		return -1;
	}
	clear_refs(p);
	if (old != gen) {
		int type = mg_type(p);
		g->nr_pages[old][type]--;
		g->nr_pages[gen][type]++;
		p->pol32[0] = (uint32_t)gen + 1;
	}
	return old;
}

void mg_activate(struct mglru *g, pfn_t pfn)
{
	gen_del(g, pfn);
	gen_add(g, pfn, mg_gen(g, g->max_seq), false);
}

/* lru_gen_add_folio() of ~6.6: where a page enters. */
static void add_folio(struct mglru *g, pfn_t pfn, bool reclaiming)
{
	struct page *p = mm_page(g->mm, pfn);
	int type = mg_type(p);
	uint64_t seq;
	if (p->flags & PG_active)
		seq = g->max_seq;               /* hot: just faulted in */
	else if ((type == MG_ANON && !(p->flags & PG_swapcache)) ||
		 ((p->pol32[2] & MG_ROTATE) && (p->flags & (PG_dirty | PG_writeback))))
		seq = g->max_seq - 1;           /* cannot be evicted at once */
	else if (reclaiming || g->min_seq[type] + g->min_nr_gens >= g->max_seq)
		seq = g->min_seq[type];         /* evict first */
	else
		seq = g->min_seq[type] + 1;
	gen_add(g, pfn, mg_gen(g, seq), reclaiming);
}

/* folio_inc_gen(): move a page of the oldest generation to the next one,
 * dropping its refs; a page already promoted keeps its generation. */
int mg_inc_gen(struct mglru *g, pfn_t pfn)
{
	struct page *p = mm_page(g->mm, pfn);
	int type = mg_type(p);
	int old = mg_gen(g, g->min_seq[type]);
	int gen = mg_page_gen(p);
	if (gen != old)
		return gen;
	int next = (old + 1) % (int)g->max_nr_gens;
	clear_refs(p);
	g->nr_pages[old][type]--;
	g->nr_pages[next][type]++;
	p->pol32[0] = (uint32_t)next + 1;
	return next;
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
	pos->total = g->avg_total[type][tier] + g->evicted[type][tier];
	if (tier)
		pos->total += g->protected_[type][tier - 1];
	pos->gain = gain;
}

/* On each min_seq advance the current counts fold into the moving
 * averages (halved: an exponential decay per generation). */
void mg_reset_ctrl_pos(struct mglru *g, int type)
{
	for (unsigned t = 0; t < g->nr_tiers; t++) {
		g->avg_refaulted[type][t] = (g->avg_refaulted[type][t] + g->refaulted[type][t]) / 2;
		uint64_t sum = g->avg_total[type][t] + g->evicted[type][t];
		if (t)
			sum += g->protected_[type][t - 1];
		g->avg_total[type][t] = sum / 2;
		g->refaulted[type][t] = g->evicted[type][t] = 0;
		if (t)
			g->protected_[type][t - 1] = 0;
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
static int get_tier_idx(struct mglru *g, int type)
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

static int get_swappiness(const struct mglru *g, const struct scan_control *sc)
{
	const struct swap_area *sw = &g->mm->swap;
	if (!sc->may_swap || sw->nr_slots - sw->used < g->min_lru_batch)
		return 0;
	return g->swappiness;
}

/* sort_folio(): true if the page was filed elsewhere instead of isolated. */
static bool sort_folio(struct mglru *g, pfn_t pfn, int tier_idx)
{
	struct page *p = mm_page(g->mm, pfn);
	int type = mg_type(p);
	unsigned refs = page_refs(g, p);
	unsigned tier = tier_from_refs(refs);
	if (p->flags & PG_mlocked) {
		/* unevictable: to the unevictable list */
		gen_del(g, pfn);
		mm_cull_unevictable(g->mm, pfn);
		return true;
	}
	if (mg_page_gen(p) != mg_gen(g, g->min_seq[type])) {
		/* promoted by aging or look-around since it was filed */
		refile(g, pfn, false);
		return true;
	}
	if ((int)tier > tier_idx) {
		/* accessed through fds often enough, and that tier is protected */
		g->protected_[type][tier - 1]++;
		g->nr_protected++;
		mg_inc_gen(g, pfn);
		refile(g, pfn, true);
		return true;
	}
	if ((p->flags & (PG_locked | PG_writeback)) || (type == MG_FILE && (p->flags & PG_dirty))) {
		/* waiting for I/O: next generation, rotated when the write ends */
		mg_inc_gen(g, pfn);
		p->pol32[2] |= MG_ROTATE;
		refile(g, pfn, false);
		return true;
	}
	return false;
}

/* isolate_folio(): take it off the lists; without PG_referenced (a
 * recent fd access) its refs are history and go. */
static void isolate_folio(struct mglru *g, pfn_t pfn)
{
	struct page *p = mm_page(g->mm, pfn);
	if (!(p->flags & PG_referenced))
		clear_refs(p);
	p->pol32[2] &= ~MG_ROTATE;
	p->flags &= ~PG_referenced;
	gen_del(g, pfn);
}

/* scan_folios(): isolate up to MIN_LRU_BATCH pages from the oldest
 * generation of `type`, looking at MAX_LRU_BATCH at most. */
static uint64_t scan_folios(struct mglru *g, int type, int tier, pfn_t *iso, unsigned *nr_iso)
{
	struct frames *fr = &g->mm->fr;
	unsigned remaining = g->max_lru_batch, sorted = 0;
	uint64_t scanned = 0;
	*nr_iso = 0;
	if (nr_gens(g, type) == g->min_nr_gens)
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
			tier = get_tier_idx(g, type);
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

/* Put back a page reclaim could not free (evict_folios' survivors). */
static void putback(struct mglru *g, pfn_t pfn, bool wrote)
{
	struct page *p = mm_page(g->mm, pfn);
	if (wrote) {
		/* pageout() started: rotated to the oldest generation when the
		 * write completes (PG_reclaim in the kernel). */
		p->pol32[2] |= MG_ROTATE;
		if (p->flags & PG_workingset)
			p->flags |= PG_referenced;
	} else {
		/* referenced, mapped, locked or no swap: to the youngest
		 * generation, refs reset. */
		clear_refs(p);
		p->flags |= PG_active;
	}
	add_folio(g, pfn, false);
}

/* shrink_folio_list() for one isolated page, MGLRU flavour. */
static void reclaim_isolated(struct mglru *g, struct scan_control *sc, pfn_t pfn)
{
	struct mm *mm = g->mm;
	struct page *p = mm_page(mm, pfn);
	/* folio_update_gen() tried to promote it while it was isolated */
	if (p->mapcount > 0 && (p->flags & PG_referenced)) {
		putback(g, pfn, false);
		return;
	}
	if (!(p->flags & PG_mlocked) && p->mapcount > 0) {
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
		putback(g, pfn, false);
		return;
	}
}

/* evict_folios(): one batch from the oldest generation.  Returns pages
 * scanned (0: nothing to do without aging first). */
static uint64_t evict_folios(struct mglru *g, struct scan_control *sc, int swappiness)
{
	pfn_t iso[4096];
	unsigned n = 0;
	uint64_t scanned = isolate_folios(g, swappiness, iso, &n);
	scanned += try_to_inc_min_seq(g, swappiness != 0);
	if (nr_gens(g, !swappiness) == g->min_nr_gens)
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
	if (g->min_seq[!can_swap] + g->min_nr_gens < g->max_seq)
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
	if (sc->nr_reclaimed + g->wb_pass >= sc->nr_to_reclaim)
		return true;
	if (sc->who != RECLAIM_KSWAPD)
		return false;
	const struct zone *z = &g->mm->zones[0];
	return g->mm->nr_free > z->wmark_high + g->min_lru_batch;
}

/* lruvec_is_reclaimable() for min_ttl: the oldest file generation was
 * born long enough ago. */
static bool old_enough(const struct mglru *g)
{
	uint64_t birth = g->timestamps[mg_gen(g, g->min_seq[MG_FILE])];
	return now_ns(g) >= birth + g->min_ttl_ns;
}

static void mglru_shrink(void *priv, struct scan_control *sc)
{
	struct mglru *g = priv;
	int swappiness = get_swappiness(g, sc);
	/* Enough pages are already being written on their way to the free
	 * list: a direct reclaimer waits for them (reclaim_throttle on
	 * writeback) instead of writing more. */
	if (sc->who == RECLAIM_DIRECT && g->mm->nr_pending_free >= sc->nr_to_reclaim)
		return;
	g->have_walk = sc->who == RECLAIM_KSWAPD;
	g->wb_pass = 0;
	/* lru_gen_age_node(): every generation is younger than min_ttl, so
	 * evicting would thrash the working set the user asked to protect:
	 * kswapd calls the OOM killer instead. */
	if (g->min_ttl_ns && sc->who == RECLAIM_KSWAPD && sc->priority < DEF_PRIORITY && !old_enough(g)) {
		g->mm->oom_wanted = true;
		return;
	}
	/* set_initial_priority(): aim one pass at roughly nr_to_reclaim. */
	if (sc->priority == DEF_PRIORITY && sc->nr_to_reclaim >= g->min_lru_batch) {
		uint64_t reclaimable = 0;
		for (int type = !swappiness; type < 2; type++)
			for (uint64_t seq = g->min_seq[type]; seq + 1 < g->max_seq; seq++)
				reclaimable += (uint64_t)g->nr_pages[mg_gen(g, seq)][type];
		int pr = fls64(reclaimable) - 1 - fls64(sc->nr_to_reclaim - 1);
		sc->priority = pr < 0 ? 0 : pr > DEF_PRIORITY ? DEF_PRIORITY : pr;
	}
	uint64_t scanned = 0;
	for (;;) {
		int64_t nr_to_scan = get_nr_to_scan(g, sc, swappiness != 0);
		if (nr_to_scan <= 0)
			break;
		uint64_t delta = evict_folios(g, sc, swappiness);
		if (!delta)
			break;
		scanned += delta;
		if (scanned >= (uint64_t)nr_to_scan)
			break;
		if (should_abort_scan(g, sc))
			break;
	}
	g->have_walk = false;
}

/* ---- policy hooks --------------------------------------------------- */

static void mglru_add(void *priv, pfn_t pfn, enum add_reason why)
{
	struct mglru *g = priv;
	struct page *p = mm_page(g->mm, pfn);
	/* folio_add_lru(): pages added by a page fault are hot. */
	bool in_fault = why == ADD_NEW_ANON || why == ADD_SWAPIN || why == ADD_SWAPCACHE ||
			(why == ADD_REFAULT && mg_type(p) == MG_ANON);
	if (in_fault)
		p->flags |= PG_active;
	add_folio(g, pfn, false);
}

static void mglru_remove(void *priv, pfn_t pfn)
{
	struct mglru *g = priv;
	struct page *p = mm_page(g->mm, pfn);
	gen_del(g, pfn);
	p->pol32[1] = p->pol32[2] = 0;
}

/* folio_mark_accessed() -> folio_inc_refs(): the fd channel.  The first
 * access sets PG_referenced, the second PG_workingset, later ones count
 * in the refs bits (saturating).  Pages do not move between lists. */
static void mglru_mark_accessed(void *priv, pfn_t pfn)
{
	struct mglru *g = priv;
	struct page *p = mm_page(g->mm, pfn);
	if (p->flags & PG_unevictable)
		return;
	if (!(p->flags & PG_referenced))
		p->flags |= PG_referenced;
	else if (!(p->flags & PG_workingset))
		p->flags |= PG_workingset;
	else if (p->pol32[1] < refs_mask(g))
		p->pol32[1]++;
}

/* folio_end_writeback() -> folio_rotate_reclaimable(): a page written
 * for reclaim goes to the tail of the oldest generation. */
static void mglru_end_writeback(void *priv, pfn_t pfn)
{
	struct mglru *g = priv;
	struct page *p = mm_page(g->mm, pfn);
	if (!(p->pol32[2] & MG_ROTATE) || mg_page_gen(p) < 0)
		return;
	p->pol32[2] &= ~MG_ROTATE;
	gen_del(g, pfn);
	p->flags &= ~PG_active;
	add_folio(g, pfn, true);
	g->nr_rotated_wb++;
	g->mm->ev[PGROTATED]++;
}

/* Shadow layout (lru_gen_eviction's token, without memcg and node):
 * bit 0 always set (0 means "no shadow"), bit 1 workingset (refs > 0),
 * bit 2 type, bits 3.. (min_seq << LRU_REFS_WIDTH | max(refs - 1, 0)). */
static uint64_t mglru_evict_shadow(void *priv, pfn_t pfn)
{
	struct mglru *g = priv;
	struct page *p = mm_page(g->mm, pfn);
	int type = mg_type(p);
	unsigned refs = page_refs(g, p);
	unsigned tier = tier_from_refs(refs);
	uint64_t token = (g->min_seq[type] << g->refs_width) | (refs ? refs - 1 : 0);
	g->evicted[type][tier]++;
	return (token << 3) | ((uint64_t)type << 2) | (refs ? 2u : 0u) | 1u;
}

/* lru_gen_refault(): recent if min_seq has not moved since the eviction. */
static void mglru_refault(void *priv, pfn_t pfn, uint64_t shadow)
{
	struct mglru *g = priv;
	struct page *p = mm_page(g->mm, pfn);
	int type = mg_type(p);
	if ((int)((shadow >> 2) & 1) != type)
		return;
	bool workingset = shadow & 2;
	uint64_t token = shadow >> 3;
	g->mm->ev[type == MG_ANON ? WORKINGSET_REFAULT_ANON : WORKINGSET_REFAULT_FILE]++;
	if ((token >> g->refs_width) != g->min_seq[type])
		return;
	unsigned refs = (unsigned)(token & refs_mask(g)) + workingset;
	unsigned tier = tier_from_refs(refs);
	g->refaulted[type][tier]++;
	g->mm->ev[type == MG_ANON ? WORKINGSET_ACTIVATE_ANON : WORKINGSET_ACTIVATE_FILE]++;
	/* Stalls: hot mapped pages pushed out by hotter ones (refaulting in
	 * a fault), and fd pages whose refs saturated. */
	bool in_fault = type == MG_ANON;
	if (in_fault || refs == (1u << g->refs_width)) {
		p->flags |= PG_workingset;
		g->mm->ev[type == MG_ANON ? WORKINGSET_RESTORE_ANON : WORKINGSET_RESTORE_FILE]++;
	}
}

static void *mglru_init(struct mm *mm, const double *tun)
{
	struct mglru *g = xcalloc(1, sizeof(*g));
	mm_flusher_era(mm, FLUSHER_PERBDI); /* flush-8:0, IO-less throttling, 20/10 */
	double def[ARRAY_SIZE(mglru_tunables)];
	if (!tun) {
		for (size_t i = 0; i + 1 < ARRAY_SIZE(mglru_tunables); i++)
			def[i] = mglru_tunables[i].def;
		tun = def;
	}
	g->mm = mm;
	g->swappiness = (int)tun[T_SWAPPINESS];
	g->min_nr_gens = (unsigned)tun[T_MIN_NR_GENS];
	g->max_nr_gens = (unsigned)tun[T_MAX_NR_GENS];
	g->nr_tiers = (unsigned)tun[T_MAX_NR_TIERS];
	g->refs_width = g->nr_tiers - 2;
	g->min_lru_batch = (unsigned)tun[T_MIN_LRU_BATCH];
	/* MAX_LRU_BATCH = MIN_LRU_BATCH * 64, capped (pagelab) at the
	 * isolation array of evict_folios() for outsized min_lru_batch. */
	g->max_lru_batch = 64 * g->min_lru_batch;
	if (g->max_lru_batch > 4096)
		g->max_lru_batch = 4096;
	g->min_ttl_ns = (uint64_t)(tun[T_MIN_TTL_MS] * 1e6);
	g->walk_mmu = tun[T_WALK_MMU] != 0;
	g->look_around = tun[T_LOOK_AROUND] != 0;
	g->bloom = tun[T_BLOOM] != 0;
	g->bloom_shift = (unsigned)tun[T_BLOOM_SHIFT];
	g->ptrs_per_pte = (unsigned)tun[T_PTRS_PER_PTE];
	g->ptes_per_line = (unsigned)tun[T_PTES_PER_LINE];
	/* BUILD_BUG_ON(MIN_NR_GENS + 1 >= MAX_NR_GENS) */
	if (g->min_nr_gens + 1 >= g->max_nr_gens)
		die_usage("mglru: max_nr_gens (%u) must exceed min_nr_gens + 1 (%u)",
			  g->max_nr_gens, g->min_nr_gens + 1);
	static const char *const names[MG_GENS_CAP][2] = {
		{ "mglru gen0 anon", "mglru gen0 file" }, { "mglru gen1 anon", "mglru gen1 file" },
		{ "mglru gen2 anon", "mglru gen2 file" }, { "mglru gen3 anon", "mglru gen3 file" },
		{ "mglru gen4 anon", "mglru gen4 file" }, { "mglru gen5 anon", "mglru gen5 file" },
		{ "mglru gen6 anon", "mglru gen6 file" }, { "mglru gen7 anon", "mglru gen7 file" },
	};
	for (unsigned gen = 0; gen < g->max_nr_gens; gen++)
		for (int type = 0; type < 2; type++)
			g->list[gen][type] = lru_register(&mm->fr, names[gen][type]);
	/* lru_gen_init_lruvec() */
	g->max_seq = g->min_nr_gens + 1;
	g->mm_seq = g->min_nr_gens;
	mg_set_active_gens(g);
	mg_walk_init(g);
	return g;
}

static void mglru_destroy(void *priv)
{
	struct mglru *g = priv;
	mg_walk_destroy(g);
	free(g);
}

static bool mglru_check(void *priv, FILE *err)
{
	struct mglru *g = priv;
	struct frames *fr = &g->mm->fr;
	bool ok = true;
	int64_t count[MG_GENS_CAP][2] = { { 0 } };
	for (int type = 0; type < 2; type++) {
		unsigned n = nr_gens(g, type);
		if (n < g->min_nr_gens || n > g->max_nr_gens) {
			fprintf(err, "check: mglru: %s has %u generations (min_seq %llu, max_seq %llu)\n",
				type ? "file" : "anon", n, (unsigned long long)g->min_seq[type],
				(unsigned long long)g->max_seq);
			ok = false;
		}
	}
	if (g->min_seq[MG_FILE] < g->min_seq[MG_ANON]) {
		fprintf(err, "check: mglru: file min_seq behind anon's\n");
		ok = false;
	}
	for (unsigned gen = 0; gen < g->max_nr_gens; gen++) {
		for (int type = 0; type < 2; type++) {
			int l = g->list[gen][type];
			bool in_window = false;
			for (uint64_t seq = g->min_seq[type]; seq <= g->max_seq; seq++)
				in_window |= mg_gen(g, seq) == (int)gen;
			if (!in_window && lru_count(fr, l)) {
				fprintf(err, "check: mglru: list %s outside [min_seq, max_seq] holds %llu pages\n",
					fr->lists[l].name, (unsigned long long)lru_count(fr, l));
				ok = false;
			}
			for (pfn_t pfn = lru_head(fr, l); pfn != PFN_NONE; pfn = fr->pages[pfn].next) {
				const struct page *p = &fr->pages[pfn];
				int pg = mg_page_gen(p);
				if (mg_type(p) != type || pg < 0 || pg >= (int)g->max_nr_gens) {
					fprintf(err, "check: mglru: pfn %u on %s has type %d gen %d\n",
						pfn, fr->lists[l].name, mg_type(p), pg);
					ok = false;
					continue;
				}
				count[pg][type]++;
				if (p->flags & (PG_active | PG_unevictable | PG_free)) {
					fprintf(err, "check: mglru: pfn %u on %s has flags %#x\n", pfn, fr->lists[l].name, p->flags);
					ok = false;
				}
			}
		}
	}
	for (unsigned gen = 0; gen < g->max_nr_gens; gen++)
		for (int type = 0; type < 2; type++)
			if (count[gen][type] != g->nr_pages[gen][type]) {
				fprintf(err, "check: mglru: gen %u %s: %lld pages recorded, nr_pages says %lld\n",
					gen, type ? "file" : "anon", (long long)count[gen][type],
					(long long)g->nr_pages[gen][type]);
				ok = false;
			}
	return ok;
}

/* ---- inspection for tests ------------------------------------------- */

extern const struct policy_ops mglru_policy;

struct mglru *mglru_of(struct mm *mm)
{
	return mm->pol.ops == &mglru_policy ? mm->pol.priv : NULL;
}

uint64_t mglru_page_seq(struct mglru *g, pfn_t pfn)
{
	const struct page *p = mm_page(g->mm, pfn);
	int gen = mg_page_gen(p);
	if (gen < 0 || p->lru == LRU_NONE)
		return UINT64_MAX;
	for (uint64_t seq = g->min_seq[mg_type(p)]; seq <= g->max_seq; seq++)
		if (mg_gen(g, seq) == gen)
			return seq;
	return UINT64_MAX;
}

unsigned mglru_page_tier(struct mglru *g, pfn_t pfn)
{
	return tier_from_refs(page_refs(g, mm_page(g->mm, pfn)));
}

bool mglru_age(struct mglru *g, bool force_scan)
{
	return mg_try_to_inc_max_seq(g, g->max_seq, true, force_scan);
}

uint64_t mglru_evict(struct mglru *g, struct scan_control *sc)
{
	return evict_folios(g, sc, get_swappiness(g, sc));
}

int mglru_tier_idx(struct mglru *g, int type)
{
	return get_tier_idx(g, type);
}

const struct policy_ops mglru_policy = {
	.name = "mglru",
	.summary = "multi-gen LRU (6.1+, as of ~6.6): generations aged by page-table walks, tiers, refault PID control",
	.tunables = mglru_tunables,
	.init = mglru_init,
	.destroy = mglru_destroy,
	.add = mglru_add,
	.remove = mglru_remove,
	.mark_accessed = mglru_mark_accessed,
	.shrink = mglru_shrink,
	.end_writeback = mglru_end_writeback,
	.check = mglru_check,
	.evict_shadow = mglru_evict_shadow,
	.refault = mglru_refault,
};
