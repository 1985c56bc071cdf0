/* machine.c - the discrete-event machine.
 *
 * Each CPU runs its task in chunks of at most cpu_grain of simulated work (and
 * at most the rest of the task's quantum), so memory events of tasks on
 * different CPUs interleave in time order at a fine grain.  A chunk's state
 * changes take effect at its start; its cost moves the CPU's clock.  A task
 * that must wait (a swap-in, writeback it needs, a sleep) blocks and its CPU
 * takes the next runnable task or goes idle.  kswapd is a task too, and
 * competes for CPU like the real one.  What a user task does in its chunk
 * is tasks.c's; vmstat's samples are vmstat.c's. */
#include "machine.h"
#include "../mm/swap_cluster.h"
#include "tasks.h"
#include "sched.h"
#include "../mm/filemap.h"
#include "../mm/compress_table.h"
#include "../mm/zswap.h"
#include "../mm/zram_wb.h"
#include "../mm/cgtree.h"
#include "../lib/util.h"
#include "../lib/output.h"
#include "../lib/hostmem.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>


double task_seconds(uint64_t ns) { return (double)ns / 1e9; }

void machine_log(struct machine *m, uint64_t t, enum log_kind kind, int wl, const char *text)
{
	m->log = xrealloc(m->log, (m->nr_log + 1) * sizeof(*m->log));
	m->log[m->nr_log++] = (struct log_entry){ .t = t, .kind = kind, .wl = wl,
						  .text = text ? xstrdup(text) : NULL };
}

/* ---- accounting ------------------------------------------------------- */

static int nr_idle_cpus(const struct machine *m)
{
	int n = 0;
	for (uint64_t c = 0; c < m->prof.cpus; c++)
		n += m->cpus[c].idle;
	return n;
}

/* Integrate idle and iowait time up to `t`. */
static void account_to(struct machine *m, uint64_t t)
{
	if (t <= m->acct_t)
		return;
	uint64_t dt = t - m->acct_t;
	uint64_t idle = (uint64_t)nr_idle_cpus(m) * dt;
	if (m->nr_iowait > 0)
		m->iowait_ns += idle;
	else
		m->idle_ns += idle;
	m->acct_t = t;
}

/* ---- run queue -------------------------------------------------------- */

static void rq_push(struct machine *m, int tid)
{
	if (m->rq_len == m->rq_cap) {
		int ncap = m->rq_cap ? m->rq_cap * 2 : 16;
		int *n = xmalloc(ncap * sizeof(int));
		for (int i = 0; i < m->rq_len; i++)
			n[i] = m->runq[(m->rq_head + i) % m->rq_cap];
		free(m->runq);
		m->runq = n;
		m->rq_head = 0;
		m->rq_cap = ncap;
	}
	m->runq[(m->rq_head + m->rq_len++) % m->rq_cap] = tid;
}

/* Tasks waiting for CPU c: with one queue, every entry (as before a queue
 * per CPU existed: entries the OOM killer left count until dropped). */
static int rq_waiting(const struct machine *m, uint32_t c)
{
	return sched_is_percpu(m) ? sched_queued(m, (int)c) : m->rq_len;
}

/* The next task for CPU c: with a queue per CPU, the first runnable one
 * queued for c (round robin) or EEVDF's pick of c's queue. */
static int rq_pop(struct machine *m, uint32_t c)
{
	if (sched_is_eevdf(m))
		return sched_eevdf_pick(m, (int)c);
	if (sched_is_percpu(m)) {
		for (int i = 0; i < m->rq_len; i++) {
			const struct task *t = &m->tasks[m->runq[(m->rq_head + i) % m->rq_cap]];
			if (t->state == T_RUNNABLE && t->cpu == (int)c)
				return sched_rq_take(m, i);
		}
		sched_rq_drop_dead(m);
		return -1;
	}
	while (m->rq_len) {
		int tid = m->runq[m->rq_head];
		m->rq_head = (m->rq_head + 1) % m->rq_cap;
		m->rq_len--;
		if (m->tasks[tid].state == T_RUNNABLE)
			return tid; /* skip tasks the OOM killer took meanwhile */
	}
	return -1;
}

