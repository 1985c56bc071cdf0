/* mglru.c - the multi-generational LRU, following Linux ~6.6
 * (mm/vmscan.c "multi-gen LRU" part, include/linux/mm_inline.h
 * lru_gen_add_folio, mm/swap.c folio_inc_refs, mm/workingset.c
 * lru_gen_eviction / lru_gen_refault; Documentation/mm/multigen_lru.rst).
 * Its init turns on 6.x's write-fault dirtying of shared file pages
 * (vm.dirty_fault, mm/memory.c fault_dirty_shared_page()), cgroup
 * writeback (vm.cgroup_writeback, 6.18 mm/page-writeback.c) and 6.18's
 * swap readahead (vm.swap_vma_ra, mm/swap_state.c swapin_readahead()).
 *
 * Pages live in generations numbered by sequence: max_seq is the
 * youngest (shared by anon and file), min_seq[type] the oldest of each
 * type, and between MIN_NR_GENS and MAX_NR_GENS of them
 * exist.  Faulted-in pages enter max_seq.  Aging (mglru_walk.c) walks the
 * processes' page tables, test-and-clears accessed bits and moves young
 * pages' recorded generation to max_seq, then opens a new max_seq:
 * everything else is one generation older.  Eviction (mglru_evict.c)
 * takes pages from the tail of the oldest generation; sort_folio() first
 * files pages whose recorded generation moved (lazy promotion) or whose
 * tier is protected.  Within a generation, tiers count accesses through
 * file descriptors (mark_page_accessed); the refault feedback loop (a
 * PID controller with only the P term) compares each tier's refault rate
 * with tier 0's to decide which tiers to protect, and anon's tier-0
 * refault rate (gain swappiness) with file's (gain 200 - swappiness) to
 * decide which type to evict.  Shadow entries record the eviction's
 * min_seq and refs; a refault is "recent" when min_seq has not moved
 * since.
 *
 * Version details: lru_gen_add_folio() placement, should_run_aging() and
 * the refault "restore" rule are 6.6's (before 6.8's "fix underprotected
 * page cache", which also protects saturated refs in sort_folio());
 * workingset accounting follows the later fix counting every refault in
 * workingset_refault_* and the recent ones in workingset_activate_*.
 * mm/swap.c folio_add_lru() (6.1-6.18) marks every folio added during a
 * page fault active (lru_gen_in_fault(), set by handle_mm_fault() for a
 * VMA with recency): anon pages, and page-cache pages a fault on a file
 * mapping reads or reads ahead; read() and write() add theirs inactive.
 *
 * Two version switches (default 0 = the 6.6 code above) give this host's
 * 6.18 instead (docs/mglru.md, "6.18 switches"):
 *   folio_seq=1: include/linux/mm_inline.h lru_gen_folio_seq() (6.14+,
 *     6.18): PG_active gives max_seq - 1, max_seq only with PG_workingset;
 *     anon outside the swap cache and dirty PG_reclaim folios max_seq - 1;
 *     reclaim's tail adds min_seq; the rest max_seq - MAX_NR_GENS + 1, or
 *     one younger with PG_workingset; never below min_seq.
 *   workingset_rework=1: "mm/mglru: rework workingset protection" (Yu
 *     Zhao, 6.14): shrink_folio_list() no longer keeps a mapped folio
 *     folio_update_gen() marked PG_referenced while isolated (that now
 *     does nothing to an isolated folio but a first PG_referenced);
 *     folio_update_gen() and lru_gen_set_refs() (folio_check_references,
 *     look-around) set PG_referenced on a first young PTE and promote
 *     only on a second, setting PG_workingset; isolate_folio() keeps
 *     PG_referenced and PG_workingset; lru_gen_inc_refs() counts
 *     PG_referenced, the refs bits, then PG_workingset; PG_workingset is
 *     the last tier (lru_tier_from_refs(refs, workingset)), a full count
 *     plus PG_workingset is promoted by sort_folio() unprotected-counted;
 *     folio_inc_gen() keeps PG_workingset; evict_folios() puts a
 *     survivor PG_active only when lru_gen_folio_seq() says min_seq;
 *     lru_gen_refault() restores PG_workingset or the refs;
 *     inc_min_seq() counts each folio it moves up in
 *     lrugen->protected[tier] (tier 0 included, the layout of 6.14's
 *     "rework aging feedback"; 6.6 counts none), less the lazily
 *     promoted ones.  Not modelled: 6.14's "rework refault detection"
 *     (the recent test is still 6.6's), "rework type selection" (the
 *     controller stays 6.6's get_type_to_scan() and get_tier_idx()) and
 *     the rest of "rework aging feedback" (should_run_aging(), anon
 *     min_seq passing file's).
 *
 * Under a --cgroup tree each cgroup has an instance (its lruvec) and
 * global reclaim visits them through the memcg LRU of generations, which
 * the mm core keeps (src/mm/memcg_lru.c; memcg_lru=0: a pre-order walk):
 * shrink() leaves it try_to_shrink_lruvec()'s verdict, lruvec_is_sizable()
 * and should_abort_scan() in the scan_control.
 *
 * Simplified: one node, one zone (no per-zone lists, no lruvec
 * protection); NR_HIST_GENS is 1 (no debugfs history);
 * no huge pages (the non-leaf PMD accessed bit and THP paths are absent);
 * walks are never interrupted (no contention, no -EAGAIN restarts, sizes
 * are updated at once rather than batched); folio_activate() happens at
 * once rather than through a per-CPU batch; the retry of clean survivors
 * in evict_folios() is not needed because the mm core never returns a
 * clean unmapped page it refused.  lru_gen_min_ttl: when every generation
 * is younger than min_ttl_ms kswapd invokes the OOM killer (through
 * mm_want_oom()); the victim's exit is immediate, so there is no
 * oom_lock / existing-victim wait.  Shadows carry no memcg or node id.
 */
