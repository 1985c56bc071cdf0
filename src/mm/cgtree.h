/* cgtree.h - a tree of memory cgroups (`--cgroup PATH[:max=...]`, cgtree.c).
 *
 * Id 0 is the root cgroup (no limits: the machine); ids 1..n are the
 * cgroups of the run, each with its parent's id below its own.  Every
 * page records the id of the cgroup it is charged to (page->memcg), every
 * task the cgroup it runs in.  The one-cgroup `--memcg LIMIT` is not a
 * tree: it keeps struct memcg (memcg.c). */
#ifndef PAGELAB_MM_CGTREE_H
#define PAGELAB_MM_CGTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "page_counter.h"

#define CG_MAX 16            /* cgroups of a run besides the root */
#define CG_PATH_MAX 48       /* "/a/b", with its NUL */
#define CG_UNLIMITED UINT64_MAX

/* One cgroup as declared (src/engine/cgspec.c parses it).  Sizes in
 * pages; max, high, swap_max, swap_high and zswap_max CG_UNLIMITED
 * unless given ("max"). */
struct cg_conf {
	char path[CG_PATH_MAX];
	int parent;              /* its parent's id: 0 = the root */
	uint64_t max, high, low, min, swap_max;
	uint64_t swap_high;      /* memory.swap.high */
	uint64_t zswap_max;      /* memory.zswap.max (--set zswap=N) */
	bool zswap_nowb;         /* memory.zswap.writeback=0 (6.8+; zswap.c) */
	int swappiness;          /* memory.swappiness (v1 file, 6.x per-memcg): -1 = vm's */
	bool oom_group;          /* memory.oom.group */
	bool implied;            /* named only as a parent of another */
};

/* The run's cgroups: conf[id - 1] is cgroup id's. */
struct cg_tree_conf {
	int n;
	struct cg_conf cg[CG_MAX];
	/* The cgroup2 mount option memory_recursiveprot (--set
	 * memory_recursiveprot=1): a tree-wide setting, off by default. */
	bool recursiveprot;
};

/* memory.events, counted in the cgroup and every ancestor below the root
 * as 6.x memcg_memory_event() does (the hierarchical file). */
enum cg_event { CGE_LOW, CGE_HIGH, CGE_MAX, CGE_OOM, CGE_OOM_KILL, NR_CG_EVENTS };

/* A cgroup's own memory.stat counters (the report sums a subtree). */
enum cg_stat { CGS_PGSCAN, CGS_PGSTEAL, CGS_REFAULT_ANON, CGS_REFAULT_FILE, CGS_PGMAJFAULT, NR_CG_STATS };

struct cgroup {
	struct cg_conf conf;     /* the root's: unlimited */
	uint64_t current;        /* memory.current: pages charged here and below */
	uint64_t peak;           /* memory.peak */
	uint64_t swap_current;   /* memory.swap.current: swap slots charged */
	uint64_t failcnt;        /* charges its memory counter refused (page_counter's failcnt) */
	uint64_t events[NR_CG_EVENTS];
	uint64_t swap_events_high;  /* memory.swap.events high (hierarchical) */
	uint64_t stat[NR_CG_STATS];
	/* memory.stat pgscan_proactive, pgsteal_proactive (6.15+): what
	 * memory.reclaim scanned in this cgroup's lruvec and freed of its
	 * pages (memcg_reclaim.c), also counted in pgscan / pgsteal. */
	uint64_t pgscan_proactive, pgsteal_proactive;
};

struct cgtree {
	int n;                   /* cgroups, the root included */
	struct cgroup cg[CG_MAX + 1];
	uint16_t *task_cg;       /* the cgroup of task t (0 past the end) */
	int nr_task_cg;
	/* Limit reclaim in progress: the cgroup whose subtree it reclaims
	 * (try_to_free_mem_cgroup_pages' memcg), or 0 for none. */
	int target;
	int oom_cg;              /* a charge failed here: the next OOM kill is its (0: none) */
	uint16_t *slot_cg;       /* the cgroup a used swap slot is charged to */
	/* Per-cgroup lruvecs (cgtree_lru.c): one instance of a
	 * POLICY_MEMCG_LRU policy per cgroup, priv[id]; order[] the ids in
	 * mem_cgroup_iter()'s pre-order. */
	bool per_cg;
	/* cgroup_init() ran for each cgroup (a policy of one instance with
	 * per-cgroup hooks, cgtree_lru.c): cgroup_exit() runs at the end. */
	bool pol_cgroups;
	void *priv[CG_MAX + 1];
	int order[CG_MAX + 1];
	/* MGLRU's memcg LRU (memcg_lru.h; NULL: global reclaim walks in
	 * pre-order too). */
	struct memcg_lru *mlru;
	/* The policy's "swappiness" tunable (its index, -1: none; how many
	 * tunables; its largest value), which a cgroup's swappiness= sets
	 * in its instance: the caller fills them in before mm_set_policy()
	 * (src/engine/runner.c; src/mm knows no tunable by name). */
	int swappiness_tun, nr_tun;
	double swappiness_max;
	/* Protection (memcg_hooks.c): the effective memory.min / memory.low
	 * of the pass running (mem_cgroup_calculate_protection() from the
	 * target), whether the pass skips each cgroup, and
	 * do_try_to_free_pages()'s memcg_low_reclaim / memcg_low_skipped. */
	struct pc_node pc[CG_MAX + 1];
	bool prot_skip[CG_MAX + 1];
	int shrinking;           /* the cgroup whose lruvec is being shrunk (-1: none) */
	bool low_reclaim, low_skipped;
	bool recursiveprot;      /* the mount's memory_recursiveprot */
	/* memory.high (memcg_hooks.c): per task, the pages charged over
	 * high not yet handled (current->memcg_nr_pages_over_high) and the
	 * penalty sleep owed on the return to user space; the tick rate. */
	uint32_t *task_over_high;
	uint64_t *task_sleep_ns;
	unsigned hz;
	/* memory.reclaim in progress (memcg_reclaim.c): sc->proactive, and
	 * its swappiness= (sc->proactive_swappiness; -1: none given). */
	bool proactive;
	int proactive_swappiness;
};

/* Is a in the subtree of b (a == b included)? */
static inline bool cg_in_subtree(const struct cgtree *t, int a, int b)
{
	while (a > b)
		a = t->cg[a].conf.parent;
	return a == b;
}

/* The cgroup task t runs in (0: the root). */
int cgtree_task_cg(const struct cgtree *t, int task);
/* memcg_memory_event(): e in cg and its ancestors below the root. */
void cgtree_event(struct cgtree *t, int cg, enum cg_event e);

/* The cgroup's own pages and its own anon / file pages: (frames walked). */
struct mm;
void cg_own_pages(const struct mm *mm, int cg, uint64_t *own, uint64_t *anon, uint64_t *file);

#endif
