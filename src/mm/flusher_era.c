/* flusher_era.c - the flusher of each era, selected by vm.flusher (each
 * policy's init() sets its era; `--set vm.flusher=N` overrides):
 *
 *  1  2.2.1 fs/buffer.c.  kflushd (bdflush(), bdf_prm = {nfract 40, ndirty
 *     500, ..., age_buffer 30*HZ}): refile_buffer() wakes it when a buffer
 *     turns dirty and more than nfract % of all buffers are dirty; each
 *     cycle writes at most ndirty buffers from the dirty list (oldest
 *     first) and cycles again at once while still above nfract.  Writers
 *     are not throttled by a dirty limit: only when grow_buffers() cannot
 *     get a page does refill_freelist() call wakeup_bdflush(1) and sleep
 *     until kflushd ends a cycle.  update(8), a user daemon, calls
 *     sys_bdflush(1) every 5 s (2.0 fs/buffer.c: "as long as the update
 *     process runs every 5 seconds"): sync_old_buffers() writes every dirty
 *     buffer older than age_buffer, with no limit.
 *  2  2.4.0 fs/buffer.c.  bdf_prm = {nfract 30, ndirty 64, ..., interval
 *     5*HZ, age_buffer 30*HZ, nfract_sync 60}.  balance_dirty_state()
 *     compares the dirty buffers with nr_free_buffer_pages() (free +
 *     inactive_clean + inactive_dirty, at least freepages.high +
 *     inactive_target, plus active / 16): above nfract % each newly
 *     dirtied page wakes bdflush; above nfract_sync % the writer also runs
 *     flush_dirty_buffers(0) itself (ndirty buffers) per dirtied page.
 *     bdflush writes ndirty buffers per cycle and cycles again while above
 *     nfract; kupdate wakes every interval and writes every buffer older
 *     than age_buffer (flush_dirty_buffers(1)).
 *  3  2.4.10-2.4.17 (2.4.16 and 2.4.17 fs/buffer.c; 2.4.10's own not
 *     checked).  bdf_prm = {nfract 40, ndirty unused,
 *     ..., nfract_sync 60}; dirty = dirty + locked (under I/O) buffers;
 *     nr_free_buffer_pages() = sum over the GFP_USER zones (no highmem) of
 *     size - pages_high.  balance_dirty(): above nfract the WRITER writes
 *     write_some_buffers() (NRSYNC = 32 buffers) per dirtied page; above
 *     nfract_sync it also waits for one locked buffer
 *     (wait_for_some_buffers) and wakes bdflush, whose loop writes NRSYNC
 *     batches while above nfract.  kupdated (renamed from kupdate) writes
 *     NRSYNC batches while the oldest dirty buffer is older than
 *     age_buffer.
 *  5  late 2.4: Andrea Arcangeli's December 2001 bdflush rework (posted
 *     against 2.4.17pre7aa1; the form of 2.4.27 fs/buffer.c, used for aa24
 *     with aa_era=23).  bdf_prm = {30, 500, 0, 0, 5*HZ, 30*HZ, 60, 20, 0}:
 *     dirty = dirty buffers only again; nr_free_buffer_pages() = the page
 *     cache + free pages above pages_high.  balance_dirty(): above nfract
 *     wake bdflush; above nfract_sync the writer writes NRSYNC per page
 *     dirtied (no wait).  bdflush writes ndirty in NRSYNC batches and goes
 *     on (hysteresis) until dirty falls to nfract_stop_bdflush (20 %) or
 *     the dirty list runs dry.
 *  0  2.6.26 pdflush: writeback.c (linux26, splitlru).
 *  4  per-bdi flusher (2.6.32 fs/fs-writeback.c: one "flush-MAJOR:MINOR"
 *     thread per disk, bdi_writeback_task / wb_do_writeback doing the
 *     background and kupdate writeback of 2.6.26's pdflush) with the
 *     3.2+ IO-less balance_dirty_pages(): writers never write; a writer
 *     above the freerun ceiling (background + limit) / 2 wakes the
 *     flusher and pauses.  Defaults dirty_ratio 20, dirty_background_ratio
 *     10 (mm/page-writeback.c of today; set by the policies' init).  With
 *     vm.cgroup_writeback a v2 --memcg is a second domain with limits of
 *     its own, and the pause and the background writeback follow
 *     whichever domain is over (6.18 balance_dirty_pages(),
 *     wb_over_bg_thresh(); memcg_dirty.c).
 *
 * Simplified: 2.2/2.4 kept dirty file data in buffers on a chronological
 * dirty list (BUF_DIRTY); pagelab has dirty page-cache pages, so a buffer
 * is a page (4 KB blocks) and "oldest buffer first" is oldest inode first
 * (inode->dirtied_when = when its first dirty page was dirtied), which is
 * also the age the periodic flush compares with age_buffer: it writes
 * exactly the expired inodes (2.4.17's kupdated writes 32-buffer batches
 * from the list head while the head has expired).  2.2's
 * nr_buffers (the whole buffer cache) is the page cache (nr_file).  2.4.0's
 * inactive_target and its free_shortage() clause are left out, and its
 * lists are read from the policy's lists named "active" / "inactive*"
 * (riel24's; any other policy counts all its LRU pages as inactive).
 * 2.2's writer stall is the allocator's own wait for memory (fileops.c
 * calls mm_flusher_writer_stalled() to wake kflushd); its bdflush_done
 * wait ends at the next write completion.  ll_rw_block() sleeping for a
 * free request is the shared WRITEBACK_CONGESTED queue limit.  3.2+'s
 * pause (task_ratelimit from the estimated write bandwidth and pos_ratio,
 * at most 200 ms) is one wait for the next write completion per write()
 * call above the freerun ceiling.  The modern flusher runs on a workqueue
 * (kworker/uN:M); its ps name here is the 2.6.32-3.9 "flush-8:0". */
