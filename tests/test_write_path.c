/* test_write_path.c - the buffered write path's rows (src/mm/work.h):
 * write_begin (a page a write() creates: 6.18 ext4_da_write_begin ->
 * __filemap_get_folio(FGP_CREAT)), folio_mark_dirty (a clean file page
 * made dirty: __folio_mark_dirty) and writepages (a page ->writepages
 * writes back: the flusher, fsync), each counted where the model does
 * it and charged its cost to whoever does it; and --calibrate's
 * derivation of their costs and cost.syscall (src/native/calib_write.c).
 * A hand-built untimed mm of 8 pages; milliseconds. */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/mm/filemap.h"
#include "../src/policy/policy.h"
#include "../src/native/calibrate.h"

#include <string.h>

void test_write_path_counted(void);
void test_write_path_shared_fault(void);
void test_write_path_calibrated(void);
void test_write_path_copy_user(void);
void test_write_path_remove_mapping(void);

static void setup(struct mm *mm, struct mm_costs *cost)
{
	memset(cost, 0, sizeof(*cost));
	cost->work_ns[W_WRITE_BEGIN] = 1000;
	cost->work_ns[W_PERFORM_WRITE] = 1;
	cost->work_ns[W_FOLIO_MARK_DIRTY] = 100;
	cost->work_ns[W_WRITEPAGES] = 10;
	struct mm_config cfg = { .ram_pages = 256, .swap_pages = 0, .untimed = true };
	mm_init(mm, &cfg, cost);
	mm_set_policy(mm, policy_find("lru"), NULL);
}

static uint64_t row(const struct mm *mm, enum work_op w)
{
	return reclaim_work_total(&mm->work, w);
}

/* 8 pages written to a new file (8 created, 8 dirtied), written again
 * while dirty (nothing), fsynced (8 written back), then 4 of them
 * written again, clean (4 dirtied); 20 pages written in all: 8 x 1000
 * + 20 x 1 + 12 x 100 + 8 x 10 ns of the writer's system time, every
 * row in the "other" column. */
void test_write_path_counted(void)
{
	struct mm mm;
	struct mm_costs cost;
	setup(&mm, &cost);
	struct mm_ctx ctx = { .task = -1, .wait_pfn = PFN_NONE };
	enum fault_status st;
	struct inode *ino = filemap_create(&mm, &ctx, "f");
	CHECK_EQ(filemap_write(&mm, &ctx, ino, 0, 8, UINT64_MAX / 2, &st), 8);
	CHECK_EQ(row(&mm, W_WRITE_BEGIN), 8);
	CHECK_EQ(row(&mm, W_FOLIO_MARK_DIRTY), 8);
	CHECK_EQ(filemap_write(&mm, &ctx, ino, 0, 8, UINT64_MAX / 2, &st), 8);
	CHECK_EQ(row(&mm, W_WRITE_BEGIN), 8);
	CHECK_EQ(row(&mm, W_FOLIO_MARK_DIRTY), 8);
	CHECK_EQ(row(&mm, W_WRITEPAGES), 0);
	CHECK(filemap_fsync(&mm, &ctx, ino));
	CHECK_EQ(row(&mm, W_WRITEPAGES), 8);
	CHECK_EQ(filemap_write(&mm, &ctx, ino, 0, 4, UINT64_MAX / 2, &st), 4);
	CHECK_EQ(row(&mm, W_WRITE_BEGIN), 8);
	CHECK_EQ(row(&mm, W_FOLIO_MARK_DIRTY), 12);
	CHECK_EQ(mm.work.n[WHO_OTHER][W_FOLIO_MARK_DIRTY], 12);
	CHECK_EQ(mm.work.n[WHO_OTHER][W_WRITEPAGES], 8);
	CHECK_EQ(mm.work.n[WHO_OTHER][W_PERFORM_WRITE], 20);
	CHECK_EQ(ctx.sys_ns, 8 * 1000 + 20 + 12 * 100 + 8 * 10);
	mm_destroy(&mm);
}

/* read() and write() copy each page between the page cache and a user
 * buffer: copy_user_bytes, charged cost.copy_user, or cost.copy_page
 * where the profile has none (the presets); a COW's copy_bytes stays
 * 0.  4 pages written and read back, twice: at copy_page 3 000 and
 * copy_user 0 the reader pays 4 x 3 000 ns, at copy_user 300 4 x 300. */
