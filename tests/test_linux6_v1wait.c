/* test_linux6_v1wait.c - cgroup v1's wait on writeback in linux6 (6.18
 * shrink_folio_list case 3) and the memcg core's stall around it, on small
 * hand-built mms with a fake disk whose writes complete only when the test
 * says.  Cost: well under a second (mms of 256 and 8704 frames). */
#include "test.h"
#include "../src/mm/internal.h"
#include "../src/policy/linux6/linux6.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <stdlib.h>
#include <string.h>

struct hv {
	struct mm mm;
	struct mm_costs cost;
	struct mm_ctx ctx;
	struct linux6 *l;
	uint64_t submitted;     /* writes queued; none completes by itself */
};

static void fake_submit(void *arg, enum io_dir dir, uint32_t block, pfn_t pfn, uint64_t t)
{
	(void)dir; (void)block; (void)pfn; (void)t;
	((struct hv *)arg)->submitted++;
}

/* ops: linux6's, or a copy of it with flags changed. */
static void hv_init(struct hv *h, uint64_t frames, const struct policy_ops *ops, const char *set)
{
	memset(h, 0, sizeof(*h));
	struct mm_config cfg = { .ram_pages = frames, .swap_pages = frames };
	mm_init(&h->mm, &cfg, &h->cost);
	int n = policy_nr_tunables(ops);
	double *tun = xcalloc((size_t)n, sizeof(double));
	for (int i = 0; i < n; i++)
		tun[i] = ops->tunables[i].def;
	if (set) {
		const char *eq = strchr(set, '=');
		char name[64];
		snprintf(name, sizeof(name), "%.*s", (int)(eq - set), set);
		tun[policy_tunable_index(ops, name)] = atof(eq + 1);
	}
	mm_set_policy(&h->mm, ops, tun);
	free(tun);
	h->l = h->mm.pol.priv;
	h->ctx = (struct mm_ctx){ .task = -1, .wait_pfn = PFN_NONE };
	h->mm.cur = &h->ctx;
	h->mm.io = (struct mm_io){ .arg = h, .submit_swap = fake_submit };
}

static pfn_t frame_of(struct aspace *as, uint32_t vma, uint64_t off)
{
	pte_t pte = as->vmas[vma].pte[off];
	return pte_present(pte) ? pte_pfn(pte) : PFN_NONE;
}

/* Two anon pages, looked at once (young: kept with PG_referenced), then
 * written by a second look (PG_reclaim, back at the inactive head).  A
 * third look finds both still under writeback:
 *  - cgroup v1 limit reclaim: case 3, the reclaimer must wait for them:
 *    nr_wait_writeback 2, both stay inactive, nothing activated; the write
 *    of the first ends and rotates it to the tail, where the next look
 *    frees it;
 *  - v2, global reclaim, or wait_writeback=0: case 2, both activated. */
void test_linux6_v1_waits_on_writeback(void)
{
	for (int variant = 0; variant < 4; variant++) {
		bool cgroup = variant != 2, v1 = variant != 1;
		struct hv h;
		hv_init(&h, 256, policy_find("linux6"), variant == 3 ? "wait_writeback=0" : NULL);
		h.mm.memcg.v1 = v1;
		struct aspace *as = mm_aspace_new(&h.mm, -1);
		uint32_t v = mm_mmap_anon(&h.mm, as, 2, 0);
		enum fault_status st;
		CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, v, 0, 2, 1, true, UINT64_MAX / 2, &st), 2);
		pfn_t a = frame_of(as, v, 0), b = frame_of(as, v, 1);
		for (int look = 0; look < 2; look++) {
			struct scan_control sc = { .nr_to_reclaim = 32, .who = RECLAIM_DIRECT, .cgroup = cgroup,
						   .may_swap = true, .may_writepage = true };
			CHECK_EQ(l6_shrink_inactive_list(h.l, 32, &sc, 0, NULL), 0);
			CHECK_EQ(sc.nr_wait_writeback, 0);
		}
		CHECK_EQ(h.submitted, 2);
		struct scan_control sc = { .nr_to_reclaim = 32, .who = RECLAIM_DIRECT, .cgroup = cgroup,
					   .may_swap = true, .may_writepage = true };
		CHECK_EQ(l6_shrink_inactive_list(h.l, 32, &sc, 0, NULL), 0);
		CHECK_EQ(sc.nr_scanned, 2);
		if (variant == 0) {
			CHECK_EQ(sc.nr_wait_writeback, 2);
			CHECK_EQ(h.mm.ev[PGACTIVATE], 0);
			CHECK_EQ(l6_size(h.l, L6_INACTIVE_ANON), 2);
			mm_io_done(&h.mm, IO_WRITE, a);
			CHECK_EQ(lru_tail(&h.mm.fr, h.l->list[L6_INACTIVE_ANON]), a);
			sc = (struct scan_control){ .nr_to_reclaim = 32, .who = RECLAIM_DIRECT, .cgroup = true,
						    .may_swap = true, .may_writepage = true };
			CHECK_EQ(l6_shrink_inactive_list(h.l, 1, &sc, 0, NULL), 1);
			CHECK(mm_page(&h.mm, a)->flags & PG_free);
			CHECK_EQ(sc.nr_wait_writeback, 0);
		} else {
			CHECK_EQ(sc.nr_wait_writeback, 0);
			CHECK_EQ(h.mm.ev[PGACTIVATE], 2);
			CHECK_EQ(l6_size(h.l, L6_ACTIVE_ANON), 2);
		}
		CHECK(mm_page(&h.mm, b)->flags & PG_writeback);
		mm_destroy(&h.mm);
	}
}

