/* profile.c - the machine presets and the --set parameter table.
 *
 * Sources of the values (estimates unless the thread states them):
 *  - RAM, CPUs and disk throughput the threads state are used as stated:
 *    P133 with 32 MB (thread 003), a 900 MB 2-way (thread 004), a PE1950
 *    with 8 cores, 16 GB and a RAID1 streaming 111 MB/s (thread 001), a
 *    4-way with 4 GB RAM + 2 GB swap (thread 002).
 *  - Disk seek/rotation from typical drives of the era (IDE 5400 rpm ~12 ms,
 *    SATA 7200 rpm ~8.5 ms, 15k SAS ~3.5 ms, NVMe ~80 us).
 *  - CPU-side costs from memory bandwidth (a page clear = 4 KiB at the
 *    era's memset bandwidth) and cycle counts of a trap and the fault path
 *    at the era's clock rate.  See docs/machines.md.
 *
 * Disk and cost presets are macros so that the profiles can embed them:
 * ISO C (and clang) does not take a const object as a constant initializer.
 */
#include "profile.h"
#include "../mm/compress_table.h"
#include "../lib/json.h"
#include "../lib/util.h"
#include "../lib/wrap.h"

#include <stddef.h>
#include <string.h>

#define KB 1024ULL
#define MB (1024ULL * 1024)
#define GB (1024ULL * 1024 * 1024)
#define US 1000ULL
#define MS 1000000ULL

#define PRESET_DISK_IDE_1997 { \
	.model = "ide-1997", .kind = DISK_ROTATING, .capacity = 2 * GB, \
	.bandwidth = 5 * MB, .seek_ns = 12 * MS, .track_seek_ns = 3 * MS, .rpm = 5400, \
	.queue_depth = 1, .max_request = 64 * KB, .plug_ns = 1 * MS, \
}
static const struct disk_params disk_ide_1997 = PRESET_DISK_IDE_1997;
#define PRESET_DISK_ATA_2001 { \
	.model = "ata-2001", .kind = DISK_ROTATING, .capacity = 40 * GB, \
	.bandwidth = 30 * MB, .seek_ns = 9 * MS, .track_seek_ns = 1 * MS, .rpm = 7200, \
	.queue_depth = 1, .max_request = 128 * KB, .plug_ns = 1 * MS, \
}
static const struct disk_params disk_ata_2001 = PRESET_DISK_ATA_2001;
#define PRESET_DISK_SCSI_2001 { \
	.model = "scsi-2001", .kind = DISK_ROTATING, .capacity = 36 * GB, \
	.bandwidth = 30 * MB, .seek_ns = 7 * MS, .track_seek_ns = 1 * MS, .rpm = 10000, \
	.queue_depth = 1, .max_request = 128 * KB, .plug_ns = 1 * MS, \
}
static const struct disk_params disk_scsi_2001 = PRESET_DISK_SCSI_2001;
#define PRESET_DISK_SATA_2008 { \
	.model = "sata-2008", .kind = DISK_ROTATING, .capacity = 250 * GB, \
	.bandwidth = 60 * MB, .seek_ns = 8500 * US, .track_seek_ns = 800 * US, .rpm = 7200, \
	.queue_depth = 1, .max_request = 512 * KB, .plug_ns = 1 * MS, \
}
static const struct disk_params disk_sata_2008 = PRESET_DISK_SATA_2008;
#define PRESET_DISK_RAID1_2008 { \
	.model = "raid1-2008", .kind = DISK_ROTATING, .capacity = 146 * GB, \
	.bandwidth = 111 * MB, .seek_ns = 3500 * US, .track_seek_ns = 400 * US, .rpm = 15000, \
	.queue_depth = 1, .max_request = 512 * KB, .plug_ns = 1 * MS, \
}
static const struct disk_params disk_raid1_2008 = PRESET_DISK_RAID1_2008;
#define PRESET_DISK_SSD { \
	.model = "ssd", .kind = DISK_SSD, .capacity = 512 * GB, \
	.bandwidth = 500 * MB, .latency_ns = 100 * US, .queue_depth = 32, \
	.max_request = 512 * KB, .plug_ns = 50 * US, \
}
static const struct disk_params disk_ssd = PRESET_DISK_SSD;
#define PRESET_DISK_NVME { \
	.model = "nvme", .kind = DISK_SSD, .capacity = 1024 * GB, \
	.bandwidth = 2500 * MB, .latency_ns = 80 * US, .queue_depth = 64, \
	.max_request = 512 * KB, .plug_ns = 20 * US, \
}
static const struct disk_params disk_nvme = PRESET_DISK_NVME;

const struct disk_params *const disk_presets[] = {
	&disk_ide_1997, &disk_ata_2001, &disk_scsi_2001, &disk_sata_2008,
	&disk_raid1_2008, &disk_ssd, &disk_nvme, NULL,
};

