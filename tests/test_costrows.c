/* test_costrows.c - the cost.ROW parameters of the rows of reclaim's work
 * that no named cost carries (profile.c, mm_work() in src/mm/mm.h): each
 * counted operation of such a row is that many ns of system time of
 * whoever does it.  test_costmodel.c's linux6 run (usemem -m 80 in 64
 * MiB: kswapd and direct reclaim) with every such row given a distinct
 * prime: kswapd's system time is its column of the named rows times their
 * costs plus its column of these rows times theirs, to the nanosecond.
 * And with them all 0 (every preset) they charge nothing. */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/mm/internal.h"
#include "../src/policy/policy.h"
#include "../src/workload/workload.h"
#include "../src/lib/util.h"

void test_costrows_linux6_kswapd(void);

static const enum work_op rows[] = {
	W_LRU_LOCK, W_ISOLATE_BATCHES, W_PUTBACK_BATCHES, W_MOVE_FOLIOS_TO_LRU, W_FOLIO_REFERENCED,
	W_TRY_TO_UNMAP, W_TLB_FLUSH_DIRTY,
};
static const uint64_t primes[] = { 3, 5, 7, 11, 13, 17, 19 };
#define NROWS (sizeof(rows) / sizeof(rows[0]))

/* The named costs' share of a column (test_costmodel.c's charged()). */
static uint64_t named(const struct reclaim_work *w, enum work_who who, const struct mm_costs *c)
{
	return w->n[who][W_ISOLATE_LRU_FOLIOS] * c->scan_ns +
	       (w->n[who][W_FOLIO_REFERENCED_PTES] + w->n[who][W_TRY_TO_UNMAP_PTES]) * c->rmap_ns +
	       w->n[who][W_PAGEOUT] * c->io_submit_ns + w->n[who][W_CLEAR_BYTES] / PAGE_SIZE * c->zero_page_ns;
}

static void run_usemem(struct machine *m, const struct profile *prof)
{
	struct machine_opts mo = { .seed = 1, .max_time_ns = 3600ULL * 1000000000ULL };
	char err[256], *argv[] = { "usemem", "-m", "80", NULL };
	if (!machine_init(m, prof, &mo, err, sizeof(err)))
		panic("%s", err);
	const struct workload_ops *wo = workload_find("usemem");
	void *w = wo->create(3, argv, 1, err, sizeof(err));
	if (!w)
		panic("%s", err);
	machine_set_policy(m, policy_find("linux6"), NULL);
	machine_add_workload(m, wo, w, "usemem -m 80");
	machine_run(m);
}

void test_costrows_linux6_kswapd(void)
{
	static struct machine m;
	struct profile prof = *profile_find("modern");
	prof.ram = 64ULL << 20;
	prof.swap = 256ULL << 20;
	prof.cost = (struct mm_costs){ .scan_ns = 101, .rmap_ns = 211, .io_submit_ns = 1009, .zero_page_ns = 307,
				       .fault_ns = 701, .ref_ps = prof.cost.ref_ps };
	prof.ctx_switch_ns = 0;
	/* all 0: kswapd's time is the named rows' alone */
	run_usemem(&m, &prof);
	const struct reclaim_work *rw = &m.mm.work;
	CHECK(rw->n[WHO_KSWAPD][W_LRU_LOCK] > 0);
	CHECK_EQ(m.tasks[m.kswapd].stime, named(rw, WHO_KSWAPD, &prof.cost));
	machine_free(&m);
	for (size_t i = 0; i < NROWS; i++)
		prof.cost.work_ns[rows[i]] = primes[i];
	run_usemem(&m, &prof);
	uint64_t want = named(rw, WHO_KSWAPD, &prof.cost), extra = 0;
	for (size_t i = 0; i < NROWS; i++) {
		CHECK(rw->n[WHO_KSWAPD][rows[i]] > 0 || rows[i] == W_TLB_FLUSH_DIRTY);
		extra += rw->n[WHO_KSWAPD][rows[i]] * primes[i];
	}
	CHECK(extra > 0);
	CHECK_EQ(m.tasks[m.kswapd].stime, want + extra);
	machine_free(&m);
}
