/* idring.h - a FIFO of page ids for the cache-only replay, where pages
 * are dense ids (cache_mode.h): S3-FIFO's G and 2Q's A1out there
 * (idfifo.h).  The ids are in a ring in the order they came; the
 * replay's record map (recmap, cache_mode.h) tells, for each id, whether
 * it is in the FIFO and where:
 * map[id] = IR_TAG | its position.  An id leaves the middle of the FIFO
 * (a reference to a page G remembers) by its map slot alone - the caller
 * writes another value there - and its ring slot, now stale (the map no
 * longer names that position), is skipped when it reaches the tail.  So
 * taking a page off G reads nothing but its map slot, which the replay
 * prefetches references ahead: as a ghost table entry (ghost.h), G's
 * doubly linked list made that a 64-byte entry read at random and its
 * two neighbours written, on every miss G remembered (a quarter of
 * S3-FIFO's shrink in perf), and every page G took a pool entry.
 *
 * Stale slots are dropped as the tail passes them; if they fill the ring
 * it is compacted (the live ids moved up in order, their map slots
 * rewritten), which a ring of at least twice the most live ids makes
 * rare: after one, at least as many pushes come before the next. */
#ifndef PAGELAB_IDRING_H
#define PAGELAB_IDRING_H

#include <stdbool.h>
#include <stdint.h>

/* A map value: the ring's tag | position (mod 2^30) for an id in the
 * FIFO; IR_TAG unless idr_init_tag() says.  Frames and GH_NONE, the map's
 * other values, are outside that range: frames are below 2^31
 * (s3fifo_frames_ok(): the caches it serves).  Two rings over one map
 * (ARC's B1 and B2) take two tags, 0x40000000 and IR_TAG, and their
 * owner's frames lie below 2^30. */
#define IR_TAG 0x80000000u
#define IR_POS 0x3fffffffu

struct idring {
	uint32_t *slot;           /* ids, the ring */
	uint32_t mask;            /* ring size - 1 (a power of two) */
	uint64_t head, tail;      /* next position written, oldest position */
	uint64_t live;            /* ids in the FIFO */
	uint32_t *const *map;     /* the record map (it moves as it grows) */
	uint32_t tag;             /* its map values' tag (IR_TAG) */
};

/* The most live ids a ring can hold: a ring of at least 2 most + 2
 * slots (idr_init) whose positions fit IR_POS. */
#define IDR_MOST ((IR_POS + 1ULL) / 2 - 1)

/* Room for `most` live ids at once (at most IDR_MOST: callers check). */
void idr_init(struct idring *r, uint32_t *const *map, uint64_t most);
/* idr_init() with map values tag | position (tag: 1 << 30 or IR_TAG). */
void idr_init_tag(struct idring *r, uint32_t *const *map, uint64_t most, uint32_t tag);
void idr_destroy(struct idring *r);

/* Whether a map value names an id in the FIFO (of tag IR_TAG). */
static inline bool idr_in(uint32_t v) { return (v & ~IR_POS) == IR_TAG; }
/* Whether a map value names an id in ring r's FIFO. */
static inline bool idr_holds(const struct idring *r, uint32_t v) { return (v & ~IR_POS) == r->tag; }

/* id (in the FIFO by none of its slots) at the FIFO's head. */
void idr_push(struct idring *r, uint32_t id);

/* id, whose map value is in the FIFO, leaves it: the map slot becomes
 * `v` (not in the FIFO's range). */
static inline void idr_take(struct idring *r, uint32_t id, uint32_t v)
{
	r->live--;
	(*r->map)[id] = v;
}

/* The map slot of an id not in the FIFO: its frame, or GH_NONE.  The
 * map is the replay's (cache_mode.h); the policy writes it through the
 * ring, which holds where it is, as ghost.c does. */
static inline void idr_mark(struct idring *r, uint32_t id, uint32_t v) { (*r->map)[id] = v; }

/* The oldest id leaves (map slot GH_NONE); the FIFO is not empty. */
void idr_forget_oldest(struct idring *r);

/* --check: the ids between the tail and the head that the map still
 * places there, which must be r->live. */
uint64_t idr_count(const struct idring *r);

#endif
