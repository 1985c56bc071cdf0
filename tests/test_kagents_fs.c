/* test_kagents_fs.c - the agents (memreclaim, senpai, oomd) driven by
 * the kernel executor on cgroup v2 (src/native/cgagent.c), on the fake
 * cgroup2 tree of kcgfake.c.  The test plays the kernel: at each second
 * of a clock of its own (each OP_SLEEP moves it) it writes what the
 * agent will read (memory.current, memory.pressure, memory.stat,
 * cgroup.procs), and after each of the agent's cgroup ops it logs the
 * bytes written to memory.reclaim or cgroup.kill, with the second, and
 * empties the file.  Hand-checked against senpai.py's arithmetic and
 * systemd-oomd's rules as src/workload/senpai.c and oomd.c give them;
 * then the report's replay (nagent_replay()) of the recorded findings
 * must give the agent's copy the same report. */
#define _GNU_SOURCE
#include "test.h"
#include "kcgfake.h"
#include "../src/engine/cgspec.h"
#include "../src/engine/kexec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void test_kagents_fs_senpai(void);
void test_kagents_fs_memreclaim(void);
void test_kagents_fs_oomd(void);
void test_kagents_fs_unwritable(void);
void test_kagents_fs_v2_not_refused(void);
void test_kagents_fs_executor(void);
void test_kagents_fs_not_walked(void);

#define SEC 1000000000ULL

static const char *const cgs[] = { "", "/a", "/b", "/agent" };

/* The run's own cgroup with /a, /b and /agent below it. */
static bool fake_run(struct ncgroup *top)
{
	const char *specs[] = { "/a", "/b", "/agent" };
	return kcgfake_run(top, specs, 3);
}

static void put_cg(const struct ncgroup *top, const char *rel, const char *file, const char *text)
{
	struct ncgroup c;
	ncg_child(top, rel, &c);
	kcgfake_put_in(c.path, file, text);
}

/* "some ... total=S" and "full avg10=F ... total=0". */
static void put_pressure(const struct ncgroup *top, const char *rel, unsigned long long some, double full)
{
	char t[200];
	snprintf(t, sizeof(t), "some avg10=0.00 avg60=0.00 avg300=0.00 total=%llu\n"
		 "full avg10=%.2f avg60=0.00 avg300=0.00 total=0\n", some, full);
	put_cg(top, rel, "memory.pressure", t);
}

struct drive {
	const struct workload_ops *ops;
	void *w;
	struct nshared *sh;
	struct nexec_ctx c;
	uint64_t now, nops;
	char log[512];
};

/* What the last op wrote to memory.reclaim or cgroup.kill. */
static void log_writes(struct drive *d, const struct ncgroup *top)
{
	static const char *const files[] = { "memory.reclaim", "cgroup.kill" };
	for (size_t i = 0; i < sizeof(cgs) / sizeof(cgs[0]); i++)
		for (size_t f = 0; f < 2; f++) {
			struct ncgroup c;
			char buf[128];
			ncg_child(top, cgs[i], &c);
			if (!ncg_read(&c, files[f], buf, sizeof(buf)) || !buf[0])
				continue;
			size_t l = strlen(d->log);
			snprintf(d->log + l, sizeof(d->log) - l, "%llu %s/%s=%s;",
				 (unsigned long long)(d->now / SEC), cgs[i], files[f], buf);
			put_cg(top, cgs[i], files[f], "");
		}
}

/* Agent WORDS (its argv) on top, the kernel played by play(top, s) at
 * each second s, until its stream ends (or 60 s); the second it ended. */
static uint64_t drive(struct drive *d, const struct ncgroup *top, char **argv, int argc,
		      void (*play)(const struct ncgroup *, uint64_t))
{
	char err[256] = "";
	memset(d, 0, sizeof(*d));
	d->ops = workload_find(argv[0]);
	d->w = d->ops ? d->ops->create(argc, argv, 1, err, sizeof(err)) : NULL;
	d->sh = calloc(1, sizeof(struct nshared) + sizeof(struct ntask_result));
	if (!d->w || !d->sh) {
		fprintf(stderr, "  %s: %s\n", argv[0], err);
		return 0;
	}
	d->c = (struct nexec_ctx){ .ops = d->ops, .w = d->w, .sh = d->sh, .cg = top };
	play(top, 0);
	struct op op;
	while (d->now < 60 * SEC && d->ops->next_op(d->w, 0, &op)) {
		d->nops++;
		if (op.kind == OP_SLEEP) {
			uint64_t s0 = d->now / SEC;
			d->now += op.ns;
			for (uint64_t s = s0 + 1; s <= d->now / SEC; s++)
				play(top, s);
			continue;
		}
		if (!nagent_step(&d->c, &op, d->now, err, sizeof(err))) {
			fprintf(stderr, "  %s\n", err);
			break;
		}
		log_writes(d, top);
	}
	return d->now / SEC;
}

