/* test_inode_index.c - the inode name hash and the ordered dirty list
 * (src/mm/inode_index.c) on hand-built inodes: lookups after unlink and
 * re-creation, the list's (dirtied_when, id) order, and walks whose visit
 * moves or removes inodes.  (--check compares both indexes with the inode
 * array after every step: tests/cli.d/quickfull.sh runs dbench under it.) */
#include "test.h"
#include "../src/mm/inode_index.h"
#include "../src/lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct inode *mk(struct fs *fs, const char *name, uint64_t dirtied, uint64_t nrdirty)
{
	struct inode *ino = xcalloc(1, sizeof(*ino));
	ino->name = xstrdup(name);
	ino->id = fs->nr;
	ino->dirtied_when = dirtied;
	ino->nrdirty = nrdirty;
	fs->inodes = xrealloc(fs->inodes, (fs->nr + 1) * sizeof(*fs->inodes));
	fs->inodes[fs->nr++] = ino;
	inode_hash_add(fs, ino);
	inode_dirty_update(fs, ino);
	return ino;
}

static void fs_free(struct fs *fs)
{
	for (uint32_t i = 0; i < fs->nr; i++) {
		free(fs->inodes[i]->name);
		free(fs->inodes[i]);
	}
	free(fs->inodes);
	inode_index_free(fs);
}

/* The ids on the dirty list, front to back, as "1 0 2". */
static void order(struct fs *fs, char *buf, size_t len)
{
	buf[0] = 0;
	for (struct inode *i = fs->dirty_first; i; i = i->dirty_next)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%u", buf[0] ? " " : "", i->id);
}

void test_inode_hash(void);
void test_inode_hash(void)
{
	struct fs fs = { 0 };
	char name[32], why[300];
	for (int i = 0; i < 1000; i++) { /* past the first bucket array */
		snprintf(name, sizeof(name), "/f%d", i);
		mk(&fs, name, 0, 0);
	}
	CHECK(inode_hash_find(&fs, "/f0") == fs.inodes[0]);
	CHECK(inode_hash_find(&fs, "/f999") == fs.inodes[999]);
	CHECK(inode_hash_find(&fs, "/f1000") == NULL);
	CHECK(fs.nr_buckets >= 1000);
	/* unlink, then a new file of the same name */
	fs.inodes[7]->flags |= INODE_UNLINKED;
	inode_hash_del(&fs, fs.inodes[7]);
	CHECK(inode_hash_find(&fs, "/f7") == NULL);
	inode_hash_del(&fs, fs.inodes[7]); /* twice: no-op */
	struct inode *again = mk(&fs, "/f7", 0, 0);
	CHECK(inode_hash_find(&fs, "/f7") == again);
	CHECK_EQ(fs.nr_hashed, 1000);
	CHECK(inode_index_check(&fs, why, sizeof(why)));
	fs_free(&fs);
}

void test_inode_dirty_order(void);
void test_inode_dirty_order(void)
{
	struct fs fs = { 0 };
	char buf[128], why[300];
	mk(&fs, "/a", 50, 1);  /* 0 */
	mk(&fs, "/b", 20, 1);  /* 1: older, goes in front */
	mk(&fs, "/c", 50, 1);  /* 2: same time as 0: by id */
	mk(&fs, "/d", 10, 0);  /* 3: clean, unmapped: not listed */
	order(&fs, buf, sizeof(buf));
	CHECK(!strcmp(buf, "1 0 2"));
	/* a clean inode with a shared mapping is listed at its old time */
	fs.inodes[3]->nr_maps = 1;
	inode_dirty_update(&fs, fs.inodes[3]);
	order(&fs, buf, sizeof(buf));
	CHECK(!strcmp(buf, "3 1 0 2"));
	/* cleaned and unmapped: leaves; dirtied again later: at the back */
	fs.inodes[1]->nrdirty = 0;
	inode_dirty_update(&fs, fs.inodes[1]);
	fs.inodes[1]->nrdirty = 1;
	fs.inodes[1]->dirtied_when = 90;
	inode_dirty_update(&fs, fs.inodes[1]);
	order(&fs, buf, sizeof(buf));
	CHECK(!strcmp(buf, "3 0 2 1"));
	CHECK(inode_index_check(&fs, why, sizeof(why)));
	/* freed: leaves */
	fs.inodes[0]->flags |= INODE_DEAD | INODE_UNLINKED;
	inode_hash_del(&fs, fs.inodes[0]);
	inode_dirty_update(&fs, fs.inodes[0]);
	order(&fs, buf, sizeof(buf));
	CHECK(!strcmp(buf, "3 2 1"));
	/* the check catches a list out of step */
	fs.inodes[2]->nrdirty = 0;
	CHECK(!inode_index_check(&fs, why, sizeof(why)));
	fs.inodes[2]->nrdirty = 1;
	CHECK(inode_index_check(&fs, why, sizeof(why)));
	fs_free(&fs);
}

void test_inode_walk(void);
void test_inode_walk(void)
{
	struct fs fs = { 0 };
	char seen[128] = "";
	for (int i = 0; i < 5; i++) {
		char name[16];   /* room for any int: gcc -O1 checks the truncation */
		snprintf(name, sizeof(name), "/%d", i);
		mk(&fs, name, (uint64_t)i * 10, 1);
	}
	/* Visiting 1 re-dirties it at time 100 (it moves to the back: not
	 * visited again) and frees 2, the walk's next (the walk goes on at 3). */
	struct inode_walk w;
	inode_walk_start(&w, &fs);
	struct inode *ino;
	while ((ino = inode_walk_next(&w))) {
		snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "%s%u", seen[0] ? " " : "", ino->id);
		if (ino->id == 1) {
			ino->nrdirty = 0;
			inode_dirty_update(&fs, ino);
			ino->nrdirty = 1;
			ino->dirtied_when = 100;
			inode_dirty_update(&fs, ino);
			fs.inodes[2]->nrdirty = 0;
			inode_dirty_update(&fs, fs.inodes[2]);
		}
	}
	inode_walk_end(&w);
	CHECK(!strcmp(seen, "0 1 3 4"));
	/* a second walk sees the new order */
	seen[0] = 0;
	inode_walk_start(&w, &fs);
	while ((ino = inode_walk_next(&w)))
		snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), "%s%u", seen[0] ? " " : "", ino->id);
	inode_walk_end(&w);
	CHECK(!strcmp(seen, "0 3 4 1"));
	fs_free(&fs);
}