static void wake_task(struct machine *m, struct task *t, uint64_t when)
{
	if (t->state != T_BLOCKED)
		return;
	if (wait_is_io(t->wait)) {
		m->nr_iowait--;
		if (when > t->blocked_at)
			t->stall_ns += when - t->blocked_at;
	}
	t->state = T_RUNNABLE;
	t->wait = W_NONE;
	t->wait_gen++;
	rq_push(m, t->id);
	if (sched_is_percpu(m))
		t->cpu = sched_select_cpu(m, t);
	machine_psi_sync(m, t, when);
	if (sched_is_eevdf(m))
		sched_eevdf_wake(m, t);
	if (sched_is_percpu(m)) {
		if (m->cpus[t->cpu].idle)
			sched_cpu_wake(m, t->cpu, when);
		return;
	}
	for (uint64_t c = 0; c < m->prof.cpus; c++) {
		if (m->cpus[c].idle) {
			m->cpus[c].idle = false;
			evq_push(&m->q, when, EV_CPU, (uint32_t)c, 0);
			break;
		}
	}
}

void machine_wake(struct machine *m, struct task *t, uint64_t when) { wake_task(m, t, when); }

void machine_block(struct machine *m, struct task *t, enum wait_kind w, uint64_t timeout_at)
{
	if (sched_is_eevdf(m))
		sched_eevdf_sleep(m, t);
	t->state = T_BLOCKED;
	t->wait = w;
	t->wait_gen++;
	t->blocked_at = m->now;
	if (wait_is_io(w))
		m->nr_iowait++;
	if (timeout_at)
		evq_push(&m->q, timeout_at, EV_WAKE, (uint32_t)t->id, t->wait_gen);
}

static struct task *new_task(struct machine *m, const char *comm, int wl, int wl_task, bool kthread)
{
	m->tasks = xrealloc(m->tasks, (m->nr_tasks + 1) * sizeof(*m->tasks));
	struct task *t = &m->tasks[m->nr_tasks];
	memset(t, 0, sizeof(*t));
	t->id = m->nr_tasks++;
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->wl = wl;
	t->wl_task = wl_task;
	t->kthread = kthread;
	t->state = T_BLOCKED;
	t->wait = W_IDLE;
	t->wait_pfn = PFN_NONE;
	t->prio = DEF_PRIORITY;
	return t;
}

/* ---- I/O ------------------------------------------------------------ */

static void io_submit_swap(void *arg, enum io_dir dir, uint32_t block, pfn_t pfn, uint64_t t)
{
	struct machine *m = arg;
	disk_submit(&m->disk, dir, block, pfn, t);
}

/* mm_io.submit_discard: a swap cluster's discard, its cookie the
 * cluster; t is never before the event clock (a slot freed outside any
 * task's context has no clock of its own). */
static void io_submit_discard(void *arg, uint64_t block, uint32_t npages, uint32_t cluster, uint64_t t)
{
	struct machine *m = arg;
	disk_submit_discard(&m->disk, block, npages, DISCARD_COOKIE | cluster, t > m->now ? t : m->now);
}

static void io_submit_block(void *arg, enum io_dir dir, uint64_t block, pfn_t pfn, uint64_t t)
{
	struct machine *m = arg;
	disk_submit(&m->disk, dir, block, pfn, t);
}

/* mm_io.remote_tlb_flush: every other CPU of the victim's mm_cpumask
 * (cpumask: the CPUs a task of it ran on) busy at time t takes the IPI.
 * A CPU's chunk is computed whole when it starts, and the reclaimer's
 * time runs ahead of the event clock, so another CPU is busy at t if t
 * falls in its last chunk, or a task is there or in the run queue for
 * its next one (idle, it is in lazy TLB mode and skipped).  The time is
 * that CPU's, paid by the chunk it runs next. */
static unsigned io_remote_tlb_flush(void *arg, uint64_t t, uint64_t recv_ns, uint64_t cpumask)
{
	struct machine *m = arg;
	unsigned n = 0;
	for (uint64_t c = 0; c < m->prof.cpus; c++) {
		struct cpu *cpu = &m->cpus[c];
		if (cpu->task >= 0 && cpu->task == m->cur_task)
			continue;
		if (!(cpumask & (1ULL << (c < 63 ? c : 63))))
			continue;
		if (t >= cpu->busy_until && cpu->task < 0 && !rq_waiting(m, (uint32_t)c))
			continue;
		cpu->irq_ns += recv_ns;
		n++;
	}
	return n;
}

