/* test_cgwire.c - memory.low / memory.min and memory.high wired into the
 * cgroup tree (src/mm/memcg_hooks.c): shrink_node_memcgs()'s protection
 * with the memcg_low_reclaim retry, and mem_cgroup_handle_over_high()'s
 * reclaim and penalty sleep.  The untimed ideal machine (256 frames,
 * writes complete at once), clock's one LRU, --check on. */
#include "test.h"
#include "sim.h"
#include "../src/machine/machine.h"
#include "../src/workload/workload.h"
#include "../src/policy/policy.h"
#include "../src/engine/cgspec.h"
#include "../src/lib/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void test_cgwire_low_protects(void);
void test_cgwire_low_retry_breaks_low(void);
void test_cgwire_min_never_broken(void);
void test_cgwire_high_penalty(void);

/* A trace writing pages 1..n once each, in a temp file named at path. */
static void write_trace(char *path, int n)
{
	FILE *f = fdopen(mkstemp(path), "w");
	if (!f)
		panic("temp trace");
	for (int p = 1; p <= n; p++)
		fprintf(f, "%d w\n", p);
	fclose(f);
}

/* Workload k in cgroup at[k]: a trace writing pages[k] pages once, or,
 * for pages[k] < 0, dd writing -pages[k] pages of a file (which stay in
 * the page cache, charged to the cgroup, after dd exits).  The ideal
 * machine runs the first task first. */
