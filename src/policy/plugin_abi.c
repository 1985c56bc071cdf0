/* plugin_abi.c - the functions a policy plugin may call
 * (include/pagelab_policy.h), each checking what it is given.
 *
 * A plugin's page numbers and list ids index the core's arrays directly,
 * so one bad value would write outside them or break a list the core
 * owns (the free list, the unevictable list).  Each function therefore
 * checks, before it touches anything, that it runs inside one of the
 * plugin's callbacks, on the machine init() was given, with a page in
 * range that the plugin holds (or, for reads of the page word and state,
 * any page in range) and a list the plugin registered: a few compares
 * per call, and none on the built-in policies' paths.  A bad value ends
 * the run (plugin_die: one line naming the plugin, the callback and the
 * function, exit 1).
 *
 * The pagelab binary exports these (linked with -rdynamic); so does
 * libpagelab. */
#include "plugin_inst.h"
#include "textbook.h"
#include "../lib/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* plugin_die() is here, not in plugin.c, so that a program linked with
 * libpagelab.a that loads plugins gets these functions with plugin.o. */
_Thread_local struct plugin_inst *plugin_current;
_Thread_local const char *plugin_loading;

void plugin_die(const struct plugin_inst *in, const char *fmt, ...)
{
	char what[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	const char *call = atomic_load_explicit(&in->call, memory_order_relaxed);
	/* In the library die_status() returns to pagelab_run(): the
	 * instance is left behind, so it is no longer watched or current. */
	plugin_guard_unwatch((struct plugin_inst *)in);
	plugin_current = NULL;
	die_status(EXIT_PLUGIN, "plugin %s: %s: %s", in->path, call ? call : "(between calls)", what);
}

/* The instance calling: the one whose callback runs on this thread,
 * which must have been given this mm. */
static struct plugin_inst *caller(const struct pagelab_mm *mm, const char *fn)
{
	struct plugin_inst *in = plugin_current;
	if (!in && plugin_loading)
		die_status(EXIT_PLUGIN, "plugin %s: pagelab_policy_entry: called %s before init()", plugin_loading, fn);
	if (!in)
		die_status(EXIT_PLUGIN, "a policy plugin called %s outside its callbacks (from another thread, or "
			   "after destroy())", fn);
	if ((const void *)mm != (const void *)in->mm)
		plugin_die(in, "%s: called with mm %p, not the one init() was given", fn, (const void *)mm);
	return in;
}

static pfn_t page_arg(const struct plugin_inst *in, const char *fn, pagelab_pfn pfn)
{
	if (pfn == PAGELAB_PFN_NONE)
		plugin_die(in, "%s(PAGELAB_PFN_NONE): no page", fn);
	if (pfn >= in->nr)
		plugin_die(in, "%s(page %u): out of range (the machine has %u frames)", fn, pfn, in->nr);
	return pfn;
}

/* A page the plugin holds: given to add(), not yet removed or evicted. */
static pfn_t own_arg(const struct plugin_inst *in, const char *fn, pagelab_pfn pfn)
{
	page_arg(in, fn, pfn);
	if (!in->owned[pfn])
		plugin_die(in, "%s(page %u): not one of the policy's pages (never given to add(), or already "
			   "removed or evicted)", fn, pfn);
	return pfn;
}

static int list_arg(const struct plugin_inst *in, const char *fn, int list)
{
	if (list <= 0 || list >= PLUGIN_MAX_LRU_LISTS || !(in->lists & (1u << list)))
		plugin_die(in, "%s(list %d): not a list the policy registered with pagelab_lru_register()", fn, list);
	return list;
}

static const char *list_name(const struct plugin_inst *in, int list)
{
	return in->mm->fr.lists[list].name;
}

int pagelab_lru_register(struct pagelab_mm *mm, const char *name)
{
	struct plugin_inst *in = caller(mm, "pagelab_lru_register");
	const char *call = atomic_load_explicit(&in->call, memory_order_relaxed);
	if (strcmp(call, "init") && strcmp(call, "cgroup_init"))
		plugin_die(in, "pagelab_lru_register: lists are registered in init() or cgroup_init()");
	if (!name)
		plugin_die(in, "pagelab_lru_register(NULL): a list needs a name");
	if (in->mm->fr.nr_lists >= PLUGIN_MAX_LRU_LISTS)
		plugin_die(in, "pagelab_lru_register(\"%.40s\"): no room for another list (%d in all, the core's "
			   "included)", name, PLUGIN_MAX_LRU_LISTS);
	/* The plugin's string may not outlive init(): keep a copy. */
	char *copy = xstrdup(name);
	int id = lru_register(&in->mm->fr, copy);
	in->list_names[id] = copy;
	in->lists |= 1u << id;
	return id;
}

static void add(struct pagelab_mm *mm, int list, pagelab_pfn pfn, bool at_head, const char *fn)
{
	struct plugin_inst *in = caller(mm, fn);
	list_arg(in, fn, list);
	own_arg(in, fn, pfn);
	int on = lru_on(&in->mm->fr, pfn);
	if (on != LRU_NONE)
		plugin_die(in, "%s(list %s, page %u): the page is already on list %s (pagelab_lru_del it first)", fn,
			   list_name(in, list), pfn, list_name(in, on));
	lru_link(&in->mm->fr, list, pfn, at_head);
	in->loose--;
}

void pagelab_lru_add_head(struct pagelab_mm *mm, int list, pagelab_pfn pfn)
{
	add(mm, list, pfn, true, "pagelab_lru_add_head");
}

void pagelab_lru_add_tail(struct pagelab_mm *mm, int list, pagelab_pfn pfn)
{
	add(mm, list, pfn, false, "pagelab_lru_add_tail");
}

/* Taking off a page that is on no list does nothing (as in the core). */
void pagelab_lru_del(struct pagelab_mm *mm, pagelab_pfn pfn)
{
	struct plugin_inst *in = caller(mm, "pagelab_lru_del");
	own_arg(in, "pagelab_lru_del", pfn);
	if (lru_on(&in->mm->fr, pfn) == LRU_NONE)
		return;
	lru_del(&in->mm->fr, pfn);
	in->loose++;
}

pagelab_pfn pagelab_lru_head(const struct pagelab_mm *mm, int list)
{
	struct plugin_inst *in = caller(mm, "pagelab_lru_head");
	return lru_head(&in->mm->fr, list_arg(in, "pagelab_lru_head", list));
}

pagelab_pfn pagelab_lru_tail(const struct pagelab_mm *mm, int list)
{
	struct plugin_inst *in = caller(mm, "pagelab_lru_tail");
	return lru_tail(&in->mm->fr, list_arg(in, "pagelab_lru_tail", list));
}

pagelab_pfn pagelab_lru_next(const struct pagelab_mm *mm, pagelab_pfn pfn)
{
	struct plugin_inst *in = caller(mm, "pagelab_lru_next");
	return lru_next(&in->mm->fr, own_arg(in, "pagelab_lru_next", pfn));
}

pagelab_pfn pagelab_lru_prev(const struct pagelab_mm *mm, pagelab_pfn pfn)
{
	struct plugin_inst *in = caller(mm, "pagelab_lru_prev");
	return lru_prev(&in->mm->fr, own_arg(in, "pagelab_lru_prev", pfn));
}

uint64_t pagelab_lru_count(const struct pagelab_mm *mm, int list)
{
	struct plugin_inst *in = caller(mm, "pagelab_lru_count");
	return lru_count(&in->mm->fr, list_arg(in, "pagelab_lru_count", list));
}

int pagelab_page_referenced(struct pagelab_mm *mm, pagelab_pfn pfn)
{
	struct plugin_inst *in = caller(mm, "pagelab_page_referenced");
	return mm_page_referenced(in->mm, own_arg(in, "pagelab_page_referenced", pfn));
}

unsigned pagelab_page_state(const struct pagelab_mm *mm, pagelab_pfn pfn)
{
	struct plugin_inst *in = caller(mm, "pagelab_page_state");
	const struct page *pg = pfn_page(&in->mm->fr, page_arg(in, "pagelab_page_state", pfn));
	unsigned s = 0;
	if (pg->flags & PG_anon)
		s |= PAGELAB_PAGE_ANON;
	if (pg->flags & PG_dirty)
		s |= PAGELAB_PAGE_DIRTY;
	if (pg->flags & PG_writeback)
		s |= PAGELAB_PAGE_WRITEBACK;
	if (pg->mapcount > 0)
		s |= PAGELAB_PAGE_MAPPED;
	if (pg->flags & PG_mlocked)
		s |= PAGELAB_PAGE_MLOCKED;
	return s;
}

/* Any page in range: a policy may keep history for pages it no longer
 * holds. */
uint64_t *pagelab_page_word(struct pagelab_mm *mm, pagelab_pfn pfn)
{
	struct plugin_inst *in = caller(mm, "pagelab_page_word");
	return &pfn_page(&in->mm->fr, page_arg(in, "pagelab_page_word", pfn))->pol64;
}

uint64_t pagelab_nr_frames(const struct pagelab_mm *mm)
{
	return caller(mm, "pagelab_nr_frames")->nr;
}

/* Any page in range, as pagelab_page_state(). */
int pagelab_page_cgroup(const struct pagelab_mm *mm, pagelab_pfn pfn)
{
	struct plugin_inst *in = caller(mm, "pagelab_page_cgroup");
	const struct page *pg = pfn_page(&in->mm->fr, page_arg(in, "pagelab_page_cgroup", pfn));
	return in->mm->cgt ? pg->memcg : 0;
}

enum pagelab_evict_result pagelab_evict(struct pagelab_mm *mm, struct pagelab_scan *sc, pagelab_pfn pfn)
{
	struct plugin_inst *in = caller(mm, "pagelab_evict");
	if (!in->scan)
		plugin_die(in, "pagelab_evict: called outside shrink");
	if (sc != in->scan)
		plugin_die(in, "pagelab_evict: sc %p is not the pass shrink was given", (void *)sc);
	own_arg(in, "pagelab_evict", pfn);
	int on = lru_on(&in->mm->fr, pfn);
	if (on != LRU_NONE)
		plugin_die(in, "pagelab_evict(page %u): the page is still on list %s (pagelab_lru_del it first)", pfn,
			   list_name(in, on));
	/* The core's pass is the adapter's, not sc->core: the plugin may
	 * have written over that. */
	struct scan_control *core = in->core_sc;
	enum victim_outcome o = textbook_evict(in->mm, core, pfn);
	sc->nr_scanned = core->nr_scanned;
	sc->nr_reclaimed = core->nr_reclaimed;
	if (o == VICTIM_GONE || o == VICTIM_CULLED) {
		in->owned[pfn] = 0;
		in->nr_owned--;
		in->loose--;
	}
	switch (o) {
	case VICTIM_GONE: return PAGELAB_EVICT_GONE;
	case VICTIM_CULLED: return PAGELAB_EVICT_CULLED;
	case VICTIM_REFUSED: return PAGELAB_EVICT_REFUSED;
	default: return PAGELAB_EVICT_NOSWAP;
	}
}
