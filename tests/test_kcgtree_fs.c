/* test_kcgtree_fs.c - pagelab kernel --cgroup's cgroup v2 path
 * (src/native/cgroup.c, cgtree.c) on a fake cgroup2 hierarchy of plain
 * files in a temporary directory, so that it is checked on this v1 host
 * without a kernel run (kcgfake.c's stand-in for ncg_fs).  What is checked: exactly what is
 * written to each file (the run's own memory.max and memory.swap.max;
 * each cgroup's memory.max, .high, .low, .min, .swap.max, .swap.high,
 * .oom.group; "+memory" in the subtree_control of the run's own cgroup
 * and of every parent, not of a leaf), what is read back at the end
 * (memory.current, .peak, .events, .pressure, the knobs), and that
 * removal leaves nothing of what was made, children first. */
#define _GNU_SOURCE
#include "test.h"
#include "kcgfake.h"
#include "../src/engine/kexec.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void test_kcgtree_fs_v2_writes_and_removes(void);

/* A file of cgroup REL below top ("" the run's own), as written. */
static const char *file_of(const struct ncgroup *top, const char *rel, const char *file)
{
	static char buf[128];
	struct ncgroup c;
	ncg_child(top, rel, &c);
	if (!ncg_read(&c, file, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), "(unreadable)");
	return buf;
}

static bool file_is(const struct ncgroup *top, const char *rel, const char *file, const char *want)
{
	const char *got = file_of(top, rel, file);
	if (!strcmp(got, want))
		return true;
	fprintf(stderr, "  %s/%s: '%s', expected '%s'\n", rel[0] ? rel : "(own)", file, got, want);
	return false;
}

static long event(const struct nstat *s, const char *name)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->name[i], name))
			return (long)s->val[i];
	return -1;
}

/* The tree's files as ntree_create() wrote them. */
static void check_written(const struct ncgroup *top)
{
	CHECK(file_is(top, "", "memory.max", "134217728") && file_is(top, "", "memory.swap.max", "max"));
	CHECK(file_is(top, "", "cgroup.subtree_control", "+memory"));
	CHECK(file_is(top, "/p", "cgroup.subtree_control", "+memory"));
	CHECK(file_is(top, "/a", "cgroup.subtree_control", "") && file_is(top, "/p/x", "cgroup.subtree_control", ""));
	CHECK(file_is(top, "/a", "memory.max", "33554432") && file_is(top, "/a", "memory.high", "16777216"));
	CHECK(file_is(top, "/a", "memory.low", "4194304") && file_is(top, "/a", "memory.min", "1048576"));
	CHECK(file_is(top, "/a", "memory.swap.max", "0") && file_is(top, "/a", "memory.oom.group", "1"));
	CHECK(file_is(top, "/a", "memory.swap.high", ""));
	/* The implied parent: nothing but its subtree_control. */
	CHECK(file_is(top, "/p", "memory.max", "") && file_is(top, "/p", "memory.low", ""));
	CHECK(file_is(top, "/p/x", "memory.max", "8388608") && file_is(top, "/p/x", "memory.swap.high", "4194304"));
	CHECK(file_is(top, "/p/x", "memory.high", "") && file_is(top, "/p/y", "memory.low", "2097152"));
	CHECK(file_is(top, "/p/y", "memory.max", "") && file_is(top, "/p/y", "cgroup.procs", ""));
}

/* ntree_read() of /a, its files filled as the kernel would have. */
static void check_read(const struct ncgroup *top, const struct ntree *nt)
{
	struct ncgroup a;
	char p[700];
	ncg_child(top, "/a", &a);
	const char *fill[][2] = {
		{ "memory.current", "4096\n" }, { "memory.peak", "8192\n" },
		{ "memory.events", "low 0\nhigh 5\nmax 2\noom 0\noom_kill 0\noom_group_kill 0\n" },
		{ "memory.pressure", "some avg10=0.00 avg60=0.00 avg300=0.00 total=1234\n"
				     "full avg10=0.00 avg60=0.00 avg300=0.00 total=56\n" },
		{ "memory.stat", "anon 4096\nfile 0\npgscan 77\n" },
	};
	for (size_t i = 0; i < sizeof(fill) / sizeof(fill[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", a.path, fill[i][0]);
		kcgfake_put(p, fill[i][1]);
	}
	struct ncg_result r;
	ntree_read(top, nt, 0, &r);
	CHECK(!strcmp(r.path, "/a"));
	CHECK_EQ(r.current, 4096);
	CHECK_EQ(r.peak, 8192);
	CHECK_EQ(event(&r.events, "high"), 5);
	CHECK_EQ(event(&r.events, "max"), 2);
	CHECK_EQ(event(&r.memstat, "pgscan"), 77);
	CHECK_EQ(r.psi_some_us, 1234);
	CHECK_EQ(r.psi_full_us, 56);
	CHECK(!strcmp(r.knob[0], "33554432") && !strcmp(r.knob[5], "1"));
	ncg_result_free(&r);
}

void test_kcgtree_fs_v2_writes_and_removes(void)
{
	if (!kcgfake_begin()) {
		CHECK(!"mkdtemp");
		return;
	}
	struct ncgroup top = { .version = 2 };
	snprintf(top.root, sizeof(top.root), "%s", kcgfake_root);
	const char *specs[] = { "/a:max=32M,high=16M,low=4M,min=1M,swap.max=0,oom.group=1",
				"/p/x:max=8M,swap.high=4M", "/p/y:low=2M" };
	struct cg_tree_conf conf;
	struct ntree nt;
	char err[512] = "";
	CHECK(ncg_create(&top, 128ULL << 20, err, sizeof(err)));
	CHECK(kexec_tree_build(specs, 3, 2, 128ULL << 20, &conf, &nt, err, sizeof(err)));
	CHECK(ntree_create(&top, &nt, err, sizeof(err)));
	CHECK(!strcmp(err, ""));
	check_written(&top);
	check_read(&top, &nt);
	char own[64], want[400];
	snprintf(own, sizeof(own), "/pagelab-kernel-%d", (int)getpid());
	snprintf(want, sizeof(want), "mkdir %s;mkdir %s/a;mkdir %s/p;mkdir %s/p/x;mkdir %s/p/y;", own, own, own, own,
		 own);
	CHECK(!strcmp(kcgfake_log, want));
	kcgfake_log[0] = 0;
	CHECK(ncg_remove(&top));
	CHECK(top.path[0] == 0);
	CHECK_EQ(kcgfake_left_in_root(), 0);
	/* Five rmdirs, each cgroup once; /p/x and /p/y (in either order)
	 * before /p, the run's own last. */
	const char *x = strstr(kcgfake_log, "/p/x;"), *y = strstr(kcgfake_log, "/p/y;");
	snprintf(want, sizeof(want), "rmdir %s/p;", own);
	const char *pp = strstr(kcgfake_log, want);
	snprintf(want, sizeof(want), "rmdir %s;", own);
	size_t wl = strlen(want), ll = strlen(kcgfake_log);
	CHECK(x && y && pp && x < pp && y < pp && strstr(kcgfake_log, "/a;"));
	CHECK(ll >= wl && !strcmp(kcgfake_log + ll - wl, want));
	int n = 0;
	for (const char *s = kcgfake_log; (s = strstr(s, "rmdir ")); s++)
		n++;
	CHECK_EQ(n, 5);
	kcgfake_end();
}