#include "filemap.h"
#include "internal.h"

#include <string.h>

#define NRSYNC 32                /* 2.4.10+ write_some_buffers() batch */
#define CS_NS 10000000ULL        /* one centisecond (a jiffy at HZ=100) */

static enum flusher_era era(const struct mm *mm)
{
	return (enum flusher_era)mm->vm.flusher;
}

/* Room left in the request queue before writers/flushers would sleep. */
static uint64_t queue_room(const struct mm *mm)
{
	return mm->stat.nr_writeback < WRITEBACK_CONGESTED ? WRITEBACK_CONGESTED - mm->stat.nr_writeback : 0;
}

/* Pages a bdflush cycle writes: ndirty (2.2, 2.4.0) or one NRSYNC batch. */
static uint64_t bdflush_batch(const struct mm *mm)
{
	return mm->vm.bdflush_ndirty && era(mm) != FLUSHER_2410 ? mm->vm.bdflush_ndirty : NRSYNC;
}

/* ---- thresholds ------------------------------------------------------ */

/* 2.2 refile_buffer(): more than nfract % of the buffers are dirty. */
static bool too_many_dirty_22(const struct mm *mm)
{
	return mm->stat.nr_dirty > mm->stat.nr_file * mm->vm.bdflush_nfract / 100;
}

/* 2.4.0 nr_free_buffer_pages(): free + inactive (clean and dirty), at
 * least freepages.high, plus active >> 4. */
static uint64_t free_buffer_pages_240(const struct mm *mm)
{
	uint64_t active = 0, inactive = 0, high = 0;
	bool found = false;
	for (int l = 1; l < mm->fr.nr_lists; l++) {
		const char *name = mm->fr.lists[l].name;
		if (!name)
			continue;
		if (!strcmp(name, "active")) {
			active += mm->fr.lists[l].count;
			found = true;
		} else if (!strncmp(name, "inactive", 8)) {
			inactive += mm->fr.lists[l].count;
			found = true;
		}
	}
	if (!found)
		inactive = mm->stat.nr_file + mm->stat.nr_anon;
	for (int z = 0; z < mm->nr_zones; z++)
		high += mm->zones[z].wmark_high;
	uint64_t sum = mm->stat.nr_free + inactive;
	if (sum < high)
		sum = high;
	return sum + (active >> 4);
}

/* 2.4.10+ nr_free_buffer_pages(): size - pages_high of the zones a
 * GFP_USER allocation may use (not HighMem). */
