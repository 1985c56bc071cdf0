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
 * of its new list, insert_zspage()).
 *
 * Compaction, as 6.18's zs_compact() / __zs_compact(): per class (the
 * largest first), while zs_can_compact() (the zspages' worth of unused
 * object slots) is not 0, the fullest zspage with room is taken as the
 * destination (isolate_dst_zspage(): groups 99% down to 10%), the
 * emptiest as the source (isolate_src_zspage(): 10% up to 99%), and
 * migrate_zspage() moves objects until the destination is full or the
 * source empty; an emptied source is freed (its pages counted in
 * pages_compacted), a full destination put back and the next one taken.
 * Objects are named by handles that follow them (zs_handles); which
 * objects of a source move first is its list's order (the kernel: their
 * position in the zspage, which is not modeled), not a count. */
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
		free(c->objs_head);
		free(c->free_ids);
	}
	free(pool->h.loc);
	free(pool->h.next);
	free(pool->h.prev);
	free(pool->h.free);
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
			c->objs_head = xrealloc(c->objs_head, c->cap * sizeof(*c->objs_head));
			c->free_ids = xrealloc(c->free_ids, c->cap * sizeof(*c->free_ids));
		}
		id = c->nr_ids++;
	}
	if (id >= (1u << 24))
		panic("zsmalloc: more than 2^24 zspages in one class");
	c->inuse[id] = 0;
	c->group[id] = 0;
	c->objs_head[id] = ZS_HANDLE_NONE;
	c->zspages++;
	pool->pages += c->pages_per_zspage;
	return id;
}

/* Put handle h on zspage id's object list (at its head). */
static void obj_link(struct zs_pool *pool, struct zs_class *c, uint32_t id, uint32_t h)
{
	struct zs_handles *t = &pool->h;
	t->loc[h] = (uint32_t)c->index << 24 | id;
	t->prev[h] = ZS_HANDLE_NONE;
	t->next[h] = c->objs_head[id];
	if (c->objs_head[id] != ZS_HANDLE_NONE)
		t->prev[c->objs_head[id]] = h;
	c->objs_head[id] = h;
}

static void obj_unlink(struct zs_pool *pool, struct zs_class *c, uint32_t id, uint32_t h)
{
	struct zs_handles *t = &pool->h;
	if (t->prev[h] != ZS_HANDLE_NONE)
		t->next[t->prev[h]] = t->next[h];
	else
		c->objs_head[id] = t->next[h];
	if (t->next[h] != ZS_HANDLE_NONE)
		t->prev[t->next[h]] = t->prev[h];
}

static uint32_t handle_new(struct zs_pool *pool)
{
	struct zs_handles *t = &pool->h;
	if (t->nr_free)
		return t->free[--t->nr_free];
	if (t->nr == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->loc = xrealloc(t->loc, t->cap * sizeof(*t->loc));
		t->next = xrealloc(t->next, t->cap * sizeof(*t->next));
		t->prev = xrealloc(t->prev, t->cap * sizeof(*t->prev));
		t->free = xrealloc(t->free, t->cap * sizeof(*t->free));
	}
	if (t->nr == ZS_HANDLE_NONE)
		panic("zsmalloc: out of handles");
	return t->nr++;
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
	uint32_t h = handle_new(pool);
	obj_link(pool, c, id, h);
	return h;
}

/* free_zspage(): an empty zspage's pages go back */
static void free_zspage(struct zs_pool *pool, struct zs_class *c, uint32_t id)
{
	c->inuse[id] = UINT32_MAX;
	c->free_ids[c->nr_free_ids++] = id;
	c->zspages--;
	pool->pages -= c->pages_per_zspage;
}

void zs_free(struct zs_pool *pool, uint32_t handle)
{
	struct zs_handles *t = &pool->h;
	if (handle >= t->nr || t->loc[handle] == ZS_HANDLE_NONE)
		panic("zs_free: handle %#x is not allocated", handle);
	struct zs_class *c = &pool->class[t->loc[handle] >> 24];
	uint32_t id = t->loc[handle] & 0xffffff;
	obj_unlink(pool, c, id, handle);
	t->loc[handle] = ZS_HANDLE_NONE;
	t->free[t->nr_free++] = handle;
	c->objs--;
	c->inuse[id]--;
	fix_group(c, id);
	if (c->inuse[id] == 0)
		free_zspage(pool, c, id);
}

uint32_t zs_handle_zspage(const struct zs_pool *pool, uint32_t handle)
{
	return pool->h.loc[handle] & 0xffffff;
}

/* zs_can_compact(): the pages of the zspages' worth of unused slots */
static uint64_t can_compact(const struct zs_class *c)
{
	uint64_t allocated = c->zspages * c->objs_per_zspage;
	if (allocated <= c->objs)
		return 0;
	return (allocated - c->objs) / c->objs_per_zspage * c->pages_per_zspage;
}

uint64_t zs_compactable(const struct zs_pool *pool)
{
	uint64_t n = 0;
	for (int i = ZS_SIZE_CLASSES - 1; i >= 0; i--)
		if (pool->class[i].index == i)
			n += can_compact(&pool->class[i]);
	return n;
}

/* isolate_dst_zspage() (from the fullest group) or isolate_src_zspage()
 * (from the emptiest): taken off its list (remove_zspage()); group 0
 * marks it unlisted until putback_zspage() (fix_group()) relists it. */
static uint32_t isolate(struct zs_class *c, bool dst)
{
	for (unsigned k = 1; k < ZS_NR_GROUPS; k++) {
		unsigned g = dst ? ZS_NR_GROUPS - k : k;
		uint32_t id = c->head[g];
		if (id != UINT32_MAX) {
			unlink_zspage(c, id);
			c->group[id] = 0;
			return id;
		}
	}
	return UINT32_MAX;
}

/* migrate_zspage(): src's objects into dst until dst is full or src
 * empty; each handle follows its object (record_obj()). */
static void migrate(struct zs_pool *pool, struct zs_class *c, uint32_t src, uint32_t dst)
{
	while (c->inuse[dst] < c->objs_per_zspage && c->inuse[src]) {
		uint32_t h = c->objs_head[src];
		obj_unlink(pool, c, src, h);
		obj_link(pool, c, dst, h);
		c->inuse[src]--;
		c->inuse[dst]++;
		pool->bytes_migrated += c->size;  /* zs_object_copy() */
	}
}

/* __zs_compact() of one class: the pages it freed */
static uint64_t compact_class(struct zs_pool *pool, struct zs_class *c)
{
	uint64_t freed = 0;
	uint32_t dst = UINT32_MAX;
	while (can_compact(c)) {
		if (dst == UINT32_MAX && (dst = isolate(c, true)) == UINT32_MAX)
			break;
		uint32_t src = isolate(c, false);
		if (src == UINT32_MAX)
			break;
		migrate(pool, c, src, dst);
		if (!c->inuse[src]) {
			free_zspage(pool, c, src);
			freed += c->pages_per_zspage;
		} else {
			fix_group(c, src);  /* putback_zspage() */
		}
		if (c->inuse[dst] == c->objs_per_zspage) {
			fix_group(c, dst);
			dst = UINT32_MAX;
		}
	}
	if (dst != UINT32_MAX)
		fix_group(c, dst);
	return freed;
}

uint64_t zs_compact(struct zs_pool *pool)
{
	uint64_t freed = 0;
	for (int i = ZS_SIZE_CLASSES - 1; i >= 0; i--)
		if (pool->class[i].index == i)
			freed += compact_class(pool, &pool->class[i]);
	pool->pages_compacted += freed;
	return freed;
}
