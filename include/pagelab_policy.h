/* pagelab_policy.h - reclaim policies built out of pagelab's tree.
 *
 * A plugin is a shared object exporting one function,
 *
 *	const struct pagelab_policy *pagelab_policy_entry(void);
 *
 * loaded with `pagelab run --policy ./mypolicy.so`.  Its struct carries
 * abi = PAGELAB_POLICY_ABI, the version of this header it was built
 * against.  Version 2 added admit(), cgroup_init(), cgroup_exit(),
 * pagelab_page_cgroup() and sc->cgroup (cache_ext's admit_folio and
 * per-memcg init/exit: docs/bpf-hooks.md); a version-1 plugin still loads
 * and runs unchanged, and one built for a newer version than the
 * pagelab loading it is refused with one line (exit 2).  Define
 * PAGELAB_POLICY_ABI as 1 before including this header to build a plugin
 * an older pagelab loads (the struct then ends where version 1's did).
 * See docs/policies.md and examples/policy-lifo/.
 *
 * The division of labour is the one pagelab's own policies follow: the
 * core owns frames, page tables, swap, writeback and freeing; a policy
 * only keeps pages on lists of its own and, when asked to shrink, picks
 * victims and hands each to pagelab_evict().  What a policy must keep
 * consistent (--check verifies it after every event):
 *  - every page given to add() is on exactly one of its lists until
 *    remove() is called for it or pagelab_evict() took it;
 *  - a page is taken off its list (pagelab_lru_del) before pagelab_evict();
 *    when the result is PAGELAB_EVICT_REFUSED or _NOSWAP the policy must
 *    put it back on one of its lists; after _GONE or _CULLED it is the
 *    core's;
 *  - shrink() stops once sc->nr_reclaimed >= sc->nr_to_reclaim, or after
 *    one look at each page (a page that cannot go now must not be retried
 *    in the same pass), and stops at PAGELAB_EVICT_NOSWAP for anonymous
 *    pages.
 * pagelab checks all of this, and every page number and list id a plugin
 * passes: a plugin that breaks a rule, crashes in a callback or does not
 * return from one within PAGELAB_PLUGIN_TIMEOUT (10 s of host time by
 * default) ends the run with one line naming it and the call, exit 1
 * (docs/policies.md, "What pagelab checks").  init() returning NULL
 * means it could not start.
 *
 * A policy learns of references the way the kernel does, through
 * pagelab_page_referenced() (test-and-clear the accessed bits of every
 * PTE mapping the page) and mark_accessed() (read()/write() of a cached
 * page); or, with PAGELAB_POLICY_ACCESS_HOOK, access() on every reference
 * (an idealized MMU, for textbook policies).
 */
