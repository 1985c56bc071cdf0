/* profile.h - machine profiles: named presets holding every hardware and
 * cost parameter, each overridable with --set NAME=VALUE.  Values describe
 * hardware (spec sheets, the threads' statements about their machines),
 * never the benchmark results pagelab tries to reproduce; see
 * docs/machines.md for where each comes from. */
#ifndef PAGELAB_PROFILE_H
#define PAGELAB_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "../mm/mm.h"

enum disk_kind { DISK_ROTATING, DISK_SSD };

struct disk_params {
	const char *model;
	enum disk_kind kind;
	uint64_t capacity;        /* bytes */
	uint64_t bandwidth;       /* sequential bytes per second */
	uint64_t write_bandwidth; /* the same for writes; 0: bandwidth */
	uint64_t seek_ns;         /* average seek (rotating) */
	uint64_t track_seek_ns;   /* track-to-track seek (rotating) */
	uint64_t rpm;             /* rotating */
	uint64_t latency_ns;      /* per-request latency (SSD/NVMe) */
	uint64_t queue_depth;     /* requests in service at once (SSD/NVMe) */
	uint64_t max_request;     /* bytes: largest merged request */
	uint64_t plug_ns;         /* queue plugging: wait this long for merges */
};

struct profile {
	const char *name;
	const char *description;
	uint64_t cpus;
	uint64_t ram;             /* bytes of physical memory */
	uint64_t swap;            /* bytes of swap */
	uint64_t kernel_base;     /* bytes the kernel image and boot data take */
	uint64_t page_struct;     /* bytes of mem_map per page (sizeof struct page) */
	uint64_t min_free_kbytes; /* 0 = 2.6 formula, sqrt(16 * lowmem kB) */
	uint64_t hz;              /* timer interrupts per second */
	uint64_t quantum_ns;      /* scheduler time slice */
	uint64_t grain_ns;        /* longest stretch one CPU runs between the others' events */
	uint64_t ctx_switch_ns;
	uint64_t sched_eevdf;     /* 1 = 6.6+'s EEVDF run queue (sched.c); 0 = round robin */
	uint64_t sched_percpu;    /* 1 = a run queue per CPU, balanced (sched_balance.c) */
	uint64_t sched_busy_factor;      /* sd->busy_factor (0 = 16) */
	uint64_t sched_migration_cost_ns; /* sysctl_sched_migration_cost (0 = 500 us) */
	uint64_t congestion_wait_ns; /* congestion_wait() timeout (HZ/10) */
	bool untimed;             /* trace mode: no timing, no watermarks, no kswapd */
	/* --swap zram:SIZE[,algo=NAME] (docs/zram.md): 1 + enum zalgo, 0 =
	 * a disk swap area; its zspage chain (0 = 8), a trace's pages'
	 * compression ratio in % (0 = incompressible), and the CPU per byte
	 * of compressing and decompressing (0 = bench/compress's measure) */
	uint64_t zram, zram_chain, zram_trace_ratio;
	uint64_t zram_comp_ps, zram_decomp_ps;
	/* zram's backing device (--swap zram:SIZE,backing=SIZE,wb=T...;
	 * docs/zram.md): its bytes (0: none), the writer's period, mode
	 * (0 idle, 1 huge, 2 huge_idle), writeback_limit in 4 KiB pages
	 * (0: not enabled) and idle age (0: echo all > idle) */
	uint64_t zram_backing, zram_wb_period_ns, zram_wb_mode, zram_wb_limit, zram_wb_age_ns;
	/* --set zswap=1 (docs/zram.md): zswap in front of the disk swap
	 * area, its limits in % (0 = the kernel's 20 and 90), the shrinker
	 * and 6.8-6.11's same-filled pages (both 0: the kernel's default) */
	uint64_t zswap, zswap_max_pool, zswap_accept, zswap_shrinker, zswap_same_filled;
	uint64_t swap_cluster;    /* 1: 6.18's cluster slot allocator, 2: per-CPU always */
	uint64_t swap_discard;    /* 1: swapon --discard=pages (SWP_PAGE_DISCARD) */
	struct mm_costs cost;
	struct disk_params disk;
	struct vm_sysctl vm;      /* --set vm.NAME=VALUE overrides ... */
	uint64_t vm_set;          /* ... for the fields whose bit is set here */
	/* The parameters the thread does not state and this profile only
	 * estimates (space-separated names): what `reproduce --calibrate` may
	 * fit to the baseline design's published figures (docs/machines.md).
	 * NULL: none. */
	const char *unknown;
};

/* NULL-terminated list of presets. */
extern const struct profile *const profile_presets[];
const struct profile *profile_find(const char *name);
/* Disk presets for --disk. */
const struct disk_params *disk_preset_find(const char *name);
extern const struct disk_params *const disk_presets[];

/* Set a parameter by name ("ram", "cost.fault_ns", "disk.bandwidth", ...).
 * Returns false with a message in err if the name or value is bad. */
bool profile_set(struct profile *p, const char *name, const char *value, char *err, size_t errlen);
bool profile_has_param(const char *name);
/* A numeric parameter's value (sizes in bytes, times in ns), or false if
 * the name is not a numeric parameter. */
bool profile_get_u64(const struct profile *p, const char *name, uint64_t *v);
/* Set a numeric parameter, clamped to its range; false if the name is not
 * a numeric parameter. */
bool profile_set_u64(struct profile *p, const char *name, uint64_t v);
/* The unit of a numeric parameter's value: "ns", "bytes", "bytes/s" or
 * "" (a count); NULL if the name is not a numeric parameter. */
const char *profile_param_unit(const char *name);
/* Print every parameter as "name = value  # help". */
void profile_print(const struct profile *p, FILE *out);
/* Parameter I of P: its name (NULL past the last) and, in buf, its value
 * as `machines --show` prints it ("900M", "8ms", "default"). */
const char *profile_param(const struct profile *p, int i, char *buf, size_t len);
/* Every parameter as one JSON object, {"NAME": "VALUE", ...}, in the
 * order and spelling of profile_param (what --json records everywhere). */
void profile_json(const struct profile *p, FILE *out);

/* --swap zram:SIZE[,algo=lz4|lzo-rle|zstd]: the size and 1 + the
 * algorithm (lz4 by default, zram's CONFIG_ZRAM_DEF_COMP); false with a
 * message in err if VALUE is not of that form. */
bool profile_zram_parse(const char *value, uint64_t *size, unsigned *zram, char *err, size_t errlen);
/* The writeback options of value after zram:SIZE (backing=, wb=,
 * wb_mode=, wb_limit=, wb_age=) as the --set parameters they stand for:
 * fn(arg, NAME, VALUE) for each (zram.backing, zram.wb_period, ...);
 * false with one line in err. */
typedef bool (*zram_opt_fn)(void *arg, const char *name, const char *value, char *err, size_t errlen);
bool profile_zram_wb_opts(const char *value, zram_opt_fn fn, void *arg, char *err, size_t errlen);

/* Frames the kernel keeps for itself: kernel_base + mem_map. */
uint64_t profile_kernel_reserve(const struct profile *p);

#endif
