/* cache_ext_fifo.c - a policy written in the shape of cache_ext's BPF
 * struct_ops (Zussman et al., "cache_ext: Customizing the Page Cache with
 * eBPF", SOSP 2025; github.com/cache-ext, include/linux/cache_ext.h, and
 * the later tree's admit_folio and per-memcg init/exit, github.com/
 * tzussman/linux include/linux/cache_ext.h), run by pagelab's plugin
 * interface (version 2).  docs/bpf-hooks.md maps the two.
 *
 * The policy is FIFO with one second chance per access (a FIFO-reinsertion
 * policy, the eviction half of S3-FIFO), one FIFO per memory cgroup as
 * cache_ext keeps a policy's lists per memcg: a folio enters at the young
 * end of its cgroup's list; evict_folios() walks the lists of the cgroup
 * being reclaimed (and its descendants) from the old end, proposes a
 * folio not accessed since it was last looked at, and moves an accessed
 * one to the young end with its mark cleared.  admit_folio() turns away
 * page-cache folios of a cgroup that already holds cache_max of them
 * (the tunable; 0, the default, admits every folio): a turned-away folio
 * is read once and dropped, or, written, dropped once written back.  Its
 * seven functions are cache_ext's hooks, one to one:
 *
 *	cache_ext_ops.init            -> ce_init       (once per memcg)
 *	cache_ext_ops.exit            -> ce_exit       (once per memcg)
 *	cache_ext_ops.admit_folio     -> ce_admit_folio
 *	cache_ext_ops.folio_added     -> ce_folio_added
 *	cache_ext_ops.folio_accessed  -> ce_folio_accessed
 *	cache_ext_ops.folio_evicted   -> ce_folio_evicted
 *	cache_ext_ops.evict_folios    -> ce_evict_folios
 *
 * and the glue below them (pagelab's init, cgroup_init, cgroup_exit,
 * admit, add, mark_accessed, remove, shrink) is what the kernel side of
 * cache_ext does: call the hooks, then evict the candidates the policy
 * proposed.  Build: this folder's Makefile; run:
 *
 *	pagelab run --policy ./cache_ext_fifo.so --check usemem -m 100
 */
#include <pagelab_policy.h>

#include <stdlib.h>

#define CE_MAX_EVICT_BATCH 32   /* cache_ext's folios_to_evict[32] */
#define CE_MAX_MEMCG 17         /* the root and pagelab's 16 cgroups */
/* Our per-folio word: the accessed mark, a page-cache mark, and the
 * memcg whose list holds it (a BPF policy keeps these in a map keyed by
 * folio; folio_evicted() needs the memcg after the folio left it). */
#define CE_ACCESSED 1u
#define CE_FILE 2u
#define CE_MEMCG_SHIFT 8

/* cache_ext_eviction_ctx: the kernel asks for request_nr folios, the
 * policy proposes up to CE_MAX_EVICT_BATCH candidates. */
struct ce_eviction_ctx {
	uint64_t request_nr;
	uint64_t *looks;          /* folios the pass may still look at */
	int nr;
	pagelab_pfn candidates[CE_MAX_EVICT_BATCH];
};

/* One memcg's state: what init() sets up and exit() drops. */
struct ce_memcg {
	int list;                 /* bpf_cache_ext_ds_registry_new_list() */
	int parent;
	uint64_t nr_file;         /* page-cache folios on its list */
	bool live;
};

struct ce {
	struct pagelab_mm *mm;
	uint64_t cache_max;       /* the tunable: 0 = admit every folio */
	struct ce_memcg memcg[CE_MAX_MEMCG];
};

static const struct pagelab_tunable ce_tunables[] = {
	{ "cache_max", "(none: a plugin example)", 0, 0, 1e9,
	  "page-cache folios a cgroup's list holds before admit_folio() turns new ones away (0: admit all)" },
	{ 0 },
};

