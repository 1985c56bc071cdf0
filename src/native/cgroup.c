/* cgroup.c - a memory cgroup of our own, following
 * Documentation/admin-guide/cgroup-v1/memory.rst and cgroup-v2.rst.
 *
 * v2 is preferred where its memory controller is enabled (memory.max,
 * memory.swap.max, memory.peak); otherwise v1 (memory.limit_in_bytes with
 * memory.memsw.limit_in_bytes unlimited, so swap is bounded only by our
 * swapfile, and memory.swappiness set to 60 explicitly: a v1 child
 * inherits its parent's value, which need not be the default; --set
 * swappiness=N and the other knobs of knobs.c are written after).  The cgroup
 * sits directly under the hierarchy's root, named pagelab-kernel-PID, so a
 * later run can tell whether its creator is still alive.  `--cgroup`
 * makes cgroups below it (cgtree.c): killing and removing walk its
 * subdirectories, which are its child cgroups, deepest first (a cgroup
 * with children cannot be removed: cgroup_destroy_locked()'s EBUSY). */
#define _GNU_SOURCE
#include "native.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CG_PREFIX "pagelab-kernel-"


static bool read_text(const char *path, char *buf, size_t len)
{
	buf[0] = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	size_t got = 0;
	while (got + 1 < len) {
		ssize_t n = read(fd, buf + got, len - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	buf[got] = 0;
	close(fd);
	return true;
}

bool native_write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	size_t n = strlen(text);
	bool ok = write(fd, text, n) == (ssize_t)n;
	int e = errno;   /* the write's, for the caller's message */
	close(fd);
	errno = e;
	return ok;
}

static const struct ncg_fs host_fs = { mkdir, rmdir, "/sys/fs/cgroup", "/proc", native_write_text };
const struct ncg_fs *ncg_fs = &host_fs;

bool ncg_write(const struct ncgroup *cg, const char *file, const char *text)
{
	char p[640];
	snprintf(p, sizeof(p), "%s/%s", cg->path, file);
	return ncg_fs->write(p, text);
}

bool ncg_read(const struct ncgroup *cg, const char *file, char *buf, size_t len)
{
	char p[640];
	snprintf(p, sizeof(p), "%s/%s", cg->path, file);
	return read_text(p, buf, len);
}

static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *s = list; (s = strstr(s, word)); s += n)
		if ((s == list || s[-1] == ' ') && (s[n] == 0 || s[n] == ' ' || s[n] == '\n'))
			return true;
	return false;
}

/* The memory hierarchy's version (0: none) and root, looking only: v2,
 * the unified hierarchy at /sys/fs/cgroup or (hybrid) below it, where
 * its memory controller is enabled, else v1. */
static int find_root(char *root, size_t len)
{
	char buf[512], p[300];
	static const char *const v2roots[] = { "", "/unified" };
	const char *base = ncg_fs->sys_cgroup;
	for (size_t i = 0; i < sizeof(v2roots) / sizeof(v2roots[0]); i++) {
		snprintf(p, sizeof(p), "%s%s/cgroup.controllers", base, v2roots[i]);
		if (read_text(p, buf, sizeof(buf)) && has_word(buf, "memory")) {
			snprintf(root, len, "%s%s", base, v2roots[i]);
			return 2;
		}
	}
	snprintf(p, sizeof(p), "%s/memory/memory.limit_in_bytes", base);
	if (read_text(p, buf, sizeof(buf))) {
		snprintf(root, len, "%s/memory", base);
		return 1;
	}
	return 0;
}

int ncg_host_version(void)
{
	char root[256];
	return find_root(root, sizeof(root));
}

bool ncg_host_has(const char *file)
{
	char root[256], p[512];
	if (!find_root(root, sizeof(root)))
		return false;
	snprintf(p, sizeof(p), "%s/%s", root, file);
	return access(p, F_OK) == 0;
}

