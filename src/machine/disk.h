/* disk.h - a disk with a request queue: plugging and merging of adjacent
 * requests, a deadline/C-LOOK elevator for rotating disks (seek + rotation +
 * transfer) and a FIFO with parallel service for SSD/NVMe (latency +
 * bandwidth + queue depth).  Blocks are 4 KiB pages. */
#ifndef PAGELAB_DISK_H
#define PAGELAB_DISK_H

#include <stdint.h>
#include "profile.h"
#include "event.h"

struct disk_bio {
	uint64_t block;
	uint64_t cookie;        /* returned on completion (the frame) */
	struct disk_bio *next;
};

struct disk_req {
	uint64_t id;
	uint64_t block;
	uint32_t npages;
	enum io_dir dir;
	uint64_t arrival;
	uint64_t done;          /* in service: when it completes */
	struct disk_bio *head, *tail;
	struct disk_req *next;
	/* While queued: chained in the merge index by first block and by
	 * the block after the last (disk.c). */
	struct disk_req *by_start_next, *by_end_next;
};

typedef void (*disk_complete_fn)(void *arg, enum io_dir dir, struct disk_bio *bios, uint64_t now);

struct disk {
	struct disk_params p;
	struct evq *q;
	uint32_t id;
	disk_complete_fn complete;
	void *arg;
	struct disk_req *queue;      /* waiting, in arrival order */
	struct disk_req *queue_last;
	/* The merge index: the queued requests hashed by their first block
	 * and by the block after their last, so that a submit finds the
	 * requests it may join without walking the queue (thousands of
	 * requests deep while writeback floods a slow disk). */
	struct disk_req **by_start, **by_end;
	uint64_t nr_buckets;
	struct disk_req *inflight;   /* in service */
	struct disk_req *last_merge;
	uint64_t nr_queued, nr_inflight;
	uint64_t head_pos;           /* block after the last one transferred */
	uint64_t pipe_free;          /* SSD: when the data path is free */
	uint64_t next_id;
	int dispatch_pending;
	uint64_t dispatch_at;        /* when the pending dispatch runs */
	uint64_t dispatch_gen;       /* token of the live EV_DISK_DISPATCH */
	uint64_t nr_early;           /* completions run by disk_run_until():
				      * their EV_DISK_DONE events are stale */
	struct disk_bio *free_bios;
	struct disk_req *free_reqs;
	/* statistics */
	uint64_t nr_requests, pages_read, pages_written, busy_ns, completions;
	uint64_t discards;           /* discard requests served */
};

void disk_init(struct disk *d, const struct disk_params *p, struct evq *q, uint32_t id,
	       disk_complete_fn fn, void *arg);
void disk_free(struct disk *d);
/* Queue one page of I/O at block, arriving at time t. */
void disk_submit(struct disk *d, enum io_dir dir, uint64_t block, uint64_t cookie, uint64_t t);
/* Queue a discard of npages blocks from block (one request, never
 * merged), arriving at time t; cookie comes back on completion. */
void disk_submit_discard(struct disk *d, uint64_t block, uint32_t npages, uint64_t cookie, uint64_t t);
/* Handle EV_DISK_DISPATCH / EV_DISK_DONE for this disk. */
void disk_event(struct disk *d, enum ev_kind kind, uint64_t now, uint64_t token);
/* Run, in time order, the dispatches and completions due by `now` ahead
 * of their events (which become stale and are dropped when popped): the
 * interrupts a long reclaim pass on some CPU would have taken while it ran
 * (mm_io.catch_up).  Returns the number of requests completed. */
uint64_t disk_run_until(struct disk *d, uint64_t now);
/* Time to service a request of npages at block, with the head where it is
 * (rotating model; exposed for tests). */
uint64_t disk_service_ns(const struct disk *d, enum io_dir dir, uint64_t block, uint32_t npages);

#endif
