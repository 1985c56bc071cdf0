/* mm.c - frames, zones, watermarks, the page allocator and the reclaim
 * driver that runs a policy's shrink() for kswapd and direct reclaim. */
#include "internal.h"
#include "swap.h"
#include "zram.h"
#include "zram_wb.h"
#include "zswap.h"
#include "swap_cluster.h"
#include "filemap.h"
#include "memcg_lru.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

const char *const vm_event_names[NR_VM_EVENTS] = {
#define X(id, name) name,
	VM_EVENTS(X)
#undef X
};

/* 2.6's init_per_zone_pages_min(): min_free_kbytes = sqrt(lowmem_kbytes * 16),
 * clamped to [128, 65536]; each zone's min is its share, low = min + min/4,
 * high = min + min/2. */
static void setup_watermarks(struct mm *mm, const struct mm_config *cfg)
{
	struct zone *z = &mm->zones[0];
	if (cfg->no_watermarks) {
		z->wmark_min = z->wmark_low = z->wmark_high = 0;
		return;
	}
	uint64_t kb = cfg->min_free_kbytes;
	uint64_t min;
	if (kb) {
		min = kb / (PAGE_SIZE / 1024); /* as asked: machine_init() refuses too much */
	} else {
		kb = isqrt64(cfg->ram_pages * (PAGE_SIZE / 1024) * 16);
		kb = kb < 128 ? 128 : kb > 65536 ? 65536 : kb;
		min = kb / (PAGE_SIZE / 1024);
		/* The 128 KB floor would leave a machine of a few hundred KB
		 * nothing above its high watermark (high = 1.5 min): below
		 * 3 * min pages the marks scale with the machine instead, so
		 * every size from the smallest up is accepted. */
		if ((min + min / 2) * 2 >= cfg->ram_pages)
			min = cfg->ram_pages / 8;
	}
	z->wmark_min = min;
	z->wmark_low = min + min / 4;
	z->wmark_high = min + min / 2;
}

static void zone_set_name(struct zone *z, const char *name)
{
	z->name = name;
	if (!strcmp(name, "DMA"))
		z->allocstall_item = ALLOCSTALL_DMA;
	else if (!strcmp(name, "HighMem"))
		z->allocstall_item = ALLOCSTALL_HIGH;
	else
		z->allocstall_item = ALLOCSTALL_NORMAL;
}

