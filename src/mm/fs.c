/* fs.c - inodes and their disk blocks: the minimal file system under the
 * page cache (filemap.c).
 *
 * Block allocation follows ext2/ext3 in spirit: a file grows at the block
 * after its last one when that is free ("goal" allocation), else from the
 * first free run after it, and it reserves a window of FS_PREALLOC blocks
 * beyond what it needs (ext3's default reservation window is 8 blocks) so
 * that files written concurrently stay mostly contiguous. */
#include "filemap.h"
#include "internal.h"
#include "inode_index.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

#define FS_PREALLOC 8
#define BLKDEV_NAME "/dev/sda"
#define RAMFS_PREFIX "/ramfs/"

/* ---- the block allocator ---------------------------------------------- */

static void free_runs_insert(struct fs *fs, uint64_t block, uint64_t len)
{
	uint32_t i = 0;
	while (i < fs->nr_free && fs->free[i].block < block)
		i++;
	fs->blocks_free += len;
	/* Merge with the run before and/or after. */
	bool prev = i > 0 && fs->free[i - 1].block + fs->free[i - 1].len == block;
	bool next = i < fs->nr_free && block + len == fs->free[i].block;
	if (prev && next) {
		fs->free[i - 1].len += len + fs->free[i].len;
		memmove(&fs->free[i], &fs->free[i + 1], (fs->nr_free - i - 1) * sizeof(*fs->free));
		fs->nr_free--;
		return;
	}
	if (prev) {
		fs->free[i - 1].len += len;
		return;
	}
	if (next) {
		fs->free[i].block = block;
		fs->free[i].len += len;
		return;
	}
	if (fs->nr_free == fs->cap_free) {
		fs->cap_free = fs->cap_free ? fs->cap_free * 2 : 16;
		fs->free = xrealloc(fs->free, fs->cap_free * sizeof(*fs->free));
	}
	memmove(&fs->free[i + 1], &fs->free[i], (fs->nr_free - i) * sizeof(*fs->free));
	fs->free[i] = (struct extent){ .block = block, .len = len };
	fs->nr_free++;
}

/* Split free run i at block `at` (inside it) into two runs.  (Not
 * free_runs_insert(): it would merge the halves straight back.) */
static void free_run_split(struct fs *fs, uint32_t i, uint64_t at)
{
	if (fs->nr_free == fs->cap_free) {
		fs->cap_free = fs->cap_free * 2;
		fs->free = xrealloc(fs->free, fs->cap_free * sizeof(*fs->free));
	}
	struct extent *r = &fs->free[i];
	memmove(r + 2, r + 1, (fs->nr_free - i - 1) * sizeof(*r));
	r[1] = (struct extent){ .block = at, .len = r->block + r->len - at };
	r->len = at - r->block;
	fs->nr_free++;
}

/* Take up to `want` contiguous blocks, at `goal` if it is free, else from
 * the first free run after it (wrapping round).  Returns the count. */
static uint64_t blocks_alloc(struct fs *fs, uint64_t goal, uint64_t want, uint64_t *block)
{
	if (!fs->nr_free)
		return 0;
	uint32_t pick = 0;
	bool found = false;
	for (uint32_t i = 0; i < fs->nr_free; i++) {
		struct extent *r = &fs->free[i];
		if (goal >= r->block && goal < r->block + r->len) {
			if (goal > r->block)
				free_run_split(fs, i++, goal);
			pick = i;
			found = true;
			break;
		}
		if (r->block > goal) {
			pick = i;
			found = true;
			break;
		}
	}
	if (!found)
		pick = 0;
	struct extent *r = &fs->free[pick];
	uint64_t got = MIN(want, r->len);
	*block = r->block;
	r->block += got;
	r->len -= got;
	fs->blocks_free -= got;
	if (!r->len) {
		memmove(r, r + 1, (fs->nr_free - pick - 1) * sizeof(*fs->free));
		fs->nr_free--;
	}
	return got;
}

void fs_init(struct mm *mm, uint64_t disk_blocks, uint64_t swap_blocks)
{
	struct fs *fs = xcalloc(1, sizeof(*fs));
	mm->fs = fs;
	fs->start = swap_blocks;
	fs->end = disk_blocks > swap_blocks ? disk_blocks : swap_blocks;
	if (fs->end > fs->start)
		free_runs_insert(fs, fs->start, fs->end - fs->start);
}

static void inode_free_arrays(struct inode *ino)
{
	free(ino->pages);
	free(ino->shadow);
	free(ino->dirtymap);
	ino->dirtymap = NULL;
	free(ino->wbmap);
	ino->wbmap = NULL;
	free(ino->ext);
	free(ino->maps);
	ino->pages = NULL;
	ino->shadow = NULL;
	ino->ext = NULL;
	ino->maps = NULL;
	ino->cap = ino->cap_ext = ino->cap_maps = 0;
	ino->nr_ext = ino->nr_maps = 0;
}

