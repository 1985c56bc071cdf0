/* test_fadvise_ra.c - what posix_fadvise() leaves on an open file's
 * readahead (6.18 mm/fadvise.c generic_fadvise(), mm/readahead.c
 * page_cache_sync_ra()): POSIX_FADV_RANDOM sets FMODE_RANDOM, so a miss
 * reads just the pages asked for, even at the start of a file, where the
 * on-demand window would start; POSIX_FADV_SEQUENTIAL doubles the file's
 * ra_pages.  ra_window() with ra_pages 32 (128 KB). */
#include "test.h"
#include "../src/mm/filemap.h"

/* A 4 KiB read at page 0: normally a window of 4 pages (1 rounded to a
 * power of two, x4 as 1 <= 32/32), 3 of them ahead; with FMODE_RANDOM
 * the one page; then at page 1 (a sequential miss) still the one page. */
void test_fadvise_random_reads_the_request(void);
void test_fadvise_random_reads_the_request(void)
{
	struct vm_sysctl vs = { .ra_pages = 32 };
	struct file_ra ra = { 0 };
	uint64_t start, async;
	CHECK_EQ(ra_window(&vs, NULL, &ra, 0, 1, false, &start, &async), 4);
	CHECK_EQ(async, 3);
	ra = (struct file_ra){ .fadvise = RA_FADV_RANDOM };
	CHECK_EQ(ra_window(&vs, NULL, &ra, 0, 1, false, &start, &async), 1);
	CHECK_EQ(start, 0);
	CHECK_EQ(async, 0);
	ra.prev = 1;
	CHECK_EQ(ra_window(&vs, NULL, &ra, 1, 1, false, &start, &async), 1);
	CHECK_EQ(start, 1);
	CHECK_EQ(ra.size, 0);
}

/* A 160 KB read (40 pages) at page 0: over the 32-page maximum, a window
 * of 32; with POSIX_FADV_SEQUENTIAL the maximum is 64, and 40 rounds up
 * to 64 (over 64/4, so the maximum). */
void test_fadvise_sequential_doubles_window(void);
void test_fadvise_sequential_doubles_window(void)
{
	struct vm_sysctl vs = { .ra_pages = 32 };
	struct file_ra ra = { 0 };
	uint64_t start, async;
	CHECK_EQ(ra_window(&vs, NULL, &ra, 0, 40, false, &start, &async), 32);
	ra = (struct file_ra){ .fadvise = RA_FADV_SEQUENTIAL };
	CHECK_EQ(ra_window(&vs, NULL, &ra, 0, 40, false, &start, &async), 64);
	CHECK_EQ(async, 24);
}
