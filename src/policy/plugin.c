/* plugin.c - policies out of tree (include/pagelab_policy.h).
 *
 * `--policy ./x.so` dlopen()s the plugin, checks the interface version it
 * was built against, and wraps its struct pagelab_policy in an internal
 * policy_ops whose hooks translate the public types to the core's.  The
 * translation is the point: the core's scan_control and policy_ops may
 * grow between versions while a plugin built against PAGELAB_POLICY_ABI 1
 * keeps working; what a plugin sees is only the public header.
 *
 * The pagelab_* functions below are the whole of what a plugin may call.
 * The pagelab binary exports them (linked with -rdynamic); so does
 * libpagelab. */
#include "plugin.h"
#include "textbook.h"
#include "../../include/pagelab_policy.h"
#include "../mm/mm.h"
#include "../lib/util.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* The public enums and flags mirror the core's, value for value. */
_Static_assert((int)PAGELAB_ADD_REFAULT == (int)ADD_REFAULT, "add reasons");
_Static_assert((int)PAGELAB_ADD_NEW_ANON == (int)ADD_NEW_ANON, "add reasons");
_Static_assert((int)PAGELAB_AGING == (int)RECLAIM_AGING, "reclaimers");
_Static_assert(PAGELAB_PFN_NONE == PFN_NONE, "pfn none");
_Static_assert(sizeof(pagelab_pfn) == sizeof(pfn_t), "pfn width");

/* One loaded plugin: its public description and the internal ops that
 * forward to it.  Loaded plugins stay for the life of the process. */
struct plugin {
	const struct pagelab_policy *pub;
	struct policy_ops ops;
	struct tunable *tunables;
	char *path;
	struct plugin *next;
};

/* One instance (a machine's policy state): the plugin and its own. */
struct plugin_inst {
	const struct pagelab_policy *pub;
	void *state;
};

static struct plugin *loaded;

#define MM(pm) ((struct mm *)(pm))
#define PUB(mm) ((struct pagelab_mm *)(mm))

/* The instance's plugin is found through the core's policy state. */
static void *plugin_init_for(const struct plugin *pl, struct mm *mm, const double *tun)
{
	struct plugin_inst *in = xcalloc(1, sizeof(*in));
	in->pub = pl->pub;
	in->state = pl->pub->init(PUB(mm), tun);
	return in;
}

/* policy_ops.init has no room for the plugin: each loaded plugin gets its
 * init through a small table of trampolines, one per plugin slot. */
#define MAX_PLUGINS 8
static struct plugin *slots[MAX_PLUGINS];
#define TRAMPOLINE(n) \
	static void *init_##n(struct mm *mm, const double *tun) { return plugin_init_for(slots[n], mm, tun); }
TRAMPOLINE(0) TRAMPOLINE(1) TRAMPOLINE(2) TRAMPOLINE(3)
TRAMPOLINE(4) TRAMPOLINE(5) TRAMPOLINE(6) TRAMPOLINE(7)
static void *(*const inits[MAX_PLUGINS])(struct mm *, const double *) = {
	init_0, init_1, init_2, init_3, init_4, init_5, init_6, init_7,
};

static void fwd_destroy(void *p)
{
	struct plugin_inst *in = p;
	if (in->pub->destroy)
		in->pub->destroy(in->state);
	free(in);
}

static void fwd_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct plugin_inst *in = p;
	in->pub->add(in->state, pfn, (enum pagelab_add_reason)why);
}

static void fwd_remove(void *p, pfn_t pfn)
{
	struct plugin_inst *in = p;
	in->pub->remove(in->state, pfn);
}

static void fwd_mark_accessed(void *p, pfn_t pfn)
{
	struct plugin_inst *in = p;
	if (in->pub->mark_accessed)
		in->pub->mark_accessed(in->state, pfn);
}

static void fwd_access(void *p, pfn_t pfn, bool write)
{
	struct plugin_inst *in = p;
	if (in->pub->access)
		in->pub->access(in->state, pfn, write);
}

static void fwd_shrink(void *p, struct scan_control *sc)
{
	struct plugin_inst *in = p;
	struct pagelab_scan ps = {
		.nr_to_reclaim = sc->nr_to_reclaim, .priority = sc->priority,
		.who = (enum pagelab_reclaimer)sc->who, .may_swap = sc->may_swap,
		.may_writepage = sc->may_writepage, .nr_scanned = sc->nr_scanned,
		.nr_reclaimed = sc->nr_reclaimed, .nr_rotated = sc->nr_rotated,
		.nr_activated = sc->nr_activated, .core = sc,
	};
	in->pub->shrink(in->state, &ps);
	/* pagelab_evict() kept scanned/reclaimed in the core's pass; what the
	 * policy counted itself comes back. */
	if (ps.nr_scanned > sc->nr_scanned)
		sc->nr_scanned = ps.nr_scanned;
	sc->nr_rotated = ps.nr_rotated;
	sc->nr_activated = ps.nr_activated;
}

static bool fwd_check(void *p, FILE *err)
{
	struct plugin_inst *in = p;
	return in->pub->check ? in->pub->check(in->state, err) : true;
}

static bool fail(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
	snprintf(err, errlen, fmt, a, b);
	return false;
}