/* P133 with EDO RAM: ~80 MB/s memset, so a page clear ~50 us; a trap and
 * the fault path ~2000 cycles at 133 MHz. */
#define PRESET_COST_P133 { \
	.ref_ps = 100000, .fault_ns = 15 * US, .zero_page_ns = 50 * US, .copy_page_ns = 100 * US, \
	.scan_ns = 1 * US, .rmap_ns = 1 * US, .io_submit_ns = 30 * US, \
	.free_page_ns = 2 * US, .io_complete_ns = 30 * US, \
}
/* 700 MHz-1.2 GHz, PC133 SDRAM: ~700 MB/s memset. */
#define PRESET_COST_2001 { \
	.ref_ps = 12000, .fault_ns = 4 * US, .zero_page_ns = 6 * US, .copy_page_ns = 12 * US, \
	.scan_ns = 500, .rmap_ns = 400, .io_submit_ns = 10 * US, \
	.free_page_ns = 1 * US, .io_complete_ns = 20 * US, \
}
/* Core 2 era, DDR2: ~4 GB/s memset (1 us per page clear). */
#define PRESET_COST_2008 { \
	.ref_ps = 2000, .fault_ns = 1500, .zero_page_ns = 1000, .copy_page_ns = 1500, \
	.scan_ns = 200, .rmap_ns = 100, .io_submit_ns = 5 * US, \
	.free_page_ns = 250, .io_complete_ns = 10 * US, \
}
/* Current x86-64: ~15 GB/s memset. */
#define PRESET_COST_MODERN { \
	.ref_ps = 1000, .fault_ns = 700, .zero_page_ns = 270, .copy_page_ns = 400, \
	.scan_ns = 100, .rmap_ns = 60, .io_submit_ns = 2 * US, \
	.free_page_ns = 100, .io_complete_ns = 3 * US, \
}

static const struct profile p_p133 = {
	.name = "p133-1997", .description = "Pentium 133, 32 MB, IDE disk (thread 003, 2.1.63)",
	.cpus = 1, .ram = 32 * MB, .swap = 64 * MB, .kernel_base = 1 * MB, .page_struct = 48,
	.hz = 100, .quantum_ns = 200 * MS, .grain_ns = 200 * US, .ctx_switch_ns = 10 * US, .congestion_wait_ns = 100 * MS,
	.cost = PRESET_COST_P133, .disk = PRESET_DISK_IDE_1997,
	/* Zlatko gives the CPU and RAM only: the per-reference and fault
	 * costs, the disk and the kernel's own size are guesses. */
	.unknown = "cost.ref cost.fault disk.bandwidth disk.seek kernel_base",
};
static const struct profile p_athlon = {
	.name = "athlon-2001", .description = "1 CPU, 512 MB, ATA disk (thread 000's desktop, assumed)",
	.cpus = 1, .ram = 512 * MB, .swap = 1 * GB, .kernel_base = 2 * MB, .page_struct = 64,
	.hz = 100, .quantum_ns = 50 * MS, .grain_ns = 200 * US, .ctx_switch_ns = 5 * US, .congestion_wait_ns = 100 * MS,
	.cost = PRESET_COST_2001, .disk = PRESET_DISK_ATA_2001,
	/* Nothing of this machine is described. */
	.unknown = "cost.fault disk.bandwidth disk.seek kernel_base",
};
static const struct profile p_osdl = {
	.name = "osdl4way-2001", .description = "4-way, 4 GB RAM + 2 GB swap, SCSI (thread 002)",
	.cpus = 4, .ram = 4 * GB, .swap = 2 * GB, .kernel_base = 4 * MB, .page_struct = 64,
	.hz = 100, .quantum_ns = 50 * MS, .grain_ns = 200 * US, .ctx_switch_ns = 5 * US, .congestion_wait_ns = 100 * MS,
	.cost = PRESET_COST_2001, .disk = PRESET_DISK_SCSI_2001,
	/* Size, CPUs and swap are stated; its disks and CPU speed are not. */
	.unknown = "cost.fault disk.bandwidth disk.seek kernel_base",
};
static const struct profile p_vmm = {
	.name = "vmm-2008", .description = "Andrew Morton's 900 MB 2-way, one SATA disk (thread 004)",
	.cpus = 2, .ram = 900 * MB, .swap = 2 * GB, .kernel_base = 8 * MB, .page_struct = 56,
	.hz = 250, .quantum_ns = 10 * MS, .grain_ns = 200 * US, .ctx_switch_ns = 3 * US, .congestion_wait_ns = 100 * MS,
	.cost = PRESET_COST_2008, .disk = PRESET_DISK_SATA_2008,
	/* "900MB 2-way" is all akpm says: CPU, disk and whether it was a
	 * virtual machine are unknown. */
	.unknown = "cost.fault cost.zero_page disk.bandwidth disk.seek kernel_base",
};
static const struct profile p_pe1950 = {
	.name = "pe1950-2008", .description = "Dell PE1950: 8 cores, 16 GB, RAID1 at 111 MB/s (thread 001)",
	.cpus = 8, .ram = 16 * GB, .swap = 2 * GB, .kernel_base = 16 * MB, .page_struct = 56,
	.hz = 1000, .quantum_ns = 10 * MS, .grain_ns = 200 * US, .ctx_switch_ns = 2 * US, .congestion_wait_ns = 100 * MS,
	.cost = PRESET_COST_2008, .disk = PRESET_DISK_RAID1_2008,
	/* The RAID1's 111 MB/s streaming rate is stated (dd); its seeks, the
	 * CPUs' speed and the kernel's size are not. */
	.unknown = "cost.ref cost.fault disk.seek kernel_base",
};
static const struct profile p_modern = {
	.name = "modern", .description = "4 cores, 16 GB, NVMe SSD",
	.cpus = 4, .ram = 16 * GB, .swap = 8 * GB, .kernel_base = 32 * MB, .page_struct = 64,
	.hz = 1000, .quantum_ns = 3 * MS, .grain_ns = 200 * US, .ctx_switch_ns = 1500, .congestion_wait_ns = 100 * MS,
	.sched_eevdf = 1, /* a 6.6+ kernel's fair class */
	.cost = PRESET_COST_MODERN, .disk = PRESET_DISK_NVME,
};
static const struct profile p_ideal = {
	.name = "ideal", .description = "trace mode (a cache simulator): no timing, watermarks or reserve",
	.cpus = 1, .ram = 64 * MB, .swap = 4 * GB, .kernel_base = 0, .page_struct = 0,
	.hz = 100, .quantum_ns = 10 * MS, .grain_ns = 200 * US, .ctx_switch_ns = 0, .congestion_wait_ns = 100 * MS,
	.untimed = true, .disk = PRESET_DISK_NVME,
};

