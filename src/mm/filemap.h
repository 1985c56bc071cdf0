/* filemap.h - files, the page cache, file mappings, readahead and
 * writeback: the file-backed half of the mm core.
 *
 * Files are machine-wide inodes identified by name; each has a size in
 * pages, a page cache (index -> frame, or a shadow entry left by eviction),
 * the disk blocks holding its data (extents, allocated contiguously where
 * possible so that a sequential read is sequential on the disk), and the
 * list of VMAs mapping it (the i_mmap rmap).  Page-cache pages carry
 * PG_file, page->owner = inode id + 1 and page->index = file page index; a
 * page removed from the cache while its I/O is in flight (truncate) keeps
 * PG_file with owner 0 and is freed when the I/O completes.
 *
 * "/dev/sda" is the raw disk as a block-device file: block i is page i, its
 * page cache is vmstat's "buff".  Files named "/ramfs/..." live in RAM only
 * (no blocks, never written, unevictable), as do SHM_LOCKed files
 * (filemap_set_unevictable).
 *
 * Disk layout: the swap area is blocks [0, swap slots) (swap slot N = block
 * N, the first partition); the file system holds the rest of the disk.
 */
#ifndef PAGELAB_FILEMAP_H
#define PAGELAB_FILEMAP_H

#include "mm.h"

#define INODE_BLKDEV      (1u << 0)  /* the raw disk: block = index */
#define INODE_UNEVICTABLE (1u << 1)  /* ramfs or SHM_LOCK: reclaim refuses its pages */
#define INODE_RAMFS       (1u << 2)  /* no backing store: never written */
#define INODE_UNLINKED    (1u << 3)  /* name removed; freed at the last close/munmap */
#define INODE_DEAD        (1u << 4)  /* freed: id kept so stale ids are caught */

/* What posix_fadvise() last set on an open file (generic_fadvise):
 * FMODE_RANDOM, or its ra_pages at twice the device's. */
enum ra_fadvise { RA_FADV_NORMAL, RA_FADV_RANDOM, RA_FADV_SEQUENTIAL };

/* Readahead state of one open file (the kernel's struct file_ra_state;
 * for ra_era 22/24 the f_ra* fields of 2.2/2.4's struct file, in pages). */
struct file_ra {
	uint64_t start, size, async_size;  /* current window */
	uint64_t prev;                     /* last index read + 1 (0 = none yet) */
	unsigned order;                    /* 6.16+ ra->order: folio order of the window */
	uint8_t fadvise;                   /* enum ra_fadvise (mm/fadvise.c) */
	/* 2.2/2.4 (readahead_old.c) */
	uint64_t raend;     /* f_raend: first page after the last one read ahead */
	uint64_t ralen;     /* f_ralen: pages of the current read-ahead block */
	uint64_t rawin;     /* f_rawin: pages of the current read-ahead window */
	uint64_t ramax;     /* f_ramax: current maximum read-ahead */
	uint64_t seen;      /* page index + 1 generic_file_readahead ran for in this read() */
	bool reada_ok;      /* this read() continues the previous window */
	bool in_call;       /* a read() is under way (resumed after blocking) */
};

struct extent { uint64_t index, block, len; };
struct file_map { uint32_t as, vma; };

