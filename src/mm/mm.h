/* mm.h - the mm core: frames in zones with watermarks, address spaces with
 * page tables, rmap, the swap area and swap cache, and the reclaim mechanics
 * every policy uses (page_referenced, unmap, pageout, free).
 *
 * The core never decides *which* page to reclaim: it calls the policy's
 * shrink().  It never talks to a disk directly either: I/O goes through the
 * mm_io callbacks the machine installs, and completions come back through
 * mm_io_done().  Time spent in the kernel is charged to the mm_ctx of the
 * task (or kernel thread) doing the work, from the named costs in mm_costs.
 */
#ifndef PAGELAB_MM_H
#define PAGELAB_MM_H

#include "plug.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "page.h"
#include "pte.h"
#include "lru.h"
#include "counters.h"
#include "work.h"
#include "fault_ctx.h"
#include "cache_mode.h"
#include "test_figures.h"
#include "oracle.h"
#include "node_stat.h"
#include "wakeups.h"
#include "policy_ops.h"
#include "cgtree.h"

#define DEF_PRIORITY 12
#define SWAP_CLUSTER_MAX 32
#define MAX_ZONES 4

/* CPU-side costs of kernel work, in ns (machine profile parameters). */
struct mm_costs {
	uint64_t ref_ps;          /* user time per memory reference (one word), in ps */
	uint64_t fault_ns;        /* trap + fault handling, excluding page zeroing */
	uint64_t zero_page_ns;    /* clearing one page */
	uint64_t copy_page_ns;    /* copying one page (COW) */
	uint64_t copy_user_ns;    /* ... between the page cache and a user buffer (read(), write(); 0 = copy_page_ns) */
	uint64_t scan_ns;         /* one page looked at by a reclaim scanner */
	uint64_t rmap_ns;         /* one PTE visited through rmap (referenced/unmap) */
	uint64_t io_submit_ns;    /* building and queueing one I/O request (io_request.c) */
	uint64_t free_page_ns;    /* unmapping and freeing one page at exit */
	uint64_t io_complete_ns;  /* interrupt + completion handling per request */
	uint64_t syscall_ns;      /* one read()/write()... call beyond its page work (0 = fault_ns) */
	uint64_t tlb_ipi_ns;      /* a remote TLB flush, to the CPU that asks (reclaim.c) */
	uint64_t tlb_ipi_recv_ns; /* ... and to the task running on a CPU that takes it */
	/* ns per operation of a row of reclaim's work (work.h) that no cost
	 * above is charged for (the LRU lock, MGLRU's walks...: the profile's
	 * cost.ROW parameters); 0, every preset's value, charges nothing, so
	 * a run's time changes only on a profile that sets one. */
	uint64_t work_ns[NR_RECLAIM_WORK];
};
/* What a page read() or write() copies costs: cost.copy_user, or a
 * copy's where the profile sets none (every preset). */
static inline uint64_t mm_copy_user_ns(const struct mm_costs *c)
{
	return c->copy_user_ns ? c->copy_user_ns : c->copy_page_ns;
}
/* Tunables of the file-backed VM, named after the sysctls; 2.6.26 defaults.
 * A policy may change them in its init() (e.g. 2.4's readahead window) and
 * `--set vm.NAME=VALUE` overrides both. */