/* Tick accounting (no CONFIG_IRQ_TIME_ACCOUNTING: this host's /proc/stat
 * irq column stays 0) gives an interrupt's time to the mode it
 * interrupted.  A task's chunk took IRQ ns of them; the chunk's own user
 * and system time say how likely each mode was, so the interrupts count
 * in that proportion.  Measured: a dd reading a stream beside usemem's
 * swap-out took 24 700 flush IPIs and 0.00 s of user time in the kernel
 * (0.62 s system); charged all as user time, pagelab's dd had 0.33 s. */
static void irq_time_to_mode(struct mm_ctx *ctx, uint64_t irq, bool kthread)
{
	if (!irq || kthread)
		return;
	uint64_t user = ctx->user_ns - irq, sys = ctx->sys_ns;
	if (!user && !sys)
		return;
	uint64_t to_sys = (uint64_t)((double)irq * (double)sys / (double)(user + sys));
	ctx->user_ns -= to_sys;
	ctx->sys_ns += to_sys;
}

/* mm_io.catch_up: a reclaim pass has run ahead of the event clock to time
 * t; the disk's interrupts due by then are taken now. */
static uint64_t io_catch_up(void *arg, uint64_t t)
{
	struct machine *m = arg;
	return disk_run_until(&m->disk, t);
}

void machine_wake_memory_waiters(struct machine *m, uint64_t now)
{
	for (int i = 0; i < m->nr_tasks; i++)
		if (m->tasks[i].state == T_BLOCKED && m->tasks[i].wait == W_MEMORY)
			wake_task(m, &m->tasks[i], now);
}

static void io_complete(void *arg, enum io_dir dir, struct disk_bio *bios, uint64_t now)
{
	struct machine *m = arg;
	account_to(m, now); /* a catch-up runs ahead of the event clock */
	m->nr_intr++;
	for (struct disk_bio *b = bios; b; b = b->next) {
		if (b->cookie & DIO_COOKIE) {
			fileops_dio_done(m, b->cookie, now);
			continue;
		}
		if (b->cookie & DISCARD_COOKIE) {
			/* swap_do_scheduled_discard(): the cluster is free */
			swap_cl_discard_done(m->mm.swap.cl, (uint32_t)(b->cookie & ~DISCARD_COOKIE));
			continue;
		}
		if (b->cookie & ZWB_COOKIE) {
			/* zram's writer: its submit_bio_wait() returns */
			machine_wake(m, &m->tasks[b->cookie & ~ZWB_COOKIE], now);
			continue;
		}
		pfn_t pfn = (pfn_t)b->cookie;
		mm_io_done(&m->mm, dir, pfn);
		if (dir == IO_READ)
			for (int i = 0; i < m->nr_tasks; i++) {
				struct task *t = &m->tasks[i];
				if (t->state == T_BLOCKED && t->wait == W_PAGE && t->wait_pfn == pfn)
					wake_task(m, t, now);
			}
	}
	if (dir == IO_WRITE)
		machine_wake_memory_waiters(m, now);
}

