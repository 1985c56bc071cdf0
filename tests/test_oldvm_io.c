/* test_oldvm_io.c - I/O completes inside the 2.2/2.4 designs' own reclaim
 * loops (issue 11, Deliver 2; docs/design.md, "I/O completes inside reclaim
 * passes").  About a second of CPU: usemem -m 142 in 128 MB, twice per design. */
#include "test.h"
#include "sim.h"
#include "../src/lib/util.h"

#include <stdio.h>

/* Simulated seconds of `usemem -m 142` in 128 MB on the SATA disk of `vmm-2008`
 * profile under `policy`, with (1) or without (0) I/O inside passes. */
static double usemem_seconds(const char *policy, int in_pass, uint64_t *pswpout)
{
	char a0[] = "usemem", a1[] = "-m", a2[] = "142";
	char *av[] = { a0, a1, a2, NULL };
	const char *const off[] = { "vm.io_in_reclaim", "0", NULL };
	struct machine *m = sim_run_workload("vmm-2008", 128ULL << 20, policy, NULL, in_pass ? NULL : off, 3, av);
	double s = (double)m->now / 1e9;
	*pswpout = m->mm.ev[PSWPOUT];
	machine_free(m);
	return s;
}

/* 2.4.0's page_launder() writes every dirty page of inactive_dirty in its
 * second loop: thousands of pages in one call.  The kernel's swap writes
 * were asynchronous and completed by interrupt while the loop went on, so
 * the task was done with its pass when the disk was nearly done too.
 * Without completions inside the loop the simulated task waited for the
 * whole burst after the pass: the same writes, several times the time. */
void test_riel24_launder_burst_completes_inside_the_pass(void)
{
	uint64_t out_off, out_on;
	double off = usemem_seconds("riel24", 0, &out_off);
	double on = usemem_seconds("riel24", 1, &out_on);
	if (!(on * 2 < off))
		fprintf(stderr, "riel24 usemem -m 142: %.3f s with I/O in passes, %.3f s without (pswpout %llu, %llu)\n",
			on, off, (unsigned long long)out_on, (unsigned long long)out_off);
	CHECK(out_off > 5000);
	CHECK(out_on > 5000);
	CHECK(on * 2 < off);
}

/* The designs that write at most SWAP_CLUSTER_MAX pages per call finish
 * their pass before the disk could complete much: the catch-up points
 * change nothing there but must not break anything either (the same pages
 * are written, within a few percent of the time). */
void test_oldvm_catch_up_harmless_for_bounded_passes(void)
{
	static const char *const pols[] = { "linux22", "vhand", "aa24" };
	for (unsigned i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		uint64_t out_off, out_on;
		double off = usemem_seconds(pols[i], 0, &out_off);
		double on = usemem_seconds(pols[i], 1, &out_on);
		if (!(out_on > 5000 && on < off * 1.25))
			fprintf(stderr, "%s usemem -m 142: %.3f s / %llu pages out with I/O in passes, %.3f s / %llu without\n",
				pols[i], on, (unsigned long long)out_on, off, (unsigned long long)out_off);
		CHECK(out_on > 5000);
		CHECK(on < off * 1.25);
	}
}
