/* test_context_ra.c - context readahead (ra_era 30: 2.6.31-6.9
 * try_context_readahead(), 6.10+ page_cache_sync_ra()): a miss that is
 * neither at the file's start, oversized, nor sequential looks at the
 * pages cached right before it (page_cache_prev_miss(index - 1, max));
 * more of them than the request asks for start a window of those pages
 * plus the request, at most ra_pages, async_size 1, twice them when the
 * file is cached from page 0.  ra_window() on a 64-page file with
 * ra_pages 32. */
#include "test.h"
#include "../src/mm/filemap.h"

#include <string.h>

struct ctx_file {
	struct inode ino;
	pfn_t pages[64];
};

/* A file with pages [lo, hi) cached (any pfn but PFN_NONE). */
static void ctx_file_init(struct ctx_file *f, uint64_t lo, uint64_t hi)
{
	memset(f, 0, sizeof(*f));
	for (uint64_t i = 0; i < 64; i++)
		f->pages[i] = i >= lo && i < hi ? (pfn_t)(100 + i) : PFN_NONE;
	f->ino.pages = f->pages;
	f->ino.cap = 64;
	f->ino.size = 64;
}

/* A one-page miss at 20 after a random read at 50 (not sequential):
 * with pages 10..19 cached, 10 history pages > 1 asked, so a window at 20
 * of 10 + 1 = 11 pages, async 1; with only page 19 cached, 1 is not more
 * than 1: the one page, and the state left alone; era 26 (2.6.23-2.6.30):
 * the one page whatever is cached. */
void test_context_ra_history_starts_window(void);
void test_context_ra_history_starts_window(void)
{
	struct vm_sysctl vs = { .ra_pages = 32, .ra_era = 30 };
	struct ctx_file f;
	uint64_t start, async;
	ctx_file_init(&f, 10, 20);
	struct file_ra ra = { .prev = 51, .order = 4 };
	CHECK_EQ(ra_window(&vs, &f.ino, &ra, 20, 1, false, &start, &async), 11);
	CHECK_EQ(start, 20);
	CHECK_EQ(async, 1);
	CHECK_EQ(ra.order, 0);
	ctx_file_init(&f, 19, 20);
	ra = (struct file_ra){ .prev = 51 };
	CHECK_EQ(ra_window(&vs, &f.ino, &ra, 20, 1, false, &start, &async), 1);
	CHECK_EQ(start, 20);
	CHECK_EQ(async, 0);
	CHECK_EQ(ra.size, 0);
	ctx_file_init(&f, 10, 20);
	vs.ra_era = 26;
	ra = (struct file_ra){ .prev = 51 };
	CHECK_EQ(ra_window(&vs, &f.ino, &ra, 20, 1, false, &start, &async), 1);
}

/* Cached from page 0: pages 0..9 before a miss at 10 are doubled, 20 + 1
 * = 21; 0..29 before 30 give 60 + 1, capped at 32.  A history longer
 * than ra_pages is counted to ra_pages only: 0..63 cached but page 0
 * missing, a miss at 40 sees 32 pages, not from the start: 32 + 1, at
 * most 32.  POSIX_FADV_RANDOM looks at nothing: one page. */
void test_context_ra_from_start_and_cap(void);
void test_context_ra_from_start_and_cap(void)
{
	struct vm_sysctl vs = { .ra_pages = 32, .ra_era = 30 };
	struct ctx_file f;
	uint64_t start, async;
	ctx_file_init(&f, 0, 10);
	struct file_ra ra = { .prev = 51 };
	CHECK_EQ(ra_window(&vs, &f.ino, &ra, 10, 1, false, &start, &async), 21);
	ctx_file_init(&f, 0, 30);
	ra = (struct file_ra){ .prev = 51 };
	CHECK_EQ(ra_window(&vs, &f.ino, &ra, 30, 1, false, &start, &async), 32);
	ctx_file_init(&f, 1, 40);
	ra = (struct file_ra){ .prev = 51 };
	CHECK_EQ(ra_window(&vs, &f.ino, &ra, 40, 1, false, &start, &async), 32);
	CHECK_EQ(async, 1);
	ra = (struct file_ra){ .prev = 51, .fadvise = RA_FADV_RANDOM };
	CHECK_EQ(ra_window(&vs, &f.ino, &ra, 40, 1, false, &start, &async), 1);
}