const struct profile *const profile_presets[] = {
	&p_p133, &p_athlon, &p_osdl, &p_vmm, &p_pe1950, &p_modern, &p_ideal, NULL,
};

const struct profile *profile_find(const char *name)
{
	for (int i = 0; profile_presets[i]; i++)
		if (!strcmp(profile_presets[i]->name, name))
			return profile_presets[i];
	return NULL;
}

const struct disk_params *disk_preset_find(const char *name)
{
	for (int i = 0; disk_presets[i]; i++)
		if (!strcmp(disk_presets[i]->model, name))
			return disk_presets[i];
	return NULL;
}

uint64_t profile_kernel_reserve(const struct profile *p)
{
	return p->kernel_base + (p->ram / PAGE_SIZE) * p->page_struct;
}

/* P_PS: a time held in picoseconds, given as a duration ("1ns", "0.56ns",
 * "560ps"): a current CPU's cost per memory reference is under a
 * nanosecond, and calibrating it needs the fraction. */
enum ptype { P_COUNT, P_SIZE, P_NS, P_PS, P_RATE, P_KIND, P_SYSCTL };

struct param {
	const char *name;
	enum ptype type;
	size_t off;
	uint64_t min, max;
	const char *help;
};

#define F(field) offsetof(struct profile, field)
static const struct param params[] = {
	{ "cpus", P_COUNT, F(cpus), 1, 1024, "number of CPUs" },
	{ "ram", P_SIZE, F(ram), 1, 1ULL << 46, "physical memory" },
	{ "swap", P_SIZE, F(swap), 0, 1ULL << 46, "swap space" },
	{ "zram", P_COUNT, F(zram), 0, 3, "swap device: 0 = disk, 1/2/3 = zram with lz4/lzo-rle/zstd (--swap zram:SIZE,algo=NAME; docs/zram.md)" },
	{ "zram.chain", P_COUNT, F(zram_chain), 0, 16, "zram: pages per zspage at most (CONFIG_ZSMALLOC_CHAIN_SIZE; 0 = 8, 6.3+; 4 before)" },
	{ "zram.trace_ratio", P_COUNT, F(zram_trace_ratio), 0, 100000, "zram: a trace's pages compress to 100/N of a page (N in %; 0 = incompressible)" },
	{ "zram.comp", P_PS, F(zram_comp_ps), 0, 1000000000ULL, "zram: compressing one byte (0 = what bench/compress measured for the algorithm, src/mm/compress_table.c)" },
	{ "zram.decomp", P_PS, F(zram_decomp_ps), 0, 1000000000ULL, "zram: decompressing one byte (0 = measured, as zram.comp)" },
	{ "zram.backing", P_SIZE, F(zram_backing), 0, 1ULL << 44, "zram: a backing device of this size for writeback (backing_dev; 0 = none; --swap zram:SIZE,backing=SIZE)" },
	{ "zram.wb_period", P_NS, F(zram_wb_period_ns), 0, 100000ULL * 1000000000ULL, "zram: the writer's period: each writes back (writeback_store()) then marks all idle, as Android's ZramWriteback (wb=)" },
	{ "zram.wb_mode", P_COUNT, F(zram_wb_mode), 0, 2, "zram: what the writer writes back: 0 = idle, 1 = huge, 2 = huge_idle (wb_mode=)" },
	{ "zram.wb_limit", P_COUNT, F(zram_wb_limit), 0, 1ULL << 40, "zram: writeback_limit in 4 KiB pages, enabled (0 = writeback_limit_enable off; wb_limit=)" },
	{ "zram.wb_age", P_NS, F(zram_wb_age_ns), 0, 100000ULL * 1000000000ULL, "zram: mark idle only slots not accessed for this long (echo AGE > idle; 0 = all; wb_age=)" },
	{ "zswap", P_COUNT, F(zswap), 0, 3, "zswap in front of disk swap: 0 = off, 1/2/3 = with lz4/lzo-rle/zstd (docs/zram.md; simulation only)" },
	{ "zswap.max_pool_percent", P_COUNT, F(zswap_max_pool), 0, 100, "zswap: the pool's limit, % of RAM (0 = 20)" },
	{ "zswap.accept_threshold_percent", P_COUNT, F(zswap_accept), 0, 100, "zswap: a full pool accepts again below this % of its limit (0 = 90)" },
	{ "zswap.shrinker", P_COUNT, F(zswap_shrinker), 0, 1, "zswap: 1 = the shrinker writes cold entries back under pressure (shrinker_enabled; 0, the default)" },
	{ "zswap.same_filled", P_COUNT, F(zswap_same_filled), 0, 1, "zswap: 1 = same-filled pages kept as a value (6.8-6.11); 0 = compressed (6.12+)" },
	{ "swap.cluster", P_COUNT, F(swap_cluster), 0, 2, "0 = next-fit slots from a cursor; 1 = 512-slot clusters as 6.18 (per CPU, one if vm.swap_rotational; free/nonfull/frag/full lists; swap cache of full clusters reclaimed when swap is full); 2 = per CPU on a rotational device too (no kernel's)" },
	{ "swap.discard", P_COUNT, F(swap_discard), 0, 1, "1 = swapon --discard=pages (SWP_PAGE_DISCARD, 6.18; needs swap.cluster): an emptied cluster is discarded (an SSD's request latency; zram at once) before it is free again, free clusters taken before nonfull; no effect on a rotating disk, which takes no discards; 0 = swapon's default" },
	{ "kernel_base", P_SIZE, F(kernel_base), 0, 1ULL << 40, "memory the kernel image and boot data take" },
	{ "page_struct", P_COUNT, F(page_struct), 0, 4096, "bytes of mem_map per page frame" },
	{ "min_free_kbytes", P_COUNT, F(min_free_kbytes), 0, 1ULL << 32, "/proc/sys/vm/min_free_kbytes (0 = kernel formula)" },
	{ "hz", P_COUNT, F(hz), 1, 100000, "timer interrupts per second" },
	{ "quantum", P_NS, F(quantum_ns), 1000, 10000000000ULL, "scheduler time slice" },
	{ "cpu_grain", P_NS, F(grain_ns), 1000, 10000000ULL, "interleaving grain: longest stretch of work one CPU runs before the others catch up (pagelab's execution model, docs/design.md)" },
	{ "sched_eevdf", P_COUNT, F(sched_eevdf), 0, 1, "1 = EEVDF (6.6+ fair class), 0 = round robin" },
	{ "sched_percpu", P_COUNT, F(sched_percpu), 0, 1, "1 = a run queue per CPU with wake-up placement and load balancing (2.6+), 0 = one queue" },
	{ "sched_busy_factor", P_COUNT, F(sched_busy_factor), 0, 1024, "sched_percpu: a busy CPU balances this many times less often (sd->busy_factor; 0 = 16)" },
	{ "sched_migration_cost", P_NS, F(sched_migration_cost_ns), 0, 1000000000ULL, "sched_percpu: a task that ran this recently is cache-hot (0 = 500us)" },
	{ "ctx_switch", P_NS, F(ctx_switch_ns), 0, 1000000000ULL, "context switch cost" },
	{ "congestion_wait", P_NS, F(congestion_wait_ns), 1000, 10000000000ULL, "congestion_wait() timeout" },
	{ "cost.ref", P_PS, F(cost.ref_ps), 0, 1000000000000ULL, "user time per memory reference (one word)" },
	{ "cost.fault", P_NS, F(cost.fault_ns), 0, 1000000000ULL, "page fault trap and handling" },
	{ "cost.zero_page", P_NS, F(cost.zero_page_ns), 0, 1000000000ULL, "clearing one page" },
	{ "cost.copy_page", P_NS, F(cost.copy_page_ns), 0, 1000000000ULL, "copying one page" },
	/* read() and write() copy a page between the page cache and a user
	 * buffer the task keeps using (copy_page_to_iter(),
	 * copy_page_from_iter()): one side of the copy is in the cache, where
	 * a COW fault's copy_mc_user_highpage() meets two pages it did not
	 * touch.  No preset or calibrated profile sets it: calibrate's
	 * copy_cpu, tried here, took the matrix further from the kernel
	 * (docs/cost.md, "A read's copy is not the microbenchmark's"). */
	{ "cost.copy_user", P_NS, F(cost.copy_user_ns), 0, 1000000000ULL, "copying one page between the page cache and a user buffer: read(), write() (0 = cost.copy_page)" },
	{ "cost.scan", P_NS, F(cost.scan_ns), 0, 1000000000ULL, "reclaim: one page scanned" },
	{ "cost.rmap", P_NS, F(cost.rmap_ns), 0, 1000000000ULL, "reclaim: one PTE visited through rmap" },
	{ "cost.io_submit", P_NS, F(cost.io_submit_ns), 0, 1000000000ULL, "building and queueing one I/O request: a contiguous run of up to 256 pages (6.x bios), a page in 2.2/2.4 (src/mm/io_request.c)" },
	{ "cost.free_page", P_NS, F(cost.free_page_ns), 0, 1000000000ULL, "unmapping and freeing a page at exit" },
	{ "cost.io_complete", P_NS, F(cost.io_complete_ns), 0, 1000000000ULL, "interrupt and completion of one request" },
	{ "cost.tlb_ipi", P_NS, F(cost.tlb_ipi_ns), 0, 1000000000ULL, "reclaim: a remote TLB flush before writing a mapped page, to the CPU that asks (0 = not modelled)" },
	{ "cost.tlb_ipi_recv", P_NS, F(cost.tlb_ipi_recv_ns), 0, 1000000000ULL, "... to the task on each other busy CPU it interrupts" },
	/* A row of reclaim's work no cost above is charged for (work.h,
	 * docs/cost.md): ns of system time per operation, 0 = not charged
	 * (every preset: a calibrated profile file sets the ones measured). */
#define W(row, name, help) { "cost." name, P_NS, F(cost.work_ns[W_##row]), 0, 1000000000ULL, help " (0 = not charged)" },
	W(LRU_LOCK, "lru_lock", "reclaim: one lruvec->lru_lock hold")
	W(ISOLATE_BATCHES, "isolate_batches", "reclaim: one isolation batch beyond its lock")
	W(PUTBACK_BATCHES, "putback_batches", "reclaim: one putback batch beyond its lock")
	W(MOVE_FOLIOS_TO_LRU, "move_folios_to_lru", "reclaim: one folio put back on an LRU list")
	W(FOLIO_REFERENCED, "folio_referenced", "reclaim: one folio_referenced() walk beyond its PTEs")
	W(ADD_TO_SWAP, "add_to_swap", "reclaim: one add_to_swap() (swap slot, swap cache, the memcg's swap charge)")
	W(READ_SWAP_CACHE, "read_swap_cache", "swap-in: one page read from a swap device beyond its fault and bio (the swap cache, the memcg's charge, the slot)")
	W(WRITE_BEGIN, "write_begin", "a page a write() creates in the page cache beyond its copy, dirtying and call (the folio allocated, charged, added)")
	W(PERFORM_WRITE, "generic_perform_write", "a page a write() copies, beyond its copy and what reading it costs (write_begin and write_end on the folio)")
	W(FOLIO_MARK_DIRTY, "folio_mark_dirty", "a clean file page made dirty (__folio_mark_dirty: the dirty counts, the xarray tag, the inode)")
	W(WRITE_ITER, "write_iter", "a buffered write() call's own work beyond cost.syscall, whatever its size (the inode lock, generic_write_checks, file_modified)")
	W(WRITE_ITER_DIRTIED, "write_iter_dirtied", "a write() call that made a clean page dirty, once a call")
	W(WRITE_ITER_EXTEND, "write_iter_extend", "a write() call that extended its file, once a call (i_size, the inode dirtied in a journal handle)")
	W(WRITEPAGES, "writepages", "a page ->writepages writes back (the flusher, fsync) beyond its share of the bio")
	W(REMOVE_MAPPING, "remove_mapping", "reclaim: a clean file page taken out of the page cache and freed (__remove_mapping, the free)")
	W(RELEASE_FOLIO, "filemap_release_folio", "reclaim: a file page's buffer heads freed before it leaves the page cache (try_to_free_buffers)")
	W(TRY_TO_UNMAP, "try_to_unmap", "reclaim: one try_to_unmap() walk beyond its PTEs")
	W(TLB_FLUSH_DIRTY, "try_to_unmap_flush_dirty", "reclaim: one try_to_unmap_flush_dirty() beyond its IPIs")
	W(INC_MAX_SEQ, "inc_max_seq", "MGLRU: one new generation")
	W(WALK_MM, "walk_mm", "MGLRU: one mm walked by the aging")
	W(WALK_PMD_FOUND, "walk_pmd_range", "MGLRU: one PTE table the walk entered")
	W(WALK_PMD_SKIPPED, "walk_pmd_range_skipped", "MGLRU: one PTE table the Bloom filter let it skip")
	W(LOOK_AROUND, "lru_gen_look_around", "MGLRU: one lru_gen_look_around() call beyond its PTEs")
	W(SWAP_OUT_PTES, "swap_out_ptes", "2.2/2.4: one PTE swap_out()'s walk read")
	W(TRY_TO_SWAP_OUT, "try_to_swap_out", "2.2/2.4: one present PTE try_to_swap_out() was handed")
#undef W
	/* A read()/write() call is a kernel entry and exit plus the VFS path
	 * down to the page cache: the same order of work as the trap and
	 * handling of a minor fault, so it defaults to cost.fault. */
	{ "cost.syscall", P_NS, F(cost.syscall_ns), 0, 1000000000ULL, "one read()/write() call beyond its page copies (0 = cost.fault)" },
#define X(name, def, lo, hi, help) { "vm." #name, P_SYSCTL, F(vm.name), lo, hi, help " (default: the policy's era, else " #def ")" },
	VM_SYSCTLS(X)
#undef X
	{ "disk.kind", P_KIND, F(disk.kind), 0, 1, "rotating or ssd" },
	{ "disk.capacity", P_SIZE, F(disk.capacity), 1ULL << 20, 1ULL << 50, "disk size" },
	{ "disk.bandwidth", P_RATE, F(disk.bandwidth), 1024, 1ULL << 40, "sequential transfer rate, bytes/s" },
	{ "disk.write_bandwidth", P_RATE, F(disk.write_bandwidth), 0, 1ULL << 40,
	  "the rate of writes, bytes/s (0: disk.bandwidth)" },
	{ "disk.seek", P_NS, F(disk.seek_ns), 0, 10000000000ULL, "average seek (rotating)" },
	{ "disk.track_seek", P_NS, F(disk.track_seek_ns), 0, 10000000000ULL, "track-to-track seek (rotating)" },
	{ "disk.rpm", P_COUNT, F(disk.rpm), 1, 1000000, "spindle speed (rotating)" },
	{ "disk.latency", P_NS, F(disk.latency_ns), 0, 10000000000ULL, "per-request latency (ssd)" },
	{ "disk.queue_depth", P_COUNT, F(disk.queue_depth), 1, 65536, "requests served at once (ssd)" },
	{ "disk.max_request", P_SIZE, F(disk.max_request), 4096, 1ULL << 30, "largest merged request" },
	{ "disk.plug", P_NS, F(disk.plug_ns), 0, 1000000000ULL, "queue plug delay for merging" },
};
#undef F

