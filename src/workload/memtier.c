/* memtier.c - memtier_benchmark (RedisLabs, memcache_text protocol)
 * driving a memcached-like store of items in anonymous memory: the
 * key-value cache of today's reclaim threads (`memtier_benchmark -P
 * memcache_text --key-pattern=G:G --ratio=1:10 -t 4 -c 50`).
 *
 * The client, from memtier_benchmark.cpp's usage and obj_gen.cpp:
 * --threads (default 4) threads of --clients (default 50) connections,
 * each doing --requests (default 10000) requests or for --test-time
 * seconds, one outstanding request per connection; --ratio=SET:GET
 * (default 1:10) cycles SET SETs then GET GETs; keys "memtier-ID" with ID
 * in [--key-minimum, --key-maximum] (default 0..10000000) drawn per
 * --key-pattern=SET:GET (default R:R): R uniform, G Gaussian around
 * --key-median with --key-stddev (defaults: the centre, range / 6,
 * redrawn until in range), Z Zipf with --key-zipf-exp (default 1; rank 1
 * is the lowest ID), S sequential; -d/--data-size bytes of data
 * (default 32).
 * The store, after memcached 1.6 (items.c, slabs.c): an item is the
 * 48-byte header, 8 bytes of CAS, the key and its NUL, the data and
 * "\r\n", kept in the smallest slab class that holds it (96 bytes, each
 * class 1.25 times the last, 8-aligned), chunks packed in 1 MiB slab
 * pages, handed out from each page's end; a SET takes the chunk the last
 * replacing SET freed or a new one, a GET or SET first reads the key's
 * hash-table bucket (8 bytes a bucket, 2^16 buckets or
 * the power of two memcached grows to for the key range at 1.5 items a
 * bucket).  A GET of a key never SET is a miss.
 *
 * pagelab: each of --threads is a task that is both a memtier thread and
 * the memcached worker serving it, and owns the keys with (ID - min) %
 * threads == its number (pagelab tasks do not share an address space, so
 * memcached's one item store is split among them by key; each part sees
 * the whole distribution's shape).  Its clients take turns (closed loop,
 * one outstanding request each): a request's latency is the simulated
 * time from that client's previous reply to its reply, measured with an
 * OP_MARK after every request.  --preload (pagelab's) first SETs every key
 * of the range, as a `--ratio=1:0 -n allkeys --key-pattern=P:P` run before
 * the measured one would; it is not counted.
 * Each measured request also costs the system calls of its round trip
 * over the loopback: memtier's write() of the request and read() of the
 * reply (shard_connection.cpp's bufferevent), memcached's read() of it
 * and sendmsg() of the reply (memcached.c's try_read_network and
 * transmit), four calls of the machine's cost.syscall (counted as CPU
 * time of the task).  Without them a request costs a few nanoseconds of
 * memory time when all is resident, and a --test-time run simulated
 * hundreds of millions of requests a second.
 * --rtt=TIME (pagelab's; default 15us, the TCP loopback round trip
 * measured on this project's host: docs/workloads.md) is the whole
 * network round trip of a request, those four calls and the context
 * switch of the server's wake-up included (both CPU time, as a loopback
 * ping-pong's are): the rest is time off the CPU (the stack, the wire).
 * No request comes back sooner than --rtt after its client's previous
 * reply: the task waits for it (OP_SLEEP, woken with the switch) when no
 * other client's request is there to serve meanwhile (mt_wait()).  With
 * one client every request takes the round trip longer, with enough
 * clients the round trips overlap the others' requests and cost no time,
 * as in a closed loop with a busy server.  Natively (no simulated calls)
 * nothing is added.
 * Not modeled: the TCP stack's CPU work beyond those calls, a queue on
 * the wire, epoll, memcached's -m limit and LRU eviction, expiry,
 * pipelining, --run-count, the redis protocol.
 * Output: memtier's "N Threads / N Connections per thread / N Requests
 * per client" lines and the ALL STATS table of memtier 1.2 (Type
 * Ops/sec Hits/sec Misses/sec Latency KB/sec, latency in msec), then its
 * p50/p99/p99.9 latency columns as a second table (80 columns).
 * Figures of merit (records, pagelab ablate): the Totals row's ops/sec
 * (ops_s), mean latency (latency_ms) and p99 (p99_ms). */
