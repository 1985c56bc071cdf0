/* filemap.c - the page cache and the read() and write() paths (the
 * kernel's mm/filemap.c) over the inodes and blocks of fs.c.
 *
 * Admission (a policy's admit(), cache_ext's admit_folio): every page
 * that enters the page cache, by a read or a write, is offered to the
 * policy, as cache_ext's tree (github.com/tzussman/linux) runs admission
 * in cache_ext_folio_add_lru(), which filemap_add_folio() calls for
 * every insertion: readahead's and filemap_create_folio()'s, and
 * __filemap_get_folio(FGP_CREAT)'s for a write.  A page not admitted is
 * PG_dropbehind.  The read() that copies it drops it, as 6.16
 * filemap_read() calls filemap_end_dropbehind_read() for each folio it
 * copied: not dirty, not under writeback, the flag cleared,
 * folio_unmap_invalidate() (mm/truncate.c) unmaps and removes it with no
 * shadow entry.  A written page is dirty: it goes when its writeback
 * ends (filemap_end_dropbehind_write()).
 *
 * RWF_DONTCACHE writes (6.14+, filemap_write()'s dontcache): a page the
 * write creates is PG_dropbehind from the start (__filemap_get_folio()
 * with FGP_DONTCACHE), one a plain write finds loses the flag ("not an
 * uncached lookup, clear uncached if set"), and the write kicks the
 * writeback of its range (generic_write_sync(): 6.14
 * filemap_fdatawrite_range_kick(), filemap_flush_range() later;
 * filemap_writeback_range() in writeback.c).
 *
 * RWF_DONTCACHE reads (6.14+; as 6.18 has them): filemap_get_pages()
 * sets ractl.dropbehind for IOCB_DONTCACHE (so page_cache_sync_ra() and,
 * through filemap_readahead(), page_cache_async_ra() allocate every folio
 * PG_dropbehind in ractl_alloc_folio()), as filemap_create_folio() does
 * for the one folio it reads without readahead.  filemap_read() then calls
 * filemap_end_dropbehind_read() for each folio of the batch it copied,
 * whatever the read's own flags: a PG_dropbehind folio that is not under
 * writeback, not dirty and can be locked goes, through
 * filemap_end_dropbehind() and folio_unmap_invalidate() (mm/truncate.c:
 * unmapped if mapped, __filemap_remove_folio(folio, NULL): no shadow
 * entry, so reading it again is no workingset refault).  Pages the read
 * finds cached are left as they are; pages read ahead past the read stay
 * PG_dropbehind until a read (uncached or not) copies them. */
#include "filemap.h"
#include "internal.h"
#include "inode_index.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

/* ---- the page cache --------------------------------------------------- */

static void pc_grow(struct mm *mm, struct inode *ino, uint64_t index)
{
	if (index < ino->cap)
		return;
	uint64_t ncap = ino->cap ? ino->cap : 64;
	while (ncap <= index)
		ncap *= 2;
	ino->pages = xrealloc(ino->pages, ncap * sizeof(pfn_t));
	ino->dirtymap = xrealloc(ino->dirtymap, ncap / 64 * sizeof(uint64_t));
	memset(ino->dirtymap + ino->cap / 64, 0, (ncap - ino->cap) / 64 * sizeof(uint64_t));
	ino->wbmap = xrealloc(ino->wbmap, ncap / 64 * sizeof(uint64_t));
	memset(ino->wbmap + ino->cap / 64, 0, (ncap - ino->cap) / 64 * sizeof(uint64_t));
	for (uint64_t i = ino->cap; i < ncap; i++)
		ino->pages[i] = PFN_NONE;
	if (ino->shadow || mm->pol.ops->evict_shadow) {
		ino->shadow = xrealloc(ino->shadow, ncap * sizeof(uint64_t));
		memset(ino->shadow + ino->cap, 0, (ncap - ino->cap) * sizeof(uint64_t));
	}
	ino->cap = ncap;
}

#define pc_lookup pc_page

