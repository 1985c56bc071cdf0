/* test_cgtree.c - a tree of memory cgroups (--cgroup, src/mm/cgtree.c,
 * src/engine/cgspec.c): the words parsed, charges up the hierarchy,
 * limit reclaim from the ancestor at its max, swap.max and oom.group, on
 * the untimed ideal machine (writes complete at once) with --check on,
 * which holds every cgroup's current to its pages plus its children's. */
#include "test.h"
#include "sim.h"
#include "../src/machine/machine.h"
#include "../src/workload/workload.h"
#include "../src/policy/policy.h"
#include "../src/engine/cgspec.h"
#include "../src/lib/util.h"
#include "../include/pagelab.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void test_cgspec_parse(void);
void test_cgspec_bad(void);
void test_cgtree_hierarchical_charge(void);
void test_cgtree_limit_reclaim_ancestor(void);
void test_cgtree_swap_max(void);
void test_cgtree_oom_group(void);
void test_cgtree_library(void);
void test_cgtree_lruvec_per_cgroup(void);
void test_cgtree_shadow_keeps_cgroup(void);
void test_cgtree_check_catches_imbalance(void);

void test_cgspec_parse(void)
{
	struct cg_tree_conf t = { 0 };
	char err[256];
	CHECK(cgspec_add(&t, "/a/b:max=64M,high=32M,low=4M,min=1M,swap.max=0,swappiness=60,oom.group=1", err,
			 sizeof(err)));
	CHECK_EQ(t.n, 2);                         /* /a implied first */
	CHECK(!strcmp(t.cg[0].path, "/a") && t.cg[0].implied && t.cg[0].parent == 0);
	CHECK_EQ(t.cg[0].max, CG_UNLIMITED);
	const struct cg_conf *b = &t.cg[1];
	CHECK(!strcmp(b->path, "/a/b") && !b->implied && b->parent == 1);
	CHECK_EQ(b->max, 16384);
	CHECK_EQ(b->high, 8192);
	CHECK_EQ(b->low, 1024);
	CHECK_EQ(b->min, 256);
	CHECK_EQ(b->swap_max, 0);
	CHECK_EQ(b->swappiness, 60);
	CHECK(b->oom_group);
	/* An implied parent may be declared after its child. */
	CHECK(cgspec_add(&t, "/a:max=max", err, sizeof(err)));
	CHECK(!t.cg[0].implied);
	CHECK_EQ(cgspec_find(&t, "/a/b"), 2);
	CHECK_EQ(cgspec_find(&t, "/"), 0);
	CHECK_EQ(cgspec_find(&t, "/c"), -1);
	/* @PATH: the last word, taken off */
	char *argv[] = { "usemem", "-m", "4", "@/a/b", NULL };
	int argc = 4;
	CHECK_EQ(cgspec_placement(&t, &argc, argv, err, sizeof(err)), 2);
	CHECK_EQ(argc, 3);
	CHECK_EQ(cgspec_placement(&t, &argc, argv, err, sizeof(err)), 0);
	char *bad[] = { "usemem", "@/z" };
	argc = 2;
	CHECK_EQ(cgspec_placement(&t, &argc, bad, err, sizeof(err)), -1);
	CHECK(strstr(err, "@/z: no such cgroup") != NULL);
}

void test_cgspec_bad(void)
{
	static const char *const bad[] = { "/", "a", "/a//b", "/a/", "/a:", "/a:max", "/a:max=x", "/a:low=max",
					   "/a:swappiness=201", "/a:oom.group=2", "/a:bogus=1", "/a b" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct cg_tree_conf t = { 0 };
		char err[256] = "";
		CHECK(!cgspec_add(&t, bad[i], err, sizeof(err)));
		CHECK(err[0] && !strchr(err, '\n'));
	}
	struct cg_tree_conf t = { 0 };
	char err[256];
	CHECK(cgspec_add(&t, "/a", err, sizeof(err)));
	CHECK(!cgspec_add(&t, "/a:max=1M", err, sizeof(err)));
	CHECK(strstr(err, "given twice") != NULL);
	for (int i = 0; i < CG_MAX - 1; i++) {
		char p[16];
		snprintf(p, sizeof(p), "/c%d", i);
		CHECK(cgspec_add(&t, p, err, sizeof(err)));
	}
	CHECK(!cgspec_add(&t, "/full", err, sizeof(err)));
}

/* A trace of `pages` pages written once each ("1 w" ...), made at path
 * (a mkstemp() template) in one write. */
static void trace_file(char *path, uint64_t pages)
{
	char text[4096];
	size_t len = 0;
	for (uint64_t p = 1; p <= pages && len + 32 < sizeof(text); p++)
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%llu w\n", (unsigned long long)p);
	int fd = mkstemp(path);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len || close(fd))
		panic("temp trace %s", path);
}

