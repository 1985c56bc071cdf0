/* kcgfake.c - see kcgfake.h. */
#define _GNU_SOURCE
#include "kcgfake.h"
#include "../src/engine/cgspec.h"
#include "../src/engine/kexec.h"

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

long kcgfake_reclaim_pages = -1;
int kcgfake_reclaim_errno;

/* memory.stat's text with its pgsteal line raised by n (added if none). */
static void add_pgsteal(const char *dir, uint64_t n)
{
	char p[700], buf[4096] = "", out[4200];
	snprintf(p, sizeof(p), "%s/memory.stat", dir);
	FILE *f = fopen(p, "r");
	size_t len = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	buf[len] = 0;
	uint64_t old = ncg_stat_field(buf, "pgsteal");
	char *line = !strncmp(buf, "pgsteal ", 8) ? buf : strstr(buf, "\npgsteal ");
	if (line && line != buf)
		line++;
	char *rest = line ? strchr(line, '\n') : NULL;
	if (line)
		*line = 0;
	snprintf(out, sizeof(out), "%spgsteal %llu\n%s", buf, (unsigned long long)(old + n), rest ? rest + 1 : "");
	kcgfake_put(p, out);
}

/* The write, then the kernel's part: a write to memory.reclaim frees
 * what it asks (or kcgfake_reclaim_pages), counted in pgsteal, and
 * fails with kcgfake_reclaim_errno when that is set. */
static bool fake_write(const char *path, const char *text)
{
	if (!native_write_text(path, text))
		return false;
	const char *file = strrchr(path, '/');
	if (!file || strcmp(file, "/memory.reclaim"))
		return true;
	char dir[700];
	snprintf(dir, sizeof(dir), "%.*s", (int)(file - path), path);
	long n = kcgfake_reclaim_pages >= 0 ? kcgfake_reclaim_pages : (long)(strtoull(text, NULL, 10) / 4096);
	add_pgsteal(dir, (uint64_t)n);
	errno = kcgfake_reclaim_errno;
	return !kcgfake_reclaim_errno;
}

static struct ncg_fs fake_fs = { fake_mkdir, fake_rmdir, kcgfake_dir, proc_dir, fake_write };

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

bool kcgfake_run(struct ncgroup *top, const char *const *specs, int n)
{
	struct cg_tree_conf conf;
	struct ntree nt;
	char err[256];
	if (!kcgfake_begin())
		return false;
	*top = (struct ncgroup){ .version = 2 };
	snprintf(top->root, sizeof(top->root), "%s", kcgfake_root);
	return ncg_create(top, 128ULL << 20, err, sizeof(err)) &&
	       kexec_tree_build(specs, n, 2, 128ULL << 20, &conf, &nt, err, sizeof(err)) &&
	       ntree_create(top, &nt, err, sizeof(err));
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
	kcgfake_reclaim_pages = -1;
	kcgfake_reclaim_errno = 0;
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