void mm_init(struct mm *mm, const struct mm_config *cfg, const struct mm_costs *cost)
{
	memset(mm, 0, sizeof(*mm));
	if (cfg->ram_pages == 0 || cfg->ram_pages >= PFN_NONE)
		die_usage("RAM of %llu pages cannot be simulated",
			  (unsigned long long)cfg->ram_pages);
	if (cfg->swap_pages >= UINT32_MAX)
		die_usage("swap of %llu pages is too large",
			  (unsigned long long)cfg->swap_pages);
	mm->cost = cost;
	mm->work_who = WHO_OTHER;
	mm->untimed = cfg->untimed;
	mm->seed = cfg->seed;
	mm->fr.nr = (pfn_t)cfg->ram_pages;
	mm->fr.pages = xcalloc_huge(cfg->ram_pages, sizeof(struct page));
	mm->fr.links = xcalloc_huge(cfg->ram_pages, sizeof(struct lru_link));
	mm->nr_zones = 1;
	struct zone *z = &mm->zones[0];
	zone_set_name(z, "Normal");
	z->start = 0;
	z->end = mm->fr.nr;
	z->managed = mm->fr.nr;
	z->free_list = lru_register(&mm->fr, "free");
	mm->list_unevictable = lru_register(&mm->fr, "unevictable(core)");
	mm->list_wb_free = lru_register(&mm->fr, "writeback-to-free");
	lru_set_kind(&mm->fr, z->free_list, LRU_KIND_NONE);
	lru_set_kind(&mm->fr, mm->list_unevictable, LRU_KIND_NONE);
	lru_set_kind(&mm->fr, mm->list_wb_free, LRU_KIND_NONE);
	setup_watermarks(mm, cfg);
	/* Free list in ascending frame order from the head. */
	for (pfn_t pfn = mm->fr.nr; pfn-- > 0;) {
		mm_page(mm, pfn)->flags = PG_free;
		lru_add_head(&mm->fr, z->free_list, pfn);
	}
	mm->stat.nr_free = mm->fr.nr;
	z->nr_free = mm->fr.nr;
	swap_init(&mm->swap, (uint32_t)cfg->swap_pages);
	if (cfg->swap_cluster) {
		mm->swap.cl = xmalloc(sizeof(*mm->swap.cl));
		swap_cl_init(mm->swap.cl, (uint32_t)cfg->swap_pages, cfg->nr_cpus, SWAPFILE_CLUSTER);
		mm->swap.cl->pcp_always = cfg->swap_cluster == 2;
		swap_cl_attach(mm, cfg->swap_discard);
	}
	if (cfg->zram)
		mm->swap.zram = zram_create(mm, (uint32_t)cfg->swap_pages, (enum zalgo)(cfg->zram - 1),
					    cfg->zram_chain ? cfg->zram_chain : 8, cfg->zram_trace_ratio,
					    cfg->zram_comp_ps, cfg->zram_decomp_ps);
	if (cfg->zram && cfg->zram_wb_pages) {
		struct zram_wb_config wc = { .pages = cfg->zram_wb_pages, .period_ns = cfg->zram_wb_period_ns,
					     .mode = cfg->zram_wb_mode, .limit = cfg->zram_wb_limit,
					     .age_ns = cfg->zram_wb_age_ns };
		zram_wb_create(mm->swap.zram, &wc);
	}
	mm->vm = (struct vm_sysctl){
#define X(name, def, lo, hi, help) .name = def,
		VM_SYSCTLS(X)
#undef X
	};
	uint64_t disk = cfg->disk_blocks ? cfg->disk_blocks : cfg->swap_pages + (1ULL << 28);
	/* the swap area's blocks, or zram's backing device's, come first */
	uint64_t first = cfg->zram_wb_pages > cfg->swap_pages ? cfg->zram_wb_pages : cfg->swap_pages;
	fs_init(mm, disk, first);
	if (cfg->check)
		mm->integrity = integrity_new(cfg->ram_pages, cfg->swap_pages);
}

void mm_vm_era_6x(struct mm *mm)
{
	mm_flusher_era(mm, FLUSHER_PERBDI); /* flush-8:0, IO-less throttling */
	ra_set_era(mm, 30);                 /* 3.0+ mmap fault readahead */
	mm->vm.swap_vma_ra = 1;             /* /sys/kernel/mm/swap/vma_ra_enabled */
	mm->vm.dirty_fault = 1;             /* fault_dirty_shared_page() */
	mm->vm.write_mark_accessed = 0;     /* 4.7+: FGP_WRITEBEGIN, no FGP_ACCESSED */
	mm->vm.write_refault = 0;           /* 4.7+: no workingset_refault() for __GFP_WRITE */
	mm->vm.cgroup_writeback = 1;        /* a v2 cgroup's own dirty limits */
}

void mm_set_policy(struct mm *mm, const struct policy_ops *ops, const double *tun)
{
	mm->pol.ops = ops;
	if (ops->flags & POLICY_SWAP_TOKEN)
		mm->vm.swap_token = 1;
	if (ops->flags & POLICY_FAULT_ACCESSED)
		mm->vm.fault_mark_accessed = 1;
	if (ops->flags & POLICY_MLOCK_HALF_RAM)
		mm->vm.mlock_half_ram = 1;
	unsigned flags = ops->flags | (ops->tunable_flags ? ops->tunable_flags(tun) : 0);
	mm->fault_not_young = flags & POLICY_FAULT_NOT_YOUNG;
	mm->pol.priv = ops->init(mm, tun);
	if (mm->cgt && (ops->flags & POLICY_MEMCG_LRU)) {
		cgtree_lru_init(mm, tun);
		if (flags & POLICY_MEMCG_GEN_LRU)
			memcg_lru_init(mm);
	} else if (mm->cgt) {
		cgtree_cgroups_init(mm);
	}
	mm->access_hook = (ops->flags & POLICY_ACCESS_HOOK) && ops->access;
	if (ops->evict_shadow && !mm->swap.shadow)
		mm->swap.shadow = xcalloc(mm->swap.nr_slots ? mm->swap.nr_slots : 1, sizeof(uint64_t));
}