struct vm_sysctl {
	uint64_t dirty_ratio;                /* % of dirtyable memory: writers throttle */
	uint64_t dirty_background_ratio;     /* %: the flusher starts writing */
	uint64_t dirty_writeback_centisecs;  /* flusher period */
	uint64_t dirty_expire_centisecs;     /* age at which dirty data is written */
	uint64_t ra_pages;                   /* max readahead window (read_ahead_kb / 4) */
	uint64_t ra_init_pages;              /* 0 = 2.6 get_init_ra_size(); else fixed */
	uint64_t page_cluster;               /* swap readahead: 1 << page_cluster slots */
	uint64_t ra_era;                     /* file readahead logic: 22, 24, 26 or 30 (filemap_mmap_ra.c) */
	uint64_t min_readahead;              /* 2.2/2.4 MIN_READAHEAD / vm_min_readahead (pages) */
	uint64_t swap_token;                 /* 1 = thrash.c's swap token (2.6.9-3.4) */
	uint64_t fault_mark_accessed;        /* 1 = file faults call mark_page_accessed */
	uint64_t write_mark_accessed;        /* 1 = buffered writes mark the page accessed (before 4.7) */
	uint64_t write_refault;              /* 1 = a write into a shadow's slot is a refault (before 4.7) */
	uint64_t mlock_half_ram;             /* 1 = mlock() beyond half of RAM fails (2.0-2.6.8) */
	uint64_t drop_behind;                /* 1 = 2.4.0's drop_behind() (ra_era 24, riel24) */
	/* The era's flusher (src/mm/flusher_era.c) and 2.2/2.4's bdflush
	 * parameters (/proc/sys/vm/bdflush), mapped from buffers to pages. */
	uint64_t flusher;                    /* enum flusher_era */
	uint64_t bdflush_nfract;             /* % dirty: bdflush wakes (2.4: writers write) */
	uint64_t bdflush_ndirty;             /* pages per bdflush cycle (0 = NRSYNC batches) */
	uint64_t bdflush_nfract_sync;        /* 2.4: % dirty: writers write/wait synchronously */
	uint64_t bdflush_interval;           /* centisecs between update / kupdate runs */
	uint64_t bdflush_age_buffer;         /* centisecs: dirty data this old is written */
	uint64_t bdflush_nfract_stop;        /* late 2.4: % dirty at which bdflush stops */
	uint64_t io_in_reclaim;              /* 1 = I/O completes inside long reclaim passes */
	uint64_t swap_vma_ra;                /* 1 = 4.14+ VMA-based swap readahead */
	uint64_t swap_rotational;            /* 1 = the swap device is rotational */
	uint64_t anon_exclusive;             /* 1 = 5.19+ PG_anon_exclusive swap-in */
	uint64_t pagecache_folio_order;      /* largest readahead folio (order) */
	uint64_t dirty_fault;                /* 1 = 2.6.19+ write-fault dirtying of shared file pages */
	uint64_t dirty_bytes;                /* bytes: writers throttle (0 = dirty_ratio) */
	uint64_t dirty_background_bytes;     /* bytes: the flusher writes (0 = dirty_background_ratio) */
	uint64_t cgroup_writeback;           /* 1 = 4.2+ cgroup writeback: a v2 --memcg's own dirty limits */
};
/* The largest page-cache folio, as an order (MAX_PAGECACHE_ORDER, x86-64). */
#define PAGECACHE_FOLIO_ORDER_MAX 9
#define VM_SYSCTLS(X) \
	X(dirty_ratio, 10, 0, 100, "/proc/sys/vm/dirty_ratio: writers throttle above this % of dirtyable memory") \
	X(dirty_background_ratio, 5, 0, 100, "/proc/sys/vm/dirty_background_ratio: the flusher writes above this %") \
	X(dirty_writeback_centisecs, 500, 1, 360000, "/proc/sys/vm/dirty_writeback_centisecs: flusher period") \
	X(dirty_expire_centisecs, 3000, 0, 360000, "/proc/sys/vm/dirty_expire_centisecs: dirty data this old is written") \
	X(ra_pages, 32, 0, 65536, "max readahead window in pages (2.6: read_ahead_kb / 4 = 32; 2.4: max-readahead 31; 2.2: MAX_READAHEAD 18)") \
	X(ra_init_pages, 0, 0, 65536, "initial readahead window (0 = 2.6 get_init_ra_size)") \
	X(page_cluster, 3, 0, 10, "/proc/sys/vm/page-cluster: swap readahead of 1 << N slots (and ra_era 22/24 mmap fault clusters)") \
	X(ra_era, 26, 22, 30, "file readahead: 22 = 2.2, 24 = 2.4 (generic_file_readahead, filemap_nopage clusters), 26 = 2.6.23+ on-demand, 30 = 3.0+ (mmap faults: async readahead on PG_readahead); others round down") \
	X(min_readahead, 3, 0, 65536, "ra_era 22/24: smallest window of a sequential reader (2.4.10+ /proc/sys/vm/min-readahead)") \
	X(swap_token, 0, 0, 1, "1 = mm/thrash.c's swap token protects one thrashing process (2.6.9-3.4; no sysctl)") \
	X(fault_mark_accessed, 0, 0, 1, "1 = filemap_nopage/filemap_fault call mark_page_accessed (2.4.10-2.6.28; no sysctl)") \
	X(write_mark_accessed, 1, 0, 1, "1 = a buffered write() marks each page it writes accessed, as reads do (2.x-4.6: generic_perform_write()'s mark_page_accessed(), from 3.16 grab_cache_page_write_begin()'s FGP_ACCESSED); 0 = 4.7+ (\"mm: filemap: only do access activations on reads\"): a page written twice stays inactive; no sysctl") \
	X(write_refault, 1, 0, 1, "1 = a buffered write() that creates a page where an evicted one left its shadow entry is a refault, as a read's is (3.15-4.6 add_to_page_cache_lru()); 0 = 4.7+ (Rik van Riel's \"mm: workingset: only do workingset activations on reads\": filemap_add_folio() skips workingset_refault() for __GFP_WRITE): the page replaces the shadow, uncounted; no sysctl") \
	X(mlock_half_ram, 0, 0, 1, "1 = sys_mlock() refuses to lock more than half of physical memory (2.0-2.6.8: \"we may lock at most half of physical memory\"; no sysctl)") \
	X(drop_behind, 1, 0, 1, "ra_era 24: deactivate the pages a sequential reader passed (2.4.0-2.4.9; -ac's /proc/sys/vm/drop_behind)") \
	X(flusher, 0, 0, 5, "writeback era: 0 = 2.6.26 pdflush, 1 = 2.2 kflushd + update, 2 = 2.4.0 bdflush + kupdate, 3 = 2.4.10-2.4.17 bdflush + kupdated, 4 = per-bdi flush-8:0 (3.2+ IO-less throttling), 5 = late 2.4 (2.4.27) bdflush + kupdated") \
	X(bdflush_nfract, 40, 0, 100, "/proc/sys/vm/bdflush nfract: % dirty that wakes bdflush (2.2: of the cache; 2.4: of nr_free_buffer_pages)") \
	X(bdflush_ndirty, 500, 0, 50000, "/proc/sys/vm/bdflush ndirty: pages written per bdflush cycle (0 = 2.4.10+ NRSYNC batches)") \
	X(bdflush_nfract_sync, 60, 0, 100, "/proc/sys/vm/bdflush nfract_sync: % dirty above which 2.4 writers write synchronously") \
	X(bdflush_interval, 500, 1, 360000, "/proc/sys/vm/bdflush interval: centisecs between update/kupdate runs") \
	X(bdflush_age_buffer, 3000, 100, 600000, "/proc/sys/vm/bdflush age_buffer: centisecs before a dirty buffer is written") \
	X(bdflush_nfract_stop, 20, 0, 100, "/proc/sys/vm/bdflush nfract_stop_bdflush: % dirty below which late 2.4 bdflush sleeps") \
	X(io_in_reclaim, 1, 0, 1, "1 = disk completions due by a reclaimer's clock run inside its pass (pagelab's execution model; 0 = only between events)") \
	X(swap_vma_ra, 0, 0, 1, "1 = swap_vma_readahead(): window around the faulting address, sized by swapin_nr_pages() hits (4.14+ /sys/kernel/mm/swap/vma_ra_enabled); 0 = 2.6 slot clusters") \
	X(swap_rotational, 0, 0, 1, "1 = the swap device is rotational (no SWP_SOLIDSTATE, nr_rotate_swap > 0): with swap_vma_ra 1, 4.14+'s swapin_readahead() falls back to swap_cluster_readahead(), the aligned cluster of swapin_nr_pages() slots around the faulting one") \
	X(anon_exclusive, 0, 0, 1, "1 = 5.19+'s PG_anon_exclusive (6.x do_swap_page): a page read back on a read fault is mapped writable and its later store keeps the swap slot, so it is written back there if evicted again; 0 = the store frees the slot (before 5.19: reuse_swap_page()); only touches that load before they store (qsbench's sort) tell the two apart") \
	X(pagecache_folio_order, 0, 0, PAGECACHE_FOLIO_ORDER_MAX, "largest page-cache folio on-demand readahead allocates, as an order (6.x page_cache_ra_order() on a large-folio filesystem, MAX_PAGECACHE_ORDER 9 on x86-64; 0 = 4 KiB pages, as before 5.18)") \
	X(dirty_fault, 0, 0, 1, "1 = shared file mappings track dirty pages at the write fault (2.6.19+, 6.x fault_dirty_shared_page()): a clean page is mapped write-protected, the first write dirties it, writeback write-protects it again; 0 = the dirty PTE bit moves to the page only when it is unmapped or written back") \
	X(dirty_bytes, 0, 0, UINT64_MAX / 2, "/proc/sys/vm/dirty_bytes: when set, writers throttle above this many bytes of dirty data instead of dirty_ratio") \
	X(dirty_background_bytes, 0, 0, UINT64_MAX / 2, "/proc/sys/vm/dirty_background_bytes: when set, the flusher writes above this many bytes instead of dirty_background_ratio") \
	X(cgroup_writeback, 0, 0, 1, "1 = cgroup writeback (4.2+, cgroup v2 only): writers in a --memcg cgroup are also throttled, and the flusher also writes, by limits of the cgroup's own dirtyable memory (its file pages + its room left); 0 = the node's limits only (cgroup v1, or before 4.2)")