void set_page_dirty(struct mm *mm, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	if (p->flags & PG_dirty)
		return;
	struct inode *ino = page_inode(mm, p);
	if (ino && (ino->flags & INODE_RAMFS))
		return; /* no backing store: nothing to write */
	p->flags |= PG_dirty;
	if (!ino)
		return;
	/* __folio_mark_dirty(): whoever dirties it (mm->cur) pays */
	mm_work(mm, W_FOLIO_MARK_DIRTY, 1);
	mm->stat.nr_dirty++;
	ino->nrdirty_wb += !!(p->flags & PG_writeback);
	ino->dirtymap[p->index / 64] |= 1ULL << (p->index % 64);
	if (ino->nrdirty++ == 0)
		ino->dirtied_when = ctx_now(mm->cur);
	inode_dirty_update(mm->fs, ino);
}

void clear_page_dirty(struct mm *mm, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	if (!(p->flags & PG_dirty))
		return;
	p->flags &= ~PG_dirty;
	struct inode *ino = page_inode(mm, p);
	if (!ino)
		return;
	mm->stat.nr_dirty--;
	ino->nrdirty_wb -= !!(p->flags & PG_writeback);
	ino->dirtymap[p->index / 64] &= ~(1ULL << (p->index % 64));
	ino->nrdirty--;
	inode_dirty_update(mm->fs, ino);
}

/* Insert a new frame at index; a shadow in the slot makes it a refault,
 * unless refault is false: then the frame just replaces the shadow (a
 * write from 4.7 on, vm.write_refault=0: filemap_add_folio() calls
 * workingset_refault() only without __GFP_WRITE).  The policy's admit()
 * is asked first (cache_ext_folio_add_lru()). */
static pfn_t pagecache_add(struct mm *mm, struct inode *ino, uint64_t index, pfn_t pfn, uint32_t flags,
			   bool refault)
{
	pc_grow(mm, ino, index);
	struct page *p = mm_page(mm, pfn);
	p->flags = PG_file | flags;
	p->folio_order = 0;
	p->owner = ino->id + 1;
	p->index = index;
	ino->pages[index] = pfn;
	ino->nrpages++;
	mm->stat.nr_file++;
	if (mm->pol.ops->admit && !mm->pol.ops->admit(mm_pol(mm, pfn), pfn))
		p->flags |= PG_dropbehind;
	uint64_t shadow = ino->shadow ? ino->shadow[index] : 0;
	if (shadow) {
		ino->shadow[index] = 0;
		ino->nrshadows--;
	}
	if (shadow && refault) {
		if (mm->cgt)
			cgtree_count(mm, p->memcg, CGS_REFAULT_FILE, 1);
		mm_refault(mm, pfn, shadow);
		mm->pol.ops->add(mm_pol(mm, pfn), pfn, ADD_REFAULT);
	} else {
		mm->pol.ops->add(mm_pol(mm, pfn), pfn, ADD_PAGECACHE);
	}
	return pfn;
}

void pagecache_delete(struct mm *mm, pfn_t pfn, bool shadow)
{
	struct page *p = mm_page(mm, pfn);
	struct inode *ino = page_inode(mm, p);
	if (!ino)
		return;
	if (p->flags & PG_dirty)
		panic("pfn %u: dirty page removed from the page cache of %s", pfn, ino->name);
	ino->pages[p->index] = PFN_NONE;
	ino->nrpages--;
	if (p->flags & PG_writeback) {
		ino->nr_writeback--; /* the orphan's write no longer counts for fsync */
		inode_clear_wb(ino, p->index);
	}
	mm->stat.nr_file--;
	if (shadow && mm->pol.ops->evict_shadow && ino->shadow) {
		uint64_t s = mm_evict_shadow(mm, pfn);
		if (s) {
			ino->shadow[p->index] = s;
			ino->nrshadows++;
		}
	}
	p->owner = 0;
}

