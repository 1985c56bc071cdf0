/* test_hostspeed.c - the indexes and caches that make `reproduce --full`
 * fast, each against the plain algorithm it replaces: the disk queue's
 * merge index (src/machine/disk.c) against a walk of the queue in arrival
 * order, the writeback list leaving out inodes with nothing to start
 * (src/mm/inode_index.c), and qsbench's shared recordings
 * (src/workload/qsbench_record.c) against a fresh recording.  Cost: well
 * under a second. */
#include "test.h"
#include "../src/machine/disk.h"
#include "../src/mm/inode_index.h"
#include "../src/workload/qsbench.h"
#include "../src/workload/qsbench_record.h"
#include "../src/workload/workload.h"
#include "../src/lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the disk's merge index ------------------------------------------- */

/* The queue as disk.c kept it before the index: requests in arrival
 * order; a page joins the request it last joined if it can, else the
 * first request in arrival order it can join, else a new one. */
struct mreq { uint64_t id, block, npages; int dir; };
struct model { struct mreq q[4096]; int n; int64_t last; uint64_t next_id; };

static bool model_joins(const struct mreq *r, int dir, uint64_t block, uint64_t max, int *side)
{
	if (r->dir != dir || r->npages + 1 > max)
		return false;
	*side = block == r->block + r->npages ? 1 : block + 1 == r->block ? 2 : 0;
	return *side != 0;
}

static void model_submit(struct model *m, int dir, uint64_t block, uint64_t max)
{
	int side = 0, at = -1;
	for (int i = 0; i < m->n; i++)
		if ((int64_t)m->q[i].id == m->last && model_joins(&m->q[i], dir, block, max, &side))
			at = i;
	for (int i = 0; at < 0 && i < m->n; i++)
		if (model_joins(&m->q[i], dir, block, max, &side))
			at = i;
	if (at < 0) {
		m->q[m->n] = (struct mreq){ m->next_id++, block, 1, dir };
		m->last = (int64_t)m->q[m->n++].id;
		return;
	}
	/* which side: recompute for the chosen one */
	model_joins(&m->q[at], dir, block, max, &side);
	if (side == 2)
		m->q[at].block--;
	m->q[at].npages++;
	m->last = (int64_t)m->q[at].id;
}

static void model_remove(struct model *m, uint64_t id)
{
	for (int i = 0; i < m->n; i++)
		if (m->q[i].id == id) {
			memmove(&m->q[i], &m->q[i + 1], (size_t)(m->n - i - 1) * sizeof(m->q[0]));
			m->n--;
			if (m->last == (int64_t)id)
				m->last = -1;
			return;
		}
}

/* The disk's queue equals the model's, request by request. */
static bool same_queue(const struct disk *d, const struct model *m)
{
	int i = 0;
	for (const struct disk_req *r = d->queue; r; r = r->next, i++)
		if (i >= m->n || r->id != m->q[i].id || r->block != m->q[i].block ||
		    r->npages != m->q[i].npages || (int)r->dir != m->q[i].dir)
			return false;
	return i == m->n && (int64_t)d->nr_queued == m->n;
}

static void ignore_complete(void *arg, enum io_dir dir, struct disk_bio *bios, uint64_t now)
{
	(void)arg; (void)dir; (void)bios; (void)now;
}

void test_disk_merge_index(void);
void test_disk_merge_index(void)
{
	const struct disk_params p = {
		.model = "idx", .kind = DISK_ROTATING, .capacity = 1000 * PAGE_SIZE,
		.bandwidth = 100000 * PAGE_SIZE, .seek_ns = 8000000, .track_seek_ns = 1000000,
		.rpm = 6000, .queue_depth = 1, .max_request = 4 * PAGE_SIZE, .plug_ns = 1000,
	};
	struct evq q;
	struct disk d;
	evq_init(&q);
	disk_init(&d, &p, &q, 0, ignore_complete, NULL);
	struct model *m = xcalloc(1, sizeof(*m));
	m->last = -1;
	struct rng g;
	rng_seed(&g, 42);
	/* 3000 pages on 400 blocks, both directions, requests of at most 4
	 * pages: many requests share a first or an end block, many are full;
	 * now and then the elevator takes one (the queue grows past the
	 * index's first 64 buckets, then shrinks). */
	int mismatches = 0, merged = 0, taken = 0;
	for (int k = 0; k < 3000; k++) {
		int dir = rng_next(&g) % 4 == 0 ? IO_READ : IO_WRITE;
		uint64_t block = rng_next(&g) % 400;
		uint64_t before = d.nr_queued;
		disk_submit(&d, (enum io_dir)dir, block, 0, 0);
		model_submit(m, dir, block, 4);
		merged += d.nr_queued == before;
		if (k % 7 == 6 && d.queue) {
			/* a dispatch: one request leaves the queue for the disk */
			uint64_t ids[4096];
			int n = 0;
			for (struct disk_req *r = d.queue; r; r = r->next)
				ids[n++] = r->id;
			struct event e;
			while (d.nr_queued == (uint64_t)n && evq_pop(&q, &e))
				disk_event(&d, e.kind, e.t, e.token);
			int left = 0;
			for (int i = 0; i < n; i++) {
				bool still = false;
				for (struct disk_req *r = d.queue; r; r = r->next)
					still |= r->id == ids[i];
				if (!still) {
					model_remove(m, ids[i]);
					left++;
				}
			}
			taken += left;
		}
		mismatches += !same_queue(&d, m);
	}
	CHECK_EQ(mismatches, 0);
	CHECK(merged > 500);        /* the merging paths ran */
	CHECK(taken > 100);
	CHECK(d.nr_queued > 64);    /* past a rehash */
	CHECK(d.nr_buckets >= d.nr_queued);
	disk_free(&d);
	evq_free(&q);
	free(m);
}