/* vm.flusher: the era of the writeback threads (src/mm/flusher_era.c). */
enum flusher_era {
	FLUSHER_PDFLUSH,  /* 2.6.26 pdflush (mm/page-writeback.c) */
	FLUSHER_22,       /* 2.2.1 kflushd + update(8) */
	FLUSHER_240,      /* 2.4.0 bdflush + kupdate */
	FLUSHER_2410,     /* 2.4.10-2.4.17 bdflush + kupdated (2.4.17) */
	FLUSHER_PERBDI,   /* per-bdi flush-8:0, 3.2+ IO-less balance_dirty_pages */
	FLUSHER_24LATE,   /* late 2.4 bdflush with nfract_stop_bdflush (2.4.27) */
};
/* For a policy's init(): select the era's flusher and its default
 * thresholds (bdf_prm of 2.2.1 / 2.4.0 / 2.4.17, or the dirty ratios). */
void mm_flusher_era(struct mm *mm, enum flusher_era era);
/* The 6.x kernel around its LRU, which linux6 and mglru share: the
 * per-bdi flusher, 3.0+ mmap readahead, VMA swap readahead, write-fault
 * dirtying of shared pages, 4.7+ writes that neither activate nor
 * refault, cgroup writeback (mm.c). */
void mm_vm_era_6x(struct mm *mm);

/* I/O callbacks installed by the machine. */
/* IO_DISCARD: a discard (REQ_OP_DISCARD) of a swap cluster, no data */
enum io_dir { IO_READ, IO_WRITE, IO_DISCARD };
struct mm_io {
	void *arg;
	/* Queue a one-page I/O for frame pfn at swap block `block`, at time t. */
	void (*submit_swap)(void *arg, enum io_dir dir, uint32_t block, pfn_t pfn, uint64_t t);
	/* Queue a one-page I/O for frame pfn at disk block `block` (file data). */
	void (*submit_block)(void *arg, enum io_dir dir, uint64_t block, pfn_t pfn, uint64_t t);
	/* Queue a discard of npages swap blocks from block at time t (swap
	 * cluster `cluster`'s: its completion calls swap_cl_discard_done()).
	 * NULL: no disk, the discard is done at once. */
	void (*submit_discard)(void *arg, uint64_t block, uint32_t npages, uint32_t cluster, uint64_t t);
	/* Complete now the I/O the disk has finished by time t (a reclaimer's
	 * clock, ahead of the event clock): calls mm_io_done() for each page.
	 * May be NULL (then I/O completes only between events). */
	uint64_t (*catch_up)(void *arg, uint64_t t); /* returns requests completed */
	/* The disk's largest request in pages (max_sectors: a bio merges
	 * into a plugged request only below it); 0: unlimited. */
	uint32_t max_request_pages;
	/* A TLB flush IPI at time t from the CPU now running to every other
	 * CPU busy then; each of them loses recv_ns (out of the next chunk it
	 * runs).  Returns the CPUs interrupted.  May be NULL (no machine: none). */
	unsigned (*remote_tlb_flush)(void *arg, uint64_t t, uint64_t recv_ns, uint64_t cpumask);
	/* psi_memstall_enter() (enter) / psi_memstall_leave() for task at
	 * time t, around direct and limit reclaim; returns whether it
	 * entered (false: already in a stall, or no PSI).  May be NULL. */
	bool (*memstall)(void *arg, int task, bool enter, uint64_t t);
};

/* A run of pages submitted together (io_request.c): the block after the
 * run's last and the folios in it; zero-initialised, it is empty. */
struct io_run {
	uint64_t next;
	unsigned n;
};

/* Who is running kernel code and what it costs them. */
struct mm_ctx {
	uint64_t t0;        /* simulated time when this call began */
	uint64_t user_ns;   /* user time consumed */
	uint64_t sys_ns;    /* system time consumed */
	int task;           /* task id, or -1 for a kernel thread */
	bool kswapd;        /* PF_MEMALLOC + kswapd counters */
	pfn_t wait_pfn;     /* FAULT_WAIT_PAGE: the locked page to wait for */
	bool retry;         /* resuming a fault that blocked: don't count it twice */
	bool reclaim_wait;  /* the last mm_alloc_page() failed with FAULT_WAIT_RECLAIM */
	bool high_sleep;    /* memory.high's penalty is owed: the touch or read
			     * loop returns so the task sleeps it at once
			     * (mm_memcg_return_to_user()) */
	uint64_t majflt, minflt, nswap;
};

enum fault_status {
	FAULT_DONE,         /* the page is mapped */
	FAULT_WAIT_PAGE,    /* block until ctx->wait_pfn is unlocked (read I/O) */
	FAULT_WAIT_RECLAIM, /* direct reclaim found only pages under writeback */
	FAULT_OOM,          /* no memory: the machine must run the OOM killer */
	FAULT_SEGV,         /* access outside a mapping (a workload bug) */
	FAULT_SIGBUS,       /* a file mapping's page beyond the end of the file:
			     * the kernel sends SIGBUS, the program dies */
	FAULT_ENOENT,       /* a file op named a file that does not exist: the
			     * program fails (exits), as it would on ENOENT */
};

#define VMA_ANON    (1u << 0)
#define VMA_SHARED  (1u << 1)
#define VMA_LOCKED  (1u << 2)
#define VMA_DEAD    (1u << 3)
#define VMA_MLOCKING (1u << 7) /* mlock() populating it: VMA_LOCKED once every page is marked */
#define VMA_NOZERO  (1u << 4)  /* reads of untouched pages allocate (trace data) */
#define VMA_EXEC    (1u << 5)  /* PROT_EXEC (VM_EXEC): program text */
#define VMA_PTE_LENT (1u << 6) /* its PTEs are the caller's (mm_mmap_anon_ptes): never freed here */
/* bits 8-11: the data kind its pages are written with (pagefill.h) */
#define VMA_KIND_SHIFT 8
#define VMA_KIND(flags) (((flags) >> VMA_KIND_SHIFT) & 0xfu)