/* Read pfn's block (its cost charged by the caller: io_request()). */
static void submit_read(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	uint64_t block = filemap_block(ino, p->index);
	mm->stat.nr_reading++;
	mm->ev[PGPGIN] += PAGE_SIZE / 1024;
	if (mm->integrity)
		integrity_file_read(mm, pfn);
	if (mm->untimed)
		mm_io_done(mm, IO_READ, pfn);
	else
		mm->io.submit_block(mm->io.arg, IO_READ, block, pfn, ctx_now(ctx));
}

/* A page evicted by a textbook policy and still being written: found again
 * before the write completed, it goes back to the policy. */
void filemap_rescue(struct mm *mm, pfn_t pfn)
{
	struct page *p = mm_page(mm, pfn);
	if (lru_on(&mm->fr, pfn) != mm->list_wb_free)
		return;
	lru_del(&mm->fr, pfn);
	p->flags &= ~PG_reclaim;
	mm->stat.nr_pending_free--;
	mm->pol.ops->add(mm_pol(mm, pfn), pfn, ADD_PUTBACK);
}

/* page_cache_ra_order(): a folio is naturally aligned, so an unaligned
 * index takes the order its alignment allows, and none reaches past the
 * window. */
unsigned filemap_ra_folio_order(uint64_t index, uint64_t end, unsigned order)
{
	if (index & ((1ULL << order) - 1))
		order = (unsigned)__builtin_ctzll(index);
	while (order && index + (1ULL << order) > end)
		order--;
	return order;
}

/* The largest folio order of a readahead window of nr pages (at most
 * the filesystem's, vm.pagecache_folio_order): the reader's ramp
 * (ra_folio_order, readahead.c).  A read without readahead state reads
 * its one page: order 0. */
static unsigned ra_window_order(const struct mm *mm, struct file_ra *ra, uint64_t nr)
{
	return ra ? ra_folio_order(ra, nr, (unsigned)mm->vm.pagecache_folio_order) : 0;
}

/* The order of the folio readahead allocates at idx.  6.x
 * page_cache_ra_order() stops at the first folio it cannot add because a
 * page of its range is cached already (-EEXIST) and reads the rest of
 * the window as order-0 folios (do_page_cache_ra(), the fallback):
 * *fallback, once set, makes every later folio order 0. */
static unsigned ra_next_order(const struct inode *ino, uint64_t idx, uint64_t end, unsigned order,
			      bool *fallback)
{
	unsigned o = *fallback ? 0 : filemap_ra_folio_order(idx, end, order);
	for (uint64_t i = idx + 1; o && i < idx + (1ULL << o); i++) {
		if (pc_lookup(ino, i) != PFN_NONE) {
			*fallback = true;
			o = 0;
		}
	}
	return o;
}

/* __do_page_cache_readahead(): bring pages [start, start+nr) of ino into
 * the cache, reading the missing ones (ascending, so that they merge into
 * few disk requests); the page at start+nr-async gets PG_readahead.  The
 * page at `target` (if inside) must come in: its allocation may reclaim and
 * its failure is returned; the others are given up when memory is short
 * (with no target, UINT64_MAX, the failure that cut the window short is
 * returned).
 * Each new page records the order of the folio it falls in (filemap_ra_folio_order,
 * up to `order`): the policy may reclaim the folio as one. */
