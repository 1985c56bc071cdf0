/* test_cgspec_keys.c - `--set cgroup.PATH.KEY=VALUE` for the keys whose
 * names end in another's (src/engine/cgspec.c key_at(): the longest
 * match): swap.high against high, zswap.max against swap.max and max. */
#include "test.h"
#include "../src/engine/cgspec.h"
#include "../src/mm/cgtree.h"

#include <string.h>

void test_cgspec_keys_longest_suffix(void);

void test_cgspec_keys_longest_suffix(void)
{
	struct cg_tree_conf t = { 0 };
	char err[256] = "";

	CHECK(cgspec_add(&t, "/a", err, sizeof(err)));
	CHECK_EQ(t.cg[0].swap_high, CG_UNLIMITED);
	CHECK(cgspec_set(&t, "cgroup./a.swap.high", "8M", err, sizeof(err)));
	CHECK_EQ(t.cg[0].swap_high, 2048);
	CHECK_EQ(t.cg[0].high, CG_UNLIMITED);
	CHECK(cgspec_set(&t, "cgroup./a.zswap.max", "4M", err, sizeof(err)));
	CHECK_EQ(t.cg[0].zswap_max, 1024);
	CHECK_EQ(t.cg[0].swap_max, CG_UNLIMITED);
	CHECK_EQ(t.cg[0].max, CG_UNLIMITED);
	CHECK(cgspec_set(&t, "cgroup./a.swap.high", "max", err, sizeof(err)));
	CHECK_EQ(t.cg[0].swap_high, CG_UNLIMITED);
	/* In the spec too, and a bad value is one line naming the key. */
	CHECK(cgspec_add(&t, "/b:swap.high=1M,high=2M", err, sizeof(err)));
	CHECK_EQ(t.cg[1].swap_high, 256);
	CHECK_EQ(t.cg[1].high, 512);
	CHECK(!cgspec_add(&t, "/c:swap.high=x", err, sizeof(err)));
	CHECK(!strcmp(err, "--cgroup /c: bad swap.high 'x' (a size or max)"));
}
