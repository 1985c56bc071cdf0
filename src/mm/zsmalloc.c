/* zsmalloc.c - the pool zram stores compressed pages in, after Linux
 * 6.18 mm/zsmalloc.c: objects go in size classes ZS_SIZE_CLASS_DELTA
 * bytes apart, from ZS_MIN_ALLOC_SIZE to a page; each class packs its
 * objects into zspages of the chain of pages that wastes least
 * (calculate_zspage_chain_size()); classes with the same pages and
 * objects per zspage share one (zs_create_pool()'s can_merge()); a class
 * of one object in one page is a huge class, and zs_huge_class_size() is
 * the first size (from the top) that is not, less ZS_HANDLE_SIZE - 1.
 * zs_malloc() adds the handle's bytes before looking up the class.
 *
 * Modeled: which zspage each object is in, so freeing leaves holes
 * (fragmentation: pages held for fewer objects than they could hold) and
 * an empty zspage's pages go back (free_zspage()).  A new object goes to
 * the zspage of the class that last had room (the kernel prefers the
 * fullest: find_get_zspage() walks the fullness groups).  Not modeled:
 * compaction (zs_compact(), the shrinker), so no page is ever compacted. */
#include "zsmalloc.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

unsigned zs_chain_size(unsigned class_size, unsigned chain)
{
	unsigned best = 1, min_waste = UINT32_MAX;
	if (!(class_size & (class_size - 1)))
		return 1;  /* a power of two fills a page exactly */
	for (unsigned i = 1; i <= chain; i++) {
		unsigned waste = (unsigned)(i * PAGE_SIZE) % class_size;
		if (waste < min_waste) {
			min_waste = waste;
			best = i;
		}
	}
	return best;
}

static unsigned class_index(unsigned size)
{
	unsigned idx = 0;
	if (size > ZS_MIN_ALLOC_SIZE)
		idx = (size - ZS_MIN_ALLOC_SIZE + ZS_SIZE_CLASS_DELTA - 1) / ZS_SIZE_CLASS_DELTA;
	return MIN(idx, ZS_SIZE_CLASSES - 1u);
}

void zs_create_pool(struct zs_pool *pool, unsigned chain)
{
	memset(pool, 0, sizeof(*pool));
	pool->chain = chain;
	struct zs_class *prev = NULL;
	for (int i = ZS_SIZE_CLASSES - 1; i >= 0; i--) {
		unsigned size = MIN(ZS_MIN_ALLOC_SIZE + (unsigned)i * ZS_SIZE_CLASS_DELTA,
				    (unsigned)ZS_MAX_ALLOC_SIZE);
		unsigned ppz = zs_chain_size(size, chain);
		unsigned opz = ppz * (unsigned)PAGE_SIZE / size;
		/* iterating from the top: the first class that is not one
		 * object in one page sets the huge threshold */
		if (ppz != 1 && opz != 1 && !pool->huge_class_size)
			pool->huge_class_size = size - (ZS_HANDLE_SIZE - 1);
		struct zs_class *c = &pool->class[i];
		c->size = (uint16_t)size;
		c->pages_per_zspage = (uint8_t)ppz;
		c->objs_per_zspage = (uint16_t)opz;
		c->index = (uint8_t)i;
		if (prev && prev->pages_per_zspage == ppz && prev->objs_per_zspage == opz)
			c->index = prev->index;  /* can_merge(): shares prev's zspages */
		else
			prev = c;
	}
}

void zs_destroy_pool(struct zs_pool *pool)
{
	for (int i = 0; i < ZS_SIZE_CLASSES; i++) {
		struct zs_class *c = &pool->class[i];
		free(c->inuse);
		free(c->partial);
		free(c->in_partial);
		free(c->free_ids);
	}
	memset(pool, 0, sizeof(*pool));
}

const struct zs_class *zs_class_of(const struct zs_pool *pool, unsigned size)
{
	const struct zs_class *c = &pool->class[class_index(size + ZS_HANDLE_SIZE)];
	return &pool->class[c->index];
}

static void push_partial(struct zs_class *c, uint32_t id)
{
	if (c->in_partial[id])
		return;
	if (c->nr_partial == c->cap_partial) {
		c->cap_partial = c->cap_partial ? 2 * c->cap_partial : 16;
		c->partial = xrealloc(c->partial, c->cap_partial * sizeof(*c->partial));
	}
	c->partial[c->nr_partial++] = id;
	c->in_partial[id] = 1;
}

/* A zspage id with room, or UINT32_MAX: stale entries (freed or filled
 * since they were pushed) are dropped on the way. */
static uint32_t pop_partial(struct zs_class *c)
{
	while (c->nr_partial) {
		uint32_t id = c->partial[--c->nr_partial];
		c->in_partial[id] = 0;
		if (c->inuse[id] != UINT32_MAX && c->inuse[id] < c->objs_per_zspage)
			return id;
	}
	return UINT32_MAX;
}

static uint32_t new_zspage(struct zs_pool *pool, struct zs_class *c)
{
	uint32_t id;
	if (c->nr_free_ids)
		id = c->free_ids[--c->nr_free_ids];
	else {
		if (c->nr_ids == c->cap) {
			c->cap = c->cap ? 2 * c->cap : 16;
			c->inuse = xrealloc(c->inuse, c->cap * sizeof(*c->inuse));
			c->in_partial = xrealloc(c->in_partial, c->cap);
			c->free_ids = xrealloc(c->free_ids, c->cap * sizeof(*c->free_ids));
		}
		id = c->nr_ids++;
		c->in_partial[id] = 0;
	}
	if (id >= (1u << 24))
		panic("zsmalloc: more than 2^24 zspages in one class");
	c->inuse[id] = 0;
	c->zspages++;
	pool->pages += c->pages_per_zspage;
	return id;
}

uint32_t zs_malloc(struct zs_pool *pool, unsigned size)
{
	struct zs_class *c = (struct zs_class *)zs_class_of(pool, size);
	uint32_t id = pop_partial(c);
	if (id == UINT32_MAX)
		id = new_zspage(pool, c);
	c->inuse[id]++;
	c->objs++;
	if (c->inuse[id] < c->objs_per_zspage)
		push_partial(c, id);
	return (uint32_t)c->index << 24 | id;
}

void zs_free(struct zs_pool *pool, uint32_t handle)
{
	struct zs_class *c = &pool->class[handle >> 24];
	uint32_t id = handle & 0xffffff;
	if (id >= c->nr_ids || c->inuse[id] == UINT32_MAX || !c->inuse[id])
		panic("zs_free: handle %#x is not allocated", handle);
	c->objs--;
	if (--c->inuse[id] == 0) {
		/* free_zspage(): the empty zspage's pages go back */
		c->inuse[id] = UINT32_MAX;
		c->free_ids[c->nr_free_ids++] = id;
		c->zspages--;
		pool->pages -= c->pages_per_zspage;
		return;
	}
	push_partial(c, id);
}