static enum fault_status do_readahead(struct mm *mm, struct mm_ctx *ctx, struct inode *ino,
				      uint64_t start, uint64_t nr, uint64_t async, uint64_t target,
				      unsigned order, uint32_t pgflags)
{
	enum fault_status st = FAULT_DONE, cut = FAULT_DONE;
	uint64_t end = start + nr;
	if (end > ino->size)
		end = ino->size;
	bool give_up = false;
	struct io_run run = { 0 };
	uint64_t folio_end = start;
	unsigned folio_order = 0;
	bool fallback = false;
	for (uint64_t idx = start; idx < end; idx++) {
		if (idx == folio_end) {
			folio_order = ra_next_order(ino, idx, end, order, &fallback);
			folio_end = idx + (1ULL << folio_order);
		}
		if (pc_lookup(ino, idx) != PFN_NONE) {
			fallback = true;
			continue;
		}
		if (give_up && idx != target)
			continue;
		enum fault_status ast;
		pfn_t pfn = mm_alloc_page(mm, ctx, &ast);
		if (pfn == PFN_NONE) {
			if (idx == target)
				st = ast;
			else if (!give_up)
				cut = ast;
			give_up = true;
			continue;
		}
		/* Reclaim may have filled... no: reclaim only removes; but the
		 * slot may now hold a page another path added meanwhile. */
		if (pc_lookup(ino, idx) != PFN_NONE) {
			free_frame(mm, pfn);
			continue;
		}
		bool hole = (ino->flags & INODE_RAMFS) || filemap_block(ino, idx) == UINT64_MAX;
		uint32_t fl = (hole ? 0 : PG_locked) | pgflags;
		if (async && idx == end - async && end == start + nr)
			fl |= PG_readahead;
		pagecache_add(mm, ino, idx, pfn, fl, true);
		mm_page(mm, pfn)->folio_order = (uint8_t)folio_order;
		if (hole) {
			charge(ctx, mm->cost->zero_page_ns);
			mm_work(mm, W_CLEAR_BYTES, PAGE_SIZE);
		}
		else {
			/* read_pages(): the window's reads, one request per
			 * contiguous run of blocks (io_request.c); an untimed
			 * target is read last but is part of its run. */
			io_request(mm, ctx, &run, filemap_block(ino, idx));
			if (!(mm->untimed && idx == target))
				submit_read(mm, ctx, ino, pfn);
		}
	}
	/* Untimed reads complete at once: the target's waits for the end, so
	 * that the readahead allocations cannot reclaim it meanwhile. */
	pfn_t tp = target < ino->size ? pc_lookup(ino, target) : PFN_NONE;
	if (mm->untimed && tp != PFN_NONE && (mm_page(mm, tp)->flags & PG_locked))
		submit_read(mm, ctx, ino, tp);
	return target == UINT64_MAX ? cut : st;
}

enum fault_status filemap_ra_submit(struct mm *mm, struct mm_ctx *ctx, struct inode *ino,
				    struct file_ra *ra, uint64_t start, uint64_t nr, uint64_t async,
				    uint64_t target)
{
	return do_readahead(mm, ctx, ino, start, nr, async, target, ra_window_order(mm, ra, nr), 0);
}

enum fault_status filemap_readaround(struct mm *mm, struct mm_ctx *ctx, struct inode *ino,
				     struct file_ra *ra, uint64_t start, uint64_t nr, uint64_t async,
				     uint64_t target)
{
	enum fault_status st = filemap_ra_submit(mm, ctx, ino, ra, start, nr, async, target);
	if (pc_lookup(ino, target) == PFN_NONE && st == FAULT_DONE)
		st = do_readahead(mm, ctx, ino, target, 1, 0, target, 0, 0);
	return st;
}

static void mark_accessed(struct mm *mm, pfn_t pfn, bool write)
{
	if (mm->pol.ops->mark_accessed)
		mm->pol.ops->mark_accessed(mm_pol(mm, pfn), pfn);
	else if (mm->access_hook)
		mm->pol.ops->access(mm_pol(mm, pfn), pfn, write);
}

/* Find or read the page at index for a read; PFN_NONE with *st set if the
 * caller must block or fail.  fl: flags for the pages it reads in
 * (PG_dropbehind for an uncached read: ractl.dropbehind). */
