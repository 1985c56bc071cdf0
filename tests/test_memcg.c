/* test_memcg.c - the 6.x counters (pgscan/pgsteal by LRU type, swap_ra,
 * allocstall per zone, the LRU gauges) and --memcg limit reclaim, on
 * small machines run in-process exactly as the CLI does.  Cost: about a
 * second in all (machines of 8-32 MB, --check on the small ones). */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/workload/workload.h"
#include "../src/policy/policy.h"
#include "../src/lib/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void test_memcg_hand_checked_clock(void);
void test_memcg_no_kswapd_counters(void);
void test_memcg_oom_inside(void);
void test_counters_split_by_type(void);
void test_lru_gauges_sum(void);
void test_swap_ra_identity(void);

struct run {
	const char *machine, *policy, *workload;
	uint64_t ram, swap, memcg; /* bytes; 0 = the profile's / none */
	bool check;
	uint64_t max_s;            /* stop after this much simulated time (0: 1000 s) */
};

/* Run one workload line; the machine is left for the caller to inspect
 * and free. */
static void run(const struct run *r, struct machine *m)
{
	const struct profile *base = profile_find(r->machine);
	struct profile prof = *base;
	if (r->ram)
		prof.ram = r->ram;
	if (r->swap)
		prof.swap = r->swap;
	struct machine_opts mo = { .seed = 1, .check = r->check, .max_time_ns = (r->max_s ? r->max_s : 1000) * 1000000000ULL,
				   .memcg_pages = r->memcg / PAGE_SIZE };
	char err[256], buf[256], *argv[32];
	if (!machine_init(m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	snprintf(buf, sizeof(buf), "%s", r->workload);
	int argc = 0;
	for (char *tok = strtok(buf, " "); tok && argc < 31; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	const struct workload_ops *wo = workload_find(argv[0]);
	void *w = wo->create(argc, argv, 1, err, sizeof(err));
	if (!w)
		panic("%s", err);
	machine_set_policy(m, policy_find(r->policy), NULL);
	machine_add_workload(m, wo, w, r->workload);
	machine_run(m);
	CHECK(!m->check_failed);
}

static const char *trace_file(char *path, uint64_t pages)
{
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f)
		panic("temp trace");
	for (uint64_t p = 1; p <= pages; p++)
		fprintf(f, "%llu w\n", (unsigned long long)p);
	fclose(f);
	return path;
}

/* A 64-page cgroup, 100 pages written once, clock on the untimed ideal
 * machine (writes complete at once).  The 65th charge fails: limit
 * reclaim asks for SWAP_CLUSTER_MAX = 32 pages.  Every page was written,
 * so clock's first trip clears 64 referenced bits (64 scanned), then
 * evicts pages 1-32 (32 scanned, 32 swapped out).  Pages 65-96 fit; the
 * 97th charge finds 33-64 unreferenced at the tail: 32 scanned, 32 out.
 * 97-100 fit.  pgscan_anon 128, pgsteal_anon 64, pswpout 64, none of it
 * in the kswapd/direct counters, and the cgroup never above 64 pages. */
void test_memcg_hand_checked_clock(void)
{
	char path[] = "/tmp/pagelab-memcg-XXXXXX";
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "trace %s", trace_file(path, 100));
	struct machine m;
	run(&(struct run){ "ideal", "clock", cmd, 256 * PAGE_SIZE, 1 << 20, 64 * PAGE_SIZE, true, 0 }, &m);
	const uint64_t *ev = m.mm.ev;
	CHECK_EQ(ev[PGSCAN_ANON], 128);
	CHECK_EQ(ev[PGSTEAL_ANON], 64);
	CHECK_EQ(ev[PSWPOUT], 64);
	CHECK_EQ(ev[PGSCAN_FILE] + ev[PGSTEAL_FILE], 0);
	CHECK_EQ(ev[PGSCAN_KSWAPD] + ev[PGSCAN_DIRECT] + ev[PGSTEAL_KSWAPD] + ev[PGSTEAL_DIRECT], 0);
	CHECK_EQ(ev[ALLOCSTALL] + ev[ALLOCSTALL_NORMAL], 0);
	CHECK_EQ(m.mm.memcg.peak, 64);
	CHECK_EQ(m.mm.memcg.failcnt, 2);
	machine_free(&m);
	/* fifo evicts without scanning past anything: 64 scanned. */
	run(&(struct run){ "ideal", "fifo", cmd, 256 * PAGE_SIZE, 1 << 20, 64 * PAGE_SIZE, true, 0 }, &m);
	CHECK_EQ(m.mm.ev[PGSCAN_ANON], 64);
	CHECK_EQ(m.mm.ev[PSWPOUT], 64);
	machine_free(&m);
	unlink(path);
}

/* Timed machines: limit reclaim is the charging task's own, every
 * kernel-style and textbook policy swaps within the limit with kswapd
 * idle, and --check holds the charges to the pages held. */
void test_memcg_no_kswapd_counters(void)
{
	static const char *const pols[] = { "fifo", "clock", "lru", "linux22", "vhand", "aa24",
					    "linux26", "splitlru", "workingset", "mglru" };
	for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		struct machine m;
		run(&(struct run){ "vmm-2008", pols[i], "usemem -m 12", 32 << 20, 64 << 20, 8 << 20, true, 0 }, &m);
		const uint64_t *ev = m.mm.ev;
		if (ev[PGSCAN_KSWAPD] || ev[PGSCAN_DIRECT] || !ev[PGSCAN_ANON] || !ev[PSWPOUT] || ev[OOM_KILL] ||
		    ev[ALLOCSTALL] || m.mm.memcg.peak > 2048) {
			fprintf(stderr, "memcg %s: kswapd %llu direct %llu anon %llu pswpout %llu oom %llu peak %llu\n",
				pols[i], (unsigned long long)ev[PGSCAN_KSWAPD], (unsigned long long)ev[PGSCAN_DIRECT],
				(unsigned long long)ev[PGSCAN_ANON], (unsigned long long)ev[PSWPOUT],
				(unsigned long long)ev[OOM_KILL], (unsigned long long)m.mm.memcg.peak);
			test_failures++;
		}
		/* 12 MB = 3072 pages through an 8 MB = 2048-page cgroup:
		 * at least the 1024 pages beyond it were written to swap. */
		CHECK(ev[PSWPOUT] >= 1024);
		CHECK_EQ(m.mm.memcg.peak, 2048);
		machine_free(&m);
	}
}