/* The agent's report, and its copy's after the replay of d's records. */
static void reports(struct drive *d, char **argv, int argc, char *live, char *replayed, size_t len)
{
	char err[256];
	FILE *f = fmemopen(live, len, "w");
	d->ops->report(d->w, NULL, f);
	fclose(f);
	void *copy = d->ops->create(argc, argv, 1, err, sizeof(err));
	struct op op;
	uint64_t cur = 0;
	for (uint64_t i = 0; i < d->nops && d->ops->next_op(copy, 0, &op); i++)
		if (op.kind >= OP_CG_RECLAIM && !nagent_replay(d->sh, 0, &cur, d->ops, copy, 0))
			break;
	f = fmemopen(replayed, len, "w");
	d->ops->report(copy, NULL, f);
	fclose(f);
	d->ops->destroy(copy);
	d->ops->destroy(d->w);
	free(d->sh);
}

/* senpai --interval 2 --min-size 1M /a: /a holds 100M, then 50M from
 * second 4; its some total stays 0 to second 5, is 30000 at 6 (a
 * backoff: 30000 > 10000) and 30500 at 7; its task (and the agent's
 * own pid, not counted) until second 8. */
static void play_senpai(const struct ncgroup *top, uint64_t s)
{
	char procs[64];
	static const unsigned long long some[] = { 0, 0, 0, 0, 0, 0, 30000, 30500, 30500 };
	put_cg(top, "/a", "memory.current", s < 4 ? "104857600\n" : "52428800\n");
	put_pressure(top, "/a", some[s < 8 ? s : 8], 0);
	snprintf(procs, sizeof(procs), "%s%d\n", s < 8 ? "90000001\n" : "", (int)getpid());
	put_cg(top, "/a", "cgroup.procs", procs);
}

void test_kagents_fs_senpai(void)
{
	struct ncgroup top;
	struct drive d;
	char *argv[] = { "senpai", "--interval", "2", "--min-size", "1M", "/a" };
	char live[256], replayed[256];
	CHECK(fake_run(&top));
	/* Started at 0 (grace 2), two seconds of grace, a probe at 3 of
	 * 100M x 0.01 (adj = min((10000 / 1 / 10)^2 x 0.01, 0.01)), one of
	 * grace, a probe of 50M x 0.01 at 5, a backoff at 6, grace at 7; at
	 * 8 no task is left. */
	CHECK_EQ(drive(&d, &top, argv, 6, play_senpai), 8);
	CHECK(!strcmp(d.log, "3 /a/memory.reclaim=1048576;5 /a/memory.reclaim=524288;"));
	reports(&d, argv, 6, live, replayed, sizeof(live));
	CHECK(!strcmp(live, "senpai: /a: 7 ticks, 2 probes reclaimed 1536 kB, 1 backoffs\n"));
	CHECK(!strcmp(replayed, live));
	kcgfake_end();
}

static void play_nothing(const struct ncgroup *top, uint64_t s)
{
	(void)top;
	(void)s;
}

void test_kagents_fs_memreclaim(void)
{
	struct ncgroup top;
	struct drive d;
	char *argv[] = { "memreclaim", "-a", "2s", "-n", "2", "-i", "3s", "-w", "0", "/b", "1M" };
	char live[256], replayed[256];
	CHECK(fake_run(&top));
	/* After 2 s, then 3 s later; the last write ends it, no sleep. */
	CHECK_EQ(drive(&d, &top, argv, 11, play_nothing), 5);
	CHECK(!strcmp(d.log, "2 /b/memory.reclaim=1048576 swappiness=0;5 /b/memory.reclaim=1048576 swappiness=0;"));
	reports(&d, argv, 11, live, replayed, sizeof(live));
	CHECK(!strcmp(live, "memreclaim: 2 write(s) of 1024 kB to /b/memory.reclaim: 2048 kB reclaimed\n"));
	CHECK(!strcmp(replayed, live));
	kcgfake_end();
}

