/* native.h - the native executor: pagelab's workloads run as real
 * processes on the host kernel, inside a memory cgroup and with a swapfile
 * of their own, so their counters can be set beside the simulator's.
 *
 * One job per file: cgroup.c (create, limit, join, kill, remove a memory
 * cgroup, v1 or v2), swapfile.c (fallocate, mkswap, swapon, swapoff),
 * knobs.c (the cgroup knobs of --set: swappiness, memory.high, ...),
 * guard.c (the one-at-a-time lock, signals, and the cleanup that runs on
 * every way out), counters.c (/proc/vmstat, PSI and memory.stat
 * snapshots), prepare.c (a dry pass over the op streams: what cannot run
 * natively, which input files must exist), executor.c (one task's ops as
 * syscalls), tracer.c (the cgroup's own activations from tracepoints), host.c
 * (which kernel release the host runs) and
 * session.c (one run: the runner process that joins the
 * cgroup, the task processes, the timeout, the results).  docs/native.md
 * says how each op maps to syscalls. */
#ifndef PAGELAB_NATIVE_H
#define PAGELAB_NATIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "../workload/workload.h"

/* ---- host.c ----------------------------------------------------------- */

/* A release string ("6.18.0-1-amd64") is MAJOR.MINOR or later; false for
 * one that does not start with a number. */
bool nhost_release_at_least(const char *release, int major, int minor);
/* The running kernel (uname) is MAJOR.MINOR or later. */
bool nhost_kernel_at_least(int major, int minor);
/* Where `pagelab kernel` makes its directory and swapfile. */
#define NATIVE_TMP_ROOT "/var/tmp"
/* The block device MAJ:MIN, as SYSFS (normally "/sys") describes it, is
 * rotational: its queue/rotational, or its disk's for a partition, reads
 * 1.  False when neither can be read. */
bool nhost_dev_rotational(const char *sysfs, unsigned maj, unsigned min);
/* The filesystem of `pagelab kernel`'s swapfile (NATIVE_TMP_ROOT) sits on
 * a rotational device, so the host's swap area has no SWP_SOLIDSTATE. */
bool nhost_swap_rotational(void);
/* The device MAJ:MIN's queue/read_ahead_kb (its disk's for a partition);
 * -1 when it cannot be read. */
long nhost_dev_read_ahead_kb(const char *sysfs, unsigned maj, unsigned min);
/* read_ahead_kb of the device under NATIVE_TMP_ROOT, where `pagelab
 * kernel`'s files are: their readahead window is read_ahead_kb / 4 pages. */
long nhost_read_ahead_kb(void);
/* Does a virtio balloon report the guest's free pages to its host (under
 * sysfs root SYSFS, "/sys" for this host's)?  Then the host takes them
 * back and a page's next touch faults in the host too (session.c). */
bool nhost_dev_page_reporting(const char *sysfs);
bool nhost_page_reporting(void);

/* ---- warm.c ----------------------------------------------------------- */
/* Does THP's "enabled" text (/sys/kernel/mm/transparent_hugepage/enabled)
 * let MADV_HUGEPAGE have huge pages ("[always]" or "[madvise]")? */
bool nwarm_thp_usable(const char *enabled);
/* The warm-up's region in a mapping at BASE: START is BASE rounded up to
 * 2 MiB, LEN is BYTES rounded up to 2 MiB; the mapping is
 * nwarm_map_bytes(BYTES) long, so START + LEN stays inside it. */
void nwarm_span(uint64_t base, uint64_t bytes, uint64_t *start, uint64_t *len);
uint64_t nwarm_map_bytes(uint64_t bytes);
/* Touch and free BYTES of anonymous memory in 2 MiB THPs where THP is
 * usable, in base pages otherwise (session.c's warm-up). */
void nwarm_touch(uint64_t bytes);
/* The host's writeback sysctls that differ from 6.x's defaults, as
 * `vm.NAME=VALUE` words for the simulator (PROCSYS: "/proc/sys" for this
 * host's): dirty_ratio 20, dirty_background_ratio 10, dirty_bytes 0,
 * dirty_background_bytes 0, dirty_writeback_centisecs 500,
 * dirty_expire_centisecs 3000 (mm/page-writeback.c).  Returns how many
 * were written into out (at most NHOST_DIRTY_SETTINGS); one that cannot
 * be read is left out. */
