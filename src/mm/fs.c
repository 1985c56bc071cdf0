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
			/* Split the run at the goal. */
			uint64_t before = goal - r->block;
			if (before) {
				uint64_t len = r->len;
				r->len = before;
				fs->blocks_free -= len - before;
				free_runs_insert(fs, goal, len - before);
				pick = i + 1;
			} else {
				pick = i;
			}
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

void inode_add_blocks(struct mm *mm, struct inode *ino, uint64_t npages)
{
	struct fs *fs = mm->fs;
	while (ino->nblocks < npages) {
		uint64_t want = npages - ino->nblocks;
		if (want < FS_PREALLOC)
			want = FS_PREALLOC;
		uint64_t goal = fs->start;
		struct extent *last = ino->nr_ext ? &ino->ext[ino->nr_ext - 1] : NULL;
		if (last)
			goal = last->block + last->len;
		uint64_t block;
		uint64_t got = blocks_alloc(fs, goal, want, &block);
		if (!got)
			die_usage("file system full: %s needs %llu pages of %llu on the disk",
				  ino->name, (unsigned long long)npages,
				  (unsigned long long)(fs->end - fs->start));
		if (last && last->block + last->len == block) {
			last->len += got;
		} else {
			if (ino->nr_ext == ino->cap_ext) {
				ino->cap_ext = ino->cap_ext ? ino->cap_ext * 2 : 4;
				ino->ext = xrealloc(ino->ext, ino->cap_ext * sizeof(*ino->ext));
			}
			ino->ext[ino->nr_ext++] = (struct extent){ .index = ino->nblocks, .block = block, .len = got };
		}
		ino->nblocks += got;
	}
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
	inode_add_blocks(mm, ino, npages);
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
			mm->pol.ops->add(mm->pol.priv, pfn, ADD_PUTBACK);
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