/* One swap slot: the cgroup's OOM killer kills inside it, says so, and counts
 * memory.events oom / oom_kill. */
void test_memcg_oom_inside(void)
{
	struct machine m;
	run(&(struct run){ "vmm-2008", "workingset", "usemem -m 12", 32 << 20, PAGE_SIZE, 8 << 20, false, 0 }, &m);
	CHECK_EQ(m.mm.ev[OOM_KILL], 1);
	CHECK_EQ(m.mm.memcg.oom_kill, 1);
	CHECK(m.mm.memcg.oom >= 1);
	bool said = false;
	for (uint64_t i = 0; i < m.nr_log; i++)
		said |= m.log[i].text && !strncmp(m.log[i].text, "Memory cgroup out of memory: Killed process", 43);
	CHECK(said);
	machine_free(&m);
}

static void check_split(const char *pol, const char *wl, const struct machine *m)
{
	const uint64_t *ev = m->mm.ev;
	uint64_t scan = ev[PGSCAN_KSWAPD] + ev[PGSCAN_DIRECT] + ev[PGSCAN_AGING];
	uint64_t steal = ev[PGSTEAL_KSWAPD] + ev[PGSTEAL_DIRECT] + ev[PGSTEAL_AGING];
	if (ev[PGSCAN_ANON] + ev[PGSCAN_FILE] != scan || ev[PGSTEAL_ANON] + ev[PGSTEAL_FILE] != steal || !steal) {
		fprintf(stderr, "%s %s: pgscan anon %llu file %llu total %llu; pgsteal anon %llu file %llu total %llu\n",
			pol, wl, (unsigned long long)ev[PGSCAN_ANON], (unsigned long long)ev[PGSCAN_FILE],
			(unsigned long long)scan, (unsigned long long)ev[PGSTEAL_ANON],
			(unsigned long long)ev[PGSTEAL_FILE], (unsigned long long)steal);
		test_failures++;
	}
	CHECK_EQ(ev[ALLOCSTALL_NORMAL] + ev[ALLOCSTALL_DMA] + ev[ALLOCSTALL_HIGH], ev[ALLOCSTALL]);
}