#define NHOST_DIRTY_SETTINGS 6
int nhost_dirty_settings(const char *procsys, char out[NHOST_DIRTY_SETTINGS][64]);

/* ---- host.c: what a run ran on ------------------------------------ */

/* What a kernel run ran on, as far as the simulator takes it from the
 * host (src/engine/kcompare_host.c): kept in each kernel record's
 * "kernel": {"host": ...} so that compare can simulate the machine the
 * runs were taken on rather than the one reading them. */
struct nhost_settings {
	long cpus;               /* online CPUs; -1 unknown */
	char release[65];        /* uname's release; "" unknown */
	int swap_rotational;     /* the swapfile's device: 0, 1; -1 unknown */
	long read_ahead_kb;      /* its read_ahead_kb; -1 unknown */
	long long dirty[NHOST_DIRTY_SETTINGS]; /* vm.dirty_*, -1 unknown */
	long long dirtyable_kb;  /* the global dirty domain's memory, KiB; -1 unknown */
};
/* The writeback sysctl I's name ("dirty_ratio") and 6.x default. */
const char *nhost_dirty_name(int i);
unsigned long long nhost_dirty_default(int i);
/* Field FIELD ("MemTotal") of PROCSYS/../meminfo, in KiB; -1 unreadable. */
long long nhost_meminfo_kb(const char *procsys, const char *field);
/* This host's (its /proc/sys under PROCSYS, "/proc/sys"). */
void nhost_settings_read(struct nhost_settings *h, const char *procsys);

/* ---- diskprobe.c ----------------------------------------------------- */
/* The disk's rates as a small baseline meets them (diskprobe.c): BYTES
 * written in 4 KiB calls and fsync()ed (the bytes over the writer's time
 * off the CPU), then read cold in 1 MiB calls (over the wall time). */
struct nguard;
struct ndisk_rates {
	uint64_t bytes;         /* 0: not probed */
	double write_bps, read_bps;
};
/* Probe in g->dir, in a cgroup g->cg of its own made and removed here
 * (before the run's is made).  False with one line in err. */
bool ndisk_probe(struct nguard *g, struct ndisk_rates *out, char *err, size_t errlen);

/* ---- tlbprobe.c ------------------------------------------------------ */

/* What one remote TLB flush costs here, in ns, per flush the guest
 * kernel aims at another busy CPU (tlbprobe.c): *send to the CPU that
 * asks and waits, *recv to the task on the CPU it aims at; *share (may
 * be NULL) the IPIs that CPU took per flush (a KVM host's preempted vCPU
 * takes none).  The median of five rounds of 10 000 zaps, ~3 s, to
 * 100 ns.  false with a one-line reason: one CPU, no IPI counter (not
 * x86), or no IPI seen. */
bool nhost_tlb_ipi_cost(uint64_t *send, uint64_t *recv, double *share, char *why, size_t len);
/* One zap loop of the probe: the zapping thread's CPU time, the
 * spinner's CPU time and units of work meanwhile. */
struct nhost_tlb_loop {
	uint64_t ns, spin_ns;
	long units;
};
/* One round's arithmetic, in (beside a thread of the mm) against out
 * (beside another mm), zaps each: *send, *recv in ns per zap (0 for a
 * negative difference). */
void nhost_tlb_round(const struct nhost_tlb_loop *in, const struct nhost_tlb_loop *out, long zaps, uint64_t *send,
		     uint64_t *recv);

/* ---- cgroup.c ---------------------------------------------------------- */

struct ncgroup {
	int version;            /* 1 or 2; 0 = no memory controller found */
	char root[256];         /* the memory hierarchy's root */
	char path[512];         /* our cgroup, "" when not created */
};

/* Find the memory controller (v2 where it is enabled, else v1).  False with
 * a reason in err when there is none. */
bool ncg_detect(struct ncgroup *cg, char *err, size_t errlen);
/* Create root/pagelab-kernel-PID and set the limit (v1: memsw unlimited,
 * swappiness 60; v2: memory.max, memory.swap.max unlimited). */