#include "../policy.h"
#include "mglru.h"
#include "../../mm/filemap.h"
#include "../../lib/util.h"

#include <stdlib.h>
#include <string.h>

enum {
	T_SWAPPINESS, T_MIN_NR_GENS, T_MAX_NR_GENS, T_MAX_NR_TIERS, T_MIN_LRU_BATCH,
	T_MIN_TTL_MS, T_WALK_MMU, T_LOOK_AROUND, T_BLOOM, T_BLOOM_SHIFT, T_PTRS_PER_PTE, T_PTES_PER_LINE,
	T_TIERS, T_AGING_TRIGGER, T_FOLIO_SEQ, T_WORKINGSET_REWORK, T_MEMCG_LRU,
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
	/* Mechanism switches (docs/policies.md): 1 = the kernel's code, 0 =
	 * without the mechanism; walk_mmu, look_around and bloom above are
	 * switches too. */
	[T_TIERS] = { "tiers", "get_tier_idx() / sort_folio() protected (vmscan.c)", 1, 0, 1,
		"1 = protect fd-accessed tiers that refault more than tier 0; 0 = no tier is protected, "
		"sort_folio() evicts them like tier 0 (the controller still picks anon vs file)" },
	[T_AGING_TRIGGER] = { "aging_trigger", "should_run_aging() young/old sizes (vmscan.c, 6.6)", 1, 0, 1,
		"1 = at MIN_NR_GENS + 1 generations age early when the youngest is large or the oldest small; "
		"0 = age only when eviction cannot go on (MIN_NR_GENS left)" },
	/* Version switches: 0 = the 6.6 code this file follows, 1 = this
	 * host's 6.18 (see the opening comment). */
	[T_FOLIO_SEQ] = { "folio_seq", "lru_gen_folio_seq() (mm_inline.h, 6.14+)", 0, 0, 1,
		"where an added folio enters: 0 = 6.6 lru_gen_add_folio(), active in max_seq; "
		"1 = 6.18, active in max_seq - 1 (max_seq with PG_workingset), inactive by PG_workingset" },
	[T_WORKINGSET_REWORK] = { "workingset_rework", "mm/mglru: rework workingset protection (6.14)", 0, 0, 1,
		"0 = 6.6 refs, tiers and eviction checks; 1 = 6.14+: no keep of a mapped folio referenced "
		"while isolated, PTE accesses set PG_referenced then PG_workingset, PG_workingset is the last tier, "
		"inc_min_seq() counts the folios it moves up as protected" },
	/* A mechanism switch of the mm core's (src/mm/memcg_lru.c), which
	 * the policy turns on with POLICY_MEMCG_GEN_LRU (mglru_flags()). */
	[T_MEMCG_LRU] = { "memcg_lru", "pgdat->memcg_lru, shrink_many() (vmscan.c, 6.6)", 1, 0, 1,
		"under --cgroup, global reclaim: 1 = the memcg LRU of generations (memcgs in old and young "
		"bins, rotated by what shrink_one() returned); 0 = shrink_node_memcgs()'s pre-order walk "
		"of every cgroup, each lruvec to its own target (as limit reclaim does)" },
	{ 0 },
};