static uint64_t free_buffer_pages_2410(const struct mm *mm)
{
	uint64_t sum = 0;
	for (int z = 0; z < mm->nr_zones; z++) {
		const struct zone *zn = &mm->zones[z];
		uint64_t size = mm->nr_zones > 1 ? zn->managed : mm->fr.nr;
		if (zn->name && !strcmp(zn->name, "HighMem"))
			continue;
		if (size > zn->wmark_high)
			sum += size - zn->wmark_high;
	}
	return sum;
}

/* 2.4.27 nr_free_buffer_pages(): the (lowmem) page cache plus the free
 * pages above pages_high of each zone. */
static uint64_t free_buffer_pages_late(const struct mm *mm)
{
	uint64_t sum = mm->stat.nr_file;
	for (int z = 0; z < mm->nr_zones; z++) {
		const struct zone *zn = &mm->zones[z];
		uint64_t free = mm->nr_zones > 1 ? zn->nr_free : mm->stat.nr_free;
		if (free > zn->wmark_high)
			sum += free - zn->wmark_high;
	}
	return sum;
}

/* balance_dirty_state(): -1 no need to flush, 0 async flush, 1 sync. */
static int balance_dirty_state(const struct mm *mm)
{
	uint64_t dirty, tot;
	if (era(mm) == FLUSHER_240) {
		dirty = mm->stat.nr_dirty;
		tot = free_buffer_pages_240(mm);
	} else if (era(mm) == FLUSHER_24LATE) {
		dirty = mm->stat.nr_dirty;
		tot = free_buffer_pages_late(mm);
	} else {
		dirty = mm->stat.nr_dirty + mm->stat.nr_writeback;
		tot = free_buffer_pages_2410(mm);
	}
	if (dirty * 100 > tot * mm->vm.bdflush_nfract)
		return dirty * 100 > tot * mm->vm.bdflush_nfract_sync ? 1 : 0;
	return -1;
}

/* ---- the threads ----------------------------------------------------- */

const char *mm_flusher_thread(const struct mm *mm, int role)
{
	static const char *const names[][2] = {
		[FLUSHER_PDFLUSH] = { "pdflush", NULL },
		[FLUSHER_22] = { "kflushd", "update" },
		[FLUSHER_240] = { "bdflush", "kupdate" },
		[FLUSHER_2410] = { "bdflush", "kupdated" },
		[FLUSHER_PERBDI] = { "flush-8:0", NULL },
		[FLUSHER_24LATE] = { "bdflush", "kupdated" },
	};
	if (role < 0 || role > 1 || mm->vm.flusher > FLUSHER_24LATE)
		return NULL;
	return names[era(mm)][role];
}

uint64_t mm_flusher_period_ns(const struct mm *mm, int role)
{
	switch (era(mm)) {
	case FLUSHER_22:
	case FLUSHER_240:
	case FLUSHER_2410:
	case FLUSHER_24LATE:
		return role ? mm->vm.bdflush_interval * CS_NS : 0;
	default:
		return mm->vm.dirty_writeback_centisecs * CS_NS;
	}
}

/* The periodic flush (update's sync_old_buffers, kupdate, kupdated): every
 * dirty page of the inodes dirtied at least age_buffer ago. */
static enum flush_next periodic_flush(struct mm *mm, struct mm_ctx *ctx)
{
	uint64_t room = queue_room(mm);
	if (!room)
		return FLUSH_CONGESTED;
	uint64_t now = ctx_now(ctx), age = mm->vm.bdflush_age_buffer * CS_NS;
	if (now < age)
		return FLUSH_SLEEP;
	uint64_t done = writeback_inodes(mm, ctx, room, now - age, false);
	charge(ctx, done * mm->cost->scan_ns);
	return done >= room ? FLUSH_CONGESTED : FLUSH_SLEEP;
}

/* One bdflush / kflushd cycle: a batch of the oldest dirty pages; cycle
 * again at once while the era's condition says there is more to do. */
static enum flush_next bdflush_cycle(struct mm *mm, struct mm_ctx *ctx)
{
	uint64_t room = queue_room(mm);
	if (!room)
		return FLUSH_CONGESTED;
	uint64_t batch = bdflush_batch(mm);
	uint64_t done = writeback_inodes(mm, ctx, batch < room ? batch : room, UINT64_MAX, false);
	charge(ctx, done * mm->cost->scan_ns);
	if (done >= room)
		return FLUSH_CONGESTED;
	bool more;
	switch (era(mm)) {
	case FLUSHER_22:
		/* "If there are still a lot of dirty buffers around, skip the
		 * sleep and flush some more." */
		more = done && too_many_dirty_22(mm);
		break;
	case FLUSHER_240:
		more = done && balance_dirty_state(mm) >= 0;
		break;
	default:
		/* write_some_buffers() returns 0 once a batch comes up short. */
		more = done >= batch && balance_dirty_state(mm) >= 0;
		break;
	}
	return more ? FLUSH_AGAIN : FLUSH_SLEEP;
}