static void cpu_event(struct machine *m, uint32_t c)
{
	struct cpu *cpu = &m->cpus[c];
	uint64_t now = m->now;
	if (sched_is_percpu(m))
		sched_balance(m, (int)c, now);
	if (cpu->task < 0) {
		int tid = rq_pop(m, c);
		if (tid < 0) {
			/* Switching to the idle task is a context switch too. */
			if (cpu->last_task >= 0)
				m->nr_ctxsw++;
			cpu->last_task = -1;
			cpu->idle = true;
			cpu->idle_since = now;
			return;
		}
		cpu->task = tid;
		m->tasks[tid].cpu = (int)c;
		m->tasks[tid].state = T_RUNNING;
		m->tasks[tid].slice_used = 0;
		if (sched_is_eevdf(m))
			sched_eevdf_new_slice(m, &m->tasks[tid]);
		/* Back on a CPU: the stall its wait was part of ends. */
		if (m->tasks[tid].psi_leave_on_run)
			machine_psi_memstall(m, &m->tasks[tid], false, now);
		machine_psi_sync(m, &m->tasks[tid], now);
	}
	struct task *t = &m->tasks[cpu->task];
	if (t->state == T_EXITED) {
		/* Killed by the OOM killer while it ran here. */
		cpu->task = -1;
		evq_push(&m->q, now, EV_CPU, c, 0);
		return;
	}
	m->cur_task = t->id;
	m->mm.swap.cpu = (uint32_t)c; /* percpu_swap_cluster: this CPU's */
	m->self_exit_ns = 0;
	if (t->as) /* switch_mm_irqs_off(): this CPU joins the mm's cpumask */
		t->as->cpumask |= 1ULL << (c < 63 ? c : 63);
	struct mm_ctx ctx = { .t0 = now, .task = t->id, .kswapd = t->kthread, .wait_pfn = PFN_NONE };
	if (cpu->last_task != t->id) {
		/* schedule() picked a different task (or this CPU was idle). */
		m->nr_ctxsw++;
		ctx.sys_ns += m->prof.ctx_switch_ns;
		cpu->last_task = t->id;
	}
	/* Interrupts this CPU took since its last chunk (remote TLB flushes)
	 * come out of this one's time (below, the mode they count in). */
	uint64_t irq = cpu->irq_ns;
	cpu->irq_ns = 0;
	*(t->kthread ? &ctx.sys_ns : &ctx.user_ns) += irq;
	uint64_t budget = m->prof.quantum_ns > t->slice_used ? m->prof.quantum_ns - t->slice_used : 0;
	if (budget > m->prof.grain_ns)
		budget = m->prof.grain_ns;
	if (!budget)
		budget = 1;
	if (m->prof.untimed)
		budget = UINT64_MAX / 2;
	enum step_result r = t->kkind != KT_NONE ? kthread_run(m, t, &ctx, budget)
			     : task_run_user(m, t, &ctx, budget);
	ctx.sys_ns += m->self_exit_ns;
	irq_time_to_mode(&ctx, irq, t->kthread);
	m->cur_task = -1;
	uint64_t used = ctx.user_ns + ctx.sys_ns;
	t->utime += ctx.user_ns;
	t->stime += ctx.sys_ns;
	t->majflt += ctx.majflt;
	t->minflt += ctx.minflt;
	m->user_ns += ctx.user_ns;
	m->sys_ns += ctx.sys_ns;
	if (r == STEP_CONTINUE && used == 0)
		used = 1; /* always make progress */
	t->slice_used += used;
	bool preempted = cpu->resched;
	cpu->resched = false;
	if (sched_is_eevdf(m))
		sched_eevdf_ran(t, used);
	t->last_ran = now + used;
	if (r == STEP_CONTINUE) {
		if ((t->slice_used >= m->prof.quantum_ns || preempted) && rq_waiting(m, c)) {
			t->state = T_RUNNABLE;
			rq_push(m, t->id);
			cpu->task = -1;
		} else if (t->slice_used >= m->prof.quantum_ns) {
			/* Nobody waits: a fresh slice.  Without it the exhausted
			 * slice left a budget of 1 ns, one page per event. */
			t->slice_used = 0;
		}
	} else {
		cpu->task = -1;
	}
	cpu->busy_until = now + used;
	machine_psi_sync(m, t, now + used); /* off the CPU, or asleep, at its chunk's end */
	evq_push(&m->q, now + used, EV_CPU, c, 0);
	kthreads_wake(m, now);
}

/* ---- setup and main loop ---------------------------------------------- */

/* --set zswap=N: zswap in front of the disk swap area, one LRU per
 * memory cgroup of --cgroup (src/mm/zswap.c) */
static void machine_zswap_init(struct machine *m, const struct profile *p)
{
	struct zswap_config c = {
		.max_pool_percent = p->zswap_max_pool ? (unsigned)p->zswap_max_pool : 20,
		.accept_thr_percent = p->zswap_accept ? (unsigned)p->zswap_accept : 90,
		.shrinker = p->zswap_shrinker, .same_filled = p->zswap_same_filled,
		.algo = (enum zalgo)(p->zswap - 1),
		.chain = p->zram_chain ? (unsigned)p->zram_chain : 8,
		.trace_ratio = (unsigned)p->zram_trace_ratio,
		.comp_ps = p->zram_comp_ps, .decomp_ps = p->zram_decomp_ps,
	};
	struct mm *mm = &m->mm;
	mm->swap.zswap = zswap_create(mm, mm->swap.nr_slots, mm->cgt ? mm->cgt->n : 1, &c);
}

