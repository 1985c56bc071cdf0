/* test_agents.c - memory.reclaim (src/mm/memcg_reclaim.c, the memreclaim
 * workload) on the untimed ideal machine (256 frames, writes complete at
 * once, --check on), and the agents' control loops (senpai.c, oomd.c)
 * driven by scripted cgroup reads, step by step against senpai.py's and
 * systemd-oomd's arithmetic worked by hand. */
#include "test.h"
#include "sim.h"
#include "../src/machine/machine.h"
#include "../src/workload/workload.h"
#include "../src/policy/policy.h"
#include "../src/engine/cgspec.h"
#include "../src/lib/util.h"
#include "../src/mm/pte.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void test_memreclaim_takes_what_was_asked(void);
void test_memreclaim_fifo_oldest_first(void);
void test_memreclaim_eagain_when_short(void);
void test_memreclaim_swappiness_zero_spares_anon(void);
void test_senpai_steps_on_scripted_pressure(void);
void test_oomd_kills_after_duration(void);

/* The workloads cmds[k] in cgroup at[k] on the ideal machine under
 * policy, cgroups of specs; the caller frees m. */
static uint64_t max_time_ns = 1000000000000ULL;

static void run_ideal(struct machine *m, const char *policy, const char *const *specs, const char *const *cmds,
		      const int *at, int n)
{
	struct profile prof = *profile_find("ideal");
	prof.ram = 256 * PAGE_SIZE;
	prof.swap = 1 << 20;
	struct machine_opts mo = { .seed = 1, .check = true, .max_time_ns = max_time_ns };
	char err[256];
	for (int i = 0; specs[i]; i++)
		if (!cgspec_add(&mo.cgroups, specs[i], err, sizeof(err)))
			panic("%s", err);
	if (!machine_init(m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	machine_set_policy(m, policy_find(policy), NULL);
	for (int k = 0; k < n; k++) {
		int nt;
		char name[16];
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(cmds[k], " "), cmds[k]);
		void *w = wl_make(cmds[k], &nt);
		if (!w)
			panic("%s", cmds[k]);
		machine_add_workload(m, workload_find(name), w, cmds[k]);
		const struct wl_inst *wi = &m->wls[m->nr_wls - 1];
		mm_cgroup_attach(&m->mm, m->tasks[wi->first_task].id, at[k]);
	}
	machine_run(m);
	CHECK(!m->check_failed);
}

/* Workload k's report() text. */
static void report_of(struct machine *m, int k, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");
	m->wls[k].ops->report(m->wls[k].w, NULL, f);
	fclose(f);
}

/* /a: usemem's 100 anonymous pages, held; /b: 50.  memory.reclaim from
 * /a (swap writes complete at once here) of `ask` pages: what it
 * reclaimed, the report's text in rep. */
static uint64_t reclaim_a(struct machine *m, const char *ask, char *rep, size_t len)
{
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "memreclaim -a 1s /a %s", ask);
	run_ideal(m, "linux6", (const char *const[]){ "/a", "/b", NULL },
		  (const char *const[]){ "usemem -s 5 400k", "usemem -s 5 200k", cmd }, (const int[]){ 1, 2, 0 }, 3);
	report_of(m, 2, rep, len);
	const struct cgtree *t = m->mm.cgt;
	/* the reclaim's pages are all /a's; /b's lruvec is never scanned */
	CHECK_EQ(t->cg[2].pgscan_proactive, 0);
	CHECK_EQ(t->cg[2].stat[CGS_PGSTEAL], 0);
	CHECK_EQ(t->cg[1].stat[CGS_PGSTEAL], t->cg[1].pgsteal_proactive);
	return t->cg[1].pgsteal_proactive;
}

/* All of /a: every one of its 100 pages, none of /b's 50; 60 pages:
 * the loop stops once a try took it to 60 or more, the pages it freed
 * being what memory.current lost. */
void test_memreclaim_takes_what_was_asked(void)
{
	struct machine m;
	char rep[256];
	CHECK_EQ(reclaim_a(&m, "100p", rep, sizeof(rep)), 100);
	CHECK(!strcmp(rep, "memreclaim: 1 write(s) of 400 kB to /a/memory.reclaim: 400 kB reclaimed\n"));
	CHECK_EQ(m.mm.cgt->cg[1].peak - m.mm.cgt->cg[1].pgsteal_proactive, 0);
	machine_free(&m);
	uint64_t got = reclaim_a(&m, "60p", rep, sizeof(rep));
	CHECK(got >= 60 && got < 100);
	char want[128];
	snprintf(want, sizeof(want), "to /a/memory.reclaim: %llu kB reclaimed\n", (unsigned long long)got * 4);
	CHECK(strstr(rep, want) != NULL);
	machine_free(&m);
}

/* fifo's one LRU, stopped at 3 s with usemem still holding its 100
 * pages (written in order) in /a and /b's 50 beside them: memory.reclaim
 * of 60 pages asks try_to_free_mem_cgroup_pages() for max(60 / 4, 32) =
 * 32, then max(28 / 4, 32) = 32: exactly 64 pages, the 64 oldest of
 * /a's (its region's first 64, now swap entries; /b's, older still, are
 * passed over as outside the target's subtree). */