#include "workload.h"
#include "args.h"
#include "wldist.h"

#include <stdlib.h>
#include <string.h>

#define MT_MAX_THREADS 256
#define MT_MAX_CLIENTS 100000
#define MT_SLAB_PAGE (1u << 20)
#define MT_ITEM_HDR (48 + 8)
#define MT_NOSLOT UINT32_MAX
#define MT_ROUND_TRIP_CALLS 4   /* write, read (memtier); read, sendmsg (memcached) */
/* --rtt's default: a 32-byte request and reply over TCP on 127.0.0.1
 * between two processes, TCP_NODELAY, 50000 round trips: 15.0 us at the
 * least, 18-22 us the median on the loaded 2-core host (6 Dec 2026). */
#define MT_LOOPBACK_RTT_NS 15000

enum mt_pat { PAT_R, PAT_G, PAT_Z, PAT_S };
enum mt_phase { M_MAP, M_HASH, M_PRELOAD, M_START, M_RUN, M_DONE };

struct mt_task {
	enum mt_phase ph;
	uint64_t nkeys;             /* keys of this task's part */
	uint32_t *slot;             /* chunk of each key of the part */
	uint64_t nalloc;            /* chunks taken */
	uint32_t spare;             /* the chunk the last replacing SET freed */
	uint64_t req, pre;          /* requests issued; preload cursor */
	uint64_t seq;               /* S pattern cursor */
	uint32_t step;              /* 5 the request on its way, 4 the round
				     * trip's calls, 0 bucket, 1 item, 3 new
				     * chunk, 2 mark */
	uint64_t wait_ns;           /* of step 5 */
	uint32_t kind;              /* of the request in flight: 1 set, 2 hit, 3 miss */
	uint64_t key;               /* its key index within the part */
	uint64_t start_ns, now_ns, last_ns;
	uint64_t *done_ns;          /* each client's last reply */
	uint64_t ops[3];            /* sets, hits, misses issued */
	uint64_t marks;             /* request marks seen */
	struct wl_hist lat[2];      /* sets, gets */
	bool stop;
	struct rng rng;
};

struct memtier {
	uint64_t threads, clients, requests, test_ns, data, kmin, kmax, set_r, get_r;
	enum mt_pat pat[2];
	double stddev, median, zexp;
	bool preload, allkeys;
	uint64_t chunk, per_page, buckets, keylen;
	uint64_t net_ns;            /* a request's round-trip system calls */
	uint64_t rtt_ns;            /* --rtt */
	uint64_t due_ns;            /* of it, beyond the calls (0 natively) */
	uint64_t ctxsw_ns;          /* the machine's context switch */
	struct wl_zipf zipf;
	struct mt_task *t;
};

static void mt_help(FILE *out)
{
	fputs(
"usage: memtier [-t THREADS] [-c CLIENTS] [-n REQUESTS|allkeys | --test-time=S]\n"
"               [--ratio=SET:GET] [-d BYTES] [--key-minimum=N] [--key-maximum=N]\n"
"               [--key-pattern=P:P] [--key-stddev=X] [--key-median=X]\n"
"               [--key-zipf-exp=X] [--preload] [--rtt=TIME]\n"
"memtier_benchmark against a memcached-like store of items in anonymous\n"
"memory.  Each of THREADS (default 4) tasks is a memtier thread and the\n"
"memcached worker that owns its share of the keys; its CLIENTS (default 50)\n"
"connections take turns, one request each.  REQUESTS per client (default\n"
"10000), or S seconds of simulated time.  --ratio SET:GET (default 1:10);\n"
"patterns R (uniform, default), G (Gaussian), Z (Zipf), S (sequential) for\n"
"SETs:GETs; keys default 0..10000000; -d data bytes (default 32).\n"
"--preload: SET every key first (not counted).  Latency: the store's\n"
"simulated memory time and the network round trip, --rtt (default 15us,\n"
"TCP loopback measured; its 4 system calls are CPU time, the rest waiting).\n"
"Output: memtier's ALL STATS table and its p50/p99/p99.9 latencies (msec).\n", out);
}