/* An mm of 8704 frames whose v1 cgroup of 8192 pages is full of one
 * mapping's anonymous pages (8193 pages mapped: the last one charges at
 * the limit).  false if the fill fell short. */
static bool fill_cgroup(struct hv *h, const struct policy_ops *ops, const char *set,
			struct aspace **as, uint32_t *v)
{
	hv_init(h, 8704, ops, set);
	mm_memcg_init(&h->mm, 8192, true);
	*as = mm_aspace_new(&h->mm, -1);
	*v = mm_mmap_anon(&h->mm, *as, 8193, 0);
	enum fault_status st;
	if (mm_touch(&h->mm, &h->ctx, *as, *v, 0, 8192, 1, true, UINT64_MAX / 2, &st) == 8192)
		return true;
	CHECK(!"8192 pages touched");
	mm_destroy(&h->mm);
	return false;
}

/* The memcg core's stall.  8192 anonymous pages fill a cgroup of 8192
 * pages (v1), none young; touching one more charges at the limit.  At
 * swappiness 200 anon takes the whole scan: size >> priority pages per
 * pass, 2, 4, 8, 16 at priorities 12..9, each written (no pass reaches
 * nr_to_reclaim, 32).  linux6 (POLICY_V1_WAIT_WRITEBACK), meeting no folio
 * it must wait for, stalls only below DEF_PRIORITY - 2 as v2 does: after
 * the pass at priority 9, with 30 pages written.  The same policy without
 * the flag gets the coarse v1 stall: after the first pass that fell short
 * with writes pending, priority 12, 2 pages written. */
void test_memcg_v1_stall_follows_case3(void)
{
	struct policy_ops coarse = *policy_find("linux6");
	coarse.flags &= ~POLICY_V1_WAIT_WRITEBACK;
	const struct policy_ops *ops[2] = { policy_find("linux6"), &coarse };
	const uint64_t want_written[2] = { 30, 2 };
	for (int i = 0; i < 2; i++) {
		struct hv h;
		struct aspace *as;
		uint32_t v;
		if (!fill_cgroup(&h, ops[i], "swappiness=200", &as, &v))
			continue;
		enum fault_status st;
		for (uint64_t off = 0; off < 8192; off++)
			mm_page_referenced(&h.mm, frame_of(as, v, off));
		CHECK_EQ(h.mm.memcg.charged, 8192);
		CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, v, 8192, 1, 1, true, UINT64_MAX / 2, &st), 0);
		CHECK_EQ(st, FAULT_WAIT_RECLAIM);
		CHECK_EQ(h.submitted, want_written[i]);
		CHECK_EQ(h.mm.ev[PGSCAN_ANON], want_written[i]);
		CHECK_EQ(h.mm.stat.nr_pending_free, want_written[i]);
		mm_destroy(&h.mm);
	}
}

/* A charge that failed with writes in flight, tried again before any
 * write ends.  linux6's written pages stay on its LRU (PG_reclaim) and
 * stay charged after their writes (folio_rotate_reclaimable()), so the
 * second charge reclaims again, as try_charge_memcg() does: 30 more pages
 * written.  fifo, a textbook policy, frees its evicted pages as their
 * writes end (list_wb_free), so its second charge waits for them at once
 * and writes nothing more. */
void test_memcg_charge_waits_only_for_freeing_writes(void)
{
	const char *names[2] = { "linux6", "fifo" };
	for (int i = 0; i < 2; i++) {
		struct hv h;
		struct aspace *as;
		uint32_t v;
		if (!fill_cgroup(&h, policy_find(names[i]), i == 0 ? "swappiness=200" : NULL, &as, &v))
			continue;
		enum fault_status st;
		CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, v, 8192, 1, 1, true, UINT64_MAX / 2, &st), 0);
		CHECK_EQ(st, FAULT_WAIT_RECLAIM);
		uint64_t first = h.submitted;
		CHECK_EQ(mm_writes_will_free(&h.mm), i == 0 ? 0 : first);
		CHECK_EQ(mm_touch(&h.mm, &h.ctx, as, v, 8192, 1, 1, true, UINT64_MAX / 2, &st), 0);
		CHECK_EQ(st, FAULT_WAIT_RECLAIM);
		CHECK_EQ(h.submitted - first, i == 0 ? 30 : 0);
		CHECK_EQ(h.mm.memcg.charged, 8192);
		mm_destroy(&h.mm);
	}
}