bool ncg_create(struct ncgroup *cg, uint64_t limit, char *err, size_t errlen);
/* Move the calling process into the cgroup and check /proc/self/cgroup. */
bool ncg_join(const struct ncgroup *cg, char *err, size_t errlen);
/* SIGKILL everything in the cgroup but pid `spare`; how many were sent. */
int ncg_kill_others(const struct ncgroup *cg, int spare);
/* SIGKILL everything in the cgroup until it is empty (bounded wait). */
void ncg_kill_all(const struct ncgroup *cg);
/* Kill what is left and rmdir; false if the directory stayed. */
bool ncg_remove(struct ncgroup *cg);
/* Read a file of the cgroup into buf ("" on error). */
bool ncg_read(const struct ncgroup *cg, const char *file, char *buf, size_t len);
/* Write text to a file (sysfs, cgroupfs): false with errno on failure. */
bool native_write_text(const char *path, const char *text);
/* Write text to a file of the cgroup (false with errno on failure). */
bool ncg_write(const struct ncgroup *cg, const char *file, const char *text);
/* The host's memory cgroup version (0: none), only looking: nothing is
 * written, no root needed. */
int ncg_host_version(void);
/* The memory hierarchy's root has this file. */
bool ncg_host_has(const char *file);
/* The peak usage in bytes (max_usage_in_bytes / memory.peak), 0 if unknown. */
uint64_t ncg_peak(const struct ncgroup *cg);
/* OOM kills inside the cgroup (memory.oom_control / memory.events). */
uint64_t ncg_oom_kills(const struct ncgroup *cg);
/* Remove cgroups named pagelab-kernel-PID whose PID is dead. */
void ncg_sweep_stale(const struct ncgroup *cg);
/* The value of "KEY N" lines (memory.stat), 0 when absent. */
uint64_t ncg_stat_field(const char *text, const char *key);
/* Move process pid into the cgroup and check /proc/PID/cgroup. */
bool ncg_move(const struct ncgroup *cg, pid_t pid, char *err, size_t errlen);
/* The cgroup top's descendant REL ("/a/b"): its path, not created. */
void ncg_child(const struct ncgroup *top, const char *rel, struct ncgroup *out);
/* How a cgroup's directory is made and removed (cgroup.c, cgtree.c):
 * mkdir(2) and rmdir(2), which on cgroupfs create and drop the cgroup's
 * interface files with it; where the hierarchies are mounted
 * (/sys/fs/cgroup: v2 there or at its unified/, v1's memory/) and where
 * /proc/PID/cgroup says a task's cgroup, and how a cgroup's file is
 * written (native_write_text(): on cgroupfs the kernel acts within the
 * write, as memory.reclaim reclaims).  For tests only:
 * tests/kcgfake.c points ncg_fs at a stand-in that does the same in a
 * temporary directory of plain files, so that the v2 path is checked on
 * a v1 host without a kernel run; nothing else changes it. */
struct ncg_fs {
	int (*mkdir)(const char *path, mode_t mode);
	int (*rmdir)(const char *path);
	const char *sys_cgroup;     /* "/sys/fs/cgroup" */
	const char *proc;           /* "/proc" */
	bool (*write)(const char *path, const char *text);
};
extern const struct ncg_fs *ncg_fs;

/* ---- knobs.c ----------------------------------------------------------- */

/* The cgroup knobs of --set NAME=VALUE (knobs.c says which and why), in
 * the order given, each value as its file takes it. */
#define NKNOB_MAX 16
#define NKNOB_VAL 24
struct nknobs {
	int n;
	int idx[NKNOB_MAX];
	char val[NKNOB_MAX][NKNOB_VAL];
};
const char *nknob_name(int idx);
const char *nknob_file(int idx);
/* Add NAME=VALUE: false with a one-line reason for an unknown name, a bad
 * value or a name given twice (needs no host). */
bool nknob_parse(struct nknobs *k, const char *assign, char *err, size_t errlen);
/* The same with a --cgroup's own knobs too (memory.limit_in_bytes,
 * memory.max, memory.oom.group). */
bool nknob_parse_tree(struct nknobs *k, const char *assign, char *err, size_t errlen);
int nknob_version(int idx);
/* Can this host's cgroup of `version` take them, with --memcg limit? */
bool nknob_check(const struct nknobs *k, int version, uint64_t limit, char *err, size_t errlen);
/* The same, the refusal naming `what` ("--cgroup /a") for "--set";
 * limit: the cgroup's own (memsw at least it). */
bool nknob_check_as(const struct nknobs *k, int version, uint64_t limit, const char *what, char *err,
		    size_t errlen);