static bool mt_pattern(struct memtier *m, const char *v)
{
	static const char codes[] = "RGZS";
	if (!v || strlen(v) != 3 || v[1] != ':')
		return false;
	for (int k = 0; k < 2; k++) {
		const char *c = v[2 * k] ? strchr(codes, v[2 * k]) : NULL;
		if (!c)
			return false;
		m->pat[k] = (enum mt_pat)(c - codes);
	}
	return true;
}

static bool mt_ratio(struct memtier *m, const char *v)
{
	const char *c = v ? strchr(v, ':') : NULL;
	char b[24];
	if (!c || (size_t)(c - v) >= sizeof(b))
		return false;
	memcpy(b, v, (size_t)(c - v));
	b[c - v] = 0;
	return wl_u64_in(b, 0, 1000000, &m->set_r) && wl_u64_in(c + 1, 0, 1000000, &m->get_r) &&
	       m->set_r + m->get_r > 0;
}

static bool mt_dbl(const char *v, double lo, double hi, double *x)
{
	return v && parse_double(v, x) && *x > lo && *x < hi;
}

/* One option at argv[*i]; false with err set when bad or unknown. */
static bool mt_opt(struct memtier *m, int argc, char **argv, int *i, char *err, size_t errlen)
{
	const char *v, *a = argv[*i];
	bool ok;
	if (wl_longopt(argc, argv, i, "threads", 't', true, &v))
		ok = wl_u64_in(v, 1, MT_MAX_THREADS, &m->threads);
	else if (wl_longopt(argc, argv, i, "clients", 'c', true, &v))
		ok = wl_u64_in(v, 1, MT_MAX_CLIENTS, &m->clients);
	else if (wl_longopt(argc, argv, i, "requests", 'n', true, &v))
		ok = (v && !strcmp(v, "allkeys") && (m->allkeys = true)) ||
		     wl_u64_in(v, 1, 1ULL << 40, &m->requests);
	else if (wl_longopt(argc, argv, i, "test-time", 0, true, &v))
		ok = wl_u64_in(v, 1, 1000000, &m->test_ns) && (m->test_ns *= 1000000000ULL);
	else if (wl_longopt(argc, argv, i, "ratio", 0, true, &v))
		ok = mt_ratio(m, v);
	else if (wl_longopt(argc, argv, i, "data-size", 'd', true, &v))
		ok = wl_u64_in(v, 1, 1 << 19, &m->data);
	else if (wl_longopt(argc, argv, i, "key-minimum", 0, true, &v))
		ok = wl_u64_in(v, 0, 1ULL << 40, &m->kmin);
	else if (wl_longopt(argc, argv, i, "key-maximum", 0, true, &v))
		ok = wl_u64_in(v, 0, 1ULL << 40, &m->kmax);
	else if (wl_longopt(argc, argv, i, "key-pattern", 0, true, &v))
		ok = mt_pattern(m, v);
	else if (wl_longopt(argc, argv, i, "key-stddev", 0, true, &v))
		ok = mt_dbl(v, 0, 1e15, &m->stddev);
	else if (wl_longopt(argc, argv, i, "key-median", 0, true, &v))
		ok = mt_dbl(v, 0, 1e15, &m->median);
	else if (wl_longopt(argc, argv, i, "key-zipf-exp", 0, true, &v))
		ok = mt_dbl(v, 0, 5, &m->zexp);
	else if (wl_longopt(argc, argv, i, "preload", 0, false, &v))
		ok = !v && (m->preload = true);
	else if (wl_longopt(argc, argv, i, "rtt", 0, true, &v))
		ok = v && parse_duration_ns(v, &m->rtt_ns) && m->rtt_ns <= 1000000000ULL;
	else {
		snprintf(err, errlen, "memtier: unrecognized option '%s' (see pagelab workloads memtier --help)", a);
		return false;
	}
	if (!ok)
		snprintf(err, errlen, "memtier: bad value '%s' for %s", v ? v : "", a);
	return ok;
}