static pfn_t read_page(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, struct file_ra *ra,
		       uint64_t index, uint64_t req, uint32_t fl, enum fault_status *st)
{
	pfn_t pfn = pc_lookup(ino, index);
	if (pfn == PFN_NONE) {
		/* page_cache_sync_readahead() */
		uint64_t start = index, async = 0;
		uint64_t nr = ra ? ra_window(&mm->vm, ino, ra, index, req, false, &start, &async) : 0;
		if (!nr || index < start || index >= start + nr) {
			start = index;
			nr = 1;
			async = 0;
		}
		*st = do_readahead(mm, ctx, ino, start, nr, async, index, ra_window_order(mm, ra, nr), fl);
		pfn = pc_lookup(ino, index);
		if (pfn == PFN_NONE && *st == FAULT_DONE) {
			/* Readahead's own allocations reclaimed the target
			 * (untimed reads complete at once): just the one page. */
			*st = do_readahead(mm, ctx, ino, index, 1, 0, index, 0, fl);
			pfn = pc_lookup(ino, index);
			if (pfn == PFN_NONE && *st == FAULT_DONE)
				*st = FAULT_WAIT_RECLAIM;
		}
		if (pfn == PFN_NONE)
			return PFN_NONE;
	} else if (mm_page(mm, pfn)->flags & PG_readahead) {
		/* page_cache_async_readahead(): the marker was reached. */
		mm_page(mm, pfn)->flags &= ~PG_readahead;
		uint64_t start, async;
		uint64_t nr = ra ? ra_window(&mm->vm, ino, ra, index, req, true, &start, &async) : 0;
		if (nr)
			do_readahead(mm, ctx, ino, start, nr, async, UINT64_MAX, ra_window_order(mm, ra, nr), fl);
	}
	struct page *p = mm_page(mm, pfn);
	if (p->flags & PG_locked) {
		ctx->wait_pfn = pfn;
		*st = FAULT_WAIT_PAGE;
		return PFN_NONE;
	}
	filemap_rescue(mm, pfn);
	return pfn;
}

/* drop_behind() (2.4.0 mm/filemap.c, Rik van Riel 2000): when a sequential
 * reader's read-ahead advances, the pages of the window behind it go to the
 * inactive list - "harmless since we don't actually evict the pages from
 * memory".  From index - 1 back to index - rawin, stopping at the first page
 * not in the cache.  Only designs with a deactivate hook (riel24) take it. */
static void drop_behind(struct mm *mm, struct inode *ino, const struct file_ra *ra, uint64_t index)
{
	if (!mm->vm.drop_behind || !mm->pol.ops->deactivate)
		return;
	uint64_t start = index > ra->rawin ? index - ra->rawin : 0;
	while (index-- > start) {
		pfn_t pfn = pc_lookup(ino, index);
		if (pfn == PFN_NONE)
			break;
		mm->pol.ops->deactivate(mm_pol(mm, pfn), pfn);
	}
}

/* 2.2 / 2.4 do_generic_file_read() for one page: found in the cache or
 * read now (a miss), generic_file_readahead() runs for it once per read()
 * call - with the page locked for a miss or a page still being read.  A
 * call resumed after blocking on the page does not run it again (the
 * kernel slept inside the call). */
static pfn_t read_page_old(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, struct file_ra *ra,
			   uint64_t index, uint32_t fl, enum fault_status *st)
{
	pfn_t pfn = pc_lookup(ino, index);
	bool first = ra->seen != index + 1;
	ra->seen = index + 1;
	if (pfn == PFN_NONE) {
		uint64_t start = index + 1, nr = 0;
		if (first) {
			ra_old_miss(&mm->vm, ra);
			nr = ra_old_readahead(&mm->vm, ra, index, true, ino->size, &start);
			if (nr)
				drop_behind(mm, ino, ra, index);
		}
		/* readpage() then the block after it: one ascending run (a
		 * locked page's block always starts right after it). */
		bool joined = nr && start == index + 1;
		*st = do_readahead(mm, ctx, ino, index, joined ? 1 + nr : 1, 0, index, 0, fl);
		if (nr && !joined)
			do_readahead(mm, ctx, ino, start, nr, 0, UINT64_MAX, 0, fl);
		pfn = pc_lookup(ino, index);
		if (pfn == PFN_NONE) {
			if (*st == FAULT_DONE)
				*st = FAULT_WAIT_RECLAIM;
			return PFN_NONE;
		}
	} else if (first) {
		uint64_t start;
		bool locked = mm_page(mm, pfn)->flags & PG_locked;
		uint64_t nr = ra_old_readahead(&mm->vm, ra, index, locked, ino->size, &start);
		if (nr) {
			do_readahead(mm, ctx, ino, start, nr, 0, UINT64_MAX, 0, fl);
			drop_behind(mm, ino, ra, index);
		}
	}
	struct page *p = mm_page(mm, pfn);
	if (p->flags & PG_locked) {
		ctx->wait_pfn = pfn;
		*st = FAULT_WAIT_PAGE;
		return PFN_NONE;
	}
	filemap_rescue(mm, pfn);
	return pfn;
}

