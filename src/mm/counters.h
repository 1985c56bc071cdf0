/* counters.h - event counters, named as in /proc/vmstat. */
#ifndef PAGELAB_COUNTERS_H
#define PAGELAB_COUNTERS_H

#define VM_EVENTS(X) \
	X(PGPGIN, "pgpgin") \
	X(PGPGOUT, "pgpgout") \
	X(PSWPIN, "pswpin") \
	X(PSWPOUT, "pswpout") \
	X(PGALLOC, "pgalloc_normal") \
	X(PGFREE, "pgfree") \
	X(PGACTIVATE, "pgactivate") \
	X(PGDEACTIVATE, "pgdeactivate") \
	X(PGFAULT, "pgfault") \
	X(PGMAJFAULT, "pgmajfault") \
	X(PGREFILL, "pgrefill") \
	X(PGSTEAL_KSWAPD, "pgsteal_kswapd") \
	X(PGSTEAL_DIRECT, "pgsteal_direct") \
	X(PGSCAN_KSWAPD, "pgscan_kswapd") \
	X(PGSCAN_DIRECT, "pgscan_direct") \
	X(PGSCAN_AGING, "pgscan_aging") \
	X(PGSTEAL_AGING, "pgsteal_aging") \
	X(PGROTATED, "pgrotated") \
	X(PAGEOUTRUN, "pageoutrun") \
	X(ALLOCSTALL, "allocstall") \
	/* 6.x counts direct reclaim stalls per zone of the allocation \
	 * (allocstall_<zone>) and no longer prints the total. */ \
	X(ALLOCSTALL_DMA, "allocstall_dma") \
	X(ALLOCSTALL_NORMAL, "allocstall_normal") \
	X(ALLOCSTALL_HIGH, "allocstall_high") \
	/* 5.8+: every reclaim pass (kswapd, direct, memcg limit) by LRU type */ \
	X(PGSCAN_ANON, "pgscan_anon") \
	X(PGSCAN_FILE, "pgscan_file") \
	X(PGSTEAL_ANON, "pgsteal_anon") \
	X(PGSTEAL_FILE, "pgsteal_file") \
	/* throttle_direct_reclaim() on the pfmemalloc reserve: not modelled, \
	 * always 0 (printed so that kernel and pagelab lists match) */ \
	X(PGSCAN_DIRECT_THROTTLE, "pgscan_direct_throttle") \
	/* a PMD-sized anonymous folio split and swapped as small pages \
	 * because folio_alloc_swap() found no cluster for it (6.18 \
	 * shrink_folio_list(), THP_SWPOUT_FALLBACK; the mTHP sizes' \
	 * swpout_fallback in sysfs): every anonymous folio is order 0 \
	 * here, none is ever split: always 0, printed so that kernel and \
	 * pagelab lists match (docs/zram.md) */ \
	X(THP_SWPOUT_FALLBACK, "thp_swpout_fallback") \
	X(OOM_KILL, "oom_kill") \
	X(WORKINGSET_REFAULT_ANON, "workingset_refault_anon") \
	X(WORKINGSET_REFAULT_FILE, "workingset_refault_file") \
	X(WORKINGSET_ACTIVATE_ANON, "workingset_activate_anon") \
	X(WORKINGSET_ACTIVATE_FILE, "workingset_activate_file") \
	X(WORKINGSET_RESTORE_ANON, "workingset_restore_anon") \
	X(WORKINGSET_RESTORE_FILE, "workingset_restore_file") \
	X(UNEVICTABLE_PGS_CULLED, "unevictable_pgs_culled") \
	X(UNEVICTABLE_PGS_SCANNED, "unevictable_pgs_scanned") \
	X(UNEVICTABLE_PGS_RESCUED, "unevictable_pgs_rescued") \
	X(UNEVICTABLE_PGS_MLOCKED, "unevictable_pgs_mlocked") \
	X(UNEVICTABLE_PGS_MUNLOCKED, "unevictable_pgs_munlocked") \
	X(SWAP_RA, "swap_ra") \
	X(SWAP_RA_HIT, "swap_ra_hit") \
	/* node counters of 6.x (NR_VMSCAN_WRITE, NR_VMSCAN_IMMEDIATE): pages \
	 * reclaim wrote itself (pageout(), swap writes too), and dirty file \
	 * folios shrink_folio_list() left to the flushers, marked PG_reclaim \
	 * and activated. */ \
	X(NR_VMSCAN_WRITE, "nr_vmscan_write") \
	X(NR_VMSCAN_IMMEDIATE, "nr_vmscan_immediate_reclaim") \
	/* pagelab's names (the kernel has no counter): writers that entered \
	 * balance_dirty_pages() above dirty_ratio. */ \
	X(NR_DIRTY_THROTTLED, "dirty_throttle")

enum vm_event {
#define X(id, name) id,
	VM_EVENTS(X)
#undef X
	NR_VM_EVENTS
};

extern const char *const vm_event_names[NR_VM_EVENTS];

#endif