static bool mt_validate(struct memtier *m, char *err, size_t errlen)
{
	if (m->kmax < m->kmin) {
		snprintf(err, errlen, "memtier: --key-maximum is below --key-minimum");
		return false;
	}
	if (m->kmax - m->kmin + 1 > (1ULL << 31) || (m->kmax - m->kmin + 1) < m->threads) {
		snprintf(err, errlen, "memtier: the key range must hold 1..2^31 keys, at least one a thread");
		return false;
	}
	if (m->test_ns && (m->requests || m->allkeys)) {
		snprintf(err, errlen, "memtier: give --requests or --test-time, not both");
		return false;
	}
	if (m->allkeys && m->pat[0] != PAT_S && m->pat[1] != PAT_S) {
		snprintf(err, errlen, "memtier: -n allkeys needs a sequential key pattern (S)");
		return false;
	}
	if (m->median && ((uint64_t)m->median <= m->kmin || m->median >= (double)m->kmax)) {
		snprintf(err, errlen, "memtier: --key-median must lie inside the key range");
		return false;
	}
	if (!m->test_ns && !m->requests && !m->allkeys)
		m->requests = 10000;
	return true;
}

/* memcached's slab class for the largest item, and its hash table. */
static void mt_geometry(struct memtier *m)
{
	char b[32];
	m->keylen = (uint64_t)snprintf(b, sizeof(b), "memtier-%llu", (unsigned long long)m->kmax);
	uint64_t item = MT_ITEM_HDR + m->keylen + 1 + m->data + 2, chunk = 96;
	while (chunk < item && chunk < MT_SLAB_PAGE)
		chunk = (chunk * 5 / 4 + 7) & ~7ULL;
	m->chunk = chunk < item ? item : chunk;
	m->per_page = MT_SLAB_PAGE / m->chunk ? MT_SLAB_PAGE / m->chunk : 1;
}

static uint64_t part_keys(const struct memtier *m, uint64_t t)
{
	uint64_t n = m->kmax - m->kmin + 1;
	return n / m->threads + (t < n % m->threads);
}

static uint64_t mt_hash_buckets(uint64_t nkeys)
{
	uint64_t b = 1ULL << 16;
	while ((double)nkeys > 1.5 * (double)b)
		b <<= 1;
	return b;
}

static void mt_free(struct memtier *m)
{
	if (m->t)
		for (uint64_t i = 0; i < m->threads; i++) {
			free(m->t[i].slot);
			free(m->t[i].done_ns);
		}
	free(m->t);
	free(m);
}

static void mt_destroy(void *p) { mt_free(p); }

static void *mt_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	struct memtier *m = xcalloc(1, sizeof(*m));
	*m = (struct memtier){ .threads = 4, .clients = 50, .data = 32, .kmax = 10000000, .set_r = 1,
			       .get_r = 10, .zexp = 1, .rtt_ns = MT_LOOPBACK_RTT_NS };
	for (int i = 1; i < argc; i++)
		if (!mt_opt(m, argc, argv, &i, err, errlen)) {
			mt_free(m);
			return NULL;
		}
	if (!mt_validate(m, err, errlen)) {
		mt_free(m);
		return NULL;
	}
	mt_geometry(m);
	wl_zipf_init(&m->zipf, m->kmax - m->kmin + 1, m->zexp);
	m->t = xcalloc(m->threads, sizeof(*m->t));
	for (uint64_t i = 0; i < m->threads; i++) {
		struct mt_task *t = &m->t[i];
		t->nkeys = part_keys(m, i);
		t->slot = xmalloc(t->nkeys * sizeof(*t->slot));
		memset(t->slot, 0xff, t->nkeys * sizeof(*t->slot));
		t->done_ns = xcalloc(m->clients, sizeof(*t->done_ns));
		t->spare = MT_NOSLOT;
		rng_seed(&t->rng, seed * 7919 + i);
	}
	m->buckets = mt_hash_buckets(m->t[0].nkeys);
	return m;
}

static bool mt_check(int argc, char **argv, char *err, size_t errlen)
{
	struct memtier m = { .threads = 4, .clients = 50, .kmax = 10000000, .set_r = 1, .get_r = 10 };
	for (int i = 1; i < argc; i++)
		if (!mt_opt(&m, argc, argv, &i, err, errlen))
			return false;
	return mt_validate(&m, err, errlen);
}

static int mt_nr_tasks(void *p) { return (int)((struct memtier *)p)->threads; }

/* The next key of task `ti`'s part for pattern `pat`, as an index within
 * the part: part keys are min + ti + threads * index. */
