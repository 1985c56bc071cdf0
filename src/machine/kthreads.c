/* kthreads.c - the machine's kernel threads, one step each when the CPU
 * runs them: kswapd (balance_pgdat()), a design's periodic aging thread
 * (vhand, kreclaimd...) and the era's writeback threads (bdflush/kupdate,
 * pdflush, the flusher).  machine.c's cpu_event() runs them as it runs a
 * user task's ops (tasks.c); what they do to memory is the mm core's. */
#include "tasks.h"
#include "../mm/filemap.h"
#include "../mm/zram_wb.h"
#include "../lib/util.h"

/* kswapd: balance_pgdat() in SWAP_CLUSTER_MAX batches until the zone is
 * above its high watermark.  Pages already being written back on their way
 * to the free list count: rather than evict more, kswapd waits for them. */
/* kswapd goes back to sleep: balance_pgdat() has returned, and with it
 * its memory stall (PSI: psi_memstall_leave). */
static void kswapd_sleep(struct machine *m, struct task *t, struct mm_ctx *ctx)
{
	machine_psi_memstall(m, t, false, ctx->t0 + ctx->user_ns + ctx->sys_ns);
	machine_block(m, t, W_IDLE, 0);
}

static enum step_result run_kswapd(struct machine *m, struct task *t, struct mm_ctx *ctx, uint64_t budget)
{
	struct mm *mm = &m->mm;
	/* balance_pgdat() runs in a memory stall (psi_memstall_enter),
	 * its congestion waits included. */
	machine_psi_memstall(m, t, true, ctx->t0);
	while (ctx->user_ns + ctx->sys_ns < budget) {
		/* Completions due while kswapd ran its earlier passes. */
		mm_reclaim_io_catch_up(mm, ctx, NULL);
		if (mm_kswapd_balanced(mm, 0)) {
			mm->wake.kswapd = false;
			t->prio = DEF_PRIORITY;
			kswapd_sleep(m, t, ctx);
			return STEP_BLOCKED;
		}
		if (mm->stat.nr_pending_free && mm_kswapd_balanced(mm, mm->stat.nr_pending_free)) {
			machine_block(m, t, W_MEMORY, ctx->t0 + ctx->user_ns + ctx->sys_ns + m->prof.congestion_wait_ns);
			return STEP_BLOCKED;
		}
		uint64_t got = mm_shrink(mm, ctx, SWAP_CLUSTER_MAX, t->prio);
		if (mm->wake.oom) {
			/* MGLRU's min_ttl: kswapd itself calls out_of_memory(). */
			mm->wake.oom = false;
			if (!task_oom_kill(m, ctx->t0 + ctx->user_ns + ctx->sys_ns)) {
				kswapd_sleep(m, t, ctx);
				return STEP_BLOCKED;
			}
			t->prio = DEF_PRIORITY;
			continue;
		}
		if (got) {
			t->prio = DEF_PRIORITY;
			continue;
		}
		/* balance_pgdat(): once the priority has dropped below
		 * DEF_PRIORITY - 2 with pages already being written, sleep in
		 * congestion_wait() rather than start writeback on ever more of
		 * memory; the scan resumes at this priority afterwards. */
		if (t->prio < DEF_PRIORITY - 2 && mm->stat.nr_pending_free) {
			t->prio--;
			if (t->prio < 0)
				t->prio = 0;
			machine_block(m, t, W_MEMORY, ctx->t0 + ctx->user_ns + ctx->sys_ns + m->prof.congestion_wait_ns);
			return STEP_BLOCKED;
		}
		if (t->prio > 0) {
			t->prio--;
			continue;
		}
		/* Nothing reclaimable at priority 0: wait for I/O, or give up
		 * until the allocator wakes us again. */
		t->prio = DEF_PRIORITY;
		if (mm->stat.nr_writeback || mm->stat.nr_reading) {
			machine_block(m, t, W_MEMORY, ctx->t0 + ctx->user_ns + ctx->sys_ns + m->prof.congestion_wait_ns);
		} else {
			mm->wake.kswapd = false;
			kswapd_sleep(m, t, ctx);
		}
		return STEP_BLOCKED;
	}
	return STEP_CONTINUE;
}