void test_write_path_copy_user(void)
{
	struct mm mm;
	struct mm_costs cost;
	setup(&mm, &cost);
	cost.copy_page_ns = 3000;
	struct mm_ctx w = { .task = -1, .wait_pfn = PFN_NONE }, r = w;
	enum fault_status st;
	struct inode *ino = filemap_create(&mm, &w, "f");
	CHECK_EQ(filemap_write(&mm, &w, ino, 0, 4, UINT64_MAX / 2, &st), 4);
	CHECK_EQ(w.sys_ns, 4 * 1000 + 4 * 1 + 4 * 100 + 4 * 3000);
	CHECK_EQ(filemap_read(&mm, &r, ino, NULL, 0, 4, UINT64_MAX / 2, &st), 4);
	CHECK_EQ(r.sys_ns, 4 * 3000);
	cost.copy_user_ns = 300;
	CHECK_EQ(filemap_read(&mm, &r, ino, NULL, 0, 4, UINT64_MAX / 2, &st), 4);
	CHECK_EQ(r.sys_ns, 4 * 3000 + 4 * 300);
	CHECK_EQ(row(&mm, W_COPY_USER_BYTES), 12 * PAGE_SIZE);
	CHECK_EQ(row(&mm, W_COPY_BYTES), 0);
	mm_destroy(&mm);
}

/* A write fault on a clean page of a shared file mapping dirties it
 * (fault_dirty_shared_page): counted and charged to the faulting task,
 * though no reclaim pass is current (mm->cur NULL, as in a fault). */
void test_write_path_shared_fault(void)
{
	struct mm mm;
	struct mm_costs cost;
	setup(&mm, &cost);
	mm.vm.dirty_fault = 1; /* 2.6.19+: dirtied at the write fault */
	struct mm_ctx ctx = { .task = -1, .wait_pfn = PFN_NONE };
	enum fault_status st;
	struct inode *ino = filemap_create(&mm, &ctx, "f");
	CHECK_EQ(filemap_write(&mm, &ctx, ino, 0, 4, UINT64_MAX / 2, &st), 4);
	CHECK(filemap_fsync(&mm, &ctx, ino));
	struct aspace *as = mm_aspace_new(&mm, -1);
	uint32_t v = mm_mmap_file(&mm, as, ino, 0, 4, true);
	mm.cur = NULL;
	uint64_t sys0 = ctx.sys_ns, dirtied0 = row(&mm, W_FOLIO_MARK_DIRTY);
	CHECK_EQ(mm_touch(&mm, &ctx, as, v, 0, 4, 1, TOUCH_WRITE, UINT64_MAX / 2, &st), 4);
	CHECK_EQ(row(&mm, W_FOLIO_MARK_DIRTY) - dirtied0, 4);
	CHECK_EQ(ctx.sys_ns - sys0, 4 * 100);
	mm_destroy(&mm);
}

/* --calibrate's figures, per round r (ns a page), 4 KiB calls:
 * write_new 5 000 + r, wb_fsync 1 200 + r, write_clean 1 500 + r,
 * write_dirty 900, read_cached 700, copy_cpu 400, io_submit 2 560 (10 a
 * page of its 256); the same in 64-page calls: write_new 1 200 + r,
 * write_clean 563 + r, write_dirty 500 + r, read_cached 400.  Solved per
 * pass for a page's part, (64 X_64 - X) / 63, and a call's, X - that;
 * each derived figure moves with r one way, so its median is round 5's:
 * syscall 300 (read_cached less the copy), writepages 1 195,
 * generic_perform_write 103.492 (a page of write_dirty less one of
 * read_cached), folio_mark_dirty 54.397, write_begin 591.556; a call's:
 * write_iter 96.508, write_iter_dirtied 550.603, write_iter_extend
 * 2 908.444 (4 KiB calls of the same passes as before give the same
 * totals: a call's part and a page's).  drop_written 400 + r against
 * page_drop 50: filemap_release_folio 355.  A read no dearer than the
 * copy leaves cost.syscall 1 ns, not 0 (which would mean cost.fault). */
static bool near(double v, double want)
{
	return v > want - 0.001 && v < want + 0.001;
}

