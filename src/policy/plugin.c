/* plugin.c - policies out of tree (include/pagelab_policy.h).
 *
 * `--policy ./x.so` dlopen()s the plugin, checks the interface version it
 * was built against, and wraps its struct pagelab_policy in an internal
 * policy_ops whose hooks translate the public types to the core's.  The
 * translation is the point: the core's scan_control and policy_ops may
 * grow between versions while a plugin built against PAGELAB_POLICY_ABI 1
 * keeps working; what a plugin sees is only the public header.  Version 2
 * appended admit, cgroup_init and cgroup_exit to struct pagelab_policy:
 * they are read only from a struct whose abi says it has them (a version
 * 1 struct ends before them).
 *
 * The adapter also holds the plugin to the header's rules: it records
 * which pages the plugin holds (plugin_inst.h), and after each callback
 * checks that they are all on its lists and that what shrink counted is
 * plausible.  The functions the plugin calls are in plugin_abi.c. */
#include "plugin.h"
#include "plugin_inst.h"
#include "../lib/util.h"

#include <dlfcn.h>
#include <pthread.h>
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

static struct plugin *loaded;

/* Every callback runs between these two: they tell plugin_abi.c whose
 * call it is and the watchdog that one is running.  Nested calls (remove()
 * from inside pagelab_evict()) restore the outer call's name. */
struct call_frame {
	struct plugin_inst *outer;
	const char *outer_call;
};

static inline struct call_frame call_enter(struct plugin_inst *in, const char *call)
{
	struct call_frame f = { plugin_current, atomic_load_explicit(&in->call, memory_order_relaxed) };
	plugin_current = in;
	atomic_store_explicit(&in->call, call, memory_order_relaxed);
	atomic_fetch_add_explicit(&in->seq, 1, memory_order_relaxed);
	return f;
}

static inline void call_leave(struct plugin_inst *in, struct call_frame f)
{
	atomic_fetch_add_explicit(&in->seq, 1, memory_order_relaxed);
	atomic_store_explicit(&in->call, f.outer_call, memory_order_relaxed);
	plugin_current = f.outer;
}

/* After a callback: every page the plugin holds is on one of its lists.
 * O(1): plugin_abi.c counts the pages it takes off and puts back. */
static void check_loose(struct plugin_inst *in, const char *call)
{
	/* A callback nested in shrink (remove() of another page while
	 * pagelab_evict() works) may see the pages shrink holds off its
	 * lists: shrink's own return checks them. */
	if (!in->loose || in->scan)
		return;
	pfn_t pfn = 0;
	while (pfn < in->nr && !(in->owned[pfn] && lru_on(&in->mm->fr, pfn) == LRU_NONE))
		pfn++;
	atomic_store_explicit(&in->call, call, memory_order_relaxed);
	plugin_die(in, "returned with %llu of its pages on none of its lists (page %u first): a page given to add() "
		   "stays on one of its lists until remove() or pagelab_evict() takes it",
		   (unsigned long long)in->loose, pfn);
}

/* The instance's plugin is found through the core's policy state. */
static void *plugin_init_for(const struct plugin *pl, struct mm *mm, const double *tun)
{
	struct plugin_inst *in = xcalloc(1, sizeof(*in));
	in->pub = pl->pub;
	in->path = pl->path;
	in->mm = mm;
	in->nr = mm->fr.nr;
	in->owned = xcalloc(in->nr ? in->nr : 1, 1);
	plugin_guard_watch(in);
	struct call_frame f = call_enter(in, "init");
	in->state = pl->pub->init((struct pagelab_mm *)mm, tun);
	if (!in->state)
		plugin_die(in, "returned NULL (it could not start)");
	call_leave(in, f);
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
	if (in->pub->destroy) {
		struct call_frame f = call_enter(in, "destroy");
		in->pub->destroy(in->state);
		call_leave(in, f);
	}
	plugin_guard_unwatch(in);
	for (int i = 0; i < MAX_LRU_LISTS; i++)
		free(in->list_names[i]);
	free(in->owned);
	free(in);
}

