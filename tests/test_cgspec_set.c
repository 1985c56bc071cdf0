/* test_cgspec_set.c - `--set cgroup.PATH.KEY=VALUE` (src/engine/cgspec.c
 * cgspec_set()): the key is the longest known key that ends the name (a
 * path may hold dots: /a.b; swap.max is not max), the cgroup must be
 * declared, and the value is read as the --cgroup spec's. */
#include "test.h"
#include "../src/engine/cgspec.h"

#include <string.h>

void test_cgspec_set_keys(void);

void test_cgspec_set_keys(void)
{
	struct cg_tree_conf t;
	char err[256];
	memset(&t, 0, sizeof(t));
	CHECK(cgspec_add(&t, "/a.b:max=64M", err, sizeof(err)));
	CHECK(cgspec_add(&t, "/c/d", err, sizeof(err)));
	CHECK(cgspec_is_key_name("cgroup./a.b.high") && !cgspec_is_key_name("cgroup") && !cgspec_is_key_name("cgroupx"));
	CHECK(cgspec_set(&t, "cgroup./a.b.swap.max", "8M", err, sizeof(err)));
	CHECK_EQ(t.cg[0].swap_max, 2048);
	CHECK_EQ(t.cg[0].max, 16384);          /* swap.max is not max */
	CHECK(cgspec_set(&t, "cgroup./a.b.high", "16M", err, sizeof(err)));
	CHECK_EQ(t.cg[0].high, 4096);
	/* An implied parent takes a key too. */
	CHECK(cgspec_set(&t, "cgroup./c.low", "4M", err, sizeof(err)));
	CHECK_EQ(t.cg[1].low, 1024);
	CHECK(!cgspec_set(&t, "cgroup./x.high", "8M", err, sizeof(err)));
	CHECK(!strcmp(err, "--set cgroup./x.high: no cgroup /x (declare it with --cgroup /x first)"));
	CHECK(!cgspec_set(&t, "cgroup./a.b.bogus", "1", err, sizeof(err)));
	CHECK(!strncmp(err, "bad --set cgroup./a.b.bogus (cgroup.PATH.KEY", 44));
	CHECK(!cgspec_set(&t, "cgroup./a.b.swappiness", "300", err, sizeof(err)));
	CHECK(!strcmp(err, "--cgroup /a.b: bad swappiness '300' (0 to 200)"));
}