void test_memreclaim_fifo_oldest_first(void)
{
	struct machine m;
	max_time_ns = 3000000000ULL;
	run_ideal(&m, "fifo", (const char *const[]){ "/a", "/b", NULL },
		  (const char *const[]){ "usemem -s 50 200k", "usemem -s 50 400k", "memreclaim -a 1s /a 60p" },
		  (const int[]){ 2, 1, 0 }, 3);
	max_time_ns = 1000000000000ULL;
	const struct aspace *as = m.tasks[m.wls[1].first_task].as;
	CHECK_EQ(m.mm.cgt->cg[1].pgsteal_proactive, 64);
	CHECK_EQ(m.mm.cgt->cg[2].stat[CGS_PGSTEAL], 0);
	/* pgscan_proactive, in the target as pgscan is under one LRU: the
	 * first try meets /b's 50 (passed over, scanned, rotated to the
	 * head) before /a's 32, the second /a's next 32: 82 + 32. */
	CHECK_EQ(m.mm.cgt->cg[1].pgscan_proactive, 114);
	CHECK_EQ(m.mm.cgt->cg[1].stat[CGS_PGSCAN], 114);
	CHECK_EQ(m.mm.cgt->cg[2].pgscan_proactive, 0);
	int swapped = 0, first_present = -1;
	for (uint64_t i = 0; i < as->vmas[0].npages; i++) {
		pte_t p = as->vmas[0].pte[i];
		swapped += pte_is_swap(p) && i < 64;
		if (pte_present(p) && first_present < 0)
			first_present = (int)i;
	}
	CHECK_EQ(as->vmas[0].npages, 100);
	CHECK_EQ(swapped, 64);
	CHECK_EQ(first_present, 64);
	machine_free(&m);
}

/* Asked for more than /a has: every page goes, then 16 tries reclaim
 * nothing and the write fails with EAGAIN. */
void test_memreclaim_eagain_when_short(void)
{
	struct machine m;
	char rep[256];
	CHECK_EQ(reclaim_a(&m, "200p", rep, sizeof(rep)), 100);
	CHECK(strstr(rep, ": 400 kB reclaimed\nmemreclaim: 1 write(s) failed: Resource temporarily unavailable "
			  "(EAGAIN)\n") != NULL);
	machine_free(&m);
}

/* /a holds only anonymous pages (usemem's 80, held 5 s).  swappiness=0 in memory.reclaim: get_scan_count() scans file
 * only for cgroup reclaim, so nothing is reclaimed (EAGAIN); without it
 * the anonymous pages are swapped out.  linux6 and workingset (3.15's
 * get_scan_count() has the same rule, splitlru.c). */
void test_memreclaim_swappiness_zero_spares_anon(void)
{
	for (int sw = 0; sw < 4; sw++) {
		struct machine m;
		run_ideal(&m, sw < 2 ? "linux6" : "workingset", (const char *const[]){ "/a", NULL },
			  (const char *const[]){ "usemem -s 5 320k", sw % 2 ? "memreclaim -a 1s /a 40p"
									: "memreclaim -a 1s -w 0 /a 40p" },
			  (const int[]){ 1, 0 }, 2);
		char rep[256];
		report_of(&m, 1, rep, sizeof(rep));
		if (sw % 2 == 0) {
			CHECK_EQ(m.mm.cgt->cg[1].pgsteal_proactive, 0);
			CHECK(strstr(rep, ": 0 kB reclaimed\n") && strstr(rep, "(EAGAIN)"));
		} else {
			CHECK(m.mm.cgt->cg[1].pgsteal_proactive >= 40);
			CHECK(strstr(rep, "(EAGAIN)") == NULL);
		}
		machine_free(&m);
	}
}

/* One scripted read: the state an OP_CG_READ would hand back. */
static void feed(const struct workload_ops *o, void *w, uint64_t total_us, uint64_t current)
{
	struct wl_cgroup_state s = { .some_total_us = total_us, .current = current, .nr_tasks = 1, .psi = true };
	o->cgroup_done(w, 0, &s);
}

/* The next op, and the one after when it is a 1 s sleep. */
static struct op next(const struct workload_ops *o, void *w)
{
	struct op op;
	CHECK(o->next_op(w, 0, &op));
	if (op.kind == OP_SLEEP) {
		CHECK_EQ(op.ns, 1000000000ULL);
		CHECK(o->next_op(w, 0, &op));
	}
	return op;
}

/* senpai.py's defaults (interval 6, pressure 10000 us, max-probe 0.01,
 * coeff-probe 10), --min-size 0, memory.current 100M:
 *  - the first read only sets last_total; grace 6: six quiet ticks wait;
 *  - the 7th, integral 0: err = 10000 / 1, adj = min((err/10)^2 x 0.01,
 *    0.01) = 0.01: reclaim 1% of 100M = 256 pages; grace 5;
 *  - 5 ticks of 5000 us: 5000, 10000 (not above), 15000 > 10000: a
 *    backoff, no write; grace 5;
 *  - 5 quiet ticks, then one of 2000 us: err 5, adj (5/10)^2 x 0.01 =
 *    0.0025 of 100M = 64 pages. */
