/* qsbench_record.c - the reference stream of qsbench's quicksort, recorded
 * by running that very sort on the host (qsbench.c's header says how a
 * visit is recorded), and the recordings shared by every machine of the
 * process that sorts the same data.
 *
 * Recording is nearly all of a qsbench run's host time (~10 s for -m 230,
 * the sort itself; the simulation replaying it takes ~0.5 s), and
 * `reproduce` runs five designs over the same five seeds: 25 recordings
 * where 5 differ.  A recording depends only on the element count and the
 * seed, so it is made once and handed to every instance that asks while
 * it is in use, and a few unused ones are kept for the next ask; the
 * result is byte-for-byte what a fresh recording gives. */
#include "qsbench_record.h"
#include "../lib/util.h"

#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

/* The recorder's output while it records. */
struct qs_buf {
	struct qs_rec *rec;
	uint64_t nrec, cap;
};

enum { PTR_LO, PTR_HI, PTR_MED, NR_PTRS };

struct recorder {
	struct qs_buf *q;
	uint32_t page[NR_PTRS];   /* page each pointer is visiting */
	uint64_t idx[NR_PTRS];    /* its record */
};

static uint64_t rec_new(struct qs_buf *q, uint32_t page)
{
	if (q->nrec && (q->rec[q->nrec - 1].page & ~QS_WRITE) == page &&
	    q->rec[q->nrec - 1].refs < (1u << 30))
		return q->nrec - 1;
	if (q->nrec == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 1 << 16;
		q->rec = xrealloc(q->rec, q->cap * sizeof(*q->rec));
	}
	q->rec[q->nrec] = (struct qs_rec){ .page = page, .refs = 0 };
	return q->nrec++;
}

/* Pointer `p` reads element k: start a visit if it moved to another page. */
static inline struct qs_rec *rec_at(struct recorder *r, int p, uint64_t k)
{
	uint32_t page = (uint32_t)(k / QS_INTS_PER_PAGE);
	if (page != r->page[p] || r->idx[p] == UINT64_MAX) {
		r->page[p] = page;
		r->idx[p] = rec_new(r->q, page);
	}
	return &r->q->rec[r->idx[p]];
}

static void rec_reset(struct recorder *r)
{
	for (int p = 0; p < NR_PTRS; p++) {
		r->page[p] = UINT32_MAX;
		r->idx[p] = UINT64_MAX;
	}
}

/* After a partition of [l, r] into [l, j] and [i, r]: push the halves
 * left to sort, the right one first (qsbench's order), onto the stack of
 * ranges; returns its new depth. */
static inline size_t push_halves(int64_t (*stack)[2], size_t sp, int64_t l, int64_t j, int64_t i, int64_t r)
{
	if (i < r) {
		stack[sp][0] = i;
		stack[sp][1] = r;
		sp++;
	}
	if (l < j) {
		stack[sp][0] = l;
		stack[sp][1] = j;
		sp++;
	}
	return sp;
}

/* quick_sort(a, l, r) of a range inside one page, counting references:
 * every visit it makes is to that page, so the recording is one visit
 * whatever the order; this path only saves the recorder's bookkeeping. */
static void sort_in_page(int32_t *a, int64_t l0, int64_t r0, uint64_t *refs, bool *wrote)
{
	/* Pending ranges are disjoint and non-empty: at most one per element. */
	int64_t stack[QS_INTS_PER_PAGE + 2][2];
	size_t sp = 0;
	stack[sp][0] = l0;
	stack[sp][1] = r0;
	sp++;
	while (sp) {
		sp--;
		int64_t l = stack[sp][0], r = stack[sp][1];
		int64_t i = l, j = r, m = (l + r) >> 1;
		int32_t mn, mx, p;
		*refs += 3;
		if (a[m] >= a[l]) { mx = a[m]; mn = a[l]; } else { mx = a[l]; mn = a[m]; }
		if (a[r] >= mx)
			p = mx;
		else
			p = a[r] >= mn ? a[r] : mn;
		do {
			int64_t s = i;
			while (a[i] < p)
				i++;
			*refs += (uint64_t)(i - s) + 1;
			s = j;
			while (p < a[j])
				j--;
			*refs += (uint64_t)(s - j) + 1;
			if (i <= j) {
				int32_t tmp = a[i];
				a[i] = a[j];
				a[j] = tmp;
				*refs += 4;
				*wrote = true;
				i++;
				j--;
			}
		} while (i <= j);
		sp = push_halves(stack, sp, l, j, i, r);
	}
}

