/* test_plugin_abi2.c - the plugin interface's version 2 callbacks
 * (include/pagelab_policy.h, docs/bpf-hooks.md): admit() (cache_ext's
 * admit_folio), cgroup_init() / cgroup_exit() (its per-memcg init and
 * exit), sc->cgroup and pagelab_page_cgroup(), each counted exactly on
 * a tiny run through libpagelab's pagelab_set_policy_struct(); a version
 * 1 struct (ending at check, garbage after it) runs unchanged, and
 * versions the host does not have are refused with one line.
 * Milliseconds. */
#include "test.h"
#include "../include/pagelab.h"
#include "../include/pagelab_policy.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

void test_plugin_abi2_admit_counts(void);
void test_plugin_abi2_cgroup_hooks(void);
void test_plugin_abi2_cgroup_init_fails(void);
void test_plugin_abi2_v1_struct_runs(void);
void test_plugin_abi2_versions_refused(void);

/* What the hooks saw, reset before each run. */
static struct {
	int admit_ret;            /* what admit() answers */
	uint64_t admits, adds, removes, shrinks;
	uint64_t shrinks_cg[4];   /* shrink() passes by sc->cgroup (0..3) */
	uint64_t adds_cg[4];      /* add() by pagelab_page_cgroup() */
	int cginit_ret;           /* what cgroup_init() answers */
	char log[256];            /* "i1p0/a i2p1/a/b ... x3 x2 x1" */
} seen;

struct fifo {
	struct pagelab_mm *mm;
	int list;
};

static void *fifo_init(struct pagelab_mm *mm, const double *tun)
{
	(void)tun;
	struct fifo *f = calloc(1, sizeof(*f));
	if (!f)
		abort();
	f->mm = mm;
	f->list = pagelab_lru_register(mm, "fifo");
	return f;
}

static void fifo_destroy(void *p) { free(p); }

static void fifo_add(void *p, pagelab_pfn pfn, enum pagelab_add_reason why)
{
	struct fifo *f = p;
	(void)why;
	int cg = pagelab_page_cgroup(f->mm, pfn);
	seen.adds++;
	seen.adds_cg[cg < 4 ? cg : 3]++;
	pagelab_lru_add_head(f->mm, f->list, pfn);
}

static void fifo_remove(void *p, pagelab_pfn pfn)
{
	struct fifo *f = p;
	seen.removes++;
	pagelab_lru_del(f->mm, pfn);
}

static void fifo_shrink(void *p, struct pagelab_scan *sc)
{
	struct fifo *f = p;
	seen.shrinks++;
	seen.shrinks_cg[sc->cgroup >= 0 && sc->cgroup < 4 ? sc->cgroup : 3]++;
	uint64_t budget = pagelab_lru_count(f->mm, f->list);
	while (sc->nr_reclaimed < sc->nr_to_reclaim && budget--) {
		pagelab_pfn pfn = pagelab_lru_tail(f->mm, f->list);
		pagelab_lru_del(f->mm, pfn);
		enum pagelab_evict_result r = pagelab_evict(f->mm, sc, pfn);
		if (r == PAGELAB_EVICT_REFUSED || r == PAGELAB_EVICT_NOSWAP)
			pagelab_lru_add_head(f->mm, f->list, pfn);
	}
}

static bool fifo_admit(void *p, pagelab_pfn pfn)
{
	struct fifo *f = p;
	/* The page is a page-cache page already, not the policy's yet. */
	if (!(pagelab_page_state(f->mm, pfn) & PAGELAB_PAGE_ANON))
		seen.admits++;
	return seen.admit_ret;
}

static void logf_(const char *s)
{
	strncat(seen.log, s, sizeof(seen.log) - strlen(seen.log) - 1);
}

static int fifo_cgroup_init(void *p, int cg, int parent, const char *path)
{
	(void)p;
	char b[64];
	snprintf(b, sizeof(b), "i%dp%d%s ", cg, parent, path);
	logf_(b);
	return seen.cginit_ret;
}

static void fifo_cgroup_exit(void *p, int cg)
{
	(void)p;
	char b[16];
	snprintf(b, sizeof(b), "x%d ", cg);
	logf_(b);
}

static const struct pagelab_policy fifo2 = {
	.abi = PAGELAB_POLICY_ABI, .name = "fifo2", .summary = "FIFO with version 2 hooks (a test)",
	.init = fifo_init, .destroy = fifo_destroy, .add = fifo_add, .remove = fifo_remove,
	.shrink = fifo_shrink, .admit = fifo_admit, .cgroup_init = fifo_cgroup_init,
	.cgroup_exit = fifo_cgroup_exit,
};

/* dd reading a 1M file (256 pages) twice, the second 1 s later, on 64M:
 * no reclaim.  Returns pagelab_run()'s status; *pgpgin in KB. */
static int run_dd_twice(const struct pagelab_policy *pol, uint64_t *pgpgin)
{
	static const char *const w[] = { "dd", "if=data", "bs=64K", "count=16", "of=/dev/null" };
	pagelab_sim *s = pagelab_new("vmm-2008");
	CHECK(s != NULL);
	CHECK(pagelab_set(s, "ram", "64M") == 0);
	CHECK(pagelab_set(s, "make-inputs", "1") == 0);
	CHECK(pagelab_set_policy_struct(s, pol) == 0);
	CHECK(pagelab_add_workload(s, 5, w) == 0);
	CHECK(pagelab_add_workload(s, 5, w) == 0);
	CHECK(pagelab_set(s, "start.1", "1") == 0);
	int rc = pagelab_run(s);
	CHECK(pagelab_counter(s, "pgpgin", pgpgin) == 0);
	pagelab_free(s);
	return rc;
}

