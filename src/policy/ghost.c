/* ghost.c - see ghost.h.  A chained hash table over a pool of entries;
 * lists are intrusive, doubly linked through entry numbers. */
#include "ghost.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

static inline uint32_t hash_of(const struct ghost *g, uint64_t okey, uint64_t index)
{
	uint64_t h = (index ^ (okey * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
	return (uint32_t)(h >> 32) & (g->nbucket - 1);
}

static void rehash(struct ghost *g, uint32_t nbucket)
{
	free(g->bucket);
	g->nbucket = nbucket;
	g->bucket = xcalloc_huge(nbucket, sizeof(uint32_t));
	memset(g->bucket, 0xff, (size_t)nbucket * sizeof(uint32_t));
	for (uint32_t i = 0; i < g->nr; i++) {
		struct gh_entry *e = &g->e[i];
		if (e->okey == 0)
			continue; /* free */
		uint32_t b = hash_of(g, e->okey, e->index);
		e->hnext = g->bucket[b];
		g->bucket[b] = i;
	}
}

void ghost_init(struct ghost *g, uint64_t expect)
{
	memset(g, 0, sizeof(*g));
	uint32_t n = 1024;
	while (n < expect && n < (1u << 30))
		n <<= 1;
	g->cap = n;
	/* not cleared: pool_take assigns every entry it hands out, and
	 * nothing reads one past nr */
	g->e = xmalloc_huge(n, sizeof(*g->e));
	g->free_head = GH_NONE;
	rehash(g, n);
}

void ghost_dense(struct ghost *g, uint32_t *const *byid)
{
	if (g->live)
		panic("ghost: dense mode on a table in use");
	free(g->bucket);
	g->bucket = NULL;
	g->nbucket = 0;
	g->byid = byid;
}

void ghost_destroy(struct ghost *g)
{
	free(g->e);
	free(g->bucket);
	memset(g, 0, sizeof(*g));
}

int ghost_list_new(struct ghost *g, int slot)
{
	if (g->nlists >= GH_MAX_LISTS)
		panic("ghost: too many lists");
	struct gh_list *l = &g->lists[g->nlists];
	l->head = l->tail = GH_NONE;
	l->n = 0;
	l->slot = slot;
	return g->nlists++;
}

uint32_t ghost_find(const struct ghost *g, uint64_t okey, uint64_t index)
{
	for (uint32_t i = g->bucket[hash_of(g, okey, index)]; i != GH_NONE; i = g->e[i].hnext)
		if (g->e[i].okey == okey && g->e[i].index == index)
			return i;
	return GH_NONE;
}

/* A fresh entry of the pool for (okey, index), on no list. */
static uint32_t pool_take(struct ghost *g, uint64_t okey, uint64_t index)
{
	uint32_t i;
	if (g->free_head != GH_NONE) {
		i = g->free_head;
		g->free_head = g->e[i].hnext;
		/* The next take reads that entry's chain link, an entry
		 * freed long ago: fetched a take ahead, it is no longer
		 * the wait it was (three quarters of pool_take's time in
		 * a CLOCK-Pro replay, perf). */
		if (g->free_head != GH_NONE)
			__builtin_prefetch(&g->e[g->free_head]);
	} else {
		if (g->nr == g->cap) {
			if (g->cap >= (1u << 31))
				panic("ghost: more than 2^31 pages of history");
			/* copied, not realloc()ed: the pool stays aligned
			 * on a host line (ghost.h: struct gh_entry) */
			struct gh_entry *e = xmalloc_huge((size_t)g->cap * 2, sizeof(*e));
			memcpy(e, g->e, (size_t)g->cap * sizeof(*e));
			free(g->e);
			g->e = e;
			g->cap *= 2;
		}
		i = g->nr++;
	}
	/* an assignment: the fields set once, not cleared then set */
	g->e[i] = (struct gh_entry){
		.okey = okey,
		.index = index,
		.pfn = PFN_NONE,
		.next = { GH_NONE, GH_NONE },
		.prev = { GH_NONE, GH_NONE },
	};
	g->live++;
	return i;
}

uint32_t ghost_new_id(struct ghost *g, uint64_t id)
{
	/* The key of an anonymous page of the one address space: only
	 * nonzero matters (0 marks a free entry); index is the id. */
	uint32_t i = pool_take(g, ghost_okey(1, false), id);
	(*g->byid)[id] = i;
	return i;
}

uint32_t ghost_new(struct ghost *g, uint64_t okey, uint64_t index)
{
	uint32_t i = pool_take(g, okey, index);
	struct gh_entry *e = &g->e[i];
	uint32_t b = hash_of(g, okey, index);
	e->hnext = g->bucket[b];
	g->bucket[b] = i;
	if (g->live > g->nbucket && g->nbucket < (1u << 31))
		rehash(g, g->nbucket * 2);
	return i;
}

void ghost_free(struct ghost *g, uint32_t i)
{
	ghost_unlink(g, i, 0);
	ghost_unlink(g, i, 1);
	struct gh_entry *e = &g->e[i];
	if (g->byid) {
		(*g->byid)[e->index] = GH_NONE;
	} else {
		uint32_t *link = &g->bucket[hash_of(g, e->okey, e->index)];
		while (*link != i)
			link = &g->e[*link].hnext;
		*link = e->hnext;
	}
	e->okey = 0;
	e->hnext = g->free_head;
	g->free_head = i;
	g->live--;
}

bool ghost_check(const struct ghost *g, const struct page *pages, const char *name, FILE *err)
{
	for (int l = 0; l < g->nlists; l++) {
		const struct gh_list *gl = &g->lists[l];
		int s = gl->slot;
		uint64_t n = 0;
		uint32_t prev = GH_NONE;
		for (uint32_t i = gl->head; i != GH_NONE; i = g->e[i].next[s]) {
			const struct gh_entry *e = &g->e[i];
			if (e->okey == 0 || e->list[s] != l + 1 || e->prev[s] != prev || ++n > gl->n) {
				fprintf(err, "check: %s list %d broken at entry %u\n", name, l, i);
				return false;
			}
			if (e->pfn != PFN_NONE && pages[e->pfn].pol32[0] != i + 1) {
				fprintf(err, "check: %s entry %u and frame %u disagree\n", name, i, e->pfn);
				return false;
			}
			prev = i;
		}
		if (n != gl->n || gl->tail != prev) {
			fprintf(err, "check: %s list %d holds %llu entries, counted %llu\n", name, l,
				(unsigned long long)n, (unsigned long long)gl->n);
			return false;
		}
	}
	return true;
}
