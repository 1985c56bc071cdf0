/* tracer.c - the cgroup's own pgactivate and pgdeactivate, from the
 * kernel's tracepoints.
 *
 * cgroup v1's memory.stat has no pgactivate or pgdeactivate, and
 * /proc/vmstat's are the whole host's: other jobs' page-cache activations
 * land in them (2 818 in a qsbench run that reclaimed nothing).  Both are
 * counted where the kernel counts them (6.x):
 *  - shrink_folio_list() activates the folios it keeps (PGACTIVATE) and
 *    reports them in mm_vmscan_lru_shrink_inactive's nr_activate_anon/file;
 *    shrink_active_list() reports PGDEACTIVATE as nr_deactivated in
 *    mm_vmscan_lru_shrink_active.  Limit reclaim runs in the charging
 *    task, so these events are ours when their pid is one of the run's
 *    processes: a tracing instance of our own follows them (set_event_pid
 *    with event-fork, pagelab kernel itself filtered out).
 *  - lru_activate() (folio_mark_accessed's second touch, drained from a
 *    per-CPU batch by whichever task fills it) counts PGACTIVATE with
 *    mm_lru_activate, which names the folio's pfn: a second instance takes
 *    every such event and /proc/kpagecgroup says whether the folio is
 *    charged to our cgroup.
 * PGDEACTIVATE's other sources (lru_deactivate_file, MADV_COLD) are not
 * traced; the native executor uses neither during a run.  Events lost to
 * a full ring buffer void the counts (none are reported), as does any
 * failure to set up: the caller then has the host's figures only.  The
 * reclaim totals (pgscan/pgsteal) are kept beside, to check the events
 * against /proc/vmstat on a host that reclaims nothing else. */
#define _GNU_SOURCE
#include "native.h"
#include "../lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing"
#define INSTANCE_PREFIX "pagelab-kernel-"
#define BUFFER_KB "16384" /* per CPU; drained once a second (session.c wait_runner) */
/* Our mount of tracefs is marked by this file + our pid, so that the next
 * run unmounts it if we die before we can. */
#define MARK_DIR "/run/"
#define MARK_NAME "pagelab-kernel-tracefs."

static bool write_file(const char *dir, const char *file, const char *text)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	int fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return false;
	/* set_event takes one event per write(): the rest is written again. */
	size_t n = strlen(text), done = 0;
	bool ok = true;
	while (ok && done < n) {
		ssize_t w = write(fd, text + done, n - done);
		ok = w > 0;
		done += ok ? (size_t)w : 0;
	}
	return !close(fd) && ok;
}

void ntracer_remove_instance(const char *dir)
{
	write_file(dir, "tracing_on", "0");
	write_file(dir, "set_event", "");
	rmdir(dir);
}

void ntracer_unmount(struct nguard *g)
{
	if (!g->trace_mounted || umount(TRACEFS))
		return;
	g->trace_mounted = false;
	unlink(g->trace_mark);
}

static bool dead_pid(const char *s)
{
	long pid = strtol(s, NULL, 10);
	return pid > 0 && pid != getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

void ntracer_sweep_stale(void)
{
	DIR *run = opendir(MARK_DIR);
	struct dirent *e;
	const char *mark = MARK_NAME;
	while (run && (e = readdir(run)))
		if (!strncmp(e->d_name, mark, strlen(mark)) && dead_pid(e->d_name + strlen(mark))) {
			char p[300];
			snprintf(p, sizeof(p), MARK_DIR "%s", e->d_name);
			umount(TRACEFS);
			unlink(p);
		}
	if (run)
		closedir(run);
}

/* Instances of dead runs (visible only while tracefs is mounted). */
static void sweep_stale_instances(void)
{
	DIR *d = opendir(TRACEFS "/instances");
	if (!d)
		return;
	struct dirent *e;
	size_t len = strlen(INSTANCE_PREFIX);
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, INSTANCE_PREFIX, len) || !dead_pid(e->d_name + len))
			continue;
		char p[512];
		snprintf(p, sizeof(p), TRACEFS "/instances/%s", e->d_name);
		ntracer_remove_instance(p);
	}
	closedir(d);
}