bool ncg_detect(struct ncgroup *cg, char *err, size_t errlen)
{
	memset(cg, 0, sizeof(*cg));
	cg->version = find_root(cg->root, sizeof(cg->root));
	if (cg->version == 2) {
		/* Children get the controller only if the root delegates it. */
		char p[300], buf[512];
		snprintf(p, sizeof(p), "%s/cgroup.subtree_control", cg->root);
		if (read_text(p, buf, sizeof(buf)) && !has_word(buf, "memory"))
			native_write_text(p, "+memory");
	}
	if (cg->version)
		return true;
	snprintf(err, errlen, "kernel: no memory cgroup controller (neither cgroup v2 with "
		 "'memory' in cgroup.controllers nor v1 at /sys/fs/cgroup/memory)");
	return false;
}

bool ncg_create(struct ncgroup *cg, uint64_t limit, char *err, size_t errlen)
{
	snprintf(cg->path, sizeof(cg->path), "%s/" CG_PREFIX "%d", cg->root, (int)getpid());
	if (ncg_fs->mkdir(cg->path, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "kernel: cannot create the cgroup %s: %s", cg->path, strerror(errno));
		cg->path[0] = 0;
		return false;
	}
	char v[32];
	snprintf(v, sizeof(v), "%llu", (unsigned long long)limit);
	bool ok;
	if (cg->version == 2) {
		ok = ncg_write(cg, "memory.max", v);
		ncg_write(cg, "memory.swap.max", "max");
	} else {
		/* memsw must stay >= the memory limit: raise it first. */
		ok = ncg_write(cg, "memory.memsw.limit_in_bytes", "-1") || errno == ENOENT;
		ok = ncg_write(cg, "memory.limit_in_bytes", v) && ok;
		ok = ncg_write(cg, "memory.swappiness", "60") && ok;
	}
	if (!ok) {
		snprintf(err, errlen, "kernel: cannot set the limit of %s: %s", cg->path, strerror(errno));
		ncg_remove(cg);
		return false;
	}
	return true;
}

void ncg_child(const struct ncgroup *top, const char *rel, struct ncgroup *out)
{
	*out = *top;
	snprintf(out->path, sizeof(out->path), "%s%s", top->path, rel);
}

/* /proc/PID/cgroup shows pid in cg: "0::/name" (v2) or "N:memory:/name"
 * (v1). */
static bool is_member(const struct ncgroup *cg, pid_t pid, char *err, size_t errlen)
{
	char p[320], buf[4096];
	const char *name = cg->path + strlen(cg->root);
	snprintf(p, sizeof(p), "%s/%d/cgroup", ncg_fs->proc, (int)pid);
	if (!read_text(p, buf, sizeof(buf))) {
		snprintf(err, errlen, "kernel: cannot read %s", p);
		return false;
	}
	for (char *save = NULL, *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		bool mem = cg->version == 2 ? c2 == c1 + 1 : false;
		/* v1: the controllers between the colons, comma-separated. */
		for (char *c = c1 + 1; cg->version == 1 && c < c2;) {
			size_t n = strcspn(c, ",:");
			mem |= n == 6 && !strncmp(c, "memory", 6);
			c += n + 1;
		}
		if (mem && !strcmp(c2 + 1, name))
			return true;
	}
	snprintf(err, errlen, "kernel: %s does not show %s after joining it", p, name);
	return false;
}

bool ncg_move(const struct ncgroup *cg, pid_t pid, char *err, size_t errlen)
{
	char v[32];
	snprintf(v, sizeof(v), "%d", (int)pid);
	if (!ncg_write(cg, "cgroup.procs", v)) {
		snprintf(err, errlen, "kernel: cannot move %d into %s: %s", (int)pid, cg->path, strerror(errno));
		return false;
	}
	return is_member(cg, pid, err, errlen);
}

bool ncg_join(const struct ncgroup *cg, char *err, size_t errlen)
{
	char pid[32];
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (!ncg_write(cg, "cgroup.procs", pid)) {
		snprintf(err, errlen, "kernel: cannot join %s: %s", cg->path, strerror(errno));
		return false;
	}
	char why[512];
	if (is_member(cg, getpid(), why, sizeof(why)))
		return true;
	/* The message it always had: /proc/self/cgroup is the one read. */
	snprintf(err, errlen, "kernel: /proc/self/cgroup does not show %s after joining it",
		 cg->path + strlen(cg->root));
	return false;
}

