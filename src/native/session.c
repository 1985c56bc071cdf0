/* session.c - one native run, following kernel-oracle-method.md:
 *
 *   pagelab kernel (stays outside the cgroup: it measures and cleans up)
 *     makes the directory, the swapfile (or zram device: zram.c), the
 *     cgroup, the input files;
 *     starts its tracing instances (tracer.c);
 *     snapshots /proc/vmstat, PSI, memory.stat;
 *     forks the runner, which joins the cgroup, checks /proc/self/cgroup
 *     (or exits at once: nothing runs outside the cgroup), then forks one
 *     process per task of every workload, moves each into its workload's
 *     cgroup of the --cgroup tree (cgtree.c) and checks /proc/PID/cgroup
 *     (or kills them all and exits: nothing runs), gives them a common
 *     start and reaps them with wait4() (user/sys time, faults);
 *     waits for the runner, waking for its stop signal, the timeout (on
 *     either it SIGKILLs everything in the cgroup) and the tracer's drain
 *     once a second (wait_runner());
 *     snapshots again and cleans up.
 * Every process below it has PR_SET_PDEATHSIG, so if pagelab kernel is
 * SIGKILLed its workload dies with it, and the next run sweeps the rest.
 * The generators are the caller's, created once and never advanced here:
 * the tasks run on their forked copies, and the workloads' own result
 * lines come from another copy, replayed to the point each task reached
 * (the number of ops it took) with the times its OP_MARKs were reached,
 * since the generator state lived in the task processes. */
#define _GNU_SOURCE
#include "native.h"
#include "../lib/output.h"
#include "../lib/util.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_TASKS 4096
#define RUNNER_NO_CGROUP 3
#define REPORT_SHORT 4  /* replay_child: its copy's stream ended early */

struct layout {
	void **inst;
	int *first, *ntasks;
	int total;
};

/* The parent's wait for the runner.  It wakes when the runner exits (a
 * pidfd turns readable), on a signal, and every MS ms: once a second to
 * drain the tracer and check the timeout, every 10 ms while it samples a
 * zram device's peak or waits for a kill.  Why not every 10 ms always:
 * a task of this process waking on a CPU the workload left makes that
 * CPU take the workload's reclaim's TLB flushes.  Measured (2026-12-07,
 * 6.18, 2 vCPUs; usemem -n 1 -r 2 333m in 256M with 512M swap): a 10 ms
 * poll left the idle CPU taking 43 000 flush IPIs a run, 0.65 s of the
 * reclaimer's system time (1.78 s against 1.05-1.17 with every process
 * of the run moved off that CPU, or pinned away from it); a 1 s poll,
 * 13 000.  x86's batched flush (arch_tlbbatch_flush) names no mm and
 * skips only lazy CPUs; an idle CPU a flush reached while lazy is
 * switched to init_mm (flush_tlb_func) and, there, is not lazy
 * (enter_lazy_tlb), so it takes every flush until a task runs on it
 * again: a poller that wakes often keeps making such CPUs.  No pidfd
 * (before Linux 5.3): a sleep of 10 ms, as before. */
static int pidfd_of(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

static void wait_runner(int fd, int ms)
{
	if (fd < 0) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		return;
	}
	struct pollfd p = { .fd = fd, .events = POLLIN };
	poll(&p, 1, ms);
}

static _Noreturn void run_task(const struct nsession *s, const struct layout *L, struct nshared *sh,
			       int task, int wl, int *done, pid_t *pids, int go_read, pid_t runner)
{
	free(pids);     /* the runner's table: not ours to keep */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != runner)
		_exit(1);
	/* Only task `task` keeps its pipe's write end: EOF on done[k] tells
	 * the others that task k exited. */
	for (int k = 0; k < L->total; k++)
		if (k != task)
			close(done[2 * k + 1]);
	char b;
	while (read(go_read, &b, 1) < 0 && errno == EINTR)
		;
	close(go_read);
	int rd[MAX_TASKS];
	for (int k = 0; k < L->total; k++)
		rd[k] = done[2 * k];
	free(done);
	struct nexec_ctx c = {
		.ops = s->wl[wl].ops, .w = L->inst[wl], .wl_task = task - L->first[wl], .task = task,
		.dir = s->guard->dir, .done_fd = rd, .first_task = L->first[wl], .ntasks = L->ntasks[wl],
		.t0 = sh->t0, .sh = sh, .seed = s->wl[wl].seed, .cg = &s->guard->cg,
	};
	sh->task[task].start_ns = native_now_ns() - sh->t0;
	_exit(nexec_task(&c));
}

