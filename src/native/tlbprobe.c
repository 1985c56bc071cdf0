/* tlbprobe.c - what a remote TLB flush costs on this host (native.h).
 *
 * Reclaim that writes a mapped page first makes every other CPU drop its
 * TLB entries for it (try_to_unmap_flush_dirty, src/mm/reclaim.c): an IPI
 * the asking CPU waits for, and an interrupt on each CPU that takes it.
 * On bare metal both are a microsecond or two; in a virtual machine each
 * IPI and its acknowledgement may leave the guest, and a 6.18 guest on a
 * two-CPU microVM measured 12 us to ask and 6-7 us to take one.
 * `pagelab compare` gives the simulated host these costs
 * (cost.tlb_ipi, cost.tlb_ipi_recv), measured as the disk rate is.
 *
 * Method: one thread pinned to a second CPU spins on fixed user-mode work
 * in this process's address space (so that CPU is not lazy and the flush
 * must reach it) while this thread, pinned to a first CPU, faults a page
 * in and zaps it (MADV_DONTNEED: unmap and flush) ZAPS times; then the
 * same loop with the spinner asleep (the CPU idle, lazy: no IPI).  The
 * asking cost is the difference per IPI; the taking cost is the spinner's
 * lost progress per IPI, against its rate alone.  IPIs are counted in
 * /proc/interrupts' "TLB shootdowns" row (x86); where there is none
 * (arm64 flushes by broadcast, without IPIs) the probe says so.  The
 * median of three rounds. */
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

#define ZAPS 20000
#define ROUNDS 3

struct spinner {
	int cpu;
	atomic_int run;     /* 1: spin, 0: sleep, -1: exit */
	atomic_long units;  /* work units done */
	uint64_t sink;      /* the work's result, so that it is done */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static bool pin(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return pthread_setaffinity_np(pthread_self(), sizeof(s), &s) == 0;
}

static void *spin(void *arg)
{
	struct spinner *sp = arg;
	pin(sp->cpu);
	volatile uint64_t x = 0;
	int r;
	while ((r = atomic_load(&sp->run)) >= 0) {
		if (!r) {
			struct timespec ts = { 0, 1000000 };
			nanosleep(&ts, NULL);
			continue;
		}
		for (int i = 0; i < 1000; i++)
			x += (uint64_t)i;
		atomic_fetch_add(&sp->units, 1);
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

static uint64_t zap_loop(volatile char *page)
{
	uint64_t t0 = mono_ns();
	for (int i = 0; i < ZAPS; i++) {
		page[0] = 1;
		madvise((void *)page, 4096, MADV_DONTNEED);
	}
	return mono_ns() - t0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* One round: *send and *recv in ns per IPI; false with why. */
static bool round_once(struct spinner *sp, volatile char *page, uint64_t *send, uint64_t *recv, char *why,
		       size_t len)
{
	struct timespec settle = { 0, 50000000 };
	atomic_store(&sp->run, 1);
	nanosleep(&settle, NULL);
	long u0 = atomic_load(&sp->units);
	uint64_t t0 = mono_ns();
	nanosleep(&(struct timespec){ 0, 200000000 }, NULL);
	double rate = (double)(atomic_load(&sp->units) - u0) / (double)(mono_ns() - t0); /* units per ns */
	long i0 = tlb_interrupts();
	u0 = atomic_load(&sp->units);
	uint64_t busy = zap_loop(page);
	long units = atomic_load(&sp->units) - u0;
	long ipis = tlb_interrupts() - i0;
	atomic_store(&sp->run, 0);
	nanosleep(&settle, NULL);
	uint64_t idle = zap_loop(page);
	if (rate <= 0 || ipis < ZAPS / 2) {
		snprintf(why, len, "%ld TLB shootdowns for %d zaps: the flush did not reach the other CPU", ipis, ZAPS);
		return false;
	}
	*send = busy > idle ? (busy - idle) / (uint64_t)ipis : 0;
	double lost = (double)busy - (double)units / rate;
	*recv = lost > 0 ? (uint64_t)(lost / (double)ipis) : 0;
	return true;
}

bool nhost_tlb_ipi_cost(uint64_t *send_ns, uint64_t *recv_ns, char *why, size_t len)
{
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		snprintf(why, len, "sched_getaffinity: %s", strerror(errno));
		return false;
	}
	int cpus[2], n = 0;
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
	volatile char *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		snprintf(why, len, "mmap: %s", strerror(errno));
		return false;
	}
	struct spinner sp = { .cpu = cpus[1] };
	atomic_init(&sp.run, 0);
	atomic_init(&sp.units, 0);
	pthread_t th;
	bool ok = false;
	cpu_set_t before;
	pthread_getaffinity_np(pthread_self(), sizeof(before), &before);
	if (pthread_create(&th, NULL, spin, &sp)) {
		snprintf(why, len, "cannot start a thread");
	} else {
		uint64_t s[ROUNDS], r[ROUNDS];
		ok = pin(cpus[0]);
		if (!ok)
			snprintf(why, len, "cannot pin to CPU %d", cpus[0]);
		for (int i = 0; ok && i < ROUNDS; i++)
			ok = round_once(&sp, page, &s[i], &r[i], why, len);
		atomic_store(&sp.run, -1);
		pthread_join(th, NULL);
		pthread_setaffinity_np(pthread_self(), sizeof(before), &before);
		if (ok) {
			qsort(s, ROUNDS, sizeof(s[0]), cmp_u64);
			qsort(r, ROUNDS, sizeof(r[0]), cmp_u64);
			/* To 100 ns: the figure's own noise is larger. */
			*send_ns = (s[ROUNDS / 2] + 50) / 100 * 100;
			*recv_ns = (r[ROUNDS / 2] + 50) / 100 * 100;
		}
	}
	munmap((void *)page, 4096);
	return ok;
}
