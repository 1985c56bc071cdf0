/* zswapstat.c - `--set zswap=N`: zswap's figures under the kernel's
 * names (6.12-6.18): the vmstat events zswpin, zswpout and zswpwb, the
 * debugfs files of /sys/kernel/debug/zswap (pool_total_size in bytes,
 * stored_pages, pool_limit_hit, written_back_pages and the reject_
 * counters; same_filled_pages only with zswap.same_filled=1, 6.8-6.11's),
 * the pool's peak, and with --memcg the cgroup's memory.stat zswap
 * (bytes) and zswapped (pages), not under memcg.v1=1, whose memory.stat
 * has neither (docs/zram.md).  And with --set swap.cluster=1, the swap
 * area's clusters by list at the end (6.18 mm/swapfile.c): how
 * fragmented a long-running area has become, what
 * swap_reclaim_full_clusters() freed, and with swap.discard=1 the
 * discards. */
#include "report.h"
#include "../mm/zswap.h"
#include "../mm/swap_cluster.h"
#include "../lib/util.h"

size_t report_zswap_stats(const struct machine *m, struct memstat *st)
{
	const struct zswap *z = m->mm.swap.zswap;
	const struct zswap_stats *s = &z->st;
	size_t n = 0;
#define S(nm, v) st[n++] = (struct memstat){ nm, v }
	S("zswpin", s->zswpin);
	S("zswpout", s->zswpout);
	S("zswpwb", s->zswpwb);
	S("pool_total_size", zswap_pool_pages(z) * PAGE_SIZE);
	S("pool_max_size", s->pool_pages_max * PAGE_SIZE);
	S("stored_pages", s->stored_pages);
	if (z->cfg.same_filled)
		S("same_filled_pages", s->same_filled_pages);
	S("pool_limit_hit", s->pool_limit_hit);
	S("written_back_pages", s->written_back_pages);
	S("reject_compress_poor", s->reject_compress_poor);
	S("reject_alloc_fail", s->reject_alloc_fail);
	S("reject_reclaim_fail", s->reject_reclaim_fail);
	if (m->mm.cgt)
		S("reject_zswap_max", s->reject_zswap_max);
	/* v1's memory.stat (memcg1_stat_format, 6.18 mm/memcontrol-v1.c)
	 * has no zswap keys: obj_cgroup_charge_zswap returns at once there */
	if (m->mm.memcg.limit && !m->mm.memcg.v1) {
		S("memory.stat.zswap", z->lru[0].bytes);
		S("memory.stat.zswapped", z->lru[0].stored);
	}
#undef S
	return n;
}

void report_zswap_text(const struct run_result *rr, FILE *out)
{
	report_memstat_text("zswap (--set zswap; debugfs and vmstat names)", rr->zswap, rr->nr_zswap, out);
}

void report_zswap_json(const struct run_result *rr, FILE *out)
{
	report_memstat_json(",\n  \"zswap\": {", rr->zswap, rr->nr_zswap, out);
}

size_t report_swapcl_stats(const struct machine *m, struct memstat *st)
{
	const struct swap_clusters *c = m->mm.swap.cl;
	size_t n = 0;
	/* free slots in clusters that are neither free nor full: what the
	 * allocator has to scan the nonfull and frag lists for */
	uint64_t scattered = 0;
	for (uint32_t i = 0; i < c->nr; i++)
		if (c->list[i] == CL_NONFULL || c->list[i] == CL_FRAG)
			scattered += c->csize - c->count[i]; /* counts the pad */
#define S(nm, v) st[n++] = (struct memstat){ nm, v }
	S("clusters_free", c->len[CL_FREE]);
	S("clusters_nonfull", c->len[CL_NONFULL]);
	S("clusters_frag", c->len[CL_FRAG]);
	S("clusters_full", c->len[CL_FULL]);
	S("free_slots_scattered", scattered);
	S("frag_scans", c->frag_scans);
	/* swap_reclaim_full_clusters(): runs of swap_reclaim_work() (the
	 * area filled up), full clusters scanned by it and by the
	 * allocator, swap-cache slots freed */
	S("reclaim_full_works", c->reclaim_works);
	S("reclaim_full_scans", c->reclaim_scans);
	S("reclaim_full_freed", c->reclaim_freed);
	if (c->page_discard) {
		/* swap.discard=1: clusters discarded (of which synchronously,
		 * swap_sync_discard()), and waiting at the end */
		S("discards", c->discards);
		S("discard_sync", c->discard_sync);
		S("clusters_discard", swap_cl_discard_waiting(c));
	}
#undef S
	return n;
}
