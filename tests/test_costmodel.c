/* test_costmodel.c - time from counted work (docs/cost.md, issue 38): the
 * system time pagelab charges is each counted operation (src/mm/work.h)
 * times the cost parameter that row carries, summed, for the rows that
 * carry one.  Each cost is a distinct power of 1000 so that a row charged
 * twice, or not at all, or at another row's cost, shows in the sum.  A
 * reclaimer's waits (I/O, the LRU lock) are not system time: the task is
 * asleep, so the sum is all of it.  Cost: well under a second (a 256-frame
 * mm; usemem -m 80 in 64 MiB and qsbench -m 36 in 64 MiB under linux6). */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/mm/internal.h"
#include "../src/policy/policy.h"
#include "../src/policy/linux6/linux6.h"
#include "../src/workload/workload.h"
#include "../src/lib/util.h"

#include <string.h>

void test_costmodel_faults_and_rmap(void);
void test_costmodel_linux6_run_per_reclaimer(void);
void test_costmodel_rows_without_named_cost(void);

/* Every charged cost of the rows below, distinct powers of 1000 (so
 * counts under 1000 each stay apart); every other cost 0. */
static const struct mm_costs costs = {
	.scan_ns = 1, .rmap_ns = 1000, .io_submit_ns = 1000000,
	.zero_page_ns = 1000000000ULL, .fault_ns = 1000000000000ULL,
};

static uint64_t col(const struct reclaim_work *w, enum work_who who, enum work_op op) { return w->n[who][op]; }

/* The time the rows of one column carry (docs/cost.md's table):
 * isolate_lru_folios x cost.scan, rmap PTEs x cost.rmap, pageout x
 * cost.io_submit, cleared pages x cost.zero_page; faults (not a work row:
 * the pgfault event) add cost.fault each. */
static uint64_t charged(const struct reclaim_work *w, enum work_who who, const struct mm_costs *c)
{
	return col(w, who, W_ISOLATE_LRU_FOLIOS) * c->scan_ns +
	       (col(w, who, W_FOLIO_REFERENCED_PTES) + col(w, who, W_TRY_TO_UNMAP_PTES)) * c->rmap_ns +
	       col(w, who, W_PAGEOUT) * c->io_submit_ns + col(w, who, W_CLEAR_BYTES) / PAGE_SIZE * c->zero_page_ns;
}

/* 100 anonymous pages written once, then shrink_inactive_list() four
 * times by hand (test_workcount.c's case: 128 rmap walks of one PTE, 28
 * pages unmapped and written).  The faults: 100 x (fault + zero_page);
 * the reclaim: 156 x rmap + 28 x io_submit.  Scanning is charged by the
 * reclaim pass around shrink_inactive_list() (mm.c), not here. */
void test_costmodel_faults_and_rmap(void)
{
	struct mm mm;
	struct mm_costs c = costs;
	struct mm_ctx ctx = { .task = -1, .wait_pfn = PFN_NONE };
	struct mm_config cfg = { .ram_pages = 256, .swap_pages = 256, .untimed = true };
	mm_init(&mm, &cfg, &c);
	mm_set_policy(&mm, policy_find("linux6"), NULL);
	mm.cur = &ctx;
	struct aspace *as = mm_aspace_new(&mm, -1);
	enum fault_status st;
	uint32_t v = mm_mmap_anon(&mm, as, 100, 0);
	CHECK_EQ(mm_touch(&mm, &ctx, as, v, 0, 100, 1, TOUCH_WRITE, UINT64_MAX / 2, &st), 100);
	CHECK_EQ(ctx.sys_ns, 100 * (c.fault_ns + c.zero_page_ns));
	CHECK_EQ(ctx.sys_ns, mm.ev[PGFAULT] * c.fault_ns + charged(&mm.work, WHO_OTHER, &c));
	ctx.sys_ns = 0;
	uint64_t before = charged(&mm.work, WHO_OTHER, &c);
	struct scan_control sc = { .nr_to_reclaim = 32, .who = RECLAIM_DIRECT, .may_swap = true, .may_writepage = true };
	for (int i = 0; i < 4; i++)
		l6_shrink_inactive_list(mm.pol.priv, 32, &sc, 0, NULL);
	CHECK_EQ(ctx.sys_ns, 156 * c.rmap_ns + 28 * c.io_submit_ns);
	/* the same from the counters, less isolation (not charged here) */
	CHECK_EQ(ctx.sys_ns, charged(&mm.work, WHO_OTHER, &c) - before -
			     col(&mm.work, WHO_OTHER, W_ISOLATE_LRU_FOLIOS) * c.scan_ns);
	mm_destroy(&mm);
}

/* A whole run, global reclaim: kswapd's system time is its column of the
 * counters times the costs, to the nanosecond, and the task's is its
 * direct reclaim's and its own (faults: the `other` column and pgfault).
 * Linux6 with nothing on the active lists here: every isolated folio is
 * one sc->nr_scanned page (cost.scan); then qsbench, with them.  No context switch, interrupt,
 * I/O completion or exit cost: those are not counted rows.  (The costs
 * are primes of the order of a real machine's rather than powers of 1000:
 * 20 000 faults at 10^12 ns would run for days of simulated time.) */
