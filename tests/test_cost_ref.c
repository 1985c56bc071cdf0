/* test_cost_ref.c - cost.ref held in picoseconds (src/machine/profile.c
 * P_PS): set as "0.56ns" or "560ps", shown back in the unit that is exact,
 * and charged by mm_touch() with a carry, so that three single-reference
 * touches at 400 ps cost 1 ns, not 0.  Cost: a few milliseconds. */
#include "test.h"
#include "../src/machine/profile.h"
#include "../src/mm/mm.h"
#include "../src/policy/policy.h"

#include <string.h>

void test_cost_ref_picoseconds(void);

static const char *shown(const struct profile *p, const char *name, char *buf, size_t len)
{
	for (int i = 0;; i++) {
		const char *n = profile_param(p, i, buf, len);
		if (!n)
			return NULL;
		if (!strcmp(n, name))
			return buf;
	}
}

void test_cost_ref_picoseconds(void)
{
	struct profile p = *profile_find("modern");
	char err[160], buf[64];
	uint64_t v = 0;
	CHECK(profile_get_u64(&p, "cost.ref", &v) && v == 1000);
	CHECK(!strcmp(shown(&p, "cost.ref", buf, sizeof(buf)), "1ns"));
	CHECK(profile_set(&p, "cost.ref", "0.56ns", err, sizeof(err)));
	CHECK(profile_get_u64(&p, "cost.ref", &v) && v == 560);
	CHECK(!strcmp(shown(&p, "cost.ref", buf, sizeof(buf)), "560ps"));
	CHECK(!strcmp(profile_param_unit("cost.ref"), "ps"));
	CHECK(profile_set(&p, "cost.ref", "400ps", err, sizeof(err)));
	CHECK(!profile_set(&p, "cost.ref", "fast", err, sizeof(err)));

	/* Three pages touched once each at 400 ps, then at 5 references a
	 * page (2 ns each): 1 ns (200 ps carried and dropped at the end of
	 * the call), then 6 ns more. */
	struct mm mm;
	struct mm_costs cost;
	memset(&cost, 0, sizeof(cost));
	cost.ref_ps = p.cost.ref_ps;
	struct mm_config cfg = { .ram_pages = 64, .swap_pages = 64, .untimed = true };
	mm_init(&mm, &cfg, &cost);
	mm_set_policy(&mm, policy_find("lru"), NULL);
	struct mm_ctx ctx = { .task = -1, .wait_pfn = PFN_NONE };
	mm.cur = &ctx;
	struct aspace *as = mm_aspace_new(&mm, -1);
	uint32_t vma = mm_mmap_anon(&mm, as, 3, 0);
	enum fault_status st;
	CHECK_EQ(mm_touch(&mm, &ctx, as, vma, 0, 3, 1, true, UINT64_MAX / 2, &st), 3);
	CHECK_EQ(ctx.user_ns, 1);
	CHECK_EQ(mm_touch(&mm, &ctx, as, vma, 0, 3, 5, false, UINT64_MAX / 2, &st), 3);
	CHECK_EQ(ctx.user_ns, 7);
	mm_destroy(&mm);
}
