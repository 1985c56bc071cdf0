/* clock_index.c - see clock_index.h. */
#include "clock_index.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

void clock_index_init(struct clock_index *x) { memset(x, 0, sizeof(*x)); }

void clock_index_destroy(struct clock_index *x)
{
	free(x->key_of);
	free(x->id_at);
	free(x->marked_at);
	free(x->all);
	free(x->marked);
	free(x->marked_sum);
	free(x->marked_sum2);
	free(x->sub_n);
	free(x->super_n);
	memset(x, 0, sizeof(*x));
}

/* Entries are counted per 512 keys (8 words) and per 32768 keys (64 of
 * those), so a count over a range reads at most 8 words, 64 small counts
 * and one large count per 32768 keys at each end. */
#define SUB_SHIFT 9
#define SUPER_SHIFT 15
#define BIT(k) (1ULL << ((k) & 63))

/* popcount without the host's instruction (the build targets any x86-64;
 * gcc's libgcc call for __builtin_popcountll was a quarter of a replay). */
static inline uint32_t pop(uint64_t v)
{
	v -= (v >> 1) & 0x5555555555555555ULL;
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (uint32_t)((v * 0x0101010101010101ULL) >> 56);
}

/* Inline, `on` a constant at each call: called, with `on` tested, they
 * were 24 and 21 instructions an update, a tenth of a CLOCK-Pro replay's
 * (callgrind). */
__attribute__((always_inline)) static inline void set_all(struct clock_index *x, uint32_t key, bool on)
{
	uint32_t d = on ? 1 : UINT32_MAX; /* unsigned: adds or subtracts one */
	x->all[key >> 6] = on ? x->all[key >> 6] | BIT(key) : x->all[key >> 6] & ~BIT(key);
	x->sub_n[key >> SUB_SHIFT] += (uint16_t)d;
	x->super_n[key >> SUPER_SHIFT] += d;
}

__attribute__((always_inline)) static inline void set_marked(struct clock_index *x, uint32_t key, bool on)
{
	uint32_t w = key >> 6, sw = w >> 6;
	if (on) {
		x->marked[w] |= BIT(key);
		x->marked_sum[sw] |= BIT(w);
		x->marked_sum2[sw >> 6] |= BIT(sw);
	} else if (!(x->marked[w] &= ~BIT(key)) && !(x->marked_sum[sw] &= ~BIT(w))) {
		x->marked_sum2[sw >> 6] &= ~BIT(sw);
	}
}

/* Entries with keys in [a, b), within one run of 512 keys (b may be its end). */
static uint64_t count_words(const struct clock_index *x, uint32_t a, uint32_t b)
{
	uint64_t n = 0;
	for (uint32_t w = a >> 6; a < b; w++, a = w << 6) {
		uint64_t v = x->all[w] & (~0ULL << (a & 63));
		if (b - (w << 6) < 64)
			v &= BIT(b) - 1;
		n += pop(v);
	}
	return n;
}

/* Entries in the runs of 512 keys [a, b). */
static uint64_t count_subs(const struct clock_index *x, uint32_t a, uint32_t b)
{
	uint64_t n = 0;
	const uint32_t per = 1u << (SUPER_SHIFT - SUB_SHIFT);
	if (b - a > per) {
		uint32_t sa = (a + per - 1) / per, sb = b / per;
		n += count_subs(x, a, sa * per) + count_subs(x, sb * per, b);
		for (uint32_t k = sa; k < sb; k++)
			n += x->super_n[k];
		return n;
	}
	/* four counts (each at most 512) a load, summed by one multiply */
	uint32_t k = a;
	for (; k < b && (k & 3); k++)
		n += x->sub_n[k];
	for (uint64_t v; k + 4 <= b; k += 4) {
		memcpy(&v, &x->sub_n[k], sizeof(v));
		n += (v * 0x0001000100010001ULL) >> 48;
	}
	for (; k < b; k++)
		n += x->sub_n[k];
	return n;
}

/* Entries with keys in [a, b), a <= b.  Inline, with the case of one
 * word (most of the cold hand's jumps, callgrind) first: the calls were
 * a third of a jump's instructions. */
