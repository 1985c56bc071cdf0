/* test_dropbehind_write.c - dropbehind of written pages: the plugin's
 * admit() (cache_ext's admit_folio) is asked for each page a write()
 * creates too, and a page it refuses, or one an RWF_DONTCACHE write
 * creates (fileio -D), goes when its writeback ends (6.17
 * folio_end_dropbehind(), src/mm/filemap.c).  A tiny run, counted
 * exactly: fileio writing 64 pages of a new file and fsyncing it, on
 * 64M (no reclaim); and a hand-built mm whose writes end when the test
 * says, for pages written again during their writeback.  Milliseconds. */
#include "test.h"
#include "../include/pagelab.h"
#include "../include/pagelab_policy.h"
#include "../src/mm/internal.h"
#include "../src/mm/filemap.h"
#include "../src/policy/policy.h"

#include <stdlib.h>
#include <string.h>

void test_dropbehind_write_admit_asked(void);
void test_dropbehind_write_dontcache(void);
void test_dropbehind_write_redirtied(void);

static struct {
	bool admit;                 /* what admit() answers */
	uint64_t admits, adds, removes;
} hk;

struct keep {
	struct pagelab_mm *mm;
	int list;
};

static void *keep_init(struct pagelab_mm *mm, const double *tun)
{
	(void)tun;
	struct keep *k = malloc(sizeof(*k));
	if (!k)
		abort();
	k->mm = mm;
	k->list = pagelab_lru_register(mm, "keep");
	return k;
}

static void keep_destroy(void *p) { free(p); }

static void keep_add(void *p, pagelab_pfn pfn, enum pagelab_add_reason why)
{
	struct keep *k = p;
	(void)why;
	hk.adds++;
	pagelab_lru_add_tail(k->mm, k->list, pfn);
}

static void keep_remove(void *p, pagelab_pfn pfn)
{
	struct keep *k = p;
	hk.removes++;
	pagelab_lru_del(k->mm, pfn);
}

/* 64 pages of 64M: never asked to reclaim. */
static void keep_shrink(void *p, struct pagelab_scan *sc)
{
	(void)p;
	(void)sc;
}

static bool keep_admit(void *p, pagelab_pfn pfn)
{
	(void)p;
	(void)pfn;
	hk.admits++;
	return hk.admit;
}

static const struct pagelab_policy keep = {
	.abi = PAGELAB_POLICY_ABI, .name = "keep", .summary = "keeps every page; admit() as told (a test)",
	.init = keep_init, .destroy = keep_destroy, .add = keep_add, .remove = keep_remove,
	.shrink = keep_shrink, .admit = keep_admit,
};

/* fileio with `flags` (-w -f, or -w -D -f) writing 64 pages: the pages
 * freed (pgfree: with no reclaim and no exit of a mapping, only a page
 * dropped behind) and the KB written. */
static void run_write(const char *flags, bool plugin, uint64_t *freed, uint64_t *out)
{
	const char *const w[] = { "fileio", flags, "f", "64p" };
	pagelab_sim *s = pagelab_new("vmm-2008");
	CHECK(s != NULL);
	CHECK(pagelab_set(s, "ram", "64M") == 0);
	if (plugin)
		CHECK(pagelab_set_policy_struct(s, &keep) == 0);
	else
		CHECK(pagelab_set_policy(s, "linux6") == 0);
	CHECK(pagelab_add_workload(s, 4, w) == 0);
	CHECK_EQ(pagelab_run(s), 0);
	CHECK(pagelab_counter(s, "pgfree", freed) == 0);
	CHECK(pagelab_counter(s, "pgpgout", out) == 0);
	pagelab_free(s);
}

/* Admitted: each of the 64 pages the writes create is asked once and
 * stays.  Refused: asked as well, written (256 KB out) and dropped as
 * its writeback ends: 64 removes, 64 frees. */