/* ---- generations ---------------------------------------------------- */

static inline unsigned refs_mask(const struct mglru *g) { return (1u << g->refs_width) - 1; }

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

void mg_gen_del(struct mglru *g, pfn_t pfn)
{
	struct page *p = mm_page(g->mm, pfn);
	int gen = mg_page_gen(p);
	if (gen < 0)
		return;
	g->nr_pages[gen][mg_type(p)]--;
	p->pol32[0] = 0;
	lru_del(&g->mm->fr, pfn);
}

/* Record a new generation for an on-list page (lazily: the physical list
 * is fixed by sort_folio()). */
static void mg_move_gen(struct mglru *g, struct page *p, int old, int gen)
{
	if (old == gen)
		return;
	int type = mg_type(p);
	g->nr_pages[old][type]--;
	g->nr_pages[gen][type]++;
	p->pol32[0] = (uint32_t)gen + 1;
}

/* folio_update_gen() after 6.14's rework: a first young PTE only sets
 * PG_referenced (even on an isolated folio: the test comes first); the
 * next promotes, clears LRU_REFS_FLAGS and sets PG_workingset. */
static int update_gen_618(struct mglru *g, struct page *p, int gen)
{
	int old = mg_page_gen(p);
	if (!(p->flags & (PG_referenced | PG_workingset))) {
		p->pol32[1] = 0;
		p->flags |= PG_referenced;
		return -1;
	}
	if (old < 0)
		return -1;
	mg_clear_refs_flags(p);
	p->flags |= PG_workingset;
	mg_move_gen(g, p, old, gen);
	return old;
}

int mg_update_gen(struct mglru *g, pfn_t pfn, int gen)
{
	struct page *p = mm_page(g->mm, pfn);
	if (g->ws_rework)
		return update_gen_618(g, p, gen);
	int old = mg_page_gen(p);
	if (old < 0) {
		/* Isolated by reclaim right now: shrink_folio_list() keeps it. */
		p->flags |= PG_referenced;
		return -1;
	}
	mg_clear_refs(p);
	mg_move_gen(g, p, old, gen);
	return old;
}

bool mg_set_refs(struct page *p)
{
	if (!(p->flags & (PG_referenced | PG_workingset))) {
		p->pol32[1] = 0;
		p->flags |= PG_referenced;
		return false;
	}
	mg_clear_refs_flags(p);
	p->flags |= PG_workingset;
	return true;
}

void mg_activate(struct mglru *g, pfn_t pfn)
{
	mg_gen_del(g, pfn);
	mm_page(g->mm, pfn)->flags |= PG_active;
	mg_add_folio(g, pfn, false);
}

/* lru_gen_folio_seq() of 6.18: PG_active (set while isolated: a fault or
 * a promotion) gives max_seq - 1, or max_seq with PG_workingset;
 * reclaim's tail adds the oldest; anon outside the swap cache and
 * PG_reclaim folios still dirty or under writeback max_seq - 1; the rest
 * the oldest, or the next with PG_workingset.  MAX_NR_GENS and
 * MIN_NR_GENS are the tunables; never below min_seq. */
uint64_t mg_folio_seq_618(const struct mglru *g, const struct page *p, bool reclaiming)
{
	int type = mg_type(p);
	unsigned ws = (p->flags & PG_workingset) ? 1 : 0, gen;
	if (p->flags & PG_active)
		gen = g->min_nr_gens - ws;
	else if (reclaiming)
		gen = g->max_nr_gens;
	else if ((type == MG_ANON && !(p->flags & PG_swapcache)) ||
		 ((p->pol32[2] & MG_ROTATE) && (p->flags & (PG_dirty | PG_writeback))))
		gen = g->min_nr_gens;
	else
		gen = g->max_nr_gens - ws;
	uint64_t lo = g->min_seq[type];
	return g->max_seq + 1 >= lo + gen ? g->max_seq + 1 - gen : lo;
}

/* lru_gen_add_folio(): where a page enters. */
void mg_add_folio(struct mglru *g, pfn_t pfn, bool reclaiming)
{
	struct page *p = mm_page(g->mm, pfn);
	int type = mg_type(p);
	uint64_t seq;
	if (g->folio_seq)
		seq = mg_folio_seq_618(g, p, reclaiming);
	else if (p->flags & PG_active)
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
	if (g->ws_rework)
		mg_clear_refs_flags(p);   /* 6.14+: PG_workingset stays */
	else
		mg_clear_refs(p);
	g->nr_pages[old][type]--;
	g->nr_pages[next][type]++;
	p->pol32[0] = (uint32_t)next + 1;
	return next;
}