static uint64_t mt_key(struct memtier *m, uint64_t ti, struct mt_task *t, enum mt_pat pat)
{
	uint64_t key;
	switch (pat) {
	case PAT_R:
		return rng_below(&t->rng, t->nkeys);
	case PAT_S:
		return t->seq++ % t->nkeys;
	default:
		/* The whole range's distribution, kept where it falls in
		 * this part: the part sees its shape. */
		do
			key = pat == PAT_G ? wl_gauss_key(&t->rng, m->stddev, m->median, m->kmin, m->kmax)
					   : m->kmin + wl_zipf_draw(&m->zipf, &t->rng) - 1;
		while ((key - m->kmin) % m->threads != ti);
		return (key - m->kmin) / m->threads;
	}
}

static uint64_t mt_total(const struct memtier *m, const struct mt_task *t)
{
	return m->allkeys ? t->nkeys : m->requests * m->clients;
}

/* The chunk's first byte in the item area.  memcached splits a new slab
 * page into its free list chunk by chunk, each pushed at the head
 * (split_slab_page_into_freelist, do_slabs_free), so a page's chunks are
 * handed out from its end back. */
static uint64_t chunk_off(const struct memtier *m, uint64_t c)
{
	return c / m->per_page * MT_SLAB_PAGE + (m->per_page - 1 - c % m->per_page) * m->chunk;
}

static void touch(struct op *op, uint32_t region, uint64_t off, uint64_t len, bool write)
{
	op->kind = OP_TOUCH;
	op->region = region;
	op->refs = 1;
	op->write = write;
	op->first = off / PAGE_SIZE;
	op->npages = (off + len - 1) / PAGE_SIZE - op->first + 1;
}

/* The hash bucket of key index k of the part (memcached hashes the key
 * string: any well-mixed hash spreads the buckets the same way). */
static uint64_t bucket_off(const struct memtier *m, uint64_t ti, uint64_t k)
{
	uint64_t h = (ti << 40 | k) * 0x9e3779b97f4a7c15ULL;
	return (h >> 20) % m->buckets * 8;
}

/* One step of a request for key index k: its bucket, the item there (a
 * GET's, or the one a SET replaces), then a SET's new chunk: memcached
 * allocates it (the chunk the previous replacing SET freed, at the head
 * of the free list, or a new one), links it, frees the old one. */
static void mt_request_op(struct memtier *m, uint64_t ti, struct mt_task *t, struct op *op)
{
	bool set = t->kind == 1, fresh = t->slot[t->key] == MT_NOSLOT;
	if (t->step == 5) {
		op->kind = OP_SLEEP;
		op->ns = t->wait_ns;
		t->step = m->net_ns ? 4 : 0;
		return;
	}
	if (t->step == 4) {
		op->kind = OP_CPU;
		op->ns = m->net_ns;
		t->step = 0;
		return;
	}
	if (t->step == 0) {
		touch(op, 1, bucket_off(m, ti, t->key), 8, set && fresh);
		t->step = t->kind == 3 ? 2 : set && fresh ? 3 : 1;
		return;
	}
	if (t->step == 1) {
		touch(op, 0, chunk_off(m, t->slot[t->key]), m->chunk, false);
		t->step = set ? 3 : 2;
		return;
	}
	uint32_t c = t->spare != MT_NOSLOT ? t->spare : (uint32_t)t->nalloc++;
	t->spare = fresh ? MT_NOSLOT : t->slot[t->key];
	t->slot[t->key] = c;
	touch(op, 0, chunk_off(m, c), m->chunk, true);
	t->step = 2;
}

/* How long the task sleeps before the calls of the request whose client
 * had its previous reply at `done`, the task being free at `now`.  The
 * round trip is --rtt at the least, its calls included: the calls may
 * start at done + due_ns.  A task that sleeps for the request is woken
 * with a context switch (the machine charges it when the CPU comes
 * back), which is part of the round trip, so it sleeps until a switch
 * before that.  A task still busy then (other clients' requests) takes
 * the request with no switch of its own: the round trip's switch was
 * the client's, off this CPU, overlapped by that work.  In between (the
 * request less than a switch away) the task has nothing to do: it
 * sleeps for what is left and is woken with a switch, and the request
 * takes that much over --rtt.  Charging the switch only when the task
 * slept and subtracting it always made two clients' round trips 12 us
 * of a 15 us --rtt. */