static void truncate_page(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, pfn_t pfn);

/* The pages of pfn's folio still in the cache: the same file, order and
 * naturally aligned block (readahead records each page's folio order). */
static bool same_folio(const struct page *f, const struct page *p)
{
	return p->owner == f->owner && p->folio_order == f->folio_order &&
	       p->index >> f->folio_order == f->index >> f->folio_order;
}

/* filemap_end_dropbehind_read(): a PG_dropbehind page goes once a read
 * copied it, unless it was dirtied or is being written (then it stays,
 * flag and all, as in the kernel).  Also the end of a dropbehind page's
 * writeback (ctx NULL), filemap_end_dropbehind(): the same tests and
 * folio_unmap_invalidate().  Both act on the folio: a large one goes
 * whole (every page of it, whichever the read copied), or not at all
 * while any page of it is dirty, under writeback or locked (the folio's
 * flags and folio_trylock()). */
static void end_dropbehind_read(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, pfn_t pfn)
{
	struct page *f = mm_page(mm, pfn);
	if (!(f->flags & PG_dropbehind))
		return;
	uint64_t base = f->index >> f->folio_order << f->folio_order;
	uint64_t end = base + (1ULL << f->folio_order);
	for (uint64_t i = base; i < end; i++) {
		pfn_t q = pc_lookup(ino, i);
		if (q != PFN_NONE && same_folio(f, mm_page(mm, q)) &&
		    (mm_page(mm, q)->flags & (PG_dirty | PG_writeback | PG_locked)))
			return;
	}
	struct page key = *f;
	struct mm_ctx *saved = mm->cur;
	mm->cur = ctx;
	for (uint64_t i = base; i < end; i++) {
		pfn_t q = pc_lookup(ino, i);
		if (q == PFN_NONE || !same_folio(&key, mm_page(mm, q)))
			continue;
		mm_page(mm, q)->flags &= ~PG_dropbehind;
		truncate_page(mm, ctx, ino, q);
	}
	mm->cur = saved;
}

/* A read() call stopped (done, or to block or yield before `next`; a
 * resumed call goes on from there): the folio it copied last goes now,
 * unless the call will go on copying it (next in the same folio: the
 * kernel copies a read's batch before it drops any of it). */
static void drop_held(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, pfn_t held, uint64_t next)
{
	if (held == PFN_NONE)
		return;
	const struct page *h = mm_page(mm, held);
	if (next != UINT64_MAX && next >> h->folio_order == h->index >> h->folio_order)
		return;
	end_dropbehind_read(mm, ctx, ino, held);
}

uint64_t filemap_read(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, struct file_ra *ra,
		      uint64_t first, uint64_t n, uint64_t budget_ns, enum fault_status *st)
{
	return filemap_read_rwf(mm, ctx, ino, ra, first, n, false, budget_ns, st);
}

/* preadv2(RWF_DONTCACHE), 6.14+ (6.18 filemap_get_pages() sets
 * ractl.dropbehind for IOCB_DONTCACHE, filemap_readahead() likewise, and
 * filemap_create_folio() calls __folio_set_dropbehind(): every page the
 * read brings in is PG_dropbehind).  A page found cached keeps its flag
 * or its absence: the lookup (filemap_get_read_batch()) leaves it alone,
 * so an uncached read of a cached page is a plain one for that page.
 * folio_mark_accessed() returns at once for a dropbehind page (mm/swap.c,
 * 6.14+): it is neither referenced nor activated before it goes. */
