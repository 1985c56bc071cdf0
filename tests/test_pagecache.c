/* test_pagecache.c - the page cache on small hand-checked cases: readahead
 * windows, hits, clean and dirty eviction, shadow entries and refaults,
 * truncate, shared and private file mappings, O_DIRECT, unevictable files,
 * swap readahead, and the textbook policies with file pages under --check. */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/mm/filemap.h"
#include "../src/policy/textbook.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <stdlib.h>
#include <string.h>

/* ---- a FIFO that keeps shadow entries, to watch refaults -------------- */

struct shfifo { struct mm *mm; int list; uint64_t clock, stored, refaults, add_refault, add_cache, marked; };
static struct shfifo *the_shfifo;

static void *sh_init(struct mm *mm, const double *tun)
{
	(void)tun;
	struct shfifo *f = xcalloc(1, sizeof(*f));
	f->mm = mm;
	f->list = lru_register(&mm->fr, "shfifo");
	the_shfifo = f;
	return f;
}
static void sh_destroy(void *p) { free(p); }
static void sh_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct shfifo *f = p;
	f->add_refault += why == ADD_REFAULT;
	f->add_cache += why == ADD_PAGECACHE;
	lru_add_head(&f->mm->fr, f->list, pfn);
}
static void sh_mark(void *p, pfn_t pfn) { (void)pfn; ((struct shfifo *)p)->marked++; }
static void sh_remove(void *p, pfn_t pfn) { lru_del(&((struct shfifo *)p)->mm->fr, pfn); }
static void sh_shrink(void *p, struct scan_control *sc)
{
	struct shfifo *f = p;
	struct frames *fr = &f->mm->fr;
	uint64_t budget = lru_count(fr, f->list);
	while (sc->nr_reclaimed < sc->nr_to_reclaim && budget--) {
		pfn_t pfn = lru_tail(fr, f->list);
		lru_del(fr, pfn);
		enum victim_outcome o = textbook_evict(f->mm, sc, pfn);
		if (o == VICTIM_REFUSED || o == VICTIM_NOSWAP)
			lru_add_head(fr, f->list, pfn);
		if (o == VICTIM_NOSWAP)
			break;
	}
}
static uint64_t sh_evict_shadow(void *p, pfn_t pfn)
{
	struct shfifo *f = p;
	(void)pfn;
	f->stored++;
	return ++f->clock;
}
static void sh_refault(void *p, pfn_t pfn, uint64_t shadow)
{
	struct shfifo *f = p;
	(void)pfn;
	if (shadow && shadow <= f->clock)
		f->refaults++;
}
static const struct policy_ops shfifo_policy = {
	.name = "shfifo", .summary = "test: fifo with shadow entries",
	.init = sh_init, .destroy = sh_destroy, .add = sh_add, .remove = sh_remove,
	.shrink = sh_shrink, .mark_accessed = sh_mark, .evict_shadow = sh_evict_shadow, .refault = sh_refault,
};

/* ---- running a workload ---------------------------------------------- */

struct pcrun {
	uint64_t ev[NR_VM_EVENTS];
	uint64_t nr_file, nr_dirty, nr_anon, requests, cold_shadows, cold_pages;
	bool check_failed;
};

/* Run `cmd` (a workload command line, words separated by spaces; several
 * workloads joined by " + ") on vmm-2008 with `ram` bytes under `policy`
 * with --check.  If cold_pages, a file "cold" of that many pages exists on
 * the disk beforehand, not cached.  `after` (optional) runs on the machine
 * before it is freed. */