struct vma {
	uint64_t start;     /* first virtual page number */
	uint64_t npages;
	pte_t *pte;         /* npages entries */
	uint32_t flags;
	uint32_t ino;       /* file mapping: inode id + 1 (0 = anonymous) */
	uint64_t pgoff;     /* file mapping: file page of the first vma page */
	uint32_t *ver;      /* --check: last written version per page (integrity.h) */
	/* vma->swap_readahead_info (vm.swap_vma_ra): the page of the last
	 * swap fault, the window read then, readahead hits since.  ra_set 0
	 * is the kernel's info still 0: GET_SWAP_RA_VAL() reads it as 4 hits
	 * with no previous fault (ra_hits starts at SWAP_RA_INIT_HITS). */
	uint64_t ra_off;
	uint32_t ra_win, ra_hits;
	bool ra_set;
};

struct aspace {
	uint32_t id;
	int task;           /* owning task (for the OOM killer), -1 if none */
	struct vma *vmas;
	uint32_t nr_vmas;
	uint64_t next_vpn;
	uint64_t total_vm;  /* pages mapped */
	uint64_t rss;       /* resident pages */
	uint64_t swapents;  /* PTEs holding swap entries */
	uint64_t locked_vm;
	uint64_t nswap;     /* pages of this space swapped out (GNU time's "swaps") */
	bool dead;
	bool ran;           /* touched memory since MGLRU's last walk (lru_gen_use_mm) */
	uint64_t cpumask;   /* CPUs a task of it ran on (x86 mm_cpumask(); CPU 63 and up: bit 63) */
	/* the swap token (thrash.c) */
	bool in_fault;          /* its task is blocked inside a page fault */
	uint32_t faultstamp;    /* global_faults at its last swap-in */
	uint32_t last_interval; /* swap-ins by anybody between its last two */
	uint32_t token_priority;
};

struct zone {
	const char *name;
	int allocstall_item; /* its allocstall_* counter (ev[] index), from the name */
	pfn_t start, end;
	int free_list;
	uint64_t managed;
	uint64_t wmark_min, wmark_low, wmark_high;
	uint64_t nr_free;   /* frames on this zone's free list */
	uint8_t need_balance; /* multi-zone: 1 = a classzone allocation failed at
			       * low (kswapd owes it a pass), 2 = kswapd ran a
			       * pass for it (check_classzone_need_balance next) */
};

struct zram;
struct zswap;
struct swap_clusters;

struct swap_area {
	struct zram *zram;  /* --swap zram: the device (zram.h), else NULL */
	struct zswap *zswap; /* --set zswap=1: zswap (zswap.h), else NULL */
	struct swap_clusters *cl; /* --set swap.cluster=1: 6.18's cluster
				   * allocator (swap_cluster.h), else NULL */
	uint32_t cpu;       /* the CPU running the current chunk (the machine
			     * sets it): whose per-CPU cluster it takes */
	uint32_t nr_slots;
	uint32_t used;      /* slots with a PTE reference or a swap-cache page */
	uint16_t *map;      /* PTE references per slot */
	pfn_t *cache;       /* swap-cache frame per slot, or PFN_NONE */
	uint32_t nr_cached; /* slots with a swap-cache frame (vmstat's count:
			     * not a walk over every slot per sample) */
	uint64_t *shadow;   /* shadow entry per slot (policies with evict_shadow) */
	uint32_t cursor;    /* next-fit allocation cursor (clusters writes) */
	uint64_t nr_refs;   /* sum of map[]: PTE references (--check's total) */
	struct swap_walk *walk; /* --check's scratch (check_swap.c), or NULL */
	/* swap_cluster_readahead()'s globals (vm.swap_rotational): the slot
	 * of the last fault that found no readahead hits, the window read
	 * last, readahead hits since (mm/swap_state.c prev_offset,
	 * last_readahead_pages, swapin_readahead_hits). */
	uint32_t ra_prev, ra_win, ra_hits;
	struct cgtree *cgt; /* --cgroup: slots are charged (cgtree.c) */
};

struct fs;

/* --memcg LIMIT (memcg.c): the workloads run in one memory cgroup.  Every
 * page the simulation allocates is allocated by a workload task, so every
 * allocated frame is charged to the cgroup and its LRU is the node's LRU:
 * limit reclaim runs the policy's shrink() on the whole LRU. */
struct memcg {
	uint64_t limit;      /* pages (memory.max); 0 = no cgroup */
	bool v1;             /* cgroup v1: limit reclaim stalls on writeback */
	uint64_t charged;    /* memory.current, pages */
	uint64_t peak;       /* memory.peak (v1 max_usage_in_bytes) */
	uint64_t failcnt;    /* charges that found the cgroup at its limit */
	uint64_t pgrefill;   /* the cgroup's own: /proc/vmstat's pgrefill
			      * skips cgroup reclaim (!cgroup_reclaim()) */
	uint64_t oom, oom_kill;   /* memory.events */
	bool oom_pending;    /* the next OOM kill is the cgroup's */
};

/* /proc/vmstat's LRU gauges, from the lists' kinds (lru.h). */
struct lru_sizes {
	uint64_t inactive_anon, active_anon, inactive_file, active_file;
};

struct policy {
	const struct policy_ops *ops;
	void *priv;
};