/* oomd --limit 10 --duration 2s /: full avg10 20.00 from second 1, the
 * run's pgscan growing 100 a second, /a's 10 and /b's 50, /agent's
 * (the agent's own pid) none; /b's two tasks until the kill (gone at
 * 4), /a's until 5. */
static void play_oomd(const struct ncgroup *top, uint64_t s)
{
	char t[64];
	put_pressure(top, "", 0, s ? 20 : 0);
	snprintf(t, sizeof(t), "pgscan %llu\n", (unsigned long long)(100 * s));
	put_cg(top, "", "memory.stat", t);
	snprintf(t, sizeof(t), "pgscan %llu\n", (unsigned long long)(10 * s));
	put_cg(top, "/a", "memory.stat", t);
	snprintf(t, sizeof(t), "pgscan %llu\n", (unsigned long long)(50 * s));
	put_cg(top, "/b", "memory.stat", t);
	put_cg(top, "/a", "memory.current", "4096\n");
	put_cg(top, "/b", "memory.current", "8192\n");
	put_cg(top, "", "memory.current", "12288\n");
	snprintf(t, sizeof(t), "%d\n", (int)getpid());
	put_cg(top, "/agent", "cgroup.procs", t);
	put_cg(top, "/a", "cgroup.procs", s < 5 ? "90000001\n" : "");
	put_cg(top, "/b", "cgroup.procs", s < 4 ? "90000002\n90000003\n" : "");
}

void test_kagents_fs_oomd(void)
{
	struct ncgroup top;
	struct drive d;
	char *argv[] = { "oomd", "--limit", "10", "--duration", "2s", "/" };
	char live[256], replayed[256];
	CHECK(fake_run(&top));
	/* Above the limit from 1; at 3 it has been for 2 s with pgscan
	 * growing: /b's grew most; at 5 no task is left. */
	CHECK_EQ(drive(&d, &top, argv, 6, play_oomd), 5);
	CHECK(!strcmp(d.log, "3 /b/cgroup.kill=1;"));
	/* The first read's candidates: /a and /b, not the agent's own leaf
	 * (readdir's order); 3 tasks (the agent's own not counted). */
	const struct wl_cgroup_state *r = &d.sh->cgops[0].s;
	CHECK_EQ(r->nr_leaves, 2);
	CHECK_EQ(r->nr_tasks, 3);
	CHECK(r->nr_leaves == 2 && strcmp(r->leaf[0].path, r->leaf[1].path) &&
	      (!strcmp(r->leaf[0].path, "/a") || !strcmp(r->leaf[0].path, "/b")) &&
	      (!strcmp(r->leaf[1].path, "/a") || !strcmp(r->leaf[1].path, "/b")));
	reports(&d, argv, 6, live, replayed, sizeof(live));
	CHECK(!strcmp(live, "oomd: /: 1 kill(s), 2 task(s); the last: /b at 3.000 s\n"));
	CHECK(!strcmp(replayed, live));
	kcgfake_end();
}

/* A file the op needs that is not there: one line, the task fails. */
void test_kagents_fs_unwritable(void)
{
	struct ncgroup top, b;
	struct wl_cgroup_state s;
	char err[700], want[700];
	CHECK(fake_run(&top));
	ncg_child(&top, "/b", &b);
	snprintf(want, sizeof(want), "%s/memory.reclaim", b.path);
	unlink(want);
	struct op op = { .kind = OP_CG_RECLAIM, .name = "/b", .npages = 2, .swappiness = -1 };
	CHECK(!nagent_op(&top, &op, 0, &s, err, sizeof(err)));
	snprintf(want, sizeof(want), "cannot write '8192' to %s/memory.reclaim: No such file or directory", b.path);
	CHECK(!strcmp(err, want));
	/* An empty memory.pressure (no PSI): a read fails. */
	op = (struct op){ .kind = OP_CG_READ, .name = "/" };
	put_cg(&top, "", "memory.current", "0\n");
	CHECK(!nagent_op(&top, &op, 0, &s, err, sizeof(err)));
	snprintf(want, sizeof(want), "cannot read %s/memory.pressure", top.path);
	CHECK(!strcmp(err, want));
	kcgfake_end();
}

/* v2: the agents pass kexec_agents_refuse(); their CGROUP must be one
 * of the tree's ("/" the run's own). */