static void fwd_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct plugin_inst *in = p;
	/* The page arrives off every list: it counts as loose until the
	 * plugin puts it on one. */
	if (!in->owned[pfn]) {
		in->owned[pfn] = 1;
		in->nr_owned++;
		in->loose++;
	}
	struct call_frame f = call_enter(in, "add");
	in->pub->add(in->state, pfn, (enum pagelab_add_reason)why);
	call_leave(in, f);
	check_loose(in, "add");
}

static void fwd_remove(void *p, pfn_t pfn)
{
	struct plugin_inst *in = p;
	struct call_frame f = call_enter(in, "remove");
	in->pub->remove(in->state, pfn);
	call_leave(in, f);
	/* Whatever the plugin left on a list, the core unlinks. */
	if (in->owned[pfn]) {
		if (lru_on(&in->mm->fr, pfn) == LRU_NONE)
			in->loose--;
		in->owned[pfn] = 0;
		in->nr_owned--;
	}
	check_loose(in, "remove");
}

static void fwd_mark_accessed(void *p, pfn_t pfn)
{
	struct plugin_inst *in = p;
	if (!in->pub->mark_accessed)
		return;
	struct call_frame f = call_enter(in, "mark_accessed");
	in->pub->mark_accessed(in->state, pfn);
	call_leave(in, f);
	check_loose(in, "mark_accessed");
}

static void fwd_access(void *p, pfn_t pfn, bool write)
{
	struct plugin_inst *in = p;
	if (!in->pub->access)
		return;
	struct call_frame f = call_enter(in, "access");
	in->pub->access(in->state, pfn, write);
	call_leave(in, f);
	check_loose(in, "access");
}

/* Version 2: cache_ext's admit_folio.  The page is not the plugin's
 * yet (owned[] is set by the add() that follows). */
static bool fwd_admit(void *p, pfn_t pfn)
{
	struct plugin_inst *in = p;
	struct call_frame f = call_enter(in, "admit");
	bool yes = in->pub->admit(in->state, pfn);
	call_leave(in, f);
	check_loose(in, "admit");
	return yes;
}

/* Version 2: cache_ext's per-memcg init(); non-zero ends the run, as a
 * NULL from init() does. */
static void fwd_cgroup_init(void *p, int cg, int parent, const char *path)
{
	struct plugin_inst *in = p;
	struct call_frame f = call_enter(in, "cgroup_init");
	int r = in->pub->cgroup_init(in->state, cg, parent, path);
	if (r)
		plugin_die(in, "returned %d for cgroup %d (%s): it could not start", r, cg, path);
	call_leave(in, f);
	check_loose(in, "cgroup_init");
}

static void fwd_cgroup_exit(void *p, int cg)
{
	struct plugin_inst *in = p;
	struct call_frame f = call_enter(in, "cgroup_exit");
	in->pub->cgroup_exit(in->state, cg);
	call_leave(in, f);
	check_loose(in, "cgroup_exit");
}

/* The cgroup a pass reclaims for: limit reclaim's target under a tree
 * (cgtree.h: set while limit reclaim runs), else 0. */
static int scan_cgroup(const struct mm *mm)
{
	return mm->cgt ? mm->cgt->target : 0;
}

/* A counter the plugin keeps in struct pagelab_scan may only grow, and
 * by at most one per page it held when the pass began (one look at each
 * page). */
static uint64_t scan_counter(struct plugin_inst *in, const char *name, uint64_t before, uint64_t after,
			     uint64_t bound)
{
	if (after < before || after - before > bound)
		plugin_die(in, "sc->%s went from %llu to %llu (it may only grow, by at most one per page the "
			   "policy holds: %llu)", name, (unsigned long long)before, (unsigned long long)after,
			   (unsigned long long)bound);
	return after;
}

