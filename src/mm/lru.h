/* lru.h - doubly linked lists of frames, threaded through struct page.
 *
 * The mm core owns every list (free, unevictable, pages being written back
 * before they are freed) and the lists each policy registers (active,
 * inactive, generations...).  A frame is on at most one list; page->lru says
 * which.  All operations are O(1). */
#ifndef PAGELAB_LRU_H
#define PAGELAB_LRU_H

#include <stdint.h>
#include "page.h"

#define LRU_NONE 0
#define MAX_LRU_LISTS 24

/* What a list is in /proc/vmstat's LRU gauges (nr_active_anon...): a
 * policy's list is inactive unless it says otherwise; the core's free,
 * unevictable and writeback-to-free lists, and 2.4's off-LRU anonymous
 * pages, are no LRU list at all. */
enum lru_kind { LRU_KIND_INACTIVE, LRU_KIND_ACTIVE, LRU_KIND_NONE };

struct lru_list {
	pfn_t head, tail;       /* head = most recently added */
	uint64_t count;
	uint64_t nr_file;       /* of count: not swap-backed (!PG_anon) */
	const char *name;
	enum lru_kind kind;
};

struct frames {
	struct page *pages;
	pfn_t nr;
	struct lru_list lists[MAX_LRU_LISTS];
	int nr_lists;
};

/* Register a list; returns its id (>= 1). */
int lru_register(struct frames *f, const char *name);

void lru_set_kind(struct frames *f, int list, enum lru_kind kind);

void lru_add_head(struct frames *f, int list, pfn_t pfn);
void lru_add_tail(struct frames *f, int list, pfn_t pfn);
void lru_del(struct frames *f, pfn_t pfn);
/* Move to the head / tail of a (possibly different) list. */
void lru_move_head(struct frames *f, int list, pfn_t pfn);
void lru_move_tail(struct frames *f, int list, pfn_t pfn);

static inline struct page *pfn_page(const struct frames *f, pfn_t pfn)
{
	return &f->pages[pfn];
}
static inline uint64_t lru_count(const struct frames *f, int list)
{
	return f->lists[list].count;
}
static inline pfn_t lru_head(const struct frames *f, int list) { return f->lists[list].head; }
static inline pfn_t lru_tail(const struct frames *f, int list) { return f->lists[list].tail; }

#endif
