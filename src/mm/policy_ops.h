/* policy_ops.h - what the mm core needs of a reclaim policy: the
 * operations it calls (struct policy_ops), the reclaim pass it hands them
 * (struct scan_control) and the behaviour flags it reads.
 *
 * It lives in src/mm because the core calls through it: src/mm includes
 * nothing from src/policy (the layer above it).  src/policy/policy.h
 * includes this header and declares the rest of the policy layer: the
 * tunables' parsing, the registry and plugin lookup.
 */
#ifndef PAGELAB_MM_POLICY_OPS_H
#define PAGELAB_MM_POLICY_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "page.h"

struct mm;
struct tunable; /* src/policy/policy.h: the core only passes values through */

/* Why a page enters the policy. */
enum add_reason {
	ADD_NEW_ANON,     /* demand-zero anonymous fault */
	ADD_SWAPIN,       /* read back from swap (major fault) */
	ADD_SWAPCACHE,    /* found in the swap cache (minor fault), e.g. under writeback */
	ADD_PAGECACHE,    /* new page-cache page (read/write/file fault) */
	ADD_PUTBACK,      /* returned by the core (munlock, failed reclaim) */
	ADD_REFAULT,      /* page-cache / swap-cache insert that found a shadow
			   * entry; refault() was called just before */
};

enum reclaimer { RECLAIM_KSWAPD, RECLAIM_DIRECT, RECLAIM_AGING };

/* What one reclaim pass is asked to do and what it did. */
struct scan_control {
	uint64_t nr_to_reclaim;
	int priority;           /* DEF_PRIORITY .. 0; smaller = more urgent */
	enum reclaimer who;
	bool may_swap;
	bool may_writepage;
	int zone;               /* target (class)zone */
	bool cgroup;            /* memcg limit reclaim (try_to_free_mem_cgroup_pages):
				 * who is RECLAIM_DIRECT, but the kswapd/direct
				 * counters stay untouched, as cgroup_reclaim() */
	bool force_deactivate;  /* 5.8+ do_try_to_free_pages(): the passes
				 * reclaimed nothing and one skipped an active
				 * list, so they run again aging both types */
	/* accumulated by the pass */
	uint64_t nr_scanned;
	uint64_t nr_scanned_file;   /* of nr_scanned: file pages (pgscan_file) */
	uint64_t nr_reclaimed;  /* freed, or written back to be freed */
	uint64_t nr_reclaimed_file; /* of nr_reclaimed: file pages (pgsteal_file) */
	uint64_t nr_rotated;
	uint64_t nr_activated;
	uint64_t nr_writeback;  /* writeback started by this pass */
	uint64_t nr_wait_writeback; /* folios the reclaimer must wait for before it
				     * goes on (shrink_folio_list's case 3, cgroup v1):
				     * the pass ends and the task sleeps */
	bool skipped_deactivate; /* an active list was left unaged because the
				  * policy judged its inactive list big enough */
	/* MGLRU's memcg LRU (src/mm/memcg_lru.c, POLICY_MEMCG_GEN_LRU).
	 * In: what the pass's earlier lruvecs reclaimed or sent to
	 * writeback (shrink_many() hands one scan_control from memcg to
	 * memcg, so should_abort_scan() counts them); 0 elsewhere.  Out,
	 * set by such a policy's shrink(): try_to_shrink_lruvec()'s verdict
	 * (the aging ran: rotate the lruvec young), lruvec_is_sizable(), and
	 * should_abort_scan() after it. */
	uint64_t nr_progress;
	bool lru_gen_rotate, lru_gen_sizable, lru_gen_abort;
	/* In: the pass is lru_gen_shrink_node()'s, whose node_priority()
	 * already ran set_initial_priority() for the node. */
	bool lru_gen_node;
};

/* n pages like p scanned: pgscan_anon / pgscan_file split by LRU type
 * (swap-backed or not, the kernel's folio_is_file_lru()). */
static inline void sc_scanned(struct scan_control *sc, const struct page *p, uint64_t n)
{
	sc->nr_scanned += n;
	if (!(p->flags & PG_anon))
		sc->nr_scanned_file += n;
}

#define POLICY_ACCESS_HOOK  (1u << 0) /* wants access() on every reference */
#define POLICY_NEEDS_ORACLE (1u << 1) /* needs the whole reference string (OPT) */
#define POLICY_SWAP_TOKEN   (1u << 2) /* its era had thrash.c's swap token (vm.swap_token=1) */
#define POLICY_FAULT_ACCESSED (1u << 3) /* file faults mark_page_accessed (vm.fault_mark_accessed=1) */
#define POLICY_NO_MEMCG     (1u << 4) /* reclaims only against the zones' free-page
				       * shortage: refuses --memcg */
#define POLICY_MLOCK_HALF_RAM (1u << 5) /* 2.0-2.6.8 sys_mlock(): at most half of RAM locked (vm.mlock_half_ram=1) */
#define POLICY_CACHE        (1u << 6) /* a cache policy: evicts only through mm_evict()
				       * (textbook.h), so the cache-only replay of
				       * --machine ideal (src/cachesim) runs it */
#define POLICY_V1_WAIT_WRITEBACK (1u << 7) /* says itself when cgroup v1 reclaim
				       * waits on writeback (sc->nr_wait_writeback): the
				       * core's coarser v1 stall is not applied */
#define POLICY_FAULT_NOT_YOUNG (1u << 8) /* the faulting reference of a single-reference
				       * touch leaves the PTE accessed bit clear, so a
				       * new page starts unreferenced (libCacheSim's
				       * Clock).  The core must know because it, not
				       * the policy, sets the PTE bits on a fault
				       * (aspace.c, and the cache-only replay) */