void mm_destroy(struct mm *mm)
{
	mm_cgtree_free(mm);
	mm_plug_destroy(mm);
	if (mm->pol.ops && mm->pol.ops->destroy)
		mm->pol.ops->destroy(mm->pol.priv);
	for (uint32_t i = 0; i < mm->nr_as; i++) {
		struct aspace *as = mm->as[i];
		for (uint32_t v = 0; v < as->nr_vmas; v++) {
			if (!(as->vmas[v].flags & VMA_PTE_LENT))
				free(as->vmas[v].pte);
			free(as->vmas[v].ver);
		}
		free(as->vmas);
		free(as);
	}
	free(mm->as);
	fs_destroy(mm);
	swap_destroy(&mm->swap);
	free(mm->fr.pages);
	free(mm->fr.links);
	integrity_free(mm->integrity);
}

void mm_set_oracle(struct mm *mm, const uint64_t *next_use, uint64_t n)
{
	mm->oracle.next = next_use;
	mm->oracle.len = n;
}

uint64_t mm_free_pages(const struct mm *mm) { return mm->stat.nr_free; }

bool mm_zone_ok(const struct mm *mm, int zone, uint64_t mark)
{
	if (mm->nr_zones > 1)
		return mm->zones[zone].nr_free > mark;
	return mm->stat.nr_free > mark;
}

void mm_setup_zones(struct mm *mm, int n, const uint64_t *pages, const char *const *names)
{
	if (n < 1 || n > MAX_ZONES)
		panic("mm_setup_zones: %d zones", n);
	if (mm->stat.nr_free != mm->fr.nr)
		panic("mm_setup_zones after the first allocation");
	if (n == 1)
		return;
	struct zone one = mm->zones[0];
	pfn_t start = 0;
	for (int i = 0; i < n; i++) {
		struct zone *z = &mm->zones[i];
		uint64_t want = i == n - 1 ? mm->fr.nr - start : pages[i];
		if (want > mm->fr.nr - start)
			want = mm->fr.nr - start;
		zone_set_name(z, names[i]);
		z->start = start;
		z->end = start + (pfn_t)want;
		z->managed = want;
		z->nr_free = want;
		z->need_balance = 0;
		if (i > 0) {
			z->free_list = lru_register(&mm->fr, names[i]);
			lru_set_kind(&mm->fr, z->free_list, LRU_KIND_NONE);
		}
		/* The single-zone watermarks shared in proportion to size, as
		 * 2.6's setup_per_zone_pages_min() does; eras differ (the policy
		 * overwrites them). */
		z->wmark_min = one.managed ? one.wmark_min * want / one.managed : 0;
		z->wmark_low = one.managed ? one.wmark_low * want / one.managed : 0;
		z->wmark_high = one.managed ? one.wmark_high * want / one.managed : 0;
		start = z->end;
	}
	mm->nr_zones = n;
	/* Rebuild the free lists: every frame is free at this point. */
	for (pfn_t pfn = mm->fr.nr; pfn-- > 0;)
		lru_del(&mm->fr, pfn);
	for (int i = n; i-- > 0;) {
		struct zone *z = &mm->zones[i];
		for (pfn_t pfn = z->end; pfn-- > z->start;) {
			mm_page(mm, pfn)->zone = (uint8_t)i;
			lru_add_head(&mm->fr, z->free_list, pfn);
		}
	}
}

static void release_frame(struct mm *mm, pfn_t pfn, bool charged)
{
	struct page *p = mm_page(mm, pfn);
	if (p->flags & PG_free)
		panic("double free of pfn %u", pfn);
	if (lru_on(&mm->fr, pfn) != LRU_NONE)
		panic("freeing pfn %u still on list %s", pfn, mm->fr.lists[lru_on(&mm->fr, pfn)].name);
	if (p->flags & PG_anon)
		mm->stat.nr_anon--;
	if (mm->memcg.limit && charged)
		mm->memcg.charged--;  /* uncharged as it is freed */
	if (mm->cgt && charged)
		cgtree_uncharge(mm, p->memcg);
	/* A file page leaves the page cache first, and only clean: dirty data
	 * is written before its frame is freed (or cancelled by truncate). */
	if ((p->flags & PG_file) && (p->owner || (p->flags & PG_dirty)))
		panic("freeing pfn %u: file page %s", pfn, p->owner ? "still in the page cache" : "still dirty");
	uint8_t zone = p->zone;
	memset(p, 0, sizeof(*p));
	p->zone = zone;
	p->flags = PG_free;
	lru_add_head(&mm->fr, mm->zones[zone].free_list, pfn);
	mm->zones[zone].nr_free++;
	mm->stat.nr_free++;
	mm->ev[PGFREE]++;
}