static void run(const char *policy, uint64_t ram, const char *cmd, uint64_t cold_pages,
		const char *const *sets, void (*after)(struct machine *), struct pcrun *r)
{
	struct profile prof = *profile_find("vmm-2008");
	prof.ram = ram;
	prof.swap = 64ULL << 20;
	char err[256];
	for (int i = 0; sets && sets[i]; i += 2)
		if (!profile_set(&prof, sets[i], sets[i + 1], err, sizeof(err)))
			panic("%s", err);
	struct machine_opts mo = { .seed = 1, .check = true, .max_time_ns = 10000ULL * 1000000000ULL };
	struct machine m;
	if (!machine_init(&m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	const struct policy_ops *pol = !strcmp(policy, "shfifo") ? &shfifo_policy : policy_find(policy);
	double tun[16] = { 0 };
	for (int t = 0; t < policy_nr_tunables(pol); t++)
		tun[t] = pol->tunables[t].def;
	machine_set_policy(&m, pol, tun);
	if (cold_pages) {
		struct inode *ino = filemap_create(&m.mm, NULL, "cold");
		filemap_extend(&m.mm, ino, cold_pages);
	}
	char *buf = xstrdup(cmd);
	char *argv[32];
	int argc = 0;
	char *save = NULL;
	for (char *w = strtok_r(buf, " ", &save);; w = strtok_r(NULL, " ", &save)) {
		if (!w || !strcmp(w, "+")) {
			argv[argc] = NULL;
			const struct workload_ops *wo = workload_find(argv[0]);
			void *wl = wo->create(argc, argv, 1, err, sizeof(err));
			if (!wl)
				panic("%s", err);
			machine_add_workload(&m, wo, wl, argv[0]);
			argc = 0;
			if (!w)
				break;
			continue;
		}
		argv[argc++] = w;
	}
	machine_run(&m);
	memset(r, 0, sizeof(*r));
	memcpy(r->ev, m.mm.ev, sizeof(r->ev));
	r->nr_file = m.mm.stat.nr_file;
	r->nr_dirty = m.mm.stat.nr_dirty;
	r->nr_anon = m.mm.stat.nr_anon;
	r->requests = m.disk.nr_requests;
	r->check_failed = m.check_failed;
	struct inode *cold = filemap_lookup(&m.mm, "cold");
	if (cold) {
		r->cold_shadows = cold->nrshadows;
		r->cold_pages = cold->nrpages;
	}
	if (after)
		after(&m);
	CHECK(m.live_user == 0);
	machine_free(&m);
	free(buf);
}

#define BIG_RAM (64ULL << 20)    /* 14112 pages for the allocator: no pressure */
#define SMALL_RAM (16ULL << 20)  /* 1989 pages: a 3000-page file does not fit */

void test_pagecache_readahead(void);
void test_pagecache_readahead(void)
{
	struct pcrun r;
	/* 64 one-page reads of a cold file.  2.6 windows: 4 pages at the
	 * start (1 page asked, x4), then 8, 16, 32 and the 4 left, each page
	 * inserted once.  Reaching a window's PG_readahead page submits the
	 * next window; the marker of the third (12) and fifth (60) windows is
	 * met while the second/fourth is still plugged in the disk queue, so
	 * they merge: requests 0-3, 4-27, 28-63. */
	run("clock", BIG_RAM, "fileio cold 64p", 64, NULL, NULL, &r);
	CHECK(!r.check_failed);
	CHECK_EQ(r.ev[PGALLOC], 64);
	CHECK_EQ(r.ev[PGPGIN], 64 * 4);
	CHECK_EQ(r.requests, 3);
	CHECK_EQ(r.nr_file, 64);
	CHECK_EQ(r.ev[PGMAJFAULT], 0);
	/* Three passes: the second and third hit in the cache. */
	run("clock", BIG_RAM, "fileio -r 3 cold 64p", 64, NULL, NULL, &r);
	CHECK_EQ(r.ev[PGALLOC], 64);
	CHECK_EQ(r.requests, 3);
	/* A fixed window, ra_init_pages = ra_pages = 8: 8 windows of 8, the
	 * 2nd+3rd, 4th+5th, 6th+7th merging as above: 5 requests. */
	static const char *const ra8[] = { "vm.ra_pages", "8", "vm.ra_init_pages", "8", NULL };
	run("clock", BIG_RAM, "fileio cold 64p", 64, ra8, NULL, &r);
	CHECK_EQ(r.requests, 5);
	CHECK_EQ(r.ev[PGPGIN], 64 * 4);
	/* No readahead: one request per page (each read waits for the last). */
	static const char *const ra0[] = { "vm.ra_pages", "0", NULL };
	run("clock", BIG_RAM, "fileio cold 64p", 64, ra0, NULL, &r);
	CHECK_EQ(r.requests, 64);
	/* Reads of 16 pages: the initial window is the maximum, 32 (16 is
	 * above max/4), then 32 and 32, the last two merged: 2 requests. */
	run("clock", BIG_RAM, "fileio -b 16 cold 96p", 96, NULL, NULL, &r);
	CHECK_EQ(r.ev[PGALLOC], 96);
	CHECK_EQ(r.requests, 2);
	/* The raw disk is a file too: its pages are vmstat's "buff". */
	run("clock", BIG_RAM, "fileio /dev/sda 64p", 0, NULL, NULL, &r);
	CHECK_EQ(r.requests, 3);
	/* The disk is larger than what was read: the window 60-91 is read
	 * whole, and its marker at 60 brings 92-123 too. */
	CHECK_EQ(r.ev[PGALLOC], 124);
}

void test_pagecache_evict_clean_dirty(void);
void test_pagecache_evict_clean_dirty(void)
{
	struct pcrun r;
	/* Streaming a 3000-page file through 1989 frames: clean file pages
	 * are dropped without any write, and each page is read once. */
	run("clock", SMALL_RAM, "fileio cold 3000p", 3000, NULL, NULL, &r);
	CHECK(!r.check_failed);
	CHECK(r.ev[PGSTEAL_KSWAPD] + r.ev[PGSTEAL_DIRECT] > 1000);
	CHECK_EQ(r.ev[PGPGOUT], 0);
	CHECK_EQ(r.ev[PSWPOUT], 0);
	CHECK_EQ(r.ev[PGPGIN], 3000 * 4);
	/* Writing 3000 new pages: every page is written exactly once (by the
	 * flusher, a throttled writer or reclaim), never swapped; with fsync
	 * at the end nothing stays dirty. */
	run("clock", SMALL_RAM, "fileio -w -f newfile 3000p", 0, NULL, NULL, &r);
	CHECK(!r.check_failed);
	CHECK_EQ(r.ev[PGPGOUT], 3000 * 4);
	CHECK_EQ(r.ev[PSWPOUT], 0);
	CHECK_EQ(r.nr_dirty, 0);
	CHECK(r.ev[NR_DIRTY_THROTTLED] > 0);
	/* Without fsync: written pages + still dirty ones = all of them. */
	run("fifo", SMALL_RAM, "fileio -w newfile 3000p", 0, NULL, NULL, &r);
	CHECK(!r.check_failed);
	CHECK_EQ(r.ev[PGPGOUT] / 4 + r.nr_dirty, 3000);
	/* Fits in RAM and is short: the flusher's 30 s expiry never came. */
	run("clock", BIG_RAM, "fileio -w newfile 100p", 0, NULL, NULL, &r);
	CHECK_EQ(r.ev[PGPGOUT], 0);
	CHECK_EQ(r.nr_dirty, 100);
}

static void truncate_cold(struct machine *m)
{
	struct inode *ino = filemap_lookup(&m->mm, "cold");
	CHECK(ino->nrshadows > 0);
	filemap_truncate(&m->mm, NULL, ino, 100);
	CHECK_EQ(ino->nrshadows, 100); /* pages 0..99 were evicted: only theirs stay */
	filemap_truncate(&m->mm, NULL, ino, 0);
	CHECK_EQ(ino->nrshadows, 0);
	CHECK_EQ(ino->nrpages, 0);
	CHECK_EQ(m->mm.stat.nr_file, 0);
	CHECK(mm_check(&m->mm, stderr));
}

void test_pagecache_shadows(void);
void test_pagecache_shadows(void)
{
	struct pcrun r;
	/* Pass 1 inserts 3000 pages and evicts (with a shadow) all but those
	 * resident at the end; in pass 2 the FIFO evicts each page before it
	 * is reached again, so every one of the 3000 inserts finds a shadow:
	 * refault() then add(ADD_REFAULT). */
	run("shfifo", SMALL_RAM, "fileio -r 2 cold 3000p", 3000, NULL, NULL, &r);
	CHECK(!r.check_failed);
	CHECK_EQ(r.ev[PGALLOC], 6000);
	CHECK_EQ(r.cold_pages + r.cold_shadows, 3000);
	CHECK_EQ(r.ev[PGPGOUT], 0);
	/* Shadows never outlive the data: truncate drops them. */
	run("shfifo", SMALL_RAM, "fileio cold 3000p", 3000, NULL, truncate_cold, &r);
	CHECK(!r.check_failed);
	/* Unlink at the end: the inode, its pages and shadows are gone. */
	run("shfifo", SMALL_RAM, "fileio -u cold 3000p", 3000, NULL, NULL, &r);
	CHECK(!r.check_failed);
	CHECK_EQ(r.nr_file, 0);
}

static struct { uint64_t refaults, add_refault, add_cache, stored, marked; } shf;
static void grab_shfifo(struct machine *m)
{
	(void)m;
	shf.refaults = the_shfifo->refaults;
	shf.add_refault = the_shfifo->add_refault;
	shf.add_cache = the_shfifo->add_cache;
	shf.stored = the_shfifo->stored;
	shf.marked = the_shfifo->marked;
}

void test_pagecache_mark_accessed(void);
void test_pagecache_mark_accessed(void)
{
	struct pcrun r;
	/* mark_page_accessed() once per page per read()/write(), never for
	 * readahead pages nobody read, nor for faults on mappings. */
	run("shfifo", BIG_RAM, "fileio -r 3 -b 4 cold 64p", 64, NULL, grab_shfifo, &r);
	CHECK_EQ(shf.marked, 3 * 64);
	CHECK_EQ(shf.add_cache, 64);
	run("shfifo", BIG_RAM, "fileio -w new 100p", 0, NULL, grab_shfifo, &r);
	CHECK_EQ(shf.marked, 100);
	run("shfifo", BIG_RAM, "fileio /dev/sda 64p", 0, NULL, grab_shfifo, &r);
	CHECK_EQ(shf.marked, 64);
	CHECK_EQ(shf.add_cache, 124);
	run("shfifo", BIG_RAM, "fileio -m -r 2 cold 64p", 64, NULL, grab_shfifo, &r);
	CHECK_EQ(shf.marked, 0);
	run("shfifo", BIG_RAM, "fileio -d cold 64p", 64, NULL, grab_shfifo, &r);
	CHECK_EQ(shf.marked, 0);
	CHECK_EQ(shf.add_cache, 0);
}

void test_pagecache_refault_calls(void);
void test_pagecache_refault_calls(void)
{
	struct pcrun r;
	run("shfifo", SMALL_RAM, "fileio -r 2 cold 3000p", 3000, NULL, grab_shfifo, &r);
	CHECK_EQ(shf.add_cache, 3000);
	CHECK_EQ(shf.add_refault, 3000);
	CHECK_EQ(shf.refaults, 3000);
	CHECK_EQ(shf.stored, 6000 - r.cold_pages);
	/* Re-reading a file that fits: no eviction, no shadow, no refault. */
	run("shfifo", BIG_RAM, "fileio -r 2 cold 300p", 300, NULL, grab_shfifo, &r);
	CHECK_EQ(shf.stored, 0);
	CHECK_EQ(shf.refaults, 0);
	CHECK_EQ(shf.add_cache, 300);
}

void test_pagecache_mmap(void);
void test_pagecache_mmap(void)
{
	struct pcrun r;
	/* Writes through a shared mapping of a new 100-page file dirty the
	 * file: the dirty bits reach the pages when the mapping goes. */
	run("clock", BIG_RAM, "fileio -w -m -s new 100p", 0, NULL, NULL, &r);
	CHECK(!r.check_failed);
	CHECK_EQ(r.nr_dirty, 100);
	CHECK_EQ(r.ev[PGPGOUT], 0);
	CHECK_EQ(r.ev[PGFAULT], 100);
	/* Read-around of 32 pages centred on the fault: majors at 0 (0..31),
	 * 32 (32..47), 48, 64, 80, 96. */
	CHECK_EQ(r.ev[PGMAJFAULT], 6);
	/* ... and fsync writes them (page_mkclean) and waits. */
	run("clock", BIG_RAM, "fileio -w -m -s -f new 100p", 0, NULL, NULL, &r);
	CHECK_EQ(r.nr_dirty, 0);
	CHECK_EQ(r.ev[PGPGOUT], 400);
	/* MAP_PRIVATE writes copy each page into an anonymous one: the file
	 * stays clean. */
	run("clock", BIG_RAM, "fileio -w -m new 100p", 0, NULL, NULL, &r);
	CHECK(!r.check_failed);
	CHECK_EQ(r.nr_dirty, 0);
	CHECK_EQ(r.ev[PGALLOC], 200);
	CHECK_EQ(r.nr_anon, 0); /* freed at exit */
	CHECK_EQ(r.nr_file, 100);
	/* Reading a cold file through a mapping: 64 pages, majors at 0
	 * (0..31) and 32 (32..47), 48 (48..63). */
	run("clock", BIG_RAM, "fileio -m cold 64p", 64, NULL, NULL, &r);
	CHECK_EQ(r.ev[PGMAJFAULT], 3);
	CHECK_EQ(r.ev[PGPGIN], 64 * 4);
	/* Two processes mapping one file share its pages (rmap over both),
	 * under memory pressure from a third. */
	run("clock", SMALL_RAM, "fileio -m -r 3 cold 1000p + fileio -m -s -r 3 cold 1000p + usemem 6M",
	    1000, NULL, NULL, &r);
	CHECK(!r.check_failed);
}

void test_pagecache_direct_io(void);
void test_pagecache_direct_io(void)
{
	struct pcrun r;
	run("clock", BIG_RAM, "fileio -d cold 64p", 64, NULL, NULL, &r);
	CHECK(!r.check_failed);
	CHECK_EQ(r.ev[PGPGIN], 256);
	CHECK_EQ(r.nr_file, 0);
	CHECK_EQ(r.ev[PGALLOC], 0);
	/* A direct write replaces the cached copies it overwrites. */
	run("clock", BIG_RAM, "fileio -c -d -w f 64p", 0, NULL, NULL, &r);
	CHECK(!r.check_failed);
	CHECK_EQ(r.nr_file, 0);
	CHECK_EQ(r.ev[PGPGOUT], 2 * 256);
}

void test_pagecache_unevictable(void);
void test_pagecache_unevictable(void)
{
	struct pcrun r;
	/* A 1000-page ramfs file beside anonymous pressure: reclaim culls its
	 * pages to the unevictable list and never writes or drops them. */
	run("fifo", SMALL_RAM, "fileio -w /ramfs/f 1000p + usemem -r 2 8M", 0, NULL, NULL, &r);
	CHECK(!r.check_failed);
	CHECK_EQ(r.nr_file, 1000);
	CHECK(r.ev[UNEVICTABLE_PGS_CULLED] > 0);
	CHECK_EQ(r.ev[PGPGOUT], r.ev[PSWPOUT] * 4);
}

void test_pagecache_swap_readahead(void);
void test_pagecache_swap_readahead(void)
{
	struct pcrun r;
	/* page-cluster 0: each swap-in is one page and one major fault. */
	static const char *const pc0[] = { "vm.page_cluster", "0", NULL };
	run("clock", SMALL_RAM, "usemem -r 2 10M", 0, pc0, NULL, &r);
	CHECK(!r.check_failed);
	CHECK(r.ev[PSWPIN] > 0);
	CHECK_EQ(r.ev[PSWPIN], r.ev[PGMAJFAULT]);
	/* Default page-cluster 3: a sequential re-read swaps in 8-slot
	 * clusters, so far fewer major faults than pages read. */
	run("clock", SMALL_RAM, "usemem -r 2 10M", 0, NULL, NULL, &r);
	CHECK(!r.check_failed);
	CHECK(r.ev[PSWPIN] > 4 * r.ev[PGMAJFAULT]);
}

void test_pagecache_policies(void);
void test_pagecache_policies(void)
{
	static const char *const pols[] = { "fifo", "clock", "lru" };
	for (int i = 0; i < 3; i++) {
		struct pcrun r;
		run(pols[i], SMALL_RAM,
		    "fileio -r 2 -R -b 2 cold 2500p + fileio -w -f -r 2 out 800p + fileio -m -s -w -r 2 mapped 300p + usemem -r 2 4M",
		    2500, NULL, NULL, &r);
		CHECK(!r.check_failed);
		CHECK(r.ev[PGSTEAL_KSWAPD] + r.ev[PGSTEAL_DIRECT] > 0);
	}
}