static uint64_t mt_wait(const struct memtier *m, uint64_t done, uint64_t now)
{
	uint64_t due = done + m->due_ns;
	if (!m->net_ns || due <= now)
		return 0;
	if (due - now > m->ctxsw_ns)
		return due - now - m->ctxsw_ns;
	return due - now;
}

/* Start the next measured request: its kind and key.  The client served
 * next (they take turns, as mt_mark() counts the replies) sent it with
 * its previous reply. */
static void mt_begin(struct memtier *m, uint64_t ti, struct mt_task *t)
{
	uint64_t cyc = m->set_r + m->get_r;
	bool set = t->req % cyc < m->set_r;
	t->key = mt_key(m, ti, t, m->pat[set ? 0 : 1]);
	t->kind = set ? 1 : t->slot[t->key] != MT_NOSLOT ? 2 : 3;
	t->ops[t->kind - 1]++;
	t->wait_ns = mt_wait(m, t->done_ns[t->marks % m->clients], t->now_ns);
	t->step = t->wait_ns ? 5 : m->net_ns ? 4 : 0;
	t->req++;
}

static bool mt_more(const struct memtier *m, const struct mt_task *t)
{
	if (m->test_ns)
		return !t->stop && t->now_ns - t->start_ns < m->test_ns;
	return t->req < mt_total(m, t);
}

static bool mt_next_op(void *p, int task, struct op *op)
{
	struct memtier *m = p;
	uint64_t ti = (uint64_t)task;
	struct mt_task *t = &m->t[ti];
	memset(op, 0, sizeof(*op));
	for (;;) {
		switch (t->ph) {
		case M_MAP:
			/* The slab pages the part can need, taken as touched. */
			t->ph = M_HASH;
			op->kind = OP_MMAP_ANON;
			op->npages = (t->nkeys + m->per_page) / m->per_page * (MT_SLAB_PAGE / PAGE_SIZE);
			return true;
		case M_HASH:
			/* memcached callocs its hash table: zero pages until written. */
			t->ph = m->preload ? M_PRELOAD : M_START;
			op->kind = OP_MMAP_ANON;
			op->region = 1;
			op->npages = (m->buckets * 8 + PAGE_SIZE - 1) / PAGE_SIZE;
			return true;
		case M_PRELOAD:
			if (t->step == 2 || t->pre == 0) {
				if (t->pre == t->nkeys) {
					t->ph = M_START;
					t->step = 0;
					continue;
				}
				t->key = t->pre++;
				t->kind = 1;
				t->step = 0;
			}
			mt_request_op(m, ti, t, op);
			return true;
		case M_START:
			t->ph = M_RUN;
			t->step = 2;
			t->kind = 0;
			op->kind = OP_MARK;
			return true;
		case M_RUN:
			if (t->step == 2) {
				if (t->kind) {
					op->kind = OP_MARK;
					op->region = t->kind;
					t->kind = 0;
					return true;
				}
				if (!mt_more(m, t)) {
					t->ph = M_DONE;
					continue;
				}
				mt_begin(m, ti, t);
			}
			mt_request_op(m, ti, t, op);
			return true;
		case M_DONE:
			return false;
		}
	}
}

static void mt_attach(void *p, const struct wl_sysinfo *si)
{
	struct memtier *m = p;
	m->net_ns = MT_ROUND_TRIP_CALLS * si->syscall_ns;
	m->ctxsw_ns = si->ctx_switch_ns;
	m->due_ns = m->net_ns && m->rtt_ns > m->net_ns ? m->rtt_ns - m->net_ns : 0;
}

/* The far future of the op-stream walk (src/native/prepare.c): a timed
 * run stops there. */
#define MT_FAR_FUTURE (UINT64_MAX / 8)

