/* lru.c - see lru.h. */
#include "lru.h"
#include "../lib/util.h"

int lru_register(struct frames *f, const char *name)
{
	if (f->nr_lists == 0)
		f->nr_lists = 1; /* id 0 is LRU_NONE */
	if (f->nr_lists >= MAX_LRU_LISTS)
		panic("too many LRU lists");
	int id = f->nr_lists++;
	f->lists[id].head = f->lists[id].tail = PFN_NONE;
	f->lists[id].count = 0;
	f->lists[id].nr_file = 0;
	f->lists[id].name = name;
	f->lists[id].kind = LRU_KIND_INACTIVE;
	return id;
}

void lru_set_kind(struct frames *f, int list, enum lru_kind kind)
{
	f->lists[list].kind = kind;
}

void lru_panic_on_list(const struct frames *f, int list, pfn_t pfn)
{
	panic("pfn %u added to list %s while on %s", pfn, f->lists[list].name, f->lists[f->links[pfn].lru].name);
}