const struct policy_ops *policy_plugin_load(const char *path, char *err, size_t errlen)
{
	for (struct plugin *pl = loaded; pl; pl = pl->next)
		if (!strcmp(pl->path, path))
			return &pl->ops;
	int slot = 0;
	while (slot < MAX_PLUGINS && slots[slot])
		slot++;
	if (slot == MAX_PLUGINS) {
		fail(err, errlen, "%s: more than 8 policy plugins in one process%s", path, "");
		return NULL;
	}
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fail(err, errlen, "cannot load policy plugin: %s%s", dlerror(), "");
		return NULL;
	}
	const struct pagelab_policy *(*entry)(void);
	*(void **)&entry = dlsym(h, "pagelab_policy_entry");
	const struct pagelab_policy *pub = entry ? entry() : NULL;
	char num[64];
	if (!pub) {
		fail(err, errlen, "%s: not a pagelab policy plugin (no pagelab_policy_entry()%s)", path, "");
	} else if (pub->abi != PAGELAB_POLICY_ABI) {
		snprintf(num, sizeof(num), "%d, this pagelab has %d", pub->abi, PAGELAB_POLICY_ABI);
		fail(err, errlen, "%s: built for policy interface version %s (rebuild it against this pagelab_policy.h)",
		     path, num);
	} else if (!pub->name || !*pub->name || !pub->summary || !pub->init || !pub->add ||
		   !pub->remove || !pub->shrink) {
		fail(err, errlen, "%s: the plugin lacks a name, summary, init, add, remove or shrink%s", path, "");
	} else {
		struct plugin *pl = xcalloc(1, sizeof(*pl));
		pl->pub = pub;
		pl->path = xstrdup(path);
		int n = 0;
		while (pub->tunables && pub->tunables[n].name)
			n++;
		pl->tunables = xcalloc((size_t)n + 1, sizeof(*pl->tunables));
		for (int i = 0; i < n; i++) {
			const struct pagelab_tunable *t = &pub->tunables[i];
			pl->tunables[i] = (struct tunable){ t->name, t->kernel_name ? t->kernel_name : "",
							    t->def, t->min, t->max, t->help ? t->help : "" };
		}
		pl->ops = (struct policy_ops){
			.name = pub->name, .summary = pub->summary, .tunables = pl->tunables,
			.flags = (pub->flags & PAGELAB_POLICY_ACCESS_HOOK) ? POLICY_ACCESS_HOOK : 0,
			.init = inits[slot], .destroy = fwd_destroy, .add = fwd_add,
			.remove = fwd_remove, .mark_accessed = fwd_mark_accessed,
			.access = fwd_access, .shrink = fwd_shrink, .check = fwd_check,
		};
		slots[slot] = pl;
		pl->next = loaded;
		loaded = pl;
		return &pl->ops;
	}
	dlclose(h);
	return NULL;
}

/* --- The functions a plugin may call ----------------------------------- */

int pagelab_lru_register(struct pagelab_mm *mm, const char *name)
{
	return lru_register(&MM(mm)->fr, name);
}

void pagelab_lru_add_head(struct pagelab_mm *mm, int list, pagelab_pfn pfn)
{
	lru_add_head(&MM(mm)->fr, list, pfn);
}

void pagelab_lru_add_tail(struct pagelab_mm *mm, int list, pagelab_pfn pfn)
{
	lru_add_tail(&MM(mm)->fr, list, pfn);
}

void pagelab_lru_del(struct pagelab_mm *mm, pagelab_pfn pfn)
{
	lru_del(&MM(mm)->fr, pfn);
}

pagelab_pfn pagelab_lru_head(const struct pagelab_mm *mm, int list)
{
	return lru_head(&((const struct mm *)mm)->fr, list);
}

pagelab_pfn pagelab_lru_tail(const struct pagelab_mm *mm, int list)
{
	return lru_tail(&((const struct mm *)mm)->fr, list);
}

pagelab_pfn pagelab_lru_next(const struct pagelab_mm *mm, pagelab_pfn pfn)
{
	return lru_next(&((const struct mm *)mm)->fr, pfn);
}

pagelab_pfn pagelab_lru_prev(const struct pagelab_mm *mm, pagelab_pfn pfn)
{
	return lru_prev(&((const struct mm *)mm)->fr, pfn);
}

uint64_t pagelab_lru_count(const struct pagelab_mm *mm, int list)
{
	return lru_count(&((const struct mm *)mm)->fr, list);
}

int pagelab_page_referenced(struct pagelab_mm *mm, pagelab_pfn pfn)
{
	return mm_page_referenced(MM(mm), pfn);
}

unsigned pagelab_page_state(const struct pagelab_mm *mm, pagelab_pfn pfn)
{
	const struct page *pg = pfn_page(&((const struct mm *)mm)->fr, pfn);
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

uint64_t *pagelab_page_word(struct pagelab_mm *mm, pagelab_pfn pfn)
{
	return &pfn_page(&MM(mm)->fr, pfn)->pol64;
}

uint64_t pagelab_nr_frames(const struct pagelab_mm *mm)
{
	return ((const struct mm *)mm)->fr.nr;
}

enum pagelab_evict_result pagelab_evict(struct pagelab_mm *mm, struct pagelab_scan *sc,
					pagelab_pfn pfn)
{
	struct scan_control *core = sc->core;
	enum victim_outcome o = textbook_evict(MM(mm), core, pfn);
	sc->nr_scanned = core->nr_scanned;
	sc->nr_reclaimed = core->nr_reclaimed;
	switch (o) {
	case VICTIM_GONE: return PAGELAB_EVICT_GONE;
	case VICTIM_CULLED: return PAGELAB_EVICT_CULLED;
	case VICTIM_REFUSED: return PAGELAB_EVICT_REFUSED;
	default: return PAGELAB_EVICT_NOSWAP;
	}
}