void test_kagents_fs_v2_not_refused(void)
{
	char *words[] = { "senpai", "/x" };
	struct wl_list l;
	char err[256] = "";
	CHECK(wl_list_parse(2, words, &l, err, sizeof(err)));
	CHECK(!kexec_agents_refuse(&l, 2, err, sizeof(err)));
	struct nworkload wl = { .ops = l.v[0].ops };
	void *inst = wl_spec_create(&l.v[0], 1, err, sizeof(err));
	struct cg_tree_conf conf = { 0 };
	CHECK(cgspec_add(&conf, "/a", err, sizeof(err)));
	CHECK(!kexec_agents_targets(&conf, &wl, &inst, 1, err, sizeof(err)));
	CHECK(!strcmp(err, "kernel: senpai: no cgroup /x (declare it with --cgroup /x)"));
	CHECK(cgspec_add(&conf, "/x", err, sizeof(err)));
	CHECK(kexec_agents_targets(&conf, &wl, &inst, 1, err, sizeof(err)));
	wl.ops->destroy(inst);
	wl_list_free(&l);
}

/* The executor's loop (nexec_task(), in this process): memreclaim -n 2
 * -i 1ms /b 1M's two writes through nagent_step(), recorded for the
 * replay; a missing memory.reclaim fails the task with its line, and
 * so does a cgroup op with no run's cgroup. */
void test_kagents_fs_executor(void)
{
	struct ncgroup top, b;
	char *argv[] = { "memreclaim", "-n", "2", "-i", "1ms", "/b", "1M" };
	char err[256], want[700], buf[64];
	CHECK(fake_run(&top));
	const struct workload_ops *ops = workload_find("memreclaim");
	struct nshared *sh = calloc(1, sizeof(struct nshared) + sizeof(struct ntask_result));
	void *w = ops->create(7, argv, 1, err, sizeof(err));
	struct nexec_ctx c = { .ops = ops, .w = w, .sh = sh, .t0 = native_now_ns(), .cg = &top };
	CHECK_EQ(nexec_task(&c), 0);
	CHECK(!strcmp(sh->task[0].err, ""));
	CHECK_EQ(sh->task[0].nops, 3);
	CHECK_EQ(sh->ncgops, 2);
	CHECK(sh->cgops[1].task == 0 && sh->cgops[1].s.reclaimed == 256 && sh->cgops[1].s.ret == 0);
	ncg_child(&top, "/b", &b);
	CHECK(ncg_read(&b, "memory.reclaim", buf, sizeof(buf)) && !strcmp(buf, "1048576"));
	ops->destroy(w);
	snprintf(want, sizeof(want), "%s/memory.reclaim", b.path);
	unlink(want);
	memset(sh, 0, sizeof(struct nshared) + sizeof(struct ntask_result));
	c.w = w = ops->create(7, argv, 1, err, sizeof(err));
	CHECK_EQ(nexec_task(&c), 1);
	snprintf(want, sizeof(want), "cannot write '1048576' to %s/memory.reclaim: No such file or directory", b.path);
	CHECK(!strcmp(sh->task[0].err, want));
	CHECK_EQ(sh->ncgops, 0);
	ops->destroy(w);
	c.w = w = ops->create(7, argv, 1, err, sizeof(err));
	c.cg = NULL;
	CHECK_EQ(nexec_task(&c), 1);
	CHECK(!strcmp(sh->task[0].err, "a cgroup op outside pagelab kernel's cgroup"));
	ops->destroy(w);
	free(sh);
	kcgfake_end();
}

/* An agent's stream is not walked for input files (nplan_build()): its
 * loop ends only on what its cgroup's files say, so the walk went on to
 * WALK_MAX_OPS (2^31 ops: pagelab run --make-inputs with senpai took
 * 11 s).  This agent's next_op ends the walking child at once, failing
 * the walk, if it is ever called. */
static const char *never_target(void *w, bool *psi)
{
	(void)w;
	*psi = true;
	return "/a";
}

static int never_tasks(void *w)
{
	(void)w;
	return 1;
}

static bool never_next(void *w, int task, struct op *op)
{
	(void)w;
	(void)task;
	(void)op;
	_exit(1);
}

void test_kagents_fs_not_walked(void)
{
	static const struct workload_ops never = { .name = "never", .nr_tasks = never_tasks,
						    .next_op = never_next, .cgroup_target = never_target };
	struct nworkload wl = { .ops = &never, .cmd = "never /a" };
	void *inst = NULL;
	struct nplan p;
	char err[256] = "";
	CHECK(nplan_build(&p, &wl, &inst, 1, false, err, sizeof(err)));
	CHECK(!strcmp(err, ""));
	CHECK_EQ(p.ninputs, 0);
	nplan_free(&p);
}
