/* kcgfake.h - a fake cgroup2 hierarchy of plain files in a temporary
 * directory, for the kernel executor's cgroup v2 path on this v1 host
 * (test_kcgtree_fs.c, test_kagents_fs.c, test_kcgplace_fs.c): ncg_fs's
 * stand-in makes a directory with the v2 interface files, empty, as
 * cgroupfs's mkdir does, and removes them with it (refusing a cgroup
 * with children, EBUSY, as cgroup_destroy_locked() does); the mounts
 * (/sys/fs/cgroup) and /proc are directories of the temporary one. */
#ifndef PAGELAB_TESTS_KCGFAKE_H
#define PAGELAB_TESTS_KCGFAKE_H

#include <stdbool.h>

#include "../src/native/native.h"

/* The temporary directory: KCGFAKE/sys (the v2 root: its
 * cgroup.controllers "cpu memory pids", its subtree_control "memory")
 * and KCGFAKE/proc (empty). */
extern char kcgfake_dir[64];
extern char kcgfake_root[80];
/* "mkdir REL;rmdir REL;..." of the stand-in, REL below kcgfake_root. */
extern char kcgfake_log[1024];

/* The stand-in's writes are plain writes, but one to memory.reclaim
 * also reclaims: raises the cgroup's memory.stat pgsteal by the pages
 * asked, or by kcgfake_reclaim_pages when that is >= 0, and then fails
 * with kcgfake_reclaim_errno when that is set (both reset by
 * kcgfake_end()). */
extern long kcgfake_reclaim_pages;
extern int kcgfake_reclaim_errno;

/* Make the directory and point ncg_fs at the stand-in. */
bool kcgfake_begin(void);
/* kcgfake_begin(), then a run's own cgroup of 128M (v2) with the
 * --cgroup specs below it, made as pagelab kernel makes them. */
bool kcgfake_run(struct ncgroup *top, const char *const *specs, int n);
/* Restore ncg_fs and remove the directory with what is left in it. */
void kcgfake_end(void);
/* Write text to path (created, truncated). */
void kcgfake_put(const char *path, const char *text);
/* The same for FILE of directory dir. */
void kcgfake_put_in(const char *dir, const char *file, const char *text);
/* Entries of the root but its own two files. */
int kcgfake_left_in_root(void);

#endif