/* ---- policy hooks --------------------------------------------------- */

/* lru_gen_in_fault(): a page fault is being served (6.x handle_mm_fault()
 * sets current->in_lru_fault around it for every VMA with recency, i.e.
 * without MADV_SEQUENTIAL/RANDOM, which pagelab does not model).  Anon
 * pages come in through faults only; a page-cache page does when a fault
 * on a file mapping reads it, or reads it ahead (filemap_fault's sync
 * and async readahead add their folios inside the fault), but not when
 * read() or write() does. */
static bool in_lru_fault(const struct mglru *g, const struct page *p)
{
	return mg_type(p) == MG_ANON || g->mm->fault.owner != 0;
}

static void mglru_add(void *priv, pfn_t pfn, enum add_reason why)
{
	struct mglru *g = priv;
	struct page *p = mm_page(g->mm, pfn);
	/* folio_add_lru(): pages added during a page fault are hot. */
	bool in_fault = why == ADD_NEW_ANON || why == ADD_SWAPIN || why == ADD_SWAPCACHE ||
			((why == ADD_REFAULT || why == ADD_PAGECACHE) && in_lru_fault(g, p));
	if (in_fault)
		p->flags |= PG_active;
	mg_add_folio(g, pfn, false);
}

static void mglru_remove(void *priv, pfn_t pfn)
{
	struct mglru *g = priv;
	struct page *p = mm_page(g->mm, pfn);
	mg_gen_del(g, pfn);
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
	if (g->ws_rework) {
		/* 6.14+ lru_gen_inc_refs(): PG_referenced, then the refs
		 * bits, then PG_workingset once they are full. */
		if (!(p->flags & PG_referenced)) {
			p->pol32[1] = 0;
			p->flags |= PG_referenced;
		} else if (p->pol32[1] == refs_mask(g)) {
			p->flags |= PG_workingset;
		} else {
			p->pol32[1]++;
		}
		return;
	}
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
	mg_gen_del(g, pfn);
	p->flags &= ~PG_active;
	mg_add_folio(g, pfn, true);
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
	unsigned refs = mg_refs(g, p);
	unsigned tier = mg_tier(g, p);
	uint64_t token = (g->min_seq[type] << g->refs_width) | (refs ? refs - 1 : 0);
	g->evicted[type][tier]++;
	/* 6.6 packs refs > 0 as "workingset", 6.14+ PG_workingset itself */
	bool ws = g->ws_rework ? (p->flags & PG_workingset) != 0 : refs > 0;
	return (token << 3) | ((uint64_t)type << 2) | (ws ? 2u : 0u) | 1u;
}

/* lru_gen_refault() after 6.14's rework, for a recent refault: the tier
 * from the shadow's refs and workingset bit; workingset_activate only for
 * a refault in a fault (folio_add_lru() makes that one active); the
 * workingset bit restores PG_workingset, else the refs bits come back
 * (valid only once PG_referenced is set again). */
static void refault_618(struct mglru *g, struct page *p, int type, uint64_t token, bool workingset)
{
	unsigned refs = (unsigned)(token & refs_mask(g)) + 1;
	unsigned tier = workingset ? g->nr_tiers - 1 : mg_tier_from_refs(refs - 1);
	g->refaulted[type][tier]++;
	if (in_lru_fault(g, p))
		g->mm->ev[type == MG_ANON ? WORKINGSET_ACTIVATE_ANON : WORKINGSET_ACTIVATE_FILE]++;
	if (workingset) {
		p->flags |= PG_workingset;
		g->mm->ev[type == MG_ANON ? WORKINGSET_RESTORE_ANON : WORKINGSET_RESTORE_FILE]++;
	} else {
		p->pol32[1] = refs - 1;
	}
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
	if (g->ws_rework) {
		refault_618(g, p, type, token, workingset);
		return;
	}
	unsigned refs = (unsigned)(token & refs_mask(g)) + workingset;
	unsigned tier = mg_tier_from_refs(refs);
	g->refaulted[type][tier]++;
	g->mm->ev[type == MG_ANON ? WORKINGSET_ACTIVATE_ANON : WORKINGSET_ACTIVATE_FILE]++;
	/* Stalls: hot mapped pages pushed out by hotter ones (refaulting in
	 * a fault), and fd pages whose refs saturated. */
	if (in_lru_fault(g, p) || refs == (1u << g->refs_width)) {
		p->flags |= PG_workingset;
		g->mm->ev[type == MG_ANON ? WORKINGSET_RESTORE_ANON : WORKINGSET_RESTORE_FILE]++;
	}
}