#define POLICY_MEMCG_LRU (1u << 9) /* under a --cgroup tree, one instance per cgroup:
				       * each cgroup's lruvec (src/mm/cgtree_lru.c);
				       * without it, one LRU for the node, charges only */
#define POLICY_MEMCG_GEN_LRU (1u << 10) /* with POLICY_MEMCG_LRU: global reclaim
				       * goes through MGLRU's memcg LRU of generations
				       * (lru_gen_shrink_node() -> shrink_many(),
				       * src/mm/memcg_lru.c), not the pre-order walk;
				       * shrink() sets sc->lru_gen_* */

struct policy_ops {
	const char *name;
	const char *summary;
	const struct tunable *tunables; /* terminated by {0}; may be NULL */
	unsigned flags;

	/* tun[i] is the value of tunables[i]. */
	void *(*init)(struct mm *mm, const double *tun);
	void (*destroy)(void *p);
	void (*add)(void *p, pfn_t pfn, enum add_reason why);
	/* The page leaves the policy's care (freed by exit/munmap, or about to
	 * be handed back to the core).  Must unlink it from the policy's lists. */
	void (*remove)(void *p, pfn_t pfn);
	/* mark_page_accessed(): the read()/write() path.  May be NULL. */
	void (*mark_accessed)(void *p, pfn_t pfn);
	/* deactivate_page() from outside reclaim: 2.4.0's drop_behind() on
	 * the pages a sequential reader has passed.  May be NULL. */
	void (*deactivate)(void *p, pfn_t pfn);
	/* Idealized MMU hook; only called when POLICY_ACCESS_HOOK is set. */
	void (*access)(void *p, pfn_t pfn, bool write);
	/* Reclaim: try to free sc->nr_to_reclaim pages. */
	void (*shrink)(void *p, struct scan_control *sc);
	/* Writeback of a page still on the policy's lists completed.  May be NULL. */
	void (*end_writeback)(void *p, pfn_t pfn);
	/* Consistency check for --check; return false and print on error. May be NULL. */
	bool (*check)(void *p, FILE *err);

	/* Refault detection (optional).  evict_shadow() is called when a
	 * page-cache (or swap-cache) page is reclaimed; its value is kept as
	 * the shadow entry in the slot the page leaves.  When a new page fills
	 * a slot holding a shadow, refault() is called with it before
	 * add(pfn, ADD_REFAULT). */
	uint64_t (*evict_shadow)(void *p, pfn_t pfn);
	void (*refault)(void *p, pfn_t pfn, uint64_t shadow);

	/* A periodic kernel thread of the design (vhand, kreclaimd, 2.2's
	 * kswapd timer...).  If tick_ns > 0 the machine runs a kernel thread
	 * named tick_name that calls tick() every tick_ns; its scan_control
	 * has who = RECLAIM_AGING and its work is charged as that thread's
	 * system time (sc->nr_scanned pages scanned plus whatever rmap and
	 * I/O it does), competing with user tasks for CPU. */
	uint64_t tick_ns;
	const char *tick_name;
	void (*tick)(void *p, struct scan_control *sc);

	/* out_of_memory() (optional): the allocator's direct reclaim failed
	 * and no I/O is in flight; now_ns is the allocating task's clock.
	 * true (or NULL): run the OOM killer now; false: not OOM yet - the
	 * task waits and retries the allocation, as 2.4's __alloc_pages()
	 * loops ("yield(); goto rebalance") until out_of_memory() kills. */
	bool (*out_of_memory)(void *p, uint64_t now_ns);
	/* check_tunables() (optional): false, with a one-line reason in err,
	 * for a combination of values the design does not have. */
	bool (*check_tunables)(const double *tun, char *err, size_t errlen);
	/* tunable_flags() (optional): POLICY_* flags that depend on the
	 * tunables' values (tun may be NULL: the defaults), e.g. clock's
	 * first_ref=0 is POLICY_FAULT_NOT_YOUNG.  mm_set_policy() ORs them
	 * into flags once; a policy never writes the core's fields to change
	 * how the core behaves. */
	unsigned (*tunable_flags)(const double *tun);
	/* frames_ok() (optional): false, with a one-line reason in err, for
	 * a number of frames (in a cache: the cache-only replay) that the
	 * policy's own tables cannot index with tunables tun (NULL: the
	 * defaults); asked before anything is built (policy_frames_ok()). */
	bool (*frames_ok)(uint64_t frames, bool cache, const double *tun, char *err, size_t errlen);

	/* admit() (optional): a page entering the page cache
	 * (pagecache_add: read(), readahead, file faults, write()), before
	 * add(): false marks it PG_dropbehind; filemap_read() drops it once
	 * copied (with no mark_accessed()), the end of its writeback once
	 * written, a file fault clears the flag (filemap.c, filemap_mmap.c;
	 * cache_ext's admit_folio).  NULL admits all. */
	bool (*admit)(void *p, pfn_t pfn);
	/* cgroup_init() / cgroup_exit() (optional, not with
	 * POLICY_MEMCG_LRU, whose instances are per cgroup already): under
	 * a --cgroup tree, once per cgroup after init() in id order, and
	 * once per cgroup before destroy() in reverse (cache_ext's per-memcg
	 * init and exit). */
	void (*cgroup_init)(void *p, int cg, int parent, const char *path);
	void (*cgroup_exit)(void *p, int cg);
	/* node_priority() (optional, POLICY_MEMCG_GEN_LRU): before the memcg
	 * LRU's walk, lru_gen_shrink_node()'s set_initial_priority() from
	 * the node's pages: lruvecs[0..n-1] every cgroup's instance, the
	 * root's first. */
	void (*node_priority)(void *const *lruvecs, int n, struct scan_control *sc);
};

#endif