/* The cgroup of workload w (-1: the runner's): the run's own, or its
 * --cgroup.  On v2 the runner sits in the first agent's (memreclaim,
 * senpai, oomd), else the first workload's: a cgroup with children may
 * hold no process (kexec_tree.c keeps the workloads of a v2 tree in
 * leaves), and oomd's cgroup.kill of a workload's leaf must not take
 * the runner, whose death ends every task (PR_SET_PDEATHSIG). */
void nsession_cgroup_of(const struct nsession *s, int w, struct ncgroup *out)
{
	const struct ncgroup *top = &s->guard->cg;
	bool tree = s->tree && s->tree->n && s->place;
	if (w < 0 && tree && top->version == 2) {
		w = 0;
		for (int k = s->nwl - 1; k >= 0; k--)
			w = s->wl[k].ops->cgroup_target ? k : w;
	}
	if (w < 0 || !tree || !s->place[w])
		*out = *top;
	else
		ncg_child(top, s->tree->cg[s->place[w] - 1].path, out);
}

/* Each task into its workload's cgroup before the start: false (every
 * task killed, why in err) if one cannot be moved. */
bool nsession_place_tasks(const struct nsession *s, const int *ntasks, const pid_t *pid, char *err, size_t errlen)
{
	struct ncgroup mine, cg;
	int total = 0;
	for (int w = 0; w < s->nwl; w++)
		total += ntasks[w];
	nsession_cgroup_of(s, -1, &mine);
	for (int w = 0, k = 0; w < s->nwl; k += ntasks[w], w++) {
		nsession_cgroup_of(s, w, &cg);
		for (int t = 0; t < ntasks[w] && strcmp(cg.path, mine.path); t++)
			if (!ncg_move(&cg, pid[k + t], err, errlen)) {
				for (int j = 0; j < total; j++)
					kill(pid[j], SIGKILL);
				return false;
			}
	}
	return true;
}

