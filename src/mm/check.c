/* check.c - the --check invariants, verified between simulation steps:
 *  - every frame is free or on exactly one list, and list links are sound;
 *  - PTEs and rmap agree: each present PTE's frame points back to it, and
 *    mapcounts equal the number of PTEs mapping each frame; a private file
 *    PTE is write-protected, a shared one only under vm.dirty_fault (6.x
 *    write notification: a clean page is mapped read-only);
 *  - swap slot references equal the swap PTEs, the swap cache is consistent
 *    both ways, and slots in use = slots referenced by a PTE or cached
 *    (check_swap.c: between events only the slots PTEs and pages name);
 *  - the gauges (free, writeback, reading, mapped file / anon) match the
 *    frames' flags and mapcounts;
 *  - the page cache and its pages agree both ways (PG_file, owner, index),
 *    a file page out of the cache is neither mapped nor dirty, shadow entries lie within their
 *    file, each file vma is on its file's i_mmap list and maps only its
 *    own pages (or, MAP_PRIVATE, copied anonymous ones). */
#include "internal.h"
#include "filemap.h"
#include "inode_index.h"
#include "zram.h"
#include "zswap.h"
#include "check_swap.h"
#include "../lib/util.h"

#include <stdlib.h>

#define FAIL(...) do { fprintf(err, "check: " __VA_ARGS__); fputc('\n', err); ok = false; } while (0)

static bool check_lists(struct mm *mm, FILE *err, uint8_t *seen)
{
	bool ok = true;
	struct frames *f = &mm->fr;
	for (int l = 1; l < f->nr_lists; l++) {
		uint64_t n = 0, nfile = 0;
		pfn_t prev = PFN_NONE;
		for (pfn_t pfn = f->lists[l].head; pfn != PFN_NONE; pfn = lru_next(f, pfn)) {
			if (pfn >= f->nr) { FAIL("list %s: bad pfn %u", f->lists[l].name, pfn); return false; }
			if (seen[pfn]++) { FAIL("pfn %u is on two lists (or a cycle in %s)", pfn, f->lists[l].name); return false; }
			if (lru_on(f, pfn) != l)
				FAIL("pfn %u on list %s but its LRU link says %d", pfn, f->lists[l].name, lru_on(f, pfn));
			if (lru_prev(f, pfn) != prev)
				FAIL("pfn %u: broken prev link in %s", pfn, f->lists[l].name);
			prev = pfn;
			n++;
			nfile += !(f->pages[pfn].flags & PG_anon);
		}
		if (prev != f->lists[l].tail)
			FAIL("list %s: tail mismatch", f->lists[l].name);
		if (n != f->lists[l].count)
			FAIL("list %s: count %llu but %llu linked", f->lists[l].name,
			     (unsigned long long)f->lists[l].count, (unsigned long long)n);
		if (nfile != f->lists[l].nr_file)
			FAIL("list %s: %llu file pages counted but %llu linked", f->lists[l].name,
			     (unsigned long long)f->lists[l].nr_file, (unsigned long long)nfile);
	}
	return ok;
}

