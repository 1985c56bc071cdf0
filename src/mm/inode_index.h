/* inode_index.h - finding inodes fast: by name (the kernel's dentry and
 * inode hashes) and the dirty ones in the order writeback visits them (the
 * superblock's s_dirty/s_io lists of 2.6, fs/fs-writeback.c), leaving out
 * those writeback would pass over (every dirty page already being written).
 *
 * Both are indexes over fs->inodes, which keeps every inode ever created
 * (ids are never reused): a dbench 40 run creates ~50 000, so walking the
 * array on every lookup or writeback call was most of its host time. */
#ifndef PAGELAB_INODE_INDEX_H
#define PAGELAB_INODE_INDEX_H

#include "filemap.h"

/* The live inode named `name` (not unlinked), or NULL. */
struct inode *inode_hash_find(struct fs *fs, const char *name);
/* A new live inode; at most one live inode has a given name. */
void inode_hash_add(struct fs *fs, struct inode *ino);
/* Unlinked: lookups no longer find it. */
void inode_hash_del(struct fs *fs, struct inode *ino);

/* Writeback's candidates are the inodes that are not freed and have a
 * dirty page not under writeback yet, or shared mappings (whose PTE dirty
 * bits writeback collects), in the order (dirtied_when, id).  Call after
 * anything that changes nrdirty, nrdirty_wb, dirtied_when, nr_maps's
 * zero-ness or INODE_DEAD. */
void inode_dirty_update(struct fs *fs, struct inode *ino);

/* Visiting the candidates in order, each at most once, while the visit
 * changes the visited inode (its dirtied_when may move it, it may leave
 * the list): the order is the one the walk started with, as a snapshot
 * sorted at the start would give, without the snapshot. */
struct inode_walk { struct fs *fs; struct inode *next; uint64_t epoch; };
void inode_walk_start(struct inode_walk *w, struct fs *fs);
struct inode *inode_walk_next(struct inode_walk *w);
void inode_walk_end(struct inode_walk *w);

/* --check: both indexes agree with fs->inodes; false with the reason. */
bool inode_index_check(struct fs *fs, char *why, size_t len);

void inode_index_free(struct fs *fs);

#endif
