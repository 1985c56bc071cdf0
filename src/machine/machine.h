/* machine.h - the simulated machine: CPUs running tasks in quanta on a
 * nanosecond event clock, a disk, kswapd, the OOM killer, and the mm core.
 * Workloads are attached before machine_run(); results (per-workload
 * times, vmstat samples, kernel messages, counters) are kept for the
 * report layer. */
#ifndef PAGELAB_MACHINE_H
#define PAGELAB_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "profile.h"
#include "event.h"
#include "disk.h"
#include "../mm/mm.h"
#include "../mm/psi.h"
#include "../workload/workload.h"

enum task_state { T_RUNNABLE, T_RUNNING, T_BLOCKED, T_EXITED };
enum wait_kind { W_NONE, W_PAGE, W_MEMORY, W_SLEEP, W_IDLE, W_CHILD, W_BARRIER };
/* A wait for page I/O or for memory: vmstat's b column, and iowait. */
static inline bool wait_is_io(enum wait_kind w) { return w == W_PAGE || w == W_MEMORY; }
enum kthread_kind { KT_NONE, KT_KSWAPD, KT_TICK, KT_FLUSH, KT_KUPDATE, KT_ZRAM_WB };

struct task {
	int id;                 /* pid */
	char comm[16];
	int wl, wl_task;        /* workload instance and its task index; -1 for kthreads */
	bool kthread;
	enum kthread_kind kkind;
	int wait_task;          /* W_CHILD: the task waited for */
	struct file_slot *files;/* open files (page cache layer) */
	int nr_files;
	enum task_state state;
	enum wait_kind wait;
	pfn_t wait_pfn;
	uint64_t wait_gen;
	struct aspace *as;
	struct op op;
	bool have_op;
	uint64_t op_done;
	bool retry;
	bool killed;
	bool failed;             /* exited on an error (mlock ENOMEM) */
	int prio;               /* kswapd: current reclaim priority */
	uint64_t slice_used;
	int64_t vruntime, deadline, vlag; /* sched_eevdf (sched.c) */
	int cpu;                /* sched_percpu: the CPU whose run queue holds it (task_cpu) */
	uint64_t last_ran;      /* sched_percpu: end of its last chunk (task_hot) */
	uint64_t utime, stime, start, end;
	uint64_t majflt, minflt;
	int fop_phase;          /* file op in progress (fileops.c) */
	uint8_t write_call;     /* its write()'s once-a-call work charged (fileops.c) */
	uint64_t dio_pending;   /* O_DIRECT pages in flight */
	uint64_t stall_ns;      /* time blocked on page I/O or reclaim (W_PAGE, W_MEMORY) */
	uint64_t blocked_at;    /* when the current wait began */
	/* --set psi=1 (pressure.c): the task's PSI flags, in_memstall and
	 * CPU; psi_leave_on_run: a stall section that ends when the task
	 * next gets a CPU (a refault's or reclaim's wait). */
	struct psi_task psi;
	bool psi_leave_on_run;
	struct memcg_reclaim cg_reclaim; /* its OP_CG_RECLAIM in progress (cgops.c) */
	int psi_cg;             /* the cgroup whose PSI group holds its counts */
};

struct wl_inst {
	const struct workload_ops *ops;
	void *w;
	char *cmd;              /* the command line as typed */
	int first_task, ntasks, live;
	uint64_t end;
	bool killed;
	int signal;             /* what killed it: SIGKILL (OOM) or SIGBUS */
};

struct vmstat_sample {
	uint64_t t;
	unsigned r, b;
	uint64_t swpd, free, buff, cache;   /* kB */
	uint64_t inact, active;             /* kB: vmstat -a (LRU gauges) */
	uint64_t si, so, bi, bo, in, cs;    /* per second */
	unsigned us, sy, id, wa;            /* percent */
	uint64_t scan;                      /* pages scanned per second (pgscan_*) */
	/* --cgroup: each cgroup's memory.current (kB), the root first, as
	 * cgtree.h numbers them (17: CG_MAX + 1); 0 past the tree's end. */
	uint32_t cg_kb[17];
};

enum log_kind { LOG_KERNEL, LOG_EXIT };
struct log_entry {
	uint64_t t;
	enum log_kind kind;
	int wl;                 /* LOG_EXIT: the workload that finished */
	char *text;             /* LOG_KERNEL: the message */
};

struct machine;