void test_dropbehind_write_admit_asked(void)
{
	uint64_t freed, out;
	memset(&hk, 0, sizeof(hk));
	hk.admit = true;
	run_write("-wf", true, &freed, &out);
	CHECK_EQ(hk.admits, 64);
	CHECK_EQ(hk.adds, 64);
	CHECK_EQ(hk.removes, 0);
	CHECK_EQ(out, 256);

	memset(&hk, 0, sizeof(hk));
	hk.admit = false;
	run_write("-wf", true, &freed, &out);
	CHECK_EQ(hk.admits, 64);
	CHECK_EQ(hk.adds, 64);
	CHECK_EQ(hk.removes, 64);
	CHECK_EQ(freed, 64);
	CHECK_EQ(out, 256);
}

/* RWF_DONTCACHE under a built-in policy: the same 64 pages written and
 * dropped at their writeback's end; plain writes keep them. */
void test_dropbehind_write_dontcache(void)
{
	uint64_t freed, out;
	run_write("-wDf", false, &freed, &out);
	CHECK_EQ(freed, 64);
	CHECK_EQ(out, 256);
	run_write("-wf", false, &freed, &out);
	CHECK_EQ(freed, 0);
	CHECK_EQ(out, 256);
}

/* A disk whose writes end when the test says. */
static pfn_t queued[8];
static unsigned nqueued;

static void hold_write(void *arg, enum io_dir dir, uint64_t block, pfn_t pfn, uint64_t t)
{
	(void)arg; (void)block; (void)t;
	if (dir == IO_WRITE && nqueued < 8)
		queued[nqueued++] = pfn;
}

static void end_writes(struct mm *mm)
{
	for (unsigned i = 0; i < nqueued; i++)
		mm_io_done(mm, IO_WRITE, queued[i]);
	nqueued = 0;
}

/* 4 pages written uncached, their writeback kicked; while it runs, a
 * plain write to page 0 (__filemap_get_folio() without FGP_DONTCACHE
 * clears the flag) and an uncached one to page 1 dirty them again.  At
 * the writeback's end pages 2 and 3 go; 0 stays for good; 1 stays dirty
 * and flagged, and goes when its own writeback ends. */
void test_dropbehind_write_redirtied(void)
{
	struct mm mm;
	struct mm_costs cost;
	memset(&cost, 0, sizeof(cost));
	struct mm_config cfg = { .ram_pages = 256, .swap_pages = 0 };
	mm_init(&mm, &cfg, &cost);
	mm_set_policy(&mm, policy_find("lru"), NULL);
	struct mm_ctx ctx = { .task = -1, .wait_pfn = PFN_NONE };
	mm.cur = &ctx;
	mm.io = (struct mm_io){ .submit_block = hold_write };
	nqueued = 0;
	enum fault_status st;
	struct inode *ino = filemap_create(&mm, &ctx, "f");
	CHECK_EQ(filemap_write_rwf(&mm, &ctx, ino, 0, 4, true, UINT64_MAX / 2, &st), 4);
	filemap_writeback_range(&mm, &ctx, ino, 0, 4);
	CHECK_EQ(nqueued, 4);
	CHECK_EQ(filemap_write(&mm, &ctx, ino, 0, 1, UINT64_MAX / 2, &st), 1);
	CHECK_EQ(filemap_write_rwf(&mm, &ctx, ino, 1, 1, true, UINT64_MAX / 2, &st), 1);
	pfn_t p0 = pc_page(ino, 0), p1 = pc_page(ino, 1);
	CHECK(!(mm_page(&mm, p0)->flags & PG_dropbehind));
	CHECK(mm_page(&mm, p1)->flags & PG_dropbehind);
	end_writes(&mm);
	CHECK_EQ(ino->nrpages, 2);
	CHECK_EQ(pc_page(ino, 0), p0);
	CHECK_EQ(pc_page(ino, 1), p1);
	CHECK_EQ(pc_page(ino, 2), PFN_NONE);
	CHECK_EQ(pc_page(ino, 3), PFN_NONE);
	filemap_writeback_range(&mm, &ctx, ino, 0, 4);
	CHECK_EQ(nqueued, 2);
	end_writes(&mm);
	CHECK_EQ(ino->nrpages, 1);
	CHECK_EQ(pc_page(ino, 0), p0);
	CHECK_EQ(pc_page(ino, 1), PFN_NONE);
	mm_destroy(&mm);
}
