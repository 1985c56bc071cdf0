/* ghost.h - per-page history that outlives residency, for the research
 * policies: ARC's B1/B2, 2Q's A1out, LIRS's non-resident HIR pages in its
 * stack S, CLOCK-Pro's non-resident test pages, S3-FIFO's ghost queue G,
 * LRU-K's retained history.
 *
 * An entry stands for one page identity (page->owner, page->index and
 * whether it is a page-cache page), resident or not: a resident page's
 * frame holds its entry number + 1 in page->pol32[0] and the entry holds
 * the frame.  The policies keep their queues here rather than on frame
 * lists because their queues mix resident and non-resident pages (LIRS,
 * CLOCK-Pro) or outlive the frame (ARC, 2Q, S3-FIFO).  An entry can sit on
 * two lists at once, one per link slot (LIRS: stack S in slot 0, queue Q in
 * slot 1).  Lists run from head (most recent) to tail (oldest).
 *
 * No allocation per reference: the pool and the hash table grow by
 * doubling, so a replay allocates O(log pages) times.
 */
#ifndef PAGELAB_GHOST_H
#define PAGELAB_GHOST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "../mm/page.h"

#define GH_NONE UINT32_MAX
#define GH_MAX_LISTS 6

struct gh_entry {
	uint64_t index;           /* page->index */
	uint64_t okey;            /* ghost_okey(): owner and file bit; 0 = free */
	uint32_t hnext;           /* hash chain */
	pfn_t pfn;                /* resident frame, or PFN_NONE */
	uint32_t next[2], prev[2];/* per slot: next = towards the tail */
	uint8_t list[2];          /* per slot: list id + 1, 0 = none */
	uint8_t flags;            /* the policy's */
	uint8_t pad;
	uint32_t u32;             /* the policy's */
	uint64_t u64;             /* the policy's */
	/* To 64 bytes, one host cache line in a pool that starts on one
	 * (xcalloc_huge's from 2 MB, the size where it matters): at 56 bytes five entries in eight crossed a
	 * line, and the prefetch of an entry (the replay's of a record,
	 * rp_prefetch_tail's of a queue's next tail) fetched its first
	 * line only, so a hit's u32 or a tail's prev link was still a miss
	 * waited for (S3-FIFO's replay, perf). */
	uint64_t spare;
};
_Static_assert(sizeof(struct gh_entry) == 64, "a ghost entry is one host cache line");

struct gh_list {
	uint32_t head, tail;
	uint64_t n;
	int slot;
};

struct ghost {
	struct gh_entry *e;
	uint32_t nr, cap;         /* entries used (incl. freed), allocated */
	uint32_t free_head;       /* freed entries, chained through hnext */
	uint32_t *bucket;
	uint32_t nbucket;         /* power of two */
	uint64_t live;            /* entries in the hash */
	struct gh_list lists[GH_MAX_LISTS];
	int nlists;
	/* Dense mode (ghost_dense): pages are named by dense ids (the
	 * cache-only replay's), the entry of page id is (*byid)[id]
	 * (GH_NONE: none), an array whose owner sizes it for every id, and
	 * the hash is not used.  A miss found its entry through two hash
	 * probes, bucket then chain, each a host cache miss on a large
	 * trace: a fifth of an ARC or SIEVE replay's time (perf).  NULL on
	 * the machine. */
	uint32_t *const *byid;
};

void ghost_init(struct ghost *g, uint64_t expect);
void ghost_destroy(struct ghost *g);
/* A new list whose links use slot 0 or 1. */
int ghost_list_new(struct ghost *g, int slot);

/* The identity key of a page (never 0: 0 marks a free entry). */
static inline uint64_t ghost_okey(uint32_t owner, bool file) { return 1ULL << 63 | (uint64_t)owner << 1 | file; }
static inline uint64_t ghost_page_okey(const struct page *p)
{
	return ghost_okey(p->owner, (p->flags & PG_file) != 0);
}

/* Dense mode from now on (an empty ghost table), the entries by id in
 * *byid (filled with GH_NONE by its owner, long enough for every id). */
void ghost_dense(struct ghost *g, uint32_t *const *byid);
/* Dense mode: the entry of page id, or GH_NONE. */
static inline uint32_t ghost_find_id(const struct ghost *g, uint64_t id) { return (*g->byid)[id]; }
/* Dense mode: a new entry for page id (which has none), as ghost_new(). */
uint32_t ghost_new_id(struct ghost *g, uint64_t id);

/* The entry of (okey, index), or GH_NONE. */
uint32_t ghost_find(const struct ghost *g, uint64_t okey, uint64_t index);
/* A new entry (on no list, pfn PFN_NONE, policy fields zero); the key must
 * not be present. */
uint32_t ghost_new(struct ghost *g, uint64_t okey, uint64_t index);
/* Forget an entry: off every list and out of the hash. */
void ghost_free(struct ghost *g, uint32_t i);