/* ---- the policy: cache_ext's hooks ---------------------------------- */

static int ce_init(struct ce *c, int memcg, int parent, const char *name)
{
	if (memcg < 0 || memcg >= CE_MAX_MEMCG)
		return -1;
	c->memcg[memcg] = (struct ce_memcg){ pagelab_lru_register(c->mm, name), parent, 0, true };
	return 0;
}

/* Bookkeeping only, as cache_ext's exit(): the lists are the core's. */
static void ce_exit(struct ce *c, int memcg)
{
	c->memcg[memcg].live = false;
}

static bool ce_admit_folio(struct ce *c, pagelab_pfn pfn)
{
	const struct ce_memcg *m = &c->memcg[pagelab_page_cgroup(c->mm, pfn)];
	return !c->cache_max || m->nr_file < c->cache_max;
}

static void ce_folio_added(struct ce *c, pagelab_pfn pfn)
{
	int memcg = pagelab_page_cgroup(c->mm, pfn);
	bool file = !(pagelab_page_state(c->mm, pfn) & PAGELAB_PAGE_ANON);
	*pagelab_page_word(c->mm, pfn) = (uint64_t)memcg << CE_MEMCG_SHIFT | (file ? CE_FILE : 0);
	c->memcg[memcg].nr_file += file;
	pagelab_lru_add_head(c->mm, c->memcg[memcg].list, pfn);   /* the young end */
}

static void ce_folio_accessed(struct ce *c, pagelab_pfn pfn)
{
	*pagelab_page_word(c->mm, pfn) |= CE_ACCESSED;
}

static void ce_folio_evicted(struct ce *c, pagelab_pfn pfn)
{
	uint64_t *w = pagelab_page_word(c->mm, pfn);
	if (*w & CE_FILE)
		c->memcg[*w >> CE_MEMCG_SHIFT].nr_file--;
	*w = 0;
}

/* bpf_cache_ext_list_iterate() over one memcg's list from its old end:
 * an accessed folio is moved to the young end with its mark cleared, an
 * untouched one proposed.  *ctx->looks bounds the pass: one look at each
 * folio at most, over all the batches of one shrink. */
static void ce_evict_folios(struct ce *c, struct ce_eviction_ctx *ctx, int memcg)
{
	int list = c->memcg[memcg].list;
	while (ctx->nr < CE_MAX_EVICT_BATCH && (uint64_t)ctx->nr < ctx->request_nr && *ctx->looks) {
		(*ctx->looks)--;
		pagelab_pfn pfn = pagelab_lru_tail(c->mm, list);
		if (pfn == PAGELAB_PFN_NONE)
			break;
		pagelab_lru_del(c->mm, pfn);
		uint64_t *w = pagelab_page_word(c->mm, pfn);
		/* A mapped folio's accesses are in its PTEs' accessed bits,
		 * which only a reclaim-side walk sees (cache_ext covers the
		 * page cache's read()/write() accesses only). */
		if ((*w & CE_ACCESSED) || pagelab_page_referenced(c->mm, pfn)) {
			*w &= ~(uint64_t)CE_ACCESSED;
			pagelab_lru_add_head(c->mm, list, pfn);
			continue;
		}
		ctx->candidates[ctx->nr++] = pfn;
	}
}

/* ---- the kernel side: pagelab's plugin callbacks call the hooks ------ */

static void *glue_init(struct pagelab_mm *mm, const double *tun)
{
	struct ce *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->mm = mm;
	c->cache_max = (uint64_t)tun[0];
	/* The root memcg's: the whole machine, or --memcg's one cgroup. */
	if (ce_init(c, 0, 0, "fifo") != 0) {
		free(c);
		return NULL;
	}
	return c;
}

static void glue_destroy(void *p)
{
	free(p);
}

/* cache_ext_memcg_online(): each cgroup of a --cgroup tree. */
static int glue_cgroup_init(void *p, int cgroup, int parent, const char *path)
{
	return ce_init(p, cgroup, parent, path);
}

