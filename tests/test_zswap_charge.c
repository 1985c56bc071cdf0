/* test_zswap_charge.c - who pays for compressed swap, by hand (6.18):
 * zswap's compressed bytes are charged to the page's memory cgroup
 * (mm/memcontrol.c obj_cgroup_charge_zswap() / obj_cgroup_uncharge_zswap():
 * obj_cgroup_charge() of the object's size, forced, into memory.current
 * and up the page_counter hierarchy; nothing for a root page, which has
 * no objcg, and nothing on cgroup v1, !cgroup_subsys_on_dfl()), while
 * zram's pool is charged to nobody (drivers/block/zram/zram_drv.c
 * zram_write_page() -> zs_malloc() without __GFP_ACCOUNT; src/mm/zram.c). */
#include "test.h"
#include "../src/mm/zswap.h"
#include "../src/mm/zram.h"
#include "../src/mm/cgtree.h"
#include "../src/lib/util.h"

static const struct mm_costs zero_costs;

/* 1024 frames, 64 slots, untimed; cgroups /a (id 1) and /a/b (id 2),
 * /a/b with memory.max 8 pages. */
static void setup_tree(struct mm *mm, unsigned zram)
{
	struct mm_config cfg = { .ram_pages = 1024, .swap_pages = 64, .min_free_kbytes = 128,
				 .untimed = true, .seed = 3, .zram = zram };
	mm_init(mm, &cfg, &zero_costs);
	struct cg_tree_conf t = { .n = 2 };
	t.cg[0] = (struct cg_conf){ .path = "/a", .parent = 0, .max = CG_UNLIMITED, .high = CG_UNLIMITED,
				    .swap_max = CG_UNLIMITED, .swap_high = CG_UNLIMITED,
				    .zswap_max = CG_UNLIMITED, .swappiness = -1 };
	t.cg[1] = t.cg[0];
	t.cg[1].parent = 1;
	t.cg[1].max = 8;
	snprintf(t.cg[1].path, sizeof(t.cg[1].path), "/a/b");
	mm_cgtree_init(mm, &t);
}

/* The tree with zswap in front of the disk area: trace pages of 2048
 * bytes (ratio 200). */
static struct zswap *setup(struct mm *mm)
{
	setup_tree(mm, 0);
	struct zswap_config zc = { .max_pool_percent = 20, .accept_thr_percent = 90, .algo = ZALGO_LZ4,
				   .chain = 8, .trace_ratio = 200 };
	mm->swap.zswap = zswap_create(mm, 64, mm->cgt->n, &zc);
	return mm->swap.zswap;
}

/* Store slot's page as one of cgroup cg's (frame 1000 stands for it). */
static bool store(struct mm *mm, uint32_t slot, int cg)
{
	struct page *p = mm_page(mm, 1000);
	p->data_kind = DK_RATIO;
	p->owner = 1;
	p->index = slot;
	p->memcg = (uint16_t)cg;
	return zswap_store(mm->swap.zswap, NULL, 1000, slot);
}

#define CUR(mm, c) ((mm)->cgt->cg[c].current)