static void mt_mark(void *p, int task, uint32_t id, uint64_t now, uint64_t cpu)
{
	struct memtier *m = p;
	struct mt_task *t = &m->t[task];
	(void)cpu;
	t->stop = now >= MT_FAR_FUTURE;
	t->now_ns = now;
	if (id == 0) {
		t->start_ns = t->last_ns = now;
		for (uint64_t c = 0; c < m->clients; c++)
			t->done_ns[c] = now;
		return;
	}
	/* The clients take turns: this reply is client (marks % clients)'s,
	 * whose request went out with its previous reply. */
	uint64_t c = t->marks++ % m->clients;
	wl_hist_add(&t->lat[id == 1 ? 0 : 1], now - t->done_ns[c]);
	t->done_ns[c] = t->last_ns = now;
}

/* memcache_text bytes on the wire, both ways, of one request. */
static uint64_t wire_bytes(const struct memtier *m, int kind)
{
	uint64_t k = m->keylen, d = m->data, dlen = 1;
	for (uint64_t x = d; x >= 10; x /= 10)
		dlen++;
	if (kind == 0)      /* "set K 0 0 LEN\r\n" DATA "\r\n", "STORED\r\n" */
		return 4 + k + 5 + dlen + 2 + d + 2 + 8;
	if (kind == 1)      /* "get K\r\n", "VALUE K 0 LEN\r\n" DATA "\r\nEND\r\n" */
		return 4 + k + 2 + 6 + k + 3 + dlen + 2 + d + 2 + 5;
	return 4 + k + 2 + 5;  /* a miss: "END\r\n" */
}

/* The ALL STATS table: memtier prints each figure in a 12-wide column;
 * a figure wider than that (the Ops/sec of a store held in memory) widens
 * every column, header and rules with it, so the columns stay aligned. */
#define MT_ROWS 4
#define MT_COLS 5
struct mt_table {
	char cell[MT_ROWS][MT_COLS][32];
	int width;
};

static void stats_row(struct mt_table *tb, int row, double ops, double hits, double miss, bool hm,
		      double lat_ms, double kb, bool has_kb)
{
	char (*c)[32] = tb->cell[row];
	snprintf(c[0], 32, "%.2f", ops);
	snprintf(c[1], 32, hm ? "%.2f" : "---", hits);
	snprintf(c[2], 32, hm ? "%.2f" : "---", miss);
	snprintf(c[3], 32, "%.5f", lat_ms);
	snprintf(c[4], 32, has_kb ? "%.2f" : "---", kb);
	for (int k = 0; k < MT_COLS; k++)
		tb->width = MAX(tb->width, (int)strlen(c[k]));
}

/* memtier's rules run two characters past the last column. */
static void rule(FILE *out, char ch, int width)
{
	for (int k = 0; k < 6 + MT_COLS * (width + 1) + 2; k++)
		fputc(ch, out);
	fputc('\n', out);
}

static void stats_print(FILE *out, const struct mt_table *tb)
{
	static const char *const type[MT_ROWS] = { "Sets", "Gets", "Waits", "Totals" };
	static const char *const head[MT_COLS] = { "Ops/sec", "Hits/sec", "Misses/sec", "Latency",
						   "KB/sec" };
	int w = tb->width;
	rule(out, '=', w);
	fputs("Type  ", out);
	for (int k = 0; k < MT_COLS; k++)
		fprintf(out, " %*s", w, head[k]);
	fputc('\n', out);
	rule(out, '-', w);
	for (int r = 0; r < MT_ROWS; r++) {
		fprintf(out, "%-6s", type[r]);
		for (int k = 0; k < MT_COLS; k++)
			fprintf(out, " %*s", w, tb->cell[r][k]);
		fputc('\n', out);
	}
}

static void pct_row(FILE *out, const char *type, const struct wl_hist *h)
{
	fprintf(out, "%-6s %12.5f %12.5f %14.5f\n", type, (double)wl_hist_pct(h, 50) / 1e6,
		(double)wl_hist_pct(h, 99) / 1e6, (double)wl_hist_pct(h, 99.9) / 1e6);
}

/* What the threads did together: requests of each kind, the latencies
 * of sets, gets and all, and the run (the longest thread's), seconds. */
struct mt_sum {
	struct wl_hist h[3];        /* sets, gets, all */
	uint64_t ops[3];            /* sets, hits, misses */
	double s;
};