static void glue_cgroup_exit(void *p, int cgroup)
{
	ce_exit(p, cgroup);
}

static bool glue_admit(void *p, pagelab_pfn pfn)
{
	return ce_admit_folio(p, pfn);
}

static void glue_add(void *p, pagelab_pfn pfn, enum pagelab_add_reason why)
{
	(void)why;
	ce_folio_added(p, pfn);
}

/* The page leaves without reclaim (exit, munmap, truncate, a folio
 * admit_folio() turned away dropped after its read or its writeback). */
static void glue_remove(void *p, pagelab_pfn pfn)
{
	struct ce *c = p;
	pagelab_lru_del(c->mm, pfn);
	ce_folio_evicted(c, pfn);
}

static void glue_accessed(void *p, pagelab_pfn pfn)
{
	ce_folio_accessed(p, pfn);
}

/* memcg is target or below it. */
static bool in_subtree(const struct ce *c, int memcg, int target)
{
	while (memcg != target && memcg != 0)
		memcg = c->memcg[memcg].parent;
	return memcg == target;
}

/* One memcg's part of a pass: ask for batches, evict what was proposed;
 * a candidate the core refuses goes back to the young end, as cache_ext's
 * kernel side puts back a folio it could not isolate.  Batches until the
 * target is met or a batch proposes nothing (every folio had its look).
 * False once swap is full. */
static bool shrink_memcg(struct ce *c, struct pagelab_scan *sc, int memcg)
{
	int list = c->memcg[memcg].list;
	uint64_t looks = pagelab_lru_count(c->mm, list);
	bool noswap = false;
	while (sc->nr_reclaimed < sc->nr_to_reclaim && !noswap) {
		struct ce_eviction_ctx ctx = { .request_nr = sc->nr_to_reclaim - sc->nr_reclaimed, .looks = &looks };
		ce_evict_folios(c, &ctx, memcg);
		if (!ctx.nr)
			break;
		for (int i = 0; i < ctx.nr; i++) {
			pagelab_pfn pfn = ctx.candidates[i];
			enum pagelab_evict_result r = noswap ? PAGELAB_EVICT_REFUSED : pagelab_evict(c->mm, sc, pfn);
			if (r == PAGELAB_EVICT_GONE || r == PAGELAB_EVICT_CULLED) {
				ce_folio_evicted(c, pfn);
				continue;
			}
			noswap |= r == PAGELAB_EVICT_NOSWAP;
			pagelab_lru_add_head(c->mm, list, pfn);
			sc->nr_rotated++;
		}
	}
	return !noswap;
}

/* shrink: evict_folios(ctx, memcg) for the memcg reclaim is for
 * (sc->cgroup, 0 for the whole machine) and each memcg below it. */
static void glue_shrink(void *p, struct pagelab_scan *sc)
{
	struct ce *c = p;
	for (int m = 0; m < CE_MAX_MEMCG && sc->nr_reclaimed < sc->nr_to_reclaim; m++)
		if (c->memcg[m].live && in_subtree(c, m, sc->cgroup) && !shrink_memcg(c, sc, m))
			break;
}

static const struct pagelab_policy cache_ext_fifo = {
	.abi = PAGELAB_POLICY_ABI,
	.name = "cache_ext_fifo",
	.summary = "FIFO with a second chance, in cache_ext's hook shape (a plugin example)",
	.tunables = ce_tunables,
	.init = glue_init,
	.destroy = glue_destroy,
	.add = glue_add,
	.remove = glue_remove,
	.mark_accessed = glue_accessed,
	.shrink = glue_shrink,
	.admit = glue_admit,
	.cgroup_init = glue_cgroup_init,
	.cgroup_exit = glue_cgroup_exit,
};

const struct pagelab_policy *pagelab_policy_entry(void)
{
	return &cache_ext_fifo;
}