struct mm {
	struct frames fr;
	struct zone zones[MAX_ZONES];
	int nr_zones;
	int list_unevictable;   /* core list: mlocked pages the policy culled */
	int list_wb_free;       /* core list: evicted pages freed when writeback ends */
	struct swap_area swap;
	bool charge_nowait;     /* a charge that cannot wait (a swap readahead
				 * page, swapin.c): memcg.c wait_for_writes() */
	struct aspace **as;
	uint32_t nr_as;
	struct policy pol;
	bool access_hook;
	/* OPT's oracle window (oracle.h); oracle.next NULL without one. */
	struct mm_oracle oracle;
	const struct mm_costs *cost;
	struct mm_io io;
	struct mm_plug plug;       /* the reclaimer's block plug (plug.c) */
	uint64_t ev[NR_VM_EVENTS];
	struct mm_node_stat stat;  /* the node's page counts (node_stat.h) */
	struct mm_wakeups wake;    /* what the machine is asked to do (wakeups.h) */
	/* reclaim's work, counted (work.h), and whose it is now: set for
	 * the length of a reclaim pass, WHO_OTHER outside one */
	struct reclaim_work work;
	enum work_who work_who;
	uint64_t nr_tlb_remote_flush; /* IPIs sent by flush_tlb_dirty() (reclaim.c) */
	uint64_t nr_io_requests;   /* requests io_request() charged cost.io_submit for */
	struct mm_ctx *cur;        /* who runs the current reclaim pass */
	bool untimed;           /* I/O completes synchronously (trace mode) */
	uint64_t seed;          /* the run's seed: what the kernel leaves to chance
				 * (a periodic worker's phase) is drawn from it */
	/* The cache-only mode of src/cachesim (cache_mode.h). */
	struct mm_cache_mode cache;
	/* The page a fault is being served for (fault_ctx.h: ARC's and the
	 * ghost lists' question "is the page coming in one I remember?"). */
	struct mm_fault fault;
	/* The policy's POLICY_FAULT_NOT_YOUNG (libCacheSim's Clock): the
	 * faulting reference of a single-reference touch does not leave the
	 * PTE accessed bit set, so a new page starts unreferenced.  Set by
	 * mm_set_policy() from the policy's flags, read on faults only.  The
	 * MMU-faithful default is false. */
	bool fault_not_young;
	/* the page cache (filemap.h) */
	struct fs *fs;
	struct vm_sysctl vm;
	uint64_t flush_all;     /* wb_start_writeback(): pages left to write,
				 * FLUSH_ALL_ASKED before the flusher ran */
	uint64_t dirtied_balanced; /* nr_dirtied at the last balance_dirty call */
	/* the swap token (thrash.c), when vm.swap_token */
	uint32_t swap_token_mm; /* aspace id + 1 of the holder, 0 = nobody */
	uint32_t global_faults; /* swap-ins that missed the swap cache */
	/* --check's content versions (integrity.h), NULL without --check. */
	struct integrity *integrity;
	/* Figures no report prints, kept for tests (test_figures.h). */
	struct mm_test_figures test;
	struct memcg memcg;
	/* --cgroup: the tree of memory cgroups (cgtree.c), NULL without one */
	struct cgtree *cgt;
};

struct mm_config {
	uint64_t ram_pages;      /* frames available to the page allocator */
	uint64_t swap_pages;
	uint64_t min_free_kbytes;/* 0 = computed as in 2.6: sqrt(16 * lowmem_kB) */
	bool no_watermarks;      /* trace mode: allocate down to the last frame */
	uint64_t disk_blocks;    /* disk size in pages (0: room for swap + 1 TiB of files) */
	bool untimed;
	bool check;              /* --check: keep content versions (integrity.h) */
	uint64_t seed;           /* the run's seed (mm->seed) */
	/* --swap zram: 1 + enum zalgo (0: a disk swap area), zspage chain,
	 * a trace's pages' ratio (%), CPU ps per byte (0: measured) */
	unsigned zram, zram_chain, zram_trace_ratio;
	unsigned swap_cluster; /* 6.18's cluster slot allocator; 2: per-CPU
				* clusters on a rotational device too */
	bool swap_discard;  /* SWP_PAGE_DISCARD: swapon --discard=pages on a
			     * device that takes discards (swap_cluster.c) */
	unsigned nr_cpus;   /* its per-CPU clusters */
	uint64_t zram_comp_ps, zram_decomp_ps;
	/* zram's backing device (zram_wb.h): its pages (0: none), the
	 * writer's period, mode (ZWB_*), writeback_limit (4 KiB pages, 0:
	 * not enabled) and idle age (0: all) */
	uint64_t zram_wb_pages, zram_wb_period_ns, zram_wb_limit, zram_wb_age_ns;
	unsigned zram_wb_mode;
};

void mm_init(struct mm *mm, const struct mm_config *cfg, const struct mm_costs *cost);
void mm_set_policy(struct mm *mm, const struct policy_ops *ops, const double *tun);
/* wakeup_kswapd(): the allocator or a policy (2.2's and 2.4's timed aging
 * finding a shortage) asks the machine to run kswapd; the core cannot
 * run it itself, the machine schedules it as a task. */
static inline void mm_wake_kswapd(struct mm *mm) { mm->wake.kswapd = true; }
/* A policy asks kswapd to run the OOM killer (MGLRU's min_ttl_ms: every
 * generation too young to evict); the machine owns the killer. */
static inline void mm_want_oom(struct mm *mm) { mm->wake.oom = true; }
/* n operations of row w of reclaim's work, by whoever runs now (work.h). */
static inline void mm_work(struct mm *mm, enum work_op w, uint64_t n)
{
	mm->work.n[mm->work_who][w] += n;
	/* time = counted work x cost: the row's cost, where the profile
	 * gives one, is system time of whoever does the work */
	if (mm->cost->work_ns[w] && mm->cur)
		mm->cur->sys_ns += n * mm->cost->work_ns[w];
}
/* A design's init(): the WK_DESIGN rows of work.h it counts itself
 * (WORK_BIT(W_...) ORed); the rest are absent from its reports. */
static inline void mm_work_keep(struct mm *mm, uint64_t rows) { mm->work.kept |= rows; }
void mm_destroy(struct mm *mm);

/* Address spaces and mappings. */
struct aspace *mm_aspace_new(struct mm *mm, int task);
/* Map `npages` of anonymous memory (flags: VMA_NOZERO); returns the vma index. */
uint32_t mm_mmap_anon(struct mm *mm, struct aspace *as, uint64_t npages, uint32_t flags);
/* mm_mmap_anon() onto the caller's page table: `ptes`, npages zeroed
 * entries that the caller owns, frees and may move (repointing the VMA's
 * pte) - the cache-only replay keeps every region's PTEs in one array
 * indexed by page id, so a reference finds its PTE without a region
 * lookup (src/cachesim/cachesim.c). */
uint32_t mm_mmap_anon_ptes(struct mm *mm, struct aspace *as, uint64_t npages, uint32_t flags, pte_t *ptes);
/* The oracle: next-use position of every reference, when known (trace replay). */
void mm_set_oracle(struct mm *mm, const uint64_t *next_use, uint64_t n);
void mm_munmap(struct mm *mm, struct mm_ctx *ctx, struct aspace *as, uint32_t vma);
/* Tear down the whole address space (exit). */
void mm_aspace_exit(struct mm *mm, struct mm_ctx *ctx, struct aspace *as);