/* Write them into the cgroup (after its limit). */
bool nknob_apply(const struct ncgroup *cg, const struct nknobs *k, char *err, size_t errlen);
/* What the cgroup's files hold now, one value per knob. */
void nknob_read(const struct ncgroup *cg, const struct nknobs *k, char (*out)[NKNOB_VAL]);
/* The swappiness the cgroup is reclaimed with: v1 its memory.swappiness,
 * v2 the host's vm.swappiness; -1 if unreadable. */
int nknob_swappiness(const struct ncgroup *cg);

/* ---- swapfile.c -------------------------------------------------------- */

/* fallocate SIZE in path, chmod 600, mkswap, swapon with a high priority.
 * Refuses (false + err) when the filesystem has no room, cannot hold a
 * swapfile, or the file is already an active swap area. */
bool nswap_on(const char *path, uint64_t size, char *err, size_t errlen);
/* swapoff (if active) and unlink. */
void nswap_off(const char *path);
bool nswap_active(const char *path);
/* swapoff and delete swapfiles of dead pagelab kernel processes. */
void nswap_sweep_stale(void);
/* The swap areas' paths, from /proc/swaps (at most max); how many. */
int nswap_list(char paths[][320], int max);
/* Is a swap area active that is not a pagelab kernel's (swapfile or any
 * zram device)?  Its path in path. */
bool nswap_other_active(char *path, size_t len);

/* ---- guard.c ----------------------------------------------------------- */

/* What must be undone on the way out, in this order: the cgroup (kill and
 * rmdir), the tracing instances and tracefs mount, the swapfile (swapoff,
 * unlink), the temporary directory. */
struct nguard {
	struct ncgroup cg;
	char dir[256];          /* temporary directory, "" when none */
	char swapfile[320];     /* "" when none */
	bool swap_on;
	bool zram_made;         /* zram device zram_dev is ours (zram.c) */
	int zram_dev;
	char zram_path[32];     /* "/dev/zramN" once swapped on */
	char trace_inst[2][160]; /* tracing instances of ours, "" when none */
	bool trace_mounted;     /* we mounted tracefs ... */
	char trace_mark[64];    /* ... and left this file to say so */
};

/* Take the one-at-a-time lock (printing "waiting for ..." on stderr while
 * another run holds it), install the SIGINT/SIGTERM/SIGHUP handlers, the
 * atexit cleanup and the watchdog that cleans up if we are SIGKILLed, and
 * sweep what a killed run left behind.  Returns the (shared) record. */
struct nguard *nguard_begin(const struct ncgroup *cg);
/* Undo everything recorded in g (idempotent; also runs at exit). */
void nguard_cleanup(struct nguard *g);
/* mkdtemp /var/tmp/pagelab-kernel.PID.XXXXXX into g->dir. */
bool nguard_make_dir(struct nguard *g, char *err, size_t errlen);
/* In a forked child: drop the lock's descriptor, default signal actions. */
void nguard_in_child(void);
/* A run's memory is back on the host's free lists: note when (in the
 * lock file, for the next pagelab kernel too), and how long ago the last
 * run of any pagelab kernel did so (1e9 if none is known). */
void nguard_note_end(void);
double nguard_secs_since_end(void);
/* Note g's zram device (or none) in the lock file, for the next run
 * should both we and the watchdog be killed. */
void nguard_note_zram(const struct nguard *g);
/* rm -r */
void native_remove_tree(const char *path);
/* fork() with a pipe from the child to the parent: in the child returns 0
 * with *fd its write end, in the parent the pid with *fd the read end. */
pid_t native_fork_piped(int *fd);
/* After cleanup: die of the stop signal as a shell expects. */
_Noreturn void nguard_reraise(int sig);

/* ---- counters.c -------------------------------------------------------- */

struct nstat {
	int n;
	char (*name)[48];
	int64_t *val;           /* deltas of gauges (nr_*) can be negative */
};
/* Parse "name value" lines (memory.stat, /proc/vmstat). */
void nstat_parse(struct nstat *s, const char *text);
bool nstat_read_file(struct nstat *s, const char *path);
/* after - before, by name, in after's order. */
void nstat_delta(struct nstat *d, const struct nstat *before, const struct nstat *after);
int64_t nstat_get(const struct nstat *s, const char *name);
void nstat_free(struct nstat *s);
/* PSI memory totals in microseconds (-1 when the file is missing). */
bool npsi_read(const char *path, int64_t *some_us, int64_t *full_us);