/* A design's periodic thread (vhand, kreclaimd...): one tick, then sleep. */
static enum step_result run_tick(struct machine *m, struct task *t, struct mm_ctx *ctx)
{
	mm_tick(&m->mm, ctx);
	machine_block(m, t, W_SLEEP, ctx->t0 + ctx->user_ns + ctx->sys_ns + m->mm.pol.ops->tick_ns);
	return STEP_BLOCKED;
}

/* A writeback thread (the era's, src/mm/flusher_era.c): one run, then
 * sleep its period (or until woken), loop at once, or only a
 * congestion_wait() if it left work because the disk queue was full. */
static enum step_result run_flusher(struct machine *m, struct task *t, struct mm_ctx *ctx)
{
	int role = t->kkind == KT_KUPDATE;
	enum flush_next next = mm_flusher_run(&m->mm, ctx, role);
	uint64_t now = ctx->t0 + ctx->user_ns + ctx->sys_ns;
	uint64_t period = mm_flusher_period_ns(&m->mm, role);
	if (next == FLUSH_AGAIN)
		return STEP_CONTINUE;
	if (next == FLUSH_CONGESTED)
		machine_block(m, t, W_MEMORY, now + m->prof.congestion_wait_ns);
	else
		machine_block(m, t, W_SLEEP, period ? now + period : 0);
	return STEP_BLOCKED;
}

/* zram's writer (zram_wb.c), as Android's ZramWriteback job does it
 * (frameworks/base ZramWriteback.markAndFlushPages(): echo idle >
 * writeback, then echo all > idle), every wb= period: writeback_store()
 * writes one page at a time with submit_bio_wait(), so the thread
 * blocks on each write; its page's fate is settled when it runs again.
 * Its CPU (the decompressions, the bios) is its own, a task's system
 * time. */
static enum step_result run_zram_wb(struct machine *m, struct task *t, struct mm_ctx *ctx)
{
	struct mm *mm = &m->mm;
	struct zram *z = mm->swap.zram;
	struct zram_wb *w = z->wb;
	if (w->inflight != UINT32_MAX)
		zram_wb_done(z);  /* the write this thread waited for */
	else if (!w->busy)
		zram_wb_scan(z);  /* a new period */
	uint64_t block;
	if (zram_wb_next(z, ctx, &block)) {
		uint64_t at = ctx->t0 + ctx->user_ns + ctx->sys_ns;
		mm->ev[PGPGOUT] += PAGE_SIZE / 1024;  /* submit_bio() */
		io_request(mm, ctx, NULL, block);
		disk_submit(&m->disk, IO_WRITE, block, ZWB_COOKIE | (uint64_t)t->id, at);
		t->wait_pfn = PFN_NONE;
		machine_block(m, t, W_PAGE, 0);
		return STEP_BLOCKED;
	}
	zram_wb_finish(z);
	uint64_t now = ctx->t0 + ctx->user_ns + ctx->sys_ns;
	zram_mark_idle(z, now);
	machine_block(m, t, W_SLEEP, now + w->cfg.period_ns);
	return STEP_BLOCKED;
}

/* The allocator (or the flusher's dirty limit) asked for kswapd or the
 * flusher: wake the one that sleeps. */
void kthreads_wake(struct machine *m, uint64_t now)
{
	if (m->flusher >= 0 && m->mm.wake.flusher) {
		struct task *f = &m->tasks[m->flusher];
		if (f->state == T_BLOCKED && f->wait == W_SLEEP)
			machine_wake(m, f, now);
	}
	if (m->kswapd < 0 || !m->mm.wake.kswapd)
		return;
	struct task *k = &m->tasks[m->kswapd];
	if (k->state == T_BLOCKED && k->wait == W_IDLE) {
		m->mm.ev[PAGEOUTRUN]++;
		machine_wake(m, k, now);
	}
}

enum step_result kthread_run(struct machine *m, struct task *t, struct mm_ctx *ctx, uint64_t budget)
{
	switch (t->kkind) {
	case KT_KSWAPD:
		return run_kswapd(m, t, ctx, budget);
	case KT_TICK:
		return run_tick(m, t, ctx);
	case KT_FLUSH:
	case KT_KUPDATE:
		return run_flusher(m, t, ctx);
	case KT_ZRAM_WB:
		return run_zram_wb(m, t, ctx);
	case KT_NONE:
		break;
	}
	panic("kthread_run: task %d is no kernel thread", t->id);
}