struct inode {
	char *name;
	uint32_t id;
	uint32_t flags;
	uint32_t nr_open;        /* open fds + mappings */
	uint64_t size;           /* pages */
	pfn_t *pages;            /* page cache: pages[index] or PFN_NONE, `cap` slots */
	uint64_t *shadow;        /* shadow entries (policies with evict_shadow) */
	uint64_t cap;
	uint64_t nrpages, nrshadows, nrdirty;
	uint64_t nrdirty_wb;     /* of those dirty, under writeback too: writeback
				  * skips them, and the inode when all are */
	uint64_t nr_writeback;   /* its pages under writeback (fsync waits for 0) */
	uint64_t *dirtymap;      /* bit per index: PG_dirty (the radix tree's
				  * dirty tag: writeback finds dirty pages fast) */
	uint64_t *wbmap;         /* bit per index: PG_writeback (the writeback
				  * tag: a page redirtied while being written is
				  * skipped without touching its struct page) */
	struct extent *ext;      /* sorted by index; a page in none is a hole */
	uint32_t nr_ext, cap_ext;
	uint64_t nblocks;        /* pages with a disk block (preallocated ones
				  * past the end too) */
	struct file_map *maps;   /* i_mmap: the VMAs mapping this file */
	uint32_t nr_maps, cap_maps;
	uint64_t dirtied_when;   /* time the first of its dirty pages was dirtied */
	uint64_t wb_index;       /* where cyclic writeback resumes (writeback_index) */
	struct file_ra ra;       /* for faults on mappings (the vma's file) */
	/* inode_index.c: the name hash and the ordered dirty list */
	struct inode *hash_next, *dirty_prev, *dirty_next;
	uint64_t dirty_key;      /* dirtied_when when it was placed on the list */
	uint64_t wb_epoch;       /* the last walk that visited it */
	bool hashed, on_dirty;
};

struct inode_walk;

struct fs {
	struct inode **inodes;
	uint32_t nr;
	uint64_t start, end;     /* blocks of the file system */
	struct extent *free;     /* free block runs (index unused), sorted */
	uint32_t nr_free, cap_free;
	uint64_t blocks_free;
	/* inode_index.c */
	struct inode **buckets;
	uint32_t nr_buckets, nr_hashed;
	struct inode *dirty_first, *dirty_last;
	struct inode_walk *walk; /* the walk under way, or NULL */
	uint64_t walk_epoch;
};

static inline void inode_set_wb(struct inode *ino, uint64_t index)
{
	ino->wbmap[index / 64] |= 1ULL << (index % 64);
}
static inline void inode_clear_wb(struct inode *ino, uint64_t index)
{
	ino->wbmap[index / 64] &= ~(1ULL << (index % 64));
}

/* Set up the file system on a disk of `disk_blocks` after `swap_blocks`. */
void fs_init(struct mm *mm, uint64_t disk_blocks, uint64_t swap_blocks);
void fs_destroy(struct mm *mm);

/* Inodes by name.  lookup returns NULL if absent (or unlinked). */
struct inode *filemap_lookup(struct mm *mm, const char *name);
/* The raw disk's inode if anything opened it, else NULL. */
struct inode *filemap_lookup_blkdev(struct mm *mm);
/* A file there before the run: `npages` written and evicted long ago, on
 * the disk and none in the page cache (run --make-inputs); NULL if the
 * name exists already. */
struct inode *filemap_make_uncached(struct mm *mm, const char *name, uint64_t npages);
/* creat(): an existing file is truncated to 0. */
struct inode *filemap_create(struct mm *mm, struct mm_ctx *ctx, const char *name);
static inline struct inode *mm_inode(struct mm *mm, uint32_t id) { return mm->fs->inodes[id]; }
/* An open/close or map/unmap reference; the last put of an unlinked inode frees it. */
void filemap_get(struct inode *ino);
void filemap_put(struct mm *mm, struct mm_ctx *ctx, struct inode *ino);
void filemap_unlink(struct mm *mm, struct mm_ctx *ctx, struct inode *ino);
/* truncate(): drop pages and shadows at and beyond npages; free their blocks. */
void filemap_truncate(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, uint64_t npages);
/* SHM_LOCK / SHM_UNLOCK: pages of an unevictable file are refused by reclaim. */
void filemap_set_unevictable(struct mm *mm, struct inode *ino, bool on);
/* Give disk blocks to the pages of [first, end) that have none (a write;
 * at the end of the file, preallocating).  A hole - pages never written,
 * left by a write past the end or a truncate that grew the file - has no
 * blocks and reads as zeroes; inode_fill_hole() gives one page of it its
 * block when it is first written back, and returns the block. */