/* ---- cgtree.c: `--cgroup PATH:...`, cgroups below the run's own ---- */

#define NTREE_MAX 16
struct ntree_cg {
	char path[48];          /* "/a/b", below the run's own cgroup */
	struct nknobs knobs;    /* written in this order once it exists */
};
/* Parents before children (cgspec.c declares them so). */
struct ntree {
	int n;
	struct ntree_cg cg[NTREE_MAX];
};
/* The name of cgroup i of t (0: the run's own, "/"). */
const char *ntree_path(const struct ntree *t, int i);
/* mkdir each cgroup of t below top and write its knobs (v1: top's
 * memory.use_hierarchy 1 first; v2: +memory in every parent's
 * cgroup.subtree_control).  False with one line in err. */
bool ntree_create(const struct ncgroup *top, const struct ntree *t, char *err, size_t errlen);
/* What one cgroup of the tree counted, read at the end of the run. */
struct ncg_result {
	char path[48];
	uint64_t current, peak;     /* usage_in_bytes / memory.current ... */
	struct nstat events;        /* v2 memory.events; v1 failcnt, oom_kill */
	struct nstat memstat;       /* its memory.stat */
	int64_t psi_some_us, psi_full_us; /* v2 memory.pressure; -1 on v1 */
	char knob[NKNOB_MAX][NKNOB_VAL];  /* its knobs, read back */
};
void ntree_read(const struct ncgroup *top, const struct ntree *t, int i, struct ncg_result *r);
void ncg_result_free(struct ncg_result *r);

/* ---- zram.c ------------------------------------------------------------ */

/* --swap zram:SIZE[,algo=NAME]: a zram device of the run's own. */
struct nzram_spec {
	uint64_t size;          /* its disksize, bytes */
	char algo[32];          /* "": the device's default */
};
/* 1: spec is zram:..., parsed into z; 0: it is not (a plain size);
 * -1: a bad zram spec, one line in err.  Needs no host. */
int native_zram_parse(const char *spec, struct nzram_spec *z, char *err, size_t errlen);
/* The host has zram (its control files): else false, one line in err. */
bool nzram_available(char *err, size_t errlen);
/* hot_add a device (recorded in g and the lock file at once), set its
 * algorithm (refused, one line in err, when not in its list) and size,
 * write a swap header labelled pagelab.PID, swapon at the swapfile's
 * priority.  Refused when another swap area is active. */
bool nzram_on(struct nguard *g, const struct nzram_spec *z, char *err, size_t errlen);
/* swapoff, reset, hot_remove. */
void nzram_off(int dev);
/* Remove zram devices of dead pagelab kernel processes (their swap
 * header's label): the one the lock file recorded (-1: none) and any
 * in /proc/swaps. */
void nzram_sweep_stale(int recorded);
struct nzram_stats {
	char algo[32];
	uint64_t disksize;
	struct nstat stat;      /* mm_stat.NAME, io_stat.NAME: as pagelab run's */
};
/* Read the device's algorithm, size, mm_stat and io_stat; keep them in
 * *peak when it holds more pages than *peak says (or *peak is empty). */
void nzram_poll(int dev, struct nzram_stats *peak);
/* The last poll, then the figures counted over the device's life
 * (mem_used_max, pages_compacted, huge_pages_since, io_stat) from now. */
void nzram_finish(int dev, struct nzram_stats *s);

/* ---- tracer.c --------------------------------------------------------- */

/* pgactivate_accessed: the part of pgactivate that folio_mark_accessed()'s
 * second touch made (mm_lru_activate), not reclaim; ref_keep: folios
 * reclaim found referenced once and kept on the inactive list for a second
 * look (nr_ref_keep).  Neither is a /proc/vmstat counter: they say where
 * the kernel's activations come from. */
enum { NT_PGACTIVATE, NT_PGDEACTIVATE, NT_PGSCAN_ANON, NT_PGSCAN_FILE, NT_PGSTEAL_ANON,
       NT_PGSTEAL_FILE, NT_PGACTIVATE_ACCESSED, NT_REF_KEEP, NT_NR };

struct ntracer {
	bool on;
	int pipe[2];            /* the instances' trace_pipe */
	int kpc;                /* /proc/kpagecgroup */
	uint64_t memcg_ino;     /* our cgroup's inode, as kpagecgroup names it */
	char part[2][4096];     /* a line not yet whole */
	size_t plen[2];
	uint64_t sum[NT_NR];
};

