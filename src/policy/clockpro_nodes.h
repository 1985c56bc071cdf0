/* clockpro_nodes.h - CLOCK-Pro's entries in a cache (the cache-only
 * replay, clockpro.c): a resident page is its frame, node pfn, and only a
 * non-resident page in its test period has an entry of its own, node
 * F + g (F frames, g its ghost slot), as bench/limit/clockpro.c keeps
 * state per page and nothing per resident one beyond it.  On the machine
 * every page, resident or not, has a ghost table entry (research.h), and
 * that entry's number is its node.
 *
 * A ghost table entry for each resident page was 64 bytes taken,
 * assigned, attached to the frame, detached and freed on every miss (a
 * tenth of a CLOCK-Pro replay's instructions, callgrind, and a host line
 * written per miss); a ghost slot is 4 bytes, taken only when an evicted
 * page stays on the clock.  The replay's record map holds the node of each
 * page that has one (recmap[id], UINT32_MAX: none), so the record it
 * prefetches for a hit is the frame's flag byte, and a miss finds a ghost
 * there. */
#ifndef PAGELAB_CLOCKPRO_NODES_H
#define PAGELAB_CLOCKPRO_NODES_H

#include <stdint.h>
#include "../mm/page.h"

struct cp_nodes {
	uint32_t nframes;   /* F: the nodes below it are frames */
	uint32_t *ids;      /* per frame: its page's id */
	uint32_t *gid;      /* per ghost slot: its page's id, or the next free slot */
	uint32_t gnr, gcap; /* ghost slots used (incl. freed), allocated */
	uint32_t gfree;     /* freed slots, chained through gid */
	uint32_t nghost;    /* ghosts held */
};

void cpn_init(struct cp_nodes *n, uint32_t nframes);
void cpn_destroy(struct cp_nodes *n);

/* Nodes below this have room in the policy's arrays by node (it grows
 * as ghost slots are added). */
static inline uint32_t cpn_limit(const struct cp_nodes *n) { return n->nframes + n->gcap; }

static inline int cpn_is_ghost(const struct cp_nodes *n, uint32_t node) { return node >= n->nframes; }

/* Page id comes in to frame pfn: its ghost node, if it had one (still the
 * caller's to drop), or UINT32_MAX; its node is pfn from now on. */
static inline uint32_t cpn_add(struct cp_nodes *n, uint32_t *recmap, uint32_t id, pfn_t pfn)
{
	uint32_t old = recmap[id];
	n->ids[pfn] = id;
	recmap[id] = pfn;
	return old;
}

/* The page in frame pfn is no longer resident (evicted or removed). */
static inline void cpn_unlist(struct cp_nodes *n, uint32_t *recmap, pfn_t pfn)
{
	recmap[n->ids[pfn]] = UINT32_MAX;
}

/* A free ghost slot: a freed one, else a new one (growing the slots). */
uint32_t cpn_take_slow(struct cp_nodes *n);

/* The page evicted from frame pfn stays on the clock: its ghost node
 * (the caller grows its arrays to cpn_limit()).  Inline: most misses
 * evict a page in its test period. */
static inline uint32_t cpn_ghost(struct cp_nodes *n, uint32_t *recmap, pfn_t pfn)
{
	uint32_t g = n->gfree;
	if (g != UINT32_MAX)
		n->gfree = n->gid[g];
	else
		g = cpn_take_slow(n);
	uint32_t id = n->ids[pfn];
	n->gid[g] = id;
	n->nghost++;
	return recmap[id] = n->nframes + g;
}

/* Ghost node `node`'s slot goes back to the free slots. */
static inline void cpn_free(struct cp_nodes *n, uint32_t node)
{
	uint32_t g = node - n->nframes;
	n->gid[g] = n->gfree;
	n->gfree = g;
	n->nghost--;
}

/* Ghost node `node` is forgotten, its test period over: its page is not
 * resident, so the node is its record map slot's, and the slot is
 * cleared unread (clockpro_check's node_sound checks that every ghost on
 * the clock is).  Read first, the slot - a random line of a map of 4
 * bytes a page id, after the ghost's id it waited for - was two thirds of
 * this drop's time, and the drop a fifth of a replay's (HAND_hot's and
 * HAND_test's end of test periods; perf, make bench's trace).  Inline:
 * a call on each of those ends. */
static inline void cpn_drop(struct cp_nodes *n, uint32_t *recmap, uint32_t node)
{
	recmap[n->gid[node - n->nframes]] = UINT32_MAX;
	cpn_free(n, node);
}

#endif
