/* pagemap.c - see pagemap.h. */
#include "pagemap.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

#define EMPTY UINT32_MAX

static inline uint64_t slot_hash(uint64_t page, uint32_t pid)
{
	uint64_t x = page ^ ((uint64_t)pid * 0x9e3779b97f4a7c15ULL);
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

static void pagemap_grow(struct pagemap *m)
{
	uint64_t ncap = m->cap ? m->cap * 2 : 1024;
	struct pagemap_slot *ns = xmalloc(ncap * sizeof(*ns));
	for (uint64_t i = 0; i < ncap; i++)
		ns[i].val = EMPTY;
	for (uint64_t i = 0; i < m->cap; i++) {
		struct pagemap_slot *s = &m->slot[i];
		if (s->val == EMPTY)
			continue;
		uint64_t h = slot_hash(s->page, s->pid) & (ncap - 1);
		while (ns[h].val != EMPTY)
			h = (h + 1) & (ncap - 1);
		ns[h] = *s;
	}
	free(m->slot);
	m->slot = ns;
	m->cap = ncap;
}

bool pagemap_get(struct pagemap *m, uint64_t page, uint32_t pid, uint32_t *out)
{
	if ((m->used + 1) * 2 > m->cap)
		pagemap_grow(m);
	uint64_t mask = m->cap - 1;
	uint64_t h = slot_hash(page, pid) & mask;
	for (;;) {
		struct pagemap_slot *s = &m->slot[h];
		if (s->val == EMPTY)
			break;
		if (s->page == page && s->pid == pid) {
			*out = s->val;
			return true;
		}
		h = (h + 1) & mask;
	}
	if (m->used >= PAGEMAP_MAX)
		return false;
	m->slot[h] = (struct pagemap_slot){ page, pid, (uint32_t)m->used++ };
	*out = m->slot[h].val;
	return true;
}

size_t pagemap_host_bytes(const struct pagemap *m)
{
	return (size_t)m->cap * sizeof(struct pagemap_slot);
}

void pagemap_free(struct pagemap *m)
{
	free(m->slot);
	memset(m, 0, sizeof(*m));
}
