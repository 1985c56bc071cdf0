/* disk.c - see disk.h.
 *
 * Rotating: a request that starts where the previous one ended needs no
 * positioning; any other pays a seek growing with the square root of the
 * distance (track-to-track for the shortest, scaled so that random requests
 * average the drive's rated seek) plus half a revolution.  The elevator is
 * C-LOOK (ascending block order, wrapping round) with deadline expiry so
 * that a read never waits more than 500 ms, a write 5 s (deadline-iosched).
 * SSD/NVMe: each request costs a fixed latency, and its transfer goes
 * through one data path at the rated bandwidth; up to queue_depth requests
 * are in service at once.  A discard (swap.discard) carries no data: it
 * costs the SSD's per-request latency and no transfer.  Writes move at
 * disk.write_bandwidth where it is set: a device (or a virtual disk on
 * its host's file) can write more slowly than it reads, which a single
 * rate hides in every fsync() and writeback wait. */
#include "disk.h"
#include "../lib/util.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#define READ_EXPIRE_NS 500000000ULL
#define WRITE_EXPIRE_NS 5000000000ULL

void disk_init(struct disk *d, const struct disk_params *p, struct evq *q, uint32_t id,
	       disk_complete_fn fn, void *arg)
{
	*d = (struct disk){ .p = *p, .q = q, .id = id, .complete = fn, .arg = arg };
}

static void free_chain(struct disk_req *r)
{
	while (r) {
		struct disk_req *n = r->next;
		struct disk_bio *b = r->head;
		while (b) {
			struct disk_bio *nb = b->next;
			free(b);
			b = nb;
		}
		free(r);
		r = n;
	}
}

void disk_free(struct disk *d)
{
	free_chain(d->queue);
	free_chain(d->inflight);
	free_chain(d->free_reqs);
	free(d->by_start);
	free(d->by_end);
	for (struct disk_bio *b = d->free_bios; b;) {
		struct disk_bio *n = b->next;
		free(b);
		b = n;
	}
}

static struct disk_bio *bio_alloc(struct disk *d)
{
	struct disk_bio *b = d->free_bios;
	if (b)
		d->free_bios = b->next;
	else
		b = xmalloc(sizeof(*b));
	b->next = NULL;
	return b;
}

static struct disk_req *req_alloc(struct disk *d)
{
	struct disk_req *r = d->free_reqs;
	if (r)
		d->free_reqs = r->next;
	else
		r = xmalloc(sizeof(*r));
	*r = (struct disk_req){ .id = d->next_id++ };
	return r;
}

/* ---- the merge index ----------------------------------------------- */

static uint64_t bucket(const struct disk *d, uint64_t block)
{
	return ((block * 0x9E3779B97F4A7C15ULL) >> 32) & (d->nr_buckets - 1);
}

static void index_add_start(struct disk *d, struct disk_req *r)
{
	struct disk_req **b = &d->by_start[bucket(d, r->block)];
	r->by_start_next = *b;
	*b = r;
}

static void index_add_end(struct disk *d, struct disk_req *r)
{
	struct disk_req **b = &d->by_end[bucket(d, r->block + r->npages)];
	r->by_end_next = *b;
	*b = r;
}

static void index_del_start(struct disk *d, struct disk_req *r)
{
	struct disk_req **pp = &d->by_start[bucket(d, r->block)];
	while (*pp != r)
		pp = &(*pp)->by_start_next;
	*pp = r->by_start_next;
}

static void index_del_end(struct disk *d, struct disk_req *r)
{
	struct disk_req **pp = &d->by_end[bucket(d, r->block + r->npages)];
	while (*pp != r)
		pp = &(*pp)->by_end_next;
	*pp = r->by_end_next;
}

/* Room for one more queued request: the buckets are doubled (and every
 * queued request rehashed) when there would be more requests than
 * buckets. */
static void index_reserve(struct disk *d)
{
	if (d->nr_queued < d->nr_buckets)
		return;
	free(d->by_start);
	free(d->by_end);
	d->nr_buckets = d->nr_buckets ? d->nr_buckets * 2 : 64;
	d->by_start = xcalloc(d->nr_buckets, sizeof(*d->by_start));
	d->by_end = xcalloc(d->nr_buckets, sizeof(*d->by_end));
	for (struct disk_req *r = d->queue; r; r = r->next) {
		index_add_start(d, r);
		index_add_end(d, r);
	}
}

/* 1 if the page at `block` can go on the end of queued request r, 2 on
 * its front, 0 if neither. */
static int merge_side(const struct disk *d, const struct disk_req *r, enum io_dir dir, uint64_t block)
{
	if (!r || r->dir != dir || r->npages + 1 > d->p.max_request / PAGE_SIZE)
		return 0;
	if (block == r->block + r->npages)
		return 1;
	if (block + 1 == r->block)
		return 2;
	return 0;
}

