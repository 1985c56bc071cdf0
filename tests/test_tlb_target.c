/* test_tlb_target.c - which CPUs a reclaim flush interrupts and what
 * one costs: the machine's rule (src/machine/machine.c
 * io_remote_tlb_flush: the other CPUs of the victim's mm_cpumask that
 * run a task, Linux 6.18 arch_tlbbatch_flush -> should_flush_tlb) and
 * the probe's per-round arithmetic (src/native/tlbprobe.c
 * nhost_tlb_round).  Hand-set CPUs, no run: well under a second. */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/machine/profile.h"
#include "../src/native/native.h"

void test_tlb_target_mm_cpumask(void);
void test_tlb_target_probe_round(void);

/* Three CPUs: the reclaimer's task 0 on CPU 0, tasks 1 and 2 running on
 * CPUs 1 and 2.  A victim whose mm ran on CPUs 0 and 1 interrupts CPU 1
 * only; one that ran everywhere, CPUs 1 and 2; one that ran only where
 * the reclaimer is, nobody (try_to_unmap flushed locally).  An idle CPU
 * (lazy TLB) is skipped even in the mask.  Each interrupted CPU is
 * owed recv_ns. */
void test_tlb_target_mm_cpumask(void)
{
	struct profile prof = *profile_find("modern");
	prof.cpus = 3;
	prof.ram = 64ULL << 20;
	prof.swap = 16ULL << 20;
	struct machine_opts mo = { .seed = 1 };
	struct machine m;
	char err[256];
	if (!machine_init(&m, &prof, &mo, err, sizeof(err))) {
		CHECK_EQ(err[0], 0);
		fprintf(stderr, "%s\n", err);
		return;
	}
	for (int c = 0; c < 3; c++)
		m.cpus[c].task = c;
	m.cur_task = 0;
	unsigned (*flush)(void *, uint64_t, uint64_t, uint64_t) = m.mm.io.remote_tlb_flush;
	CHECK_EQ(flush(m.mm.io.arg, 1000, 7, 0x3), 1);
	CHECK_EQ(m.cpus[1].irq_ns, 7);
	CHECK_EQ(m.cpus[2].irq_ns, 0);
	CHECK_EQ(flush(m.mm.io.arg, 1000, 7, 0x7), 2);
	CHECK_EQ(m.cpus[1].irq_ns, 14);
	CHECK_EQ(m.cpus[2].irq_ns, 7);
	CHECK_EQ(flush(m.mm.io.arg, 1000, 7, 0x1), 0);
	m.cpus[2].task = -1; /* idle since before t: lazy */
	m.cpus[2].busy_until = 500;
	CHECK_EQ(flush(m.mm.io.arg, 1000, 7, 0x7), 1);
	CHECK_EQ(m.cpus[2].irq_ns, 7);
	m.cur_task = -1;
	machine_free(&m);
}

/* Zap loops of 300 us of CPU beside a thread of the mm and 200 us
 * beside another mm, 10 zaps each: 10 us more per flush.  The spinner
 * spent 200 us on 100 units beside the other mm (2 us a unit) and 300 us
 * on 50 units beside the mm: 200 us more than its work needed, 20 us a
 * flush.  Cheaper beside the mm: 0, never negative. */
void test_tlb_target_probe_round(void)
{
	uint64_t send, recv;
	struct nhost_tlb_loop in = { 300000, 300000, 50 }, out = { 200000, 200000, 100 };
	nhost_tlb_round(&in, &out, 10, &send, &recv);
	CHECK_EQ(send, 10000);
	CHECK_EQ(recv, 20000);
	in = (struct nhost_tlb_loop){ 100, 100, 100 };
	nhost_tlb_round(&in, &out, 10, &send, &recv);
	CHECK_EQ(send, 0);
	CHECK_EQ(recv, 0);
}
