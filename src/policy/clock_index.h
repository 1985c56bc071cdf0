/* clock_index.h - the order of a circular list (a clock) as an index, so a
 * hand can jump to the next entry of interest instead of stepping over the
 * ones it has nothing to do with.
 *
 * CLOCK-Pro's cold hand looks only at resident cold pages, but its clock
 * also holds the hot pages and the non-resident ones in their test period:
 * stepping one entry at a time it went round the whole clock on every
 * reclaim call while its few cold pages were busy with I/O (qsbench -p 4
 * -m 26 in 104M: 12.6 G hand steps in 129 818 calls).  Here every entry of
 * the clock has a position key, larger towards the head, and some entries
 * are marked (the resident cold ones); the index answers in O(log n)
 * "the first marked entry at or after this one, and how many entries lie
 * between" and "the entry n places after this one", both wrapping from
 * the head back to the tail, so the hand's jump leaves it exactly where
 * the steps would have.
 *
 * Entries are ids (the ghost table's entry numbers); "after" is the
 * direction the hands go, from the tail (the oldest) towards the head (the
 * newest).  Keys are handed out increasing at each append and renumbered
 * densely when they run out, so the positions are two bitmaps over the
 * keys (all entries, marked entries), with counts of the entries in each
 * run of 512 and of 32768 keys and a bit per word of marked keys that is
 * not zero, and one per word of those (the search skips 262144 unmarked
 * keys a step).  Two Fenwick trees held
 * them before: each query and update walked 20 nodes of 2 MB trees, 45%
 * of a CLOCK-Pro replay's instructions (callgrind, 100 K frames); the
 * bitmaps are 64 KB each and a jump reads a few words of them, as the
 * limit's (bench/limit/clockpro.c) do. */
#ifndef PAGELAB_CLOCK_INDEX_H
#define PAGELAB_CLOCK_INDEX_H

#include <stdbool.h>
#include <stdint.h>

#define CLOCK_INDEX_NONE UINT32_MAX

struct clock_index {
	uint32_t *key_of;   /* per id: its key + 1, 0 = not in the index */
	uint32_t nids;      /* ids key_of has room for */
	uint32_t *id_at;    /* per key: the id, CLOCK_INDEX_NONE = a gap */
	uint8_t *marked_at; /* per key: marked */
	uint64_t *all, *marked; /* bitmaps over the keys */
	uint64_t *marked_sum;   /* bit w: word w of marked is not zero */
	/* bit s: word s of marked_sum is not zero.  The cold hand's search
	 * read marked_sum a word at a time: on make bench's trace a jump
	 * passes some 96 000 entries between resident cold pages, tens of
	 * its words, and the loop was a tenth of the replay (perf). */
	uint64_t *marked_sum2;
	uint16_t *sub_n;    /* per 512 keys: the entries among them */
	uint32_t *super_n;  /* per 32768 keys: the same */
	uint32_t cap;       /* keys: a power of two (0 before the first append) */
	uint32_t next;      /* the key the next append takes */
	uint32_t n, nmarked;
	uint32_t lo;        /* no entry has a key below it */
	uint32_t gen;       /* renumberings so far: a key kept past one is stale */
};

void clock_index_init(struct clock_index *x);
void clock_index_destroy(struct clock_index *x);

/* Entry id (not in the index) goes to the head of the clock. */
void clock_index_append(struct clock_index *x, uint32_t id, bool marked);
/* Entry id leaves the clock; a no-op if it is not on it. */
void clock_index_remove(struct clock_index *x, uint32_t id);
/* Entry id (in the index) is named `to` (not in it) from now on, in its
 * place and with its mark. */
void clock_index_relabel(struct clock_index *x, uint32_t id, uint32_t to);
/* Entry id (in the index) is marked or not. */
void clock_index_mark(struct clock_index *x, uint32_t id, bool marked);

static inline bool clock_index_has(const struct clock_index *x, uint32_t id)
{
	return id < x->nids && x->key_of[id];
}
static inline bool clock_index_marked(const struct clock_index *x, uint32_t id)
{
	return x->marked_at[x->key_of[id] - 1];
}
/* Its position key: larger towards the head (for --check's order walk). */
static inline uint32_t clock_index_key(const struct clock_index *x, uint32_t id) { return x->key_of[id] - 1; }
static inline uint32_t clock_index_count(const struct clock_index *x) { return x->n; }
static inline uint32_t clock_index_nr_marked(const struct clock_index *x) { return x->nmarked; }

/* The first marked entry at or after entry id (in the index), wrapping;
 * *dist = how many places after id it is (0: id itself).  NONE if no
 * entry is marked. */
uint32_t clock_index_next_marked(const struct clock_index *x, uint32_t id, uint64_t *dist);
/* The same without the distance, and the distance alone: how many places
 * after entry `from` entry `to` is, wrapping (both in the index).  The
 * count is what a jump costs beyond the search - on make bench's trace
 * the cold hand passes some 96 000 hot entries a jump - and CLOCK-Pro in
 * a cache needs it for only a few of its jumps (clockpro.c). */
uint32_t clock_index_find_marked(const struct clock_index *x, uint32_t id);
uint64_t clock_index_distance(const struct clock_index *x, uint32_t from, uint32_t to);
/* The entry at the tail (the lowest key), NONE if the clock is empty. */
uint32_t clock_index_first(struct clock_index *x);
/* The entry after entry id (in the index) towards the head, NONE if id
 * is the head: the clock's order is the index's, so the clock needs no
 * list links of its own (clockpro.c). */
uint32_t clock_index_after(const struct clock_index *x, uint32_t id);
/* The entry `places` places after entry id (in the index), wrapping. */
uint32_t clock_index_advance(const struct clock_index *x, uint32_t id, uint64_t places);

/* By key, for a hand that keeps the key of the entry it is on (valid
 * while `gen` stays the same): finding an entry's key through key_of
 * was a random host line per step of CLOCK-Pro's hands, on the chain
 * from one step to the next (clockpro.c: hand_take).  The entry with a
 * key; the first key after `key` holding an entry (NONE: none before the
 * head); the tail's key (NONE: the clock is empty); the first marked key
 * at or after `key`, wrapping (NONE: none is marked). */
static inline uint32_t clock_index_id_at(const struct clock_index *x, uint32_t key) { return x->id_at[key]; }
uint32_t clock_index_key_next_far(const struct clock_index *x, uint32_t key);
static inline uint32_t clock_index_key_next(const struct clock_index *x, uint32_t key)
{
	uint32_t k = key + 1;
	/* the next entry in the same word, most steps' */
	uint64_t v = k < x->next ? x->all[k >> 6] >> (k & 63) : 0;
	return v ? k + (uint32_t)__builtin_ctzll(v) : clock_index_key_next_far(x, k);
}
uint32_t clock_index_first_key(struct clock_index *x);
uint32_t clock_index_marked_key(const struct clock_index *x, uint32_t key);
/* clock_index_remove() and _mark() of the entry with key `key` (id, in
 * the index, for remove): a hand that has stepped onto an entry acts on
 * it without reading its key again. */
void clock_index_remove_at(struct clock_index *x, uint32_t id, uint32_t key);
void clock_index_mark_at(struct clock_index *x, uint32_t key, bool marked);

#endif