static void fwd_shrink(void *p, struct scan_control *sc)
{
	struct plugin_inst *in = p;
	struct pagelab_scan ps = {
		.nr_to_reclaim = sc->nr_to_reclaim, .priority = sc->priority,
		.who = (enum pagelab_reclaimer)sc->who, .may_swap = sc->may_swap,
		.may_writepage = sc->may_writepage, .nr_scanned = sc->nr_scanned,
		.nr_reclaimed = sc->nr_reclaimed, .nr_rotated = sc->nr_rotated,
		.nr_activated = sc->nr_activated, .core = sc, .cgroup = scan_cgroup(in->mm),
	};
	uint64_t held = in->nr_owned, scanned = sc->nr_scanned;
	in->scan = &ps;
	in->core_sc = sc;
	struct call_frame f = call_enter(in, "shrink");
	in->pub->shrink(in->state, &ps);
	in->scan = NULL;
	/* pagelab_evict() kept scanned/reclaimed in the core's pass; what the
	 * policy counted itself comes back, checked. */
	if (ps.nr_reclaimed != sc->nr_reclaimed)
		plugin_die(in, "sc->nr_reclaimed was changed to %llu (pagelab_evict() keeps it: %llu)",
			   (unsigned long long)ps.nr_reclaimed, (unsigned long long)sc->nr_reclaimed);
	if (ps.nr_scanned > sc->nr_scanned)
		sc->nr_scanned = scan_counter(in, "nr_scanned", scanned, ps.nr_scanned, held);
	else if (ps.nr_scanned < sc->nr_scanned)
		scan_counter(in, "nr_scanned", sc->nr_scanned, ps.nr_scanned, held);
	sc->nr_rotated = scan_counter(in, "nr_rotated", sc->nr_rotated, ps.nr_rotated, held);
	sc->nr_activated = scan_counter(in, "nr_activated", sc->nr_activated, ps.nr_activated, held);
	call_leave(in, f);
	check_loose(in, "shrink");
}

static bool fwd_check(void *p, FILE *err)
{
	struct plugin_inst *in = p;
	if (!in->pub->check)
		return true;
	struct call_frame f = call_enter(in, "check");
	bool ok = in->pub->check(in->state, err);
	call_leave(in, f);
	if (!ok)
		fprintf(err, "pagelab: plugin %s: check: returned false (its own state is broken)\n", in->path);
	return ok;
}

static bool fail(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
	snprintf(err, errlen, fmt, a, b);
	return false;
}

#define KNOWN_FLAGS PAGELAB_POLICY_ACCESS_HOOK

/* What the plugin's struct says, checked once at load: the version, the
 * hooks that must be there, flags this pagelab knows, tunables whose
 * default lies in their range. */
static bool valid_pub(const struct pagelab_policy *pub, const char *path, char *err, size_t errlen)
{
	char num[64];
	if (pub->abi > PAGELAB_POLICY_ABI_LATEST) {
		snprintf(num, sizeof(num), "%d, newer than this pagelab's %d", pub->abi, PAGELAB_POLICY_ABI_LATEST);
		return fail(err, errlen, "%s: built for policy interface version %s (rebuild it against this "
			    "pagelab_policy.h)", path, num);
	}
	if (pub->abi < 1) {
		snprintf(num, sizeof(num), "%d", pub->abi);
		return fail(err, errlen, "%s: built for policy interface version %s, which no pagelab has (abi = "
			    "PAGELAB_POLICY_ABI)", path, num);
	}
	if (!pub->name || !*pub->name || !pub->summary || !pub->init || !pub->add || !pub->remove || !pub->shrink)
		return fail(err, errlen, "%s: the plugin lacks a name, summary, init, add, remove or shrink%s", path, "");
	if (pub->flags & ~KNOWN_FLAGS) {
		snprintf(num, sizeof(num), "0x%x", pub->flags & ~KNOWN_FLAGS);
		return fail(err, errlen, "%s: flags %s unknown to this pagelab", path, num);
	}
	for (int i = 0; pub->tunables && pub->tunables[i].name; i++) {
		const struct pagelab_tunable *t = &pub->tunables[i];
		if (!*t->name || !(t->min <= t->def && t->def <= t->max))
			return fail(err, errlen, "%s: tunable '%s' has no name, or a default outside its range", path,
				    t->name);
	}
	return true;
}

