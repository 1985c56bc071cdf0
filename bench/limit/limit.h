/* limit.h - what the bench/limit/<policy>.c programs share: a binary
 * trace (docs/trace-format.md) read whole into memory, and doubly linked
 * queues over arrays indexed by the dense page id.  Each program is the
 * least code that makes the same choices as pagelab's policy of that name
 * (same miss count on any trace, tests/cli.d/limits.sh): no mm core, no
 * frames, no hooks - the speed a policy's own bookkeeping allows, the
 * "limit" column of make bench (bench/limits.sh).
 *
 * Usage of each: PROGRAM TRACE FRAMES; prints "misses N".  Bad input: one
 * line on stderr, exit 2. */
#ifndef PAGELAB_BENCH_LIMIT_H
#define PAGELAB_BENCH_LIMIT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX

static inline void lim_die(const char *what, const char *arg)
{
	fprintf(stderr, "limit: %s%s%s\n", what, arg ? ": " : "", arg ? arg : "");
	exit(2);
}

static inline void *lim_alloc(uint64_t n, size_t size, int fill)
{
	void *p = malloc(n ? n * size : 1);
	if (!p)
		lim_die("out of memory", NULL);
	memset(p, fill, n * size);
	return p;
}

/* A trace: n references; page of reference i is rec[2 * i] (the 8-byte
 * records as they are in the file, little-endian host assumed). */
struct trace {
	uint32_t *rec;
	uint64_t n, pages;
};

/* Load TRACE and parse FRAMES (argv[1], argv[2]). */
static inline void lim_load(int argc, char **argv, struct trace *t, uint64_t *frames)
{
	if (argc != 3)
		lim_die("usage: PROGRAM TRACE FRAMES (a pagelab binary trace)", NULL);
	char *end;
	unsigned long long f = strtoull(argv[2], &end, 10);
	if (*end || !f || f >= NIL)
		lim_die("FRAMES must be a number of frames, 1 or more", argv[2]);
	*frames = f;
	FILE *fp = fopen(argv[1], "rb");
	if (!fp)
		lim_die("cannot open", argv[1]);
	unsigned char h[64];
	uint32_t ver, rsz;
	if (fread(h, 1, 64, fp) != 64 || memcmp(h, "PGLTRACE", 8))
		lim_die("not a pagelab binary trace", argv[1]);
	memcpy(&ver, h + 8, 4);
	memcpy(&rsz, h + 12, 4);
	memcpy(&t->n, h + 16, 8);
	memcpy(&t->pages, h + 24, 8);
	if (ver != 1 || rsz != 8 || t->pages >= NIL || t->n > (1ULL << 40))
		lim_die("unsupported binary trace header", argv[1]);
	t->rec = lim_alloc(t->n, 8, 0);
	if (fread(t->rec, 8, t->n, fp) != t->n)
		lim_die("truncated trace", argv[1]);
	fclose(fp);
	for (uint64_t i = 0; i < t->n; i++)
		if (t->rec[2 * i] >= t->pages)
			lim_die("page beyond the header's count", argv[1]);
}

static inline int lim_done(uint64_t misses)
{
	printf("misses %llu\n", (unsigned long long)misses);
	return 0;
}

/* Queues over page ids: prev/next per id, on[id] the queue it is on
 * (0: none), head = most recent. */
struct q {
	uint32_t head, tail;
	uint64_t n;
};
struct qs {
	uint32_t *prev, *next;
	uint8_t *on;
	struct q q[5];
};

static inline void qs_init(struct qs *s, uint64_t pages)
{
	s->prev = lim_alloc(pages, 4, 0xff);
	s->next = lim_alloc(pages, 4, 0xff);
	s->on = lim_alloc(pages, 1, 0);
	for (int i = 0; i < 5; i++)
		s->q[i] = (struct q){ NIL, NIL, 0 };
}

static inline void q_del(struct qs *s, uint32_t id)
{
	struct q *q = &s->q[s->on[id]];
	uint32_t p = s->prev[id], n = s->next[id];
	if (p != NIL)
		s->next[p] = n;
	else
		q->head = n;
	if (n != NIL)
		s->prev[n] = p;
	else
		q->tail = p;
	q->n--;
	s->on[id] = 0;
}

/* id (on no queue) to the head of queue k (1..4). */
static inline void q_push(struct qs *s, int k, uint32_t id)
{
	struct q *q = &s->q[k];
	s->on[id] = (uint8_t)k;
	s->prev[id] = NIL;
	s->next[id] = q->head;
	if (q->head != NIL)
		s->prev[q->head] = id;
	else
		q->tail = id;
	q->head = id;
	q->n++;
}

static inline void q_move(struct qs *s, int k, uint32_t id)
{
	if (s->on[id])
		q_del(s, id);
	q_push(s, k, id);
}

/* A binary min-heap over page ids on two keys, (k1, k2) in order: LFU's
 * (count, when), LRU-K's (HIST 2, HIST 1).  slot[id]: its index. */
struct hent {
	uint64_t k1, k2;
	uint32_t id;
};

static inline int h_before(const struct hent *a, const struct hent *b)
{
	return a->k1 != b->k1 ? a->k1 < b->k1 : a->k2 < b->k2;
}

/* The entry at k moved down the heap of n to its place (keys grew). */
static inline void h_down(struct hent *h, uint32_t *slot, uint64_t n, uint64_t k)
{
	struct hent e = h[k];
	for (;;) {
		uint64_t l = 2 * k + 1, b = k;
		const struct hent *best = &e;
		if (l < n && h_before(&h[l], best))
			b = l, best = &h[l];
		if (l + 1 < n && h_before(&h[l + 1], best))
			b = l + 1;
		if (b == k)
			break;
		h[k] = h[b];
		slot[h[k].id] = (uint32_t)k;
		k = b;
	}
	h[k] = e;
	slot[e.id] = (uint32_t)k;
}

/* The entry at k moved up to its place (a new one). */
static inline void h_up(struct hent *h, uint32_t *slot, uint64_t k)
{
	struct hent e = h[k];
	while (k > 0 && h_before(&e, &h[(k - 1) / 2])) {
		h[k] = h[(k - 1) / 2];
		slot[h[k].id] = (uint32_t)k;
		k = (k - 1) / 2;
	}
	h[k] = e;
	slot[e.id] = (uint32_t)k;
}

#endif
