/* workload.h - workloads are resumable generators of op streams.
 *
 * A workload never sees frames or the machine: it emits semantic ops (what
 * the program does: map memory, touch a range of pages, compute, sleep,
 * exit) for each of its tasks, so the same stream could later drive a native
 * executor on a real kernel.  Each op carries what its user time depends on
 * (references, or CPU nanoseconds at the reference CPU speed). */
#ifndef PAGELAB_WORKLOAD_H
#define PAGELAB_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum op_kind {
	OP_MMAP_ANON,   /* region `region` = npages of private anonymous memory */
	OP_MMAP_DATA,   /* like anon, but reads of untouched pages allocate (trace data) */
	OP_MUNMAP,      /* unmap region */
	OP_TOUCH,       /* pages [first, first+npages) of region, refs each, write? */
	OP_MLOCK,       /* mlock region (populates it) */
	OP_MUNLOCK,
	OP_CPU,         /* ns of computation at the reference CPU speed */
	OP_SLEEP,       /* ns of wall-clock sleep */
	OP_EXIT,
	/* Process lifetime. */
	OP_EXEC,        /* replace the address space with a fresh one (a new
			 * short-lived process in the same task slot) */
	OP_WAIT,        /* wait until task `region` of this workload has exited */
	/* Files (the page cache).  `fd` is a per-task file slot; `name` names a
	 * file shared by every task and workload on the machine ("/dev/sda" is
	 * the raw disk).  Offsets and lengths are in pages. */
	OP_CREATE,      /* create (or truncate) name, open it as fd */
	OP_OPEN,        /* open an existing file name as fd */
	OP_CLOSE,
	OP_READ,        /* read() pages [first, first+npages) of fd */
	OP_WRITE,       /* write() pages [first, first+npages) of fd (extends it) */
	OP_FSYNC,
	OP_UNLINK,      /* unlink name */
	OP_TRUNCATE,    /* truncate fd to npages */
	OP_MMAP_FILE,   /* region = pages [first, first+npages) of fd; shared? */
	OP_MARK,        /* tell the workload (ops->mark) the time: phase `region` reached */
	OP_BARRIER,     /* wait until every live task of this workload is at a
			 * barrier (LTP's children stopping until all are done) */
	/* Memory cgroups of a --cgroup tree, `name` the cgroup's path; each
	 * reports back through ops->cgroup_done (src/machine/cgops.c). */
	OP_CG_RECLAIM,  /* write "npages pages [swappiness=N]" to its memory.reclaim
			 * (swappiness -1: none given) */
	OP_CG_READ,     /* read its memory.current, memory.pressure, memory.stat */
	OP_CG_KILL,     /* write 1 to its cgroup.kill: SIGKILL to every task of
			 * its subtree */
};

struct op {
	enum op_kind kind;
	bool write;
	bool load_first;    /* OP_TOUCH write: each page is loaded before it is
			     * stored to (a compare, then a swap), so its fault
			     * is a read fault (mm_touch, vm.anon_exclusive) */
	bool shared;        /* OP_MMAP_FILE: MAP_SHARED (else MAP_PRIVATE) */
	bool direct;        /* OP_READ/OP_WRITE: O_DIRECT, bypassing the page cache */
	bool dontcache;     /* OP_READ/OP_WRITE: preadv2/pwritev2(RWF_DONTCACHE),
			     * 6.14+: the pages a read brings in are dropped
			     * once copied; those a write creates when their
			     * writeback, which the write starts, ends */
	uint32_t region;
	uint32_t refs;
	int32_t fd;
	const char *name;   /* OP_CREATE/OP_OPEN/OP_UNLINK: owned by the workload */
	uint64_t first, npages;
	uint64_t ns;
	bool exec;          /* OP_MMAP_FILE: PROT_EXEC, the mapping is program text */
	uint8_t data_kind;  /* OP_MMAP_ANON: what its pages are written with
			     * (enum data_kind, src/lib/pagefill.h; 0 = random) */
	int16_t swappiness; /* OP_CG_RECLAIM: swappiness= (-1: none) */
	uint8_t fadvise;    /* OP_CREATE/OP_OPEN: posix_fadvise(fd, 0, 0, advice)
			     * right after the open (enum op_fadvise) */
};

/* The advice an open is followed by (fio's fadvise_hint). */
enum op_fadvise { OP_FADV_NONE, OP_FADV_RANDOM, OP_FADV_SEQUENTIAL };

/* What an OP_CG_* op found: the files of one cgroup at that moment. */
#define WL_CG_LEAVES 16
struct wl_cgroup_state {
	uint64_t now_ns;
	uint64_t current;               /* memory.current, bytes */
	uint64_t pgscan;                /* memory.stat pgscan (recursive) */
	int nr_tasks;                   /* live tasks in its subtree (cgroup.procs) */
	bool psi;                       /* memory.pressure read (--set psi=1) */
	uint64_t some_total_us, full_total_us;
	double some_avg10, full_avg10;  /* percent, as the file prints them */
	/* OP_CG_RECLAIM: pages reclaimed; 0 or -EAGAIN */
	uint64_t reclaimed;
	int ret;
	/* OP_CG_READ: the leaf cgroups of its subtree (itself if a leaf),
	 * each with memory.current and memory.stat pgscan; OP_CG_KILL:
	 * tasks killed in nr_killed. */
	int nr_leaves;
	struct { char path[48]; uint64_t current, pgscan; } leaf[WL_CG_LEAVES];
	int nr_killed;
};