/* What a touch does to each page: reads it, writes it, or (a compare, then
 * a swap) reads it first and then writes it: with vm.anon_exclusive a
 * swapped-out page then comes back on a read fault, keeping its slot. */
enum touch_kind { TOUCH_READ, TOUCH_WRITE, TOUCH_LOAD_STORE };
/* References.  Process `n` pages of vma starting at `off`, `refs` references
 * each, until done or the chunk's time budget (ctx user+sys) is used up, or a
 * fault must block.  Returns the number of pages completed. */
uint64_t mm_touch(struct mm *mm, struct mm_ctx *ctx, struct aspace *as, uint32_t vma,
		  uint64_t off, uint64_t n, uint32_t refs, enum touch_kind kind,
		  uint64_t budget_ns, enum fault_status *st);
/* mlock()/munlock() a range: populates it (like mlock) and marks pages
 * PG_mlocked.  Returns pages completed like mm_touch. */
uint64_t mm_mlock(struct mm *mm, struct mm_ctx *ctx, struct aspace *as, uint32_t vma,
		  uint64_t off, uint64_t n, uint64_t budget_ns, enum fault_status *st);
void mm_munlock(struct mm *mm, struct mm_ctx *ctx, struct aspace *as, uint32_t vma);

/* __swapin_nr_pages() of mm/swap_state.c: the VMA swap readahead window
 * after a fault at page `off` of a VMA whose last swap fault was at
 * prev_off with a window of prev_win pages that earned `hits` (aspace.c). */
uint32_t swapin_nr_pages(uint64_t prev_off, uint64_t off, uint32_t hits, uint32_t max_pages,
			 uint32_t prev_win);
/* The hits a VMA's readahead (GET_SWAP_RA_VAL: "Initial readahead hits
 * is 4 to start up with a small window") and the global count
 * (swapin_readahead_hits = ATOMIC_INIT(4)) start with. */
#define SWAP_RA_INIT_HITS 4
/* swap_cluster_readahead()'s window (vm.swap_rotational): the slots
 * [*first, *last] of the aligned cluster of swapin_nr_pages() around
 * `target`, from sw's readahead hits since the last call (which it
 * resets), remembering the window and, when there were no hits, the
 * target as the previous fault.  Returns the window's size. */
uint32_t swap_cluster_ra_window(struct swap_area *sw, uint32_t target, uint32_t max_win,
				uint32_t *first, uint32_t *last);
/* swap_vma_ra_win(): the VMA readahead window of a fault at page `off`
 * of v, up to max_win pages: its size, and the pages [*lo, *hi) of v to
 * read (within v and the fault's page table), taking v's hits and
 * remembering the fault and the window (mm/swap_state.c, 6.18). */
uint32_t swap_vma_ra_window(struct vma *v, uint64_t off, uint32_t max_win, uint64_t *lo,
			    uint64_t *hi);

/* Make an mm the cache-only mm of src/cachesim: it must have been set up
 * untimed, with no watermarks, one zone and no memcg (panics otherwise),
 * which lets its allocator skip what cannot happen there (cacheonly.c). */
void mm_cache_only_enable(struct mm *mm);
/* A research policy's per-page records, for the replay's prefetches
 * (cache_mode.h: recs, rec_size; prev/next the offsets of a record's list
 * neighbours, 0 when hits move nothing). */
void mm_cache_records(struct mm *mm, void *const *recs, size_t rec_size);
void mm_cache_record_links(struct mm *mm, size_t prev, size_t next);
/* The policy's hit reads records by frame (cache_mode.h: frecs); with
 * no mm_cache_records() too, the replay keeps no record map. */
void mm_cache_frame_records(struct mm *mm, void *const *frecs, size_t frec_size);
/* A research policy's hit hook for the replay (cache_mode.h: hit), and
 * that it keeps its resident frames on no frame list (unlisted). */
void mm_cache_hit_hook(struct mm *mm, void (*hit)(void *priv, pfn_t pfn, uint32_t rec));
void mm_cache_unlisted(struct mm *mm);
/* mm->cache.only's fault is mm_cache_fault() (cacheonly.h), inline in the
 * cache-only replay's reference loop. */

/* Allocation with watermarks; may run direct reclaim in ctx. */
pfn_t mm_alloc_page(struct mm *mm, struct mm_ctx *ctx, enum fault_status *st);
bool mm_zone_ok(const struct mm *mm, int zone, uint64_t mark);
uint64_t mm_free_pages(const struct mm *mm);
/* Split the frames into n zones of pages[i] frames each (DMA, Normal,
 * HighMem...; the last takes whatever is left), in ascending frame order.
 * Only before the first allocation (a policy's init).  With one zone (the
 * default) nothing changes.  With several, allocations walk the zonelist
 * from the highest zone down with 2.4's cumulative watermarks, a failed
 * pass at `low` flags the classzone need_balance and wakes kswapd, and
 * kswapd balances flagged classzones (check_classzone_need_balance).  Each
 * zone's watermarks start as its share of the single-zone ones; the policy
 * may overwrite them. */
void mm_setup_zones(struct mm *mm, int n, const uint64_t *pages, const char *const *names);
/* kswapd may sleep: every zone is above its high watermark counting `extra`
 * pages about to be freed (one zone), or no flagged classzone still needs
 * balance (several: as 2.4's kswapd_balance_pgdat, a flagged classzone
 * gets one reclaim pass before it is checked; flags are cleared when extra
 * is 0). */
bool mm_kswapd_balanced(struct mm *mm, uint64_t extra);

/* nr_active_anon, nr_inactive_anon, nr_active_file, nr_inactive_file. */
void mm_lru_sizes(const struct mm *mm, struct lru_sizes *out);

/* --memcg: set the limit (pages) before the first allocation. */
void mm_memcg_init(struct mm *mm, uint64_t limit_pages, bool v1);

/* --cgroup: the tree (before the first allocation), freed by mm_destroy;
 * task runs in cgroup id cg (cgtree.h). */
void mm_cgtree_init(struct mm *mm, const struct cg_tree_conf *conf);
void mm_cgtree_free(struct mm *mm);
void mm_cgroup_attach(struct mm *mm, int task, int cg);
/* memory.high on the return to user space of the task of ctx (6.6
 * mem_cgroup_handle_over_high(), memcg_hooks.c): reclaims what its
 * charges over high call for and returns the penalty sleep it owes, in
 * ns (0: none; no tree: always 0). */