/* Start counting the reclaim events of this process's future children and
 * the activations of folios charged to the cgroup at cgroup_path (mounting
 * tracefs if it is not; the instances and the mount are recorded in g).
 * False with a reason when tracing is not available: not an error. */
bool ntracer_start(struct ntracer *t, struct nguard *g, const char *cgroup_path, char *why, size_t len);
/* Take in what the instances hold now (call every few ms while it runs). */
void ntracer_poll(struct ntracer *t);
/* One line of trace_pipe text into the sums (exposed for tests). */
void ntracer_line(struct ntracer *t, const char *line);
/* Stop, take the rest, remove the instances (and our mount).  out gets
 * pgactivate, pgdeactivate, pgscan_anon/file, pgsteal_anon/file; it is
 * empty if tracing was off or lost events. */
void ntracer_stop(struct ntracer *t, struct nguard *g, struct nstat *out);
/* Disable and rmdir one instance. */
void ntracer_remove_instance(const char *dir);
/* Unmount tracefs if we mounted it. */
void ntracer_unmount(struct nguard *g);
/* Unmount what dead pagelab kernel processes mounted (their instances go
 * at the next ntracer_start). */
void ntracer_sweep_stale(void);

/* ---- prepare.c --------------------------------------------------------- */

struct ninput {
	char *name;             /* the workload's file name */
	uint64_t npages;        /* how much of it the workloads read */
};
struct nplan {
	struct ninput *inputs;
	int ninputs;
	uint64_t file_pages;    /* the furthest page read, written or mapped
				 * through the page cache, summed over every
				 * file of the run (inputs or not) */
};
/* A workload of the command line; inst[] below are their generators,
 * created and attached once by the caller and never advanced: every use
 * (the walk, the tasks, the report's replay) runs on a forked copy. */
struct nworkload {
	const struct workload_ops *ops;
	int argc;
	char **argv;            /* argv[0] = workload name */
	uint64_t seed;
	char *cmd;
};
/* Walk each generator's stream to its end without executing anything:
 * refuse what cannot run natively (with the reason in err) and list the
 * files that are opened but never created (inputs that must exist,
 * uncached, before the run).  sim: for the simulator (run --make-inputs):
 * nothing refused, its /dev/ and /ramfs/ names not inputs. */
bool nplan_build(struct nplan *p, const struct nworkload *w, void *const *inst, int nw, bool sim,
		 char *err, size_t errlen);
/* Write each input file in dir with O_DIRECT (so it starts uncached). */
bool nplan_make_inputs(const struct nplan *p, const char *dir, char *err, size_t errlen);
void nplan_free(struct nplan *p);
/* The host path of a workload's file name inside dir. */
void native_file_path(char *buf, size_t len, const char *dir, const char *name);

/* ---- executor.c -------------------------------------------------------- */

/* The executor's revision, raised whenever a change makes the kernel run
 * a workload's ops differently (what faults, what is stored or read): it
 * is part of a kernel cell's command (src/engine/kexec_cells.c), so that a
 * records file (sweep -o, compare's --kernel-cache) does not resume the
 * runs of an older executor; tests/cli_lib.sh's kernel_record writes it.  2: a write that loads first loads before it stores
 * (2026-12-06; before, qsbench's sort took write faults in the kernel).
 * 3: a write to a region of declared data kind writes pagefill()'s page.
 * 4: the warm-up before a run touches 2 MiB blocks (warm.c, 2026-12-07):
 * a stream read's system time fell from 0.53-0.65 s to 0.07-0.17 s, so
 * the time of runs of 3 is not comparable (their page counts are).
 * 5: a task ends at its reap, after its unmapping and exit (2026-12-07;
 * before, at its last op: elapsed left out what rusage's CPU counted).
 * 6: the warm-up covers the limit and every file page the run may cache
 * (session.c nsession_warm_bytes(), 2026-12-07; before, the limit: the
 * large folios of a stream beside a writer met the host's faults).
 * 7: pagelab kernel waits for the runner on a pidfd and wakes once a
 * second, not every 10 ms (session.c wait_runner(), 2026-12-07): its
 * wakeups on the CPU the workload left turned the reclaimer's TLB
 * flushes into IPIs there (usemem swapping: 0.65 s of system time). */
#define NATIVE_EXECUTOR_REV 7

