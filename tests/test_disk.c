/* test_disk.c - the disk model (src/machine/disk.c): positioning costs,
 * merging of adjacent requests, the C-LOOK elevator and SSD queue depth.
 *
 * A made-up drive with round numbers: 100000 pages/s (10 us per page),
 * 6000 rpm (half a revolution = 5 ms), 1 ms track-to-track, 8 ms average
 * seek, 1000 pages of capacity. */
#include "test.h"
#include "../src/machine/disk.h"
#include "../src/lib/util.h"

#include <string.h>

static const struct disk_params test_rot = {
	.model = "test-rot", .kind = DISK_ROTATING, .capacity = 1000 * PAGE_SIZE,
	.bandwidth = 100000 * PAGE_SIZE, .seek_ns = 8000000, .track_seek_ns = 1000000,
	.rpm = 6000, .queue_depth = 1, .max_request = 64 * PAGE_SIZE, .plug_ns = 1000,
};

static const struct disk_params test_ssd = {
	.model = "test-ssd", .kind = DISK_SSD, .capacity = 1000 * PAGE_SIZE,
	.bandwidth = 100000 * PAGE_SIZE, .latency_ns = 100000, .queue_depth = 2,
	.max_request = 64 * PAGE_SIZE, .plug_ns = 0,
};

/* What completed, in order. */
struct log {
	int n;
	uint64_t block[64], done[64];
	int dir[64];
	uint64_t max_inflight;
	struct disk *d;
};

static void on_complete(void *arg, enum io_dir dir, struct disk_bio *bios, uint64_t now)
{
	struct log *l = arg;
	for (struct disk_bio *b = bios; b; b = b->next) {
		if (l->n < 64) {
			l->block[l->n] = b->block;
			l->done[l->n] = now;
			l->dir[l->n] = dir;
		}
		l->n++;
	}
}

/* Run every queued disk event; return the time of the last. */
static uint64_t drain(struct evq *q, struct disk *d, struct log *l)
{
	struct event e;
	uint64_t t = 0;
	while (evq_pop(q, &e)) {
		t = e.t;
		disk_event(d, e.kind, e.t, e.token);
		if (d->nr_inflight > l->max_inflight)
			l->max_inflight = d->nr_inflight;
	}
	return t;
}

void test_disk_positioning(void);
void test_disk_positioning(void)
{
	struct evq q;
	struct disk d;
	struct log l = { 0 };
	evq_init(&q);
	disk_init(&d, &test_rot, &q, 0, on_complete, &l);
	/* Where the head already is: transfer only, 10 us a page. */
	d.head_pos = 100;
	CHECK_EQ(disk_service_ns(&d, IO_READ, 100, 1), 10000);
	CHECK_EQ(disk_service_ns(&d, IO_READ, 100, 8), 80000);
	/* Elsewhere: track-to-track + (full stroke - track) * sqrt(distance /
	 * capacity) + half a revolution + transfer, where the full stroke is
	 * scaled so that random requests average the rated seek:
	 * full = 1 ms + (8 - 1) ms * 15/8 = 14.125 ms.
	 * A quarter of the disk away: 1 + 13.125 * 0.5 + 5 ms + 10 us. */
	CHECK_EQ(disk_service_ns(&d, IO_READ, 350, 1), 12572500);
	/* The whole disk away (farther is clamped): 1 + 13.125 + 5 ms + 10 us. */
	d.head_pos = 0;
	CHECK_EQ(disk_service_ns(&d, IO_READ, 1000, 1), 19135000);
	CHECK_EQ(disk_service_ns(&d, IO_READ, 5000, 1), 19135000);
	/* Backwards costs the same as forwards. */
	d.head_pos = 350;
	CHECK_EQ(disk_service_ns(&d, IO_READ, 100, 1), 12572500);
	disk_free(&d);
	evq_free(&q);
}

void test_disk_sequential_no_seek(void);
void test_disk_sequential_no_seek(void)
{
	/* Two requests in a row, the second starting where the first ended:
	 * the second is pure transfer. */
	struct evq q;
	struct disk d;
	struct log l = { 0 };
	evq_init(&q);
	disk_init(&d, &test_rot, &q, 0, on_complete, &l);
	d.head_pos = 10;
	disk_submit(&d, IO_WRITE, 10, 1, 0);
	uint64_t t1 = drain(&q, &d, &l);
	CHECK_EQ(t1, 1000 + 10000);           /* plug, then 1 page of transfer */
	disk_submit(&d, IO_WRITE, 11, 2, t1);
	uint64_t t2 = drain(&q, &d, &l);
	CHECK_EQ(t2 - t1, 1000 + 10000);
	CHECK_EQ(d.head_pos, 12);
	CHECK_EQ(d.nr_requests, 2);
	CHECK_EQ(d.busy_ns, 20000);
	disk_free(&d);
	evq_free(&q);
}

