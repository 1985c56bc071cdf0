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

/* Make the directory and point ncg_fs at the stand-in. */
bool kcgfake_begin(void);
/* Restore ncg_fs and remove the directory with what is left in it. */
void kcgfake_end(void);
/* Write text to path (created, truncated). */
void kcgfake_put(const char *path, const char *text);
/* The same for FILE of directory dir. */
void kcgfake_put_in(const char *dir, const char *file, const char *text);
/* Entries of the root but its own two files. */
int kcgfake_left_in_root(void);

#endif