/* Late 2.4 bdflush: up to ndirty in NRSYNC batches (the last batch may
 * overshoot: "while (ndirty > 0) ... ndirty -= NRSYNC"), then sleep if the
 * list ran dry or dirty is down to nfract_stop_bdflush, else go on. */
static enum flush_next bdflush_late(struct mm *mm, struct mm_ctx *ctx)
{
	int64_t ndirty = (int64_t)mm->vm.bdflush_ndirty;
	uint64_t total = 0;
	bool dry = false;
	while (ndirty > 0) {
		uint64_t room = queue_room(mm);
		if (!room) {
			charge(ctx, total * mm->cost->scan_ns);
			return FLUSH_CONGESTED;
		}
		uint64_t want = NRSYNC < room ? NRSYNC : room;
		uint64_t done = writeback_inodes(mm, ctx, want, UINT64_MAX, false);
		total += done;
		if (done < NRSYNC) {
			dry = done < want;
			if (!dry) {
				charge(ctx, total * mm->cost->scan_ns);
				return FLUSH_CONGESTED;
			}
			break;
		}
		ndirty -= NRSYNC;
	}
	charge(ctx, total * mm->cost->scan_ns);
	uint64_t tot = free_buffer_pages_late(mm);
	bool stop = mm->stat.nr_dirty * 100 <= tot * mm->vm.bdflush_nfract_stop;
	return dry || ndirty > 0 || stop ? FLUSH_SLEEP : FLUSH_AGAIN;
}

enum flush_next mm_flusher_run(struct mm *mm, struct mm_ctx *ctx, int role)
{
	switch (era(mm)) {
	case FLUSHER_22:
	case FLUSHER_240:
	case FLUSHER_2410:
		if (role)
			return periodic_flush(mm, ctx);
		mm->wake.flusher = false;
		return bdflush_cycle(mm, ctx);
	case FLUSHER_24LATE:
		if (role)
			return periodic_flush(mm, ctx);
		mm->wake.flusher = false;
		return bdflush_late(mm, ctx);
	default:
		return pdflush_run(mm, ctx);
	}
}

void mm_flusher_writer_stalled(struct mm *mm)
{
	if (era(mm) == FLUSHER_22 && mm->stat.nr_dirty)
		mm->wake.flusher = true;
}

/* ---- writers --------------------------------------------------------- */

/* The writer writes up to `want` of the oldest dirty pages itself; true if
 * the request queue filled up (it would sleep in ll_rw_block). */
static bool writer_writes(struct mm *mm, struct mm_ctx *ctx, uint64_t want)
{
	uint64_t room = queue_room(mm);
	if (!want || !mm->stat.nr_dirty)
		return false;
	if (want > room)
		want = room;
	writeback_inodes(mm, ctx, want, UINT64_MAX, false);
	return !queue_room(mm);
}