static const struct param *param_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(params); i++)
		if (!strcmp(params[i].name, name))
			return &params[i];
	return NULL;
}

bool profile_has_param(const char *name) { return param_find(name) != NULL; }

/* The writeback options of zram:SIZE,... and the parameters they set. */
static const char *const wb_opts[][2] = {
	{ "backing", "zram.backing" }, { "wb", "zram.wb_period" }, { "wb_mode", "zram.wb_mode" },
	{ "wb_limit", "zram.wb_limit" }, { "wb_age", "zram.wb_age" },
};

static int wb_opt(const char *kv)
{
	size_t kl = strcspn(kv, "=");
	for (int i = 0; i < (int)ARRAY_SIZE(wb_opts); i++)
		if (kv[kl] == '=' && strlen(wb_opts[i][0]) == kl && !strncmp(kv, wb_opts[i][0], kl))
			return i;
	return -1;
}

bool profile_zram_wb_opts(const char *value, zram_opt_fn fn, void *arg, char *err, size_t errlen)
{
	static const char *const modes[] = { "idle", "huge", "huge_idle" };
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", value);
	for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		int i = wb_opt(kv);
		if (i < 0)
			continue;  /* zram:SIZE, algo=: profile_zram_parse()'s */
		const char *v = kv + strlen(wb_opts[i][0]) + 1;
		if (i == 2) {  /* a mode by its writeback_store() name */
			int m = 0;
			while (m < 3 && strcmp(v, modes[m]))
				m++;
			if (m == 3) {
				snprintf(err, errlen, "zram: bad wb_mode '%s' (idle, huge or huge_idle; "
					 "incompressible needs recompression, not modelled)", v);
				return false;
			}
			v = m == 0 ? "0" : m == 1 ? "1" : "2";
		}
		if (!fn(arg, wb_opts[i][1], v, err, errlen))
			return false;
	}
	return true;
}

