/* test_flusher_era.c - each era's flusher on small hand-checked cases
 * (src/mm/flusher_era.c): when it wakes, how much one run writes, what age
 * the periodic flush writes, and when a writer writes or waits itself.
 *
 * Most cases use the untimed "ideal" machine with 1000 frames and the fifo
 * policy: writes complete at once (a written page is clean again, counted
 * in pgpgout), there are no watermarks and no kernel reserve, so 2.4's
 * nr_free_buffer_pages() and the dirtyable memory are exactly 1000 pages. */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/mm/filemap.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <string.h>

#define SEC 1000000000ULL

/* `tunable`=`value` (optional): one policy tunable off its default. */
static void setup_tun(struct machine *m, const char *machine, uint64_t ram_pages, const char *policy,
		      const char *const *sets, const char *tunable, double value)
{
	struct profile prof = *profile_find(machine);
	prof.ram = ram_pages * PAGE_SIZE;   /* timed machines: less the kernel's reserve */
	char err[256];
	for (int i = 0; sets && sets[i]; i += 2)
		if (!profile_set(&prof, sets[i], sets[i + 1], err, sizeof(err)))
			panic("%s", err);
	struct machine_opts mo = { .seed = 1 };
	if (!machine_init(m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	const struct policy_ops *pol = policy_find(policy);
	double tun[32] = { 0 };
	for (int t = 0; t < policy_nr_tunables(pol); t++)
		tun[t] = tunable && !strcmp(pol->tunables[t].name, tunable) ? value : pol->tunables[t].def;
	machine_set_policy(m, pol, tun);
}

static void setup(struct machine *m, const char *machine, uint64_t ram_pages, const char *policy,
		  const char *const *sets)
{
	setup_tun(m, machine, ram_pages, policy, sets, NULL, 0);
}

/* write() of n new pages at `at` ns to file `name` (created if needed). */
static void write_pages(struct machine *m, const char *name, uint64_t n, uint64_t at)
{
	struct mm *mm = &m->mm;
	struct mm_ctx ctx = { .t0 = at, .task = -1, .wait_pfn = PFN_NONE };
	struct inode *ino = filemap_lookup(mm, name);
	if (!ino)
		ino = filemap_create(mm, &ctx, name);
	enum fault_status st;
	uint64_t done = filemap_write(mm, &ctx, ino, ino->size, n, UINT64_MAX / 2, &st);
	CHECK_EQ(done, n);
}

/* write() over pages [first, first + n) of an existing file. */
static void rewrite_pages(struct machine *m, const char *name, uint64_t first, uint64_t n)
{
	struct mm *mm = &m->mm;
	struct mm_ctx ctx = { .t0 = 0, .task = -1, .wait_pfn = PFN_NONE };
	enum fault_status st;
	CHECK_EQ(filemap_write(mm, &ctx, filemap_lookup(mm, name), first, n, UINT64_MAX / 2, &st), n);
}

static uint64_t written(const struct machine *m) { return m->mm.ev[PGPGOUT] / (PAGE_SIZE / 1024); }

static enum flush_next run_thread(struct machine *m, int role, uint64_t at)
{
	struct mm_ctx ctx = { .t0 = at, .task = -1, .kswapd = true, .wait_pfn = PFN_NONE };
	return mm_flusher_run(&m->mm, &ctx, role);
}

static bool balance(struct machine *m, uint64_t at)
{
	struct mm_ctx ctx = { .t0 = at, .task = -1, .wait_pfn = PFN_NONE };
	return mm_balance_dirty_pages(&m->mm, &ctx);
}

void test_flusher_era_threads(void)
{
	/* Each policy selects its era; the threads get the era's names. */
	static const struct { const char *policy, *t0, *t1; uint64_t era, nfract, ndirty, ratio; } c[] = {
		{ "linux22", "kflushd", "update", FLUSHER_22, 40, 500, 10 },
		{ "vhand", "kflushd", "update", FLUSHER_22, 40, 500, 10 },
		{ "riel24", "bdflush", "kupdate", FLUSHER_240, 30, 64, 10 },
		{ "aa24", "bdflush", "kupdated", FLUSHER_2410, 40, 0, 10 },
		{ "linux26", "pdflush", NULL, FLUSHER_PDFLUSH, 40, 500, 10 },
		{ "splitlru", "pdflush", NULL, FLUSHER_PDFLUSH, 40, 500, 10 },
		{ "workingset", "flush-8:0", NULL, FLUSHER_PERBDI, 40, 500, 20 },
		{ "mglru", "flush-8:0", NULL, FLUSHER_PERBDI, 40, 500, 20 },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct machine m;
		setup(&m, "vmm-2008", 8192, c[i].policy, NULL);
		CHECK_EQ(m.mm.vm.flusher, c[i].era);
		CHECK(!strcmp(mm_flusher_thread(&m.mm, 0), c[i].t0));
		CHECK(c[i].t1 ? mm_flusher_thread(&m.mm, 1) && !strcmp(mm_flusher_thread(&m.mm, 1), c[i].t1)
			      : !mm_flusher_thread(&m.mm, 1));
		CHECK_EQ(m.mm.vm.bdflush_nfract, c[i].nfract);
		CHECK_EQ(m.mm.vm.bdflush_ndirty, c[i].ndirty);
		CHECK_EQ(m.mm.vm.dirty_ratio, c[i].ratio);
		CHECK_EQ(m.mm.vm.dirty_background_ratio, c[i].ratio / 2);
		/* 2.2/2.4: bdflush sleeps until woken, update/kupdate every 5 s;
		 * 2.6: the one thread every dirty_writeback_centisecs. */
		CHECK_EQ(mm_flusher_period_ns(&m.mm, 0), c[i].t1 ? 0 : 5 * SEC);
		if (c[i].t1)
			CHECK_EQ(mm_flusher_period_ns(&m.mm, 1), 5 * SEC);
		machine_free(&m);
	}
	/* aa24 with aa_era=23: the late 2.4 bdflush. */
	struct machine m23;
	setup_tun(&m23, "vmm-2008", 8192, "aa24", NULL, "aa_era", 23);
	CHECK_EQ(m23.mm.vm.flusher, FLUSHER_24LATE);
	CHECK(!strcmp(mm_flusher_thread(&m23.mm, 0), "bdflush"));
	CHECK(!strcmp(mm_flusher_thread(&m23.mm, 1), "kupdated"));
	CHECK_EQ(m23.mm.vm.bdflush_nfract, 30);
	CHECK_EQ(m23.mm.vm.bdflush_ndirty, 500);
	CHECK_EQ(m23.mm.vm.bdflush_nfract_stop, 20);
	machine_free(&m23);
	/* --set vm.NAME wins over the era's default. */
	static const char *const sets[] = { "vm.bdflush_nfract", "55", "vm.flusher", "2", NULL };
	struct machine m;
	setup(&m, "vmm-2008", 8192, "aa24", sets);
	CHECK_EQ(m.mm.vm.bdflush_nfract, 55);
	CHECK_EQ(m.mm.vm.flusher, FLUSHER_240);
	CHECK_EQ(m.mm.vm.bdflush_nfract_sync, 60);
	CHECK_EQ(m.mm.vm.bdflush_ndirty, 64);   /* 2.4.0's, brought by vm.flusher=2 */
	CHECK(!strcmp(mm_flusher_thread(&m.mm, 1), "kupdate"));
	machine_free(&m);
}

void test_flusher_era_22_kflushd(void)
{
	static const char *const sets[] = { "vm.flusher", "1", NULL };
	struct machine m;
	setup(&m, "ideal", 2000, "fifo", sets);
	m.mm.vm.bdflush_nfract = 40;
	m.mm.vm.bdflush_ndirty = 500;
	/* refile_buffer(): wake kflushd once dirty > 40 % of the cache. */
	write_pages(&m, "a", 100, 0);
	CHECK(!balance(&m, 0));             /* 2.2 never throttles on a ratio */
	CHECK(m.mm.wake.flusher);
	/* kflushd: at most ndirty (500) per cycle; 100 dirty: all written. */
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_SLEEP);
	CHECK_EQ(written(&m), 100);
	CHECK(!m.mm.wake.flusher);
	/* 100 clean cache pages: 40 more dirty of 140 is 28 % (limit 56). */
	write_pages(&m, "b", 40, 0);
	CHECK(!balance(&m, 0));
	CHECK(!m.mm.wake.flusher);
	write_pages(&m, "b", 20, 0);        /* 60 of 160: the limit is 64 */
	balance(&m, 0);
	CHECK(!m.mm.wake.flusher);
	write_pages(&m, "b", 10, 0);        /* 70 of 170 > 68 */
	balance(&m, 0);
	CHECK(m.mm.wake.flusher);
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_SLEEP);
	CHECK_EQ(written(&m), 170);
	/* 1000 dirty of 1170: a cycle writes 500, 500 > 468 still dirty:
	 * cycle again at once; the next 500 leave 0. */
	write_pages(&m, "c", 1000, 0);
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_AGAIN);
	CHECK_EQ(written(&m), 670);
	CHECK_EQ(m.mm.stat.nr_dirty, 500);
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_SLEEP);
	CHECK_EQ(written(&m), 1170);
	CHECK_EQ(m.mm.ev[NR_DIRTY_THROTTLED], 0);
	machine_free(&m);
}

