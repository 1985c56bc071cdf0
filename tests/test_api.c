/* test_api.c - libpagelab (include/pagelab.h) behaviour that the embed
 * example in tests/cli.d/install.sh does not reach. */
#include "test.h"
#include "../include/pagelab.h"
#include "../src/workload/qsbench_record.h"

#include <stddef.h>

void test_api_last_free_drops_caches(void);

static pagelab_sim *qsbench_sim(void)
{
	static const char *const argv[] = { "qsbench", "-m", "2" };
	pagelab_sim *s = pagelab_new("vmm-2008");
	CHECK(s != NULL);
	CHECK(pagelab_set(s, "ram", "64M") == 0);
	CHECK(pagelab_add_workload(s, 3, argv) == 0);
	return s;
}

/* qsbench's sort recordings outlive a run for the next one; once the
 * program has freed its last handle they must be gone (a library user
 * would otherwise hold up to 256 MB until exit).  Before the fix the last
 * check failed: the 2 MB sort's recording stayed. */
void test_api_last_free_drops_caches(void)
{
	qs_recordings_drop_unused();
	pagelab_sim *a = qsbench_sim(), *b = pagelab_new("vmm-2008");
	CHECK(pagelab_run(a) == 0);
	pagelab_free(a);
	/* b is alive and may yet sort the same data: the recording is kept. */
	CHECK(qs_recordings_unused_bytes() > 0);
	pagelab_free(b);
	CHECK_EQ(qs_recordings_unused_bytes(), 0);
}