void fs_destroy(struct mm *mm)
{
	struct fs *fs = mm->fs;
	if (!fs)
		return;
	for (uint32_t i = 0; i < fs->nr; i++) {
		inode_free_arrays(fs->inodes[i]);
		free(fs->inodes[i]->name);
		free(fs->inodes[i]);
	}
	free(fs->inodes);
	inode_index_free(fs);
	free(fs->free);
	free(fs);
	mm->fs = NULL;
}

uint64_t filemap_block(const struct inode *ino, uint64_t index)
{
	if (ino->flags & INODE_BLKDEV)
		return index;
	/* Extents are sorted by index: binary search. */
	uint32_t lo = 0, hi = ino->nr_ext;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		const struct extent *e = &ino->ext[mid];
		if (index < e->index)
			hi = mid;
		else if (index >= e->index + e->len)
			lo = mid + 1;
		else
			return e->block + (index - e->index);
	}
	return UINT64_MAX;
}

/* Where ext4_ext_find_goal() would look for the block of page idx: in
 * line with the nearest extent (the one before it, else the one after),
 * so that a file filled in later stays in order on the disk; the start of
 * the file system for a file without blocks. */
static uint64_t block_goal(const struct fs *fs, const struct inode *ino, uint32_t i, uint64_t idx)
{
	if (i > 0) {
		const struct extent *e = &ino->ext[i - 1];
		return e->block + (idx - e->index);
	}
	if (i < ino->nr_ext) {
		const struct extent *e = &ino->ext[i];
		uint64_t back = e->index - idx;
		if (e->block >= fs->start + back)
			return e->block - back;
	}
	return fs->start;
}

/* Record blocks [block, block+len) for pages [idx, idx+len) as ext[i],
 * merged with the extent before and/or after where both run on. */
static void ext_insert(struct inode *ino, uint32_t i, uint64_t idx, uint64_t block, uint64_t len)
{
	struct extent *prev = i > 0 ? &ino->ext[i - 1] : NULL;
	if (prev && prev->index + prev->len == idx && prev->block + prev->len == block) {
		prev->len += len;
		struct extent *next = i < ino->nr_ext ? &ino->ext[i] : NULL;
		if (next && idx + len == next->index && block + len == next->block) {
			prev->len += next->len;
			memmove(next, next + 1, (ino->nr_ext - i - 1) * sizeof(*next));
			ino->nr_ext--;
		}
		return;
	}
	if (i < ino->nr_ext && idx + len == ino->ext[i].index && block + len == ino->ext[i].block) {
		ino->ext[i].index = idx;
		ino->ext[i].block = block;
		ino->ext[i].len += len;
		return;
	}
	if (ino->nr_ext == ino->cap_ext) {
		ino->cap_ext = ino->cap_ext ? ino->cap_ext * 2 : 4;
		ino->ext = xrealloc(ino->ext, ino->cap_ext * sizeof(*ino->ext));
	}
	memmove(&ino->ext[i + 1], &ino->ext[i], (ino->nr_ext - i) * sizeof(*ino->ext));
	ino->ext[i] = (struct extent){ .index = idx, .block = block, .len = len };
	ino->nr_ext++;
}

