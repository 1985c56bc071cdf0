/* kexec.h - the runner's second executor: a cell run on this host's
 * kernel (src/native: a memory cgroup and a swapfile of its own, the
 * one-at-a-time lock, cleanup on every way out), returning the same
 * run_result as the simulator's cell_run() and written as the same
 * records.  The kernel takes of a cell its workloads with their seeds,
 * its --memcg limit, its swap size and its time limit (wall seconds);
 * every input file a workload only reads is made first, uncached, as the
 * simulator's --make-inputs makes it.  A cell run here is named by the
 * `pagelab kernel` command that runs it alone, followed by "# run R,
 * executor V": repeats of one cell are distinct records, and a record of
 * an older executor (NATIVE_EXECUTOR_REV) is not resumed. */
#ifndef PAGELAB_KEXEC_H
#define PAGELAB_KEXEC_H

#include <stdbool.h>
#include <stddef.h>

#include "cell.h"
#include "matrix.h"
#include "../mm/cgtree.h"
#include "../native/native.h"
#include "../workload/wlist.h"

/* What the kernel counted beyond a run_result's figures. */
struct kernel_result {
	struct nstat vmstat;     /* the host's /proc/vmstat deltas */
	struct nstat memstat;    /* the cgroup's memory.stat at the end */
	struct nstat traced;     /* its own reclaim and activations (tracer.c) */
	int cg_version;
	bool has_host;           /* host: what it ran on (a record's "host") */
	struct nhost_settings host;
	bool warmed;             /* the host's pages were warmed first */
	uint64_t warm_bytes;     /* how much (session.c) */
	struct ndisk_rates disk; /* the disk probe's just before (bytes 0: none) */
	struct ndisk_rates disk_after; /* ... and just after */
	bool has_zram;           /* it swapped to a zram device: ... */
	struct nzram_stats zram; /* ... its mm_stat and io_stat (zram.c) */
	uint64_t peak_bytes, oom_kills;
	struct ntree tree;       /* --cgroup: the tree below the run's own, */
	struct ncg_result *cg;   /* ... and what each of its cgroups counted */
	int ncg;
	double loadavg;          /* the host's 1-minute load at the run's end
				  * (/proc/loadavg), -1 unread: its times were
				  * taken beside that much other work */
};
void kernel_result_free(struct kernel_result *k);
/* A new, zeroed kernel_result as rr->kernel, freed with rr (its
 * kernel_free is kernel_result_free). */
struct kernel_result *kernel_result_attach(struct run_result *rr);

/* The limit of a kernel cell's own cgroup: its --memcg, or with a
 * --cgroup tree its RAM (the simulator's tree runs in the machine). */
uint64_t kexec_cell_limit(const struct cell *c);

/* The default time limit of a kernel cell, as pagelab kernel's. */
#define KEXEC_TIMEOUT_NS (600ULL * 1000000000ULL)

/* Whether this host can run kernel cells at all (root, a memory
 * controller) and cell c's limits fit it (at most half of its RAM): false
 * with one line in err if not.  Nothing is created. */
bool kexec_check(const struct cell *c, char *err, size_t errlen);

/* Run cell c on the kernel into rr (zeroed by the caller).  False with
 * one line in err when the run is refused before it starts (bad input, no
 * room for the swapfile): nothing ran.  A run that started and failed (a
 * task's error) returns true with rr->available false and rr->why. */
bool kexec_run(const struct cell *c, struct run_result *rr, char *err, size_t errlen);

/* The one path to the host kernel, pagelab kernel's and a kernel cell's:
 * the workloads of a run (argv: words, "+" between workloads, outliving
 * k), parsed, seeded as pagelab run seeds them (runspec_seed()), created
 * once and sized from what sysinfo() says inside the cgroup (limit as
 * RAM, swap as swap), the files they read planned (src/native/prepare.c).
 * False with one line in err on bad input.  help: true with k->wll.help
 * set and nothing created when a workload's --help was asked for (else
 * "--help" goes to the workload as any argument).
 * kexec_work_free() after, whatever it returned. */
struct kexec_work {
	struct wl_list wll;
	int *place;              /* each workload's cgroup: 0 the run's own, i its --cgroup i */
	struct nworkload *wl;
	void **inst;
	int nwl;
	struct nplan plan;
	bool planned;
};
bool kexec_work_prepare(struct kexec_work *k, int argc, char **argv, bool help, uint64_t seed, uint64_t limit,
			uint64_t swap, char *err, size_t errlen);
