/* node_stat.h - the node's page counts (struct mm's `stat`): what the
 * kernel keeps as node_stat_item and zone_stat_item (include/linux/
 * mmzone.h, mm/vmstat.c of 6.x: NR_FREE_PAGES, NR_FILE_PAGES,
 * NR_FILE_DIRTY, NR_WRITEBACK, NR_MLOCK, NR_FILE_MAPPED, NR_ANON_MAPPED,
 * NR_DIRTIED) and a few of pagelab's own.  Gauges, unlike the event
 * counters of counters.h: the mm core raises and lowers them as pages
 * change state; reports and the designs' balancing heuristics read them. */
#ifndef PAGELAB_NODE_STAT_H
#define PAGELAB_NODE_STAT_H

#include <stdint.h>

struct mm_node_stat {
	uint64_t nr_free;         /* free frames (NR_FREE_PAGES) */
	uint64_t nr_anon;         /* every PG_anon frame */
	uint64_t nr_writeback;    /* pages under writeback (NR_WRITEBACK) */
	uint64_t nr_reading;      /* pages being read in */
	uint64_t nr_mlock;        /* mlocked pages (NR_MLOCK) */
	uint64_t nr_pending_free; /* under writeback with PG_reclaim: free soon */
	uint64_t nr_file;         /* pages in the page cache (NR_FILE_PAGES) */
	uint64_t nr_dirty;        /* dirty page-cache pages (NR_FILE_DIRTY) */
	uint64_t nr_dirtied;      /* pages write() made dirty (NR_DIRTIED) */
	/* rmap gauges, changed on a page's first map and last unmap
	 * (page_add_*_rmap / page_remove_rmap): NR_FILE_MAPPED, and
	 * NR_ANON_PAGES as 2.6 counts it (mapped anonymous pages; an
	 * unmapped swap-cache page is not one). */
	uint64_t nr_file_mapped;
	uint64_t nr_anon_mapped;
};

#endif