bool mm_balance_dirty_pages(struct mm *mm, struct mm_ctx *ctx)
{
	/* 2.4 calls balance_dirty() for every page a write dirties
	 * (__block_commit_write): scale the per-call work by them. */
	uint64_t dirtied = mm->stat.nr_dirtied - mm->dirtied_balanced;
	mm->dirtied_balanced = mm->stat.nr_dirtied;
	/* 2.2/2.4 balance only when a buffer turns dirty (refile_buffer,
	 * need_balance_dirty): a write() over dirty pages does not call it. */
	if (!dirtied && era(mm) != FLUSHER_PDFLUSH && era(mm) != FLUSHER_PERBDI)
		return false;
	switch (era(mm)) {
	case FLUSHER_22:
		if (too_many_dirty_22(mm))
			mm->wake.flusher = true;
		return false;
	case FLUSHER_240: {
		int state = balance_dirty_state(mm);
		if (state < 0)
			return false;
		mm->wake.flusher = true;          /* wakeup_bdflush(state) */
		if (state == 0)
			return false;
		mm->ev[NR_DIRTY_THROTTLED]++;
		return writer_writes(mm, ctx, dirtied * bdflush_batch(mm));
	}
	case FLUSHER_2410: {
		int state = balance_dirty_state(mm);
		if (state < 0)
			return false;
		bool full = writer_writes(mm, ctx, dirtied * NRSYNC);
		if (state == 0)
			return full;
		/* wait_for_some_buffers() + wakeup_bdflush() */
		mm->ev[NR_DIRTY_THROTTLED]++;
		mm->wake.flusher = true;
		return full || mm->stat.nr_writeback;
	}
	case FLUSHER_24LATE: {
		int state = balance_dirty_state(mm);
		if (state < 0)
			return false;
		mm->wake.flusher = true;          /* wakeup_bdflush() */
		if (state == 0)
			return false;
		mm->ev[NR_DIRTY_THROTTLED]++;
		return writer_writes(mm, ctx, dirtied * NRSYNC);
	}
	case FLUSHER_PERBDI: {
		uint64_t bg, thr, mbg, mthr;
		mm_dirty_limits(mm, &bg, &thr);
		if (mm_over_bg_thresh(mm))
			mm->wake.flusher = true;  /* bdi_start_background_writeback */
		/* Below the freerun ceiling of the node and of the cgroup
		 * (memcg_dirty.c, a v2 cgroup's own domain). */
		uint64_t dirty = mm->stat.nr_dirty + mm->stat.nr_writeback;
		bool memcg = mm_memcg_dirty_limits(mm, &mbg, &mthr);
		if (dirty <= (bg + thr) / 2 && (!memcg || dirty <= (mbg + mthr) / 2))
			return false;
		mm->wake.flusher = true;
		mm->ev[NR_DIRTY_THROTTLED]++;
		return true;
	}
	default:
		return pdflush_balance_dirty_pages(mm, ctx);
	}
}

/* ---- the eras' defaults ---------------------------------------------- */

void mm_flusher_era(struct mm *mm, enum flusher_era e)
{
	struct vm_sysctl *vm = &mm->vm;
	vm->flusher = e;
	switch (e) {
	case FLUSHER_22:
		/* 2.2.1 bdf_prm {40, 500, 64, 256, 15, 30*HZ, 5*HZ, 1884, 2};
		 * update(8) every 5 s. */
		vm->bdflush_nfract = 40;
		vm->bdflush_ndirty = 500;
		vm->bdflush_interval = 500;
		vm->bdflush_age_buffer = 3000;
		break;
	case FLUSHER_240:
		/* 2.4.0 bdf_prm {30, 64, 64, 256, 5*HZ, 30*HZ, 60, 0, 0} */
		vm->bdflush_nfract = 30;
		vm->bdflush_ndirty = 64;
		vm->bdflush_nfract_sync = 60;
		vm->bdflush_interval = 500;
		vm->bdflush_age_buffer = 3000;
		break;
	case FLUSHER_2410:
		/* 2.4.17 bdf_prm {40, 0, 0, 0, 5*HZ, 30*HZ, 60, 0, 0} */
		vm->bdflush_nfract = 40;
		vm->bdflush_ndirty = 0;
		vm->bdflush_nfract_sync = 60;
		vm->bdflush_interval = 500;
		vm->bdflush_age_buffer = 3000;
		break;
	case FLUSHER_PERBDI:
		/* vm_dirty_ratio = 20, dirty_background_ratio = 10 */
		vm->dirty_ratio = 20;
		vm->dirty_background_ratio = 10;
		break;
	case FLUSHER_24LATE:
		/* 2.4.27 bdf_prm {30, 500, 0, 0, 5*HZ, 30*HZ, 60, 20, 0} */
		vm->bdflush_nfract = 30;
		vm->bdflush_ndirty = 500;
		vm->bdflush_nfract_sync = 60;
		vm->bdflush_interval = 500;
		vm->bdflush_age_buffer = 3000;
		vm->bdflush_nfract_stop = 20;
		break;
	case FLUSHER_PDFLUSH:
		/* 2.6.22-2.6.28: vm_dirty_ratio = 10, dirty_background_ratio = 5 */
		vm->dirty_ratio = 10;
		vm->dirty_background_ratio = 5;
		break;
	}
}
