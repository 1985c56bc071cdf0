/* test_kexec_work.c - the workloads of a host kernel run as kexec.h
 * prepares them for both of its callers (pagelab kernel and a kernel
 * cell): seeded as pagelab run seeds them, a workload's --help stopped
 * before anything is created (pagelab kernel's) or passed on (a cell's),
 * bad input one line.  No kernel run, no root. */
#include "test.h"
#include "../src/engine/kexec.h"

#include <string.h>

void test_kexec_work_prepare(void);
void test_kexec_work_prepare(void)
{
	char err[256] = "";
	char *two[] = { "usemem", "-m", "1", "+", "usemem", "-m", "2" };
	struct kexec_work k;
	CHECK(kexec_work_prepare(&k, 7, two, true, 5, 64ULL << 20, 0, err, sizeof(err)));
	CHECK_EQ(k.nwl, 2);
	CHECK_EQ(k.wl[0].seed, 5);
	CHECK_EQ(k.wl[1].seed, 6);
	CHECK(!strcmp(k.wl[1].cmd, "usemem -m 2"));
	CHECK(k.inst[0] && k.inst[1] && k.planned);
	kexec_work_free(&k);

	char *help[] = { "usemem", "--help" };
	CHECK(kexec_work_prepare(&k, 2, help, true, 1, 64ULL << 20, 0, err, sizeof(err)));
	CHECK(k.wll.help != NULL);
	CHECK_EQ(k.nwl, 0);
	kexec_work_free(&k);

	char *bad[] = { "nosuch" };
	CHECK(!kexec_work_prepare(&k, 1, bad, true, 1, 64ULL << 20, 0, err, sizeof(err)));
	CHECK(!strcmp(err, "unknown workload 'nosuch' (see pagelab workloads)"));
	kexec_work_free(&k);
}