bool profile_zram_parse(const char *value, uint64_t *size, unsigned *zram, char *err, size_t errlen)
{
	if (strncmp(value, "zram:", 5)) {
		snprintf(err, errlen, "'%s' is not zram:SIZE[,algo=NAME][,backing=SIZE,wb=T,...]", value);
		return false;
	}
	char buf[256];
	snprintf(buf, sizeof(buf), "%s", value + 5);
	char *comma = strchr(buf, ',');
	enum zalgo a = ZALGO_LZ4;
	if (comma)
		*comma = 0;
	for (char *save = NULL, *kv = comma ? strtok_r(comma + 1, ",", &save) : NULL; kv;
	     kv = strtok_r(NULL, ",", &save)) {
		if (wb_opt(kv) >= 0)
			continue;
		if (strncmp(kv, "algo=", 5) || !zalgo_parse(kv + 5, &a)) {
			snprintf(err, errlen, "zram: bad option '%s' (algo=lz4, lzo-rle or zstd; backing=SIZE, "
				 "wb=T, wb_mode=, wb_limit=N, wb_age=T)", kv);
			return false;
		}
	}
	if (!parse_size(buf, size) || *size < 16 * PAGE_SIZE) {
		snprintf(err, errlen, "zram: bad size '%s' (at least 64K)", buf);
		return false;
	}
	*zram = 1 + (unsigned)a;
	return true;
}