void free_frame(struct mm *mm, pfn_t pfn) { release_frame(mm, pfn, true); }

/* A frame taken by take_zone_frame() for the kernel's own use (a
 * zsmalloc pool's, a zswap writeback's): nobody's charge. */
void free_frame_uncharged(struct mm *mm, pfn_t pfn) { release_frame(mm, pfn, false); }

void detach_page(struct mm *mm, pfn_t pfn)
{
	int on = lru_on(&mm->fr, pfn);
	if (on == mm->list_unevictable || on == mm->list_wb_free) {
		lru_del(&mm->fr, pfn);
		mm_page(mm, pfn)->flags &= ~PG_unevictable;
		return;
	}
	if (on != LRU_NONE && mm->pol.ops->remove)
		mm->pol.ops->remove(mm_pol(mm, pfn), pfn);
	lru_del(&mm->fr, pfn);
}

pfn_t take_zone_frame(struct mm *mm, int zone)
{
	struct zone *z = &mm->zones[zone];
	pfn_t pfn = lru_head(&mm->fr, z->free_list);
	if (pfn == PFN_NONE)
		return PFN_NONE;
	lru_del(&mm->fr, pfn);
	struct page *p = mm_page(mm, pfn);
	p->flags = 0;
	if (mm->integrity)
		mm->integrity->frame[pfn] = 0; /* zeroes, or what a read puts there */
	z->nr_free--;
	mm->stat.nr_free--;
	mm->ev[PGALLOC]++;
	return pfn;
}

static pfn_t take_free_frame(struct mm *mm) { return take_zone_frame(mm, 0); }

/* 2.4.17 __alloc_pages()'s zonelist walk: the threshold accumulates the
 * watermark of every zone passed, so lower zones are kept for allocations
 * that can only use them.  mark: 0 = min, 1 = low; extra counts pages
 * about to be freed (only to decide whether to wait for them). */
static int zonelist_pick(const struct mm *mm, int mark, uint64_t extra)
{
	uint64_t min = 1;
	for (int i = mm->nr_zones; i-- > 0;) {
		const struct zone *z = &mm->zones[i];
		min += mark ? z->wmark_low : z->wmark_min;
		if (z->nr_free + extra > min && z->nr_free)
			return i;
	}
	return -1;
}

/* Reclaim failed with no I/O in flight: OOM, unless the design's
 * out_of_memory() says to wait and retry. */
static bool policy_oom(struct mm *mm, struct mm_ctx *ctx)
{
	const struct policy_ops *ops = mm->pol.ops;
	return !ops || !ops->out_of_memory || ops->out_of_memory(mm->pol.priv, ctx_now(ctx));
}

/* 6.x __count_zid_vm_events(ALLOCSTALL, reclaim_idx): per zone of the
 * allocation, beside the 2.6-era total.  (The zone's counter is found
 * from its name once, in zone_set_name(): on the ideal machine every
 * fault stalls, and two strcmp()s were 2% of a cache-only replay.) */
/* The multi-zone allocator (mm_setup_zones with n > 1). */
static pfn_t alloc_classzone(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st)
{
	struct zone *top = &mm->zones[mm->nr_zones - 1];
	int z;
	*st = FAULT_DONE;
	if (ctx && ctx->kswapd) { /* PF_MEMALLOC: anything free */
		for (int i = mm->nr_zones; i-- > 0;)
			if (mm->zones[i].nr_free)
				return take_zone_frame(mm, i);
	}
	if ((z = zonelist_pick(mm, 1, 0)) >= 0)
		return take_zone_frame(mm, z);
	if (top->wmark_low) {
		if (!top->need_balance)
			top->need_balance = 1;
		mm_wake_kswapd(mm);
	}
	if ((z = zonelist_pick(mm, 0, 0)) >= 0)
		return take_zone_frame(mm, z);
	/* balance_classzone(): direct reclaim for the classzone. */
	count_allocstall(mm, mm->nr_zones - 1);
	for (int tries = 0; tries < 16; tries++) {
		if (mm->stat.nr_pending_free && zonelist_pick(mm, 0, mm->stat.nr_pending_free) >= 0)
			break;
		uint64_t got = 0;
		for (int prio = DEF_PRIORITY; prio >= 0 && got < SWAP_CLUSTER_MAX; prio--)
			got += mm_shrink(mm, ctx, SWAP_CLUSTER_MAX - got, prio);
		if ((z = zonelist_pick(mm, 0, 0)) >= 0)
			return take_zone_frame(mm, z);
		if (!got && !mm->stat.nr_writeback)
			break;
	}
	if ((z = zonelist_pick(mm, 0, 0)) >= 0)
		return take_zone_frame(mm, z);
	*st = mm->stat.nr_writeback || mm->stat.nr_reading || !policy_oom(mm, ctx) ? FAULT_WAIT_RECLAIM : FAULT_OOM;
	return PFN_NONE;
}