__attribute__((always_inline)) static inline uint64_t count_in(const struct clock_index *x, uint32_t a, uint32_t b)
{
	if (b - a < 64 && (a >> 6) == ((b - 1) >> 6)) {
		uint64_t v = x->all[a >> 6] >> (a & 63);
		return b > a ? pop(v & (BIT(b - a) - 1)) : 0;
	}
	uint32_t sa = a >> SUB_SHIFT, sb = b >> SUB_SHIFT;
	if (sa == sb)
		return count_words(x, a, b);
	return count_words(x, a, (sa + 1) << SUB_SHIFT) + count_subs(x, sa + 1, sb) +
	       count_words(x, sb << SUB_SHIFT, b);
}

/* The first marked key at or after key, or CLOCK_INDEX_NONE. */
static uint32_t next_marked_key(const struct clock_index *x, uint32_t key)
{
	uint32_t w = key >> 6, nwords = x->cap >> 6;
	uint64_t v = x->marked[w] & (~0ULL << (key & 63));
	if (!v) {
		if (++w >= nwords)
			return CLOCK_INDEX_NONE;
		uint32_t sw = w >> 6, nsum = (nwords + 63) >> 6;
		uint64_t sv = x->marked_sum[sw] & (~0ULL << (w & 63));
		if (!sv) {
			/* the next summary word not zero, through the
			 * second summary (262144 keys a word) */
			if (++sw >= nsum)
				return CLOCK_INDEX_NONE;
			uint32_t t = sw >> 6, nsum2 = (nsum + 63) >> 6;
			uint64_t tv = x->marked_sum2[t] & (~0ULL << (sw & 63));
			while (!tv) {
				if (++t >= nsum2)
					return CLOCK_INDEX_NONE;
				tv = x->marked_sum2[t];
			}
			sw = t << 6 | (uint32_t)__builtin_ctzll(tv);
			sv = x->marked_sum[sw];
		}
		w = sw << 6 | (uint32_t)__builtin_ctzll(sv);
		v = x->marked[w];
	}
	return w << 6 | (uint32_t)__builtin_ctzll(v);
}

/* The key of the entry with r entries below it (r < n). */
static uint32_t select_key(const struct clock_index *x, uint64_t r)
{
	uint32_t b = 0, w;
	while (r >= x->super_n[b])
		r -= x->super_n[b++];
	for (b <<= SUPER_SHIFT - SUB_SHIFT; r >= x->sub_n[b]; b++)
		r -= x->sub_n[b];
	for (w = b << (SUB_SHIFT - 6);; w++) {
		uint64_t c = pop(x->all[w]);
		if (r < c)
			break;
		r -= c;
	}
	uint64_t v = x->all[w];
	while (r--)
		v &= v - 1;
	return w << 6 | (uint32_t)__builtin_ctzll(v);
}

/* The keys ran out (next == cap): the live entries take keys 0..n-1 in
 * their order, and cap doubles until at least half of it is free, so
 * renumbering (O(cap)) comes at most once per cap / 2 appends.  The
 * entries are found through the bitmap (a word of 64 keys a step), and
 * their marks go straight to the new mark bitmaps: stepping every old
 * key and then every new one it was 16 M of a CLOCK-Pro replay's 437 M
 * instructions (callgrind, 2 M references in 100 K frames).  Not inline:
 * inlined, its registers were saved and restored on every append. */
