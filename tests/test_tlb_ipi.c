/* test_tlb_ipi.c - reclaim's remote TLB flush before it writes a mapped
 * page (src/mm/reclaim.c flush_tlb_dirty, cost.tlb_ipi and
 * cost.tlb_ipi_recv), on a hand-built mm whose machine is a fake that
 * says how many other CPUs take each IPI.  Cost: well under a second. */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <string.h>

void test_tlb_ipi_before_pageout(void);

struct ht {
	struct mm mm;
	struct mm_costs cost;
	struct mm_ctx ctx;
	unsigned busy_cpus;     /* what the fake machine answers */
	unsigned calls;
	uint64_t recv_asked, last_t, mask_asked;
};

static void fake_submit(void *arg, enum io_dir dir, uint32_t block, pfn_t pfn, uint64_t t)
{
	(void)arg; (void)dir; (void)block; (void)pfn; (void)t;
}

static unsigned fake_flush(void *arg, uint64_t t, uint64_t recv_ns, uint64_t cpumask)
{
	struct ht *h = arg;
	h->mask_asked = cpumask;
	h->calls++;
	h->recv_asked += recv_ns * h->busy_cpus;
	h->last_t = t;
	return h->busy_cpus;
}

static void ht_init(struct ht *h, uint64_t send, uint64_t recv)
{
	memset(h, 0, sizeof(*h));
	h->cost = (struct mm_costs){ .tlb_ipi_ns = send, .tlb_ipi_recv_ns = recv };
	struct mm_config cfg = { .ram_pages = 64, .swap_pages = 64 };
	mm_init(&h->mm, &cfg, &h->cost);
	mm_set_policy(&h->mm, policy_find("fifo"), NULL);
	h->ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE, .t0 = 5000 };
	h->mm.cur = &h->ctx;
	h->mm.io = (struct mm_io){ .arg = h, .submit_swap = fake_submit, .remote_tlb_flush = fake_flush };
}

static pfn_t frame_at(struct aspace *as, uint32_t vma, uint64_t off)
{
	pte_t pte = as->vmas[vma].pte[off];
	return pte_present(pte) ? pte_pfn(pte) : PFN_NONE;
}

/* Two anon pages written once.  Reclaiming them (each unmapped,
 * then written: dirty) asks for two flushes; with one other busy CPU each
 * costs the reclaimer 1 000 ns of system time and that CPU 300 ns, asked
 * at the reclaimer's own clock.  With no other CPU busy the flush is still
 * asked for but nobody is interrupted and nothing is charged.  Both costs
 * 0 (every profile's default): the machine is asked with nothing to charge,
 * only so that the flush and its IPIs are counted (src/mm/work.h). */
void test_tlb_ipi_before_pageout(void)
{
	struct ht h;
	ht_init(&h, 1000, 300);
	h.busy_cpus = 1;
	struct aspace *as = mm_aspace_new(&h.mm, -1);
	uint32_t v = mm_mmap_anon(&h.mm, as, 2, 0);
	enum fault_status st;
	CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, v, 0, 2, 1, true, UINT64_MAX / 2, &st), 2);
	as->cpumask = 0x5; /* the victim's mm_cpumask goes to the machine */
	uint64_t sys0 = h.ctx.sys_ns;
	struct scan_control sc = { .nr_to_reclaim = 32, .who = RECLAIM_DIRECT, .may_swap = true, .may_writepage = true };
	pfn_t p0 = frame_at(as, v, 0), p1 = frame_at(as, v, 1);
	h.mm.pol.ops->remove(h.mm.pol.priv, p0);
	CHECK_EQ(mm_reclaim_page(&h.mm, &sc, p0), EVICT_WRITEBACK);
	CHECK_EQ(h.calls, 1);
	CHECK_EQ(h.mask_asked, 0x5);
	CHECK_EQ(h.ctx.sys_ns - sys0, 1000);
	CHECK_EQ(h.recv_asked, 300);
	CHECK_EQ(h.last_t, 5000 + h.ctx.user_ns + h.ctx.sys_ns - 1000);
	CHECK_EQ(h.mm.nr_tlb_remote_flush, 1);
	h.busy_cpus = 0;
	h.mm.pol.ops->remove(h.mm.pol.priv, p1);
	CHECK_EQ(mm_reclaim_page(&h.mm, &sc, p1), EVICT_WRITEBACK);
	CHECK_EQ(h.calls, 2);
	CHECK_EQ(h.ctx.sys_ns - sys0, 1000);
	CHECK_EQ(h.mm.nr_tlb_remote_flush, 1);
	CHECK_EQ(h.mm.ev[PSWPOUT], 2);
	mm_destroy(&h.mm);

	ht_init(&h, 0, 0);
	h.busy_cpus = 1;
	as = mm_aspace_new(&h.mm, -1);
	v = mm_mmap_anon(&h.mm, as, 1, 0);
	CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, v, 0, 1, 1, true, UINT64_MAX / 2, &st), 1);
	p0 = frame_at(as, v, 0);
	h.mm.pol.ops->remove(h.mm.pol.priv, p0);
	uint64_t sys1 = h.ctx.sys_ns;
	CHECK_EQ(mm_reclaim_page(&h.mm, &sc, p0), EVICT_WRITEBACK);
	CHECK_EQ(h.calls, 1);
	CHECK_EQ(h.recv_asked, 0);
	CHECK_EQ(h.ctx.sys_ns, sys1);
	CHECK_EQ(h.mm.nr_tlb_remote_flush, 0);
	CHECK_EQ(h.mm.work.n[WHO_OTHER][W_TLB_FLUSH_DIRTY], 1);
	CHECK_EQ(h.mm.work.n[WHO_OTHER][W_TLB_IPI], 1);
	CHECK_EQ(h.mm.ev[PSWPOUT], 1);
	mm_destroy(&h.mm);
}
