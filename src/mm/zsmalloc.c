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
 * an empty zspage's pages go back (free_zspage()).  A new object goes,
 * as find_get_zspage() sends it, to the zspage listed first in the
 * fullest fullness group with room (tenths of the objects in use,
 * get_fullness_group(); a zspage whose group changes goes to the head
 * of its new list, insert_zspage()).  Not modeled:
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
		for (int g = 0; g < ZS_NR_GROUPS; g++)
			c->head[g] = UINT32_MAX;
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
		free(c->next);
		free(c->prev);
		free(c->group);
		free(c->free_ids);
	}
	memset(pool, 0, sizeof(*pool));
}

const struct zs_class *zs_class_of(const struct zs_pool *pool, unsigned size)
{
	const struct zs_class *c = &pool->class[class_index(size + ZS_HANDLE_SIZE)];
	return &pool->class[c->index];
}

/* get_fullness_group(): 0 empty, 1..10 by tenths in use, 11 full */
static unsigned fullness(const struct zs_class *c, uint32_t inuse)
{
	if (!inuse)
		return 0;
	if (inuse == c->objs_per_zspage)
		return ZS_NR_GROUPS;
	return 100 * inuse / c->objs_per_zspage / 10 + 1;
}

static void unlink_zspage(struct zs_class *c, uint32_t id)
{
	unsigned g = c->group[id];
	if (!g || g >= ZS_NR_GROUPS)
		return;  /* on no list */
	if (c->prev[id] != UINT32_MAX)
		c->next[c->prev[id]] = c->next[id];
	else
		c->head[g] = c->next[id];
	if (c->next[id] != UINT32_MAX)
		c->prev[c->next[id]] = c->prev[id];
}

/* fix_fullness_group(): relist zspage id if its group changed */
static void fix_group(struct zs_class *c, uint32_t id)
{
	unsigned g = fullness(c, c->inuse[id]);
	if (g == c->group[id])
		return;
	unlink_zspage(c, id);
	c->group[id] = (uint8_t)g;
	if (!g || g >= ZS_NR_GROUPS)
		return;
	c->prev[id] = UINT32_MAX;
	c->next[id] = c->head[g];
	if (c->head[g] != UINT32_MAX)
		c->prev[c->head[g]] = id;
	c->head[g] = id;
}

/* find_get_zspage(): the first zspage of the fullest group with room */
static uint32_t find_zspage(const struct zs_class *c)
{
	for (unsigned g = ZS_NR_GROUPS - 1; g > 0; g--)
		if (c->head[g] != UINT32_MAX)
			return c->head[g];
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
			c->next = xrealloc(c->next, c->cap * sizeof(*c->next));
			c->prev = xrealloc(c->prev, c->cap * sizeof(*c->prev));
			c->group = xrealloc(c->group, c->cap);
			c->free_ids = xrealloc(c->free_ids, c->cap * sizeof(*c->free_ids));
		}
		id = c->nr_ids++;
	}
	if (id >= (1u << 24))
		panic("zsmalloc: more than 2^24 zspages in one class");
	c->inuse[id] = 0;
	c->group[id] = 0;
	c->zspages++;
	pool->pages += c->pages_per_zspage;
	return id;
}

uint32_t zs_malloc(struct zs_pool *pool, unsigned size)
{
	struct zs_class *c = (struct zs_class *)zs_class_of(pool, size);
	uint32_t id = find_zspage(c);
	if (id == UINT32_MAX)
		id = new_zspage(pool, c);
	c->inuse[id]++;
	c->objs++;
	fix_group(c, id);
	return (uint32_t)c->index << 24 | id;
}

void zs_free(struct zs_pool *pool, uint32_t handle)
{
	struct zs_class *c = &pool->class[handle >> 24];
	uint32_t id = handle & 0xffffff;
	if (id >= c->nr_ids || c->inuse[id] == UINT32_MAX || !c->inuse[id])
		panic("zs_free: handle %#x is not allocated", handle);
	c->objs--;
	c->inuse[id]--;
	fix_group(c, id);
	if (c->inuse[id] == 0) {
		/* free_zspage(): the empty zspage's pages go back */
		c->inuse[id] = UINT32_MAX;
		c->free_ids[c->nr_free_ids++] = id;
		c->zspages--;
		pool->pages -= c->pages_per_zspage;
	}
}
