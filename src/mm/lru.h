/* lru.h - doubly linked lists of frames, threaded through a dense array of
 * per-frame link records beside the struct pages.
 *
 * The mm core owns every list (free, unevictable, pages being written back
 * before they are freed) and the lists each policy registers (active,
 * inactive, generations...).  A frame is on at most one list; lru_on()
 * says which.  All operations are O(1).
 *
 * Why the links are not in struct page: a move to the head (exact LRU's
 * every hit) writes the frame's links and both neighbours' - three frames
 * at random.  In struct page (56 bytes with the links) those were three
 * host cache lines among 5.6 MB for 100K frames, beyond the host's 2 MiB
 * L2; in 12-byte records they are among 1.2 MB, and the move never reads
 * the struct page at all (docs/trace-format.md, "Speed"). */
#ifndef PAGELAB_LRU_H
#define PAGELAB_LRU_H

#include <stdbool.h>
#include <stdint.h>
#include "page.h"

#define LRU_NONE 0
/* Room for a policy instance per cgroup of a --cgroup tree (cgtree.h;
 * mglru's 8 lists each); a plugin registers within the first
 * PLUGIN_MAX_LRU_LISTS (its lists are a 32-bit mask). */
#define MAX_LRU_LISTS 160
#define PLUGIN_MAX_LRU_LISTS 24

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

/* A frame's place on the lists: its neighbours towards the tail (next)
 * and the head (prev), and the list it is on (LRU_NONE: none). */
struct lru_link {
	pfn_t next, prev;
	uint16_t lru;
	uint16_t pad;
};

struct frames {
	struct page *pages;
	struct lru_link *links;  /* one per frame, indexed by pfn */
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
	struct lru_link *k = &f->links[pfn];
	if (k->lru != LRU_NONE)
		lru_panic_on_list(f, list, pfn);
	k->lru = (uint16_t)list;
	if (at_head) {
		k->prev = PFN_NONE;
		k->next = l->head;
		if (l->head != PFN_NONE)
			f->links[l->head].prev = pfn;
		else
			l->tail = pfn;
		l->head = pfn;
	} else {
		k->next = PFN_NONE;
		k->prev = l->tail;
		if (l->tail != PFN_NONE)
			f->links[l->tail].next = pfn;
		else
			l->head = pfn;
		l->tail = pfn;
	}
	l->count++;
	if (!(f->pages[pfn].flags & PG_anon))
		l->nr_file++;
}

static inline void lru_add_head(struct frames *f, int list, pfn_t pfn) { lru_link(f, list, pfn, true); }
static inline void lru_add_tail(struct frames *f, int list, pfn_t pfn) { lru_link(f, list, pfn, false); }

static inline void lru_del(struct frames *f, pfn_t pfn)
{
	struct lru_link *k = &f->links[pfn];
	if (k->lru == LRU_NONE)
		return;
	struct lru_list *l = &f->lists[k->lru];
	if (k->prev != PFN_NONE)
		f->links[k->prev].next = k->next;
	else
		l->head = k->next;
	if (k->next != PFN_NONE)
		f->links[k->next].prev = k->prev;
	else
		l->tail = k->prev;
	k->next = k->prev = PFN_NONE;
	k->lru = LRU_NONE;
	l->count--;
	if (!(f->pages[pfn].flags & PG_anon))
		l->nr_file--;
}

/* Move to the head / tail of a (possibly different) list.  Within one
 * list only the links change, not the counts: exact LRU makes that move
 * on every hit, so it is done without the del + add round trip (and
 * always inline: gcc called it out of the cache-only replay's loop once
 * that file inlined the fault too, 6% more instructions). */
__attribute__((always_inline)) static inline void lru_move_head(struct frames *f, int list, pfn_t pfn)
{
	struct lru_link *k = &f->links[pfn];
	struct lru_list *l = &f->lists[list];
	if (k->lru != list) {
		lru_del(f, pfn);
		lru_add_head(f, list, pfn);
		return;
	}
	if (l->head == pfn)
		return;
	/* Not the head, so it has a prev. */
	f->links[k->prev].next = k->next;
	if (k->next != PFN_NONE)
		f->links[k->next].prev = k->prev;
	else
		l->tail = k->prev;
	k->prev = PFN_NONE;
	k->next = l->head;
	f->links[l->head].prev = pfn;
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
/* The list pfn is on (LRU_NONE: none), its neighbour towards the tail
 * (next) and towards the head (prev), PFN_NONE at an end. */
static inline int lru_on(const struct frames *f, pfn_t pfn) { return f->links[pfn].lru; }
static inline pfn_t lru_next(const struct frames *f, pfn_t pfn) { return f->links[pfn].next; }
static inline pfn_t lru_prev(const struct frames *f, pfn_t pfn) { return f->links[pfn].prev; }
static inline pfn_t lru_tail(const struct frames *f, int list) { return f->lists[list].tail; }

#endif