void test_disk_merging(void);
void test_disk_merging(void)
{
	struct evq q;
	struct disk d;
	struct log l = { 0 };
	evq_init(&q);
	disk_init(&d, &test_rot, &q, 0, on_complete, &l);
	d.head_pos = 9;
	/* 10, 11, 12 merge at the back, 9 at the front: one 4-page request
	 * from block 9, where the head is: 40 us after the 1 us plug. */
	disk_submit(&d, IO_WRITE, 10, 0, 0);
	disk_submit(&d, IO_WRITE, 11, 0, 0);
	disk_submit(&d, IO_WRITE, 12, 0, 0);
	disk_submit(&d, IO_WRITE, 9, 0, 0);
	CHECK_EQ(d.nr_queued, 1);
	uint64_t t = drain(&q, &d, &l);
	CHECK_EQ(d.nr_requests, 1);
	CHECK_EQ(d.pages_written, 4);
	CHECK_EQ(t, 1000 + 40000);
	CHECK_EQ(l.n, 4);
	/* The bios come back in block order. */
	for (int i = 0; i < 4 && i < l.n; i++)
		CHECK_EQ(l.block[i], 9 + (uint64_t)i);
	/* Not adjacent, or a different direction: no merge. */
	disk_submit(&d, IO_WRITE, 20, 0, t);
	disk_submit(&d, IO_WRITE, 22, 0, t);
	disk_submit(&d, IO_READ, 21, 0, t);
	CHECK_EQ(d.nr_queued, 3);
	drain(&q, &d, &l);
	CHECK_EQ(d.nr_requests, 4);
	disk_free(&d);
	evq_free(&q);

	/* A request never grows past max_request (here 2 pages). */
	struct disk_params small = test_rot;
	small.max_request = 2 * PAGE_SIZE;
	struct log l2 = { 0 };
	evq_init(&q);
	disk_init(&d, &small, &q, 0, on_complete, &l2);
	for (uint64_t b = 100; b < 105; b++)
		disk_submit(&d, IO_WRITE, b, 0, 0);
	CHECK_EQ(d.nr_queued, 3);   /* 100-101, 102-103, 104 */
	drain(&q, &d, &l2);
	CHECK_EQ(d.nr_requests, 3);
	CHECK_EQ(d.pages_written, 5);
	CHECK_EQ(l2.n, 5);
	disk_free(&d);
	evq_free(&q);
}

void test_disk_clook(void);
void test_disk_clook(void)
{
	/* Block 50 goes into service first; then 80, 20, 60, 90 queue up
	 * behind it.  With the head after 50, C-LOOK serves upwards 60, 80,
	 * 90, then wraps round to the lowest, 20. */
	struct evq q;
	struct disk d;
	struct log l = { 0 };
	evq_init(&q);
	disk_init(&d, &test_rot, &q, 0, on_complete, &l);
	disk_submit(&d, IO_READ, 50, 0, 0);
	struct event e;
	CHECK(evq_pop(&q, &e) && e.kind == EV_DISK_DISPATCH);
	disk_event(&d, e.kind, e.t, e.token);
	CHECK_EQ(d.nr_inflight, 1);
	static const uint64_t later[] = { 80, 20, 60, 90 };
	for (size_t i = 0; i < ARRAY_SIZE(later); i++)
		disk_submit(&d, IO_READ, later[i], 0, e.t);
	drain(&q, &d, &l);
	static const uint64_t order[] = { 50, 60, 80, 90, 20 };
	CHECK_EQ(l.n, 5);
	for (size_t i = 0; i < ARRAY_SIZE(order) && (int)i < l.n; i++)
		CHECK_EQ(l.block[i], order[i]);
	CHECK_EQ(l.max_inflight, 1);
	disk_free(&d);
	evq_free(&q);
}

void test_disk_deadline(void);
void test_disk_deadline(void)
{
	/* A read waiting longer than 500 ms is served before anything C-LOOK
	 * would prefer.  Head at 51 after serving 50; block 10 was queued at
	 * time 0 and 60 at 600 ms; at 600 ms block 10 has expired. */
	struct evq q;
	struct disk d;
	struct log l = { 0 };
	evq_init(&q);
	disk_init(&d, &test_rot, &q, 0, on_complete, &l);
	disk_submit(&d, IO_READ, 50, 0, 0);
	struct event e;
	CHECK(evq_pop(&q, &e) && e.kind == EV_DISK_DISPATCH);
	disk_event(&d, e.kind, e.t, e.token);
	disk_submit(&d, IO_READ, 10, 0, e.t);
	/* Hold the completion of 50 until 600 ms. */
	CHECK(evq_pop(&q, &e) && e.kind == EV_DISK_DONE);
	disk_submit(&d, IO_READ, 60, 0, 600000000);
	disk_event(&d, e.kind, 600000000, e.token);
	drain(&q, &d, &l);
	CHECK_EQ(l.n, 3);
	CHECK_EQ(l.block[1], 10);
	CHECK_EQ(l.block[2], 60);
	disk_free(&d);
	evq_free(&q);
}