static inline struct gh_entry *ghost_e(const struct ghost *g, uint32_t i) { return &g->e[i]; }
static inline uint64_t ghost_count(const struct ghost *g, int list) { return g->lists[list].n; }
static inline uint32_t ghost_head(const struct ghost *g, int list) { return g->lists[list].head; }
static inline uint32_t ghost_tail(const struct ghost *g, int list) { return g->lists[list].tail; }
/* The list id entry i is on in slot `slot`, or -1. */
static inline int ghost_on(const struct ghost *g, uint32_t i, int slot) { return (int)g->e[i].list[slot] - 1; }
/* Neighbours on the list the entry is on in `slot` (GH_NONE at the ends). */
static inline uint32_t ghost_toward_head(const struct ghost *g, uint32_t i, int slot) { return g->e[i].prev[slot]; }
static inline uint32_t ghost_toward_tail(const struct ghost *g, uint32_t i, int slot) { return g->e[i].next[slot]; }

/* The list operations are inline: ARC, 2Q and the others make one or two
 * on every reference (callgrind: 22% of an ARC replay's instructions were
 * in these calls into ghost.c). */
/* Put entry i at the head or the tail of list (in that list's slot).
 * at_head is a constant at every call, so each caller inlines one side. */
static inline void ghost_link(struct ghost *g, int list, uint32_t i, bool at_head)
{
	struct gh_list *l = &g->lists[list];
	struct gh_entry *e = &g->e[i];
	int s = l->slot;
	e->list[s] = (uint8_t)(list + 1);
	if (at_head) {
		e->prev[s] = GH_NONE;
		e->next[s] = l->head;
		if (l->head != GH_NONE)
			g->e[l->head].prev[s] = i;
		else
			l->tail = i;
		l->head = i;
	} else {
		e->next[s] = GH_NONE;
		e->prev[s] = l->tail;
		if (l->tail != GH_NONE)
			g->e[l->tail].next[s] = i;
		else
			l->head = i;
		l->tail = i;
	}
	l->n++;
}

static inline void ghost_add_head(struct ghost *g, int list, uint32_t i) { ghost_link(g, list, i, true); }
static inline void ghost_add_tail(struct ghost *g, int list, uint32_t i) { ghost_link(g, list, i, false); }

/* Take entry i off whatever list it is on in `slot` (no-op if none). */
static inline void ghost_unlink(struct ghost *g, uint32_t i, int slot)
{
	struct gh_entry *e = &g->e[i];
	if (!e->list[slot])
		return;
	struct gh_list *l = &g->lists[e->list[slot] - 1];
	if (e->prev[slot] != GH_NONE)
		g->e[e->prev[slot]].next[slot] = e->next[slot];
	else
		l->head = e->next[slot];
	if (e->next[slot] != GH_NONE)
		g->e[e->next[slot]].prev[slot] = e->prev[slot];
	else
		l->tail = e->prev[slot];
	e->list[slot] = 0;
	e->next[slot] = e->prev[slot] = GH_NONE;
	l->n--;
}

/* Unlink from its list in that list's slot and add at the head of `list`. */
static inline void ghost_move_head(struct ghost *g, int list, uint32_t i)
{
	struct gh_list *l = &g->lists[list];
	int s = l->slot;
	if (l->head == i)
		return;
	struct gh_entry *e = &g->e[i];
	if (e->list[s] != list + 1) {
		ghost_unlink(g, i, s);
		ghost_add_head(g, list, i);
		return;
	}
	/* Within the list (ARC's hit in T2): only the links change.  Not
	 * the head, so it has a prev. */
	g->e[e->prev[s]].next[s] = e->next[s];
	if (e->next[s] != GH_NONE)
		g->e[e->next[s]].prev[s] = e->prev[s];
	else
		l->tail = e->prev[s];
	e->prev[s] = GH_NONE;
	e->next[s] = l->head;
	g->e[l->head].prev[s] = i;
	l->head = i;
}

/* Resident entries: the frame <-> entry links.  Inline: every miss
 * attaches one and detaches another, and each call's entry and exit were
 * as many instructions as its two stores (callgrind). */
static inline void ghost_attach(struct ghost *g, uint32_t i, struct page *pages, pfn_t pfn)
{
	g->e[i].pfn = pfn;
	pages[pfn].pol32[0] = i + 1;
}

static inline void ghost_detach(struct ghost *g, uint32_t i, struct page *pages)
{
	pfn_t pfn = g->e[i].pfn;
	if (pfn != PFN_NONE)
		pages[pfn].pol32[0] = 0;
	g->e[i].pfn = PFN_NONE;
}
/* The entry of a resident frame, or GH_NONE. */
static inline uint32_t ghost_of(const struct page *pages, pfn_t pfn)
{
	return pages[pfn].pol32[0] ? pages[pfn].pol32[0] - 1 : GH_NONE;
}

/* --check: list links and counts sound, resident entries and frames agree.
 * Prints the first problem to err under `name`. */
bool ghost_check(const struct ghost *g, const struct page *pages, const char *name, FILE *err);

#endif