static _Noreturn void run_runner(const struct nsession *s, const struct layout *L, struct nshared *sh,
				 pid_t parent)
{
	nguard_in_child();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	char err[256];
	struct ncgroup mine;
	nsession_cgroup_of(s, -1, &mine);
	if (!ncg_join(&mine, err, sizeof(err))) {
		snprintf(sh->runner_err, sizeof(sh->runner_err), "%s", err);
		_exit(RUNNER_NO_CGROUP);
	}
	int *done = xmalloc((size_t)L->total * 2 * sizeof(int));
	int go[2];
	if (pipe(go))
		_exit(1);
	for (int k = 0; k < L->total; k++)
		if (pipe(done + 2 * k)) {
			snprintf(sh->runner_err, sizeof(sh->runner_err), "kernel: pipe: %s", strerror(errno));
			_exit(1);
		}
	pid_t *pid = xcalloc((size_t)L->total, sizeof(pid_t));
	pid_t self = getpid();
	int k = 0;
	for (int w = 0; w < s->nwl; w++)
		for (int t = 0; t < L->ntasks[w]; t++, k++) {
			pid[k] = fork();
			if (pid[k] < 0) {
				snprintf(sh->runner_err, sizeof(sh->runner_err), "kernel: fork: %s", strerror(errno));
				for (int j = 0; j < k; j++)
					kill(pid[j], SIGKILL);
				_exit(1);
			}
			if (!pid[k]) {
				close(go[1]);
				run_task(s, L, sh, k, w, done, pid, go[0], self);
			}
		}
	for (k = 0; k < L->total; k++)
		close(done[2 * k + 1]);
	close(go[0]);
	if (!nsession_place_tasks(s, L->ntasks, pid, sh->runner_err, sizeof(sh->runner_err)))
		_exit(RUNNER_NO_CGROUP);
	sh->t0 = native_now_ns();
	close(go[1]);   /* EOF: every task starts */
	for (int left = L->total; left > 0;) {
		int st;
		struct rusage ru;
		pid_t p = wait4(-1, &st, 0, &ru);
		if (p < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (k = 0; k < L->total; k++)
			if (pid[k] == p) {
				struct ntask_result *r = &sh->task[k];
				r->status = st;
				r->user_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6;
				r->sys_s = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
				r->majflt = (uint64_t)ru.ru_majflt;
				r->minflt = (uint64_t)ru.ru_minflt;
				if (!r->end_ns)
					r->end_ns = native_now_ns() - sh->t0;
				__atomic_store_n(&r->reaped, true, __ATOMIC_RELEASE);
				left--;
			}
	}
	free(pid);
	free(done);
	_exit(0);
}

/* In a forked child, on its copy of generator w: replay each task's
 * stream up to where the task got (its op count), feeding its OP_MARKs
 * the times they were reached and an agent's OP_CG_* what they found
 * (cgagent.c), then print the workload's result lines. */
static _Noreturn void replay_child(const struct nsession *s, const struct layout *L, const struct nshared *sh,
				   int w, const struct wl_task_result *tr, bool killed, FILE *f)
{
	const struct workload_ops *ops = s->wl[w].ops;
	void *inst = L->inst[w];
	uint64_t nm = MIN(sh->nmarks, (uint64_t)NMARKS_MAX);
	for (int t = 0; t < L->ntasks[w]; t++) {
		int task = L->first[w] + t;
		uint64_t m = 0, i, cgi = 0;
		struct op op;
		for (i = 0; i < sh->task[task].nops && ops->next_op(inst, t, &op); i++) {
			bool cgop = op.kind == OP_CG_RECLAIM || op.kind == OP_CG_READ || op.kind == OP_CG_KILL;
			if (cgop && !nagent_replay(sh, task, &cgi, ops, inst, t))
				_exit(REPORT_SHORT);
			if (op.kind != OP_MARK || !ops->mark)
				continue;
			while (m < nm && sh->marks[m].task != task)
				m++;
			if (m < nm) {
				ops->mark(inst, t, op.region, sh->marks[m].now_ns, sh->marks[m].cpu_ns);
				if (ops->mark_faults)
					ops->mark_faults(inst, t, op.region, sh->marks[m].majflt);
				m++;
			}
		}
		/* Fewer ops than the task took: the report would count a
		 * part of what ran (a trace this copy could not read whole). */
		if (i < sh->task[task].nops)
			_exit(REPORT_SHORT);
	}
	if (ops->report_tasks)
		ops->report_tasks(inst, tr, L->ntasks[w], f);
	if (!killed && ops->report) {
		double *el = xcalloc((size_t)L->ntasks[w], sizeof(double));
		for (int t = 0; t < L->ntasks[w]; t++)
			el[t] = tr[t].elapsed_s;
		ops->report(inst, el, f);
		free(el);
	}
	/* The figures of merit after the text and a NUL (no text has
	 * one): the parent's workload_output() takes them off. */
	if (!killed && ops->figures) {
		struct wl_figures figs = { 0 };
		ops->figures(inst, tr, L->ntasks[w], &figs);
		fputc(0, f);
		fwrite(&figs, sizeof(figs), 1, f);
	}
	fclose(f);
	_exit(0);
}

/* The workload's own result lines, from a copy of its generator (ours
 * stays as created for the next --repeat), and its figures of merit into
 * figs; *st the copy's wait status. */
static char *workload_output(const struct nsession *s, const struct layout *L, const struct nshared *sh,
			     int w, const struct wl_task_result *tr, bool killed, int *st, struct wl_figures *figs)
{
	int fd;
	pid_t pid = native_fork_piped(&fd);
	if (!pid) {
		FILE *f = fdopen(fd, "w");
		if (!f)
			_exit(1);
		replay_child(s, L, sh, w, tr, killed, f);
	}
	size_t len = 0, cap = 4096;
	char *buf = xmalloc(cap);
	for (;;) {
		if (len + 1 == cap)
			buf = xrealloc(buf, cap *= 2);
		ssize_t n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	buf[len] = 0;
	close(fd);
	while (waitpid(pid, st, 0) < 0 && errno == EINTR)
		;
	size_t text = strlen(buf);
	if (len == text + 1 + sizeof(*figs))
		memcpy(figs, buf + text + 1, sizeof(*figs));
	return buf;
}

static void collect(const struct nsession *s, const struct layout *L, const struct nshared *sh, struct nrun *r)
{
	r->nwl = s->nwl;
	r->wl = xcalloc((size_t)s->nwl, sizeof(*r->wl));
	for (int w = 0; w < s->nwl; w++) {
		struct nwl_result *o = &r->wl[w];
		struct wl_task_result *tr = xcalloc((size_t)L->ntasks[w], sizeof(*tr));
		o->sched = xcalloc((size_t)L->ntasks[w], sizeof(*o->sched));
		uint64_t end = 0;
		for (int t = 0; t < L->ntasks[w]; t++) {
			const struct ntask_result *x = &sh->task[L->first[w] + t];
			bool killed = !x->reaped || (WIFSIGNALED(x->status) && WTERMSIG(x->status) == SIGKILL);
			double el = (double)x->end_ns / 1e9;
			double stall = el - x->user_s - x->sys_s - (double)(x->sleep_ns + x->wait_ns) / 1e9;
			tr[t] = (struct wl_task_result){ .elapsed_s = el, .user_s = x->user_s, .sys_s = x->sys_s,
				.stall_s = stall > 0 ? stall : 0, .majflt = x->majflt, .minflt = x->minflt,
				.killed = killed };
			o->sched[t] = (struct ntask_sched){ .start_s = (double)x->start_ns / 1e9, .end_s = el,
				.runq_wait_s = (double)x->wait_ns / 1e9, .cpu = x->reaped && !killed ? x->cpu : -1,
				.migrations = x->migrations };
			o->user_s += x->user_s;
			o->sys_s += x->sys_s;
			o->majflt += x->majflt;
			o->minflt += x->minflt;
			o->killed |= killed;
			end = MAX(end, x->end_ns);
			if (x->err[0] && !r->err[0])
				snprintf(r->err, sizeof(r->err), "kernel: %s (task %d): %s", s->wl[w].cmd, t, x->err);
			else if (!killed && x->reaped && (!WIFEXITED(x->status) || WEXITSTATUS(x->status)) &&
				 !r->err[0])
				snprintf(r->err, sizeof(r->err), "kernel: %s (task %d) died with status %#x",
					 s->wl[w].cmd, t, (unsigned)x->status);
		}
		o->elapsed_s = (double)end / 1e9;
		int st = -1;
		o->output = workload_output(s, L, sh, w, tr, o->killed, &st, &o->figs);
		if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0) && !r->err[0])
			snprintf(r->err, sizeof(r->err), "kernel: %s: its report could not replay %s",
				 s->wl[w].cmd, WIFEXITED(st) && WEXITSTATUS(st) == REPORT_SHORT ?
				 "every op its tasks ran" : "its op stream");
		o->tasks = tr;
		o->ntasks = L->ntasks[w];
	}
}

