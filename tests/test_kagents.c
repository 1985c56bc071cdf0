/* test_kagents.c - kexec_agents_refuse() (src/engine/kexec_tree.c): the
 * workloads that act on a cgroup from user space refused on the host
 * kernel of cgroup v1 with one line; on v2 and for other workloads,
 * no refusal. */
#include "test.h"
#include "../src/engine/kexec.h"

#include <string.h>

void test_kagents_refused_per_version(void);

/* The refusal of words on version v ("" when none). */
static const char *refusal(int v, int argc, char **argv)
{
	static char err[512];
	struct wl_list l;
	err[0] = 0;
	if (!wl_list_parse(argc, argv, &l, err, sizeof(err)))
		return "(parse)";
	if (!kexec_agents_refuse(&l, v, err, sizeof(err)))
		err[0] = 0;
	wl_list_free(&l);
	return err;
}

void test_kagents_refused_per_version(void)
{
	char *with[] = { "usemem", "-m", "4", "+", "senpai", "/a" };
	char *plain[] = { "usemem", "-m", "4", "+", "dd", "if=/x", "bs=1M", "count=1" };
	/* v2 drives them (src/native/cgagent.c, test_kagents_fs.c). */
	CHECK(!strcmp(refusal(2, 6, with), ""));
	CHECK(!strcmp(refusal(1, 6, with), "kernel: workload 2 (senpai) acts through cgroup v2's memory.reclaim, "
		      "memory.pressure or cgroup.kill, which this host's cgroup v1 memory controller lacks: it "
		      "runs only in the simulator"));
	CHECK(!strcmp(refusal(1, 8, plain), ""));
	CHECK(!strcmp(refusal(2, 8, plain), ""));
}