static void run_linux6(struct machine *m, struct profile *prof, int argc, char **argv, const char *cmd)
{
	struct machine_opts mo = { .seed = 1, .max_time_ns = 3600ULL * 1000000000ULL };
	char err[256];
	if (!machine_init(m, prof, &mo, err, sizeof(err)))
		panic("%s", err);
	const struct workload_ops *wo = workload_find(argv[0]);
	void *w = wo->create(argc, argv, 1, err, sizeof(err));
	if (!w)
		panic("%s", err);
	machine_set_policy(m, policy_find("linux6"), NULL);
	machine_add_workload(m, wo, w, cmd);
	machine_run(m);
}

/* 64 MiB and 256 MiB of swap; times of the order of a machine's (a run
 * of 1000 s of system time would stop at no limit but take long):
 * distinct primes; user time as modern's (without it qsbench's pages age
 * too fast to refill). */
static struct profile small_profile(void)
{
	struct profile prof = *profile_find("modern");
	prof.ram = 64ULL << 20;
	prof.swap = 256ULL << 20;
	prof.cost = (struct mm_costs){ .scan_ns = 101, .rmap_ns = 211, .io_submit_ns = 1009, .zero_page_ns = 307,
				       .fault_ns = 701, .ref_ps = prof.cost.ref_ps };
	prof.ctx_switch_ns = 0;
	return prof;
}

void test_costmodel_linux6_run_per_reclaimer(void)
{
	static struct machine m;
	struct profile prof = small_profile();
	char *argv[] = { "usemem", "-m", "80", NULL };
	run_linux6(&m, &prof, 3, argv, "usemem -m 80");
	const struct reclaim_work *rw = &m.mm.work;
	CHECK(col(rw, WHO_KSWAPD, W_PAGEOUT) > 0);
	CHECK(col(rw, WHO_DIRECT, W_ISOLATE_LRU_FOLIOS) > 0);
	CHECK_EQ(m.mm.ev[PGREFILL], 0);
	struct task *ks = &m.tasks[m.kswapd], *t = &m.tasks[m.wls[0].first_task];
	CHECK_EQ(ks->stime, charged(rw, WHO_KSWAPD, &prof.cost));
	/* + usemem's one mmap(): a system call, charged cost.fault (tasks.c) */
	CHECK_EQ(t->stime, charged(rw, WHO_DIRECT, &prof.cost) + charged(rw, WHO_OTHER, &prof.cost) +
			   (m.mm.ev[PGFAULT] + 1) * prof.cost.fault_ns);
	machine_free(&m);
	/* qsbench rereads its pages: kswapd also scans the active list
	 * (shrink_active_list, pgrefill), charged cost.scan a folio as
	 * isolate_lru_folios counts it.  (The task's swap-ins are charged
	 * cost.io_submit and cost.fault but are no reclaim row.) */
	char *qs[] = { "qsbench", "-p", "1", "-m", "36", NULL };
	run_linux6(&m, &prof, 5, qs, "qsbench -p 1 -m 36");
	CHECK(m.mm.ev[PGREFILL] > 0);
	CHECK_EQ(m.tasks[m.kswapd].stime, charged(&m.mm.work, WHO_KSWAPD, &prof.cost));
	machine_free(&m);
}

/* The cost.ROW parameters of the rows no named cost carries (profile.c,
 * mm_work() in src/mm/mm.h): each counted operation is that many ns of
 * system time of whoever does it.  The usemem run above with every such
 * row linux6 counts given a distinct prime: kswapd's system time is its
 * column of the named rows times their costs plus its column of these
 * rows times theirs, to the nanosecond; with them 0 (every preset) they
 * charge nothing. */
static const enum work_op rows[] = {
	W_LRU_LOCK, W_ISOLATE_BATCHES, W_PUTBACK_BATCHES, W_MOVE_FOLIOS_TO_LRU, W_FOLIO_REFERENCED,
	W_TRY_TO_UNMAP, W_TLB_FLUSH_DIRTY,
};
static const uint64_t primes[] = { 3, 5, 7, 11, 13, 17, 19 };
#define NROWS (sizeof(rows) / sizeof(rows[0]))

void test_costmodel_rows_without_named_cost(void)
{
	static struct machine m;
	struct profile prof = small_profile();
	char *argv[] = { "usemem", "-m", "80", NULL };
	/* all 0: kswapd's time is the named rows' alone */
	run_linux6(&m, &prof, 3, argv, "usemem -m 80");
	const struct reclaim_work *rw = &m.mm.work;
	CHECK(rw->n[WHO_KSWAPD][W_LRU_LOCK] > 0);
	CHECK_EQ(m.tasks[m.kswapd].stime, charged(rw, WHO_KSWAPD, &prof.cost));
	machine_free(&m);
	for (size_t i = 0; i < NROWS; i++)
		prof.cost.work_ns[rows[i]] = primes[i];
	run_linux6(&m, &prof, 3, argv, "usemem -m 80");
	uint64_t want = charged(rw, WHO_KSWAPD, &prof.cost), extra = 0;
	for (size_t i = 0; i < NROWS; i++) {
		CHECK(rw->n[WHO_KSWAPD][rows[i]] > 0 || rows[i] == W_TLB_FLUSH_DIRTY);
		extra += rw->n[WHO_KSWAPD][rows[i]] * primes[i];
	}
	CHECK(extra > 0);
	CHECK_EQ(m.tasks[m.kswapd].stime, want + extra);
	machine_free(&m);
}