void test_flusher_era_periodic_age(void)
{
	/* update / kupdate / kupdated write what is older than age_buffer
	 * (30 s), whatever the thresholds say. */
	static const char *const eras[] = { "1", "2", "3", "5" };
	for (int e = 0; e < 4; e++) {
		const char *sets[] = { "vm.flusher", eras[e], NULL };
		struct machine m;
		setup(&m, "ideal", 1000, "fifo", sets);
		write_pages(&m, "old", 10, 0);
		write_pages(&m, "new", 20, 20 * SEC);
		CHECK_EQ(run_thread(&m, 1, 29 * SEC), FLUSH_SLEEP);
		CHECK_EQ(written(&m), 0);
		CHECK_EQ(run_thread(&m, 1, 31 * SEC), FLUSH_SLEEP);
		CHECK_EQ(written(&m), 10);          /* "old" only */
		CHECK_EQ(run_thread(&m, 1, 49 * SEC), FLUSH_SLEEP);
		CHECK_EQ(written(&m), 10);
		CHECK_EQ(run_thread(&m, 1, 51 * SEC), FLUSH_SLEEP);
		CHECK_EQ(written(&m), 30);
		machine_free(&m);
	}
}

void test_flusher_era_240_balance_dirty(void)
{
	static const char *const sets[] = { "vm.flusher", "2", NULL };
	struct machine m;
	setup(&m, "ideal", 1000, "fifo", sets);
	m.mm.vm.bdflush_nfract = 30;
	m.mm.vm.bdflush_ndirty = 64;
	m.mm.vm.bdflush_nfract_sync = 60;
	/* nr_free_buffer_pages() = 1000: nfract 300 pages, nfract_sync 600. */
	write_pages(&m, "a", 300, 0);
	CHECK(!balance(&m, 0));
	CHECK(!m.mm.wake.flusher);        /* 300 is not above 30 % */
	write_pages(&m, "a", 1, 0);
	CHECK(!balance(&m, 0));
	CHECK(m.mm.wake.flusher);         /* wakeup_bdflush(0) */
	CHECK_EQ(written(&m), 0);           /* the writer writes nothing */
	write_pages(&m, "a", 299, 0);       /* 600 dirty: still async */
	balance(&m, 0);
	CHECK_EQ(written(&m), 0);
	/* Above nfract_sync: flush_dirty_buffers(0), ndirty per page dirtied. */
	write_pages(&m, "a", 1, 0);
	CHECK(!balance(&m, 0));             /* no wait: only a full queue would */
	CHECK_EQ(written(&m), 64);
	CHECK_EQ(m.mm.stat.nr_dirty, 537);
	CHECK_EQ(m.mm.ev[NR_DIRTY_THROTTLED], 1);
	/* A write() over pages already dirty turns no buffer dirty: no
	 * balance_dirty(), though above nfract_sync (now 50 %). */
	m.mm.vm.bdflush_nfract_sync = 50;
	rewrite_pages(&m, "a", 100, 10);
	CHECK(!balance(&m, 0));
	CHECK_EQ(written(&m), 64);
	CHECK_EQ(m.mm.ev[NR_DIRTY_THROTTLED], 1);
	m.mm.vm.bdflush_nfract_sync = 60;
	/* bdflush: 64 a cycle, again while above 30 %. */
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_AGAIN);
	CHECK_EQ(m.mm.stat.nr_dirty, 473);
	while (run_thread(&m, 0, 0) == FLUSH_AGAIN)
		;
	/* 473 - 3 * 64 = 281: the third cycle took it below 300. */
	CHECK_EQ(m.mm.stat.nr_dirty, 281);
	machine_free(&m);
}