static void run_traces(struct machine *m, const char *const *specs, const int *pages, const int *at, int n)
{
	struct profile prof = *profile_find("ideal");
	prof.ram = 256 * PAGE_SIZE;
	prof.swap = 1 << 20;
	struct machine_opts mo = { .seed = 1, .check = true, .max_time_ns = 1000000000000ULL };
	char err[256], path[4][32], cmd[48];
	for (int i = 0; specs[i]; i++)
		if (!cgspec_add(&mo.cgroups, specs[i], err, sizeof(err)))
			panic("%s", err);
	if (!machine_init(m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	machine_set_policy(m, policy_find("clock"), NULL);
	for (int k = 0; k < n; k++) {
		int nt;
		snprintf(path[k], sizeof(path[k]), "/tmp/pagelab-cgw-XXXXXX");
		if (pages[k] < 0)
			snprintf(cmd, sizeof(cmd), "dd if=/dev/zero of=/f%d bs=4K count=%d", k, -pages[k]);
		else
			write_trace(path[k], pages[k]);
		if (pages[k] >= 0)
			snprintf(cmd, sizeof(cmd), "trace %s", path[k]);
		void *w = wl_make(cmd, &nt);
		machine_add_workload(m, workload_find(pages[k] < 0 ? "dd" : "trace"), w, cmd);
		const struct wl_inst *wi = &m->wls[m->nr_wls - 1];
		mm_cgroup_attach(&m->mm, m->tasks[wi->first_task].id, at[k]);
	}
	machine_run(m);
	CHECK(!m->check_failed);
	for (int k = 0; k < n; k++)
		if (pages[k] >= 0)
			unlink(path[k]);
}

/* /p (64 pages) holds /p/a and /p/b: dd writes 30 pages of a file in
 * /p/a, then a trace 100 pages in /p/b.  With /p/a's low at 32 pages limit reclaim from /p passes it
 * over (elow = low: its parent is the reclaim's target) and takes only
 * /p/b's pages; without, clock takes /p/a's older pages first. */
void test_cgwire_low_protects(void)
{
	struct machine m;
	run_traces(&m, (const char *const[]){ "/p:max=64p", "/p/a:low=32p", "/p/b", NULL }, (int[]){ -30, 100 },
		   (int[]){ 2, 3 }, 2);
	const struct cgtree *t = m.mm.cgt;
	CHECK_EQ(t->cg[2].stat[CGS_PGSTEAL], 0);
	CHECK_EQ(t->cg[2].events[CGE_LOW], 0);
	CHECK(t->cg[3].stat[CGS_PGSTEAL] > 0);
	CHECK_EQ(t->cg[1].events[CGE_OOM], 0);
	machine_free(&m);

	run_traces(&m, (const char *const[]){ "/p:max=64p", "/p/a", "/p/b", NULL }, (int[]){ -30, 100 },
		   (int[]){ 2, 3 }, 2);
	CHECK_EQ(m.mm.cgt->cg[2].stat[CGS_PGSTEAL], 30);
	machine_free(&m);
}

/* Everything in /p/a, below its low: the first passes reclaim nothing
 * and skip it (memcg_low_skipped), do_try_to_free_pages() retries with
 * memcg_low_reclaim: /p/a is reclaimed as without low, each pass of the
 * retry raising memory.events low in /p/a and /p; no OOM. */
void test_cgwire_low_retry_breaks_low(void)
{
	struct machine m;
	run_traces(&m, (const char *const[]){ "/p:max=64p", "/p/a:low=64p", NULL }, (int[]){ 100 }, (int[]){ 2 }, 1);
	const struct cgtree *t = m.mm.cgt;
	uint64_t steal = t->cg[2].stat[CGS_PGSTEAL], low = t->cg[2].events[CGE_LOW];
	CHECK(low > 0);
	CHECK_EQ(t->cg[1].events[CGE_LOW], low);
	CHECK_EQ(t->cg[0].events[CGE_LOW], 0);   /* the root has no memory.events */
	CHECK_EQ(t->cg[1].events[CGE_OOM], 0);
	machine_free(&m);
	run_traces(&m, (const char *const[]){ "/p:max=64p", "/p/a", NULL }, (int[]){ 100 }, (int[]){ 2 }, 1);
	CHECK_EQ(m.mm.cgt->cg[2].stat[CGS_PGSTEAL], steal);
	CHECK_EQ(m.mm.cgt->cg[2].events[CGE_LOW], 0);
	machine_free(&m);
}

/* memory.min is never broken: 100 pages in /p/a with min 64 pages under
 * /p's 64: nothing reclaimable, the charge OOMs. */
void test_cgwire_min_never_broken(void)
{
	struct machine m;
	run_traces(&m, (const char *const[]){ "/p:max=64p", "/p/a:min=64p", NULL }, (int[]){ 100 }, (int[]){ 2 }, 1);
	CHECK_EQ(m.mm.cgt->cg[2].stat[CGS_PGSTEAL], 0);
	CHECK_EQ(m.mm.cgt->cg[1].events[CGE_OOM], 1);
	machine_free(&m);
}

/* /h with high at 32 pages, 100 pages written: reclaim_high() runs on
 * the way back to user space (memory.events high) and keeps usage near
 * high.  With swap.max=0 it cannot: usage reaches 100 pages, and from
 * an overage of 68/32 calculate_high_delay() gives far more than
 * MEMCG_MAX_HIGH_DELAY_JIFFIES even for one page (2^20 * 68/32 squared,
 * times HZ 1000, >> 34, / 64: 4515 jiffies), so the task sleeps at least
 * the 2 s clamp more than without high. */
void test_cgwire_high_penalty(void)
{
	struct machine m;
	run_traces(&m, (const char *const[]){ "/h:swap.max=0", NULL }, (int[]){ 100 }, (int[]){ 1 }, 1);
	uint64_t plain = m.tasks[m.wls[0].first_task].end;
	CHECK_EQ(m.mm.cgt->cg[1].events[CGE_HIGH], 0);
	CHECK_EQ(m.mm.cgt->cg[1].peak, 100);
	machine_free(&m);

	run_traces(&m, (const char *const[]){ "/h:high=32p", NULL }, (int[]){ 100 }, (int[]){ 1 }, 1);
	const struct cgroup *h = &m.mm.cgt->cg[1];
	CHECK(h->events[CGE_HIGH] > 0);
	CHECK(h->stat[CGS_PGSTEAL] > 0);
	CHECK(h->peak < 100);
	machine_free(&m);

	run_traces(&m, (const char *const[]){ "/h:high=32p,swap.max=0", NULL }, (int[]){ 100 }, (int[]){ 1 }, 1);
	CHECK(m.mm.cgt->cg[1].events[CGE_HIGH] > 0);
	CHECK_EQ(m.mm.cgt->cg[1].peak, 100);
	CHECK(m.tasks[m.wls[0].first_task].end >= plain + 2000000000ULL);
	machine_free(&m);
}