void inode_add_blocks(struct mm *mm, struct inode *ino, uint64_t first, uint64_t end);
uint64_t inode_fill_hole(struct mm *mm, struct inode *ino, uint64_t index);
/* Give back the blocks of pages at and beyond npages (truncate). */
void inode_trim_blocks(struct mm *mm, struct inode *ino, uint64_t npages);
/* Disk block of page `index`, or UINT64_MAX (a hole: reads as zeroes). */
uint64_t filemap_block(const struct inode *ino, uint64_t index);

/* read()/write() of pages [first, first+n) through the page cache, until
 * done, the budget is used up, or the task must block (*st set: WAIT_PAGE
 * for a page being read, WAIT_RECLAIM for memory or dirty throttling, OOM).
 * Returns the pages completed.  Charges a copy per page (cost.copy_user); the caller charges
 * the syscall itself (cost.syscall_ns). */
uint64_t filemap_read(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, struct file_ra *ra,
		      uint64_t first, uint64_t n, uint64_t budget_ns, enum fault_status *st);
uint64_t filemap_write(struct mm *mm, struct mm_ctx *ctx, struct inode *ino,
		       uint64_t first, uint64_t n, uint64_t budget_ns, enum fault_status *st);
/* preadv2()'s: dontcache, an RWF_DONTCACHE read (the pages it reads in,
 * readahead's too, are PG_dropbehind: dropped once a read copied them). */
uint64_t filemap_read_rwf(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, struct file_ra *ra,
			  uint64_t first, uint64_t n, bool dontcache, uint64_t budget_ns,
			  enum fault_status *st);
/* pwritev2()'s: dontcache, an RWF_DONTCACHE write (the pages it creates
 * PG_dropbehind; the caller kicks their writeback with
 * filemap_writeback_range()). */
uint64_t filemap_write_rwf(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, uint64_t first, uint64_t n,
			   bool dontcache, uint64_t budget_ns, enum fault_status *st);
/* Start the writeback of the dirty pages of [first, first+n) not under
 * writeback already (filemap_fdatawrite_range_kick(), WB_SYNC_NONE). */
void filemap_writeback_range(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, uint64_t first, uint64_t n);
/* A page's writeback ended: drop it if it is PG_dropbehind and clean. */
void filemap_end_dropbehind_write(struct mm *mm, pfn_t pfn);
/* A write of pages [first, end): the file grows to end, with blocks for
 * the pages from max(first, its old end); those between its old end and
 * first stay a hole (a sparse file: lseek past the end, then write).
 * filemap_extend(): the same for a write from the old end to npages. */
void filemap_extend_write(struct mm *mm, struct inode *ino, uint64_t first, uint64_t end);
void filemap_extend(struct mm *mm, struct inode *ino, uint64_t npages);
/* O_DIRECT: drop the cached copies of [first, first+n) a direct write replaces. */
void filemap_invalidate_range(struct mm *mm, struct mm_ctx *ctx, struct inode *ino,
			      uint64_t first, uint64_t n);

/* Map pages [pgoff, pgoff+npages) of a file; returns the vma index. */
uint32_t mm_mmap_file(struct mm *mm, struct aspace *as, struct inode *ino, uint64_t pgoff,
		      uint64_t npages, bool shared);

/* Writeback.  Start writing up to `max` dirty pages of ino (all if 0),
 * first moving dirty PTE bits of shared mappings to the pages; returns
 * pages submitted.  fsync() = filemap_fsync() until it returns true. */
uint64_t filemap_writeback(struct mm *mm, struct mm_ctx *ctx, struct inode *ino, uint64_t max);
bool filemap_fsync(struct mm *mm, struct mm_ctx *ctx, struct inode *ino);
/* The flusher of the era vm.flusher selects (flusher_era.c).  Role 0 is
 * the thread writers wake (kflushd, bdflush, pdflush, flush-8:0); role 1
 * the periodic one of 2.2 and 2.4 (update, kupdate, kupdated).  In 2.6
 * role 0 is periodic as well and there is no role 1. */
