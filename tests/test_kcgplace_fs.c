/* test_kcgplace_fs.c - on the fake cgroup2 tree of kcgfake.c (this host
 * is v1): ncg_detect()'s search for the memory hierarchy (v2 at
 * /sys/fs/cgroup, v2 at its unified/ on a hybrid host, v1's memory/, none)
 * with the "+memory" it writes in a v2 root's subtree_control, and the
 * runner's move of each task into its workload's cgroup (WORKLOAD @PATH:
 * nsession_place_tasks(), a write of the pid to cgroup.procs, then
 * /proc/PID/cgroup checked) with the runner's own leaf on v2.  The pids
 * are above PID_MAX_LIMIT (4M): no process has them, so the SIGKILL a
 * failed move sends reaches nobody. */
#define _GNU_SOURCE
#include "test.h"
#include "kcgfake.h"
#include "../src/engine/cgspec.h"
#include "../src/engine/kexec.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void test_kcgplace_fs_detect(void);
void test_kcgplace_fs_moves(void);

static const char *file(const char *dir, const char *name)
{
	static char buf[128];
	char p[400];
	FILE *f;
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	buf[0] = 0;
	if ((f = fopen(p, "r"))) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	return buf;
}

void test_kcgplace_fs_detect(void)
{
	struct ncgroup cg;
	char err[256] = "", want[300];
	CHECK(kcgfake_begin());
	/* v2 at the mount point, its root not yet delegating memory. */
	kcgfake_put_in(kcgfake_dir, "cgroup.subtree_control", "cpu\n");
	CHECK(ncg_detect(&cg, err, sizeof(err)));
	CHECK_EQ(cg.version, 2);
	CHECK(!strcmp(cg.root, kcgfake_dir) && !cg.path[0]);
	CHECK(!strcmp(file(kcgfake_dir, "cgroup.subtree_control"), "+memory"));
	/* Delegated already: nothing written. */
	kcgfake_put_in(kcgfake_dir, "cgroup.subtree_control", "cpu memory\n");
	CHECK(ncg_detect(&cg, err, sizeof(err)));
	CHECK(!strcmp(file(kcgfake_dir, "cgroup.subtree_control"), "cpu memory\n"));
	/* Hybrid: the mount point's v2 without memory, unified/ with it. */
	kcgfake_put_in(kcgfake_dir, "cgroup.controllers", "cpu memoryx pids\n");
	char sub[200];
	snprintf(sub, sizeof(sub), "%s/unified", kcgfake_dir);
	mkdir(sub, 0755);
	kcgfake_put_in(sub, "cgroup.controllers", "memory\n");
	kcgfake_put_in(sub, "cgroup.subtree_control", "memory\n");
	CHECK(ncg_detect(&cg, err, sizeof(err)));
	CHECK_EQ(cg.version, 2);
	CHECK(!strcmp(cg.root, sub));
	/* v1: memory/ with its limit file, no v2 memory anywhere. */
	kcgfake_put_in(sub, "cgroup.controllers", "pids\n");
	snprintf(sub, sizeof(sub), "%s/memory", kcgfake_dir);
	mkdir(sub, 0755);
	kcgfake_put_in(sub, "memory.limit_in_bytes", "9223372036854771712\n");
	CHECK(ncg_detect(&cg, err, sizeof(err)));
	CHECK_EQ(cg.version, 1);
	CHECK(!strcmp(cg.root, sub));
	snprintf(want, sizeof(want), "%s/memory.limit_in_bytes", sub);
	unlink(want);
	CHECK(!ncg_detect(&cg, err, sizeof(err)));
	CHECK_EQ(cg.version, 0);
	CHECK(!strcmp(err, "kernel: no memory cgroup controller (neither cgroup v2 with 'memory' in "
		      "cgroup.controllers nor v1 at /sys/fs/cgroup/memory)"));
	kcgfake_end();
}

/* /proc/PID/cgroup of the fake /proc: "0::REL" (v2). */
static void proc_says(int pid, const char *rel)
{
	char p[200], t[200];
	snprintf(p, sizeof(p), "%s/%d", ncg_fs->proc, pid);
	mkdir(p, 0755);
	snprintf(t, sizeof(t), "0::%s\n", rel);
	kcgfake_put_in(p, "cgroup", t);
}

void test_kcgplace_fs_moves(void)
{
	const char *specs[] = { "/a", "/p/x", "/agent" };
	struct cg_tree_conf conf;
	struct ntree nt;
	struct nguard g = { 0 };
	char err[512] = "", own[64], rel[128], want[600];
	CHECK(kcgfake_begin());
	g.cg.version = 2;
	snprintf(g.cg.root, sizeof(g.cg.root), "%s", kcgfake_root);
	CHECK(ncg_create(&g.cg, 64ULL << 20, err, sizeof(err)));
	CHECK(kexec_tree_build(specs, 3, 2, 64ULL << 20, &conf, &nt, err, sizeof(err)));
	CHECK(ntree_create(&g.cg, &nt, err, sizeof(err)));
	/* usemem @/a (two tasks), usemem @/p/x, senpai /a @/agent. */
	struct nworkload wl[3] = { { .ops = workload_find("usemem") }, { .ops = workload_find("usemem") },
				   { .ops = workload_find("senpai") } };
	int place[3] = { cgspec_find(&conf, "/a"), cgspec_find(&conf, "/p/x"), cgspec_find(&conf, "/agent") };
	struct nsession s = { .wl = wl, .nwl = 3, .guard = &g, .tree = &nt, .place = place };
	struct ncgroup mine, c;
	nsession_cgroup_of(&s, -1, &mine);
	snprintf(want, sizeof(want), "%s/agent", g.cg.path);
	CHECK(!strcmp(mine.path, want));
	snprintf(own, sizeof(own), "/pagelab-kernel-%d", (int)getpid());
	int ntasks[3] = { 2, 1, 1 };
	pid_t pid[4] = { 90000001, 90000002, 90000003, 90000004 };
	const char *to[4] = { "/a", "/a", "/p/x", "/agent" };
	for (int k = 0; k < 4; k++) {
		snprintf(rel, sizeof(rel), "%s%s", own, to[k]);
		proc_says(pid[k], rel);
	}
	CHECK(nsession_place_tasks(&s, ntasks, pid, err, sizeof(err)));
	/* One write of each pid (the file keeps the last), none to the
	 * runner's own leaf, where the agent's task already is. */
	ncg_child(&g.cg, "/a", &c);
	CHECK(!strcmp(file(c.path, "cgroup.procs"), "90000002"));
	ncg_child(&g.cg, "/p/x", &c);
	CHECK(!strcmp(file(c.path, "cgroup.procs"), "90000003"));
	CHECK(!strcmp(file(mine.path, "cgroup.procs"), ""));
	/* /proc says the second task of /a is elsewhere: refused, named. */
	proc_says(90000002, own);
	CHECK(!nsession_place_tasks(&s, ntasks, pid, err, sizeof(err)));
	snprintf(want, sizeof(want), "kernel: %s/90000002/cgroup does not show %s/a after joining it", ncg_fs->proc,
		 own);
	CHECK(!strcmp(err, want));
	/* Without an agent the runner sits in the first workload's leaf. */
	s.nwl = 2;
	nsession_cgroup_of(&s, -1, &mine);
	ncg_child(&g.cg, "/a", &c);
	CHECK(!strcmp(mine.path, c.path));
	kcgfake_end();
}