/* The out-of-range message.  A time without a unit is seconds
 * (docs/machines.md), so cost.syscall=100 is 100 s: say so, and name the
 * unit the user most likely meant, rather than a range that 100 seems to
 * fit. */
static void range_error(const struct param *pp, const char *value, char *err, size_t errlen)
{
	const char *unit = pp->type == P_SIZE ? " bytes" : pp->type == P_NS ? " ns" : pp->type == P_PS ? " ps" : "";
	char last = value[strlen(value) - 1];
	if ((pp->type == P_NS || pp->type == P_PS) && ((last >= '0' && last <= '9') || last == '.'))
		snprintf(err, errlen, "%s=%s: no unit, so seconds: out of range (%llu..%llu%s); give one: %sns",
			 pp->name, value, (unsigned long long)pp->min, (unsigned long long)pp->max, unit, value);
	else
		snprintf(err, errlen, "%s=%s is out of range (%llu..%llu%s)", pp->name, value,
			 (unsigned long long)pp->min, (unsigned long long)pp->max, unit);
}

static bool set_cb(void *arg, const char *name, const char *value, char *err, size_t errlen)
{
	return profile_set(arg, name, value, err, errlen);
}

bool profile_set(struct profile *p, const char *name, const char *value, char *err, size_t errlen)
{
	if (!strcmp(name, "swap") && !strncmp(value, "zram:", 5)) {
		unsigned z;
		if (!profile_zram_parse(value, &p->swap, &z, err, errlen))
			return false;
		p->zram = z;
		return profile_zram_wb_opts(value, set_cb, p, err, errlen);
	}
	const struct param *pp = param_find(name);
	if (!pp) {
		snprintf(err, errlen, "unknown machine parameter '%s' (see pagelab machines --show NAME)", name);
		return false;
	}
	uint64_t v = 0;
	bool ok;
	switch (pp->type) {
	case P_COUNT: case P_SYSCTL: ok = parse_u64(value, &v); break;
	case P_SIZE: case P_RATE: ok = parse_size(value, &v); break;
	case P_NS: ok = parse_duration_ns(value, &v); break;
	case P_PS: ok = parse_duration_ps(value, &v); break;
	case P_KIND:
		ok = true;
		if (!strcmp(value, "rotating")) v = DISK_ROTATING;
		else if (!strcmp(value, "ssd")) v = DISK_SSD;
		else ok = false;
		break;
	default: ok = false;
	}
	if (!ok) {
		snprintf(err, errlen, "bad value '%s' for %s", value, name);
		return false;
	}
	if (v < pp->min || v > pp->max) {
		range_error(pp, value, err, errlen);
		return false;
	}
	char *base = (char *)p;
	if (pp->type == P_KIND)
		*(enum disk_kind *)(base + pp->off) = (enum disk_kind)v;
	else if (pp->type == P_SYSCTL) {
		*(uint64_t *)(base + pp->off) = v;
		p->vm_set |= 1ULL << ((pp->off - offsetof(struct profile, vm)) / sizeof(uint64_t));
	} else
		*(uint64_t *)(base + pp->off) = v;
	return true;
}