enum flush_next {
	FLUSH_SLEEP,      /* sleep: the period, or until woken */
	FLUSH_CONGESTED,  /* work left, the disk queue is full: congestion_wait() */
	FLUSH_AGAIN,      /* work left: loop at once (bdflush skips its sleep) */
};
/* The thread's name (ps), or NULL if the era has no thread in that role. */
const char *mm_flusher_thread(const struct mm *mm, int role);
/* Its sleep between runs in ns; 0 = until a writer wakes it. */
uint64_t mm_flusher_period_ns(const struct mm *mm, int role);
/* One run of the thread in `role` at ctx's time. */
enum flush_next mm_flusher_run(struct mm *mm, struct mm_ctx *ctx, int role);
/* A writer's page allocation failed and it will wait for memory: 2.2's
 * refill_freelist() wakes kflushd (wakeup_bdflush(1)). */
void mm_flusher_writer_stalled(struct mm *mm);
/* get_dirty_limits(): background and throttle thresholds, in pages. */
void mm_dirty_limits(const struct mm *mm, uint64_t *background, uint64_t *throttle);
/* The node's dirtyable memory (free + file pages, + anon before 3.14). */
uint64_t mm_dirtyable(const struct mm *mm);
/* The cgroup's own dirty limits (memcg_dirty.c); false where it has none
 * (no --memcg, cgroup v1, not vm.cgroup_writeback). */
bool mm_memcg_dirty_limits(const struct mm *mm, uint64_t *background, uint64_t *throttle);
/* wb_over_bg_thresh(): dirty pages above either domain's background limit. */
bool mm_over_bg_thresh(const struct mm *mm);
/* After a write(): the era's balance_dirty() / balance_dirty_pages().  A
 * writer may wake the flusher and write some dirty pages itself; returns
 * true if it must then wait (for a write to complete, or congestion_wait). */
bool mm_balance_dirty_pages(struct mm *mm, struct mm_ctx *ctx);

/* Readahead (2.6 ondemand_readahead, ra_era 26): decide the window for a
 * read of req pages at index; returns pages to read starting at *start (0 =
 * just the page itself) and sets *async_size (the PG_readahead marker sits
 * at start + size - async_size). hit_marker: the read found PG_readahead.
 * ino: the file's page cache, for ra_era 30's context readahead (NULL:
 * none). */
uint64_t ra_window(const struct vm_sysctl *vs, const struct inode *ino, struct file_ra *ra, uint64_t index,
		   uint64_t req, bool hit_marker, uint64_t *start, uint64_t *async_size);
/* The folio order for a window of nr pages that ra_window() just gave
 * (6.16+ page_cache_ra_order: ra->order, at most max_order and
 * ilog2(nr), none under 4 pages); the clamped order is kept in ra. */
unsigned ra_folio_order(struct file_ra *ra, uint64_t nr, unsigned max_order);

/* 2.2 / 2.4 readahead (readahead_old.c), page units; ra_era < 26 selects it.
 * ra_old_read_start(): do_generic_file_read()'s entry for a read() of nr
 * pages at index.  ra_old_miss(): 2.2's cut of f_ramax on a cache miss.
 * ra_old_readahead(): generic_file_readahead() for the page at index
 * (locked: being read), returns the pages to read ahead from *start, within
 * a file of `size` pages.  ra_old_cluster(): filemap_nopage()'s aligned
 * cluster around a fault at index. */
void ra_old_read_start(const struct vm_sysctl *vs, struct file_ra *ra, uint64_t index, uint64_t nr);
void ra_old_miss(const struct vm_sysctl *vs, struct file_ra *ra);
uint64_t ra_old_readahead(const struct vm_sysctl *vs, struct file_ra *ra, uint64_t index, bool locked,
			  uint64_t size, uint64_t *start);
