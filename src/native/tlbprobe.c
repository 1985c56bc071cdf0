/* tlbprobe.c - what a remote TLB flush costs on this host (native.h).
 *
 * Reclaim that writes a mapped page first makes every other CPU drop its
 * TLB entries for it (try_to_unmap_flush_dirty, src/mm/reclaim.c).  Which
 * CPUs are asked is the guest kernel's rule (Linux 6.18,
 * arch/x86/mm/tlb.c): the CPUs of the mm's cpumask that are not lazy
 * (should_flush_tlb(): a CPU running a task of any mm; idle is lazy).
 * In a KVM guest with PV TLB flush (arch/x86/kernel/kvm.c,
 * kvm_flush_tlb_multi()), a vCPU the host has preempted is left out and
 * flushed by the host at its next entry instead: how many asked CPUs
 * really take an IPI is the hypervisor's scheduling, which pagelab does
 * not simulate.  So the figure is per flush the guest's rule aims at a
 * busy CPU (what pagelab counts, tlb_flush_ipis), delivered or not.
 *
 * Method: a thread of this process spins on fixed user-mode work on a
 * second CPU (its mm is loaded there and the CPU is not lazy) while
 * ZAPS times a page is faulted in and zapped (MADV_DONTNEED: unmap, then
 * flush_tlb_mm_range()) on a first CPU: (a) by this process's thread,
 * so every flush aims at the spinner's CPU; (b) by a forked process
 * (another mm, run only on the first CPU), so the second CPU is as
 * busy, with the same spinner, but no flush aims at it.  Busy alone
 * slows the zaps here as much as the IPIs do, which is why (b) and
 * not an idle CPU is the baseline.  *send is the zapping thread's CPU
 * time in (a) less (b), per zap; *recv the spinner's CPU time in (a)
 * beyond its CPU time per unit of work in (b), per zap.  IPIs are
 * counted in /proc/interrupts' "TLB shootdowns" row (x86; arm64 flushes
 * by broadcast, without IPIs: the probe says so), for the share of (a)'s
 * flushes that became one, printed beside the figure; a host that takes
 * them all (share 0) gives (a) - (b) all the same, the cost of a flush
 * aimed at a busy CPU there.  The median of ROUNDS rounds, (a) and (b)
 * alternating. */
#define _GNU_SOURCE
#include "native.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#define ZAPS 10000
#define ROUNDS 5

/* The work both spinners do, counted in a page shared across the fork. */
struct spinner {
	int cpu;
	atomic_int run;     /* the thread: 1 spin, 0 sleep, -1 exit */
	atomic_long *units; /* work units done (in a page shared with (b)) */
	clockid_t clk;      /* the spinner's CPU-time clock */
	uint64_t sink;      /* the work's result, so that it is done */
};

static uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static bool pin(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return pthread_setaffinity_np(pthread_self(), sizeof(s), &s) == 0;
}

static uint64_t spin_unit(atomic_long *units, uint64_t x)
{
	for (int i = 0; i < 1000; i++)
		x += (uint64_t)i ^ (x >> 3);
	atomic_fetch_add(units, 1);
	return x;
}

static void *spin_thread(void *arg)
{
	struct spinner *sp = arg;
	pin(sp->cpu);
	uint64_t x = 0;
	int r;
	while ((r = atomic_load(&sp->run)) >= 0) {
		if (!r) {
			struct timespec ts = { 0, 1000000 };
			nanosleep(&ts, NULL);
			continue;
		}
		x = spin_unit(sp->units, x);
	}
	sp->sink = x;
	return NULL;
}

/* The "TLB shootdowns" row of /proc/interrupts summed over CPUs; -1 if
 * there is none. */
static long tlb_interrupts(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	if (!f)
		return -1;
	char line[8192];
	long sum = -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line;
		while (*p == ' ')
			p++;
		if (strncmp(p, "TLB:", 4))
			continue;
		p += 4;
		sum = 0;
		for (;;) {
			char *end;
			long v = strtol(p, &end, 10);
			if (end == p)
				break;
			sum += v;
			p = end;
		}
	}
	fclose(f);
	return sum;
}

/* One zap loop beside the spinner: its CPU time (the IPIs' send and
 * wait are the zapping thread's system time, and a CPU time leaves out
 * the run queue's waits of a loaded host), the IPIs it drew, and the
 * spinner's CPU time and units of work meanwhile. */
struct zap_run {
	uint64_t ns, spin_ns;
	long ipis, units;
};

static void zap_loop(atomic_long *units, struct zap_run *z)
{
	const clockid_t self = CLOCK_THREAD_CPUTIME_ID;
	volatile char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return;
	long i0 = tlb_interrupts(), u0 = atomic_load(units);
	uint64_t t0 = clock_ns(self);
	for (int i = 0; i < ZAPS; i++) {
		page[0] = 1;
		madvise((void *)page, 4096, MADV_DONTNEED);
	}
	z->ns = clock_ns(self) - t0;
	z->units = atomic_load(units) - u0;
	z->ipis = tlb_interrupts() - i0;
	munmap((void *)page, 4096);
}

/* (b): the same loop in a forked process, pinned to the same CPU: its mm
 * has run on no other CPU, so its flushes aim at none.  The spinner's
 * share is taken here, around the child's life. */
static bool zap_process(int cpu, struct spinner *sp, struct zap_run *z)
{
	atomic_long *units = sp->units;
	long u0 = atomic_load(units);
	uint64_t c0 = clock_ns(sp->clk);
	pid_t pid = fork();
	if (pid < 0)
		return false;
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (pin(cpu))
			zap_loop(units, z);
		_exit(0);
	}
	int st;
	bool ok = waitpid(pid, &st, 0) == pid && WIFEXITED(st) && z->ns;
	z->units = atomic_load(units) - u0;
	z->spin_ns = clock_ns(sp->clk) - c0;
	return ok;
}

