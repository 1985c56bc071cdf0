/* test_dropbehind_write.c - dropbehind of written pages: the plugin's
 * admit() (cache_ext's admit_folio) is asked for each page a write()
 * creates too, and a page it refuses, or one an RWF_DONTCACHE write
 * creates (fileio -D), goes when its writeback ends (6.17
 * folio_end_dropbehind(), src/mm/filemap.c).  A tiny run, counted
 * exactly: fileio writing 64 pages of a new file and fsyncing it, on
 * 64M (no reclaim).  Milliseconds. */
#include "test.h"
#include "../include/pagelab.h"
#include "../include/pagelab_policy.h"

#include <stdlib.h>
#include <string.h>

void test_dropbehind_write_admit_asked(void);
void test_dropbehind_write_dontcache(void);

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