__attribute__((noinline, cold)) static void renumber(struct clock_index *x)
{
	uint32_t cap = x->cap ? x->cap : 64;
	while (2ULL * x->n >= cap)
		cap *= 2;
	uint32_t nwords = cap >> 6, k = 0;
	free(x->marked);
	free(x->marked_sum);
	free(x->marked_sum2);
	x->marked = xcalloc(nwords, sizeof(*x->marked));
	x->marked_sum = xcalloc((nwords + 63) >> 6, sizeof(*x->marked_sum));
	x->marked_sum2 = xcalloc((((nwords + 63) >> 6) + 63) >> 6, sizeof(*x->marked_sum2));
	/* in place: an entry's new key is never above its old one */
	for (uint32_t w = 0; w < (x->next + 63) >> 6; w++)
		for (uint64_t v = x->all[w]; v; v &= v - 1) {
			uint32_t old = w << 6 | (uint32_t)__builtin_ctzll(v), id = x->id_at[old];
			uint8_t mk = x->marked_at[old];
			x->id_at[k] = id;
			x->marked_at[k] = mk;
			x->key_of[id] = k + 1;
			if (mk)
				set_marked(x, k, true);
			k++;
		}
	x->id_at = xrealloc(x->id_at, cap * sizeof(*x->id_at));
	x->marked_at = xrealloc(x->marked_at, cap);
	memset(x->id_at + k, 0xff, (size_t)(cap - k) * sizeof(*x->id_at)); /* CLOCK_INDEX_NONE */
	memset(x->marked_at + k, 0, cap - k);
	free(x->all);
	free(x->sub_n);
	free(x->super_n);
	x->all = xcalloc(nwords, sizeof(*x->all));
	x->sub_n = xcalloc((cap >> SUB_SHIFT) + 1, sizeof(*x->sub_n));
	x->super_n = xcalloc((cap >> SUPER_SHIFT) + 1, sizeof(*x->super_n));
	/* keys 0..k-1 all taken: whole words, whole counts */
	for (uint32_t w = 0; w < k >> 6; w++)
		x->all[w] = ~0ULL;
	if (k & 63)
		x->all[k >> 6] = BIT(k) - 1;
	for (uint32_t s = 0; s < k >> SUB_SHIFT; s++)
		x->sub_n[s] = 1u << SUB_SHIFT;
	x->sub_n[k >> SUB_SHIFT] = (uint16_t)(k & ((1u << SUB_SHIFT) - 1));
	for (uint32_t s = 0; s < k >> SUPER_SHIFT; s++)
		x->super_n[s] = 1u << SUPER_SHIFT;
	x->super_n[k >> SUPER_SHIFT] = k & ((1u << SUPER_SHIFT) - 1);
	x->cap = cap;
	x->next = k;
	x->lo = 0;
	x->gen++;
}

/* key_of has room for id (the test inline: a call on every append was
 * 8 M of a replay's instructions). */
static void grow_ids_slow(struct clock_index *x, uint32_t id)
{
	uint32_t nids = x->nids ? x->nids : 64;
	while (nids <= id)
		nids *= 2;
	x->key_of = xrealloc(x->key_of, nids * sizeof(*x->key_of));
	memset(x->key_of + x->nids, 0, (nids - x->nids) * sizeof(*x->key_of));
	x->nids = nids;
}

static inline void grow_ids(struct clock_index *x, uint32_t id)
{
	if (__builtin_expect(id >= x->nids, 0))
		grow_ids_slow(x, id);
}

void clock_index_append(struct clock_index *x, uint32_t id, bool marked)
{
	grow_ids(x, id);
	if (x->next == x->cap)
		renumber(x);
	uint32_t k = x->next++;
	x->id_at[k] = id;
	x->marked_at[k] = marked;
	x->key_of[id] = k + 1;
	set_all(x, k, true);
	if (marked) {
		set_marked(x, k, true);
		x->nmarked++;
	}
	x->n++;
}

/* The first key at or after key that holds an entry, or CLOCK_INDEX_NONE:
 * a word of 64 keys a step, a run of 512 keys with no entry in one. */
static uint32_t next_key(const struct clock_index *x, uint32_t key)
{
	if (key >= x->next)
		return CLOCK_INDEX_NONE;
	uint32_t w = key >> 6, nwords = (x->next + 63) >> 6;
	uint64_t v = x->all[w] & (~0ULL << (key & 63));
	while (!v) {
		if (++w >= nwords)
			return CLOCK_INDEX_NONE;
		if (!(w & ((1u << (SUB_SHIFT - 6)) - 1))) {
			uint32_t s = w >> (SUB_SHIFT - 6);
			while (!x->sub_n[s] && (s + 1) << (SUB_SHIFT - 6) < nwords)
				s++;
			if (!x->sub_n[s])
				return CLOCK_INDEX_NONE;
			w = s << (SUB_SHIFT - 6);
		}
		v = x->all[w];
	}
	return w << 6 | (uint32_t)__builtin_ctzll(v);
}

