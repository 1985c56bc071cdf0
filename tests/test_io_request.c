/* test_io_request.c - cost.io_submit is charged per request, not per page
 * (src/mm/io_request.c): a contiguous run of blocks submitted together is
 * one bio up to BIO_MAX_VECS (256) folios (6.x read_pages ->
 * mpage_readahead, ->writepages), a swap folio or a folio pageout()
 * writes is a bio of its own, and 2.2/2.4 (vm.ra_era 22/24) queue a
 * buffer head per block.  Exact ns on hand-checked cases; cost.io_submit
 * 10^6 ns and cost.copy_page 1 ns so each shows apart in the sum. */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/mm/filemap.h"
#include "../src/policy/policy.h"

#include <string.h>

void test_io_request_runs(void);
void test_io_request_readahead_windows(void);
void test_io_request_writeback_runs(void);

#define SUBMIT 1000000ULL

/* Blocks 10-13 then 20, 21: two requests; 300 contiguous blocks: 256 and
 * 44; NULL runs: one each; in 2.4 (ra_era 24) every block is one. */
void test_io_request_runs(void)
{
	static struct mm mm;
	struct mm_costs cost = { .io_submit_ns = SUBMIT };
	mm.cost = &cost;
	mm.vm.ra_era = 30;
	struct mm_ctx ctx = { .task = -1 };
	struct io_run run = { 0 };
	const uint64_t blocks[] = { 10, 11, 12, 13, 20, 21 };
	for (int i = 0; i < 6; i++)
		io_request(&mm, &ctx, &run, blocks[i]);
	CHECK_EQ(mm.nr_io_requests, 2);
	CHECK_EQ(ctx.sys_ns, 2 * SUBMIT);
	run = (struct io_run){ 0 };
	for (uint64_t b = 1000; b < 1300; b++)
		io_request(&mm, &ctx, &run, b);
	CHECK_EQ(mm.nr_io_requests, 4);
	io_request(&mm, &ctx, NULL, 1300);
	io_request(&mm, &ctx, NULL, 1301);
	CHECK_EQ(mm.nr_io_requests, 6);
	CHECK_EQ(ctx.sys_ns, 6 * SUBMIT);
	mm.vm.ra_era = 24;
	run = (struct io_run){ 0 };
	for (uint64_t b = 0; b < 5; b++)
		io_request(&mm, &ctx, &run, b);
	CHECK_EQ(mm.nr_io_requests, 11);
	CHECK_EQ(ctx.sys_ns, 11 * SUBMIT);
}

static void small_mm(struct mm *mm, struct mm_costs *cost)
{
	memset(cost, 0, sizeof(*cost));
	cost->io_submit_ns = SUBMIT;
	cost->copy_page_ns = 1;
	struct mm_config cfg = { .ram_pages = 4096, .swap_pages = 256, .no_watermarks = true, .untimed = true };
	mm_init(mm, &cfg, cost);
	mm_set_policy(mm, policy_find("linux6"), NULL);
	mm->vm.ra_pages = 2048;
}

/* dd's 1 MB reads (256 pages) of a 2048-page file with an 8 MB window
 * (test_ra_folio_ramp): the windows are 0-511, 512-1535 and 1536-2047
 * (2048 cut at the end of the file), read as runs of 256 folios at most:
 * 2 + 4 + 2 = 8 requests, and 2048 pages copied to the user - 8 x
 * io_submit + 2048 x copy_page, where a request per page made 2048 x
 * io_submit. */
void test_io_request_readahead_windows(void)
{
	static struct mm mm;
	struct mm_costs cost;
	small_mm(&mm, &cost);
	struct mm_ctx ctx = { .task = -1, .wait_pfn = PFN_NONE };
	struct inode *ino = filemap_create(&mm, &ctx, "f");
	filemap_extend(&mm, ino, 2048);
	struct file_ra ra = { 0 };
	for (uint64_t i = 0; i < 2048; i += 256) {
		enum fault_status st;
		CHECK_EQ(filemap_read(&mm, &ctx, ino, &ra, i, 256, UINT64_MAX, &st), 256);
		CHECK_EQ(st, FAULT_DONE);
	}
	CHECK_EQ(mm.ev[PGPGIN], 2048 * 4);
	CHECK_EQ(mm.nr_io_requests, 8);
	CHECK_EQ(ctx.sys_ns, 8 * SUBMIT + 2048 * cost.copy_page_ns);
	mm_destroy(&mm);
}

/* Pages 0-31 and 40-63 of a 64-page file written, then written back:
 * ->writepages builds one bio per contiguous run, so 2 requests for 56
 * pages (the write's copies, 56 x copy_page, charged before). */
void test_io_request_writeback_runs(void)
{
	static struct mm mm;
	struct mm_costs cost;
	small_mm(&mm, &cost);
	struct mm_ctx ctx = { .task = -1, .wait_pfn = PFN_NONE };
	struct inode *ino = filemap_create(&mm, &ctx, "f");
	filemap_extend(&mm, ino, 64);
	enum fault_status st;
	CHECK_EQ(filemap_write(&mm, &ctx, ino, 0, 32, UINT64_MAX, &st), 32);
	CHECK_EQ(filemap_write(&mm, &ctx, ino, 40, 24, UINT64_MAX, &st), 24);
	uint64_t before = ctx.sys_ns;
	CHECK_EQ(filemap_writeback(&mm, &ctx, ino, 0), 56);
	CHECK_EQ(mm.ev[PGPGOUT], 56 * 4);
	CHECK_EQ(mm.nr_io_requests, 2);
	CHECK_EQ(ctx.sys_ns - before, 2 * SUBMIT);
	mm_destroy(&mm);
}