/* The same with a --cgroup tree: each workload's last word @PATH is
 * taken off and its cgroup kept in k->place (cgspec_placement(); a @PATH
 * naming no cgroup of tree, NULL for none, is refused). */
bool kexec_work_prepare_tree(struct kexec_work *k, const struct cg_tree_conf *tree, int argc, char **argv,
			     bool help, uint64_t seed, uint64_t limit, uint64_t swap, char *err, size_t errlen);

/* kexec_tree.c: --cgroup SPEC... (n of them) for the host's cgroup
 * `version`: the tree as the simulator reads it into conf, and in nt
 * each cgroup's host files (refused with one line naming a key the host
 * lacks); limit: the run's own (--memcg). */
bool kexec_tree_build(const char *const *specs, int n, int version, uint64_t limit, struct cg_tree_conf *conf,
		      struct ntree *nt, char *err, size_t errlen);
/* The same from a tree already read (a cell's; no --set knobs). */
bool kexec_tree_from_conf(const struct cg_tree_conf *conf, int version, uint64_t limit, struct ntree *nt, char *err,
			  size_t errlen);
/* Each cgroup's figures as a JSON array, keyed as pagelab run --json
 * keys a simulated cgroup's: "path", "set" (its knobs' files),
 * "memory.current", "memory.peak", "memory.events.NAME",
 * "memory.pressure" (v2), "memory.stat.NAME". */
void kexec_tree_json(FILE *out, const struct ntree *t, const struct ncg_result *cg, int n);
/* A workload that acts on a cgroup from user space (memreclaim, senpai,
 * oomd) in l, on a host of cgroup `version` 1: true with one line in err
 * (kexec_tree.c says why), checked by kexec_work_prepare_tree(). */
bool kexec_agents_refuse(const struct wl_list *l, int version, char *err, size_t errlen);
/* Each agent of the nwl workloads (created: inst) acts on a cgroup of
 * conf ("/" the run's own): false with one line in err if not. */
bool kexec_agents_targets(const struct cg_tree_conf *conf, const struct nworkload *wl, void *const *inst, int nwl,
			  char *err, size_t errlen);
/* On v2, workloads only in leaves: false with one line if not. */
bool kexec_tree_places(const struct cg_tree_conf *conf, int version, const int *place, int nwl, char *err,
		       size_t errlen);
void kexec_work_free(struct kexec_work *k);

/* This process's guard (the one-at-a-time lock, cleanup on every way
 * out), begun at the first call; NULL without a memory controller. */
struct nguard *kexec_guard(void);

struct kexec_opts {
	uint64_t limit, swap, timeout_ns;
	struct nguard *guard;
	bool cold;                    /* no warm-up of the host's pages */
	uint64_t warm;                /* bytes warmed (0: the limit) */
	const struct nknobs *knobs;   /* written into the cgroup, or NULL */
	const struct nzram_spec *zram; /* swap on a zram device, or NULL */
	const struct ntree *tree;     /* --cgroup: below the run's own, or NULL */
	bool disk_probe;              /* the disk's rates before and after (diskprobe.c) */
};
/* One run of k in a cgroup and swapfile of its own (nsession_run()):
 * false with one line in err when refused before it started. */
bool kexec_session_run(struct kexec_work *k, const struct kexec_opts *o, struct nrun *r, char *err, size_t errlen);

/* Make cells (a matrix's of nr_axes axes, already built) kernel cells, each `repeat`
 * times (runs 1..repeat, one after the other), with time limit
 * timeout_ns and the cgroup knob kset (NAME=VALUE as pagelab kernel
 * --set takes it, outliving the cells; NULL: none, the cgroup's
 * defaults): their commands become pagelab kernel's, their design
 * "kernel".  False with one line in err when two cells would be the same
 * kernel run (axes the kernel does not take: policies, machines). */
bool kexec_cells(struct matrix_cell **cells, int *n, int nr_axes, int repeat, uint64_t timeout_ns,
		 const char *kset, char *err, size_t errlen);

/* Run a cell on its executor: cell_run() or kexec_run(). */
bool executor_run(const struct cell *c, struct run_result *rr, char *err, size_t errlen);

#endif