#ifndef PAGELAB_POLICY_PLUGIN_H
#define PAGELAB_POLICY_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The newest version this header describes, and the one a plugin is
 * built for (the newest, unless defined before the #include). */
#define PAGELAB_POLICY_ABI_LATEST 2
#ifndef PAGELAB_POLICY_ABI
#define PAGELAB_POLICY_ABI PAGELAB_POLICY_ABI_LATEST
#endif
#if PAGELAB_POLICY_ABI < 1 || PAGELAB_POLICY_ABI > PAGELAB_POLICY_ABI_LATEST
#error "PAGELAB_POLICY_ABI: this pagelab_policy.h describes versions 1 and 2"
#endif

#ifndef PAGELAB_EXPORT
#define PAGELAB_EXPORT __attribute__((visibility("default")))
#endif

/* A frame number, and "no frame" (an empty list's head). */
typedef uint32_t pagelab_pfn;
#define PAGELAB_PFN_NONE UINT32_MAX

/* The simulated machine's memory, as a policy sees it: opaque. */
struct pagelab_mm;

/* Why a page enters the policy (add()). */
enum pagelab_add_reason {
	PAGELAB_ADD_NEW_ANON,     /* demand-zero anonymous fault */
	PAGELAB_ADD_SWAPIN,       /* read back from swap (major fault) */
	PAGELAB_ADD_SWAPCACHE,    /* found in the swap cache (minor fault) */
	PAGELAB_ADD_PAGECACHE,    /* new page-cache page */
	PAGELAB_ADD_PUTBACK,      /* returned by the core (munlock, failed reclaim) */
	PAGELAB_ADD_REFAULT,      /* page-cache / swap-cache refault */
};

/* Who is reclaiming. */
enum pagelab_reclaimer { PAGELAB_KSWAPD, PAGELAB_DIRECT, PAGELAB_AGING };

/* One reclaim pass: what it is asked, and what it did (the policy adds
 * to nr_rotated and nr_activated; pagelab_evict() keeps nr_scanned and
 * nr_reclaimed). */
struct pagelab_scan {
	uint64_t nr_to_reclaim;
	int priority;             /* 12 (DEF_PRIORITY) .. 0; smaller = more urgent */
	enum pagelab_reclaimer who;
	bool may_swap;
	bool may_writepage;
	uint64_t nr_scanned;
	uint64_t nr_reclaimed;
	uint64_t nr_rotated;
	uint64_t nr_activated;
	void *core;               /* the core's own pass: do not touch */
#if PAGELAB_POLICY_ABI >= 2
	/* The cgroup whose limit this pass reclaims for, with its
	 * descendants (cgroup_init()'s id: cache_ext's evict_folios(ctx,
	 * memcg)); 0 when the whole machine is short (kswapd, direct
	 * reclaim), and always under --memcg, whose one cgroup is init()'s. */
	int cgroup;
#endif
};

/* A tunable: `--set NAME=VALUE`, listed by `pagelab policies`. */
struct pagelab_tunable {
	const char *name;
	const char *kernel_name;  /* where the knob comes from */
	double def, min, max;
	const char *help;
};

#define PAGELAB_POLICY_ACCESS_HOOK (1u << 0)

struct pagelab_policy {
	int abi;                  /* PAGELAB_POLICY_ABI */
	const char *name;
	const char *summary;
	const struct pagelab_tunable *tunables; /* ends with {0}; may be NULL */
	unsigned flags;

	/* tun[i] is the value of tunables[i]. */
	void *(*init)(struct pagelab_mm *mm, const double *tun);
	void (*destroy)(void *p);
	void (*add)(void *p, pagelab_pfn pfn, enum pagelab_add_reason why);
	/* The page leaves the policy (freed by exit/munmap): unlink it. */
	void (*remove)(void *p, pagelab_pfn pfn);
	/* The read()/write() path touched a cached page.  May be NULL. */
	void (*mark_accessed)(void *p, pagelab_pfn pfn);
	/* Every reference, with PAGELAB_POLICY_ACCESS_HOOK.  May be NULL. */
	void (*access)(void *p, pagelab_pfn pfn, bool write);
	/* Reclaim: try to free sc->nr_to_reclaim pages. */
	void (*shrink)(void *p, struct pagelab_scan *sc);
	/* Consistency check for --check: false (and a line on err) if broken.
	 * May be NULL. */
	bool (*check)(void *p, FILE *err);
#if PAGELAB_POLICY_ABI >= 2
	/* --- Version 2 (read only from a struct whose abi is 2 or more) --- */
	/* A page entering the page cache (read(), readahead, a file fault,
	 * or a write() creating it), before add(): true to cache it; false
	 * makes it "dropbehind" (cache_ext's admit_folio, 6.14+
	 * RWF_DONTCACHE): it is still given to add(), and the core drops it
	 * again (remove(), no shadow entry) once the read() that copies it
	 * is done, unless it is dirty or under writeback by then, or, if
	 * dirty, once its writeback ends clean.  The read that copies it
	 * does not report it accessed (6.14+ folio_mark_accessed() skips a
	 * dropbehind folio); a mmap fault on it admits it after all (clears
	 * the flag, as filemap_get_folio() does).  The page is not the policy's
	 * yet: only pagelab_page_state() and pagelab_page_word() may be
	 * called.  NULL: every page is admitted. */
	bool (*admit)(void *p, pagelab_pfn pfn);
	/* Under a --cgroup tree, once per cgroup after init() (ids 1.., a
	 * parent before its children; parent 0 is the root, whose pages
	 * are init()'s): set up the cgroup's state, lists included
	 * (pagelab_lru_register may be called here too).  Non-zero: it
	 * could not, and the run ends (exit 1).  May be NULL. */
	int (*cgroup_init)(void *p, int cgroup, int parent, const char *path);
	/* At the end of the run, once per cgroup cgroup_init() set up,
	 * children first, before destroy(): drop its state.  The pages are
	 * still where the run left them.  May be NULL. */
	void (*cgroup_exit)(void *p, int cgroup);
#endif
};

/* The plugin's entry point. */
PAGELAB_EXPORT const struct pagelab_policy *pagelab_policy_entry(void);

/* --- What a policy may call ------------------------------------------- */

/* Lists: a policy registers its own (up to a few each) in init() or
 * cgroup_init(). */
PAGELAB_EXPORT int pagelab_lru_register(struct pagelab_mm *mm, const char *name);
PAGELAB_EXPORT void pagelab_lru_add_head(struct pagelab_mm *mm, int list, pagelab_pfn pfn);
PAGELAB_EXPORT void pagelab_lru_add_tail(struct pagelab_mm *mm, int list, pagelab_pfn pfn);
PAGELAB_EXPORT void pagelab_lru_del(struct pagelab_mm *mm, pagelab_pfn pfn);
/* Head = most recently added; PAGELAB_PFN_NONE when the list is empty. */
PAGELAB_EXPORT pagelab_pfn pagelab_lru_head(const struct pagelab_mm *mm, int list);
PAGELAB_EXPORT pagelab_pfn pagelab_lru_tail(const struct pagelab_mm *mm, int list);
/* The neighbour towards the tail (next) / head (prev), or NONE. */
PAGELAB_EXPORT pagelab_pfn pagelab_lru_next(const struct pagelab_mm *mm, pagelab_pfn pfn);
PAGELAB_EXPORT pagelab_pfn pagelab_lru_prev(const struct pagelab_mm *mm, pagelab_pfn pfn);
PAGELAB_EXPORT uint64_t pagelab_lru_count(const struct pagelab_mm *mm, int list);

/* Test and clear the accessed bits of every PTE mapping the page: the
 * number that were set (the kernel's page_referenced()). */
PAGELAB_EXPORT int pagelab_page_referenced(struct pagelab_mm *mm, pagelab_pfn pfn);
/* Page state. */
#define PAGELAB_PAGE_ANON       (1u << 0)  /* swap-backed */
#define PAGELAB_PAGE_DIRTY      (1u << 1)
#define PAGELAB_PAGE_WRITEBACK  (1u << 2)
#define PAGELAB_PAGE_MAPPED     (1u << 3)  /* some PTE maps it */
#define PAGELAB_PAGE_MLOCKED    (1u << 4)
PAGELAB_EXPORT unsigned pagelab_page_state(const struct pagelab_mm *mm, pagelab_pfn pfn);
/* A 64-bit word per frame for the policy's own use (age, timestamps). */
PAGELAB_EXPORT uint64_t *pagelab_page_word(struct pagelab_mm *mm, pagelab_pfn pfn);
PAGELAB_EXPORT uint64_t pagelab_nr_frames(const struct pagelab_mm *mm);
/* Version 2: the cgroup the page is charged to (a cgroup_init() id),
 * 0 for the root's pages and without a --cgroup tree. */
PAGELAB_EXPORT int pagelab_page_cgroup(const struct pagelab_mm *mm, pagelab_pfn pfn);

/* Hand a victim, already off its list, to the core: unmap, write it out
 * if dirty, free.  Counts sc->nr_scanned and sc->nr_reclaimed. */
enum pagelab_evict_result {
	PAGELAB_EVICT_GONE,       /* reclaimed (freed, or freed after writeback) */
	PAGELAB_EVICT_CULLED,     /* mlocked: moved to the core's unevictable list */
	PAGELAB_EVICT_REFUSED,    /* busy: put it back */
	PAGELAB_EVICT_NOSWAP,     /* swap full: put it back; stop evicting anon */
};
PAGELAB_EXPORT enum pagelab_evict_result pagelab_evict(struct pagelab_mm *mm, struct pagelab_scan *sc,
					pagelab_pfn pfn);

#ifdef __cplusplus
}
#endif

#endif