/* A free slot of the 8, or -1 with the reason in err. */
static int free_slot(const char *path, char *err, size_t errlen)
{
	int slot = 0;
	while (slot < MAX_PLUGINS && slots[slot])
		slot++;
	if (slot == MAX_PLUGINS) {
		fail(err, errlen, "%s: more than 8 policy plugins in one process%s", path, "");
		return -1;
	}
	return slot;
}

/* A valid struct takes slot `slot` under `path`: its tunables copied to
 * the core's type, the adapter's ops. */
static const struct policy_ops *adopt(const struct pagelab_policy *pub, const char *path, int slot)
{
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
	if (pub->abi >= 2) {
		pl->ops.admit = pub->admit ? fwd_admit : NULL;
		pl->ops.cgroup_init = pub->cgroup_init ? fwd_cgroup_init : NULL;
		pl->ops.cgroup_exit = pub->cgroup_exit ? fwd_cgroup_exit : NULL;
	}
	slots[slot] = pl;
	pl->next = loaded;
	loaded = pl;
	return &pl->ops;
}

static const struct policy_ops *load(const char *path, char *err, size_t errlen)
{
	for (struct plugin *pl = loaded; pl; pl = pl->next)
		if (!strcmp(pl->path, path))
			return &pl->ops;
	int slot = free_slot(path, err, errlen);
	if (slot < 0)
		return NULL;
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fail(err, errlen, "cannot load policy plugin: %s%s", dlerror(), "");
		return NULL;
	}
	const struct pagelab_policy *(*entry)(void);
	*(void **)&entry = dlsym(h, "pagelab_policy_entry");
	plugin_loading = path;
	const struct pagelab_policy *pub = entry ? entry() : NULL;
	plugin_loading = NULL;
	if (!entry)
		fail(err, errlen, "%s: not a pagelab policy plugin (no pagelab_policy_entry()%s)", path, "");
	else if (!pub)
		fail(err, errlen, "%s: pagelab_policy_entry() returned NULL%s", path, "");
	else if (valid_pub(pub, path, err, errlen))
		return adopt(pub, path, slot);
	dlclose(h);
	return NULL;
}

/* A struct given in memory (pagelab_set_policy_struct): known by its
 * address, named "memory:NAME" where a plugin's path would be. */
static const struct policy_ops *load_struct(const struct pagelab_policy *pub, char *err, size_t errlen)
{
	for (struct plugin *pl = loaded; pl; pl = pl->next)
		if (pl->pub == pub && !strncmp(pl->path, "memory:", 7))
			return &pl->ops;
	char path[96];
	snprintf(path, sizeof(path), "memory:%.80s", pub->name ? pub->name : "");
	int slot = free_slot(path, err, errlen);
	if (slot < 0 || !valid_pub(pub, path, err, errlen))
		return NULL;
	return adopt(pub, path, slot);
}

/* Sweeps and mrc resolve policies on several threads: one lock for the
 * slots and the list of loaded plugins. */
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

const struct policy_ops *policy_plugin_load(const char *path, char *err, size_t errlen)
{
	pthread_mutex_lock(&load_lock);
	const struct policy_ops *ops = load(path, err, errlen);
	pthread_mutex_unlock(&load_lock);
	return ops;
}

const struct policy_ops *policy_plugin_struct(const struct pagelab_policy *pub, char *err, size_t errlen)
{
	pthread_mutex_lock(&load_lock);
	const struct policy_ops *ops = load_struct(pub, err, errlen);
	pthread_mutex_unlock(&load_lock);
	return ops;
}