static void snapshot(const struct ncgroup *cg, struct nstat *vm, struct nstat *mem, int64_t *some, int64_t *full)
{
	nstat_read_file(vm, "/proc/vmstat");
	char p[640];
	snprintf(p, sizeof(p), "%s/memory.stat", cg->path);
	nstat_read_file(mem, p);
	/* v2 has the cgroup's own pressure; v1 only the system's. */
	snprintf(p, sizeof(p), "%s/memory.pressure", cg->path);
	if (cg->version != 2 || !npsi_read(p, some, full))
		npsi_read("/proc/pressure/memory", some, full);
}

/* Why: a guest's free pages are reported to its host (virtio-balloon
 * free page reporting) a few seconds after they are freed, and the host
 * takes them back; the next touch of one is a fault in the host as well,
 * about 7 us of this host's time a page, charged to the guest task as
 * system time.  So the same run took 2.09 s of system time after 20 s
 * idle and 0.49 s just after another (qsbench without pressure,
 * docs/native.md).  Touching as much memory as the cgroup may hold just
 * before the run, and freeing it, leaves that many warm pages at the
 * head of the free lists (reported ones go to the tail), where the
 * run's allocations find them: every run starts as warm as the second.
 * It touches 2 MiB THPs where it can, since readahead's large folios
 * come from the 2 MiB blocks the balloon reports (warm.c). */
#define QUIET_S 4.0 /* twice page reporting's delay (PAGE_REPORTING_DELAY, 2 s) */

static void warm_host_pages(uint64_t bytes)
{
	/* Pages freed shortly before the warm-up are reported about when
	 * the run would take them: after the last run's end, first wait
	 * for the reporting it set off (measured: 0.92 s of system time
	 * warmed at once, 0.49 s after 3 s, 0.39-0.41 s after 6 and 12). */
	double since = nguard_secs_since_end();
	if (since < QUIET_S) {
		uint64_t ns = (uint64_t)((QUIET_S - since) * 1e9);
		struct timespec ts = { (time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL) };
		while (nanosleep(&ts, &ts) && errno == EINTR && !output_interrupted())
			;
	}
	nwarm_touch(bytes); /* 2 MiB blocks as well as base pages (warm.c) */
}

