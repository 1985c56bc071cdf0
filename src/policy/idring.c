/* idring.c - see idring.h. */
#include "idring.h"
#include "ghost.h"
#include "../lib/util.h"

#include <stdlib.h>

/* The map value of position p. */
static inline uint32_t tag_of(const struct idring *r, uint64_t p) { return r->tag | (uint32_t)(p & IR_POS); }

/* Whether ring position p still holds an id of the FIFO. */
static inline bool live_at(const struct idring *r, uint64_t p, uint32_t *id)
{
	*id = r->slot[p & r->mask];
	return (*r->map)[*id] == tag_of(r, p);
}

void idr_init(struct idring *r, uint32_t *const *map, uint64_t most) { idr_init_tag(r, map, most, IR_TAG); }

void idr_init_tag(struct idring *r, uint32_t *const *map, uint64_t most, uint32_t tag)
{
	if (most > IDR_MOST)
		panic("idring: room for %llu ids, more than %llu", (unsigned long long)most,
		      (unsigned long long)IDR_MOST);
	uint64_t n = 64;
	while (n < 2 * most + 2)
		n <<= 1;
	/* not 0 (frames) nor 3 << 30 (GH_NONE's range) */
	if (tag & IR_POS || !tag || tag == ~IR_POS)
		panic("idring: tag %#x is not 1 << 30 or 2 << 30", tag);
	*r = (struct idring){
		.slot = xmalloc((size_t)n * sizeof(uint32_t)), .mask = (uint32_t)(n - 1), .map = map, .tag = tag
	};
}

void idr_destroy(struct idring *r)
{
	free(r->slot);
	r->slot = NULL;
}

/* The ring is full of live and stale slots: the live ids move up to the
 * tail, in order, each map slot naming its new position.  With a ring
 * of at least twice the live ids, half of it is free after. */
static void compact(struct idring *r)
{
	uint64_t w = r->tail;
	for (uint64_t p = r->tail; p < r->head; p++) {
		uint32_t id;
		if (!live_at(r, p, &id))
			continue;
		r->slot[w & r->mask] = id;
		(*r->map)[id] = tag_of(r, w);
		w++;
	}
	r->head = w;
	if (r->head - r->tail > r->mask / 2)
		panic("idring: %llu live ids in a ring of %llu", (unsigned long long)r->live,
		      (unsigned long long)r->mask + 1);
}

void idr_push(struct idring *r, uint32_t id)
{
	if (r->head - r->tail > r->mask)
		compact(r);
	r->slot[r->head & r->mask] = id;
	(*r->map)[id] = tag_of(r, r->head);
	r->head++;
	r->live++;
}

/* How far ahead of the tail the map slots are fetched: the next forget
 * reads the next live one's, and stale slots lie between. */
#define AHEAD 8

void idr_forget_oldest(struct idring *r)
{
	uint32_t id = GH_NONE;
	while (r->tail < r->head && !live_at(r, r->tail, &id))
		r->tail++;
	if (r->tail == r->head)
		panic("idring: no id to forget");
	r->tail++;
	(*r->map)[id] = GH_NONE;
	r->live--;
	if (r->tail + AHEAD < r->head)
		__builtin_prefetch(&(*r->map)[r->slot[(r->tail + AHEAD) & r->mask]]);
}

uint64_t idr_count(const struct idring *r)
{
	uint64_t n = 0;
	uint32_t id;
	for (uint64_t p = r->tail; p < r->head; p++)
		n += live_at(r, p, &id);
	return n;
}
