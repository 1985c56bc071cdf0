/* zramstat.c - `--swap zram`: the device's /sys/block/zram0/mm_stat and
 * io_stat, field by field in the kernel's order (6.18
 * drivers/block/zram/zram_drv.c mm_stat_show(), io_stat_show();
 * Documentation/admin-guide/blockdev/zram.rst), as mm_stat.NAME and
 * io_stat.NAME.  pages_compacted: the pages zsmalloc's shrinker freed
 * by compaction (zs_shrink.c; global reclaim only).  fullest: the first
 * five of mm_stat when the device held the most pages (zram.h), as
 * `pagelab kernel` reads a host's.  With backing= (zram_wb.c) bd_stat:
 * bd_count, bd_reads, bd_writes, in 4 KiB pages. */
#include "report.h"
#include "../mm/zram.h"
#include "../mm/zram_wb.h"
#include "../lib/util.h"

size_t report_zram_stats(const struct machine *m, struct memstat *st, bool fullest)
{
	const struct zram *z = m->mm.swap.zram;
	const struct zram_stats *s = &z->st;
	size_t n = 0;
#define S(nm, v) st[n++] = (struct memstat){ nm, v }
	S("mm_stat.orig_data_size", (fullest ? s->full_stored : s->pages_stored) * PAGE_SIZE);
	S("mm_stat.compr_data_size", fullest ? s->full_compr : s->compr_data_size);
	S("mm_stat.mem_used_total", fullest ? s->full_mem_used * PAGE_SIZE : zram_mem_used(z));
	S("mm_stat.mem_limit", z->mem_limit * PAGE_SIZE);
	S("mm_stat.mem_used_max", s->mem_used_max * PAGE_SIZE);
	S("mm_stat.same_pages", fullest ? s->full_same : s->same_pages);
	S("mm_stat.pages_compacted", s->pages_compacted);
	S("mm_stat.huge_pages", fullest ? s->full_huge : s->huge_pages);
	S("mm_stat.huge_pages_since", s->huge_pages_since);
	S("io_stat.failed_reads", s->failed_reads);
	S("io_stat.failed_writes", s->failed_writes);
	S("io_stat.invalid_io", s->invalid_io);
	S("io_stat.notify_free", s->notify_free);
	if (z->wb) {
		/* bd_stat_show(): FOUR_K() of each, 4 KiB pages here */
		S("bd_stat.bd_count", z->wb->bd_count);
		S("bd_stat.bd_reads", z->wb->bd_reads);
		S("bd_stat.bd_writes", z->wb->bd_writes);
	}
#undef S
	return n;
}

void report_zram_text(const struct run_result *rr, FILE *out)
{
	report_memstat_text("/sys/block/zram0 (--swap zram)", rr->zram, rr->nr_zram, out);
}

void report_zram_json(const struct run_result *rr, FILE *out)
{
	report_memstat_json(",\n  \"zram\": {", rr->zram, rr->nr_zram, out);
}
