/* arcq.h - ARC's resident lists T1 and T2 (arc.c) as queues of frames:
 * one 16-byte node per frame with the links, the page's history entry
 * (ghost.h; on the machine) or id (in a cache) and the list, as
 * bench/limit/arc.c keeps its queue links in arrays by page.  Only B1
 * and B2, whose pages have no frame, stay on the ghost table's lists (on
 * the machine) or in rings of ids (in a cache, arc.c).
 *
 * Why: with T1 and T2 on the ghost table too, an ARC hit read the page's
 * record map slot, its 64-byte ghost entry and both neighbours' entries
 * (entries of a pool of 2c, 12.8 MB at 100 K frames) - on 2 M Zipf
 * references in 100 K frames 2.9 host cache lines past a 512 KB cache per
 * reference, where the limit takes 1.3 (cachegrind).  A hit now reads the
 * frame's node, found through the frame in the PTE (cache_mode.h:
 * frecs), and its neighbours' nodes, in an array of 1.6 MB.
 *
 * Lists run from head (most recent) to tail (oldest). */
#ifndef PAGELAB_ARCQ_H
#define PAGELAB_ARCQ_H

#include <stdint.h>
#include "../mm/page.h"

/* A resident page's place: prev and next first (the replay's prefetch of
 * a hit's neighbours reads them, cache_mode.h: rec_prev, rec_next). */
struct arcq_node {
	pfn_t prev, next;   /* towards the head, towards the tail; PFN_NONE */
	uint32_t tag;       /* the machine: its ghost entry << 1 | its list (0 T1, 1 T2); a cache: the list */
	uint32_t id;        /* in a cache: its page id, the PTE's index */
};
_Static_assert(sizeof(struct arcq_node) == 16, "four nodes a host cache line");

struct arcq {
	pfn_t head, tail;
	uint64_t n;
};

/* The frame's list (0 or 1) and its ghost entry. */
static inline int arcq_on(const struct arcq_node *nd, pfn_t f) { return (int)(nd[f].tag & 1); }
static inline uint32_t arcq_entry(const struct arcq_node *nd, pfn_t f) { return nd[f].tag >> 1; }

/* Frame f, on no list, to the head of list k of q. */
static inline void arcq_push(struct arcq_node *nd, struct arcq *q, int k, pfn_t f)
{
	struct arcq *l = &q[k];
	nd[f].tag = (nd[f].tag & ~1u) | (uint32_t)k;
	nd[f].prev = PFN_NONE;
	nd[f].next = l->head;
	if (l->head != PFN_NONE)
		nd[l->head].prev = f;
	else
		l->tail = f;
	l->head = f;
	l->n++;
}

/* Frame f off its list. */
static inline void arcq_del(struct arcq_node *nd, struct arcq *q, pfn_t f)
{
	struct arcq *l = &q[arcq_on(nd, f)];
	pfn_t p = nd[f].prev, n = nd[f].next;
	if (p != PFN_NONE)
		nd[p].next = n;
	else
		l->head = n;
	if (n != PFN_NONE)
		nd[n].prev = p;
	else
		l->tail = p;
	l->n--;
}

/* Frame f, on a list, to the head of list k. */
static inline void arcq_move_head(struct arcq_node *nd, struct arcq *q, int k, pfn_t f)
{
	struct arcq *l = &q[k];
	if (l->head == f)
		return;
	if (arcq_on(nd, f) != k) {
		arcq_del(nd, q, f);
		arcq_push(nd, q, k, f);
		return;
	}
	/* Within the list (ARC's hit in T2): only the links change.  Not
	 * the head, so it has a prev, and the list has a head. */
	pfn_t p = nd[f].prev, n = nd[f].next;
	nd[p].next = n;
	if (n != PFN_NONE)
		nd[n].prev = p;
	else
		l->tail = p;
	nd[f].prev = PFN_NONE;
	nd[f].next = l->head;
	nd[l->head].prev = f;
	l->head = f;
}

#endif
