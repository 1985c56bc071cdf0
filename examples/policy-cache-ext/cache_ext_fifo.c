/* cache_ext_fifo.c - a policy written in the shape of cache_ext's BPF
 * struct_ops (Zussman et al., "cache_ext: Customizing the Page Cache with
 * eBPF", SOSP 2025; github.com/cache-ext, include/linux/cache_ext.h),
 * run by pagelab's plugin interface.  docs/bpf-hooks.md maps the two.
 *
 * The policy is FIFO with one second chance per access (a FIFO-reinsertion
 * policy, the eviction half of S3-FIFO): a folio enters at the tail of one
 * list; evict_folios() walks from the head, proposes a folio not accessed
 * since it was last looked at, and moves an accessed one to the tail with
 * its mark cleared.  Its five functions are cache_ext's hooks, one to one:
 *
 *	cache_ext_ops.init            -> ce_init
 *	cache_ext_ops.folio_added     -> ce_folio_added
 *	cache_ext_ops.folio_accessed  -> ce_folio_accessed
 *	cache_ext_ops.folio_evicted   -> ce_folio_evicted
 *	cache_ext_ops.evict_folios    -> ce_evict_folios
 *
 * and the glue below them (pagelab's add, mark_accessed, remove, shrink)
 * is what the kernel side of cache_ext does: call the hooks, then evict
 * the candidates the policy proposed.  Build: this folder's Makefile; run:
 *
 *	pagelab run --policy ./cache_ext_fifo.so --check usemem -m 100
 */
#include <pagelab_policy.h>

#include <stdlib.h>

#define CE_MAX_EVICT_BATCH 32   /* cache_ext's folios_to_evict[32] */
#define CE_ACCESSED 1u          /* our mark in the per-folio word */

/* cache_ext_eviction_ctx: the kernel asks for request_nr folios, the
 * policy proposes up to CE_MAX_EVICT_BATCH candidates. */
struct ce_eviction_ctx {
	uint64_t request_nr;
	uint64_t *looks;          /* folios the pass may still look at */
	int nr;
	pagelab_pfn candidates[CE_MAX_EVICT_BATCH];
};

struct ce {
	struct pagelab_mm *mm;
	int list;                 /* bpf_cache_ext_ds_registry_new_list() */
};

/* ---- the policy: cache_ext's hooks ---------------------------------- */

static int ce_init(struct ce *c)
{
	c->list = pagelab_lru_register(c->mm, "fifo");
	return c->list >= 0 ? 0 : -1;
}

static void ce_folio_added(struct ce *c, pagelab_pfn pfn)
{
	*pagelab_page_word(c->mm, pfn) = 0;
	pagelab_lru_add_head(c->mm, c->list, pfn);   /* the young end */
}

static void ce_folio_accessed(struct ce *c, pagelab_pfn pfn)
{
	*pagelab_page_word(c->mm, pfn) |= CE_ACCESSED;
}

static void ce_folio_evicted(struct ce *c, pagelab_pfn pfn)
{
	*pagelab_page_word(c->mm, pfn) = 0;
}

/* bpf_cache_ext_list_iterate() over the list from its old end: an
 * accessed folio is moved to the young end with its mark cleared, an
 * untouched one proposed.  *ctx->looks bounds the pass: one look at each
 * folio at most, over all the batches of one shrink. */
static void ce_evict_folios(struct ce *c, struct ce_eviction_ctx *ctx)
{
	while (ctx->nr < CE_MAX_EVICT_BATCH && (uint64_t)ctx->nr < ctx->request_nr && *ctx->looks) {
		(*ctx->looks)--;
		pagelab_pfn pfn = pagelab_lru_tail(c->mm, c->list);
		if (pfn == PAGELAB_PFN_NONE)
			break;
		pagelab_lru_del(c->mm, pfn);
		uint64_t *w = pagelab_page_word(c->mm, pfn);
		/* A mapped folio's accesses are in its PTEs' accessed bits,
		 * which only a reclaim-side walk sees (cache_ext covers the
		 * page cache's read()/write() accesses only). */
		if ((*w & CE_ACCESSED) || pagelab_page_referenced(c->mm, pfn)) {
			*w &= ~CE_ACCESSED;
			pagelab_lru_add_head(c->mm, c->list, pfn);
			continue;
		}
		ctx->candidates[ctx->nr++] = pfn;
	}
}

/* ---- the kernel side: pagelab's plugin callbacks call the hooks ------ */

static void *glue_init(struct pagelab_mm *mm, const double *tun)
{
	(void)tun;
	struct ce *c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	c->mm = mm;
	if (ce_init(c) != 0) {
		free(c);
		return NULL;
	}
	return c;
}

static void glue_destroy(void *p)
{
	free(p);
}

static void glue_add(void *p, pagelab_pfn pfn, enum pagelab_add_reason why)
{
	(void)why;
	ce_folio_added(p, pfn);
}

/* The page leaves without reclaim (exit, munmap, truncate). */
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

/* shrink: ask for a batch, evict what was proposed; a candidate the core
 * refuses goes back to the young end, as cache_ext's kernel side puts
 * back a folio it could not isolate.  Batches until the target is met or
 * a batch proposes nothing (every folio had its look). */
static void glue_shrink(void *p, struct pagelab_scan *sc)
{
	struct ce *c = p;
	bool noswap = false;
	uint64_t looks = pagelab_lru_count(c->mm, c->list);
	while (sc->nr_reclaimed < sc->nr_to_reclaim && !noswap) {
		struct ce_eviction_ctx ctx = { .request_nr = sc->nr_to_reclaim - sc->nr_reclaimed, .looks = &looks };
		ce_evict_folios(c, &ctx);
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
			pagelab_lru_add_head(c->mm, c->list, pfn);
			sc->nr_rotated++;
		}
	}
}

static const struct pagelab_policy cache_ext_fifo = {
	.abi = PAGELAB_POLICY_ABI,
	.name = "cache_ext_fifo",
	.summary = "FIFO with a second chance, in cache_ext's hook shape (a plugin example)",
	.init = glue_init,
	.destroy = glue_destroy,
	.add = glue_add,
	.remove = glue_remove,
	.mark_accessed = glue_accessed,
	.shrink = glue_shrink,
};

const struct pagelab_policy *pagelab_policy_entry(void)
{
	return &cache_ext_fifo;
}