/* Admitted: 256 pages asked once, read once, kept (the second dd hits).
 * Refused: each read brings its 256 pages in again (asked again) and
 * drops each once copied: 512 adds, 512 removes, twice the reads. */
void test_plugin_abi2_admit_counts(void)
{
	uint64_t in = 0;
	memset(&seen, 0, sizeof(seen));
	seen.admit_ret = 1;
	CHECK_EQ(run_dd_twice(&fifo2, &in), 0);
	CHECK_EQ(seen.admits, 256);
	CHECK_EQ(in, 1024);
	CHECK_EQ(seen.removes, 0);
	uint64_t kept_adds = seen.adds;

	memset(&seen, 0, sizeof(seen));
	seen.admit_ret = 0;
	CHECK_EQ(run_dd_twice(&fifo2, &in), 0);
	CHECK_EQ(seen.admits, 512);
	CHECK_EQ(in, 2048);
	CHECK_EQ(seen.adds, kept_adds + 256);
	CHECK_EQ(seen.removes, 512);
	CHECK_EQ(seen.shrinks, 0);
}

/* A tree /a (8M), /a/b, /c; usemem of 12M in /a/b on 64M of RAM: each
 * cgroup set up once, parents first, torn down children first; every
 * anonymous page is /a/b's, and every reclaim pass is /a's limit's. */
void test_plugin_abi2_cgroup_hooks(void)
{
	static const char *const w[] = { "usemem", "-m", "12", "@/a/b" };
	memset(&seen, 0, sizeof(seen));
	seen.admit_ret = 1;
	pagelab_sim *s = pagelab_new("vmm-2008");
	CHECK(pagelab_set(s, "ram", "64M") == 0);
	CHECK(pagelab_set(s, "swap", "32M") == 0);
	CHECK(pagelab_set_policy_struct(s, &fifo2) == 0);
	CHECK(pagelab_add_cgroup(s, "/a:max=8M") == 0);
	CHECK(pagelab_add_cgroup(s, "/a/b") == 0);
	CHECK(pagelab_add_cgroup(s, "/c") == 0);
	CHECK(pagelab_add_workload(s, 4, w) == 0);
	CHECK_EQ(pagelab_run(s), 0);
	pagelab_free(s);
	CHECK(strcmp(seen.log, "i1p0/a i2p1/a/b i3p0/c x3 x2 x1 ") == 0);
	CHECK_EQ(seen.adds_cg[2], 3072);
	CHECK_EQ(seen.adds_cg[0] + seen.adds_cg[1] + seen.adds_cg[3], 0);
	CHECK(seen.shrinks_cg[1] > 0);
	CHECK_EQ(seen.shrinks, seen.shrinks_cg[1]);
}

/* cgroup_init() that cannot start ends the run with one line. */
void test_plugin_abi2_cgroup_init_fails(void)
{
	static const char *const w[] = { "usemem", "-m", "1", "@/a" };
	static struct pagelab_policy failing;
	failing = fifo2;
	failing.name = "cgfail";
	memset(&seen, 0, sizeof(seen));
	seen.cginit_ret = -12;
	pagelab_sim *s = pagelab_new("vmm-2008");
	CHECK(pagelab_set(s, "ram", "16M") == 0);
	CHECK(pagelab_set_policy_struct(s, &failing) == 0);
	CHECK(pagelab_add_cgroup(s, "/a") == 0);
	CHECK(pagelab_add_workload(s, 4, w) == 0);
	CHECK_EQ(pagelab_run(s), -1);
	CHECK(strcmp(pagelab_error(s), "plugin memory:cgfail: cgroup_init: returned -12 for cgroup 1 (/a): it "
		     "could not start") == 0);
	pagelab_free(s);
}

/* A version 1 struct ends at check: what follows it in memory is not
 * its.  Garbage there must not be read as hooks (a call through it
 * would crash the test): the run is the same as with no v2 hooks. */
void test_plugin_abi2_v1_struct_runs(void)
{
	static union {
		struct pagelab_policy pol;
		unsigned char raw[sizeof(struct pagelab_policy)];
	} v1;
	size_t end = offsetof(struct pagelab_policy, check) + sizeof(v1.pol.check);
	CHECK_EQ(end, offsetof(struct pagelab_policy, admit));
	memset(v1.raw, 0xA5, sizeof(v1.raw));
	memcpy(v1.raw, &fifo2, end);
	v1.pol.abi = 1;
	v1.pol.name = "fifo1";
	memset(&seen, 0, sizeof(seen));
	seen.admit_ret = 0;
	uint64_t in = 0;
	CHECK_EQ(run_dd_twice(&v1.pol, &in), 0);
	CHECK_EQ(seen.admits, 0);
	CHECK_EQ(in, 1024);       /* every page admitted: the second dd hits */
	CHECK_EQ(seen.removes, 0);
}

static void refused(int abi, const char *want)
{
	static struct pagelab_policy bad;
	bad = fifo2;
	bad.name = "ver";
	bad.abi = abi;
	pagelab_sim *s = pagelab_new("ideal");
	CHECK(pagelab_set_policy_struct(s, &bad) == -1);
	if (strcmp(pagelab_error(s), want)) {
		fprintf(stderr, "got: %s\n", pagelab_error(s));
		CHECK(0);
	}
	pagelab_free(s);
}

void test_plugin_abi2_versions_refused(void)
{
	refused(PAGELAB_POLICY_ABI_LATEST + 1, "memory:ver: built for policy interface version 3, newer than this "
		"pagelab's 2 (rebuild it against this pagelab_policy.h)");
	refused(0, "memory:ver: built for policy interface version 0, which no pagelab has (abi = "
		"PAGELAB_POLICY_ABI)");
}
