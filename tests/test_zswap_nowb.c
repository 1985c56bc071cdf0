/* test_zswap_nowb.c - memory.zswap.writeback=0 by hand (6.18
 * mm/memcontrol.c mem_cgroup_zswap_writeback_enabled(), hierarchical:
 * the cgroup and every ancestor; mm/zswap.c zswap_shrinker_count() 0,
 * zswap_shrinker_scan() SHRINK_STOP and shrink_memcg() -ENOENT for such
 * a memcg).  /a (id 1) has writeback 0, /a/b (id 2) inherits it, /c
 * (id 3) does not. */
#include "test.h"
#include "../src/mm/zswap.h"
#include "../src/mm/cgtree.h"
#include "../src/lib/util.h"

static const struct mm_costs zero_costs;

static struct zswap *setup(struct mm *mm)
{
	struct mm_config cfg = { .ram_pages = 1024, .swap_pages = 64, .min_free_kbytes = 128,
				 .untimed = true, .seed = 3 };
	mm_init(mm, &cfg, &zero_costs);
	struct cg_tree_conf t = { .n = 3 };
	t.cg[0] = (struct cg_conf){ .path = "/a", .parent = 0, .max = CG_UNLIMITED, .high = CG_UNLIMITED,
				    .swap_max = CG_UNLIMITED, .swap_high = CG_UNLIMITED,
				    .zswap_max = CG_UNLIMITED, .swappiness = -1, .zswap_nowb = true };
	t.cg[1] = t.cg[0];
	t.cg[1].parent = 1;
	t.cg[1].zswap_nowb = false;
	snprintf(t.cg[1].path, sizeof(t.cg[1].path), "/a/b");
	t.cg[2] = t.cg[1];
	t.cg[2].parent = 0;
	snprintf(t.cg[2].path, sizeof(t.cg[2].path), "/c");
	mm_cgtree_init(mm, &t);
	/* trace pages of 2048 bytes (ratio 200), the shrinker on */
	const struct zswap_config zc = { .max_pool_percent = 20, .accept_thr_percent = 90, .shrinker = true,
					 .algo = ZALGO_LZ4, .chain = 8, .trace_ratio = 200 };
	return mm->swap.zswap = zswap_create(mm, 64, mm->cgt->n, &zc);
}

/* Frame 1000 stands for slot's page, one of cgroup cg's. */
static bool store(struct mm *mm, uint32_t slot, int cg)
{
	struct page *p = mm_page(mm, 1000);
	p->owner = 1, p->index = slot, p->memcg = (uint16_t)cg, p->data_kind = DK_RATIO;
	return zswap_store(mm->swap.zswap, NULL, 1000, slot);
}

void test_zswap_nowb_hierarchy(void)
{
	struct mm mm;
	struct zswap *z = setup(&mm);
	CHECK(zswap_writeback_enabled(z, 0));   /* the root has no file */
	CHECK(!zswap_writeback_enabled(z, 1));
	CHECK(!zswap_writeback_enabled(z, 2));  /* its parent's 0 */
	CHECK(zswap_writeback_enabled(z, 3));
	mm_destroy(&mm);
}

void test_zswap_nowb_no_shrinker_writeback(void)
{
	struct mm mm;
	struct zswap *z = setup(&mm);
	/* stores go on: writeback=0 is not zswap.max=0 */
	for (uint32_t s = 0; s < 3; s++)
		CHECK(store(&mm, s, 2));
	CHECK(store(&mm, 3, 3));
	CHECK(store(&mm, 4, 3));
	CHECK_EQ(z->lru[2].nr, 3);
	/* /a/b: nothing freeable, nothing scanned, shrink_memcg -ENOENT */
	CHECK_EQ(zswap_shrinker_count(z, 2), 0);
	CHECK_EQ(zswap_shrinker_scan(z, NULL, 2, 8), 0);
	CHECK_EQ(zswap_shrink_memcg(z, NULL, 2), -1);
	CHECK_EQ(z->st.zswpwb, 0);
	CHECK_EQ(z->lru[2].nr, 3);
	CHECK_EQ(z->e[0].referenced, 1);        /* not even rotated */
	/* /c keeps its writeback: two entries of 2048 bytes, one pool
	 * page: 2 * 1 / 2 = 1 freeable; a walk of 2 clears both referenced
	 * bits, the next writes the oldest back */
	CHECK_EQ(zswap_shrinker_count(z, 3), 1);
	CHECK_EQ(zswap_shrinker_scan(z, NULL, 3, 2), 0);
	CHECK_EQ(zswap_shrinker_scan(z, NULL, 3, 1), 1);
	CHECK_EQ(z->st.zswpwb, 1);
	CHECK_EQ(mm.ev[PSWPOUT], 1);
	mm_destroy(&mm);
}
