/* test_ws_swappiness.c - workingset's swappiness in cgroup reclaim
 * (src/policy/splitlru.c splitlru_pass_swappiness(), cfg.memcg_swappiness):
 * 3.15 get_scan_count() weighs anon with the lruvec's swappiness (a
 * cgroup's swappiness= key) and scans file only when cgroup reclaim runs
 * at 0; 6.9+ sc_swappiness() puts memory.reclaim's swappiness= in its
 * place for that write (mm_reclaim_swappiness()), as linux6 does.  The
 * splitlru policy (2.6.28) keeps its vm_swappiness throughout. */
#include "test.h"
#include "../src/mm/cgtree.h"
#include "../src/policy/splitlru.h"

#include <string.h>

void test_ws_swappiness_pass(void);

static struct mm mm;
static struct cgtree cgt;

/* The pass's swappiness of an engine of swappiness own (memcg_swappiness
 * ws), with memory.reclaim's w (-2: none running, -1: running without
 * swappiness=), in cgroup reclaim or not; *fo: file only. */
static unsigned pass(bool ws, unsigned own, int w, bool cgroup, bool *fo)
{
	struct splitlru s;
	memset(&s, 0, sizeof(s));
	s.mm = &mm;
	s.cfg.swappiness = own;
	s.cfg.memcg_swappiness = ws;
	mm.cgt = &cgt;
	cgt.proactive = w > -2;
	cgt.proactive_swappiness = w > -2 ? w : -1;
	struct scan_control sc = { .cgroup = cgroup };
	return splitlru_pass_swappiness(&s, &sc, fo);
}

void test_ws_swappiness_pass(void)
{
	bool fo = true;
	/* No memory.reclaim: the lruvec's own. */
	CHECK_EQ(pass(true, 60, -2, true, &fo), 60);
	CHECK(!fo);
	/* memory.reclaim "... swappiness=200": 200 for the write (anon_prio
	 * 200, file_prio 0 in get_scan_ratio()'s weights). */
	CHECK_EQ(pass(true, 60, 200, true, &fo), 200);
	CHECK(!fo);
	/* ... swappiness=0: 0 and no anon list scanned (SCAN_FILE). */
	CHECK_EQ(pass(true, 60, 0, true, &fo), 0);
	CHECK(fo);
	/* Without swappiness=: the cgroup's own, here a swappiness=0 key. */
	CHECK_EQ(pass(true, 0, -1, true, &fo), 0);
	CHECK(fo);
	/* Global reclaim at 0 still swaps ("Global reclaim will swap to
	 * prevent OOM even with no swappiness"). */
	CHECK_EQ(pass(true, 0, -2, false, &fo), 0);
	CHECK(!fo);
	/* splitlru (2.6.28): vm_swappiness, whatever memory.reclaim asks. */
	CHECK_EQ(pass(false, 60, 0, true, &fo), 60);
	CHECK(!fo);
	CHECK_EQ(pass(false, 0, -2, true, &fo), 0);
	CHECK(!fo);
	mm.cgt = NULL;
}