void test_disk_ssd_queue_depth(void);
void test_disk_ssd_queue_depth(void)
{
	/* SSD: 100 us latency per request, 10 us per page through one data
	 * path.  Four 1-page reads at time 0 (not adjacent, no merging).
	 * Depth 2: r1 done at 100+10 = 110 us, r2 queues on the data path to
	 * 120; r3 starts when r1 completes: 110+100+10 = 220; r4 when r2 does:
	 * 120+100 = 220, the data path is free at 220: 230 us. */
	struct evq q;
	struct disk d;
	struct log l = { 0 };
	evq_init(&q);
	disk_init(&d, &test_ssd, &q, 0, on_complete, &l);
	for (uint64_t b = 0; b < 8; b += 2)
		disk_submit(&d, IO_READ, b, 0, 0);
	drain(&q, &d, &l);
	static const uint64_t qd2[] = { 110000, 120000, 220000, 230000 };
	CHECK_EQ(l.n, 4);
	for (int i = 0; i < 4 && i < l.n; i++)
		CHECK_EQ(l.done[i], qd2[i]);
	CHECK_EQ(l.max_inflight, 2);
	disk_free(&d);
	evq_free(&q);

	/* Depth 1: one after the other, 110 us each. */
	struct disk_params p1 = test_ssd;
	p1.queue_depth = 1;
	struct log l1 = { 0 };
	evq_init(&q);
	disk_init(&d, &p1, &q, 0, on_complete, &l1);
	for (uint64_t b = 0; b < 8; b += 2)
		disk_submit(&d, IO_READ, b, 0, 0);
	drain(&q, &d, &l1);
	CHECK_EQ(l1.n, 4);
	for (int i = 0; i < 4 && i < l1.n; i++)
		CHECK_EQ(l1.done[i], 110000 * (uint64_t)(i + 1));
	CHECK_EQ(l1.max_inflight, 1);
	/* Position does not matter to an SSD. */
	d.head_pos = 0;
	CHECK_EQ(disk_service_ns(&d, IO_READ, 999, 1), 110000);
	disk_free(&d);
	evq_free(&q);
}

void test_disk_write_rate(void);
void test_disk_write_rate(void)
{
	/* disk.write_bandwidth at half the read rate: 20 us a page written,
	 * 10 read.  SSD, depth 1: a 1-page write at 0 ends at 100 + 20 us,
	 * a read submitted with it at 120 + 100 + 10; unset (0), a write
	 * moves at the read rate. */
	struct disk_params p = test_ssd;
	p.queue_depth = 1;
	p.write_bandwidth = p.bandwidth / 2;
	struct evq q;
	struct disk d;
	struct log l = { 0 };
	evq_init(&q);
	disk_init(&d, &p, &q, 0, on_complete, &l);
	disk_submit(&d, IO_WRITE, 10, 0, 0);
	disk_submit(&d, IO_READ, 20, 0, 0);
	drain(&q, &d, &l);
	CHECK_EQ(l.n, 2);
	CHECK_EQ(l.done[0], 120000);
	CHECK_EQ(l.dir[0], IO_WRITE);
	CHECK_EQ(l.done[1], 230000);
	CHECK_EQ(disk_service_ns(&d, IO_WRITE, 999, 8), 260000);
	CHECK_EQ(disk_service_ns(&d, IO_READ, 999, 8), 180000);
	d.p.write_bandwidth = 0;
	CHECK_EQ(disk_service_ns(&d, IO_WRITE, 999, 8), 180000);
	disk_free(&d);
	evq_free(&q);

	/* Rotating: the transfer part alone at the write rate (no seek
	 * where the head is). */
	struct disk_params r = test_rot;
	r.write_bandwidth = r.bandwidth / 4;
	disk_init(&d, &r, &q, 0, on_complete, &l);
	d.head_pos = 100;
	CHECK_EQ(disk_service_ns(&d, IO_WRITE, 100, 2), 80000);
	CHECK_EQ(disk_service_ns(&d, IO_READ, 100, 2), 20000);
	disk_free(&d);
}