void test_flusher_era_240_buffer_pages(void)
{
	/* riel24: nr_free_buffer_pages() = free + inactive + active / 16.  A
	 * written page cache sits on the active list (2.4.0 add_to_page_cache
	 * -> lru_cache_add), so it counts only 1/16: 3000 dirty pages are
	 * above 60 % of free + 4000 / 16 on this 32 MB machine, though far
	 * below 60 % of its memory. */
	struct machine m;
	setup(&m, "vmm-2008", 8192, "riel24", NULL);
	struct mm *mm = &m.mm;
	uint64_t n = 3000;
	write_pages(&m, "a", n, 0);
	uint64_t active = 0, inactive = 0;
	for (int l = 1; l < mm->fr.nr_lists; l++) {
		if (!strcmp(mm->fr.lists[l].name, "active"))
			active += mm->fr.lists[l].count;
		else if (!strncmp(mm->fr.lists[l].name, "inactive", 8))
			inactive += mm->fr.lists[l].count;
	}
	CHECK_EQ(active, n);
	CHECK_EQ(inactive, 0);
	CHECK(mm->stat.nr_free > mm->zones[0].wmark_high);
	uint64_t tot = mm->stat.nr_free + n / 16;
	CHECK(n * 100 > tot * 60);
	CHECK(n * 100 < mm->fr.nr * 60);
	CHECK(!balance(&m, 0));
	CHECK(mm->wake.flusher);
	/* 3000 pages dirtied since the last call x 64: all of them written. */
	CHECK_EQ(mm->stat.nr_writeback, n);
	CHECK_EQ(mm->stat.nr_dirty, 0);
	CHECK_EQ(mm->ev[NR_DIRTY_THROTTLED], 1);
	machine_free(&m);
}