uint64_t mm_memcg_return_to_user(struct mm *mm, struct mm_ctx *ctx);
/* get_scan_count()'s apply_proportional_protection() for the lruvec
 * of the cgroup a tree's reclaim pass is shrinking (memcg_hooks.c): its
 * size less its protected share (at least SWAP_CLUSTER_MAX); the size
 * unchanged without a tree, protection or a pass. */
uint64_t mm_scan_protected(struct mm *mm, uint64_t lruvec_size);
/* memory.reclaim (memcg_reclaim.c): one write's state, kept by the
 * writer across its waits for writeback. */
struct memcg_reclaim {
	int cg, swappiness;             /* the cgroup; swappiness= (-1: none) */
	uint64_t nr_to_reclaim, done;   /* pages */
	unsigned nr_retries;
	bool short_try, woken;          /* woken: waited, try before waiting again */
};
#define MEMCG_RECLAIM_WAIT 1
void mm_memcg_reclaim_begin(struct memcg_reclaim *r, int cg, uint64_t nr_to_reclaim, int swappiness);
/* Reclaim for the task of ctx (a tree only): 0 when r->done reached
 * nr_to_reclaim, -EAGAIN when it could not, MEMCG_RECLAIM_WAIT when the
 * writer must wait for writeback and call again. */
int mm_memcg_reclaim(struct mm *mm, struct mm_ctx *ctx, struct memcg_reclaim *r);
/* get_scan_count()'s swappiness: memory.reclaim's swappiness= while one
 * runs (sc->proactive_swappiness), else own (the lruvec's). */
int mm_reclaim_swappiness(const struct mm *mm, int own);
/* memory.stat pgscan_proactive / pgsteal_proactive of cgroup cg, while
 * memory.reclaim runs. */
void cgtree_count_proactive(struct mm *mm, int cg, uint64_t scanned, uint64_t stolen);
void cgtree_swap_release(struct cgtree *t, uint32_t slot);

/* The policy instance whose lists hold pfn: under a cgroup tree and a
 * POLICY_MEMCG_LRU policy, the instance of the page's cgroup (its
 * lruvec, cgtree_lru.c); else the one instance. */
static inline void *mm_pol(const struct mm *mm, pfn_t pfn)
{
	if (mm->cgt && mm->cgt->per_cg)
		return mm->cgt->priv[mm->fr.pages[pfn].memcg];
	return mm->pol.priv;
}
/* evict_shadow() of the page's instance, the cgroup's id kept in the
 * shadow; refault() of the instance the shadow's cgroup names (6.6
 * workingset_eviction()/workingset_refault(): the memcg id in the
 * shadow entry finds the eviction lruvec). */
uint64_t mm_evict_shadow(struct mm *mm, pfn_t pfn);
void mm_refault(struct mm *mm, pfn_t pfn, uint64_t shadow);
/* A policy's page-table walk: is address space as in the lruvec of
 * instance priv (6.6 MGLRU's per-memcg mm_list)?  Always, without
 * per-cgroup instances. */
bool mm_pol_owns_aspace(const struct mm *mm, const void *priv, const struct aspace *as);

/* One reclaim pass: runs the policy's shrink() and accounts it. */
uint64_t mm_shrink(struct mm *mm, struct mm_ctx *ctx, uint64_t nr_to_reclaim, int priority);
/* One run of the policy's periodic thread (ops->tick), accounted to ctx
 * (pgscan_aging / pgsteal_aging: pagelab's names, the kernel has none). */
void mm_tick(struct mm *mm, struct mm_ctx *ctx);

/* --- Reclaim mechanics for policies ------------------------------------- */
/* The PTE of a page of the cache-only core (mm_cache_only_enable): every
 * page is anonymous, mapped by the one PTE its owner and index name, which
 * is mm->cache.ptes[page->swap] (mm_cache_fault). */
static inline pte_t *cache_pte(const struct mm *mm, const struct page *p)
{
	return &mm->cache.ptes[p->swap];
}

/* page_referenced() of the cache-only core: the full core's for an
 * anonymous page, less what a cache never has (every page anonymous and
 * mapped by one PTE, no swap token held, rmap costing no time).  Inline
 * in the policy: a clock hand calls it on every page it passes. */
static inline int cache_page_referenced(struct mm *mm, pfn_t pfn, uint32_t *vm_flags)
{
	const struct page *p = &mm->fr.pages[pfn];
	if (p->mapcount <= 0)
		return 0;
	pte_t *pte = cache_pte(mm, p);
	if (!(*pte & PTE_ACCESSED))
		return 0;
	*pte &= ~PTE_ACCESSED;
	if (vm_flags)
		*vm_flags |= mm->as[p->owner - 1]->vmas[ANON_INDEX_VMA(p->index)].flags;
	return 1;
}

/* mm_page_referenced() that also ORs into *vm_flags the flags of every VMA
 * whose PTE was young (2.6.31 page_referenced_one: "if (referenced)
 * *vm_flags |= vma->vm_flags"), e.g. VMA_EXEC. */
int mm_page_referenced_vmflags(struct mm *mm, pfn_t pfn, uint32_t *vm_flags);
/* Test-and-clear the accessed bit of every PTE mapping pfn (rmap walk).
 * Returns the number of young PTEs found. */
static inline int mm_page_referenced(struct mm *mm, pfn_t pfn)
{
	if (mm->cache.only)
		return cache_page_referenced(mm, pfn, NULL);
	return mm_page_referenced_vmflags(mm, pfn, NULL);
}
/* Like mm_page_referenced, without clearing (for inspection and tests). */
int mm_page_young(const struct mm *mm, pfn_t pfn);

enum evict_result {
	EVICT_FREED,      /* frame is free */
	EVICT_WRITEBACK,  /* dirty: write started; the core frees it when done */
	EVICT_BUSY,       /* locked or already under writeback */
	EVICT_MLOCKED,    /* mapped by an mlocked VMA: cannot go */
	EVICT_NOSWAP,     /* anonymous and the swap area is full, or refused
			   * by zswap with memory.zswap.writeback 0 */
};
/* Evict an isolated page (not on any list): unmap it everywhere, give it a
 * swap slot if anonymous, write it if dirty, free it.  On EVICT_BUSY,
 * EVICT_MLOCKED and EVICT_NOSWAP the page is untouched and still isolated:
 * the caller puts it back (or culls it with mm_cull_unevictable) - but for
 * zswap's refusal under memory.zswap.writeback=0 (reclaim.c zswap_first()),
 * which leaves it unmapped and dirty in the swap cache, to be activated as
 * the kernel's AOP_WRITEPAGE_ACTIVATE is. */
