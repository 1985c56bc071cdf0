/* lru.h - exact LRU's hit (lru.c), inline for the cache-only replay's
 * reference loop (src/cachesim), which runs it on every reference without
 * the call through policy_ops->access: the same code as lru_access(), so
 * nothing simulated changes, but the loop keeps its state in registers
 * across a reference instead of reloading it after an opaque call (with
 * the call, a fifth of an LRU hit's instructions; callgrind). */
#ifndef PAGELAB_POLICY_LRU_H
#define PAGELAB_POLICY_LRU_H

#include "policy.h"
#include "../mm/scan_ahead.h"

struct lru {
	struct mm *mm;
	int list;
	struct scan_ahead ahead;  /* the next victims, a host-speed hint (scan_ahead.h) */
};

extern const struct policy_ops lru_policy;

/* A reference to pfn: to the head of the list, if it is on it (and no
 * longer the victims' look-ahead cursor: it left the tail's end).  `list`
 * is l->list, read by a caller that keeps it (the cache-only replay's
 * loop: stores to the links may alias l->list, which was read again, and
 * its list's address computed again, on every hit). */
__attribute__((always_inline)) static inline void lru_hit_list(struct lru *l, struct frames *fr, int list, pfn_t pfn)
{
	if (lru_on(fr, pfn) == list && fr->lists[list].head != pfn) {
		scan_ahead_forget(&l->ahead, pfn);
		lru_move_head(fr, list, pfn);
	}
}

__attribute__((always_inline)) static inline void lru_hit(struct lru *l, struct frames *fr, pfn_t pfn)
{
	lru_hit_list(l, fr, l->list, pfn);
}

#endif