/* Call fn on each child cgroup of cg (its subdirectories). */
static void each_child(const struct ncgroup *cg, void (*fn)(struct ncgroup *, void *), void *arg)
{
	DIR *d = opendir(cg->path);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t pl = strlen(cg->path), nl = strlen(e->d_name);
		if (e->d_type != DT_DIR || e->d_name[0] == '.' || pl + nl + 2 > sizeof(cg->path))
			continue;
		struct ncgroup c = *cg;
		memcpy(c.path + pl, "/", 1);
		memcpy(c.path + pl + 1, e->d_name, nl + 1);
		fn(&c, arg);
	}
	closedir(d);
}

struct kill_arg {
	int spare, n;
};
static int kill_members(const struct ncgroup *cg, int spare);
static void kill_child(struct ncgroup *c, void *arg)
{
	struct kill_arg *k = arg;
	k->n += kill_members(c, k->spare);
}

/* SIGKILL the processes of cg and of its descendants but spare. */
static int kill_members(const struct ncgroup *cg, int spare)
{
	char buf[65536];
	struct kill_arg k = { spare, 0 };
	each_child(cg, kill_child, &k);
	if (!ncg_read(cg, "cgroup.procs", buf, sizeof(buf)))
		return k.n;
	int n = k.n;
	for (char *s = buf; *s;) {
		char *end;
		long pid = strtol(s, &end, 10);
		if (end == s)
			break;
		if (pid > 0 && pid != getpid() && pid != spare) {
			kill((pid_t)pid, SIGKILL);
			n++;
		}
		s = end;
		while (*s == '\n')
			s++;
	}
	return n;
}

int ncg_kill_others(const struct ncgroup *cg, int spare)
{
	return cg->path[0] ? kill_members(cg, spare) : 0;
}

void ncg_kill_all(const struct ncgroup *cg)
{
	if (!cg->path[0])
		return;
	/* A process may fork while we kill: repeat until the list is empty
	 * (10 s at most; SIGKILL'd processes release memory quickly). */
	for (int i = 0; i < 1000 && kill_members(cg, 0); i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
}

static void remove_child(struct ncgroup *c, void *arg)
{
	bool *ok = arg;
	*ok = ncg_remove(c) && *ok;
}

bool ncg_remove(struct ncgroup *cg)
{
	if (!cg->path[0])
		return true;
	ncg_kill_all(cg);
	bool kids = true;
	each_child(cg, remove_child, &kids);
	/* rmdir fails with EBUSY until the killed tasks are gone. */
	for (int i = 0; i < 500; i++) {
		if (!ncg_fs->rmdir(cg->path) || errno == ENOENT) {
			cg->path[0] = 0;
			return true;
		}
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
	}
	return false;
}

uint64_t ncg_stat_field(const char *text, const char *key)
{
	size_t n = strlen(key);
	for (const char *s = text; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		if (!strncmp(s, key, n) && s[n] == ' ')
			return strtoull(s + n + 1, NULL, 10);
	return 0;
}

uint64_t ncg_peak(const struct ncgroup *cg)
{
	char buf[64];
	if (ncg_read(cg, cg->version == 2 ? "memory.peak" : "memory.max_usage_in_bytes", buf, sizeof(buf)))
		return strtoull(buf, NULL, 10);
	return 0;
}

uint64_t ncg_oom_kills(const struct ncgroup *cg)
{
	char buf[1024];
	if (!ncg_read(cg, cg->version == 2 ? "memory.events" : "memory.oom_control", buf, sizeof(buf)))
		return 0;
	return ncg_stat_field(buf, "oom_kill");
}

void ncg_sweep_stale(const struct ncgroup *cg)
{
	DIR *d = opendir(cg->root);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, CG_PREFIX, strlen(CG_PREFIX)))
			continue;
		long pid = strtol(e->d_name + strlen(CG_PREFIX), NULL, 10);
		if (pid <= 0 || pid == getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		struct ncgroup old = *cg;
		snprintf(old.path, sizeof(old.path), "%s/%s", cg->root, e->d_name);
		fprintf(stderr, "pagelab: kernel: removing %s, left by a killed run\n", old.path);
		ncg_remove(&old);
	}
	closedir(d);
}