enum evict_result mm_evict(struct mm *mm, struct scan_control *sc, pfn_t pfn);
/* The cache-only core's eviction, inline for the policies (mm_cache_evict). */
#include "cachepage.h"
/* The kernel's shrink_page_list() body for one isolated page, for designs
 * that keep pages under writeback on their own lists:
 *   locked or under writeback      -> EVICT_BUSY (PG_reclaim set on writeback)
 *   mlocked                        -> EVICT_MLOCKED
 *   anonymous, no swap slot        -> add_to_swap(), EVICT_NOSWAP if full
 *   mapped                         -> try_to_unmap() every PTE
 *   dirty, refused by zswap, its
 *   memory.zswap.writeback 0       -> EVICT_NOSWAP (to be activated)
 *   dirty                          -> pageout(): writeback starts, PG_reclaim
 *                                     set, EVICT_WRITEBACK; the page stays
 *                                     isolated: the caller puts it back, and
 *                                     end_writeback() tells it when the
 *                                     write is done (rotate_reclaimable_page)
 *   clean                          -> removed from the swap/page cache
 *                                     (evict_shadow() asked for a shadow)
 *                                     and freed, EVICT_FREED.
 * sc->nr_reclaimed counts freed pages only. */
enum evict_result mm_reclaim_page(struct mm *mm, struct scan_control *sc, pfn_t pfn);
/* try_to_unmap() of a page-cache page before shrink_folio_list()'s dirty
 * test (6.x): every PTE mapping it is cleared and a dirty PTE moves to
 * PG_dirty, so the test sees writes made through a shared mapping.  Anon
 * pages are unmapped by mm_reclaim_page() once they have a swap slot. */
void mm_try_to_unmap_file(struct mm *mm, pfn_t pfn);
/* wakeup_flusher_threads(WB_REASON_VMSCAN): reclaim found a batch of
 * dirty file pages nobody is writing; the flusher writes every dirty page
 * (writeback.c). */
#define FLUSH_ALL_ASKED UINT64_MAX
void mm_wakeup_flusher_threads(struct mm *mm);
/* Move an isolated mlocked page to the core's unevictable list. */
void mm_cull_unevictable(struct mm *mm, pfn_t pfn);
/* A PTE's hardware dirty bit moved to a page-cache page (a policy's own
 * page-table walk): PG_dirty plus the dirty accounting the flusher and
 * --check rely on (nr_dirty, the inode's dirty bitmap). */
void set_page_dirty(struct mm *mm, pfn_t pfn);

/* A reclaim pass at a point where its lists are consistent (between
 * batches): let the I/O that the disk finished while the pass ran
 * complete now, as the kernel's completion interrupts do - on a fast
 * disk, pages the pass wrote are written, rotated to the inactive tail and
 * freed before it ends, instead of the pass finding nothing freeable and
 * writing ever more (docs/design.md, "I/O completes inside reclaim").
 * The reclaimer's clock is ctx's (NULL: mm->cur's) plus the scan cost of
 * sc's pages, which mm_shrink() charges only when the pass returns (sc may
 * be NULL).  No-op in trace mode or with vm.io_in_reclaim=0.  Returns the
 * number of disk requests completed. */
uint64_t mm_reclaim_io_catch_up(struct mm *mm, struct mm_ctx *ctx, const struct scan_control *sc);

/* Completion of an I/O the core queued through mm_io. */
void mm_io_done(struct mm *mm, enum io_dir dir, pfn_t pfn);
/* Charge ctx cost.io_submit for a page of I/O at `block` unless it joins
 * `run`, the request being built (NULL: a request of its own). */
void io_request(struct mm *mm, struct mm_ctx *ctx, struct io_run *run, uint64_t block);

/* --check: every frame free or on exactly one list, PTEs and rmap agree,
 * swap slot references match.  Prints problems to err; false on failure.
 * mm_check walks every swap slot; mm_check_step, the check between a
 * run's events, only those a PTE or a swap-cache page names, with the
 * area's totals (check_swap.c): a run ends with an mm_check. */
bool mm_check(struct mm *mm, FILE *err);
bool mm_check_step(struct mm *mm, FILE *err);

static inline struct page *mm_page(struct mm *mm, pfn_t pfn) { return &mm->fr.pages[pfn]; }
static inline int mm_nr_frames(const struct mm *mm) { return (int)mm->fr.nr; }
/* The list the frame of struct page p is on (LRU_NONE: none), for code
 * that holds the page rather than its frame number. */
static inline int mm_page_lru(const struct mm *mm, const struct page *p)
{
	return lru_on(&mm->fr, (pfn_t)(p - mm->fr.pages));
}

/* Hints from a policy about the pages its scan meets next (scan_ahead.h):
 * they start fetching into the host's cache what mm_page_referenced()
 * and eviction will read, and change nothing simulated.  (always_inline:
 * gcc finds a function that only prefetches pure and drops the calls.)
 *
 * mm_prefetch_page(): the frame's struct page (both host lines it may
 * straddle: at 48 bytes, one in four has its index in the next line) and
 * its LRU link, the scan's next step towards the head. */
__attribute__((always_inline)) static inline void mm_prefetch_page(const struct mm *mm, pfn_t pfn)
{
	const struct page *p = &mm->fr.pages[pfn];
	__builtin_prefetch(p);
	__builtin_prefetch((const char *)(p + 1) - 1);
	__builtin_prefetch(&mm->fr.links[pfn]);
}

/* mm_prefetch_pte(): the anonymous PTE that rmap finds through the
 * frame's struct page - which it reads, so that should be in the host's
 * cache already (mm_prefetch_page() some steps before). */
__attribute__((always_inline)) static inline void mm_prefetch_pte(const struct mm *mm, pfn_t pfn)
{
	const struct page *p = &mm->fr.pages[pfn];
	/* In a cache every page on a policy's list is anonymous and mapped
	 * by one PTE (cache_pte() finds it): no tests. */
	if (mm->cache.only) {
		__builtin_prefetch(cache_pte(mm, p));
		return;
	}
	if (!(p->flags & PG_anon) || !p->owner || p->mapcount <= 0)
		return;
	const struct aspace *as = mm->as[p->owner - 1];
	uint32_t vma = ANON_INDEX_VMA(p->index);
	if (vma < as->nr_vmas && as->vmas[vma].pte)
		__builtin_prefetch(&as->vmas[vma].pte[ANON_INDEX_OFF(p->index)]);
}

#endif