void test_flusher_era_2410_balance_dirty(void)
{
	static const char *const sets[] = { "vm.flusher", "3", NULL };
	struct machine m;
	setup(&m, "ideal", 1000, "fifo", sets);
	m.mm.vm.bdflush_nfract = 40;
	m.mm.vm.bdflush_nfract_sync = 60;
	/* sum(size - pages_high) = 1000: nfract 400, nfract_sync 600. */
	write_pages(&m, "a", 400, 0);
	CHECK(!balance(&m, 0));
	CHECK_EQ(written(&m), 0);
	/* Above nfract: the WRITER writes NRSYNC (32) per page dirtied, and
	 * bdflush is not woken (only above nfract_sync). */
	write_pages(&m, "a", 1, 0);
	CHECK(!balance(&m, 0));
	CHECK_EQ(written(&m), 32);
	CHECK_EQ(m.mm.stat.nr_dirty, 369);
	CHECK(!m.mm.wake.flusher);
	CHECK_EQ(m.mm.ev[NR_DIRTY_THROTTLED], 0);
	/* 32 pages dirtied in one write() back to 401: 32 x 32 = 1024 may
	 * be written, so all 401 are. */
	write_pages(&m, "a", 32, 0);
	CHECK(!balance(&m, 0));
	CHECK_EQ(written(&m), 433);
	CHECK_EQ(m.mm.stat.nr_dirty, 0);
	/* bdflush: NRSYNC batches while above nfract. */
	write_pages(&m, "b", 476, 0);       /* balance() not called */
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_AGAIN);
	CHECK_EQ(m.mm.stat.nr_dirty, 444);
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_AGAIN);
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_SLEEP);
	CHECK_EQ(m.mm.stat.nr_dirty, 380);       /* below 400 after the third */
	/* A short batch (fewer than 32 dirty) ends the loop too. */
	m.mm.vm.bdflush_nfract = 0;
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_AGAIN);
	CHECK_EQ(m.mm.stat.nr_dirty, 348);
	while (m.mm.stat.nr_dirty >= 32)
		CHECK_EQ(run_thread(&m, 0, 0), FLUSH_AGAIN);
	CHECK_EQ(m.mm.stat.nr_dirty, 28);
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_SLEEP);
	CHECK_EQ(m.mm.stat.nr_dirty, 0);
	machine_free(&m);
}