/* BUILD_BUG_ON(MIN_NR_GENS + 1 >= MAX_NR_GENS): eviction needs a
 * generation beyond the MIN_NR_GENS it may not touch and the one aging
 * is filling. */
static bool mglru_check_tunables(const double *tun, char *err, size_t errlen)
{
	if (tun[T_MIN_NR_GENS] + 1 >= tun[T_MAX_NR_GENS]) {
		snprintf(err, errlen, "mglru: max_nr_gens (%g) must exceed min_nr_gens + 1 (%g)",
			 tun[T_MAX_NR_GENS], tun[T_MIN_NR_GENS] + 1);
		return false;
	}
	return true;
}

/* memcg_lru=1 (the default): the core's global reclaim goes through
 * the memcg LRU, and shrink() reports what shrink_one() needs. */
static unsigned mglru_flags(const double *tun)
{
	return !tun || tun[T_MEMCG_LRU] != 0 ? POLICY_MEMCG_GEN_LRU : 0;
}

static void *mglru_init(struct mm *mm, const double *tun)
{
	struct mglru *g = xcalloc(1, sizeof(*g));
	/* The 6.x machinery around the LRU, linux6's too: 6.18's
	 * swapin_readahead() does not depend on the LRU (the VMA window, or
	 * swap_cluster_readahead() from a rotating disk: src/mm/swapin.c),
	 * not 2.6's valid_swaphandles(). */
	mm_vm_era_6x(mm);
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
	g->tiers = tun[T_TIERS] != 0;
	g->aging_trigger = tun[T_AGING_TRIGGER] != 0;
	g->folio_seq = tun[T_FOLIO_SEQ] != 0;
	g->ws_rework = tun[T_WORKINGSET_REWORK] != 0;
	/* run checks first; sweeps and experiment files reach init directly */
	char why[160];
	if (!mglru_check_tunables(tun, why, sizeof(why)))
		die_usage("%s", why);
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
	mm_work_keep(mm, WORK_BIT(W_ISOLATE_FOLIOS) | WORK_BIT(W_ISOLATE_BATCHES) | WORK_BIT(W_MOVE_FOLIOS_TO_LRU) |
		     WORK_BIT(W_PUTBACK_BATCHES) | WORK_BIT(W_LRU_LOCK) | WORK_BIT(W_INC_MAX_SEQ) |
		     WORK_BIT(W_WALK_MM) | WORK_BIT(W_WALK_PMD_FOUND) | WORK_BIT(W_WALK_PMD_SKIPPED) |
		     WORK_BIT(W_WALK_PTES) | WORK_BIT(W_WALK_PTES_YOUNG) | WORK_BIT(W_LOOK_AROUND) |
		     WORK_BIT(W_LOOK_AROUND_PTES));
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
		unsigned n = mg_nr_gens(g, type);
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
			for (pfn_t pfn = lru_head(fr, l); pfn != PFN_NONE; pfn = lru_next(fr, pfn)) {
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
	if (gen < 0 || lru_on(&g->mm->fr, pfn) == LRU_NONE)
		return UINT64_MAX;
	for (uint64_t seq = g->min_seq[mg_type(p)]; seq <= g->max_seq; seq++)
		if (mg_gen(g, seq) == gen)
			return seq;
	return UINT64_MAX;
}

unsigned mglru_page_tier(struct mglru *g, pfn_t pfn)
{
	return mg_tier(g, mm_page(g->mm, pfn));
}

bool mglru_age(struct mglru *g, bool force_scan)
{
	return mg_try_to_inc_max_seq(g, g->max_seq, true, force_scan);
}

const struct policy_ops mglru_policy = {
	.name = "mglru",
	.summary = "multi-gen LRU (6.1+, as of ~6.6): generations aged by page-table walks, tiers, refault PID control",
	.flags = POLICY_MEMCG_LRU,
	.tunables = mglru_tunables,
	.check_tunables = mglru_check_tunables,
	.tunable_flags = mglru_flags,
	.init = mglru_init,
	.destroy = mglru_destroy,
	.add = mglru_add,
	.remove = mglru_remove,
	.mark_accessed = mglru_mark_accessed,
	.shrink = mg_shrink,
	.node_priority = mg_node_priority,
	.end_writeback = mglru_end_writeback,
	.check = mglru_check,
	.evict_shadow = mglru_evict_shadow,
	.refault = mglru_refault,
};
