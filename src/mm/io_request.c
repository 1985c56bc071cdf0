/* io_request.c - what one I/O request costs the CPU that submits it, and
 * which pages make one request.
 *
 * Since 2.5 the block layer's unit is the bio, built over a contiguous
 * run of blocks: Linux 6.x read_pages() hands a readahead window to the
 * filesystem's ->readahead (fs/mpage.c mpage_readahead, ext4's
 * ext4_mpage_readpages), which adds folio after folio to one bio while
 * each one's first block follows the last one's, submits it (submit_bio,
 * block/blk-core.c) when a block is not contiguous or the bio is full
 * (BIO_MAX_VECS, 256 folios) and starts a new one; writeback's
 * ->writepages (mpage_writepages, ext4_bio_write_folio) does the same
 * with the dirty folios it walks.  Per folio the kernel only adds it to
 * the page cache (filemap_add_folio) and later copies it to the user
 * (copy_page_to_iter, charged by the read path).  Swap I/O is one bio
 * per folio (mm/page_io.c swap_writepage_bdev_async,
 * swap_read_folio_bdev_async: bio_alloc(sis->bdev, 1, ...)), as is a
 * folio reclaim's pageout() writes: those submit alone (run NULL).
 *
 * 2.2 and 2.4 (vm.ra_era 22/24) submitted one buffer head per block
 * (ll_rw_block, submit_bh): the elevator merged them on the queue, but
 * the CPU built and queued each, so every page is a request there. */
#include "internal.h"

/* BIO_MAX_VECS (include/linux/bio.h): the folios one bio holds. */
#define IO_RUN_MAX 256

void io_request(struct mm *mm, struct mm_ctx *ctx, struct io_run *run, uint64_t block)
{
	bool joins = run && mm->vm.ra_era >= 26 && run->n && run->n < IO_RUN_MAX &&
		     block == run->next;
	if (!joins) {
		charge(ctx, mm->cost->io_submit_ns);
		mm->nr_io_requests++;
		if (run)
			run->n = 0;
	}
	if (run) {
		run->n++;
		run->next = block + 1;
	}
}