/* A tree run: profile `machine` with ram and swap bytes, clock,
 * --check, the cgroups of specs, workload k's words cmds[k] in cgroup
 * at[k]; the machine is the caller's to inspect and free. */
struct tree_run {
	const char *machine;
	uint64_t ram, swap;
	const char *const *specs;   /* NULL-terminated */
	const char *const *cmds;
	const int *at;
	int n;
	const char *policy;         /* NULL: clock */
};

static void run_cmds(struct machine *m, const struct tree_run *r)
{
	struct profile prof = *profile_find(r->machine);
	prof.ram = r->ram;
	prof.swap = r->swap;
	struct machine_opts mo = { .seed = 1, .check = true, .max_time_ns = 1000000000000ULL };
	char err[256];
	for (int i = 0; r->specs[i]; i++)
		if (!cgspec_add(&mo.cgroups, r->specs[i], err, sizeof(err)))
			panic("%s", err);
	if (!machine_init(m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	machine_set_policy(m, policy_find(r->policy ? r->policy : "clock"), NULL);
	for (int k = 0; k < r->n; k++) {
		char name[16];
		int nt;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(r->cmds[k], " "), r->cmds[k]);
		const struct workload_ops *wo = workload_find(name);
		void *w = wl_make(r->cmds[k], &nt);
		if (!w)
			panic("%s", r->cmds[k]);
		machine_add_workload(m, wo, w, r->cmds[k]);
		const struct wl_inst *wi = &m->wls[m->nr_wls - 1];
		for (int i = 0; i < wi->ntasks; i++)
			mm_cgroup_attach(&m->mm, m->tasks[wi->first_task + i].id, r->at[k]);
	}
	machine_run(m);
	CHECK(!m->check_failed);
}

/* Traces of pages[k] pages written once, trace k in cgroup at[k], on the
 * untimed ideal machine (256 frames; writes complete at once). */
static void run_tree(struct machine *m, const char *const *specs, const uint64_t *pages, const int *at, int n,
		     uint64_t swap)
{
	char path[4][32], cmd[4][48];
	const char *cmds[4];
	for (int k = 0; k < n; k++) {
		snprintf(path[k], sizeof(path[k]), "/tmp/pagelab-cgt-XXXXXX");
		trace_file(path[k], pages[k]);
		snprintf(cmd[k], sizeof(cmd[k]), "trace %s", path[k]);
		cmds[k] = cmd[k];
	}
	run_cmds(m, &(struct tree_run){ "ideal", 256 * PAGE_SIZE, swap, specs, cmds, at, n, NULL });
	for (int k = 0; k < n; k++)
		unlink(path[k]);
}

/* /a (64 pages) holds /a/x and /a/y; /c is unlimited.  First dd writes
 * 30 pages of a file in /c, which stay in the page cache, charged to /c;
 * then a trace writes 100 pages in /a/x.  The ideal machine under
 * policy (NULL: clock). */
static void run_ancestor_case(struct machine *m, const char *policy)
{
	char path[32] = "/tmp/pagelab-cgt-XXXXXX", cmd[48];
	trace_file(path, 100);
	snprintf(cmd, sizeof(cmd), "trace %s", path);
	run_cmds(m, &(struct tree_run){ "ideal", 256 * PAGE_SIZE, 1 << 20,
					(const char *const[]){ "/a:max=64p", "/a/x", "/a/y", "/c", NULL },
					(const char *const[]){ "dd if=/dev/zero of=/c.dat bs=4K count=30", cmd },
					(const int[]){ 4, 2 }, 2, policy });
	unlink(path);
}

/* 40 pages in /a/b: /a/b, /a and the root each peak at 40, and all is
 * uncharged at the exit. */
void test_cgtree_hierarchical_charge(void)
{
	struct machine m;
	run_tree(&m, (const char *const[]){ "/a/b:max=1M", NULL }, (uint64_t[]){ 40 }, (int[]){ 2 }, 1, 1 << 20);
	const struct cgtree *t = m.mm.cgt;
	CHECK_EQ(t->cg[2].peak, 40);
	CHECK_EQ(t->cg[1].peak, 40);
	CHECK(t->cg[0].peak >= 40);
	for (int c = 0; c < 3; c++)
		CHECK_EQ(t->cg[c].current, 0);
	CHECK_EQ(m.mm.ev[PSWPOUT], 0);
	machine_free(&m);
}

/* /a (64 pages) holds /a/x and /a/y; /c is unlimited.  First dd writes
 * 30 pages of a file in /c, which stay in the page cache, charged to /c,
 * at the tail of clock's list.  Then 100 pages in /a/x: as
 * test_memcg_hand_checked_clock, the 65th and 97th charges of /a fail
 * (memory.events max 2, in /a, not in its child), and limit reclaim
 * takes 32 pages each time, all /a/x's (pgsteal 64, pswpout 64): /c's
 * pages are outside the subtree and stay, though older. */
void test_cgtree_limit_reclaim_ancestor(void)
{
	struct machine m;
	run_ancestor_case(&m, NULL);
	const struct cgtree *t = m.mm.cgt;
	CHECK_EQ(t->cg[1].events[CGE_MAX], 2);
	CHECK_EQ(t->cg[2].events[CGE_MAX], 0);
	CHECK_EQ(t->cg[1].peak, 64);
	/* page_counter_try_charge() raises each counter's watermark on its
	 * way up and leaves it when an ancestor fails ("we can live with some
	 * inaccuracy in the watermark"): the unlimited child saw 65. */
	CHECK_EQ(t->cg[2].peak, 65);
	CHECK_EQ(t->cg[4].current, 30);
	CHECK_EQ(t->cg[2].stat[CGS_PGSTEAL], 64);
	CHECK_EQ(t->cg[4].stat[CGS_PGSTEAL], 0);
	CHECK_EQ(m.mm.ev[PSWPOUT], 64);
	CHECK_EQ(t->cg[1].events[CGE_OOM], 0);
	machine_free(&m);
}

/* /a: 64 pages, 16 slots of swap.  100 pages: at the 65th charge limit
 * reclaim swaps out 16 pages and then meets memory.swap.max (the rest
 * stay); the 81st charge finds nothing reclaimable: 16 retries, OOM in
 * /a, its one task killed.  Everything is uncharged at the end. */
void test_cgtree_swap_max(void)
{
	struct machine m;
	run_tree(&m, (const char *const[]){ "/a:max=64p,swap.max=16p", NULL }, (uint64_t[]){ 100 }, (int[]){ 1 }, 1,
		 1 << 20);
	const struct cgtree *t = m.mm.cgt;
	CHECK_EQ(m.mm.ev[PSWPOUT], 16);
	/* memory.events max: one per reclaim from /a (try_charge_memcg()
	 * raises it before each), 1 at the 65th charge + 16 retries at the
	 * 81st; not one per failed charge (19). */
	CHECK_EQ(t->cg[1].events[CGE_MAX], 17);
	CHECK_EQ(t->cg[1].events[CGE_OOM], 1);
	CHECK_EQ(t->cg[1].events[CGE_OOM_KILL], 1);
	CHECK_EQ(m.mm.ev[OOM_KILL], 1);
	CHECK_EQ(t->cg[1].current, 0);
	CHECK_EQ(t->cg[1].swap_current, 0);
	machine_free(&m);
}

/* Two usemem -m 6 in /g (8 MB, no swap), side by side on vmm-2008's
 * CPUs: the charge that takes /g past 8 MB OOMs in /g.  Without
 * oom.group the larger task dies and the other finishes; with it both
 * die (oom_kill 2 in /g; mem_cgroup_get_oom_group()). */
void test_cgtree_oom_group(void)
{
	for (int group = 0; group < 2; group++) {
		struct machine m;
		const char *spec = group ? "/g:max=8M,oom.group=1" : "/g:max=8M";
		run_cmds(&m, &(struct tree_run){ "vmm-2008", 64 << 20, 4096, (const char *const[]){ spec, NULL },
						 (const char *const[]){ "usemem -m 6", "usemem -m 6" },
						 (const int[]){ 1, 1 }, 2, NULL });
		const struct cgtree *t = m.mm.cgt;
		CHECK_EQ(t->cg[1].events[CGE_OOM], 1);
		CHECK_EQ(t->cg[1].events[CGE_OOM_KILL], group ? 2 : 1);
		CHECK_EQ(m.wls[0].killed + m.wls[1].killed, group ? 2 : 1);
		CHECK_EQ(t->cg[1].current, 0);
		machine_free(&m);
	}
}

/* The library: pagelab_add_cgroup() and @PATH, the same run as
 * `pagelab run --cgroup`; a bad spec is -1 with one line. */
void test_cgtree_library(void)
{
	pagelab_sim *s = pagelab_new("vmm-2008");
	CHECK(s != NULL);
	CHECK_EQ(pagelab_set(s, "ram", "64M"), 0);
	CHECK_EQ(pagelab_add_cgroup(s, "/a:max=4M"), 0);
	CHECK_EQ(pagelab_add_cgroup(s, "/a:max=8M"), -1);
	CHECK(strstr(pagelab_error(s), "given twice") != NULL);
	CHECK_EQ(pagelab_add_workload(s, 4, (const char *const[]){ "usemem", "-m", "6", "@/b" }), -1);
	CHECK_EQ(pagelab_add_workload(s, 4, (const char *const[]){ "usemem", "-m", "6", "@/a" }), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f && pagelab_run(s) == 0 && pagelab_report(s, f, 1) == 0);
	fclose(f);
	CHECK(strstr(buf, "\"cgroups\": [{\"path\": \"/\", \"memory.max\": \"max\"") != NULL);
	CHECK(strstr(buf, "{\"path\": \"/a\", \"memory.max\": 4194304, \"memory.current\": 0, \"memory.peak\": 4194304")
	      != NULL);
	uint64_t out;
	CHECK_EQ(pagelab_counter(s, "pswpout", &out), 0);
	CHECK(out >= 512);
	free(buf);
	pagelab_free(s);
}

/* Per-cgroup lruvecs (cgtree_lru.c): as test_cgtree_limit_reclaim_ancestor
 * under linux6, which keeps one lruvec per cgroup.  Limit reclaim of /a
 * walks /a, /a/x, /a/y: /c's 30 file pages are on /c's lists and never
 * scanned (pgscan_file 0; with one LRU for the node its inactive file
 * list holds them first), /a/x's pages are scanned in /a/x's lruvec
 * (its own pgscan), and nothing in /c is scanned or stolen. */
void test_cgtree_lruvec_per_cgroup(void)
{
	struct machine m;
	run_ancestor_case(&m, "linux6");
	const struct cgtree *t = m.mm.cgt;
	CHECK(t->per_cg);
	CHECK_EQ(m.mm.ev[PGSCAN_FILE], 0);
	CHECK_EQ(t->cg[4].stat[CGS_PGSCAN] + t->cg[4].stat[CGS_PGSTEAL], 0);
	CHECK_EQ(t->cg[4].current, 30);
	CHECK(t->cg[2].stat[CGS_PGSCAN] > 0);
	CHECK_EQ(t->cg[2].stat[CGS_PGSCAN], m.mm.ev[PGSCAN_ANON]);
	CHECK_EQ(t->cg[1].peak, 64);
	machine_free(&m);
}

/* A policy that only records what the core hands its refault(). */
static void *refault_priv;
static uint64_t refault_shadow;
static uint64_t fake_evict_shadow(void *p, pfn_t pfn)
{
	(void)p;
	return 4 * pfn + 1;
}
static void fake_refault(void *p, pfn_t pfn, uint64_t shadow)
{
	(void)pfn;
	refault_priv = p;
	refault_shadow = shadow;
}

/* workingset_eviction() keeps the memcg id in the shadow and
 * workingset_refault() measures the distance in that memcg's lruvec: a
 * page of /b (id 2) evicted, its shadow refaulting into a page of /a (id
 * 1), is /b's instance's refault, with the policy's own shadow. */
void test_cgtree_shadow_keeps_cgroup(void)
{
	static const struct policy_ops fake = { .name = "fake", .evict_shadow = fake_evict_shadow,
						 .refault = fake_refault };
	struct page pages[2] = { { .memcg = 2 }, { .memcg = 1 } };
	struct cgtree t = { .n = 3, .per_cg = true };
	int inst[3];
	for (int c = 0; c < 3; c++)
		t.priv[c] = &inst[c];
	struct mm mm = { .cgt = &t };
	mm.fr.pages = pages;
	mm.pol.ops = &fake;
	uint64_t shadow = mm_evict_shadow(&mm, 0);
	CHECK_EQ(shadow, (2ULL << 56) | 1);
	mm_refault(&mm, 1, shadow);
	CHECK(refault_priv == &inst[2]);
	CHECK_EQ(refault_shadow, 1);
	/* Without per-cgroup instances the shadow is the policy's alone. */
	t.per_cg = false;
	mm.pol.priv = &inst[0];
	CHECK_EQ(mm_evict_shadow(&mm, 1), 5);
	mm_refault(&mm, 1, 5);
	CHECK(refault_priv == &inst[0]);
}

/* --check's balance: a counter off by one page, in a cgroup or in its
 * swap, fails with one line naming the cgroup. */
void test_cgtree_check_catches_imbalance(void)
{
	struct machine m;
	run_tree(&m, (const char *const[]){ "/a/b:max=1M", NULL }, (uint64_t[]){ 40 }, (int[]){ 2 }, 1, 1 << 20);
	struct cgtree *t = m.mm.cgt;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(mm_check(&m.mm, f));
	t->cg[1].current++;
	CHECK(!mm_check(&m.mm, f));
	t->cg[1].current--;
	t->cg[2].swap_current++;
	CHECK(!mm_check(&m.mm, f));
	t->cg[2].swap_current--;
	fclose(f);
	CHECK(strstr(buf, "check: cgroup /a: memory.current 1 but its pages and its children's add up to 0\n") != NULL);
	CHECK(strstr(buf, "check: cgroup /a/b: memory.swap.current 1 but") != NULL);
	free(buf);
	machine_free(&m);
}
