/* splitlru.h - the 2.6.28 split-LRU reclaim engine shared by the `splitlru`
 * policy (splitlru.c) and the `workingset` policy (workingset.c), which is
 * the same engine plus refault-distance detection.  Exposed so that tests
 * can drive shrink_active_list() and friends on hand-built scenarios. */
#ifndef PAGELAB_SPLITLRU_H
#define PAGELAB_SPLITLRU_H

#include "../mm/mm.h"

/* zone->lru[] indices, as in 2.6.28's enum lru_list. */
enum { LRU_INACTIVE_ANON, LRU_ACTIVE_ANON, LRU_INACTIVE_FILE, LRU_ACTIVE_FILE, NR_EVICTABLE_LRU };

/* Bits of page->pol32[0] the engine keeps for itself. */
#define SPLITLRU_RECLAIM_WB 1u  /* writeback started by reclaim (PG_reclaim) */

struct splitlru_cfg {
	unsigned swappiness;     /* vm_swappiness */
	unsigned inactive_ratio; /* zone->inactive_ratio; 0 = computed from the zone size */
	bool stream;             /* skip ACTIVE_FILE while inactive file >= active file */
	bool noforce;            /* no "+1" forced pressure per list per shrink_zone */
	bool exec_active;        /* 2.6.31: referenced mapped executable file pages stay active */
	bool anon_inactive;      /* 5.9: new anonymous pages start on the inactive list */
	bool deactivate_workingset; /* 4.20: pages leaving the active list get PG_workingset */
	bool memcg_swappiness;   /* 3.15 get_scan_count(): memory.reclaim's
				  * swappiness= (6.9+) for the pass, and cgroup
				  * reclaim at swappiness 0 scans file only */
};

struct splitlru {
	struct mm *mm;
	struct splitlru_cfg cfg;
	int list[NR_EVICTABLE_LRU];
	uint64_t nr_scan[NR_EVICTABLE_LRU];  /* zone->lru[l].nr_scan accumulators */
	uint64_t recent_scanned[2], recent_rotated[2]; /* [0] anon, [1] file */
	uint64_t pages_scanned;  /* zone->pages_scanned, reset when a page is freed */
	uint64_t seen_pgfree;
	unsigned inactive_ratio;
	/* Called for every activation (mark_page_accessed, reclaim putback
	 * active, refault), for workingset's nonresident age; may be NULL. */
	void (*activation)(struct splitlru *s, pfn_t pfn);
	void *owner;             /* the policy wrapping the engine */
};

/* setup_per_zone_inactive_ratio(): int_sqrt(10 x zone size in GB), at least 1. */
unsigned splitlru_inactive_ratio(uint64_t zone_pages);

void splitlru_setup(struct splitlru *s, struct mm *mm, const struct splitlru_cfg *cfg);
void splitlru_add(struct splitlru *s, pfn_t pfn, enum add_reason why);
void splitlru_remove(struct splitlru *s, pfn_t pfn);
void splitlru_mark_accessed(struct splitlru *s, pfn_t pfn);
void splitlru_shrink(struct splitlru *s, struct scan_control *sc);
void splitlru_end_writeback(struct splitlru *s, pfn_t pfn);
bool splitlru_check(struct splitlru *s, FILE *err);

/* The pieces, for tests. */
void splitlru_get_scan_ratio(struct splitlru *s, unsigned long percent[2]);
/* The swappiness a shrink of sc weighs anon with (cfg.memcg_swappiness:
 * memory.reclaim's swappiness= while one runs, else cfg.swappiness), and
 * *file_only: cgroup reclaim at swappiness 0 scans no anon list. */
unsigned splitlru_pass_swappiness(const struct splitlru *s, const struct scan_control *sc, bool *file_only);
bool splitlru_inactive_anon_is_low(const struct splitlru *s);
void splitlru_shrink_active_list(struct splitlru *s, uint64_t nr, struct scan_control *sc, int file);
uint64_t splitlru_shrink_inactive_list(struct splitlru *s, uint64_t max_scan, struct scan_control *sc, int file);
static inline uint64_t splitlru_size(const struct splitlru *s, int l)
{
	return lru_count(&s->mm->fr, s->list[l]);
}

#endif