uint64_t filemap_read_rwf(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, struct file_ra *ra,
			  uint64_t first, uint64_t n, bool dontcache, uint64_t budget_ns,
			  enum fault_status *st)
{
	*st = FAULT_DONE;
	uint32_t fl = dontcache ? PG_dropbehind : 0;
	bool old = ra && mm->vm.ra_era < 26;
	if (old && !ra->in_call) {
		ra_old_read_start(&mm->vm, ra, first, n);
		ra->in_call = true;
	}
	uint64_t i;
	/* The page copied last: its folio is dropped (if PG_dropbehind) once
	 * the read has left it, as filemap_read() ends a batch it copied. */
	pfn_t held = PFN_NONE;
	for (i = 0; i < n; i++) {
		if (ctx->user_ns + ctx->sys_ns >= budget_ns || ctx->high_sleep)
			break;
		uint64_t index = first + i;
		if (index >= ino->size) {
			i = n; /* end of file: the rest of the read returns nothing */
			break;
		}
		pfn_t pfn = old ? read_page_old(mm, ctx, ino, ra, index, fl, st)
				: read_page(mm, ctx, ino, ra, index, n - i, fl, st);
		if (pfn == PFN_NONE)
			break;
		if (held != PFN_NONE && !same_folio(mm_page(mm, held), mm_page(mm, pfn)))
			end_dropbehind_read(mm, ctx, ino, held);
		held = pfn;
		mm_copy_user_page(mm, ctx); /* copy_page_to_iter() */
		if (!(mm_page(mm, pfn)->flags & PG_dropbehind))
			mark_accessed(mm, pfn, false);
		if (ra)
			ra->prev = index + 1;
	}
	drop_held(mm, ctx, ino, held, i == n ? UINT64_MAX : first + i);
	if (old && i == n)
		ra->in_call = false;
	return i;
}

void filemap_extend_write(struct mm *mm, struct inode *ino, uint64_t first, uint64_t end)
{
	if (end <= ino->size || (ino->flags & INODE_BLKDEV))
		return;
	if (!(ino->flags & INODE_RAMFS))
		inode_add_blocks(mm, ino, first > ino->size ? first : ino->size, end);
	ino->size = end;
}

void filemap_extend(struct mm *mm, struct inode *ino, uint64_t npages)
{
	filemap_extend_write(mm, ino, ino->size, npages);
}

uint64_t filemap_write(struct mm *mm, struct mm_ctx *ctx, struct inode *ino,
		       uint64_t first, uint64_t n, uint64_t budget_ns, enum fault_status *st)
{
	return filemap_write_rwf(mm, ctx, ino, first, n, false, budget_ns, st);
}

uint64_t filemap_write_rwf(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, uint64_t first, uint64_t n,
			   bool dontcache, uint64_t budget_ns, enum fault_status *st)
{
	*st = FAULT_DONE;
	if (ino->flags & INODE_BLKDEV) {
		if (first >= ino->size)
			return n;
		if (first + n > ino->size)
			n = ino->size - first;
	} else {
		filemap_extend_write(mm, ino, first, first + n);
	}
	struct mm_ctx *saved = mm->cur;
	mm->cur = ctx;
	uint64_t i;
	for (i = 0; i < n; i++) {
		if (ctx->user_ns + ctx->sys_ns >= budget_ns || ctx->high_sleep)
			break;
		uint64_t index = first + i;
		pfn_t pfn = pc_lookup(ino, index);
		if (pfn == PFN_NONE) {
			/* A whole-page write needs no read of the old data. */
			pfn = mm_alloc_page(mm, ctx, st);
			if (pfn == PFN_NONE)
				break;
			if (pc_lookup(ino, index) != PFN_NONE) {
				free_frame(mm, pfn);
				i--;
				continue;
			}
			pagecache_add(mm, ino, index, pfn, dontcache ? PG_dropbehind : 0, mm->vm.write_refault);
			mm_work(mm, W_WRITE_BEGIN, 1); /* __filemap_get_folio(FGP_CREAT) */
		} else if (!dontcache) {
			mm_page(mm, pfn)->flags &= ~PG_dropbehind;
		}
		struct page *p = mm_page(mm, pfn);
		if (p->flags & PG_locked) {
			ctx->wait_pfn = pfn;
			*st = FAULT_WAIT_PAGE;
			break;
		}
		filemap_rescue(mm, pfn);
		mm_copy_user_page(mm, ctx); /* copy_page_from_iter_atomic() */
		mm_work(mm, W_PERFORM_WRITE, 1);
		uint64_t was = mm->stat.nr_dirty;
		set_page_dirty(mm, pfn);
		p->flags |= PG_private; /* ext4_block_write_begin(): create_empty_buffers() */
		mm->stat.nr_dirtied += mm->stat.nr_dirty - was; /* for 2.4's per-page balance_dirty() */
		if (mm->integrity)
			integrity_write(mm, pfn);
		if (mm->vm.write_mark_accessed)
			mark_accessed(mm, pfn, true);
	}
	mm->cur = saved;
	return i;
}