/* qsbench's quick_sort(a, l, r), with the recursion on an explicit stack
 * (same order: the left part completely, then the right part). */
static void record_sort(struct qs_buf *q, int32_t *a, int64_t n)
{
	struct recorder r = { .q = q };
	int64_t (*stack)[2] = NULL;
	size_t sp = 0, scap = 0;
	if (n < 2)
		return;
	scap = 64;
	stack = xmalloc(scap * sizeof(*stack));
	stack[sp][0] = 0;
	stack[sp][1] = n - 1;
	sp++;
	while (sp) {
		sp--;
		int64_t l = stack[sp][0], rr = stack[sp][1];
		if (l / QS_INTS_PER_PAGE == rr / QS_INTS_PER_PAGE) {
			uint64_t refs = 0;
			bool wrote = false;
			sort_in_page(a, l, rr, &refs, &wrote);
			uint32_t page = (uint32_t)(l / QS_INTS_PER_PAGE);
			while (refs) {
				uint64_t k = rec_new(q, page);
				uint64_t room = (1u << 30) - q->rec[k].refs;
				uint64_t add = MIN(refs, room);
				q->rec[k].refs += (uint32_t)add;
				if (wrote)
					q->rec[k].page |= QS_WRITE;
				refs -= add;
			}
			continue;
		}
		int64_t i = l, j = rr, m = (l + rr) >> 1;
		rec_reset(&r);
		/* Median of three values: a[l], a[m], a[r] each read once. */
		rec_at(&r, PTR_MED, (uint64_t)l)->refs++;
		rec_at(&r, PTR_MED, (uint64_t)m)->refs++;
		rec_at(&r, PTR_MED, (uint64_t)rr)->refs++;
		int32_t mn, mx, p;
		if (a[m] >= a[l]) { mx = a[m]; mn = a[l]; } else { mx = a[l]; mn = a[m]; }
		if (a[rr] >= mx)
			p = mx;
		else
			p = a[rr] >= mn ? a[rr] : mn;
		do {
			/* while (a[i] < p) i++;  one page at a time */
			for (;;) {
				struct qs_rec *v = rec_at(&r, PTR_LO, (uint64_t)i);
				int64_t lim = ((int64_t)(i / QS_INTS_PER_PAGE) + 1) * QS_INTS_PER_PAGE;
				int64_t s = i;
				while (i < lim && a[i] < p)
					i++;
				v->refs += (uint32_t)(i - s) + (i < lim);
				if (i < lim)
					break;
			}
			/* while (p < a[j]) j--; */
			for (;;) {
				struct qs_rec *v = rec_at(&r, PTR_HI, (uint64_t)j);
				int64_t lim = (j / QS_INTS_PER_PAGE) * QS_INTS_PER_PAGE;
				int64_t s = j;
				while (j >= lim && p < a[j])
					j--;
				v->refs += (uint32_t)(s - j) + (j >= lim);
				if (j >= lim)
					break;
			}
			if (i <= j) {
				int32_t tmp = a[i];
				a[i] = a[j];
				a[j] = tmp;
				struct qs_rec *v = rec_at(&r, PTR_LO, (uint64_t)i);
				v->refs += 2;
				v->page |= QS_WRITE;
				v = rec_at(&r, PTR_HI, (uint64_t)j);
				v->refs += 2;
				v->page |= QS_WRITE;
				i++;
				j--;
			}
		} while (i <= j);
		if (sp + 2 > scap) {
			scap *= 2;
			stack = xrealloc(stack, scap * sizeof(*stack));
		}
		sp = push_halves(stack, sp, l, j, i, rr);
	}
	free(stack);
}

void qsbench_fill(int32_t *a, uint64_t n, uint64_t seed)
{
	struct rng g;
	rng_seed(&g, seed);
	for (uint64_t k = 0; k < n; k++)
		a[k] = (int32_t)(rng_next(&g) >> 33); /* 0..RAND_MAX (2^31 - 1) */
}