static struct mt_sum *mt_sum(struct memtier *m, const struct wl_task_result *r, int n)
{
	struct mt_sum *x = xcalloc(1, sizeof(*x));
	uint64_t run = 0;
	for (int i = 0; i < n; i++) {
		struct mt_task *t = &m->t[i];
		uint64_t issued = t->ops[0] + t->ops[1] + t->ops[2];
		uint64_t rn = t->marks == issued && issued ? t->last_ns - t->start_ns
							    : (uint64_t)(r[i].elapsed_s * 1e9);
		run = MAX(run, rn);
		for (int k = 0; k < 3; k++)
			x->ops[k] += t->ops[k];
		wl_hist_merge(&x->h[0], &t->lat[0]);
		wl_hist_merge(&x->h[1], &t->lat[1]);
	}
	wl_hist_merge(&x->h[2], &x->h[0]);
	wl_hist_merge(&x->h[2], &x->h[1]);
	x->s = run ? (double)run / 1e9 : 1;
	return x;
}

static void mt_report_tasks(void *p, const struct wl_task_result *r, int n, FILE *out)
{
	struct memtier *m = p;
	struct mt_sum *x = mt_sum(m, r, n);
	const struct wl_hist *h = x->h;
	const uint64_t *ops = x->ops;
	double s = x->s;
	double kb_set = (double)(ops[0] * wire_bytes(m, 0)) / 1024 / s;
	double kb_get = (double)(ops[1] * wire_bytes(m, 1) + ops[2] * wire_bytes(m, 2)) / 1024 / s;
	fprintf(out, "%-9llu Threads\n%-9llu Connections per thread\n", (unsigned long long)m->threads,
		(unsigned long long)m->clients);
	if (m->test_ns)
		fprintf(out, "%-9llu Seconds\n", (unsigned long long)(m->test_ns / 1000000000ULL));
	else
		fprintf(out, "%-9llu Requests per client\n", (unsigned long long)(m->allkeys ?
			mt_total(m, &m->t[0]) / m->clients : m->requests));
	fputs("\n\nALL STATS\n", out);
	struct mt_table tb = { .width = 12 };
	stats_row(&tb, 0, (double)ops[0] / s, 0, 0, false, wl_hist_avg(&h[0]) / 1e6, kb_set, true);
	stats_row(&tb, 1, (double)(ops[1] + ops[2]) / s, (double)ops[1] / s, (double)ops[2] / s, true,
		  wl_hist_avg(&h[1]) / 1e6, kb_get, true);
	stats_row(&tb, 2, 0, 0, 0, false, 0, 0, false);
	stats_row(&tb, 3, (double)(ops[0] + ops[1] + ops[2]) / s, (double)ops[1] / s,
		  (double)ops[2] / s, true, wl_hist_avg(&h[2]) / 1e6, kb_set + kb_get, true);
	stats_print(out, &tb);
	fputs("\nType    p50 Latency  p99 Latency  p99.9 Latency\n", out);
	fputs("-----------------------------------------------\n", out);
	pct_row(out, "Sets", &h[0]);
	pct_row(out, "Gets", &h[1]);
	pct_row(out, "Totals", &h[2]);
	free(x);
}

/* The Totals row's Ops/sec and Latency (the mean, msec) and its p99
 * Latency (msec), unrounded. */
static void mt_figures(void *p, const struct wl_task_result *r, int n, struct wl_figures *out)
{
	struct mt_sum *x = mt_sum(p, r, n);
	wl_figure_add(out, "ops_s", (double)(x->ops[0] + x->ops[1] + x->ops[2]) / x->s, true);
	if (x->h[2].n) {   /* no reply: no latency, not one of 0 */
		wl_figure_add(out, "latency_ms", wl_hist_avg(&x->h[2]) / 1e6, false);
		wl_figure_add(out, "p99_ms", (double)wl_hist_pct(&x->h[2], 99) / 1e6, false);
	}
	free(x);
}

const struct workload_ops memtier_workload = {
	.name = "memtier",
	.summary = "memtier_benchmark --ratio=1:10 --key-pattern=G:G against a memcached-like "
		   "anonymous store",
	.help = mt_help,
	.create = mt_create,
	.check = mt_check,
	.destroy = mt_destroy,
	.nr_tasks = mt_nr_tasks,
	.next_op = mt_next_op,
	.mark = mt_mark,
	.attach = mt_attach,
	.report_tasks = mt_report_tasks,
	.figures = mt_figures,
};