uint32_t clock_index_first_key(struct clock_index *x)
{
	/* Keys below the lowest entry's only lose entries until the
	 * renumbering: the search resumes where the last one ended. */
	uint32_t k = next_key(x, x->lo);
	if (k != CLOCK_INDEX_NONE)
		x->lo = k;
	return k;
}

uint32_t clock_index_first(struct clock_index *x)
{
	uint32_t k = clock_index_first_key(x);
	return k == CLOCK_INDEX_NONE ? k : x->id_at[k];
}

uint32_t clock_index_key_next_far(const struct clock_index *x, uint32_t key) { return next_key(x, key); }

uint32_t clock_index_after(const struct clock_index *x, uint32_t id)
{
	uint32_t k = x->key_of[id]; /* the key + 1: the first one to look at */
	/* the next entry in the same word, most steps' (as count_in) */
	uint64_t v = k < x->next ? x->all[k >> 6] >> (k & 63) : 0;
	if (v)
		return x->id_at[k + (uint32_t)__builtin_ctzll(v)];
	k = next_key(x, k);
	return k == CLOCK_INDEX_NONE ? k : x->id_at[k];
}

void clock_index_remove(struct clock_index *x, uint32_t id)
{
	if (clock_index_has(x, id))
		clock_index_remove_at(x, id, x->key_of[id] - 1);
}

void clock_index_remove_at(struct clock_index *x, uint32_t id, uint32_t k)
{
	set_all(x, k, false);
	if (x->marked_at[k]) {
		set_marked(x, k, false);
		x->nmarked--;
		x->marked_at[k] = 0;
	}
	x->id_at[k] = CLOCK_INDEX_NONE;
	x->key_of[id] = 0;
	x->n--;
}

void clock_index_relabel(struct clock_index *x, uint32_t id, uint32_t to)
{
	grow_ids(x, to);
	uint32_t k1 = x->key_of[id];
	x->key_of[to] = k1;
	x->key_of[id] = 0;
	x->id_at[k1 - 1] = to;
}

void clock_index_mark(struct clock_index *x, uint32_t id, bool marked)
{
	clock_index_mark_at(x, x->key_of[id] - 1, marked);
}

void clock_index_mark_at(struct clock_index *x, uint32_t k, bool marked)
{
	if (x->marked_at[k] == marked)
		return;
	x->marked_at[k] = marked;
	set_marked(x, k, marked);
	x->nmarked += marked ? 1 : UINT32_MAX;
}

uint32_t clock_index_marked_key(const struct clock_index *x, uint32_t k)
{
	if (!x->nmarked)
		return CLOCK_INDEX_NONE;
	/* In k's own word (inline), else the search; none at or after k:
	 * the first one from the tail. */
	uint64_t v = x->marked[k >> 6] >> (k & 63);
	uint32_t km = v ? k + (uint32_t)__builtin_ctzll(v) : next_marked_key(x, k);
	if (km == CLOCK_INDEX_NONE)
		km = next_marked_key(x, 0);
	return km;
}

uint32_t clock_index_find_marked(const struct clock_index *x, uint32_t id)
{
	uint32_t km = clock_index_marked_key(x, x->key_of[id] - 1);
	return km == CLOCK_INDEX_NONE ? km : x->id_at[km];
}

uint64_t clock_index_distance(const struct clock_index *x, uint32_t from, uint32_t to)
{
	uint32_t k = x->key_of[from] - 1, kt = x->key_of[to] - 1;
	return kt >= k ? count_in(x, k, kt) : x->n - count_in(x, kt, k);
}

uint32_t clock_index_next_marked(const struct clock_index *x, uint32_t id, uint64_t *dist)
{
	uint32_t j = clock_index_find_marked(x, id);
	if (j != CLOCK_INDEX_NONE)
		*dist = clock_index_distance(x, id, j);
	return j;
}

uint32_t clock_index_advance(const struct clock_index *x, uint32_t id, uint64_t places)
{
	uint64_t r = (count_in(x, 0, x->key_of[id] - 1) + places % x->n) % x->n;
	return x->id_at[select_key(x, r)];
}
