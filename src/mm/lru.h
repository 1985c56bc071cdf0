/* lru.h - doubly linked lists of frames, threaded through struct page.
 *
 * The mm core owns every list (free, unevictable, pages being written back
 * before they are freed) and the lists each policy registers (active,
 * inactive, generations...).  A frame is on at most one list; page->lru says
 * which.  All operations are O(1). */
#ifndef PAGELAB_LRU_H
#define PAGELAB_LRU_H

#include <stdbool.h>
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

/* The list operations are inline: they run on every reference of a
 * policy with an access hook and several times per fault, and as calls
 * into another file they were a tenth of a cache-only replay's time. */
_Noreturn void lru_panic_on_list(const struct frames *f, int list, pfn_t pfn);

/* Put an off-list frame at the head (most recent end) or the tail of
 * list.  at_head is a constant at every call, so each caller inlines
 * one side. */
static inline void lru_link(struct frames *f, int list, pfn_t pfn, bool at_head)
{
	struct lru_list *l = &f->lists[list];
	struct page *p = &f->pages[pfn];
	if (p->lru != LRU_NONE)
		lru_panic_on_list(f, list, pfn);
	p->lru = (uint16_t)list;
	if (at_head) {
		p->prev = PFN_NONE;
		p->next = l->head;
		if (l->head != PFN_NONE)
			f->pages[l->head].prev = pfn;
		else
			l->tail = pfn;
		l->head = pfn;
	} else {
		p->next = PFN_NONE;
		p->prev = l->tail;
		if (l->tail != PFN_NONE)
			f->pages[l->tail].next = pfn;
		else
			l->head = pfn;
		l->tail = pfn;
	}
	l->count++;
	if (!(p->flags & PG_anon))
		l->nr_file++;
}

static inline void lru_add_head(struct frames *f, int list, pfn_t pfn) { lru_link(f, list, pfn, true); }
static inline void lru_add_tail(struct frames *f, int list, pfn_t pfn) { lru_link(f, list, pfn, false); }

static inline void lru_del(struct frames *f, pfn_t pfn)
{
	struct page *p = &f->pages[pfn];
	if (p->lru == LRU_NONE)
		return;
	struct lru_list *l = &f->lists[p->lru];
	if (p->prev != PFN_NONE)
		f->pages[p->prev].next = p->next;
	else
		l->head = p->next;
	if (p->next != PFN_NONE)
		f->pages[p->next].prev = p->prev;
	else
		l->tail = p->prev;
	p->next = p->prev = PFN_NONE;
	p->lru = LRU_NONE;
	l->count--;
	if (!(p->flags & PG_anon))
		l->nr_file--;
}

/* Move to the head / tail of a (possibly different) list.  Within one
 * list only the links change, not the counts: exact LRU makes that move
 * on every hit, so it is done without the del + add round trip. */
static inline void lru_move_head(struct frames *f, int list, pfn_t pfn)
{
	struct page *p = &f->pages[pfn];
	struct lru_list *l = &f->lists[list];
	if (p->lru != list) {
		lru_del(f, pfn);
		lru_add_head(f, list, pfn);
		return;
	}
	if (l->head == pfn)
		return;
	/* Not the head, so it has a prev. */
	f->pages[p->prev].next = p->next;
	if (p->next != PFN_NONE)
		f->pages[p->next].prev = p->prev;
	else
		l->tail = p->prev;
	p->prev = PFN_NONE;
	p->next = l->head;
	f->pages[l->head].prev = pfn;
	l->head = pfn;
}

static inline void lru_move_tail(struct frames *f, int list, pfn_t pfn)
{
	lru_del(f, pfn);
	lru_add_tail(f, list, pfn);
}

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
