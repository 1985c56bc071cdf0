/* kcgfake.c - see kcgfake.h. */
#define _GNU_SOURCE
#include "kcgfake.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char kcgfake_dir[64];
char kcgfake_root[80];
char kcgfake_log[1024];
static char proc_dir[80];
static const struct ncg_fs *saved;

static const char *const v2_files[] = {
	"cgroup.procs", "cgroup.controllers", "cgroup.subtree_control", "cgroup.kill", "memory.max",
	"memory.high", "memory.low", "memory.min", "memory.swap.max", "memory.swap.high", "memory.oom.group",
	"memory.current", "memory.peak", "memory.events", "memory.stat", "memory.pressure", "memory.reclaim",
};

static void log_op(const char *op, const char *path)
{
	size_t l = strlen(kcgfake_log);
	snprintf(kcgfake_log + l, sizeof(kcgfake_log) - l, "%s %s;", op, path + strlen(kcgfake_root));
}

void kcgfake_put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

void kcgfake_put_in(const char *dir, const char *file, const char *text)
{
	char p[700];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	kcgfake_put(p, text);
}

static int fake_mkdir(const char *path, mode_t mode)
{
	if (mkdir(path, mode))
		return -1;
	log_op("mkdir", path);
	for (size_t i = 0; i < sizeof(v2_files) / sizeof(v2_files[0]); i++)
		kcgfake_put_in(path, v2_files[i], "");
	return 0;
}

/* Its files, then itself; EBUSY with a child directory. */
static int fake_rmdir(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return -1;
	struct dirent *e;
	int kids = 0;
	while ((e = readdir(d)))
		kids += e->d_type == DT_DIR && e->d_name[0] != '.';
	rewinddir(d);
	while (!kids && (e = readdir(d))) {
		char p[700];
		snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
		if (e->d_type == DT_REG)
			unlink(p);
	}
	closedir(d);
	if (kids) {
		errno = EBUSY;
		return -1;
	}
	log_op("rmdir", path);
	return rmdir(path);
}

static struct ncg_fs fake_fs = { fake_mkdir, fake_rmdir, kcgfake_dir, proc_dir };

bool kcgfake_begin(void)
{
	snprintf(kcgfake_dir, sizeof(kcgfake_dir), "%s", "/tmp/pagelab-kcgfs-XXXXXX");
	kcgfake_log[0] = 0;
	if (!mkdtemp(kcgfake_dir))
		return false;
	/* The v2 root is kcgfake_dir itself (ncg_detect's /sys/fs/cgroup). */
	snprintf(kcgfake_root, sizeof(kcgfake_root), "%s", kcgfake_dir);
	snprintf(proc_dir, sizeof(proc_dir), "%s/.proc", kcgfake_dir);
	mkdir(proc_dir, 0755);
	kcgfake_put_in(kcgfake_root, "cgroup.controllers", "cpu memory pids\n");
	kcgfake_put_in(kcgfake_root, "cgroup.subtree_control", "memory\n");
	saved = ncg_fs;
	ncg_fs = &fake_fs;
	return true;
}

/* rm -r of a directory of the test's own. */
static void remove_all(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char p[700];
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
		if (e->d_type == DT_DIR)
			remove_all(p);
		else
			unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

void kcgfake_end(void)
{
	if (saved)
		ncg_fs = saved;
	saved = NULL;
	remove_all(kcgfake_dir);
}

int kcgfake_left_in_root(void)
{
	DIR *d = opendir(kcgfake_root);
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)))
		n += e->d_name[0] != '.' && strcmp(e->d_name, "cgroup.controllers") &&
		     strcmp(e->d_name, "cgroup.subtree_control");
	if (d)
		closedir(d);
	return n;
}
