/* zsmalloc.h - a size-class pool of compressed objects, after 6.x
 * mm/zsmalloc.c: what it packs where and how many pages it holds, not
 * the bytes (docs/zram.md). */
#ifndef PAGELAB_ZSMALLOC_H
#define PAGELAB_ZSMALLOC_H

#include <stdint.h>

#define ZS_MIN_ALLOC_SIZE 32
#define ZS_MAX_ALLOC_SIZE 4096
#define ZS_SIZE_CLASS_DELTA 16    /* PAGE_SIZE >> CLASS_BITS (8) */
#define ZS_SIZE_CLASSES 255       /* (4096 - 32) / 16 rounded up, + 1 */
#define ZS_HANDLE_SIZE 8          /* sizeof(unsigned long) on 64-bit */
#define ZS_HANDLE_NONE UINT32_MAX
#define ZS_NR_GROUPS 11           /* ZS_INUSE_RATIO_0 .. _99; _100 (full) unlisted */

struct zs_class {
	uint16_t size;              /* object bytes, the handle included */
	uint8_t pages_per_zspage;
	uint16_t objs_per_zspage;
	uint8_t index;              /* the class it merged into (its own: itself) */
	/* zspages: objects in use per zspage id (UINT32_MAX: id free) */
	uint32_t *inuse;
	uint32_t nr_ids, cap;
	/* fullness groups 1..10 (ZS_INUSE_RATIO_10..99): doubly linked
	 * lists of the zspages with room, head first (insert_zspage()) */
	uint32_t head[ZS_NR_GROUPS];
	uint32_t *next, *prev;
	uint8_t *group;
	uint32_t *objs_head;        /* each zspage's objects: a handle list */
	uint32_t *free_ids;         /* ids of freed zspages, for reuse */
	uint32_t nr_free_ids;
	uint64_t objs, zspages;
};

/* A handle names an object wherever compaction moves it (the kernel's
 * handle holds the object's location, record_obj()): loc[h] is its
 * class index << 24 | zspage id, next/prev its zspage's object list. */
struct zs_handles {
	uint32_t *loc, *next, *prev;
	uint32_t nr, cap;
	uint32_t *free;             /* released handles, for reuse */
	uint32_t nr_free;
};

struct zs_pool {
	struct zs_class class[ZS_SIZE_CLASSES];
	unsigned chain;             /* ZS_MAX_PAGES_PER_ZSPAGE */
	unsigned huge_class_size;   /* zs_huge_class_size() */
	uint64_t pages;             /* zs_get_total_pages() */
	struct zs_handles h;
	uint64_t pages_compacted;   /* pool->stats.pages_compacted */
	uint64_t bytes_migrated;    /* objects' bytes compaction copied */
	uint64_t nr_deferred;       /* its shrinker's (zs_shrink.c) */
};

/* zs_create_pool() with zspages of at most `chain` pages
 * (CONFIG_ZSMALLOC_CHAIN_SIZE: 8 by default since 6.3; 4 before). */
void zs_create_pool(struct zs_pool *pool, unsigned chain);
void zs_destroy_pool(struct zs_pool *pool);
/* zs_malloc(size): a handle for the object. */
uint32_t zs_malloc(struct zs_pool *pool, unsigned size);
void zs_free(struct zs_pool *pool, uint32_t handle);
/* The zspage id (within its class) the object of a handle is in now. */
uint32_t zs_handle_zspage(const struct zs_pool *pool, uint32_t handle);
/* zs_can_compact() summed over the classes: zs_shrinker_count(). */
uint64_t zs_compactable(const struct zs_pool *pool);
/* zs_compact(): pages freed (added to pages_compacted). */
uint64_t zs_compact(struct zs_pool *pool);
/* The class an object of `size` bytes (before the handle) lands in. */
const struct zs_class *zs_class_of(const struct zs_pool *pool, unsigned size);
/* calculate_zspage_chain_size() */
unsigned zs_chain_size(unsigned class_size, unsigned chain);

#endif
