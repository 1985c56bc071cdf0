/* readahead_old.c - file readahead before 2.6: the read-ahead context kept
 * in struct file (f_raend, f_ramax, f_ralen, f_rawin) until 2.4
 * (generic_file_readahead() and do_generic_file_read() in mm/filemap.c of
 * 2.2.1, 2.4.0, 2.4.16 and 2.4.17, which agree on it up to the details noted
 * below), and filemap_nopage()'s read of a whole aligned cluster on a fault.
 *
 * The context, in pages here (2.2 keeps bytes, always page multiples on
 * these paths; 2.4 keeps pages):
 *   raend  first page after the last one read ahead (f_raend)
 *   ralen  pages of the current read-ahead block (f_ralen)
 *   rawin  pages of the current window: the last block, plus the one
 *          before it when the last was asynchronous (f_rawin)
 *   ramax  the next read-ahead size (f_ramax): at least what the read()
 *          asked for, at least min_readahead for a sequential reader,
 *          doubled after every read-ahead, capped at ra_pages.
 * A read() that starts outside the window resets the context: no minimum
 * then, but the size of the request itself is still read ahead of the first
 * page it misses (2.2: the bytes the read crosses into later pages; 2.4: one
 * more page than that).  A page read synchronously (locked: just submitted,
 * or still in flight) outside the last block starts a new block of ramax
 * pages after it; a page found up to date inside the last block (index +
 * ralen reaches raend) reads the next ramax + 1 pages asynchronously, so
 * that I/O overlaps the reader's copying.  For a one-page-at-a-time reader
 * ramax goes 3, 6, 12, 24, then ra_pages: blocks of 3 after the first page,
 * then 7, 13, 25, ra_pages + 1 (2.4: 32, 2.2: 19).
 *
 * Differences between the eras kept here (ra_era 22 vs 24):
 *  - needed: 2.2 ((pos + count) & PAGE_MASK) - pgpos bytes = the pages the
 *    read crosses into (n for n whole pages); 2.4 ((offset + count) >>
 *    PAGE_CACHE_SHIFT) + 1 (n + 1).
 *  - the synchronous test: 2.2 "ppos + f_ralen < raend", 2.4 "index +
 *    f_rawin < raend".
 *  - 2.2 cuts ramax back to MIN_READAHEAD when a reader inside the window
 *    misses a page (do_generic_file_read, no_cached_page).
 *  - 2.4 stops the read-ahead loop at the end of the file (end_index) and
 *    counts the stopping step; 2.2's try_to_read_ahead() skips offsets past
 *    i_size but counts them all.
 *  - limits: 2.2.1 include/linux/blkdev.h MAX_READAHEAD = 18 pages
 *    ("large readahead", 72 KB; the IDE driver's max_readahead[] is set to
 *    it in ide-probe.c), MIN_READAHEAD = 3 pages; 2.4.0 blkdev.h
 *    MAX_READAHEAD 31 / MIN_READAHEAD 3 ("read-ahead in pages"), 2.4.10+
 *    the sysctls vm_max_readahead = 31 / vm_min_readahead = 3
 *    (/proc/sys/vm/max-readahead, min-readahead).  Here ra_pages and
 *    min_readahead, set by ra_set_era() and overridable with --set vm.*.
 * Faults (filemap_nopage, 2.2.1 and 2.4): a miss reads the aligned cluster
 * of 1 << page_cluster pages holding the page (read_cluster_nonblocking;
 * 2.2 try_to_read_ahead over the cluster), never past the end of the file;
 * page_cluster is swap_setup()'s: 2 below 16 MB, 3 below 32 MB, else 4.
 *
 * 2.4.0's drop_behind() is in filemap.c (it needs the page cache).
 * Not modelled: 2.4.16's cap of
 * the fault cluster at the end of the mapping, madvise hints (VM_SEQ_READ's
 * nopage_sequential_readahead, VM_RAND_READ: no workload issues madvise),
 * the first-half-page rule (a read within the first half page of a file
 * sets ramax to 0: pagelab's reads are whole pages), 2.2/2.4.0 block_read()
 * of raw devices (read_ahead[] in sectors): /dev/sda goes through this
 * page-cache path as in 2.4.10+. */
#include "filemap.h"
#include "../lib/util.h"

/* 2.2.1 include/linux/blkdev.h, large readahead: PageAlignSize(4096*18)
 * and PageAlignSize(4096*3) bytes. */
#define MAX_READAHEAD_22 18
#define MIN_READAHEAD_22 3
/* 2.4.0 include/linux/blkdev.h (pages); 2.4.16 mm/filemap.c vm_max_readahead
 * and vm_min_readahead have the same values. */