void test_flusher_era_2410_writer_waits(void)
{
	/* Timed machine, no event loop: written pages stay under writeback,
	 * and 2.4.10+ counts them (BUF_LOCKED) with the dirty ones. */
	struct machine m;
	setup(&m, "vmm-2008", 4096, "aa24", NULL);
	struct mm *mm = &m.mm;
	CHECK_EQ(mm->nr_zones, 1);          /* 16 MB: all in ZONE_DMA */
	CHECK(mm->fr.nr < 4096);
	uint64_t tot = mm->fr.nr - mm->zones[0].wmark_high;
	uint64_t sync = tot * 60 / 100;
	write_pages(&m, "a", sync, 0);
	CHECK(!balance(&m, 0));             /* state 0: writes, no wait */
	CHECK_EQ(mm->stat.nr_writeback, sync);   /* sync x 32 > sync: all */
	CHECK(!mm->wake.flusher);
	write_pages(&m, "a", 1, 0);         /* dirty + locked above 60 % */
	CHECK(balance(&m, 0));              /* wait_for_some_buffers() */
	CHECK(mm->wake.flusher);
	CHECK_EQ(mm->stat.nr_writeback, sync + 1);
	CHECK_EQ(mm->ev[NR_DIRTY_THROTTLED], 1);
	machine_free(&m);
}

void test_flusher_era_perbdi_ioless(void)
{
	static const char *const sets[] = { "vm.flusher", "4", NULL };
	struct machine m;
	setup(&m, "ideal", 1000, "fifo", sets);
	m.mm.vm.dirty_ratio = 20;
	m.mm.vm.dirty_background_ratio = 10;
	/* dirtyable = free + file = 1000: background 100, limit 200, the
	 * freerun ceiling (100 + 200) / 2 = 150. */
	uint64_t bg, thr;
	mm_dirty_limits(&m.mm, &bg, &thr);
	CHECK_EQ(bg, 100);
	CHECK_EQ(thr, 200);
	write_pages(&m, "a", 100, 0);
	CHECK(!balance(&m, 0));
	CHECK(!m.mm.wake.flusher);
	write_pages(&m, "a", 50, 0);
	CHECK(!balance(&m, 0));             /* 150: at the ceiling, no pause */
	CHECK(m.mm.wake.flusher);         /* above background: wake it */
	write_pages(&m, "a", 1, 0);
	CHECK(balance(&m, 0));              /* 151: pause */
	CHECK_EQ(written(&m), 0);           /* IO-less: the writer never writes */
	CHECK_EQ(m.mm.ev[NR_DIRTY_THROTTLED], 1);
	/* flush-8:0: background writeback of the inode (a 1024-page chunk). */
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_SLEEP);
	CHECK_EQ(written(&m), 151);
	machine_free(&m);
}