uint64_t ra_old_cluster(const struct vm_sysctl *vs, uint64_t index, uint64_t *start);
/* A policy's init(): the readahead sysctls of its era (22 or 24: see
 * readahead_old.c for the values and their sources; 30: 3.0+ mmap fault
 * readahead, filemap_mmap_ra.c, with 2.6's sysctls). */
void ra_set_era(struct mm *mm, int era);

/* Internal to the mm core (reclaim.c, aspace.c, check.c). */
static inline pfn_t pc_page(const struct inode *ino, uint64_t index)
{
	return index < ino->cap ? ino->pages[index] : PFN_NONE;
}
/* Read the missing pages of [start, start+nr) (ascending), the page at
 * start + nr - async (if read now) marked PG_readahead; target (if inside;
 * UINT64_MAX: none) must come in: its allocation may reclaim and its
 * failure is returned.  ra (or NULL: order 0) gives the folio order
 * (ra_folio_order).  filemap_readaround() also reads target alone if the
 * window's own allocations reclaimed it. */
enum fault_status filemap_ra_submit(struct mm *mm, struct mm_ctx *ctx, struct inode *ino,
				    struct file_ra *ra, uint64_t start, uint64_t nr, uint64_t async,
				    uint64_t target);
enum fault_status filemap_readaround(struct mm *mm, struct mm_ctx *ctx, struct inode *ino,
				     struct file_ra *ra, uint64_t start, uint64_t nr, uint64_t async,
				     uint64_t target);
/* A fault on a file mapping (filemap_mmap_ra.c, the era's readahead):
 * mmap_sync_readahead() for a miss at index (the page must come in);
 * mmap_async_readahead() for a hit on pfn at index, not on a fault's
 * retry: FAULT_DONE, or FAULT_WAIT_RECLAIM when the fault must wait for
 * reclaim and come again (its window could not be charged yet). */
enum fault_status mmap_sync_readahead(struct mm *mm, struct mm_ctx *ctx, struct inode *ino,
				      uint64_t index);
enum fault_status mmap_async_readahead(struct mm *mm, struct mm_ctx *ctx, struct inode *ino,
				       pfn_t pfn, uint64_t index);
/* The order (up to `order`) of the page-cache folio readahead allocates
 * at index in a window ending at end (exclusive, EOF applied). */
unsigned filemap_ra_folio_order(uint64_t index, uint64_t end, unsigned order);
/* A page found again while a textbook policy's eviction writes it. */
void filemap_rescue(struct mm *mm, pfn_t pfn);
struct inode *page_inode(struct mm *mm, const struct page *p);
void clear_page_dirty(struct mm *mm, pfn_t pfn);
/* Remove a clean, unmapped page from its file's page cache, leaving a
 * shadow entry when asked. */
void pagecache_delete(struct mm *mm, pfn_t pfn, bool shadow);
/* rmap over the file's mappings. */
int file_page_referenced(struct mm *mm, pfn_t pfn, bool clear);
/* The same, ORing the flags of each VMA with a young PTE into *vm_flags. */
int file_page_referenced_vmflags(struct mm *mm, pfn_t pfn, bool clear, uint32_t *vm_flags);
void file_page_unmap(struct mm *mm, pfn_t pfn);
/* vm.dirty_fault: folio_mkclean() of a page being written back - every
 * shared PTE mapping it clean and write-protected again. */
void file_page_mkclean(struct mm *mm, pfn_t pfn);
bool file_page_mlocked(struct mm *mm, pfn_t pfn);
void file_vma_unlink(struct mm *mm, struct aspace *as, uint32_t vma);
/* Fault on a file vma at (vma, off). */
enum fault_status fault_file(struct mm *mm, struct mm_ctx *ctx, struct aspace *as,
			     uint32_t vma, uint64_t off, bool write);

#endif