/* check_classzone_need_balance(): a classzone is balanced when some zone
 * at or below it is above its high watermark. */
static bool classzone_balanced(const struct mm *mm, int zone, uint64_t extra)
{
	for (int i = zone; i >= 0; i--)
		if (mm->zones[i].nr_free + extra > mm->zones[i].wmark_high)
			return true;
	return false;
}

bool mm_kswapd_balanced(struct mm *mm, uint64_t extra)
{
	if (mm->nr_zones == 1)
		return mm->stat.nr_free + extra > mm->zones[0].wmark_high;
	bool ok = true;
	for (int i = 0; i < mm->nr_zones; i++) {
		struct zone *z = &mm->zones[i];
		if (!z->need_balance)
			continue;
		if (z->need_balance == 2 && classzone_balanced(mm, i, extra)) {
			if (!extra)
				z->need_balance = 0;
		} else {
			ok = false;
		}
	}
	return ok;
}

/* The classzone a reclaim pass works for: the allocating (highest) zone
 * for direct reclaim; for kswapd the highest zone flagged need_balance. */
static int reclaim_classzone(const struct mm *mm, bool kswapd)
{
	if (kswapd)
		for (int i = mm->nr_zones; i-- > 0;)
			if (mm->zones[i].need_balance)
				return i;
	return mm->nr_zones - 1;
}

/* The allocator's slow path, 2.6-style: above low, take a frame; below low,
 * wake kswapd and take one if above min; below min, reclaim directly.  Pages
 * already under writeback on their way to the free list count as progress:
 * rather than evicting more, the allocator waits for them (the kernel's
 * congestion_wait()), which bounds the I/O in flight. */
static pfn_t alloc_frame(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st)
{
	if (mm->nr_zones > 1)
		return alloc_classzone(mm, ctx, st);
	struct zone *z = &mm->zones[0];
	*st = FAULT_DONE;
	if (mm->stat.nr_free > z->wmark_low || (ctx && ctx->kswapd && mm->stat.nr_free))
		return take_free_frame(mm);
	if (z->wmark_low)
		mm_wake_kswapd(mm);
	if (mm->stat.nr_free > z->wmark_min)
		return take_free_frame(mm);
	/* Direct reclaim. */
	count_allocstall(mm, 0);
	int fruitless = 0;
	for (int tries = 0; tries < 16; tries++) {
		if (mm->stat.nr_free + mm->stat.nr_pending_free > z->wmark_min && mm->stat.nr_pending_free)
			break;
		uint64_t want = z->wmark_min ? SWAP_CLUSTER_MAX : 1;
		bool congested = false;
		uint64_t got = do_try_to_free_pages(mm, ctx, want, false, DEF_PRIORITY - 2, &congested);
		if (mm->stat.nr_free > z->wmark_min)
			return take_free_frame(mm);
		if (congested)
			break;
		/* A cycle that only rotated referenced pages has cleared their
		 * referenced bits: the kernel's allocator would loop and find
		 * them reclaimable.  Give up after two fruitless cycles. */
		if (!got && !mm->stat.nr_writeback && ++fruitless >= 2)
			break;
	}
	if (mm->stat.nr_free > z->wmark_min)
		return take_free_frame(mm);
	if (mm->stat.nr_writeback || mm->stat.nr_reading || !policy_oom(mm, ctx)) {
		*st = FAULT_WAIT_RECLAIM;
		return PFN_NONE;
	}
	*st = FAULT_OOM;
	return PFN_NONE;
}