/* The request a page joins when the last one merged into refuses it: the
 * first in arrival order (the lowest id: ids are given in arrival order)
 * that ends just before it or starts just after it. */
static struct disk_req *merge_candidate(const struct disk *d, enum io_dir dir, uint64_t block)
{
	struct disk_req *best = NULL;
	if (!d->nr_buckets)
		return NULL;
	for (struct disk_req *r = d->by_end[bucket(d, block)]; r; r = r->by_end_next)
		if (r != d->last_merge && merge_side(d, r, dir, block) == 1 && (!best || r->id < best->id))
			best = r;
	for (struct disk_req *r = d->by_start[bucket(d, block + 1)]; r; r = r->by_start_next)
		if (r != d->last_merge && merge_side(d, r, dir, block) == 2 && (!best || r->id < best->id))
			best = r;
	return best;
}

static bool try_merge(struct disk *d, struct disk_req *r, enum io_dir dir, struct disk_bio *b)
{
	int side = merge_side(d, r, dir, b->block);
	if (side == 1) {
		index_del_end(d, r);
		r->tail->next = b;
		r->tail = b;
		r->npages++;
		index_add_end(d, r);
	} else if (side == 2) {
		index_del_start(d, r);
		b->next = r->head;
		r->head = b;
		r->block--;
		r->npages++;
		index_add_start(d, r);
	} else {
		return false;
	}
	d->last_merge = r;
	return true;
}

/* A new request of one bio at the queue's end, and the dispatch it may
 * need. */
static void queue_req(struct disk *d, enum io_dir dir, struct disk_bio *b, uint32_t npages, uint64_t t)
{
	index_reserve(d);
	struct disk_req *r = req_alloc(d);
	r->block = b->block;
	r->npages = npages;
	r->dir = dir;
	r->arrival = t;
	r->head = r->tail = b;
	if (d->queue_last)
		d->queue_last->next = r;
	else
		d->queue = r;
	d->queue_last = r;
	index_add_start(d, r);
	index_add_end(d, r);
	d->nr_queued++;
	d->last_merge = r;
}

static void kick(struct disk *d, uint64_t t)
{
	if (!d->dispatch_pending && d->nr_inflight < d->p.queue_depth) {
		d->dispatch_pending = 1;
		d->dispatch_at = t + d->p.plug_ns;
		evq_push(d->q, d->dispatch_at, EV_DISK_DISPATCH, d->id, ++d->dispatch_gen);
	}
}

void disk_submit(struct disk *d, enum io_dir dir, uint64_t block, uint64_t cookie, uint64_t t)
{
	struct disk_bio *b = bio_alloc(d);
	b->block = block;
	b->cookie = cookie;
	bool merged = try_merge(d, d->last_merge, dir, b) ||
		      try_merge(d, merge_candidate(d, dir, block), dir, b);
	if (!merged)
		queue_req(d, dir, b, 1, t);
	kick(d, t);
}

void disk_submit_discard(struct disk *d, uint64_t block, uint32_t npages, uint64_t cookie, uint64_t t)
{
	struct disk_bio *b = bio_alloc(d);
	b->block = block;
	b->cookie = cookie;
	queue_req(d, IO_DISCARD, b, npages, t);
	kick(d, t);
}

/* ns to move NPAGES in direction DIR */
static double xfer_ns(const struct disk *d, enum io_dir dir, uint32_t npages)
{
	uint64_t rate = dir == IO_WRITE && d->p.write_bandwidth ? d->p.write_bandwidth : d->p.bandwidth;
	return (double)npages * PAGE_SIZE * 1e9 / (double)rate;
}

uint64_t disk_service_ns(const struct disk *d, enum io_dir dir, uint64_t block, uint32_t npages)
{
	double xfer = xfer_ns(d, dir, npages);
	if (d->p.kind == DISK_SSD)
		return (uint64_t)(d->p.latency_ns + xfer);
	double pos = 0;
	if (block != d->head_pos) {
		uint64_t cap = d->p.capacity / PAGE_SIZE;
		uint64_t dist = block > d->head_pos ? block - d->head_pos : d->head_pos - block;
		double frac = cap ? (double)dist / (double)cap : 1.0;
		if (frac > 1)
			frac = 1;
		/* E[sqrt(|U1-U2|)] = 8/15 for uniform U1, U2: scale so that
		 * random requests average the rated seek. */
		double track = (double)d->p.track_seek_ns;
		double full = track + ((double)d->p.seek_ns - track) * 15.0 / 8.0;
		pos = track + (full - track) * sqrt(frac) + 30e9 / (double)d->p.rpm;
	}
	return (uint64_t)(pos + xfer);
}

