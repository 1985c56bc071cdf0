/* inode_index.c - the name hash and the ordered dirty list of the inodes
 * (inode_index.h).  The name hash is chained, its buckets doubled when
 * they average more than one inode; the dirty list is doubly linked and
 * kept sorted by (dirtied_when, id): an inode is inserted walking back from
 * the tail, which is O(1) when it was dirtied last, the common case (the
 * CPUs' clocks are not quite in step, so it is not always the tail). */
#include "inode_index.h"
#include "../lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- by name ------------------------------------------------------------- */

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static void hash_grow(struct fs *fs)
{
	uint32_t nb = fs->nr_buckets ? fs->nr_buckets * 2 : 256;
	struct inode **b = xcalloc(nb, sizeof(*b));
	for (uint32_t i = 0; i < fs->nr_buckets; i++) {
		struct inode *ino = fs->buckets[i];
		while (ino) {
			struct inode *next = ino->hash_next;
			uint32_t k = (uint32_t)(name_hash(ino->name) & (nb - 1));
			ino->hash_next = b[k];
			b[k] = ino;
			ino = next;
		}
	}
	free(fs->buckets);
	fs->buckets = b;
	fs->nr_buckets = nb;
}

struct inode *inode_hash_find(struct fs *fs, const char *name)
{
	if (!fs->nr_buckets)
		return NULL;
	struct inode *ino = fs->buckets[name_hash(name) & (fs->nr_buckets - 1)];
	while (ino && strcmp(ino->name, name))
		ino = ino->hash_next;
	return ino;
}

void inode_hash_add(struct fs *fs, struct inode *ino)
{
	if (fs->nr_hashed >= fs->nr_buckets)
		hash_grow(fs);
	uint32_t k = (uint32_t)(name_hash(ino->name) & (fs->nr_buckets - 1));
	ino->hash_next = fs->buckets[k];
	fs->buckets[k] = ino;
	fs->nr_hashed++;
	ino->hashed = true;
}

void inode_hash_del(struct fs *fs, struct inode *ino)
{
	if (!ino->hashed)
		return;
	struct inode **pp = &fs->buckets[name_hash(ino->name) & (fs->nr_buckets - 1)];
	while (*pp != ino)
		pp = &(*pp)->hash_next;
	*pp = ino->hash_next;
	ino->hash_next = NULL;
	ino->hashed = false;
	fs->nr_hashed--;
}

/* ---- the dirty list --------------------------------------------------- */

static bool dirty_before(const struct inode *x, const struct inode *y)
{
	if (x->dirtied_when != y->dirtied_when)
		return x->dirtied_when < y->dirtied_when;
	return x->id < y->id;
}

static void dirty_unlink(struct fs *fs, struct inode *ino)
{
	/* A walk under way continues after the inode that leaves. */
	if (fs->walk && fs->walk->next == ino)
		fs->walk->next = ino->dirty_next;
	if (ino->dirty_prev)
		ino->dirty_prev->dirty_next = ino->dirty_next;
	else
		fs->dirty_first = ino->dirty_next;
	if (ino->dirty_next)
		ino->dirty_next->dirty_prev = ino->dirty_prev;
	else
		fs->dirty_last = ino->dirty_prev;
	ino->dirty_prev = ino->dirty_next = NULL;
	ino->on_dirty = false;
}

/* Sorted insertion, searching from both ends at once: a new candidate
 * was usually dirtied last (the tail), but one whose pages were all under
 * writeback comes back at its old dirtied_when when a page completes or
 * another is dirtied, which is often near the front. */
static void dirty_insert(struct fs *fs, struct inode *ino)
{
	struct inode *after = fs->dirty_last, *before = fs->dirty_first;
	while (after && dirty_before(ino, after)) {
		if (!dirty_before(before, ino)) {
			after = before->dirty_prev;
			break;
		}
		after = after->dirty_prev;
		before = before->dirty_next;
	}
	ino->dirty_prev = after;
	ino->dirty_next = after ? after->dirty_next : fs->dirty_first;
	if (ino->dirty_next)
		ino->dirty_next->dirty_prev = ino;
	else
		fs->dirty_last = ino;
	if (after)
		after->dirty_next = ino;
	else
		fs->dirty_first = ino;
	ino->on_dirty = true;
	ino->dirty_key = ino->dirtied_when;
}

/* Writeback can start on a page of it (one dirty and not already under
 * writeback), or it has shared mappings whose PTE dirty bits writeback
 * collects.  An inode whose dirty pages are all being written already is
 * left off: dbench keeps thousands of those while writers are throttled,
 * and each throttled write() walked past them all. */
static bool wb_candidate(const struct inode *ino)
{
	return !(ino->flags & INODE_DEAD) && (ino->nrdirty > ino->nrdirty_wb || ino->nr_maps);
}

void inode_dirty_update(struct fs *fs, struct inode *ino)
{
	bool want = wb_candidate(ino);
	if (ino->on_dirty && (!want || ino->dirty_key != ino->dirtied_when))
		dirty_unlink(fs, ino);
	if (want && !ino->on_dirty)
		dirty_insert(fs, ino);
}

/* ---- walks ------------------------------------------------------------ */

void inode_walk_start(struct inode_walk *w, struct fs *fs)
{
	if (fs->walk)
		panic("writeback: nested walks over the dirty inodes");
	w->fs = fs;
	w->next = fs->dirty_first;
	w->epoch = ++fs->walk_epoch;
	fs->walk = w;
}

struct inode *inode_walk_next(struct inode_walk *w)
{
	/* Skip the inodes this walk has seen that moved ahead of it. */
	while (w->next && w->next->wb_epoch == w->epoch)
		w->next = w->next->dirty_next;
	struct inode *ino = w->next;
	if (!ino)
		return NULL;
	ino->wb_epoch = w->epoch;
	w->next = ino->dirty_next;
	return ino;
}

void inode_walk_end(struct inode_walk *w)
{
	w->fs->walk = NULL;
}

/* ---- --check ------------------------------------------------------------ */

bool inode_index_check(struct fs *fs, char *why, size_t len)
{
	uint32_t want = 0, listed = 0;
	for (uint32_t i = 0; i < fs->nr; i++) {
		struct inode *ino = fs->inodes[i];
		bool live = !(ino->flags & (INODE_DEAD | INODE_UNLINKED));
		if (live && inode_hash_find(fs, ino->name) != ino) {
			snprintf(why, len, "inode %s: not found by its name", ino->name);
			return false;
		}
		if (!live && ino->hashed) {
			snprintf(why, len, "inode %s: unlinked but still found by its name", ino->name);
			return false;
		}
		want += wb_candidate(ino);
	}
	for (struct inode *ino = fs->dirty_first; ino; ino = ino->dirty_next) {
		listed++;
		if (!wb_candidate(ino) || ino->dirty_key != ino->dirtied_when) {
			snprintf(why, len, "inode %s: on the dirty list with nothing to write and no mapping", ino->name);
			return false;
		}
		if (ino->dirty_next && !dirty_before(ino, ino->dirty_next)) {
			snprintf(why, len, "inode %s: dirty list out of order", ino->name);
			return false;
		}
	}
	if (listed != want) {
		snprintf(why, len, "dirty list holds %u inodes, %u have pages to write or mappings", listed, want);
		return false;
	}
	return true;
}

void inode_index_free(struct fs *fs)
{
	free(fs->buckets);
	fs->buckets = NULL;
	fs->nr_buckets = fs->nr_hashed = 0;
}
