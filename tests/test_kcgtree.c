/* test_kcgtree.c - pagelab kernel --cgroup (src/engine/kexec_tree.c),
 * without a host: the simulator's keys turned into each cgroup version's
 * files (v1: memory.limit_in_bytes, memory.swappiness; v2: memory.max,
 * .high, .low, .min, .swap.max, .oom.group), the --set knobs of the
 * cgroup's version taken as keys, implied parents without knobs, a key
 * the host's version lacks refused with one line naming its file, and
 * v2's workloads only in leaves. */
#include "test.h"
#include "../src/engine/kexec.h"

#include <string.h>

void test_kcgtree_v1_files(void);
void test_kcgtree_v2_files(void);
void test_kcgtree_refusals(void);

/* "FILE=VALUE FILE=VALUE" of cgroup i's knobs. */
static const char *knobs_of(const struct ntree *t, int i)
{
	static char buf[512];
	buf[0] = 0;
	for (int k = 0; k < t->cg[i].knobs.n; k++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s=%s", k ? " " : "",
			 nknob_file(t->cg[i].knobs.idx[k]), t->cg[i].knobs.val[k]);
	return buf;
}

void test_kcgtree_v1_files(void)
{
	const char *specs[] = { "/a:max=32M,swappiness=30,memory.soft_limit_in_bytes=16M", "/b/c:max=8M" };
	struct cg_tree_conf conf;
	struct ntree nt;
	char err[512] = "";
	CHECK(kexec_tree_build(specs, 2, 1, 128ULL << 20, &conf, &nt, err, sizeof(err)));
	CHECK_EQ(nt.n, 3);
	CHECK(!strcmp(nt.cg[0].path, "/a") && !strcmp(nt.cg[1].path, "/b") && !strcmp(nt.cg[2].path, "/b/c"));
	CHECK(!strcmp(knobs_of(&nt, 0),
		      "memory.limit_in_bytes=33554432 memory.swappiness=30 memory.soft_limit_in_bytes=16777216"));
	CHECK(!strcmp(knobs_of(&nt, 1), ""));
	CHECK(!strcmp(knobs_of(&nt, 2), "memory.limit_in_bytes=8388608"));
	/* The simulator reads the same tree: /b implied, /b/c its child. */
	CHECK_EQ(conf.n, 3);
	CHECK(conf.cg[1].implied && conf.cg[2].parent == 2);
}

void test_kcgtree_v2_files(void)
{
	const char *specs[] = { "/a:max=32M,high=16M,low=4M,min=1M,swap.max=0,oom.group=1" };
	struct cg_tree_conf conf;
	struct ntree nt;
	char err[512] = "";
	CHECK(kexec_tree_build(specs, 1, 2, 128ULL << 20, &conf, &nt, err, sizeof(err)));
	CHECK(!strcmp(knobs_of(&nt, 0), "memory.max=33554432 memory.high=16777216 memory.low=4194304 "
		      "memory.min=1048576 memory.swap.max=0 memory.oom.group=1"));
	int leaf[] = { 1 }, root[] = { 0 };
	CHECK(kexec_tree_places(&conf, 2, leaf, 1, err, sizeof(err)));
	CHECK(!kexec_tree_places(&conf, 2, root, 1, err, sizeof(err)));
	CHECK(!strcmp(err, "kernel: workload 1 runs in /, which has child cgroups: on cgroup v2 only a leaf "
		      "holds processes (place it in a leaf)"));
	CHECK(kexec_tree_places(&conf, 1, root, 1, err, sizeof(err)));
}

/* One spec on version v: its refusal ("" if accepted). */
static const char *refusal(const char *spec, int v)
{
	static char err[512];
	struct cg_tree_conf conf;
	struct ntree nt;
	err[0] = 0;
	return kexec_tree_build(&spec, 1, v, 128ULL << 20, &conf, &nt, err, sizeof(err)) ? "" : err;
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

void test_kcgtree_refusals(void)
{
	CHECK(!strcmp(refusal("/a:high=8M", 1), "kernel: --cgroup /a memory.high: a cgroup v2 file; this host's "
		      "memory cgroup is v1 (swappiness, memory.soft_limit_in_bytes, memory.memsw.limit_in_bytes)"));
	CHECK(starts(refusal("/a:swappiness=10", 2), "kernel: --cgroup /a swappiness: cgroup v2 has no "
		     "per-cgroup swappiness"));
	CHECK(starts(refusal("/a:memory.limit_in_bytes=8M", 2), "kernel: --cgroup /a memory.limit_in_bytes: "
		     "a cgroup v1 file; this host's memory cgroup is v2"));
	CHECK(!strcmp(refusal("/a:max=64M,memory.memsw.limit_in_bytes=32M", 1), "kernel: --cgroup /a "
		      "memory.memsw.limit_in_bytes=33554432: below the cgroup's limit (67108864 bytes): memory + swap "
		      "cannot be less than memory"));
	CHECK(!strcmp(refusal("/a:max=nope", 1), "--cgroup /a: bad max 'nope' (a size or max)"));
	CHECK(starts(refusal("/a:memory.nosuch=1", 1), "kernel: --set memory.nosuch: not a cgroup knob"));
	CHECK(!strcmp(refusal("/a:max=8M,memory.soft_limit_in_bytes=4M", 1), ""));
}