bool profile_get_u64(const struct profile *p, const char *name, uint64_t *v)
{
	const struct param *pp = param_find(name);
	if (!pp || pp->type == P_KIND || pp->type == P_SYSCTL)
		return false;
	*v = *(const uint64_t *)((const char *)p + pp->off);
	return true;
}

const char *profile_param_unit(const char *name)
{
	const struct param *pp = param_find(name);
	if (!pp || pp->type == P_KIND || pp->type == P_SYSCTL)
		return NULL;
	return pp->type == P_NS ? "ns" : pp->type == P_PS ? "ps" : pp->type == P_SIZE ? "bytes" : pp->type == P_RATE ? "bytes/s" : "";
}

bool profile_set_u64(struct profile *p, const char *name, uint64_t v)
{
	const struct param *pp = param_find(name);
	if (!pp || pp->type == P_KIND || pp->type == P_SYSCTL)
		return false;
	*(uint64_t *)((char *)p + pp->off) = v < pp->min ? pp->min : v > pp->max ? pp->max : v;
	return true;
}

const char *profile_param(const struct profile *p, int i, char *buf, size_t len)
{
	if (i < 0 || (size_t)i >= ARRAY_SIZE(params))
		return NULL;
	const struct param *pp = &params[i];
	const char *base = (const char *)p;
	if (pp->type == P_SYSCTL && !(p->vm_set & (1ULL << ((pp->off - offsetof(struct profile, vm)) / sizeof(uint64_t))))) {
		snprintf(buf, len, "default");
	} else if (pp->type == P_KIND) {
		snprintf(buf, len, "%s", *(const enum disk_kind *)(base + pp->off) == DISK_SSD ? "ssd" : "rotating");
	} else {
		uint64_t v = *(const uint64_t *)(base + pp->off);
		switch (pp->type) {
		case P_SIZE:
			if (v && v % (1ULL << 30) == 0) snprintf(buf, len, "%lluG", (unsigned long long)(v >> 30));
			else if (v && v % (1ULL << 20) == 0) snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
			else if (v && v % 1024 == 0) snprintf(buf, len, "%lluK", (unsigned long long)(v >> 10));
			else snprintf(buf, len, "%llu", (unsigned long long)v);
			break;
		case P_RATE: /* 0 is a rate's "unset" (disk.write_bandwidth): as such */
			snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
			if (!v || v % (1ULL << 20)) snprintf(buf, len, "%llu", (unsigned long long)v);
			break;
		case P_NS:
			if (v && v % 1000000 == 0) snprintf(buf, len, "%llums", (unsigned long long)(v / 1000000));
			else if (v && v % 1000 == 0) snprintf(buf, len, "%lluus", (unsigned long long)(v / 1000));
			else snprintf(buf, len, "%lluns", (unsigned long long)v);
			break;
		case P_PS:
			if (v % 1000 == 0) snprintf(buf, len, "%lluns", (unsigned long long)(v / 1000));
			else snprintf(buf, len, "%llups", (unsigned long long)v);
			break;
		default:
			snprintf(buf, len, "%llu", (unsigned long long)v);
		}
	}
	return pp->name;
}