/* An instance of ours with `events` enabled; its trace_pipe, non-blocking. */
static int open_instance(char *dir, size_t len, const char *name, const char *events, const char *filter)
{
	snprintf(dir, len, TRACEFS "/instances/" INSTANCE_PREFIX "%d-%s", (int)getpid(), name);
	if (mkdir(dir, 0700))
		return -1;
	if (!write_file(dir, "buffer_size_kb", BUFFER_KB) || !write_file(dir, "set_event", events))
		return -1;
	if (filter) {
		char pid[32];
		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		if (!write_file(dir, "options/event-fork", "1") || !write_file(dir, "set_event_pid", pid) ||
		    !write_file(dir, "events/vmscan/filter", filter))
			return -1;
	}
	char p[512];
	snprintf(p, sizeof(p), "%s/trace_pipe", dir);
	return open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

bool ntracer_start(struct ntracer *t, struct nguard *g, const char *cgroup_path, char *why, size_t len)
{
	memset(t, 0, sizeof(*t));
	t->pipe[0] = t->pipe[1] = t->kpc = -1;
	if (access(TRACEFS "/instances", F_OK)) {
		if (mount("nodev", TRACEFS, "tracefs", 0, NULL)) {
			snprintf(why, len, "cannot mount tracefs on " TRACEFS ": %s", strerror(errno));
			return false;
		}
		g->trace_mounted = true;
		snprintf(g->trace_mark, sizeof(g->trace_mark), MARK_DIR MARK_NAME "%d", (int)getpid());
		int fd = open(g->trace_mark, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
		if (fd >= 0)
			close(fd);
	}
	sweep_stale_instances();
	struct stat st;
	if (stat(cgroup_path, &st) || (t->kpc = open("/proc/kpagecgroup", O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(why, len, "no /proc/kpagecgroup or cgroup inode: %s", strerror(errno));
		return false;
	}
	t->memcg_ino = (uint64_t)st.st_ino;
	char filter[64];
	snprintf(filter, sizeof(filter), "common_pid != %d", (int)getpid());
	t->pipe[0] = open_instance(g->trace_inst[0], sizeof(g->trace_inst[0]), "reclaim",
				   "vmscan:mm_vmscan_lru_shrink_inactive vmscan:mm_vmscan_lru_shrink_active",
				   filter);
	if (t->pipe[0] >= 0)
		t->pipe[1] = open_instance(g->trace_inst[1], sizeof(g->trace_inst[1]), "activate",
					   "pagemap:mm_lru_activate", NULL);
	if (t->pipe[1] < 0) {
		snprintf(why, len, "cannot set up a tracing instance: %s", strerror(errno));
		return false;
	}
	t->on = true;
	return true;
}

/* The value after " key=" in line (decimal or 0x hex). */
static bool field(const char *line, const char *key, uint64_t *v)
{
	char k[48];
	snprintf(k, sizeof(k), " %s=", key);
	const char *p = strstr(line, k);
	if (!p)
		return false;
	char *end;
	*v = strtoull(p + strlen(k), &end, 0);
	return end != p + strlen(k);
}

static bool own_folio(struct ntracer *t, uint64_t pfn)
{
	uint64_t ino;
	return pread(t->kpc, &ino, sizeof(ino), (off_t)(pfn * sizeof(ino))) == (ssize_t)sizeof(ino) &&
	       ino == t->memcg_ino;
}

void ntracer_line(struct ntracer *t, const char *line)
{
	uint64_t a, b;
	if (strstr(line, " mm_vmscan_lru_shrink_inactive: ")) {
		bool file = strstr(line, "RECLAIM_WB_FILE") != NULL;
		if (field(line, "nr_activate_anon", &a) && field(line, "nr_activate_file", &b))
			t->sum[NT_PGACTIVATE] += a + b;
		if (field(line, "nr_scanned", &a))
			t->sum[file ? NT_PGSCAN_FILE : NT_PGSCAN_ANON] += a;
		if (field(line, "nr_reclaimed", &a))
			t->sum[file ? NT_PGSTEAL_FILE : NT_PGSTEAL_ANON] += a;
		if (field(line, "nr_ref_keep", &a))
			t->sum[NT_REF_KEEP] += a;
	} else if (strstr(line, " mm_vmscan_lru_shrink_active: ")) {
		if (field(line, "nr_deactivated", &a))
			t->sum[NT_PGDEACTIVATE] += a;
	} else if (strstr(line, " mm_lru_activate: ") && field(line, "pfn", &a) && own_folio(t, a)) {
		t->sum[NT_PGACTIVATE]++;
		t->sum[NT_PGACTIVATE_ACCESSED]++;
	}
}

/* Whole lines of what the pipe holds now; a partial one is kept. */
static void drain(struct ntracer *t, int k)
{
	for (;;) {
		size_t have = t->plen[k];
		ssize_t n = read(t->pipe[k], t->part[k] + have, sizeof(t->part[k]) - 1 - have);
		if (n <= 0)
			return;
		have += (size_t)n;
		t->part[k][have] = 0;
		char *l = t->part[k], *nl;
		while ((nl = strchr(l, '\n'))) {
			*nl = 0;
			ntracer_line(t, l);
			l = nl + 1;
		}
		have = strlen(l);
		if (have == sizeof(t->part[k]) - 1)
			have = 0;  /* no line is this long: drop it */
		memmove(t->part[k], l, have);
		t->plen[k] = have;
	}
}

void ntracer_poll(struct ntracer *t)
{
	if (t->on)
		for (int k = 0; k < 2; k++)
			drain(t, k);
}

/* Events the instance's ring buffer lost (per_cpu/cpuN/stats). */
static uint64_t overruns(const char *dir)
{
	uint64_t lost = 0;
	for (int cpu = 0;; cpu++) {
		char p[600];
		snprintf(p, sizeof(p), "%s/per_cpu/cpu%d/stats", dir, cpu);
		FILE *f = fopen(p, "re");
		if (!f)
			return lost;
		char line[128];
		unsigned long long v;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "overrun: %llu", &v) == 1 || sscanf(line, "dropped events: %llu", &v) == 1)
				lost += v;
		fclose(f);
	}
}

static const char *const nt_names[NT_NR] = {
	[NT_PGACTIVATE] = "pgactivate", [NT_PGDEACTIVATE] = "pgdeactivate",
	[NT_PGSCAN_ANON] = "pgscan_anon", [NT_PGSCAN_FILE] = "pgscan_file",
	[NT_PGSTEAL_ANON] = "pgsteal_anon", [NT_PGSTEAL_FILE] = "pgsteal_file",
	[NT_PGACTIVATE_ACCESSED] = "pgactivate_accessed", [NT_REF_KEEP] = "ref_keep",
};

void ntracer_stop(struct ntracer *t, struct nguard *g, struct nstat *out)
{
	memset(out, 0, sizeof(*out));
	uint64_t lost = 0;
	if (t->on) {
		for (int k = 0; k < 2; k++)
			write_file(g->trace_inst[k], "tracing_on", "0");
		ntracer_poll(t);
		for (int k = 0; k < 2; k++)
			lost += overruns(g->trace_inst[k]);
	}
	for (int k = 0; k < 2; k++) {
		if (t->pipe[k] >= 0)
			close(t->pipe[k]);
		if (g->trace_inst[k][0])
			ntracer_remove_instance(g->trace_inst[k]);
		g->trace_inst[k][0] = 0;
	}
	if (t->kpc >= 0)
		close(t->kpc);
	ntracer_unmount(g);
	if (lost)
		fprintf(stderr, "pagelab: kernel: the tracing buffer lost %llu events: no traced counters\n",
			(unsigned long long)lost);
	if (!t->on || lost)
		return;
	char text[512];
	size_t n = 0;
	for (int i = 0; i < NT_NR; i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s %llu\n", nt_names[i],
				      (unsigned long long)t->sum[i]);
	nstat_parse(out, text);
}