uint64_t mm_reclaim_io_catch_up(struct mm *mm, struct mm_ctx *ctx, const struct scan_control *sc)
{
	if (!ctx)
		ctx = mm->cur;
	if (mm->untimed || !ctx || !mm->io.catch_up || !mm->vm.io_in_reclaim)
		return 0;
	uint64_t pending = sc ? sc->nr_scanned * mm->cost->scan_ns : 0;
	return mm->io.catch_up(mm->io.arg, ctx_now(ctx) + pending);
}

/* A tree's charge (cgtree.c): the frame records its cgroup; the charge
 * over, the task meets memory.high's return-to-user work. */
static pfn_t alloc_charged(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st)
{
	int cg;
	if (!cgtree_charge_page(mm, ctx, st, &cg))
		return PFN_NONE;
	pfn_t pfn = alloc_frame(mm, ctx, st);
	if (pfn == PFN_NONE) {
		cgtree_uncharge(mm, cg);
		return pfn;
	}
	mm_page(mm, pfn)->memcg = (uint16_t)cg;
	memcg_handle_over_high(mm, ctx, cg);
	return pfn;
}

/* The memcg charge comes first (mem_cgroup_charge() before the page
 * allocator in the kernel's fault paths); a frame the node cannot give
 * is uncharged again. */
static pfn_t alloc_page_charged(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st)
{
	if (mm->cgt)
		return alloc_charged(mm, ctx, st);
	if (mm->memcg.limit && !memcg_try_charge(mm, ctx, st))
		return PFN_NONE;
	pfn_t pfn = alloc_frame(mm, ctx, st);
	if (mm->memcg.limit && pfn == PFN_NONE)
		mm->memcg.charged--;
	return pfn;
}

/* The wait that follows a FAULT_WAIT_RECLAIM from here is reclaim's
 * (PSI: a memory stall), not the dirty throttle's. */
pfn_t mm_alloc_page(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st)
{
	pfn_t pfn = alloc_page_charged(mm, ctx, st);
	if (ctx)
		ctx->reclaim_wait = pfn == PFN_NONE && *st == FAULT_WAIT_RECLAIM;
	return pfn;
}

uint64_t try_to_free(struct mm *mm, struct mm_ctx *ctx, uint64_t want, bool cgroup, int stall_below,
		     bool *congested)
{
	uint64_t got = 0;
	bool force_deactivate = false, skipped_deactivate = false;
	*congested = false;
	memcg_low_reset(mm);
retry:
	for (int prio = DEF_PRIORITY; prio >= 0 && got < want; prio--) {
		/* Writes of the earlier priorities that completed meanwhile
		 * may have freed enough (I/O inside reclaim, design.md). */
		if (mm_reclaim_io_catch_up(mm, ctx, NULL) && !cgroup && mm->stat.nr_free > mm->zones[0].wmark_min) {
			memcg_low_reset(mm);
			return got;
		}
		struct pass_result res = { 0 };
		got += shrink_pass(mm, ctx, want - got, prio, cgroup, force_deactivate, &res);
		skipped_deactivate |= res.skipped_deactivate;
		/* The pass met a folio it must wait for (folio_wait_writeback
		 * in cgroup v1 reclaim): the reclaimer sleeps until a write
		 * completes, then starts again. */
		if (got < want && res.nr_wait) {
			*congested = true;
			break;
		}
		/* do_try_to_free_pages(): below stall_below (DEF_PRIORITY - 2
		 * for the allocator), with pages already under writeback,
		 * congestion_wait() instead of starting writeback on ever
		 * more pages. */
		if (got < want && prio < stall_below && mm->stat.nr_pending_free) {
			*congested = true;
			break;
		}
	}
	/* 5.8+: the inactive:active judgements of a pass (linux6's
	 * prepare_scan_control) are estimates; when passes down to
	 * priority 0 reclaimed nothing because an active list was never
	 * aged, do it all again deactivating both types rather than give
	 * up (and OOM-kill) with the active lists full. */
	if (!got && !*congested && skipped_deactivate && !force_deactivate) {
		force_deactivate = true;
		goto retry;
	}
	/* "Untapped cgroup reserves?  Don't OOM, retry": the passes
	 * skipped a cgroup below its memory.low; again, breaking it. */
	if (!got && !*congested && memcg_low_retry(mm)) {
		force_deactivate = false;
		goto retry;
	}
	memcg_low_reset(mm);
	return got;
}