/* Page cache -> pages, shadows, and i_mmap -> VMAs. */
static bool check_files(struct mm *mm, FILE *err)
{
	bool ok = true;
	struct fs *fs = mm->fs;
	char why[300];
	if (!inode_index_check(fs, why, sizeof(why)))
		FAIL("%s", why);
	for (uint32_t i = 0; i < fs->nr; i++) {
		struct inode *ino = fs->inodes[i];
		if (ino->flags & INODE_DEAD) {
			if (ino->cap || ino->nrpages || ino->nrshadows || ino->nr_maps)
				FAIL("inode %s: freed but still holds pages, shadows or mappings", ino->name);
			continue;
		}
		uint64_t np = 0, ns = 0, nd = 0, nwbk = 0, ndwb = 0;
		for (uint64_t x = 0; x < ino->cap; x++) {
			pfn_t pfn = ino->pages[x];
			if (ino->shadow && ino->shadow[x]) {
				ns++;
				if (pfn != PFN_NONE)
					FAIL("inode %s index %llu: both a page and a shadow", ino->name, (unsigned long long)x);
				if (x >= ino->size)
					FAIL("inode %s: shadow at %llu beyond the end of the file (%llu pages)", ino->name,
					     (unsigned long long)x, (unsigned long long)ino->size);
			}
			if (pfn == PFN_NONE)
				continue;
			np++;
			struct page *p = pfn < mm->fr.nr ? mm_page(mm, pfn) : NULL;
			if (!p || (p->flags & PG_free) || !(p->flags & PG_file) || p->owner != i + 1 || p->index != x) {
				FAIL("inode %s index %llu: cached pfn %u does not point back", ino->name, (unsigned long long)x, pfn);
				continue;
			}
			nd += !!(p->flags & PG_dirty);
			nwbk += !!(p->flags & PG_writeback);
			ndwb += (p->flags & (PG_dirty | PG_writeback)) == (PG_dirty | PG_writeback);
			if (!!(p->flags & PG_dirty) != !!(ino->dirtymap[x / 64] & (1ULL << (x % 64))))
				FAIL("inode %s index %llu: dirty tag disagrees with PG_dirty", ino->name, (unsigned long long)x);
			if (!!(p->flags & PG_writeback) != !!(ino->wbmap[x / 64] & (1ULL << (x % 64))))
				FAIL("inode %s index %llu: writeback tag disagrees with PG_writeback", ino->name,
				     (unsigned long long)x);
			if (x >= ino->size)
				FAIL("inode %s: page at %llu beyond the end of the file", ino->name, (unsigned long long)x);
		}
		if (np != ino->nrpages || ns != ino->nrshadows || nd != ino->nrdirty)
			FAIL("inode %s: nrpages %llu/%llu nrshadows %llu/%llu nrdirty %llu/%llu (counted/found)", ino->name,
			     (unsigned long long)ino->nrpages, (unsigned long long)np, (unsigned long long)ino->nrshadows,
			     (unsigned long long)ns, (unsigned long long)ino->nrdirty, (unsigned long long)nd);
		if (ndwb != ino->nrdirty_wb)
			FAIL("inode %s: nrdirty_wb %llu but %llu dirty pages under writeback", ino->name,
			     (unsigned long long)ino->nrdirty_wb, (unsigned long long)ndwb);
		if (nwbk != ino->nr_writeback)
			FAIL("inode %s: nr_writeback %llu but %llu pages under writeback", ino->name,
			     (unsigned long long)ino->nr_writeback, (unsigned long long)nwbk);
		if (ino->nr_open < ino->nr_maps)
			FAIL("inode %s: %u mappings but %u references", ino->name, ino->nr_maps, ino->nr_open);
		for (uint32_t k = 0; k < ino->nr_maps; k++) {
			const struct file_map *fm = &ino->maps[k];
			if (fm->as >= mm->nr_as || fm->vma >= mm->as[fm->as]->nr_vmas ||
			    mm->as[fm->as]->vmas[fm->vma].ino != i + 1)
				FAIL("inode %s: i_mmap entry %u does not point to a mapping of it", ino->name, k);
		}
	}
	for (uint32_t a = 0; a < mm->nr_as; a++) {
		struct aspace *as = mm->as[a];
		for (uint32_t vi = 0; vi < as->nr_vmas; vi++) {
			struct vma *v = &as->vmas[vi];
			if ((v->flags & VMA_DEAD) || !v->ino)
				continue;
			struct inode *ino = v->ino <= fs->nr ? fs->inodes[v->ino - 1] : NULL;
			bool found = false;
			for (uint32_t k = 0; ino && k < ino->nr_maps; k++)
				found |= ino->maps[k].as == a && ino->maps[k].vma == vi;
			if (!found)
				FAIL("as %u vma %u: file mapping missing from its file's i_mmap", a, vi);
		}
	}
	return ok;
}

