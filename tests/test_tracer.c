/* test_tracer.c - src/native/tracer.c's reading of trace_pipe lines: the
 * sums it keeps from hand-written events in the kernel's own formats
 * (include/trace/events/vmscan.h, pagemap.h of 6.18). */
#include "test.h"
#include "../src/native/native.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void test_tracer_sums_events(void);

void test_tracer_sums_events(void)
{
	struct ntracer t;
	memset(&t, 0, sizeof(t));
	/* A fake /proc/kpagecgroup: pfn 2 and 5 are charged to cgroup 77. */
	char path[] = "/tmp/pagelab-test-kpc.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	uint64_t ino[8] = { 1, 1, 77, 1, 0, 77, 1, 1 };
	CHECK(write(fd, ino, sizeof(ino)) == (ssize_t)sizeof(ino));
	t.kpc = fd;
	t.memcg_ino = 77;
	ntracer_line(&t, "          usemem-4242    [001] .....   812.000001: mm_vmscan_lru_shrink_inactive: "
		     "nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 "
		     "nr_immediate=0 nr_activate_anon=2 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 "
		     "priority=12 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC");
	ntracer_line(&t, "              dd-4243    [000] .....   812.000002: mm_vmscan_lru_shrink_inactive: "
		     "nid=0 nr_scanned=20 nr_reclaimed=7 nr_dirty=0 nr_writeback=0 nr_congested=0 "
		     "nr_immediate=0 nr_activate_anon=0 nr_activate_file=3 nr_ref_keep=5 nr_unmap_fail=0 "
		     "priority=11 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC");
	ntracer_line(&t, "          usemem-4242    [001] .....   812.000003: mm_vmscan_lru_shrink_active: "
		     "nid=0 nr_taken=16 nr_active=4 nr_deactivated=12 nr_referenced=1 priority=12 "
		     "flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC");
	/* Activations: ours (pfn 2, 0x5), another cgroup's (3), beyond the file (9). */
	ntracer_line(&t, "             cc1-900     [000] .....   812.1: mm_lru_activate: folio=00000000c0ffee00 pfn=0x2");
	ntracer_line(&t, "             cc1-900     [000] .....   812.2: mm_lru_activate: folio=00000000c0ffee01 pfn=0x3");
	ntracer_line(&t, "          kworker-5      [001] .....   812.3: mm_lru_activate: folio=00000000c0ffee02 pfn=0x5");
	ntracer_line(&t, "          kworker-5      [001] .....   812.4: mm_lru_activate: folio=00000000c0ffee03 pfn=0x9");
	ntracer_line(&t, "# tracer: nop");
	ntracer_line(&t, "");
	CHECK_EQ(t.sum[NT_PGACTIVATE], 2 + 3 + 2);
	CHECK_EQ(t.sum[NT_PGDEACTIVATE], 12);
	CHECK_EQ(t.sum[NT_PGSCAN_ANON], 32);
	CHECK_EQ(t.sum[NT_PGSTEAL_ANON], 30);
	CHECK_EQ(t.sum[NT_PGSCAN_FILE], 20);
	CHECK_EQ(t.sum[NT_PGSTEAL_FILE], 7);
	CHECK_EQ(t.sum[NT_PGACTIVATE_ACCESSED], 2);
	CHECK_EQ(t.sum[NT_REF_KEEP], 0 + 5);
	close(fd);
	unlink(path);
}