/* The first extent starting after idx (extents are sorted by index). */
static uint32_t ext_after(const struct inode *ino, uint64_t idx)
{
	uint32_t lo = 0, hi = ino->nr_ext;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (ino->ext[mid].index <= idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Blocks for the pages of [first, end) that have none.  With prealloc, a
 * run past the file's last extent takes at least FS_PREALLOC blocks (the
 * reservation window); a hole before an extent gets exactly its pages. */
static void map_blocks(struct mm *mm, struct inode *ino, uint64_t first, uint64_t end, bool prealloc)
{
	struct fs *fs = mm->fs;
	uint64_t idx = first;
	while (idx < end) {
		uint32_t i = ext_after(ino, idx);
		if (i > 0 && idx < ino->ext[i - 1].index + ino->ext[i - 1].len) {
			idx = ino->ext[i - 1].index + ino->ext[i - 1].len; /* mapped */
			continue;
		}
		uint64_t want = (i < ino->nr_ext ? MIN(end, ino->ext[i].index) : end) - idx;
		if (prealloc && i == ino->nr_ext && want < FS_PREALLOC)
			want = FS_PREALLOC;
		uint64_t block;
		uint64_t got = blocks_alloc(fs, block_goal(fs, ino, i, idx), want, &block);
		if (!got)
			die_usage("file system full: %s needs %llu pages of %llu on the disk",
				  ino->name, (unsigned long long)end,
				  (unsigned long long)(fs->end - fs->start));
		ext_insert(ino, i, idx, block, got);
		ino->nblocks += got;
		idx += got;
	}
}

void inode_add_blocks(struct mm *mm, struct inode *ino, uint64_t first, uint64_t end)
{
	map_blocks(mm, ino, first, end, true);
}

uint64_t inode_fill_hole(struct mm *mm, struct inode *ino, uint64_t index)
{
	map_blocks(mm, ino, index, index + 1, false);
	return filemap_block(ino, index);
}

/* Give back the blocks of pages at and beyond npages (rounded up to keep
 * the preallocation of a file that is only shrinking a little). */
void inode_trim_blocks(struct mm *mm, struct inode *ino, uint64_t npages)
{
	while (ino->nr_ext) {
		struct extent *e = &ino->ext[ino->nr_ext - 1];
		if (e->index >= npages) {
			free_runs_insert(mm->fs, e->block, e->len);
			ino->nblocks -= e->len;
			ino->nr_ext--;
			continue;
		}
		uint64_t keep = npages - e->index;
		if (keep < e->len) {
			free_runs_insert(mm->fs, e->block + keep, e->len - keep);
			ino->nblocks -= e->len - keep;
			e->len = keep;
		}
		break;
	}
}

/* ---- inodes ----------------------------------------------------------- */

static struct inode *inode_new(struct mm *mm, const char *name, uint32_t flags)
{
	struct fs *fs = mm->fs;
	struct inode *ino = xcalloc(1, sizeof(*ino));
	ino->name = xstrdup(name);
	ino->id = fs->nr;
	ino->flags = flags;
	fs->inodes = xrealloc(fs->inodes, (fs->nr + 1) * sizeof(*fs->inodes));
	fs->inodes[fs->nr++] = ino;
	inode_hash_add(fs, ino);
	return ino;
}

struct inode *filemap_lookup(struct mm *mm, const char *name)
{
	struct fs *fs = mm->fs;
	/* Only live inodes are hashed: a name recreated after unlink finds
	 * the new one. */
	struct inode *ino = inode_hash_find(fs, name);
	if (ino)
		return ino;
	if (!strcmp(name, BLKDEV_NAME)) {
		ino = inode_new(mm, name, INODE_BLKDEV);
		ino->size = fs->end;
		return ino;
	}
	return NULL;
}

struct inode *filemap_lookup_blkdev(struct mm *mm)
{
	struct fs *fs = mm->fs;
	for (uint32_t i = 0; i < fs->nr; i++)
		if (fs->inodes[i]->flags & INODE_BLKDEV)
			return fs->inodes[i];
	return NULL;
}

struct inode *filemap_create(struct mm *mm, struct mm_ctx *ctx, const char *name)
{
	struct inode *ino = filemap_lookup(mm, name);
	if (ino) {
		if (!(ino->flags & INODE_BLKDEV))
			filemap_truncate(mm, ctx, ino, 0);
		return ino;
	}
	bool ramfs = !strncmp(name, RAMFS_PREFIX, strlen(RAMFS_PREFIX));
	return inode_new(mm, name, ramfs ? INODE_RAMFS | INODE_UNEVICTABLE : 0);
}

struct inode *filemap_make_uncached(struct mm *mm, const char *name, uint64_t npages)
{
	if (filemap_lookup(mm, name))
		return NULL;
	struct inode *ino = inode_new(mm, name, 0);
	inode_add_blocks(mm, ino, 0, npages);
	ino->size = npages;
	return ino;
}

void filemap_get(struct inode *ino) { ino->nr_open++; }

static void inode_release(struct mm *mm, struct mm_ctx *ctx, struct inode *ino)
{
	filemap_truncate(mm, ctx, ino, 0);
	inode_free_arrays(ino);
	ino->flags |= INODE_DEAD;
	inode_dirty_update(mm->fs, ino);
}

void filemap_put(struct mm *mm, struct mm_ctx *ctx, struct inode *ino)
{
	if (!ino->nr_open)
		panic("inode %s: reference count underflow", ino->name);
	if (--ino->nr_open == 0 && (ino->flags & INODE_UNLINKED))
		inode_release(mm, ctx, ino);
}

void filemap_unlink(struct mm *mm, struct mm_ctx *ctx, struct inode *ino)
{
	if (ino->flags & INODE_BLKDEV)
		return;
	ino->flags |= INODE_UNLINKED;
	inode_hash_del(mm->fs, ino);
	if (!ino->nr_open)
		inode_release(mm, ctx, ino);
}

void filemap_set_unevictable(struct mm *mm, struct inode *ino, bool on)
{
	if (ino->flags & INODE_RAMFS)
		return;
	if (!on && (ino->flags & INODE_UNEVICTABLE)) {
		/* SHM_UNLOCK: scan_mapping_unevictable_pages() rescues them. */
		for (uint64_t i = 0; i < ino->cap; i++) {
			pfn_t pfn = ino->pages[i];
			if (pfn == PFN_NONE || lru_on(&mm->fr, pfn) != mm->list_unevictable)
				continue;
			if (mm_page(mm, pfn)->flags & PG_mlocked)
				continue;
			lru_del(&mm->fr, pfn);
			mm_page(mm, pfn)->flags &= ~PG_unevictable;
			mm->ev[UNEVICTABLE_PGS_RESCUED]++;
			mm->pol.ops->add(mm_pol(mm, pfn), pfn, ADD_PUTBACK);
		}
	}
	if (on)
		ino->flags |= INODE_UNEVICTABLE;
	else
		ino->flags &= ~INODE_UNEVICTABLE;
}

struct inode *page_inode(struct mm *mm, const struct page *p)
{
	if (!(p->flags & PG_file) || !p->owner)
		return NULL;
	return mm->fs->inodes[p->owner - 1];
}
