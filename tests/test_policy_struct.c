/* test_policy_struct.c - libpagelab's pagelab_set_policy_struct(): a
 * policy given as a struct pagelab_policy in memory (what the Python
 * package builds with ctypes, docs/python.md) runs through the plugin
 * adapter like a loaded plugin.  An exact LRU written against
 * pagelab_policy.h must fault as often as the built-in lru on the same
 * run; a struct the adapter refuses is an error naming "memory:NAME";
 * the same struct given twice takes one plugin place.  Milliseconds. */
#include "test.h"
#include "../include/pagelab.h"
#include "../include/pagelab_policy.h"

#include <stdlib.h>
#include <string.h>

void test_policy_struct_lru_equals_builtin(void);
void test_policy_struct_refused(void);

struct slru {
	struct pagelab_mm *mm;
	int list;
};

static void *slru_init(struct pagelab_mm *mm, const double *tun)
{
	(void)tun;
	struct slru *l = calloc(1, sizeof(*l));
	if (!l)
		abort();
	l->mm = mm;
	l->list = pagelab_lru_register(mm, "slru");
	return l;
}

static void slru_destroy(void *p) { free(p); }

static void slru_add(void *p, pagelab_pfn pfn, enum pagelab_add_reason why)
{
	struct slru *l = p;
	(void)why;
	pagelab_lru_add_head(l->mm, l->list, pfn);
}

static void slru_remove(void *p, pagelab_pfn pfn)
{
	struct slru *l = p;
	pagelab_lru_del(l->mm, pfn);
}

static void slru_access(void *p, pagelab_pfn pfn, bool write)
{
	struct slru *l = p;
	(void)write;
	pagelab_lru_del(l->mm, pfn);
	pagelab_lru_add_head(l->mm, l->list, pfn);
}

/* The built-in lru's pass (src/policy/lru.c): victims from the tail, a
 * page that cannot go back at the head. */
static void slru_shrink(void *p, struct pagelab_scan *sc)
{
	struct slru *l = p;
	uint64_t budget = pagelab_lru_count(l->mm, l->list);
	while (sc->nr_reclaimed < sc->nr_to_reclaim && budget--) {
		pagelab_pfn pfn = pagelab_lru_tail(l->mm, l->list);
		pagelab_lru_del(l->mm, pfn);
		enum pagelab_evict_result r = pagelab_evict(l->mm, sc, pfn);
		if (r == PAGELAB_EVICT_REFUSED || r == PAGELAB_EVICT_NOSWAP)
			pagelab_lru_add_head(l->mm, l->list, pfn);
	}
}

static const struct pagelab_policy slru = {
	.abi = PAGELAB_POLICY_ABI, .name = "slru", .summary = "exact LRU in memory (a test)",
	.flags = PAGELAB_POLICY_ACCESS_HOOK,
	.init = slru_init, .destroy = slru_destroy, .add = slru_add, .remove = slru_remove,
	.access = slru_access, .shrink = slru_shrink,
};

/* usemem -m 24 on 16M of RAM with swap: pgfault, pswpout of the run
 * under the named policy (NULL: the struct). */
static void run_usemem(const char *name, uint64_t *faults, uint64_t *out)
{
	static const char *const w[] = { "usemem", "-m", "24" };
	pagelab_sim *s = pagelab_new("vmm-2008");
	CHECK(s != NULL);
	CHECK(pagelab_set(s, "ram", "16M") == 0);
	CHECK(pagelab_set(s, "swap", "32M") == 0);
	CHECK((name ? pagelab_set_policy(s, name) : pagelab_set_policy_struct(s, &slru)) == 0);
	CHECK(pagelab_add_workload(s, 3, w) == 0);
	CHECK(pagelab_run(s) == 0);
	CHECK(pagelab_counter(s, "pgfault", faults) == 0);
	CHECK(pagelab_counter(s, "pswpout", out) == 0);
	pagelab_free(s);
}

void test_policy_struct_lru_equals_builtin(void)
{
	uint64_t f1 = 0, o1 = 0, f2 = 1, o2 = 1, f3 = 2, o3 = 2;
	run_usemem("lru", &f1, &o1);
	run_usemem(NULL, &f2, &o2);
	run_usemem(NULL, &f3, &o3);     /* the same address: registered once */
	CHECK(o1 > 0);
	CHECK_EQ(f2, f1);
	CHECK_EQ(o2, o1);
	CHECK_EQ(f3, f1);
	CHECK_EQ(o3, o1);
}

void test_policy_struct_refused(void)
{
	static struct pagelab_policy bad;
	bad = slru;
	bad.name = "badabi";
	bad.abi = PAGELAB_POLICY_ABI + 1;
	pagelab_sim *s = pagelab_new("ideal");
	CHECK(pagelab_set_policy_struct(s, &bad) == -1);
	CHECK(strstr(pagelab_error(s), "memory:badabi: built for policy interface version") != NULL);
	CHECK(pagelab_set_policy_struct(s, NULL) == -1);
	pagelab_free(s);
}
