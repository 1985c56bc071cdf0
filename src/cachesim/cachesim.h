/* cachesim.h - the cache-only replay: a policy as a cache of `frames`
 * pages over a stream of references, for --machine ideal (`pagelab run`
 * takes it by itself; docs/trace-format.md says when) and for whoever
 * simulates many caches over one trace (pagelab mrc).
 *
 * It runs the policy's own code, the same policy_ops, on the mm core in
 * its cache-only mode (src/mm/cacheonly.c): frames, one address space's
 * page tables for the trace's pages (PTE accessed/dirty bits set as the
 * MMU does, so clock's mm_page_referenced() works unchanged), the
 * allocator and its direct reclaim - but no machine around it: no time
 * model, no tasks or events, no disk, no swap area.  A reference is a
 * page-table lookup and a bit set (plus the policy's access() hook when
 * it has one); a miss is a fault served at once.  Fault counts are the
 * full path's, reference for reference (tests/cli.d/fastpath.sh).
 *
 * Pages are dense ids 0, 1, 2 ... numbered in order of first reference
 * (a binary trace's ids, or the replay's numbering of (pid, page) pairs);
 * they live in regions of 1024, 1024, 2048, 4096... pages mapped as ids
 * reach them, as the full path's trace workload maps its data memory. */
#ifndef PAGELAB_CACHESIM_H
#define PAGELAB_CACHESIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../mm/mm.h"
#include "../trace/trace_reader.h"

/* A policy the cache-only replay can run: one that evicts only through
 * mm_evict() (textbook.h, research.h) and keeps no shadow entries, no
 * periodic thread and no swap token (POLICY_CACHE). */
bool cachesim_policy_ok(const struct policy_ops *ops);

struct cachesim;

/* A cache of `frames` frames run by ops with tunables tun (NULL: the
 * defaults).  OPT (POLICY_NEEDS_ORACLE) needs cachesim_set_next_use()
 * before every batch of references. */
struct cachesim *cachesim_new(const struct policy_ops *ops, const double *tun, uint64_t frames);
void cachesim_free(struct cachesim *cs);

/* Room for the page table of ids below `pages` made at once, for a
 * caller that knows how many the trace names (a binary trace's header):
 * the one array of PTEs (cachesim.c) is not grown and copied as ids
 * reach new regions.  Nothing simulated changes; regions are still
 * mapped as ids reach them. */
void cachesim_reserve(struct cachesim *cs, uint64_t pages);
/* n references: pages[i] (dense id), written if writes && writes[i]. */
void cachesim_refs(struct cachesim *cs, const uint32_t *pages, const uint8_t *writes, size_t n);
/* cachesim_refs() of ids the caller knows are all below `bound` (a
 * binary trace's page count, which its reader enforces): the batch is
 * not searched for its largest id.  An id at or past bound is a bug of
 * the caller's (memory past the page table). */
void cachesim_refs_below(struct cachesim *cs, const uint32_t *pages, const uint8_t *writes, size_t n, uint64_t bound);
/* n records of the binary format where the reader holds them
 * (trace_view_dense(): 8 bytes each, a u32 page below `bound`, a u32 meta
 * word whose bit 0 is the write, host order = the format's little-endian),
 * with the order of first references checked as they are replayed: the
 * first reference to a page (a PTE never set) must name page
 * cachesim_pages().  Returns how many were replayed: n, or the index of
 * the first that did not (its page in *page), which was not made - the
 * caller reports it (trace_view_misordered()). */
size_t cachesim_recs_below(struct cachesim *cs, const uint8_t *recs, size_t n, uint64_t bound, uint32_t *page);
/* Distinct pages referenced so far (ids below it have been). */
uint64_t cachesim_pages(const struct cachesim *cs);
/* OPT's oracle for references first .. first + n - 1 (counted from 0 over
 * the whole stream): next[i] is the position of the next reference to the
 * same page, NEXT_USE_NEVER (workload.h) if none.  The array must stay
 * valid until the next call; the references given must lie inside it. */
void cachesim_set_next_use(struct cachesim *cs, const uint64_t *next, uint64_t first, uint64_t n);

struct cachesim_stats {
	uint64_t refs;          /* references replayed */
	uint64_t misses;        /* faults: first references + major faults */
	uint64_t major;         /* misses of pages that had been evicted */
	uint64_t evictions;
	uint64_t writebacks;    /* evictions of pages written since they came in
				 * (or never stored): what a write-back cache writes */
	uint64_t pages;         /* distinct pages seen */
	size_t host_bytes;      /* frames, page tables, record map (not the
				 * policy's own tables) */
};
void cachesim_stats(const struct cachesim *cs, struct cachesim_stats *st);
/* The least host memory a cache of `frames` frames run by ops holds by
 * the end of a trace of `pages` distinct pages: its struct, frames, page
 * tables and (a research policy but sieve and lfu) record map:
 * cachesim_stats' host_bytes, before the policy's own tables, for
 * whoever must know before building many (pagelab mrc in lockstep). */
uint64_t cachesim_host_bytes_min(const struct policy_ops *ops, uint64_t frames, uint64_t pages);
/* The mm core of the cache, for its /proc/vmstat counters and gauges. */
const struct mm *cachesim_mm(const struct cachesim *cs);

/* Replay a whole trace file (any format trace_reader.h reads) through a
 * cache: what `pagelab run --machine ideal ... trace FILE` does when it
 * takes the cache-only path.  OPT's next uses come from a backward pass
 * over a binary copy of the trace (nextuse.h), never from the trace in
 * memory.  progress: a line on stderr now and then.  A SIGINT or SIGTERM
 * caught by output_catch_interrupts() stops it between batches (true,
 * tr->interrupted set).  false with one line
 * "FILE:RECORD: reason" (or why the trace cannot be read) in err. */
struct cachesim_trace {
	uint64_t refs, pages;   /* as the full path's "trace:" line counts them */
	size_t host_bytes;      /* what the replay held at most besides the cache:
				 * reader, page numbering, next uses */
	int interrupted;        /* stopped by this signal (output_catch_interrupts) */
};
bool cachesim_replay(struct cachesim *cs, const char *path, const struct trace_opts *o, bool progress,
		     struct cachesim_trace *tr, char *err, size_t errlen);
/* The same with warm-up and windows (marks.h; mk's warmup and window set
 * by the caller, the misses filled in), or mk NULL. */
struct marks;
bool cachesim_replay_marked(struct cachesim *cs, const char *path, const struct trace_opts *o, bool progress,
			    struct marks *mk, struct cachesim_trace *tr, char *err, size_t errlen);

#endif