/* How much to warm by default.  The cgroup holds at most its limit at a
 * time, and an anonymous fault takes a base page, which the pages its
 * reclaim frees supply warm.  A file page may come in a large folio
 * (readahead's, ext4's write path), from the 2 MiB blocks that were
 * reported, and the base pages reclaim frees beside a 4 KiB writer do
 * not merge back into such blocks: beside one, a 768 MB stream's reader
 * took 0.21-0.55 s of system time with the limit warmed and 0.16-0.19 s
 * with 1 GiB (docs/fidelity.md, "The warm-up's size").  So the limit
 * and every file page the run may cache (nplan's file_pages), at most
 * half of RAM, the most a run may use. */
uint64_t nsession_warm_bytes(uint64_t limit, uint64_t file_pages, uint64_t ram)
{
	uint64_t want = limit + file_pages * PAGE_SIZE;
	if (want < limit)
		want = UINT64_MAX;
	if (ram && want > ram / 2)
		want = ram / 2 > limit ? ram / 2 : limit;
	return want;
}

/* Why a second probe: the disk's rate moves within a minute (three
 * adjacent runs' probes wrote at 324-559 MB/s, docs/fidelity.md): one
 * before and one after bracket the run.  The run's cgroup goes first, so
 * the probe meets none of its tasks or pages; a probe that fails here
 * costs the run nothing but its second figure. */
static void probe_after(struct nguard *g, struct nrun *r)
{
	char why[256];
	ncg_remove(&g->cg);
	if (!ndisk_probe(g, &r->disk_after, why, sizeof(why)))
		fprintf(stderr, "pagelab: %s after the run; the run is kept\n", why);
}