static bool check_all(struct mm *mm, FILE *err, bool whole)
{
	bool ok = true;
	struct frames *f = &mm->fr;
	uint8_t *seen = xcalloc(f->nr, 1);
	int32_t *maps = xcalloc(f->nr, sizeof(int32_t));
	uint8_t *locked = xcalloc(f->nr, 1);
	swap_walk_begin(&mm->swap);
	if (!check_lists(mm, err, seen)) {
		ok = false;
		goto out;
	}
	uint64_t nfile = 0, ndirty = 0;
	const struct zswap *zsw = mm->swap.zswap;
	uint64_t nzpool = 0, nzwb = 0, zcharged = zsw ? zsw->memcg_pages : 0;
	uint64_t npool = 0, nfree = 0, nwb = 0, nrd = 0, npend = 0, nanon = 0, nmlock = 0;
	uint64_t nfile_mapped = 0, nanon_mapped = 0, nfile_frames = 0;
	for (pfn_t pfn = 0; pfn < f->nr; pfn++) {
		struct page *p = &f->pages[pfn];
		if (!seen[pfn] && !(mm->cache.unlisted && !(p->flags & PG_free)))
			FAIL("pfn %u (flags %#x) is on no list", pfn, p->flags);
		bool on_free = lru_on(f, pfn) == mm->zones[p->zone].free_list;
		if (on_free != !!(p->flags & PG_free))
			FAIL("pfn %u: PG_free=%d but on list %s", pfn, !!(p->flags & PG_free),
			     f->lists[lru_on(f, pfn)].name);
		if (p->flags & PG_free) {
			nfree++;
			continue;
		}
		/* The slot a frame in the swap cache names (whatever list it
		 * is on: a zswap writeback's folio too). */
		if (!mm->cache.only && p->swap && p->swap - 1 < mm->swap.nr_slots &&
		    mm->swap.cache[p->swap - 1] == pfn)
			swap_walk_cached(&mm->swap, p->swap - 1);
		if (mm->swap.zram && lru_on(f, pfn) == mm->swap.zram->fr.list) {
			npool++;  /* a zsmalloc page: no struct page state */
			continue;
		}
		if (zsw && lru_on(f, pfn) == zsw->fr.list) {
			nzpool++;  /* zswap's zsmalloc page */
			continue;
		}
		if (zsw && lru_on(f, pfn) == zsw->wb_list) {
			nzwb++;  /* a zswap writeback's folio, being written */
			nwb += !!(p->flags & PG_writeback);
			continue;
		}
		nwb += !!(p->flags & PG_writeback);
		nrd += !!(p->flags & PG_locked);
		npend += !!(p->flags & PG_reclaim);
		nanon += !!(p->flags & PG_anon);
		nfile_frames += !!(p->flags & PG_file);
		nmlock += !!(p->flags & PG_mlocked);
		if (p->mapcount > 0) {
			nfile_mapped += !!(p->flags & PG_file);
			nanon_mapped += !(p->flags & PG_file);
		}
		if ((p->flags & PG_reclaim) && !(p->flags & PG_writeback))
			FAIL("pfn %u: PG_reclaim without writeback", pfn);
		if (p->flags & PG_swapcache) {
			uint32_t slot = p->swap - 1;
			if (!p->swap || slot >= mm->swap.nr_slots || mm->swap.cache[slot] != pfn)
				FAIL("pfn %u: in swap cache at slot %u but the cache disagrees", pfn, slot);
		} else if (p->swap && !mm->cache.only) {
			FAIL("pfn %u: swap slot without PG_swapcache", pfn);
		}
		if (lru_on(f, pfn) == mm->list_wb_free && !(p->flags & PG_writeback))
			FAIL("pfn %u: waits to be freed after writeback, but none in flight", pfn);
		if (p->mapcount == 0 && !(p->flags & (PG_swapcache | PG_file)))
			FAIL("pfn %u: unmapped anonymous page outside the swap cache (leak)", pfn);
		if (p->flags & PG_file) {
			struct inode *ino = page_inode(mm, p);
			if (!p->owner) {
				/* Out of the page cache: truncated under I/O
				 * (freed when it completes), or a page a unit
				 * test made by hand.  Never mapped nor dirty. */
				if (p->mapcount)
					FAIL("pfn %u: mapped file page out of the page cache", pfn);
				if (p->flags & PG_dirty)
					FAIL("pfn %u: dirty file page out of the page cache", pfn);
			} else if (p->owner > mm->fs->nr || (ino->flags & INODE_DEAD) ||
				   pc_page(ino, p->index) != pfn) {
				FAIL("pfn %u: file page (inode %u index %llu) not in that page cache", pfn,
				     p->owner - 1, (unsigned long long)p->index);
			} else {
				nfile++;
				ndirty += !!(p->flags & PG_dirty);
			}
			if (p->flags & (PG_anon | PG_swapcache))
				FAIL("pfn %u: both a file page and anonymous", pfn);
		}
	}
	/* Between faults a cache's frame freed last has been taken again. */
	if (mm->cache.only && mm->cache.freed != PFN_NONE)
		FAIL("pfn %u freed by a cache's reclaim and never taken", mm->cache.freed);
	if (zsw && nzpool != zsw->pool.pages)
		FAIL("zswap: %llu frames on the pool's list but zsmalloc holds %llu pages",
		     (unsigned long long)nzpool, (unsigned long long)zsw->pool.pages);
	if (mm->swap.zram && npool != mm->swap.zram->pool.pages)
		FAIL("zram: %llu frames on the pool's list but zsmalloc holds %llu pages",
		     (unsigned long long)npool, (unsigned long long)mm->swap.zram->pool.pages);
	if (nfree != mm->stat.nr_free) FAIL("nr_free %llu but %llu frames free", (unsigned long long)mm->stat.nr_free, (unsigned long long)nfree);
	for (int z = 0; z < mm->nr_zones; z++)
		if (lru_count(f, mm->zones[z].free_list) != mm->zones[z].nr_free)
			FAIL("zone %s: nr_free %llu but %llu frames on its free list", mm->zones[z].name,
			     (unsigned long long)mm->zones[z].nr_free,
			     (unsigned long long)lru_count(f, mm->zones[z].free_list));
	if (nwb != mm->stat.nr_writeback) FAIL("nr_writeback %llu but %llu pages", (unsigned long long)mm->stat.nr_writeback, (unsigned long long)nwb);
	if (nrd != mm->stat.nr_reading) FAIL("nr_reading %llu but %llu pages", (unsigned long long)mm->stat.nr_reading, (unsigned long long)nrd);
	if (npend != mm->stat.nr_pending_free) FAIL("nr_pending_free %llu but %llu pages", (unsigned long long)mm->stat.nr_pending_free, (unsigned long long)npend);
	/* --memcg: every frame in use is the workloads' - their anonymous
	 * pages (mapped or in the swap cache) and their page cache - and is
	 * charged exactly once; nothing is charged beyond the limit. */
	if (mm->memcg.limit) {
		const struct memcg *cg = &mm->memcg;
		/* zswap's compressed bytes are charged too, in pages, and
		 * forced (obj_cgroup_charge_zswap() in PF_MEMALLOC) */
		if (cg->charged != nanon + nfile_frames + zcharged)
			FAIL("memcg: %llu pages charged but the workloads hold %llu anonymous + %llu file pages",
			     (unsigned long long)cg->charged, (unsigned long long)nanon, (unsigned long long)nfile_frames);
		/* zram's pool pages are nobody's charge (zram.c) */
		if (cg->charged != f->nr - nfree - npool - nzpool - nzwb + zcharged)
			FAIL("memcg: %llu pages charged but %llu frames in use", (unsigned long long)cg->charged,
			     (unsigned long long)(f->nr - nfree - npool - nzpool - nzwb + zcharged));
		if (cg->charged > cg->limit + zcharged || (!zsw && cg->peak > cg->limit))
			FAIL("memcg: %llu pages charged (peak %llu) above the limit of %llu", (unsigned long long)cg->charged,
			     (unsigned long long)cg->peak, (unsigned long long)cg->limit);
	}
	if (nanon != mm->stat.nr_anon) FAIL("nr_anon %llu but %llu pages", (unsigned long long)mm->stat.nr_anon, (unsigned long long)nanon);
	if (nfile != mm->stat.nr_file) FAIL("nr_file %llu but %llu page-cache pages", (unsigned long long)mm->stat.nr_file, (unsigned long long)nfile);
	if (ndirty != mm->stat.nr_dirty) FAIL("nr_dirty %llu but %llu dirty page-cache pages", (unsigned long long)mm->stat.nr_dirty, (unsigned long long)ndirty);
	if (nfile_mapped != mm->stat.nr_file_mapped) FAIL("nr_file_mapped %llu but %llu mapped file pages", (unsigned long long)mm->stat.nr_file_mapped, (unsigned long long)nfile_mapped);
	if (nanon_mapped != mm->stat.nr_anon_mapped) FAIL("nr_anon_mapped %llu but %llu mapped anonymous pages", (unsigned long long)mm->stat.nr_anon_mapped, (unsigned long long)nanon_mapped);
	if (nmlock != mm->stat.nr_mlock) FAIL("nr_mlock %llu but %llu pages", (unsigned long long)mm->stat.nr_mlock, (unsigned long long)nmlock);

	/* Page tables against frames and swap. */
	for (uint32_t a = 0; a < mm->nr_as; a++) {
		struct aspace *as = mm->as[a];
		uint64_t rss = 0, swapents = 0;
		for (uint32_t vi = 0; vi < as->nr_vmas; vi++) {
			struct vma *v = &as->vmas[vi];
			if (v->flags & VMA_DEAD)
				continue;
			for (uint64_t off = 0; off < v->npages; off++) {
				pte_t pte = v->pte[off];
				if (pte_present(pte)) {
					pfn_t pfn = pte_pfn(pte);
					if (pfn >= f->nr) { FAIL("as %u: PTE maps bad pfn %u", a, pfn); continue; }
					struct page *p = &f->pages[pfn];
					if (p->flags & PG_free)
						FAIL("as %u vma %u off %llu maps free pfn %u", a, vi, (unsigned long long)off, pfn);
					if (p->flags & PG_file) {
						if (p->owner != v->ino || p->index != v->pgoff + off)
							FAIL("as %u vma %u off %llu maps pfn %u of another file page", a, vi, (unsigned long long)off, pfn);
						/* vm.dirty_fault: shared PTEs of clean pages are WP too. */
						if (!(pte & PTE_WP) ? !(v->flags & VMA_SHARED) :
						    (v->flags & VMA_SHARED) && !mm->vm.dirty_fault)
							FAIL("as %u vma %u off %llu: file PTE write protection disagrees with MAP_SHARED", a, vi, (unsigned long long)off);
					} else if (p->owner != a + 1 || p->index != ANON_INDEX(vi, off)) {
						FAIL("rmap of pfn %u does not point back to as %u vma %u off %llu", pfn, a, vi, (unsigned long long)off);
					} else if (mm->cache.only && cache_pte(mm, p) != &v->pte[off]) {
						FAIL("pfn %u: cache PTE index %u is not as %u vma %u off %llu", pfn, p->swap, a, vi, (unsigned long long)off);
					} else if (v->ino && (v->flags & VMA_SHARED)) {
						FAIL("as %u vma %u: anonymous page in a shared file mapping", a, vi);
					}
					if (v->flags & VMA_LOCKED)
						locked[pfn] |= 1;
					if (v->flags & VMA_MLOCKING)
						locked[pfn] |= 2; /* mlock() under way: either is fine */
					maps[pfn]++;
					rss++;
				} else if (pte_is_swap(pte)) {
					uint32_t slot = pte_slot(pte);
					if (slot >= mm->swap.nr_slots) { FAIL("as %u: bad swap slot %u", a, slot); continue; }
					swap_walk_ref(&mm->swap, slot);
					swapents++;
				} else if (pte == PTE_EVICTED && mm->cache.only) {
					swapents++; /* a cache's evicted page (cacheonly.c) */
				}
			}
		}
		if (rss != as->rss) FAIL("as %u: rss %llu but %llu PTEs present", a, (unsigned long long)as->rss, (unsigned long long)rss);
		if (swapents != as->swapents) FAIL("as %u: swapents %llu but %llu swap PTEs", a, (unsigned long long)as->swapents, (unsigned long long)swapents);
	}
	for (pfn_t pfn = 0; pfn < f->nr; pfn++) {
		if (f->pages[pfn].flags & PG_free)
			continue;
		if (maps[pfn] != f->pages[pfn].mapcount)
			FAIL("pfn %u: mapcount %d but %d PTEs map it", pfn, f->pages[pfn].mapcount, maps[pfn]);
		if (!(locked[pfn] & 2) && !!locked[pfn] != !!(f->pages[pfn].flags & PG_mlocked))
			FAIL("pfn %u: PG_mlocked=%d but mapped by %s locked VMA", pfn,
			     !!(f->pages[pfn].flags & PG_mlocked), locked[pfn] ? "a" : "no");
	}
	if (!check_files(mm, err))
		ok = false;
	if (!swap_walk_check(mm, err, whole))
		ok = false;
	if (mm->pol.ops && mm->pol.ops->check && !mm->pol.ops->check(mm->pol.priv, err))
		ok = false;
	if (mm->cgt && !cgtree_check(mm, err))
		ok = false;
	/* The data: what each page holds is what was last written to it. */
	if (!integrity_check(mm, err))
		ok = false;
out:
	free(seen);
	free(maps);
	free(locked);
	return ok;
}

bool mm_check(struct mm *mm, FILE *err)
{
	return check_all(mm, err, true);
}

bool mm_check_step(struct mm *mm, FILE *err)
{
	return check_all(mm, err, false);
}