struct machine_opts {
	uint64_t seed;
	bool check;             /* verify mm invariants after every event */
	uint64_t vmstat_ns;     /* 0 = no vmstat samples */
	uint64_t max_time_ns;   /* give up after this much simulated time */
	bool progress;          /* progress on stderr */
	/* Called after each vmstat sample is taken (e.g. to record a
	 * workload's residency next to it); NULL for none. */
	void (*sample_hook)(const struct machine *m, void *arg);
	void *sample_arg;
	/* 1 + index of the workload whose end ends the run (the others are
	 * background load, like a desktop beside a benchmark); 0: run until
	 * every workload has finished. */
	int stop_with_wl;
	/* --memcg: the workloads' memory cgroup limit in pages (0 = none)
	 * and its version (--set memcg.v1=1: v1 reclaim waits on writeback). */
	uint64_t memcg_pages;
	bool memcg_v1;
	/* --cgroup: a tree of memory cgroups (n = 0: none; src/mm/cgtree.h) */
	struct cg_tree_conf cgroups;
	/* Keep at most VMSTAT_IN_MEMORY vmstat samples in memory and move
	 * older ones to a temporary file (pagelab run: --vmstat 0.001 over
	 * hours must not fill the host).  Off: every sample stays in
	 * samples[] (the experiments' cells read them there). */
	bool spill_samples;
	bool vmstat_active;     /* --vmstat -a: inact/active instead of buff/cache */
	/* --make-inputs: the runner (src/engine/runner.c) makes each file the
	 * workloads read and none creates before the run; not the machine's. */
	bool make_inputs;
	/* run --html with --vmstat: samples for the page's timelines at their
	 * own interval, apart from the printed lines' (0 = none); kept in
	 * timeline[], at most TIMELINE_KEEP (vmstat.c). */
	uint64_t timeline_ns;
	/* --set psi=1: account pressure stall information (pressure.c). */
	bool psi;
};

/* The counters a sample's rates are taken against: those at the previous
 * sample of its series. */
struct vmstat_base {
	uint64_t ev[NR_VM_EVENTS];
	uint64_t user, sys, idle, iowait, cs, intr, t;
};

struct cpu {
	int task;               /* running task, -1 if none */
	int last_task;
	bool idle;
	bool resched;            /* sched_eevdf: switch at the end of this chunk */
	uint64_t busy_until;     /* end of the last chunk it ran */
	uint64_t irq_ns;         /* interrupts it took, charged to its next chunk */
	/* sched_percpu (sched_balance.c): this CPU's load balancing */
	uint64_t next_balance;   /* rq->next_balance */
	uint64_t idle_since;     /* rq->idle_stamp */
	uint64_t avg_idle;       /* rq->avg_idle */
	unsigned balance_failed; /* sd->nr_balance_failed */
};

struct machine {
	struct profile prof;
	struct machine_opts opt;
	uint64_t ram_pages;     /* frames left after the kernel's reserve */
	struct mm mm;
	struct evq q;
	struct disk disk;
	struct cpu *cpus;
	struct task *tasks;
	int nr_tasks;
	int kswapd;
	int flusher;            /* the writeback thread (pdflush), -1 if none */
	int *runq;
	int rq_head, rq_len, rq_cap;
	struct wl_inst *wls;
	int nr_wls;
	int live_user;
	uint64_t now;
	int cur_task;           /* task whose chunk is executing, -1 if none */
	uint64_t self_exit_ns;  /* exit costs of a task the OOM killer chose while it ran */
	bool panicked;
	bool check_failed;
	bool timed_out;         /* stopped at --max-time */
	int interrupted;        /* stopped by this signal (SIGINT, SIGTERM) */
	/* accounting */
	uint64_t acct_t;
	uint64_t user_ns, sys_ns, idle_ns, iowait_ns;
	uint64_t nr_ctxsw, nr_intr;
	int nr_iowait;
	/* vmstat: nr_samples taken; the first nr_spilled are in sample_spill
	 * (opt.spill_samples), samples[k] is sample nr_spilled + k. */
	struct vmstat_sample *samples;
	uint64_t nr_samples, nr_spilled, samples_cap;
	FILE *sample_spill;
	struct vmstat_base vm_base;
	/* opt.timeline_ns's series: nr_timeline samples, timeline_ns apart. */
	struct vmstat_sample *timeline;
	uint64_t nr_timeline, timeline_ns;
	struct vmstat_base tl_base;
	/* kernel messages and exits, in time order */
	struct log_entry *log;
	uint64_t nr_log;
	/* --set psi=1: the machine's PSI group (/proc/pressure/). */
	struct psi_group psi;
	/* --cgroup with psi=1: cgroup c's group is cg_psi[c] (c >= 1),
	 * its parent its parent cgroup's, the root cgroup's the machine's. */
	struct psi_group *cg_psi;
};