/* zram's backing device and its writer go together, with a zram device
 * (docs/zram.md): one line in err otherwise. */
static bool zram_wb_valid(const struct profile *p, char *err, size_t errlen)
{
	bool wb_set = p->zram_wb_period_ns || p->zram_wb_mode || p->zram_wb_limit || p->zram_wb_age_ns;
	if ((p->zram_backing || wb_set) && !p->zram)
		snprintf(err, errlen, "zram.backing and zram.wb_*: a zram device's (--swap zram:SIZE,backing=SIZE,wb=T)");
	else if (p->zram_backing && p->zram_backing < 2 * PAGE_SIZE)
		snprintf(err, errlen, "zram: backing=%llu bytes: at least 8K (block 0 is never used)",
			 (unsigned long long)p->zram_backing);
	else if (p->zram_backing && !p->zram_wb_period_ns)
		snprintf(err, errlen, "zram: backing= needs wb=PERIOD, the writer that writes pages back "
			 "(docs/zram.md)");
	else if (!p->zram_backing && wb_set)
		snprintf(err, errlen, "zram: wb=, wb_mode=, wb_limit= and wb_age= need backing=SIZE");
	else
		return true;
	return false;
}

bool machine_init(struct machine *m, const struct profile *p, const struct machine_opts *o,
		  char *err, size_t errlen)
{
	memset(m, 0, sizeof(*m));
	m->prof = *p;
	m->opt = *o;
	uint64_t reserve = profile_kernel_reserve(p);
	uint64_t min_pages = p->untimed ? 1 : 16;
	if (p->ram <= reserve || (p->ram - reserve) / PAGE_SIZE < min_pages) {
		snprintf(err, errlen, "RAM of %llu KiB is smaller than the kernel's reserve (%llu KiB) plus %llu page%s",
			 (unsigned long long)(p->ram / 1024), (unsigned long long)(reserve / 1024),
			 (unsigned long long)min_pages, min_pages > 1 ? "s" : "");
		return false;
	}
	m->ram_pages = (p->ram - reserve) / PAGE_SIZE;
	if (m->ram_pages >= PFN_NONE) {
		snprintf(err, errlen, "RAM of %llu pages is more than pagelab can simulate (at most %u)",
			 (unsigned long long)m->ram_pages, PFN_NONE - 1);
		return false;
	}
	uint64_t swap_pages = p->swap / PAGE_SIZE;
	if (swap_pages >= UINT32_MAX) {
		snprintf(err, errlen, "swap of %llu pages is more than pagelab can simulate",
			 (unsigned long long)swap_pages);
		return false;
	}
	/* What the simulation will hold: a struct page per frame, the swap
	 * map and swap cache index per slot, and page tables - one pte_t per
	 * virtual page, at most every page that can exist in RAM or swap
	 * (a mapping larger than that cannot be touched whole anyway).
	 * Against what this process may really use: MemAvailable, ulimit,
	 * our cgroup's limit (lib/hostmem.h).  Traces were loaded before. */
	uint64_t frames_b = m->ram_pages * (sizeof(struct page) + sizeof(struct lru_link));
	uint64_t swap_b = swap_pages * (sizeof(uint16_t) + sizeof(pfn_t));
	uint64_t pte_b = (m->ram_pages + swap_pages) * sizeof(pte_t);
	uint64_t need = frames_b + swap_b + pte_b;
	const char *limit;
	uint64_t avail = host_memory_available(&limit);
	if (need > avail) {
		snprintf(err, errlen, "simulating %llu MiB of RAM and %llu MiB of swap needs about %llu MiB of host memory (frames %llu, swap map %llu, page tables %llu MiB); %llu MiB available (%s)",
			 (unsigned long long)(p->ram >> 20), (unsigned long long)(p->swap >> 20),
			 (unsigned long long)(need >> 20), (unsigned long long)(frames_b >> 20),
			 (unsigned long long)(swap_b >> 20), (unsigned long long)(pte_b >> 20),
			 (unsigned long long)(avail >> 20), limit);
		return false;
	}
	if (p->zswap && (p->zram || p->untimed)) {
		snprintf(err, errlen, "--set zswap=%llu needs a disk swap area (not --swap zram:) and a machine with watermarks",
			 (unsigned long long)p->zswap);
		return false;
	}
	if (p->zswap && !compress_table[DK_RANDOM][p->zswap - 1].have) {
		snprintf(err, errlen, "--set zswap: %s was not measured (make compcal)",
			 zalgo_name((enum zalgo)(p->zswap - 1)));
		return false;
	}
	if (p->zram && !compress_table[DK_RANDOM][p->zram - 1].have) {
		snprintf(err, errlen, "--swap zram: %s was not measured (src/mm/compress_table.c was made without its library: make compcal)",
			 zalgo_name((enum zalgo)(p->zram - 1)));
		return false;
	}
	if (!zram_wb_valid(p, err, errlen))
		return false;
	if (p->swap_discard && !p->swap_cluster) {
		snprintf(err, errlen, "swap.discard=1 needs swap.cluster=1 or 2: a discard is of a whole emptied cluster");
		return false;
	}
	if (p->zram && p->untimed) {
		snprintf(err, errlen, "--swap zram needs a machine with watermarks: the pool's pages come from the reserve below them (profile %s has none)",
			 p->name ? p->name : "?");
		return false;
	}
	struct mm_config cfg = {
		.ram_pages = m->ram_pages,
		.swap_pages = swap_pages,
		.min_free_kbytes = p->min_free_kbytes,
		.no_watermarks = p->untimed,
		.untimed = p->untimed,
		.disk_blocks = p->disk.capacity / PAGE_SIZE,
		.check = o->check,
		.seed = o->seed,
		.swap_cluster = (unsigned)p->swap_cluster, .nr_cpus = (unsigned)p->cpus,
		/* swapon --discard=pages sets SWP_PAGE_DISCARD only on a device
		 * that takes discards (bdev_max_discard_sectors()): an SSD or
		 * zram, not a rotating disk */
		.swap_discard = p->swap_discard && (p->zram || p->disk.kind == DISK_SSD),
		.zram = (unsigned)p->zram, .zram_chain = (unsigned)p->zram_chain,
		.zram_trace_ratio = (unsigned)p->zram_trace_ratio,
		.zram_comp_ps = p->zram_comp_ps, .zram_decomp_ps = p->zram_decomp_ps,
		.zram_wb_pages = p->zram ? p->zram_backing / PAGE_SIZE : 0,
		.zram_wb_period_ns = p->zram_wb_period_ns, .zram_wb_limit = p->zram_wb_limit,
		.zram_wb_age_ns = p->zram_wb_age_ns,
		.zram_wb_mode = p->zram_wb_mode == 0 ? ZWB_IDLE : p->zram_wb_mode == 1 ? ZWB_HUGE : ZWB_IDLE | ZWB_HUGE,
	};
	mm_init(&m->mm, &cfg, &m->prof.cost);
	if (o->memcg_pages)
		mm_memcg_init(&m->mm, o->memcg_pages, o->memcg_v1);
	if (o->cgroups.n) {
		mm_cgtree_init(&m->mm, &o->cgroups);
		m->mm.cgt->hz = (unsigned)p->hz;
	}
	if (p->zswap)
		machine_zswap_init(m, p);
	if (!p->untimed && m->mm.zones[0].wmark_high * 2 >= m->ram_pages) {
		snprintf(err, errlen, "RAM of %llu pages leaves too little above the watermarks (high = %llu pages)",
			 (unsigned long long)m->ram_pages, (unsigned long long)m->mm.zones[0].wmark_high);
		mm_destroy(&m->mm);
		return false;
	}
	m->mm.io = (struct mm_io){ .arg = m, .submit_swap = io_submit_swap,
				   .submit_block = io_submit_block, .catch_up = io_catch_up,
				   .submit_discard = io_submit_discard,
				   .remote_tlb_flush = io_remote_tlb_flush,
				   .max_request_pages = (uint32_t)(p->disk.max_request / PAGE_SIZE) };
	evq_init(&m->q);
	disk_init(&m->disk, &p->disk, &m->q, 0, io_complete, m);
	m->cpus = xcalloc(p->cpus, sizeof(*m->cpus));
	for (uint64_t c = 0; c < p->cpus; c++)
		m->cpus[c] = (struct cpu){ .task = -1, .last_task = -1, .idle = true };
	m->kswapd = -1;
	m->flusher = -1;
	m->cur_task = -1;
	machine_psi_init(m);
	return true;
}