void test_zswap_charge_cgroup_tree(void)
{
	struct mm mm;
	struct zswap *z = setup(&mm);
	uint64_t root0 = CUR(&mm, 0);
	CHECK_EQ(CUR(&mm, 1), 0);
	/* /a/b's first entry: 2048 bytes, one page charged to /a/b, /a
	 * and the root */
	CHECK(store(&mm, 0, 2));
	CHECK_EQ(CUR(&mm, 2), 1);
	CHECK_EQ(CUR(&mm, 1), 1);
	CHECK_EQ(CUR(&mm, 0), root0 + 1);
	/* the second fills that page (4096 bytes): no new page */
	CHECK(store(&mm, 1, 2));
	CHECK_EQ(CUR(&mm, 2), 1);
	/* the third needs a second page (6144 bytes) */
	CHECK(store(&mm, 2, 2));
	CHECK_EQ(CUR(&mm, 2), 2);
	CHECK_EQ(CUR(&mm, 1), 2);
	/* /a's own entry: its own bytes, its own page, above /a/b's */
	CHECK(store(&mm, 3, 1));
	CHECK_EQ(CUR(&mm, 2), 2);
	CHECK_EQ(CUR(&mm, 1), 3);
	CHECK_EQ(CUR(&mm, 0), root0 + 3);
	/* a root page has no objcg: stored, charged to nobody */
	CHECK(store(&mm, 4, 0));
	CHECK_EQ(CUR(&mm, 0), root0 + 3);
	CHECK_EQ(z->lru[2].bytes, 6144);
	CHECK_EQ(z->lru[2].stored, 3);
	CHECK(mm_check(&mm, stderr));
	/* freed: 4096 bytes are one page, then none */
	zswap_entry_free(z, 0);
	CHECK_EQ(CUR(&mm, 2), 1);
	zswap_entry_free(z, 1);
	zswap_entry_free(z, 2);
	zswap_entry_free(z, 3);
	CHECK_EQ(CUR(&mm, 2), 0);
	CHECK_EQ(CUR(&mm, 1), 0);
	CHECK_EQ(CUR(&mm, 0), root0);
	CHECK_EQ(mm.cgt->cg[1].peak, 3);
	mm_destroy(&mm);
}

/* Forced: a cgroup at its memory.max is charged past it. */
void test_zswap_charge_forced_past_max(void)
{
	struct mm mm;
	setup(&mm);
	mm.cgt->cg[2].current = 8;  /* /a/b at its max (8 pages) */
	mm.cgt->cg[1].current = 8;
	mm.cgt->cg[0].current += 8;
	CHECK(store(&mm, 0, 2));
	CHECK_EQ(CUR(&mm, 2), 9);
	CHECK_EQ(mm.cgt->cg[2].peak, 9);
	mm_destroy(&mm);
}

/* --memcg: v2 charges memory.current, v1 nothing. */
void test_zswap_charge_memcg_v1_v2(void)
{
	for (int v1 = 0; v1 < 2; v1++) {
		struct mm mm;
		struct mm_config cfg = { .ram_pages = 1024, .swap_pages = 64, .min_free_kbytes = 128,
					 .untimed = true, .seed = 3 };
		mm_init(&mm, &cfg, &zero_costs);
		mm_memcg_init(&mm, 512, v1);
		struct zswap_config zc = { .max_pool_percent = 20, .accept_thr_percent = 90,
					   .algo = ZALGO_LZ4, .chain = 8, .trace_ratio = 200 };
		mm.swap.zswap = zswap_create(&mm, 64, 1, &zc);
		uint64_t before = mm.memcg.charged;
		CHECK(store(&mm, 0, 0));
		CHECK(store(&mm, 1, 0));
		CHECK(store(&mm, 2, 0));
		CHECK_EQ(mm.memcg.charged - before, v1 ? 0 : 2);  /* 6144 bytes */
		CHECK_EQ(mm.swap.zswap->lru[0].bytes, 6144);      /* the statistic stays */
		mm_destroy(&mm);
	}
}

/* zram under the same tree: the pool takes frames, nobody is charged. */
void test_zram_charges_no_cgroup(void)
{
	struct mm mm;
	setup_tree(&mm, 1 + ZALGO_LZ4);
	struct zram *z = mm.swap.zram;
	uint64_t root0 = CUR(&mm, 0);
	struct page *p = mm_page(&mm, 1000);
	p->data_kind = DK_TEXT;
	p->owner = 1;
	p->memcg = 2;
	for (uint32_t slot = 0; slot < 3; slot++) {
		p->index = slot;
		zram_write(z, NULL, 1000, slot);
	}
	CHECK_EQ(z->st.pages_stored, 3);
	CHECK(z->pool.pages > 0);
	CHECK_EQ(CUR(&mm, 2), 0);
	CHECK_EQ(CUR(&mm, 1), 0);
	CHECK_EQ(CUR(&mm, 0), root0);
	CHECK(mm_check(&mm, stderr));
	mm_destroy(&mm);
}