/* Without --memcg, pgscan_anon + pgscan_file is every page scanned
 * (kswapd + direct + aging threads) and pgsteal likewise, for every
 * policy, on anonymous and file memory together; a read of the disk
 * through the page cache reclaims only file pages. */
void test_counters_split_by_type(void)
{
	for (const struct policy_ops *const *pp = policy_registry; *pp; pp++) {
		if ((*pp)->flags & POLICY_NEEDS_ORACLE)
			continue;
		const char *mixed = "workingset -m 8 -f 24 -n 3", *dd = "dd if=/dev/sda bs=1M count=64";
		struct machine m;
		run(&(struct run){ "vmm-2008", (*pp)->name, mixed, 24 << 20, 64 << 20, 0, false, 0 }, &m);
		check_split((*pp)->name, mixed, &m);
		machine_free(&m);
		run(&(struct run){ "vmm-2008", (*pp)->name, dd, 24 << 20, 64 << 20, 0, false, 0 }, &m);
		check_split((*pp)->name, dd, &m);
		CHECK_EQ(m.mm.ev[PGSTEAL_ANON], 0);
		/* A cache policy's clock hands (clockpro) pass dd's buffer too. */
		if (!((*pp)->flags & POLICY_ACCESS_HOOK))
			CHECK_EQ(m.mm.ev[PGSCAN_ANON], 0);
		CHECK(m.mm.ev[PGSTEAL_FILE] > 8000); /* 16384 pages read through 24 MB */
		machine_free(&m);
	}
}

/* The four LRU gauges add up to the pages on evictable LRU lists while
 * a workload holds its memory (the run stops during usemem's hold); a
 * split-LRU design then has anonymous pages both active and inactive,
 * a single-list one only inactive ones. */
void test_lru_gauges_sum(void)
{
	static const char *const pols[] = { "clock", "splitlru", "workingset", "mglru", "aa24", "linux26" };
	for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		struct machine m;
		run(&(struct run){ "vmm-2008", pols[i], "usemem -m 24 -r 2 -s 100", 32 << 20, 64 << 20, 0, false, 20 }, &m);
		struct lru_sizes lz;
		mm_lru_sizes(&m.mm, &lz);
		uint64_t on_lists = 0;
		for (int l = 1; l < m.mm.fr.nr_lists; l++)
			if (m.mm.fr.lists[l].kind != LRU_KIND_NONE)
				on_lists += m.mm.fr.lists[l].count;
		CHECK_EQ(lz.active_anon + lz.inactive_anon + lz.active_file + lz.inactive_file, on_lists);
		CHECK(lz.active_anon + lz.inactive_anon > 2000);
		if (!strcmp(pols[i], "clock"))
			CHECK_EQ(lz.active_anon, 0);
		if (!strcmp(pols[i], "splitlru") || !strcmp(pols[i], "workingset"))
			CHECK(lz.active_anon > 0 && lz.inactive_anon > 0);
		machine_free(&m);
	}
}

/* 6.x's identity: every swap-in is the faulting page (a major fault) or
 * a readahead page (swap_ra); swap_ra_hit counts readahead pages that
 * were then faulted, never more than were read. */
void test_swap_ra_identity(void)
{
	static const char *const pols[] = { "clock", "splitlru", "workingset" };
	for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
		struct machine m;
		run(&(struct run){ "vmm-2008", pols[i], "qsbench -m 20", 16 << 20, 64 << 20, 0, false, 0 }, &m);
		const uint64_t *ev = m.mm.ev;
		CHECK_EQ(ev[PSWPIN], ev[PGMAJFAULT] + ev[SWAP_RA]);
		CHECK(ev[SWAP_RA] > 0);
		CHECK(ev[SWAP_RA_HIT] > 0 && ev[SWAP_RA_HIT] <= ev[SWAP_RA]);
		machine_free(&m);
	}
}