/* Size the machine; returns false with a message in err if it cannot be
 * simulated (RAM below the kernel's reserve, more host memory needed than
 * there is...). */
bool machine_init(struct machine *m, const struct profile *p, const struct machine_opts *o,
		  char *err, size_t errlen);
void machine_set_policy(struct machine *m, const struct policy_ops *ops, const double *tun);
void machine_add_workload(struct machine *m, const struct workload_ops *ops, void *w, const char *cmd);
/* A file of `npages` on the machine's disk before the run, uncached; false
 * if the name exists (run --make-inputs). */
bool machine_add_file(struct machine *m, const char *name, uint64_t npages);
void machine_run(struct machine *m);

#define VMSTAT_IN_MEMORY 4096
/* Every vmstat sample in time order, from the spill file and memory:
 * machine_samples_rewind() then machine_sample_next() until false. */
struct sample_iter { const struct machine *m; uint64_t i; bool timeline; };
void machine_samples_rewind(const struct machine *m, struct sample_iter *it);
/* The samples timelines are drawn from, read the same way: the
 * opt.timeline_ns series if there is one, else the vmstat samples; their
 * number and interval. */
void machine_timeline_rewind(const struct machine *m, struct sample_iter *it, uint64_t *n, uint64_t *interval_ns);
bool machine_sample_next(struct sample_iter *it, struct vmstat_sample *s);
/* A series of samples as kept: the first nr_spilled in spill, the rest in
 * mem.  Sample *i into s and on to the next, false past the last (a run's
 * result reads its series so too); the spill file back to its start. */
struct sample_series { const struct vmstat_sample *mem; uint64_t nr, nr_spilled; FILE *spill; };
bool sample_series_next(const struct sample_series *ss, uint64_t *i, struct vmstat_sample *s);
void sample_spill_rewind(FILE *spill);
/* Take the sample of now (src/machine/vmstat.c, as are the two above). */
void machine_vmstat_sample(struct machine *m);
/* Take a timeline sample of now; returns the time to the next one. */
#define TIMELINE_KEEP 1200
uint64_t machine_timeline_sample(struct machine *m);
void machine_free(struct machine *m);

/* File operations (src/machine/fileops.c): run one file op of task t.
 * Returns true when the op is complete; false when the task blocked or the
 * budget ran out (t->op_done records progress). */
struct file_slot;
bool machine_file_op(struct machine *m, struct task *t, struct mm_ctx *ctx, uint64_t budget,
		     enum fault_status *st);

/* Direct I/O bios carry this bit and the task id instead of a frame. */
#define DIO_COOKIE (1ULL << 63)
/* zram's writeback writes (kthreads.c) carry this and the writer's id. */
#define ZWB_COOKIE (1ULL << 62)
/* A swap cluster's discard (swap.discard) carries this and the cluster. */
#define DISCARD_COOKIE (1ULL << 61)
void fileops_dio_done(struct machine *m, uint64_t cookie, uint64_t now);
/* Close every file of an exiting task. */
void fileops_task_exit(struct machine *m, struct task *t, struct mm_ctx *ctx);
/* Make a blocked task runnable. */
void machine_wake(struct machine *m, struct task *t, uint64_t when);

/* PSI (src/machine/pressure.c), all no-ops unless opt.psi: set up the
 * machine's group; bring task t's PSI flags in line with its state at
 * time when; enter (true) or leave its memory stall; read
 * /proc/pressure/memory at time now. */
void machine_psi_init(struct machine *m);
void machine_psi_sync(struct machine *m, struct task *t, uint64_t when);
void machine_psi_memstall(struct machine *m, struct task *t, bool enter, uint64_t when);
bool machine_psi_memory(struct machine *m, uint64_t now, struct psi_line out[2]);
/* A cgroup's memory.pressure (cg 0: the machine's); false without PSI. */
bool machine_psi_cgroup(struct machine *m, int cg, uint64_t now, struct psi_line out[2]);
void machine_psi_free(struct machine *m);

/* Derived figures for reports. */
double task_seconds(uint64_t ns);

#endif
