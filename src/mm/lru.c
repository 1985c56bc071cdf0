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

void lru_add_head(struct frames *f, int list, pfn_t pfn)
{
	struct lru_list *l = &f->lists[list];
	struct page *p = &f->pages[pfn];
	if (p->lru != LRU_NONE)
		panic("pfn %u added to list %s while on %s", pfn, l->name,
		      f->lists[p->lru].name);
	p->lru = (uint16_t)list;
	p->prev = PFN_NONE;
	p->next = l->head;
	if (l->head != PFN_NONE)
		f->pages[l->head].prev = pfn;
	else
		l->tail = pfn;
	l->head = pfn;
	l->count++;
	if (!(p->flags & PG_anon))
		l->nr_file++;
}

void lru_add_tail(struct frames *f, int list, pfn_t pfn)
{
	struct lru_list *l = &f->lists[list];
	struct page *p = &f->pages[pfn];
	if (p->lru != LRU_NONE)
		panic("pfn %u added to list %s while on %s", pfn, l->name,
		      f->lists[p->lru].name);
	p->lru = (uint16_t)list;
	p->next = PFN_NONE;
	p->prev = l->tail;
	if (l->tail != PFN_NONE)
		f->pages[l->tail].next = pfn;
	else
		l->head = pfn;
	l->tail = pfn;
	l->count++;
	if (!(p->flags & PG_anon))
		l->nr_file++;
}

void lru_del(struct frames *f, pfn_t pfn)
{
	struct page *p = &f->pages[pfn];
	if (p->lru == LRU_NONE)
		return;
	struct lru_list *l = &f->lists[p->lru];
	if (p->prev != PFN_NONE)
		f->pages[p->prev].next = p->next;
	else
		l->head = p->next;
	if (p->next != PFN_NONE)
		f->pages[p->next].prev = p->prev;
	else
		l->tail = p->prev;
	p->next = p->prev = PFN_NONE;
	p->lru = LRU_NONE;
	l->count--;
	if (!(p->flags & PG_anon))
		l->nr_file--;
}

void lru_move_head(struct frames *f, int list, pfn_t pfn)
{
	lru_del(f, pfn);
	lru_add_head(f, list, pfn);
}

void lru_move_tail(struct frames *f, int list, pfn_t pfn)
{
	lru_del(f, pfn);
	lru_add_tail(f, list, pfn);
}