void test_senpai_steps_on_scripted_pressure(void)
{
	const struct workload_ops *o = workload_find("senpai");
	int nt;
	void *w = wl_make("senpai --min-size 0 /a", &nt);
	const uint64_t cur = 100ULL << 20;
	uint64_t total = 1000;
	CHECK_EQ(next(o, w).kind, OP_CG_READ);
	feed(o, w, total, cur);
	for (int i = 0; i < 6; i++) {
		CHECK_EQ(next(o, w).kind, OP_CG_READ);
		feed(o, w, total, cur);
	}
	CHECK_EQ(next(o, w).kind, OP_CG_READ);
	feed(o, w, total, cur);
	struct op op = next(o, w);
	CHECK_EQ(op.kind, OP_CG_RECLAIM);
	CHECK_EQ(op.npages, 256);
	CHECK(!strcmp(op.name, "/a") && op.swappiness == -1);
	o->cgroup_done(w, 0, &(struct wl_cgroup_state){ .reclaimed = 256 });
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(next(o, w).kind, OP_CG_READ);
		total += 5000;
		feed(o, w, total, cur);
	}
	for (int i = 0; i < 5; i++) {
		CHECK_EQ(next(o, w).kind, OP_CG_READ);
		feed(o, w, total, cur);
	}
	CHECK_EQ(next(o, w).kind, OP_CG_READ);
	feed(o, w, total + 2000, cur);
	op = next(o, w);
	CHECK_EQ(op.kind, OP_CG_RECLAIM);
	CHECK_EQ(op.npages, 64);
	o->cgroup_done(w, 0, &(struct wl_cgroup_state){ .reclaimed = 64 });
	char rep[160];
	FILE *f = fmemopen(rep, sizeof(rep), "w");
	o->report(w, NULL, f);
	fclose(f);
	CHECK(!strcmp(rep, "senpai: /a: 16 ticks, 2 probes reclaimed 1280 kB, 1 backoffs\n"));
	o->destroy(w);
}

/* A scripted read of /m with two leaves: full avg10 `avg`, pgscan of
 * /m/x and /m/y at time t s. */
static void feed_oomd(const struct workload_ops *o, void *w, int t, double avg, uint64_t px, uint64_t py)
{
	struct wl_cgroup_state s = { .now_ns = (uint64_t)t * 1000000000ULL, .full_avg10 = avg, .psi = true,
				     .nr_tasks = 2, .pgscan = px + py, .nr_leaves = 2 };
	snprintf(s.leaf[0].path, sizeof(s.leaf[0].path), "/m/x");
	snprintf(s.leaf[1].path, sizeof(s.leaf[1].path), "/m/y");
	s.leaf[0].pgscan = px;
	s.leaf[1].pgscan = py;
	o->cgroup_done(w, 0, &s);
}

/* --limit 50 --duration 3s: above 50% from t=1 s; at t=4 s three
 * seconds have passed with pgscan growing, /m/y's the most since the
 * last poll: it is killed.  Then 15 s of no action, and a dip to 40%
 * restarts the clock. */
void test_oomd_kills_after_duration(void)
{
	const struct workload_ops *o = workload_find("oomd");
	int nt;
	void *w = wl_make("oomd --limit 50 --duration 3s /m", &nt);
	CHECK_EQ(next(o, w).kind, OP_CG_READ);
	feed_oomd(o, w, 0, 10, 0, 0);
	uint64_t px = 0, py = 0;
	for (int t = 1; t <= 3; t++) {
		CHECK_EQ(next(o, w).kind, OP_CG_READ);
		px += 10, py += 5;
		feed_oomd(o, w, t, 70, px, py);
	}
	CHECK_EQ(next(o, w).kind, OP_CG_READ);
	px += 10, py += 30;
	feed_oomd(o, w, 4, 70, px, py);
	struct op op = next(o, w);
	CHECK_EQ(op.kind, OP_CG_KILL);
	CHECK(!strcmp(op.name, "/m/y"));
	o->cgroup_done(w, 0, &(struct wl_cgroup_state){ .now_ns = 4000000000ULL, .nr_killed = 3 });
	/* the clock from the start again (t=5), a dip at 17 s restarts it
	 * (t=18): 3 s later, t=21, past the 15 s wait (19 s), /m/x goes */
	for (int t = 5; t <= 21; t++) {
		CHECK_EQ(next(o, w).kind, OP_CG_READ);
		px += 10;
		feed_oomd(o, w, t, t == 17 ? 40 : 70, px, py);
	}
	op = next(o, w);
	CHECK_EQ(op.kind, OP_CG_KILL);
	CHECK(!strcmp(op.name, "/m/x"));
	o->destroy(w);
}