void machine_set_policy(struct machine *m, const struct policy_ops *ops, const double *tun)
{
	mm_set_policy(&m->mm, ops, tun);
	/* --set vm.NAME=VALUE wins over the policy's era defaults; a
	 * --set vm.flusher=N brings that era's thresholds along first. */
	uint64_t *vm = (uint64_t *)&m->mm.vm;
	const uint64_t *pv = (const uint64_t *)&m->prof.vm;
	if (m->prof.vm_set & (1ULL << (offsetof(struct vm_sysctl, flusher) / sizeof(uint64_t))))
		mm_flusher_era(&m->mm, (enum flusher_era)m->prof.vm.flusher);
	for (size_t i = 0; i < sizeof(m->mm.vm) / sizeof(uint64_t); i++)
		if (m->prof.vm_set & (1ULL << i))
			vm[i] = pv[i];
}

bool machine_add_file(struct machine *m, const char *name, uint64_t npages)
{
	return filemap_make_uncached(&m->mm, name, npages) != NULL;
}

void machine_add_workload(struct machine *m, const struct workload_ops *ops, void *w, const char *cmd)
{
	m->wls = xrealloc(m->wls, (m->nr_wls + 1) * sizeof(*m->wls));
	struct wl_inst *wl = &m->wls[m->nr_wls];
	if (ops->attach) {
		struct wl_sysinfo si = {
			.totalram = m->ram_pages * PAGE_SIZE, .freeram = m->mm.stat.nr_free * PAGE_SIZE,
			.totalswap = (uint64_t)m->mm.swap.nr_slots * PAGE_SIZE,
			.freeswap = (uint64_t)(m->mm.swap.nr_slots - m->mm.swap.used) * PAGE_SIZE,
			.disk_bytes = m->prof.disk.capacity,
			.first_pid = m->nr_tasks + 1000,  /* as the OOM killer's messages number them */
			.syscall_ns = m->prof.cost.syscall_ns ? m->prof.cost.syscall_ns : m->prof.cost.fault_ns,
			.ctx_switch_ns = m->prof.ctx_switch_ns,
		};
		ops->attach(w, &si);
	}
	int n = ops->nr_tasks(w);
	*wl = (struct wl_inst){ .ops = ops, .w = w, .cmd = xstrdup(cmd), .ntasks = n, .live = n };
	wl->first_task = m->nr_tasks;
	for (int i = 0; i < n; i++) {
		struct task *t = new_task(m, ops->name, m->nr_wls, i, false);
		t->as = mm_aspace_new(&m->mm, t->id);
		m->live_user++;
	}
	m->nr_wls++;
}