/* Unmap, un-dirty and remove one page of a file being truncated (or
 * dropped behind a read: folio_unmap_invalidate()). */
static void truncate_page(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, pfn_t pfn)
{
	(void)ino;
	struct page *p = mm_page(mm, pfn);
	if (p->mapcount > 0)
		file_page_unmap(mm, pfn);
	charge(ctx, mm->cost->free_page_ns);
	clear_page_dirty(mm, pfn); /* cancel_dirty_page(): the data is gone */
	if (p->flags & PG_mlocked) {
		p->flags &= ~PG_mlocked;
		mm->stat.nr_mlock--;
	}
	pagecache_delete(mm, pfn, false);
	/* Under I/O, the page stays (owner 0) until the I/O completes. */
	free_if_orphan(mm, pfn);
}

/* folio_end_writeback() -> 6.17 folio_end_dropbehind() (6.14-6.16
 * filemap_end_dropbehind_write()) -> filemap_end_dropbehind(): a
 * PG_dropbehind page whose writeback ended goes, unless it was dirtied
 * again (then it stays, flag and all, for the next writeback's end).
 * In the I/O completion: no task's time. */
void filemap_end_dropbehind_write(struct mm *mm, pfn_t pfn)
{
	struct inode *ino = page_inode(mm, mm_page(mm, pfn));
	if (ino)
		end_dropbehind_read(mm, NULL, ino, pfn);
}

void filemap_truncate(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, uint64_t npages)
{
	if (ino->flags & INODE_BLKDEV)
		return;
	struct mm_ctx *saved = mm->cur;
	mm->cur = ctx;
	for (uint64_t i = npages; i < ino->cap; i++) {
		pfn_t pfn = ino->pages[i];
		if (pfn != PFN_NONE)
			truncate_page(mm, ctx, ino, pfn);
		/* Shadows never outlive the data they describe. */
		if (ino->shadow && ino->shadow[i]) {
			ino->shadow[i] = 0;
			ino->nrshadows--;
		}
	}
	mm->cur = saved;
	if (mm->integrity)
		integrity_truncate(mm, ino, npages);
	if (npages < ino->size) {
		ino->size = npages;
		if (!(ino->flags & INODE_RAMFS))
			inode_trim_blocks(mm, ino, npages);
	} else {
		/* Growing by truncate makes a hole: no blocks until written. */
		ino->size = npages;
	}
	if (ino->ra.start >= npages)
		ino->ra = (struct file_ra){ 0 };
}

void filemap_invalidate_range(struct mm *mm, struct mm_ctx *ctx, struct inode *ino,
			      uint64_t first, uint64_t n)
{
	for (uint64_t i = first; i < first + n && i < ino->cap; i++) {
		pfn_t pfn = ino->pages[i];
		if (pfn == PFN_NONE)
			continue;
		struct page *p = mm_page(mm, pfn);
		/* invalidate_inode_pages2_range(): mapped or busy pages stay. */
		if (p->mapcount > 0 || (p->flags & (PG_locked | PG_writeback)))
			continue;
		truncate_page(mm, ctx, ino, pfn);
	}
}