bool nsession_run(const struct nsession *s, struct nrun *r, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	struct nguard *g = s->guard;
	char p[512];
	if (!nguard_make_dir(g, err, errlen))
		return false;
	snprintf(p, sizeof(p), "%s/files", g->dir);
	if (mkdir(p, 0700)) {
		snprintf(err, errlen, "kernel: mkdir %s: %s", p, strerror(errno));
		return false;
	}
	if (s->zram) {
		if (!nzram_on(g, s->zram, err, errlen))
			return false;
	} else if (s->swap) {
		snprintf(g->swapfile, sizeof(g->swapfile), "%s/swapfile", g->dir);
		if (!nswap_on(g->swapfile, s->swap, err, errlen)) {
			g->swapfile[0] = 0;
			return false;
		}
	}
	/* Before the run's cgroup is made: the probe's cgroup is gone and
	 * none of its counts are the run's. */
	if (s->disk_probe && !ndisk_probe(g, &r->disk, err, errlen))
		return false;
	if (!ncg_create(&g->cg, s->limit, err, errlen))
		return false;
	if (s->knobs && !nknob_apply(&g->cg, s->knobs, err, errlen))
		return false;
	if (s->tree && !ntree_create(&g->cg, s->tree, err, errlen))
		return false;
	if (!nplan_make_inputs(s->plan, g->dir, err, errlen))
		return false;

	struct layout L = { .inst = (void **)s->inst, .first = xcalloc((size_t)s->nwl, sizeof(int)),
			    .ntasks = xcalloc((size_t)s->nwl, sizeof(int)) };
	for (int w = 0; w < s->nwl; w++) {
		L.first[w] = L.total;
		L.ntasks[w] = s->wl[w].ops->nr_tasks(L.inst[w]);
		L.total += L.ntasks[w];
	}
	if (L.total > MAX_TASKS)
		die_usage("kernel: %d tasks; at most %d run natively", L.total, MAX_TASKS);
	bool agents = false;
	for (int w = 0; w < s->nwl; w++)
		agents |= s->wl[w].ops->cgroup_done != NULL;
	size_t shsize;
	struct nshared *sh = nshared_map(L.total, agents, &shsize);

	struct nstat vm0, mem0, vm1, mem1;
	int64_t some0, full0, some1, full1;
	struct ntracer tr;
	char why[256];
	if (!ntracer_start(&tr, g, g->cg.path, why, sizeof(why)))
		fprintf(stderr, "pagelab: kernel: no traced counters: %s\n", why);
	r->warmed = !s->cold && nhost_page_reporting();
	if (r->warmed) {
		r->warm_bytes = s->warm ? s->warm
					: nsession_warm_bytes(s->limit, s->plan ? s->plan->file_pages : 0,
							      host_memory_bytes());
		warm_host_pages(r->warm_bytes);
	}
	snapshot(&g->cg, &vm0, &mem0, &some0, &full0);
	fflush(NULL);
	pid_t parent = getpid();
	uint64_t t0 = native_now_ns();
	pid_t runner = fork();
	if (runner < 0)
		die_usage("kernel: fork: %s", strerror(errno));
	if (!runner)
		run_runner(s, &L, sh, parent);
	/* On a stop signal or the timeout the tasks are killed first and the
	 * runner is left to reap them (their times and faults), then it too. */
	int st = 0;
	uint64_t kill_at = 0;
	int runner_fd = pidfd_of(runner);
	for (;;) {
		pid_t w = waitpid(runner, &st, WNOHANG);
		if (w == runner || (w < 0 && errno != EINTR))
			break;
		uint64_t now = native_now_ns();
		if (!r->stop_signal && output_interrupted())
			r->stop_signal = output_interrupted();
		if (!r->timed_out && s->timeout_s > 0 && (double)(now - t0) / 1e9 > s->timeout_s)
			r->timed_out = true;
		if ((r->stop_signal || r->timed_out) && !kill_at)
			kill_at = now;
		if (kill_at) {
			ncg_kill_others(&g->cg, runner);
			if (now - kill_at > 5000000000ULL)
				kill(runner, SIGKILL);
		}
		ntracer_poll(&tr);
		if (g->zram_made)
			nzram_poll(g->zram_dev, &r->zram);
		wait_runner(runner_fd, g->zram_made || kill_at ? 10 : 1000);
	}
	if (runner_fd >= 0)
		close(runner_fd);
	r->elapsed_s = (double)(native_now_ns() - t0) / 1e9;
	r->peak_bytes = ncg_peak(&g->cg);
	r->oom_kills = ncg_oom_kills(&g->cg);
	/* What the cgroup was reclaimed with, from its own files. */
	r->swappiness = nknob_swappiness(&g->cg);
	if (s->knobs)
		nknob_read(&g->cg, s->knobs, r->knob);
	r->ncg = s->tree ? s->tree->n : 0;
	r->cg = r->ncg ? xcalloc((size_t)r->ncg, sizeof(*r->cg)) : NULL;
	for (int i = 0; i < r->ncg; i++)
		ntree_read(&g->cg, s->tree, i, &r->cg[i]);
	snapshot(&g->cg, &vm1, &mem1, &some1, &full1);
	if (g->zram_made)
		nzram_finish(g->zram_dev, &r->zram);
	r->has_zram = g->zram_made;
	ntracer_stop(&tr, g, &r->traced);
	nstat_delta(&r->vmstat, &vm0, &vm1);
	/* The cgroup is new: its memory.stat at the end is the run's (a
	 * delta would turn hierarchical_memory_limit into 0). */
	r->memstat = mem1;
	memset(&mem1, 0, sizeof(mem1));
	r->psi_some_us = some0 >= 0 && some1 >= 0 ? some1 - some0 : -1;
	r->psi_full_us = full0 >= 0 && full1 >= 0 ? full1 - full0 : -1;
	nstat_free(&vm0);
	nstat_free(&vm1);
	nstat_free(&mem0);
	nstat_free(&mem1);
	bool ok = true;
	if (WIFEXITED(st) && WEXITSTATUS(st) == RUNNER_NO_CGROUP) {
		snprintf(err, errlen, "%s; nothing was run", sh->runner_err);
		ok = false;
	} else {
		if (sh->runner_err[0])
			snprintf(r->err, sizeof(r->err), "%s", sh->runner_err);
		collect(s, &L, sh, r);
	}
	munmap(sh, shsize);
	free(L.first);
	free(L.ntasks);
	if (ok && s->disk_probe)
		probe_after(g, r);
	nguard_cleanup(g);
	nguard_note_end();
	return ok;
}

void nrun_free(struct nrun *r)
{
	for (int w = 0; w < r->nwl; w++) {
		free(r->wl[w].output);
		free(r->wl[w].tasks);
		free(r->wl[w].sched);
	}
	free(r->wl);
	nstat_free(&r->vmstat);
	nstat_free(&r->memstat);
	nstat_free(&r->traced);
	nstat_free(&r->zram.stat);
	for (int i = 0; i < r->ncg; i++)
		ncg_result_free(&r->cg[i]);
	free(r->cg);
	memset(r, 0, sizeof(*r));
}