/* ---- the writeback list ----------------------------------------------- */

/* The ids on the list as "0234", front to back or back to front. */
static const char *list_order(const struct fs *fs, bool backwards)
{
	static char order[64];
	order[0] = 0;
	for (struct inode *i = backwards ? fs->dirty_last : fs->dirty_first; i;
	     i = backwards ? i->dirty_prev : i->dirty_next)
		snprintf(order + strlen(order), sizeof(order) - strlen(order), "%u", i->id);
	return order;
}

void test_inode_list_skips_written(void);
void test_inode_list_skips_written(void)
{
	struct fs fs = { 0 };
	char why[300];
	struct inode *ino[5];
	for (int i = 0; i < 5; i++) {
		ino[i] = xcalloc(1, sizeof(*ino[i]));
		char name[16];
		snprintf(name, sizeof(name), "/x%d", i);
		ino[i]->name = xstrdup(name);
		ino[i]->id = (uint32_t)i;
		ino[i]->dirtied_when = (uint64_t)i * 10;
		ino[i]->nrdirty = 2;
		fs.inodes = xrealloc(fs.inodes, (size_t)(i + 1) * sizeof(*fs.inodes));
		fs.inodes[fs.nr++] = ino[i];
		inode_hash_add(&fs, ino[i]);
		inode_dirty_update(&fs, ino[i]);
	}
	/* Both dirty pages of inode 1 under writeback (redirtied while being
	 * written): nothing to start there, it leaves the list... */
	ino[1]->nrdirty_wb = 2;
	inode_dirty_update(&fs, ino[1]);
	CHECK(!strcmp(list_order(&fs, false), "0234"));
	CHECK(inode_index_check(&fs, why, sizeof(why)));
	/* ...and comes back at its old place (dirtied_when 10, between 0 and
	 * 2: found from the front) when one of them completes. */
	ino[1]->nrdirty_wb = 1;
	inode_dirty_update(&fs, ino[1]);
	CHECK(!strcmp(list_order(&fs, false), "01234"));
	/* the same for one near the back (found from the back) */
	ino[3]->nrdirty_wb = 2;
	inode_dirty_update(&fs, ino[3]);
	ino[3]->nrdirty = 3;
	inode_dirty_update(&fs, ino[3]);
	CHECK(!strcmp(list_order(&fs, true), "43210"));
	CHECK(inode_index_check(&fs, why, sizeof(why)));
	/* The check catches a listed inode with nothing to start. */
	ino[4]->nrdirty_wb = 2;
	CHECK(!inode_index_check(&fs, why, sizeof(why)));
	for (uint32_t i = 0; i < fs.nr; i++) {
		free(fs.inodes[i]->name);
		free(fs.inodes[i]);
	}
	free(fs.inodes);
	inode_index_free(&fs);
}

/* ---- qsbench's shared recordings -------------------------------------- */

static void *qs_make(const char *cmd)
{
	char buf[128], err[256];
	snprintf(buf, sizeof(buf), "%s", cmd);
	char *argv[16];
	int argc = 0;
	for (char *t = strtok(buf, " "); t && argc < 16; t = strtok(NULL, " "))
		argv[argc++] = t;
	return workload_find("qsbench")->create(argc, argv, 1, err, sizeof(err));
}

static bool same_visits(void *a, void *b)
{
	if (qsbench_nr_visits(a) != qsbench_nr_visits(b))
		return false;
	for (uint64_t i = 0; i < qsbench_nr_visits(a); i++) {
		struct qs_visit x = qsbench_visit(a, i), y = qsbench_visit(b, i);
		if (x.page != y.page || x.refs != y.refs || x.write != y.write)
			return false;
	}
	return true;
}

void test_qsbench_shared_recording(void);
void test_qsbench_shared_recording(void)
{
	const struct workload_ops *ops = workload_find("qsbench");
	if (!ops)
		return;
	/* Two instances of the same data share one recording. */
	const struct qs_recording *r1 = qs_recording_get(3 * 1048576 / 4, 9);
	const struct qs_recording *r2 = qs_recording_get(3 * 1048576 / 4, 9);
	const struct qs_recording *r3 = qs_recording_get(3 * 1048576 / 4, 10);
	CHECK(r1 == r2);
	CHECK(r1 != r3);
	CHECK(r1->nrec > 768);      /* at least one visit per page */
	CHECK_EQ(r1->errors, 0);
	qs_recording_put(r1);
	qs_recording_put(r2);
	qs_recording_put(r3);
	/* Instances see exactly what a recording of their own would give: a
	 * second instance (from the cache) equals the first, another seed
	 * differs, and --distinct's process 1 (seed 10) equals -s 10. */
	void *a = qs_make("qsbench -m 3 -s 9");
	void *b = qs_make("qsbench -m 3 -s 9");
	void *c = qs_make("qsbench -m 3 -s 10");
	void *dd = qs_make("qsbench -m 3 -s 9 -p 2 --distinct");
	CHECK(a && b && c && dd);
	if (a && b && c && dd) {
		CHECK(same_visits(a, b));
		CHECK(!same_visits(a, c));
		CHECK(same_visits(a, dd));
	}
	struct op o1, o2;
	bool differ = false;
	if (c && dd) {
		for (;;) {
			bool m1 = ops->next_op(c, 0, &o1), m2 = ops->next_op(dd, 1, &o2);
			differ |= m1 != m2 || (m1 && memcmp(&o1, &o2, sizeof(o1)));
			if (!m1 || !m2)
				break;
		}
	}
	CHECK(!differ);
	ops->destroy(a);
	ops->destroy(b);
	ops->destroy(c);
	ops->destroy(dd);
}