/* What a task process records for the parent (in shared memory). */
struct ntask_result {
	uint64_t nops;          /* ops taken from the generator */
	uint64_t sleep_ns;      /* deliberate sleeps (OP_SLEEP) */
	uint64_t wait_ns;       /* run-queue wait (/proc/self/schedstat) */
	uint64_t migrations;    /* CPU changes (/proc/self/sched) */
	int cpu;                /* the CPU it ended on, -1 unknown */
	uint64_t start_ns, end_ns; /* since the common start */
	double user_s, sys_s;
	uint64_t majflt, minflt;
	int status;             /* wait status */
	bool reaped;            /* set by the runner (atomically) */
	uint64_t barriers;      /* OP_BARRIERs reached (atomically) */
	char err[160];          /* why an op failed, "" if none */
};

struct nmark {
	int task;
	uint32_t id;
	uint64_t now_ns, cpu_ns;
	uint64_t majflt;        /* the task's ru_majflt, for ops->mark_faults */
};
#define NMARKS_MAX 65536

/* An agent's cgroup op (OP_CG_*) of task `task`, with what it found. */
struct ncgop {
	int task;
	struct wl_cgroup_state s;
};
/* 600 s (the default --timeout) of three agents' polls and acts, twice. */
#define NCGOPS_MAX 4096

struct nshared {
	uint64_t t0;            /* CLOCK_MONOTONIC ns of the common start */
	char runner_err[256];   /* the runner could not join the cgroup: why */
	uint64_t nmarks;        /* atomically incremented */
	struct nmark marks[NMARKS_MAX];
	uint64_t ncgops;        /* atomically incremented */
	struct ncgop cgops[NCGOPS_MAX];
	struct ntask_result task[];
};

/* A fresh area for ntasks tasks (its length in *size, for munmap), its
 * pages faulted in by the caller (outside the cgroup) but the agents'
 * records' when no workload is an agent (shared.c says why). */
struct nshared *nshared_map(int ntasks, bool agents, size_t *size);

struct nexec_ctx {
	const struct workload_ops *ops;
	void *w;
	int wl_task;            /* index of the task within its workload */
	int task;               /* global index (results, marks) */
	const char *dir;        /* where the workload's files live */
	const int *done_fd;     /* read ends: EOF once task first_task+i exited */
	int first_task, ntasks; /* this workload's tasks among all */
	uint64_t t0;            /* sh->t0, read once the start is given */
	struct nshared *sh;
	uint64_t seed;          /* the workload's: pagefill()'s for its pages */
	const struct ncgroup *cg; /* the run's own cgroup: an agent's OP_CG_*
				   * act below it (cgagent.c); NULL: none */
};
/* The data kind whose bytes the writes to the region that op maps get
 * (DK_RANDOM: none, the word stores): its declared one, but a trace's
 * DK_RATIO, which has no bytes. */
uint8_t nexec_written_kind(const struct op *op);
/* A write touch of a page of a region of declared data kind KIND
 * (src/lib/pagefill.h): the page's contents, pagefill(KIND, seed, index),
 * written whole (after a load of its first word with load_first), then
 * refs - 1 loads of them. */
void nexec_fill_page(unsigned char *page, uint8_t kind, uint64_t seed, uint64_t index, uint32_t refs,
		     bool load_first);
/* ---- cgagent.c -------------------------------------------------------- */

/* An agent's op (OP_CG_*) on cgroup op->name below top ("/": top), at
 * now_ns since the start: the files read or written (cgroup v2), what
 * was found in *s.  False with one line in err when a file could not be
 * read or written (EAGAIN of memory.reclaim is a result: s->ret). */
bool nagent_op(const struct ncgroup *top, const struct op *op, uint64_t now_ns, struct wl_cgroup_state *s,
	       char *err, size_t errlen);
/* The same for task c: recorded in c->sh, then c->ops->cgroup_done. */
bool nagent_step(const struct nexec_ctx *c, const struct op *op, uint64_t now_ns, char *err, size_t errlen);
/* The report's replay of an OP_CG_* op of task (workload task wl_task):
 * the next record of the task after *cur to ops->cgroup_done.  False
 * when the record is missing because sh->cgops was full. */
bool nagent_replay(const struct nshared *sh, int task, uint64_t *cur, const struct workload_ops *ops, void *w,
		   int wl_task);