void profile_json(const struct profile *p, FILE *out)
{
	char buf[64];
	const char *name;
	fputc('{', out);
	for (int i = 0; (name = profile_param(p, i, buf, sizeof(buf))); i++) {
		fputs(i ? ", " : "", out);
		json_str(out, name);
		fputs(": ", out);
		json_str(out, buf);
	}
	fputc('}', out);
}

void profile_print(const struct profile *p, FILE *out)
{
	fprintf(out, "# %s: %s\n", p->name, p->description);
	fprintf(out, "# %-18s %-10s # %s\n", "PARAMETER", "VALUE", "MEANING");
	fprintf(out, "# disk model %s; kernel reserve %llu KiB\n", p->disk.model,
		(unsigned long long)(profile_kernel_reserve(p) / 1024));
	if (p->unknown) {
		char line[300];
		snprintf(line, sizeof(line), "# unknown (reproduce --calibrate fits them): %s", p->unknown);
		wrap_row(out, "", 0, line, "#   ", WRAP_WIDTH);
	}
	char buf[64];
	const char *name;
	for (int i = 0; (name = profile_param(p, i, buf, sizeof(buf))); i++) {
		char left[96];
		snprintf(left, sizeof(left), "%-20s %-10s", name, buf);
		char help[256];
		snprintf(help, sizeof(help), "# %s", params[i].help);
		wrap_row(out, left, 32, help, "# ", WRAP_WIDTH);
	}
}