/* Pick the next request to serve and unlink it from the queue. */
static struct disk_req *elevator_next(struct disk *d, uint64_t now)
{
	struct disk_req **pick = &d->queue;
	if (d->p.kind == DISK_ROTATING) {
		struct disk_req **up = NULL, **low = NULL;
		for (struct disk_req **pp = &d->queue; *pp; pp = &(*pp)->next) {
			struct disk_req *r = *pp;
			uint64_t expire = r->dir == IO_READ ? READ_EXPIRE_NS : WRITE_EXPIRE_NS;
			if (now >= r->arrival + expire) {
				up = pp; /* the oldest expired request, queue is in arrival order */
				low = NULL;
				break;
			}
			if (r->block >= d->head_pos && (!up || r->block < (*up)->block))
				up = pp;
			if (!low || r->block < (*low)->block)
				low = pp;
		}
		pick = up ? up : low;
	}
	struct disk_req *r = *pick;
	*pick = r->next;
	if (d->queue_last == r) /* the one before it, if any, is now last */
		d->queue_last = pick == &d->queue ? NULL
			      : (struct disk_req *)((char *)pick - offsetof(struct disk_req, next));
	r->next = NULL;
	index_del_start(d, r);
	index_del_end(d, r);
	d->nr_queued--;
	if (d->last_merge == r)
		d->last_merge = NULL;
	return r;
}

static void dispatch(struct disk *d, uint64_t now)
{
	while (d->queue && d->nr_inflight < d->p.queue_depth) {
		struct disk_req *r = elevator_next(d, now);
		uint64_t done;
		if (r->dir == IO_DISCARD) {
			/* no data: the command's latency, off the data path
			 * and without moving a head */
			done = now + d->p.latency_ns;
			d->discards++;
		} else if (d->p.kind == DISK_SSD) {
			double xfer = xfer_ns(d, r->dir, r->npages);
			uint64_t start = now + d->p.latency_ns;
			if (d->pipe_free > start)
				start = d->pipe_free;
			done = start + (uint64_t)xfer;
			d->pipe_free = done;
			d->busy_ns += (uint64_t)xfer;
		} else {
			uint64_t svc = disk_service_ns(d, r->dir, r->block, r->npages);
			done = now + svc;
			d->busy_ns += svc;
		}
		if (r->dir != IO_DISCARD)
			d->head_pos = r->block + r->npages;
		r->done = done;
		r->next = d->inflight;
		d->inflight = r;
		d->nr_inflight++;
		d->nr_requests++;
		if (r->dir == IO_READ)
			d->pages_read += r->npages;
		else if (r->dir == IO_WRITE)
			d->pages_written += r->npages;
		evq_push(d->q, done, EV_DISK_DONE, d->id, r->id);
	}
}

static void complete_req(struct disk *d, struct disk_req **pp, uint64_t now)
{
	struct disk_req *r = *pp;
	*pp = r->next;
	d->nr_inflight--;
	d->completions++;
	struct disk_bio *bios = r->head;
	enum io_dir dir = r->dir;
	r->head = r->tail = NULL;
	r->next = d->free_reqs;
	d->free_reqs = r;
	/* Serve the next request before completion handling queues more. */
	dispatch(d, now);
	d->complete(d->arg, dir, bios, now);
	/* The caller hands the bios back. */
	while (bios) {
		struct disk_bio *n = bios->next;
		bios->next = d->free_bios;
		d->free_bios = bios;
		bios = n;
	}
}

void disk_event(struct disk *d, enum ev_kind kind, uint64_t now, uint64_t token)
{
	if (kind == EV_DISK_DISPATCH) {
		/* Stale: disk_run_until() ran it, or a newer one replaced it. */
		if (!d->dispatch_pending || token != d->dispatch_gen)
			return;
		d->dispatch_pending = 0;
		dispatch(d, now);
		return;
	}
	struct disk_req **pp = &d->inflight;
	while (*pp && (*pp)->id != token)
		pp = &(*pp)->next;
	if (!*pp) {
		if (d->nr_early) { /* completed early by disk_run_until() */
			d->nr_early--;
			return;
		}
		panic("disk: completion of unknown request %llu", (unsigned long long)token);
	}
	complete_req(d, pp, now);
}

uint64_t disk_run_until(struct disk *d, uint64_t now)
{
	uint64_t n = 0;
	for (;;) {
		/* The earliest due completion (lowest id on ties: the order
		 * their events were queued in). */
		struct disk_req **best = NULL;
		for (struct disk_req **pp = &d->inflight; *pp; pp = &(*pp)->next)
			if ((*pp)->done <= now && (!best || (*pp)->done < (*best)->done ||
			    ((*pp)->done == (*best)->done && (*pp)->id < (*best)->id)))
				best = pp;
		if (d->dispatch_pending && d->dispatch_at <= now && (!best || d->dispatch_at <= (*best)->done)) {
			d->dispatch_pending = 0;
			dispatch(d, d->dispatch_at);
			continue;
		}
		if (!best)
			return n;
		uint64_t t = (*best)->done;
		d->nr_early++;
		complete_req(d, best, t);
		n++;
	}
}