/* Carry out the task's op stream; returns the exit status for _exit(). */
int nexec_task(const struct nexec_ctx *c);
uint64_t native_now_ns(void);
/* schedinfo.c: the calling task's run-queue wait, CPU and migrations
 * into r (as it ends). */
void nsched_read(struct ntask_result *r);
/* se.nr_migrations of a /proc/PID/sched text; 0 if it has none. */
uint64_t nsched_migrations(FILE *f);

/* ---- session.c --------------------------------------------------------- */

struct nsession {
	struct nworkload *wl;
	void *const *inst;      /* the generators, as created and attached */
	int nwl;
	uint64_t limit, swap;
	double timeout_s;
	const struct nplan *plan;
	struct nguard *guard;
	bool cold;              /* --cold: no warm-up of the host's pages first */
	uint64_t warm;          /* --warm: bytes warmed first (0: the default,
				 * nsession_warm_bytes()) */
	const struct nknobs *knobs; /* --set: written into the cgroup */
	const struct nzram_spec *zram; /* --swap zram:...: a zram device, not a swapfile */
	const struct ntree *tree;   /* --cgroup: cgroups below the run's own, or NULL */
	const int *place;           /* each workload's: 0 the run's own, i tree->cg[i-1] */
	bool disk_probe;            /* --disk-probe: the disk's rates before and after (diskprobe.c) */
};

/* A task's start and end (since the common start), run-queue wait, last
 * CPU and migrations (schedinfo.c), for kernel --json's "sched". */
struct ntask_sched {
	double start_s, end_s, runq_wait_s;
	int cpu;
	uint64_t migrations;
};

struct nwl_result {
	double user_s, sys_s, elapsed_s;
	uint64_t majflt, minflt;
	bool killed;
	char *output;           /* the workload's own result lines */
	struct wl_figures figs; /* its figures of merit (workload.h), if any */
	struct wl_task_result *tasks;   /* each task's own figures */
	struct ntask_sched *sched;      /* ... and what the scheduler did */
	int ntasks;
};

struct nrun {
	struct nwl_result *wl;
	int nwl;
	struct nstat vmstat;    /* deltas */
	struct nstat memstat;   /* at the end (the cgroup starts empty) */
	struct nstat traced;    /* tracer.c's counts (empty: not available) */
	uint64_t peak_bytes, oom_kills;
	int64_t psi_some_us, psi_full_us;   /* -1: not available */
	double elapsed_s;
	bool warmed;            /* the host's pages were warmed first (session.c) */
	uint64_t warm_bytes;    /* how much: --warm, or nsession_warm_bytes() */
	struct ndisk_rates disk; /* --disk-probe's, just before the run */
	struct ndisk_rates disk_after; /* ... and just after (bytes 0: none) */
	int swappiness;         /* the cgroup's, read back at the end */
	char knob[NKNOB_MAX][NKNOB_VAL]; /* each --set file, read back at the end */
	bool has_zram;          /* the swap was a zram device: ... */
	struct nzram_stats zram; /* ... its mm_stat and io_stat at the end */
	struct ncg_result *cg;  /* --cgroup: each tree cgroup's, at the end */
	int ncg;
	bool timed_out;
	int stop_signal;
	char err[256];          /* a task failed: why */
};

/* The cgroup of s's workload w (-1: the runner's, on v2 a leaf: the
 * first agent's, else the first workload's), below s->guard->cg. */
void nsession_cgroup_of(const struct nsession *s, int w, struct ncgroup *out);
/* The runner's move of each task (pid[], ntasks[w] of workload w, in
 * order) into its workload's cgroup (cgroup.procs, then /proc/PID/cgroup
 * checked); one in the runner's own stays.  False with one line in err,
 * every pid SIGKILLed, when one could not be moved. */
bool nsession_place_tasks(const struct nsession *s, const int *ntasks, const pid_t *pid, char *err, size_t errlen);

/* One run: fresh temp dir, swapfile and cgroup; run; measure; clean up.
 * False with err set when setting up failed (bad input: exit 2). */
bool nsession_run(const struct nsession *s, struct nrun *r, char *err, size_t errlen);
/* The default warm-up: the limit and FILE_PAGES of page cache, at most
 * half of RAM (0: unknown) but never under the limit. */
uint64_t nsession_warm_bytes(uint64_t limit, uint64_t file_pages, uint64_t ram);
void nrun_free(struct nrun *r);

#endif