/* ---- the shared recordings ------------------------------------------- */

/* Unused recordings are kept, up to this many bytes, for the next
 * instance that sorts the same data: reproduce runs a design over every
 * seed before the next design (five 230 MB sorts: 32 MB of recording
 * each). */
#define QS_KEEP_UNUSED_BYTES (256ULL << 20)

struct qs_entry {
	struct qs_recording r;
	struct qs_rec *buf;         /* r.rec, ours to free */
	uint64_t nelems, seed;
	int users;
	bool ready;
	uint64_t released;          /* when users last fell to 0 (a count) */
	struct qs_entry *next;
};

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cache_ready = PTHREAD_COND_INITIALIZER;
static struct qs_entry *cache;
static uint64_t cache_clock;

static void record(struct qs_entry *e, uint64_t nelems, uint64_t seed)
{
	struct qs_recording *out = &e->r;
	struct qs_buf b = { 0 };
	int32_t *arr = xmalloc(nelems * sizeof(*arr));
	qsbench_fill(arr, nelems, seed);
	record_sort(&b, arr, (int64_t)nelems);
	out->errors = 0;
	for (uint64_t k = 0; k + 1 < nelems; k++)
		out->errors += arr[k] > arr[k + 1];
	free(arr);
	out->rec = e->buf = b.rec;
	out->nrec = b.nrec;
}

const struct qs_recording *qs_recording_get(uint64_t nelems, uint64_t seed)
{
	pthread_mutex_lock(&cache_lock);
	struct qs_entry *e = cache;
	while (e && (e->nelems != nelems || e->seed != seed))
		e = e->next;
	if (e) {
		e->users++;
		while (!e->ready)
			pthread_cond_wait(&cache_ready, &cache_lock);
		pthread_mutex_unlock(&cache_lock);
		return &e->r;
	}
	e = xcalloc(1, sizeof(*e));
	e->nelems = nelems;
	e->seed = seed;
	e->users = 1;
	e->next = cache;
	cache = e;
	pthread_mutex_unlock(&cache_lock);
	/* Outside the lock: other seeds record meanwhile on other threads;
	 * an instance asking for this one waits for it. */
	record(e, nelems, seed);
	pthread_mutex_lock(&cache_lock);
	e->ready = true;
	pthread_cond_broadcast(&cache_ready);
	pthread_mutex_unlock(&cache_lock);
	return &e->r;
}

/* Free the longest unused recordings until at most `keep` bytes of
 * unused ones are left.  Under cache_lock. */
static void trim_unused(uint64_t keep)
{
	for (;;) {
		uint64_t unused = 0;
		struct qs_entry **oldest = NULL;
		for (struct qs_entry **pp = &cache; *pp; pp = &(*pp)->next)
			if (!(*pp)->users) {
				unused += (*pp)->r.nrec * sizeof(struct qs_rec);
				if (!oldest || (*pp)->released < (*oldest)->released)
					oldest = pp;
			}
		if (unused <= keep || !oldest)
			break;
		struct qs_entry *o = *oldest;
		*oldest = o->next;
		free(o->buf);
		free(o);
	}
}

void qs_recording_put(const struct qs_recording *r)
{
	if (!r)
		return;
	pthread_mutex_lock(&cache_lock);
	struct qs_entry *e = (struct qs_entry *)((char *)r - offsetof(struct qs_entry, r));
	if (--e->users == 0)
		e->released = ++cache_clock;
	trim_unused(QS_KEEP_UNUSED_BYTES);
	pthread_mutex_unlock(&cache_lock);
}

void qs_recordings_drop_unused(void)
{
	pthread_mutex_lock(&cache_lock);
	trim_unused(0);
	pthread_mutex_unlock(&cache_lock);
}

uint64_t qs_recordings_unused_bytes(void)
{
	uint64_t unused = 0;
	pthread_mutex_lock(&cache_lock);
	for (const struct qs_entry *e = cache; e; e = e->next)
		if (!e->users)
			unused += e->r.nrec * sizeof(struct qs_rec);
	pthread_mutex_unlock(&cache_lock);
	return unused;
}
