/* test_seeds.c - the seed varies every workload with random data or
 * timing, deterministically (issue 13 item 3), and the fidelity options
 * of issue 10: qsbench --distinct, mtest01 --fork's children holding their
 * memory until all are done.  Op streams are hashed (FNV-1a over every
 * field that reaches a machine), so "different" means some op differs. */
#include "test.h"
#include "../src/workload/workload.h"
#include "../src/lib/util.h"

#include <string.h>

void test_seed_varies_workloads(void);
void test_qsbench_seed_and_s(void);
void test_qsbench_distinct(void);
void test_mtest01_fork_holds(void);

static void *create(const char *line, uint64_t seed, const struct workload_ops **ops)
{
	char buf[512], *argv[64];
	int argc = 0;
	snprintf(buf, sizeof(buf), "%s", line);
	for (char *tok = strtok(buf, " "); tok && argc < 63; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	*ops = workload_find(argv[0]);
	char err[256] = "";
	void *w = *ops ? (*ops)->create(argc, argv, seed, err, sizeof(err)) : NULL;
	if (!w) {
		fprintf(stderr, "cannot create '%s': %s\n", line, err);
		test_failures++;
		return NULL;
	}
	struct wl_sysinfo si = { .totalram = 64 << 20, .freeram = 60 << 20, .totalswap = 64 << 20,
				 .freeswap = 64 << 20, .disk_bytes = 1ULL << 30 };
	if ((*ops)->attach)
		(*ops)->attach(w, &si);
	return w;
}

static uint64_t fnv(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t op_hash(uint64_t h, const struct op *op)
{
	h = fnv(h, (uint64_t)op->kind | (uint64_t)op->write << 8 | (uint64_t)op->shared << 9 |
		   (uint64_t)op->direct << 10);
	h = fnv(h, op->region);
	h = fnv(h, op->refs);
	h = fnv(h, (uint64_t)(int64_t)op->fd);
	h = fnv(h, op->first);
	h = fnv(h, op->npages);
	h = fnv(h, op->ns);
	for (const char *c = op->name; c && *c; c++)
		h = fnv(h, (unsigned char)*c);
	return h;
}

/* Hash of task `task`'s stream (all tasks if task < 0), marks answered
 * with a steadily advancing time so time-bound loops end. */
static uint64_t stream_hash(const char *line, uint64_t seed, int task)
{
	const struct workload_ops *ops;
	void *w = create(line, seed, &ops);
	if (!w)
		return 0;
	uint64_t h = 0xcbf29ce484222325ULL;
	int nt = ops->nr_tasks(w);
	for (int t = 0; t < nt; t++) {
		if (task >= 0 && t != task)
			continue;
		struct op op;
		uint64_t now = 0;
		for (uint64_t n = 0; n < 2000000 && ops->next_op(w, t, &op); n++) {
			h = op_hash(h, &op);
			if (op.kind == OP_MARK && ops->mark) {
				now += 1000000000ULL;
				ops->mark(w, t, op.region, now, now);
			}
		}
	}
	ops->destroy(w);
	return h;
}

void test_seed_varies_workloads(void)
{
	/* Every workload whose program has random data or timing. */
	static const char *const lines[] = {
		"qsbench -p 2 -m 1",
		"usemem -R -m 2",
		"dbench 1",
		"kbuild -j 2 --units 6 --headers 24 --cc1 1",
		"innodb --pool 4 --data 32M --transactions 40 --scan",
		"fileio -R -r 1 /f 1M",
		"bonnie -s 2",
	};
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		uint64_t a = stream_hash(lines[i], 1, -1), a2 = stream_hash(lines[i], 1, -1);
		uint64_t b = stream_hash(lines[i], 2, -1), c = stream_hash(lines[i], 3, -1);
		if (a != a2 || a == b || b == c || a == c)
			fprintf(stderr, "seeds and '%s': %llx %llx %llx %llx\n", lines[i], (unsigned long long)a,
				(unsigned long long)a2, (unsigned long long)b, (unsigned long long)c);
		CHECK(a == a2);   /* the same seed, the same stream */
		CHECK(a != b);    /* other seeds, other streams */
		CHECK(b != c);
		CHECK(a != c);
	}
	/* Without random data the seed changes nothing. */
	CHECK(stream_hash("usemem -m 2", 1, -1) == stream_hash("usemem -m 2", 7, -1));
	CHECK(stream_hash("mtest01 -b 4M -w", 1, -1) == stream_hash("mtest01 -b 4M -w", 7, -1));
}

void test_qsbench_seed_and_s(void)
{
	/* The default seed 1 sorts what -s 1 sorts (the figures of earlier
	 * releases stay); without -s the run's seed is the data's seed; -s
	 * wins over the run's seed, as the program's own option. */
	CHECK(stream_hash("qsbench -m 1", 1, -1) == stream_hash("qsbench -m 1 -s 1", 1, -1));
	CHECK(stream_hash("qsbench -m 1", 5, -1) == stream_hash("qsbench -m 1 -s 5", 1, -1));
	CHECK(stream_hash("qsbench -m 1 -s 5", 9, -1) == stream_hash("qsbench -m 1 -s 5", 1, -1));
}

void test_qsbench_distinct(void)
{
	/* Same data by default: the processes' streams are identical. */
	CHECK(stream_hash("qsbench -p 3 -m 1", 1, 0) == stream_hash("qsbench -p 3 -m 1", 1, 2));
	/* --distinct: process k sorts data seeded SEED + k. */
	uint64_t d0 = stream_hash("qsbench -p 3 -m 1 --distinct", 1, 0);
	uint64_t d1 = stream_hash("qsbench -p 3 -m 1 --distinct", 1, 1);
	uint64_t d2 = stream_hash("qsbench -p 3 -m 1 --distinct", 1, 2);
	CHECK(d0 != d1 && d1 != d2 && d0 != d2);
	CHECK(d0 == stream_hash("qsbench -p 3 -m 1", 1, 0));
	CHECK(d1 == stream_hash("qsbench -m 1 -s 2", 1, 0));
	CHECK(d2 == stream_hash("qsbench -m 1 -s 3", 1, 0));
	/* Deterministic: the same command, the same streams. */
	CHECK(d1 == stream_hash("qsbench -p 3 -m 1 --distinct", 1, 1));
}

void test_mtest01_fork_holds(void)
{
	const struct workload_ops *ops;
	/* 8 MB in 2 children: 4 chunks each of 257 pages (1 MB plus glibc's
	 * header), then a barrier: the child holds its memory until every
	 * child is done, and exits. */
	void *w = create("mtest01 --fork --children 2 -b 8M -w", 1, &ops);
	if (!w)
		return;
	CHECK_EQ(ops->nr_tasks(w), 2);
	static const uint64_t want_chunks[] = { 4, 4 };
	for (int t = 0; t < 2; t++) {
		struct op op;
		uint64_t chunks = 0, touched = 0, barriers = 0, after = 0;
		while (ops->next_op(w, t, &op)) {
			after += barriers > 0;
			chunks += op.kind == OP_MMAP_ANON;
			touched += op.kind == OP_TOUCH ? op.npages : 0;
			barriers += op.kind == OP_BARRIER;
		}
		CHECK_EQ(chunks, want_chunks[t]);
		CHECK_EQ(touched, want_chunks[t] * 257);
		CHECK_EQ(barriers, 1);
		CHECK_EQ(after, 0);   /* the barrier is the last op */
	}
	ops->destroy(w);
	/* The 2001 form is one process that just exits. */
	w = create("mtest01 -b 4M -w", 1, &ops);
	if (!w)
		return;
	struct op op;
	uint64_t barriers = 0;
	while (ops->next_op(w, 0, &op))
		barriers += op.kind == OP_BARRIER;
	CHECK_EQ(barriers, 0);
	ops->destroy(w);
}