void test_write_path_calibrated(void)
{
	struct cal_fig f[NR_CAL];
	double ns[NR_CALP][CAL_ROUNDS] = { { 0 } }, submit[CAL_ROUNDS];
	cal_init(f);
	for (int r = 0; r < CAL_ROUNDS; r++) {
		ns[CALP_WRITE_NEW][r] = 5000 + r;
		ns[CALP_WB_FSYNC][r] = 1200 + r;
		ns[CALP_WRITE_CLEAN][r] = 1500 + r;
		ns[CALP_WRITE_DIRTY][r] = 900;
		ns[CALP_READ_CACHED][r] = 700;
		ns[CALP_COPY_CPU][r] = 400;
		ns[CALP_WRITE_NEW_BIG][r] = 1200 + r;
		ns[CALP_WRITE_CLEAN_BIG][r] = 563 + r;
		ns[CALP_WRITE_DIRTY_BIG][r] = 500 + r;
		ns[CALP_READ_CACHED_BIG][r] = 400;
		ns[CALP_DROP][r] = 50;
		ns[CALP_DROP_WRITTEN][r] = 400 + r;
		submit[r] = 2560;
	}
	calw_figs(f, ns, CAL_ROUNDS, submit);
	CHECK(f[CAL_SYSCALL].value == 300 && !strcmp(f[CAL_SYSCALL].param, "cost.syscall"));
	CHECK(f[CAL_COPY_CPU].value == 400 && !f[CAL_COPY_CPU].param); /* not charged: docs/cost.md */
	CHECK(near(f[CAL_WRITE_PAGE].value, 103.492) && !strcmp(f[CAL_WRITE_PAGE].param, "cost.generic_perform_write"));
	CHECK(near(f[CAL_MARK_DIRTY].value, 54.397) && !strcmp(f[CAL_MARK_DIRTY].param, "cost.folio_mark_dirty"));
	CHECK(near(f[CAL_WRITE_BEGIN].value, 591.556) && !strcmp(f[CAL_WRITE_BEGIN].param, "cost.write_begin"));
	CHECK(f[CAL_WRITEPAGES].value == 1195 && !strcmp(f[CAL_WRITEPAGES].param, "cost.writepages"));
	CHECK(near(f[CAL_WRITE_ITER].value, 96.508) && !strcmp(f[CAL_WRITE_ITER].param, "cost.write_iter"));
	CHECK(near(f[CAL_WRITE_DIRTIED].value, 550.603) &&
	      !strcmp(f[CAL_WRITE_DIRTIED].param, "cost.write_iter_dirtied"));
	CHECK(near(f[CAL_WRITE_EXTEND].value, 2908.444) && !strcmp(f[CAL_WRITE_EXTEND].param, "cost.write_iter_extend"));
	CHECK(f[CAL_WRITE_NEW].value == 5005 && f[CAL_WRITE_NEW].per_round == CALP_PAGES);
	CHECK(f[CAL_WRITE_NEW_BIG].value == 1205);
	CHECK(f[CAL_RELEASE_FOLIO].value == 355 &&
	      !strcmp(f[CAL_RELEASE_FOLIO].param, "cost.filemap_release_folio"));
	CHECK(f[CAL_DROP_WRITTEN].value == 405 && !f[CAL_DROP_WRITTEN].param);
	for (int r = 0; r < CAL_ROUNDS; r++)
		ns[CALP_READ_CACHED][r] = 350;
	calw_figs(f, ns, CAL_ROUNDS, submit);
	CHECK(f[CAL_SYSCALL].value == 1 && f[CAL_SYSCALL].median == -50);
}

/* Reclaim freeing clean file pages (shrink_folio_list -> __remove_mapping):
 * remove_mapping for each, and filemap_release_folio first for those a
 * write() made (ext4's buffer heads), each charged to the reclaimer.  4
 * pages written and fsynced, reclaimed: 4 and 4, 4 x (10 + 300) ns; read
 * back from the disk (no buffer heads) and reclaimed again: 4 and 0. */
void test_write_path_remove_mapping(void)
{
	struct mm mm;
	struct mm_costs cost;
	setup(&mm, &cost);
	cost.work_ns[W_REMOVE_MAPPING] = 10;
	cost.work_ns[W_RELEASE_FOLIO] = 300;
	struct mm_ctx w = { .task = -1, .wait_pfn = PFN_NONE }, rc = w;
	enum fault_status st;
	struct inode *ino = filemap_create(&mm, &w, "f");
	CHECK_EQ(filemap_write(&mm, &w, ino, 0, 4, UINT64_MAX / 2, &st), 4);
	CHECK(filemap_fsync(&mm, &w, ino));
	for (int pass = 0; pass < 2; pass++) {
		mm.cur = &rc;
		for (uint64_t i = 0; i < 4; i++) {
			struct scan_control sc = { .nr_to_reclaim = 32, .may_writepage = true, .may_swap = true };
			pfn_t pfn = pc_page(ino, i);
			if (pfn == PFN_NONE) {
				CHECK(!"page cached");
				continue;
			}
			mm.pol.ops->remove(mm.pol.priv, pfn); /* isolated */
			CHECK_EQ(mm_reclaim_page(&mm, &sc, pfn), EVICT_FREED);
		}
		mm.cur = NULL;
		CHECK_EQ(row(&mm, W_REMOVE_MAPPING), pass == 0 ? 4 : 8);
		CHECK_EQ(row(&mm, W_RELEASE_FOLIO), 4);
		CHECK_EQ(rc.sys_ns, 4 * (10 + 300) + (pass == 0 ? 0 : 4 * 10));
		if (pass == 0)
			CHECK_EQ(filemap_read(&mm, &w, ino, NULL, 0, 4, UINT64_MAX / 2, &st), 4);
	}
	mm_destroy(&mm);
}