void nhost_tlb_round(const struct nhost_tlb_loop *in, const struct nhost_tlb_loop *out, long zaps, uint64_t *send,
		     uint64_t *recv)
{
	*send = in->ns > out->ns ? (in->ns - out->ns) / (uint64_t)zaps : 0;
	/* The spinner's CPU time per unit of work beside the other zaps;
	 * what it spent beyond that beside these (the interrupts run on
	 * its clock) is what the flushes took from it. */
	double per_unit = out->units > 0 ? (double)out->spin_ns / (double)out->units : 0;
	double lost = (double)in->spin_ns - (double)in->units * per_unit;
	*recv = lost > 0 ? (uint64_t)(lost / (double)zaps) : 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* One round: (a) then (b); *send and *recv in ns per flush, *ipis (a)'s
 * IPIs; false with why. */
static bool round_once(struct spinner *sp, int cpu, uint64_t *send, uint64_t *recv, long *ipis, char *why,
		       size_t len)
{
	struct zap_run *runs = (struct zap_run *)(sp->units + 1); /* (a), (b): in the shared page */
	memset(runs, 0, 2 * sizeof(*runs));
	struct timespec settle = { 0, 50000000 };
	atomic_store(&sp->run, 1);
	nanosleep(&settle, NULL);
	long u0 = atomic_load(sp->units);
	uint64_t c0 = clock_ns(sp->clk);
	zap_loop(sp->units, &runs[0]);
	runs[0].units = atomic_load(sp->units) - u0;
	runs[0].spin_ns = clock_ns(sp->clk) - c0;
	bool ok = zap_process(cpu, sp, &runs[1]);
	atomic_store(&sp->run, 0);
	if (!ok || !runs[0].ns || runs[1].units <= 0 || !runs[1].spin_ns) {
		snprintf(why, len, "the zap loops or the spinner did not run (fork, mmap)");
		return false;
	}
	struct nhost_tlb_loop in = { runs[0].ns, runs[0].spin_ns, runs[0].units };
	struct nhost_tlb_loop out = { runs[1].ns, runs[1].spin_ns, runs[1].units };
	nhost_tlb_round(&in, &out, ZAPS, send, recv);
	*ipis = runs[0].ipis;
	return true;
}

static bool two_cpus(int cpus[2], char *why, size_t len)
{
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		snprintf(why, len, "sched_getaffinity: %s", strerror(errno));
		return false;
	}
	int n = 0;
	for (int c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &allowed))
			cpus[n++] = c;
	if (n < 2) {
		snprintf(why, len, "one CPU: no remote TLB flush");
		return false;
	}
	if (tlb_interrupts() < 0) {
		snprintf(why, len, "no TLB shootdowns row in /proc/interrupts (not x86?)");
		return false;
	}
	return true;
}

static bool rounds(struct spinner *sp, int cpu, uint64_t *send_ns, uint64_t *recv_ns,
		   double *share, char *why, size_t len)
{
	uint64_t s[ROUNDS], r[ROUNDS], d[ROUNDS];
	long ipis;
	bool ok = pin(cpu);
	if (!ok)
		snprintf(why, len, "cannot pin to CPU %d", cpu);
	for (int i = 0; ok && i < ROUNDS; i++) {
		ok = round_once(sp, cpu, &s[i], &r[i], &ipis, why, len);
		d[i] = (uint64_t)ipis;
	}
	if (!ok)
		return false;
	qsort(s, ROUNDS, sizeof(s[0]), cmp_u64);
	qsort(r, ROUNDS, sizeof(r[0]), cmp_u64);
	qsort(d, ROUNDS, sizeof(d[0]), cmp_u64);
	/* To 100 ns: the figure's own noise is larger. */
	*send_ns = (s[ROUNDS / 2] + 50) / 100 * 100;
	*recv_ns = (r[ROUNDS / 2] + 50) / 100 * 100;
	if (share)
		*share = (double)d[ROUNDS / 2] / ZAPS;
	return true;
}

bool nhost_tlb_ipi_cost(uint64_t *send_ns, uint64_t *recv_ns, double *share, char *why, size_t len)
{
	int cpus[2];
	if (!two_cpus(cpus, why, len))
		return false;
	atomic_long *units = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (units == MAP_FAILED) {
		snprintf(why, len, "mmap: %s", strerror(errno));
		return false;
	}
	struct spinner sp = { .cpu = cpus[1], .units = units };
	atomic_init(&sp.run, 0);
	atomic_init(units, 0);
	pthread_t th;
	bool ok = false;
	cpu_set_t before;
	pthread_getaffinity_np(pthread_self(), sizeof(before), &before);
	if (pthread_create(&th, NULL, spin_thread, &sp)) {
		snprintf(why, len, "cannot start a thread");
	} else if (pthread_getcpuclockid(th, &sp.clk)) {
		snprintf(why, len, "no CPU-time clock for the spinner");
		atomic_store(&sp.run, -1);
		pthread_join(th, NULL);
	} else {
		ok = rounds(&sp, cpus[0], send_ns, recv_ns, share, why, len);
		atomic_store(&sp.run, -1);
		pthread_join(th, NULL);
		pthread_setaffinity_np(pthread_self(), sizeof(before), &before);
	}
	munmap((void *)units, 4096);
	return ok;
}