#define MAX_READAHEAD_24 31
#define MIN_READAHEAD_24 3

static bool era22(const struct vm_sysctl *vs) { return vs->ra_era < 24; }

void ra_set_era(struct mm *mm, int era)
{
	struct vm_sysctl *vs = &mm->vm;
	vs->ra_era = (uint64_t)era;
	if (era >= 26)
		return;
	vs->ra_pages = era < 24 ? MAX_READAHEAD_22 : MAX_READAHEAD_24;
	vs->min_readahead = era < 24 ? MIN_READAHEAD_22 : MIN_READAHEAD_24;
	/* swap_setup() (2.2.1 and 2.4 mm/swap.c): smaller clusters on small
	 * machines, where 64 KB of read-around is a large share of memory. */
	uint64_t mb = (uint64_t)mm->fr.nr * PAGE_SIZE >> 20;
	vs->page_cluster = mb < 16 ? 2 : mb < 32 ? 3 : 4;
}

void ra_old_read_start(const struct vm_sysctl *vs, struct file_ra *ra, uint64_t index, uint64_t nr)
{
	ra->seen = 0;
	/* Outside the previous window: not sequential, forget the context. */
	if (index > ra->raend || index + ra->rawin < ra->raend) {
		ra->reada_ok = false;
		ra->raend = ra->ralen = ra->ramax = ra->rawin = 0;
	} else {
		ra->reada_ok = true;
	}
	/* "Try to increase read ahead max just enough to do the read
	 * request", then at least the minimum for a sequential reader. */
	uint64_t needed = era22(vs) ? nr : nr + 1;
	if (ra->ramax < needed)
		ra->ramax = needed;
	if (ra->reada_ok && ra->ramax < vs->min_readahead)
		ra->ramax = vs->min_readahead;
	if (ra->ramax > vs->ra_pages)
		ra->ramax = vs->ra_pages;
}

void ra_old_miss(const struct vm_sysctl *vs, struct file_ra *ra)
{
	/* 2.2: a sequential reader missing a page means its read-ahead was
	 * evicted before use (or the page rewritten): read ahead less. */
	if (era22(vs) && ra->reada_ok && ra->ramax > vs->min_readahead)
		ra->ramax = vs->min_readahead;
}

uint64_t ra_old_readahead(const struct vm_sysctl *vs, struct file_ra *ra, uint64_t index, bool locked,
			  uint64_t size, uint64_t *start)
{
	uint64_t raend = ra->raend, max_ahead = 0;
	*start = index + 1;
	if (locked) {
		/* Read synchronously: unless the page is inside the last
		 * read-ahead block, start a new block after it. */
		uint64_t span = era22(vs) ? ra->ralen : ra->rawin;
		if (!ra->ralen || index >= ra->raend || index + span < ra->raend) {
			raend = index;
			if (raend < size)
				max_ahead = ra->ramax;
			ra->rawin = 0;
			ra->ralen = 1;
			if (!max_ahead) {
				ra->raend = index + ra->ralen;
				ra->rawin += ra->ralen;
			}
		}
	} else if (ra->reada_ok && ra->ramax && raend >= 1 && index <= raend &&
		   index + ra->ralen >= raend) {
		/* Up to date and inside the last block: read the next block
		 * asynchronously, one page more than ramax so that its I/O is
		 * as large as a synchronous read-ahead with its page. */
		raend--;
		if (raend < size)
			max_ahead = ra->ramax + 1;
		if (max_ahead) {
			ra->rawin = ra->ralen;
			ra->ralen = 0;
		}
	}
	uint64_t ahead = 0;
	while (ahead < max_ahead) {
		ahead++;
		if (!era22(vs) && raend + ahead >= size)
			break; /* 2.4: end_index */
	}
	if (!ahead)
		return 0;
	ra->ralen += ahead;
	ra->rawin += ra->ralen;
	ra->raend = raend + ahead + 1;
	/* "Double the current max read ahead size": files read
	 * sequentially for long get large I/O, others do not. */
	ra->ramax += ra->ramax;
	if (ra->ramax > vs->ra_pages)
		ra->ramax = vs->ra_pages;
	*start = raend + 1;
	if (*start >= size)
		return 0;
	return (raend + ahead < size ? raend + ahead + 1 : size) - *start;
}

uint64_t ra_old_cluster(const struct vm_sysctl *vs, uint64_t index, uint64_t *start)
{
	uint64_t n = 1ULL << vs->page_cluster;
	*start = index / n * n;
	return n;
}
