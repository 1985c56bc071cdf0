/* readahead.c - the readahead window (2.6.23+ on-demand readahead,
 * mm/readahead.c: ondemand_readahead, get_init_ra_size, get_next_ra_size).
 *
 * A read that misses at the start of a file, or right after the previous
 * read (a sequential miss), starts a window sized from the request: small
 * requests get 4x (or 2x) their size rounded to a power of two, capped at
 * the maximum (ra_pages, 32 pages = 128 KB in 2.6).  The window's last
 * async_size pages are read ahead of need; the first of them carries the
 * PG_readahead marker, and reaching it (or the window's expected end)
 * pushes the window forward, quadrupling it while it is below max/16 and
 * doubling it after, up to the maximum.  Any other miss reads just what
 * was asked.  The maximum and, optionally, a fixed initial window are
 * sysctls.  ra_era 22/24 (the 2.2/2.4 policies) use readahead_old.c.
 *
 * Large folios (6.16+, a filesystem that has them: vm.pagecache_folio_order):
 * the window also carries a folio order, ra->order.  A synchronous window
 * (start of file, sequential miss) starts it at 0; each asynchronous one
 * raises it by 2 (page_cache_async_ra), so a stream's first windows come
 * in 4 KiB, 16 KiB, 64 KiB ... folios and only then in the largest
 * (2 MiB on x86-64).  Why it matters to reclaim: those small folios are
 * the oldest file pages, the first that reclaim meets, and reclaiming
 * them takes a call several priorities where a 2 MiB folio is one
 * isolation (docs/fidelity.md, the stream case).
 * posix_fadvise() (6.18 mm/fadvise.c generic_fadvise(), per open file):
 * RANDOM sets FMODE_RANDOM, after which page_cache_sync_ra() reads just
 * the request; SEQUENTIAL doubles the file's ra_pages.
 * Context readahead (ra_era 30: 2.6.31-6.9 try_context_readahead(),
 * 6.10+ page_cache_sync_ra() after Jan Kara's rework, the same rule): a
 * miss that is none of the above looks behind it in the page cache
 * (page_cache_prev_miss(index - 1, max)); more cached pages right
 * before it than it asks for are a stream's trace (one interleaved with
 * another reader, or whose state was lost), so it starts a window there
 * of those pages plus the request (twice them when every page from the
 * file's start is cached), at most the maximum, with async_size 1.  A
 * random read of one page after a lone cached page reads just itself.
 * Simplified: no thrashing detection. */
#include "filemap.h"

static uint64_t roundup_pow2(uint64_t x)
{
	uint64_t r = 1;
	while (r < x)
		r <<= 1;
	return r;
}

static uint64_t init_ra_size(const struct vm_sysctl *vs, uint64_t req, uint64_t max)
{
	if (vs->ra_init_pages)
		return vs->ra_init_pages < max ? vs->ra_init_pages : max;
	uint64_t n = roundup_pow2(req);
	if (n <= max / 32)
		n *= 4;
	else if (n <= max / 4)
		n *= 2;
	else
		n = max;
	return n;
}

/* The pages cached right before index, at most max: index - 1 -
 * page_cache_prev_miss(index - 1, max).  *from_start: all of 0..index-1
 * are (the kernel's scan wraps to ULONG_MAX). */
static uint64_t history_pages(const struct inode *ino, uint64_t index, uint64_t max, bool *from_start)
{
	uint64_t n = 0;
	while (n < max && n < index && pc_page(ino, index - 1 - n) != PFN_NONE)
		n++;
	*from_start = n == index;
	return n;
}

static uint64_t next_ra_size(uint64_t cur, uint64_t max)
{
	uint64_t n = cur < max / 16 ? 4 * cur : 2 * cur;
	return n < max ? n : max;
}

uint64_t ra_window(const struct vm_sysctl *vs, const struct inode *ino, struct file_ra *ra, uint64_t index,
		   uint64_t req, bool hit_marker, uint64_t *start, uint64_t *async_size)
{
	uint64_t max = vs->ra_pages;
	/* generic_fadvise(): POSIX_FADV_SEQUENTIAL sets the file's ra_pages
	 * to twice the device's. */
	if (ra->fadvise == RA_FADV_SEQUENTIAL)
		max *= 2;
	if (!max)
		return 0;
	if (!req)
		req = 1;
	/* POSIX_FADV_RANDOM set FMODE_RANDOM: page_cache_sync_ra() "be dumb",
	 * force_page_cache_ra() of just the request, no window. */
	if (ra->fadvise == RA_FADV_RANDOM && !hit_marker)
		goto random;
	/* The expected callback: sequential, ramp up and push forward. */
	if (ra->size && index &&
	    (index == ra->start + ra->size - ra->async_size || index == ra->start + ra->size)) {
		ra->start += ra->size;
		ra->size = next_ra_size(ra->size, max);
		ra->async_size = ra->size;
		ra->order += 2;
		goto readit;
	}
	if (hit_marker) {
		/* A marker without matching state (another reader's window):
		 * continue from here. */
		ra->start = index + 1;
		ra->size = next_ra_size(req, max);
		ra->async_size = ra->size;
		ra->order += 2;
		goto readit;
	}
	/* Start of file, an oversize read, or a sequential miss. */
	if (!index || req > max || (ra->prev && index + 1 >= ra->prev && index <= ra->prev)) {
		ra->start = index;
		ra->size = init_ra_size(vs, req, max);
		ra->async_size = ra->size > req ? ra->size - req : ra->size;
		ra->order = 0;
		goto readit;
	}
	/* Context readahead: a stream's trace behind the miss. */
	if (ino && vs->ra_era >= 30) {
		bool from_start;
		uint64_t contig = history_pages(ino, index, max, &from_start);
		if (contig > req) {
			contig *= from_start ? 2 : 1;
			ra->start = index;
			ra->size = contig + req < max ? contig + req : max;
			ra->async_size = 1;
			ra->order = 0;
			goto readit;
		}
	}
	/* A random read: just the requested pages. */
random:
	*start = index;
	*async_size = 0;
	return req < max ? req : max;
readit:
	*start = ra->start;
	*async_size = ra->async_size;
	return ra->size;
}

unsigned ra_folio_order(struct file_ra *ra, uint64_t nr, unsigned max_order)
{
	if (nr < 4 || !max_order)
		return 0;
	unsigned order = 63 - (unsigned)__builtin_clzll(nr);
	order = order < max_order ? order : max_order;
	if (ra->order < order)
		order = ra->order;
	ra->order = order;
	return order;
}