static void progress(struct machine *m, bool final)
{
	static time_t last;
	time_t now = time(NULL);
	if (!final && now == last)
		return;
	last = now;
	fprintf(stderr, "\rpagelab: simulated %.1f s, %llu faults%s", (double)m->now / 1e9,
		(unsigned long long)m->mm.ev[PGFAULT], final ? "\n" : "");
}

void machine_run(struct machine *m)
{
	if (!m->prof.untimed) {
		struct task *k = new_task(m, "kswapd0", -1, 0, true);
		k->kkind = KT_KSWAPD;
		m->kswapd = k->id;
		/* The era's writeback threads: role 0 woken by writers (and
		 * periodic in 2.6), role 1 the periodic update/kupdate. */
		for (int role = 0; role < 2; role++) {
			const char *name = mm_flusher_thread(&m->mm, role);
			if (!name)
				continue;
			struct task *f = new_task(m, name, -1, 0, true);
			f->kkind = role ? KT_KUPDATE : KT_FLUSH;
			f->wait = W_SLEEP;
			if (!role)
				m->flusher = f->id;
			uint64_t period = mm_flusher_period_ns(&m->mm, role);
			if (period)
				evq_push(&m->q, period, EV_WAKE, (uint32_t)f->id, f->wait_gen);
		}
		const struct zram *zr = m->mm.swap.zram;
		if (zr && zr->wb) {
			/* the writer of idle pages (Android's ZramWriteback) */
			struct task *w = new_task(m, "zram_wb", -1, 0, true);
			w->kkind = KT_ZRAM_WB;
			w->wait = W_SLEEP;
			evq_push(&m->q, zr->wb->cfg.period_ns, EV_WAKE, (uint32_t)w->id, w->wait_gen);
		}
		const struct policy_ops *ops = m->mm.pol.ops;
		if (ops->tick && ops->tick_ns) {
			struct task *a = new_task(m, ops->tick_name ? ops->tick_name : "aging", -1, 0, true);
			a->kkind = KT_TICK;
			a->wait = W_SLEEP;
			evq_push(&m->q, ops->tick_ns, EV_WAKE, (uint32_t)a->id, a->wait_gen);
		}
	}
	/* Every user task starts at time 0. */
	if (sched_is_percpu(m))
		sched_percpu_init(m);
	for (int i = 0; i < m->nr_tasks; i++)
		if (!m->tasks[i].kthread)
			wake_task(m, &m->tasks[i], 0);
	if (m->opt.vmstat_ns && !m->prof.untimed)
		evq_push(&m->q, m->opt.vmstat_ns, EV_VMSTAT, 0, 0);
	m->timeline_ns = m->opt.timeline_ns;
	if (m->timeline_ns && !m->prof.untimed)
		evq_push(&m->q, m->timeline_ns, EV_TIMELINE, 0, 0);
	uint64_t nev = 0;
	struct event e;
	while (m->live_user > 0 && !m->panicked && evq_pop(&m->q, &e)) {
		if (m->opt.stop_with_wl > 0 && m->opt.stop_with_wl <= m->nr_wls &&
		    m->wls[m->opt.stop_with_wl - 1].live == 0)
			break;
		account_to(m, e.t);
		m->now = e.t;
		if (m->opt.max_time_ns && m->now > m->opt.max_time_ns) {
			m->timed_out = true;
			break;
		}
		switch (e.kind) {
		case EV_CPU:
			cpu_event(m, e.arg);
			break;
		case EV_DISK_DISPATCH:
		case EV_DISK_DONE:
			disk_event(&m->disk, e.kind, m->now, e.token);
			kthreads_wake(m, m->now);
			break;
		case EV_WAKE: {
			struct task *t = &m->tasks[e.arg];
			if (t->state == T_BLOCKED && t->wait_gen == e.token)
				wake_task(m, t, m->now);
			break;
		}
		case EV_VMSTAT:
			machine_vmstat_sample(m);
			evq_push(&m->q, m->now + m->opt.vmstat_ns, EV_VMSTAT, 0, 0);
			break;
		case EV_TIMELINE:
			evq_push(&m->q, m->now + machine_timeline_sample(m), EV_TIMELINE, 0, 0);
			break;
		}
		if (m->opt.check && !mm_check_step(&m->mm, stderr)) {
			fprintf(stderr, "pagelab: --check failed at t=%.9f s\n", (double)m->now / 1e9);
			m->check_failed = true;
			break;
		}
		/* SIGINT/SIGTERM: stop here and report what ran (output.h). */
		if ((++nev & 0xfff) == 0 && output_interrupted()) {
			m->interrupted = output_interrupted();
			break;
		}
		if (m->opt.progress && (nev & 0xffff) == 0)
			progress(m, false);
	}
	if (m->opt.progress)
		progress(m, true);
	/* Between events the check names the swap slots it walks; the
	 * last walks them all (check_swap.c). */
	if (m->opt.check && !m->check_failed && !m->panicked && !mm_check(&m->mm, stderr)) {
		fprintf(stderr, "pagelab: --check failed at the end of the run, t=%.9f s\n", (double)m->now / 1e9);
		m->check_failed = true;
	}
}

void machine_free(struct machine *m)
{
	for (int i = 0; i < m->nr_wls; i++) {
		m->wls[i].ops->destroy(m->wls[i].w);
		free(m->wls[i].cmd);
	}
	free(m->wls);
	for (uint64_t i = 0; i < m->nr_log; i++)
		free(m->log[i].text);
	free(m->log);
	free(m->samples);
	free(m->timeline);
	if (m->sample_spill)
		fclose(m->sample_spill);
	for (int i = 0; i < m->nr_tasks; i++)
		free(m->tasks[i].files);
	free(m->tasks);
	free(m->cpus);
	free(m->runq);
	disk_free(&m->disk);
	evq_free(&m->q);
	machine_psi_free(m);
	mm_destroy(&m->mm);
}