/* 6.x try_to_free_pages() via __perform_reclaim() and
 * try_to_free_mem_cgroup_pages(): the reclaimer is in a memory stall
 * (psi_memstall_enter/leave) for the length of the reclaim. */
uint64_t do_try_to_free_pages(struct mm *mm, struct mm_ctx *ctx, uint64_t want, bool cgroup,
			      int stall_below, bool *congested)
{
	bool stalled = ctx && mm->io.memstall && mm->io.memstall(mm->io.arg, ctx->task, true, ctx_now(ctx));
	uint64_t got = try_to_free(mm, ctx, want, cgroup, stall_below, congested);
	if (stalled)
		mm->io.memstall(mm->io.arg, ctx->task, false, ctx_now(ctx));
	return got;
}

void mm_lru_sizes(const struct mm *mm, struct lru_sizes *out)
{
	*out = (struct lru_sizes){ 0 };
	for (int l = 1; l < mm->fr.nr_lists; l++) {
		const struct lru_list *ll = &mm->fr.lists[l];
		if (ll->kind == LRU_KIND_ACTIVE) {
			out->active_anon += ll->count - ll->nr_file;
			out->active_file += ll->nr_file;
		} else if (ll->kind == LRU_KIND_INACTIVE) {
			out->inactive_anon += ll->count - ll->nr_file;
			out->inactive_file += ll->nr_file;
		}
	}
	/* A cache whose policy lists no frames (cache_mode.h: unlisted, the
	 * research policies and opt) had them all on its one inactive list,
	 * and all its pages are anonymous. */
	if (mm->cache.unlisted)
		out->inactive_anon += mm->stat.nr_anon;
}

uint64_t mm_shrink(struct mm *mm, struct mm_ctx *ctx, uint64_t nr_to_reclaim, int priority)
{
	return shrink_pass(mm, ctx, nr_to_reclaim, priority, false, false, NULL);
}

uint64_t shrink_pass(struct mm *mm, struct mm_ctx *ctx, uint64_t nr_to_reclaim, int priority, bool cgroup,
		     bool force_deactivate, struct pass_result *res)
{
	struct scan_control sc = {
		.nr_to_reclaim = nr_to_reclaim,
		.priority = priority,
		.who = ctx && ctx->kswapd ? RECLAIM_KSWAPD : RECLAIM_DIRECT,
		.cgroup = cgroup,
		.force_deactivate = force_deactivate,
		.may_swap = true,
		.may_writepage = true,
		.zone = reclaim_classzone(mm, ctx && ctx->kswapd),
	};
	uint64_t refill_before = mm->ev[PGREFILL];
	policy_shrink(mm, ctx, &sc);
	if (mm->swap.zswap)  /* shrink_slab(): zswap's shrinker */
		zswap_shrink_slab(mm->swap.zswap, ctx, priority);
	zs_shrink_slab(mm, ctx, priority, cgroup);  /* and zsmalloc's */
	if (sc.who == RECLAIM_KSWAPD && mm->zones[sc.zone].need_balance)
		mm->zones[sc.zone].need_balance = 2;
	charge(ctx, sc.nr_scanned * mm->cost->scan_ns);
	if (sc.nr_writeback > mm->test.max_pass_writeback)
		mm->test.max_pass_writeback = sc.nr_writeback;
	account_pass(mm, &sc, refill_before);
	if (res)
		*res = (struct pass_result){ sc.nr_wait_writeback, sc.skipped_deactivate };
	return sc.nr_reclaimed;
}

void mm_tick(struct mm *mm, struct mm_ctx *ctx)
{
	struct scan_control sc = {
		.nr_to_reclaim = 0,
		.priority = DEF_PRIORITY,
		.who = RECLAIM_AGING,
		.may_swap = true,
		.may_writepage = true,
	};
	struct mm_ctx *saved = mm->cur;
	enum work_who saved_who = mm->work_who;
	mm->cur = ctx;
	mm->work_who = WHO_AGING;
	if (mm->cgt && mm->cgt->per_cg)
		cgtree_lru_tick(mm, &sc);
	else
		mm->pol.ops->tick(mm->pol.priv, &sc);
	mm->work_who = saved_who;
	mm->cur = saved;
	charge(ctx, sc.nr_scanned * mm->cost->scan_ns);
	account_pass(mm, &sc, mm->ev[PGREFILL]);
}