void test_flusher_era_22_writer_stall_wakes_kflushd(void)
{
	static const char *const sets[] = { "vm.flusher", "1", NULL };
	struct machine m;
	setup(&m, "ideal", 1000, "fifo", sets);
	mm_flusher_writer_stalled(&m.mm);
	CHECK(!m.mm.wake.flusher);        /* nothing dirty: nothing to do */
	write_pages(&m, "a", 10, 0);        /* 10 of 10 dirty; no balance call */
	m.mm.wake.flusher = false;
	mm_flusher_writer_stalled(&m.mm);   /* refill_freelist: wakeup_bdflush(1) */
	CHECK(m.mm.wake.flusher);
	/* Other eras leave it to their dirty thresholds. */
	m.mm.vm.flusher = FLUSHER_2410;
	m.mm.wake.flusher = false;
	mm_flusher_writer_stalled(&m.mm);
	CHECK(!m.mm.wake.flusher);
	machine_free(&m);
}

void test_flusher_era_late24_hysteresis(void)
{
	static const char *const sets[] = { "vm.flusher", "5", NULL };
	struct machine m;
	setup(&m, "ideal", 1000, "fifo", sets);
	struct mm *mm = &m.mm;
	mm_flusher_era(mm, FLUSHER_24LATE);
	/* nr_free_buffer_pages() = cache + free above pages_high = 1000:
	 * nfract 300, nfract_sync 600, nfract_stop_bdflush 200. */
	write_pages(&m, "a", 300, 0);
	CHECK(!balance(&m, 0));
	CHECK(!mm->wake.flusher);
	write_pages(&m, "a", 1, 0);
	CHECK(!balance(&m, 0));
	CHECK(mm->wake.flusher);          /* above 30 %: wake bdflush */
	CHECK_EQ(written(&m), 0);
	write_pages(&m, "a", 299, 0);
	balance(&m, 0);
	CHECK_EQ(written(&m), 0);           /* 600: still only bdflush */
	write_pages(&m, "a", 1, 0);
	CHECK(!balance(&m, 0));             /* above 60 %: NRSYNC, no wait */
	CHECK_EQ(written(&m), 32);
	CHECK_EQ(mm->ev[NR_DIRTY_THROTTLED], 1);
	/* bdflush: ndirty 500 in batches of 32 = 16 batches, 512 pages;
	 * 57 left is below 20 %: sleep. */
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_SLEEP);
	CHECK_EQ(written(&m), 544);
	CHECK_EQ(mm->stat.nr_dirty, 57);
	/* Hysteresis: woken above 30 %, it writes on down to 20 %. */
	mm->vm.bdflush_ndirty = 64;
	write_pages(&m, "b", 400, 0);       /* 457 dirty */
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_AGAIN);   /* 393 */
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_AGAIN);   /* 329 */
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_AGAIN);   /* 265 */
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_AGAIN);   /* 201 */
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_SLEEP);   /* 137 */
	CHECK_EQ(mm->stat.nr_dirty, 137);
	/* The dirty list running dry ends a cycle: 4 batches and 9 pages. */
	mm->vm.bdflush_ndirty = 500;
	mm->vm.bdflush_nfract_stop = 0;
	CHECK_EQ(run_thread(&m, 0, 0), FLUSH_SLEEP);
	CHECK_EQ(mm->stat.nr_dirty, 0);
	machine_free(&m);
}