/* sysinfo(2), in bytes. */
struct wl_sysinfo {
	uint64_t totalram, freeram, totalswap, freeswap;
	uint64_t disk_bytes;        /* size of the raw disk, "/dev/sda" */
	int first_pid;              /* the PID of the workload's first task (0: unknown) */
	uint64_t syscall_ns;        /* the simulated machine's cost of one read() or
				     * write() call (cost.syscall, else cost.fault);
				     * 0 natively, where calls cost what they cost */
	uint64_t ctx_switch_ns;     /* its context switch, which a task's wake-up
				     * from a sleep costs on an idle CPU; 0 natively */
};

/* What the machine measured for one task of a workload. */
struct wl_task_result {
	double elapsed_s, user_s, sys_s;
	double stall_s;     /* blocked waiting for page I/O or for reclaim */
	uint64_t majflt, minflt;
	bool killed;
	bool failed;        /* exited on an error it reported (mlock: ENOMEM) */
};

/* A workload's own figure of merit, as its output prints it (fio's IOPS
 * and completion latency, memtier's ops/sec and p99): the records carry
 * them (src/engine/record.c), so sweep, compare and ablate compare them
 * beside the page counters.  Unrounded: the output rounds them. */
#define WL_MAX_FIGURES 12
#define WL_FIGURE_NAME 24
struct wl_figure {
	char name[WL_FIGURE_NAME];   /* "read_iops", "p99_ms": a unit last */
	double value;
	bool higher_better;          /* a throughput; else a time (lower is better) */
};
struct wl_figures {
	int n;
	struct wl_figure f[WL_MAX_FIGURES];
};
/* Append a figure (beyond WL_MAX_FIGURES or with a longer name: a
 * workload's bug, panic). */
void wl_figure_add(struct wl_figures *fs, const char *name, double value, bool higher_better);

struct workload_ops {
	const char *name;
	const char *summary;
	void (*help)(FILE *out);
	/* Parse argv (argv[0] = workload name).  On bad input write a one-line
	 * message to err and return NULL. */
	void *(*create)(int argc, char **argv, uint64_t seed, char *err, size_t errlen);
	/* Optional: argv checked as create() would, without the costly work
	 * some create() does (qsbench records its sort): for a file read long
	 * before it runs (an experiment's workload lines). */
	bool (*check)(int argc, char **argv, char *err, size_t errlen);
	void (*destroy)(void *w);
	int (*nr_tasks)(void *w);
	/* Next op of task `task`; false when the task has nothing more (exit). */
	bool (*next_op)(void *w, int task, struct op *op);
	/* Optional: the whole reference string's next-use positions (OPT). */
	bool (*oracle)(void *w, const uint64_t **next_use, uint64_t *n);
	/* Optional: extra lines in the program's own output shape. */
	void (*report)(void *w, const double *task_elapsed_s, FILE *out);
	/* Optional: the machine's memory as sysinfo(2) reports it at boot,
	 * before the first op (programs that size themselves from RAM). */
	void (*attach)(void *w, const struct wl_sysinfo *si);
	/* Optional: a task reached an OP_MARK op at simulated time now_ns,
	 * having used cpu_ns of CPU time (user + system) so far. */
	void (*mark)(void *w, int task, uint32_t id, uint64_t now_ns, uint64_t cpu_ns);
	/* Optional: an OP_READ of `task` finished; pages_read of its pages
	 * were inside the file (fewer than asked: it reached the end, as a
	 * short read(2) return tells a program). */
	void (*read_done)(void *w, int task, uint64_t pages_read);
	/* Optional, used instead of report(): per-task figures. */
	void (*report_tasks)(void *w, const struct wl_task_result *r, int ntasks, FILE *out);
	/* Optional: at an OP_MARK, after mark(): the task's major faults so
	 * far (getrusage's ru_majflt natively), for per-phase fault counts. */
	void (*mark_faults)(void *w, int task, uint32_t id, uint64_t majflt);
	/* Optional, for a workload with OP_CG_* ops: the cgroup path it
	 * acts on (checked against the run's tree before it runs) and
	 * whether it reads memory.pressure (then --set psi=1 is needed). */
	const char *(*cgroup_target)(void *w, bool *reads_pressure);
	/* Optional: an OP_CG_* op of `task` done, with what it found. */
	void (*cgroup_done)(void *w, int task, const struct wl_cgroup_state *s);
	/* Optional: the figures of merit (struct wl_figures) from the
	 * per-task figures report_tasks() is given: the numbers its output
	 * prints, computed by the same code. */
	void (*figures)(void *w, const struct wl_task_result *r, int ntasks, struct wl_figures *out);
};

const struct workload_ops *workload_find(const char *name);
extern const struct workload_ops *const workload_registry[];
/* Free what workloads keep between runs for the next one that could use
 * it (qsbench's unused sort recordings): for a library whose last
 * simulation handle is gone. */
void workloads_drop_caches(void);

/* Sentinel for "never referenced again" in an oracle. */
#define NEXT_USE_NEVER UINT64_MAX

#endif
