/* innodb.c - the database of Rik van Riel's July 2008 PERF test: mysqld with
 * an InnoDB buffer pool (anonymous memory) in front of a 55 GB data file,
 * under sysbench OLTP, optionally beside `SELECT COUNT(*)` (a full scan).
 *
 * Modeled: one OLTP task owning the buffer pool (--pool MB of anonymous
 * memory in 16 KB InnoDB pages, managed by InnoDB's own LRU: a hit touches
 * the pool page, a miss evicts the pool's least recently used page, writing
 * it to the data file first if dirty, and reads the wanted 16 KB page into
 * it); each transaction does 10 point lookups descending a B-tree (root and
 * internal levels hot, the leaf uniform over the file), and one in four
 * also updates its last leaf.  Data file I/O is buffered (through the page
 * cache: double caching, the default innodb_flush_method of 2008) or, with
 * --direct, O_DIRECT.  The data file is a region of the raw disk (InnoDB on
 * a raw partition: innodb_data_file_path=/dev/sda:...raw), so its pages
 * exist on disk without a load phase.  --scan adds the SELECT COUNT(*)
 * task: one ascending read of every data page, through a small scan buffer
 * of its own; sysbench then keeps running until the query has finished
 * (at least N transactions), so that its tps is measured beside the query
 * as in the thread's "sysbench & linear query" (an assumption: the thread
 * does not give sysbench's run length).
 * Not modeled: InnoDB's threads sharing one address space (pagelab tasks
 * have their own: the scan does not pass through the OLTP pool), the log,
 * the doublewrite buffer, row-level CPU work beyond the page references.
 * Output: sysbench's "transactions: N (X per sec.)" and, with --scan, the
 * mysql client's "1 row in set (M min S sec)". */
#include "workload.h"
#include "args.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

#define IPAGE 4                 /* 16 KB InnoDB page = 4 pages */
#define LOOKUPS 10
#define TREE_HOT 1024           /* root + internal pages: the hot levels */
#define NO_SLOT UINT32_MAX

struct innodb {
	uint64_t pool_pages;        /* InnoDB pages in the pool */
	uint64_t data_pages;        /* InnoDB pages in the file */
	uint64_t transactions, done;
	bool direct, scan, warm;
	struct rng rng;
	uint32_t *where;            /* data page -> pool slot */
	uint64_t *holds;            /* pool slot -> data page (UINT64_MAX: free) */
	uint64_t *stamp;            /* pool slot -> last use */
	bool *dirty;
	uint64_t clock, used;
	/* OLTP task state */
	int step, look;
	uint64_t want, slot;
	bool update;
	/* scan task state */
	int sstep;
	uint64_t spos;
	bool scan_done;
	uint64_t hits, misses;
};

static void i_help(FILE *out)
{
	fputs(
"usage: innodb [--pool MB] [--data SIZE] [--transactions N] [--direct] [--scan] [--warm]\n"
"mysqld with an InnoDB buffer pool of MB megabytes (default 8, MySQL 5.0's\n"
"default; Rik van Riel's tuned run used 12288) over a data file of SIZE\n"
"(default 55G) on the raw disk, running N sysbench OLTP transactions\n"
"(default 10000: 10 B-tree lookups each, one in four updating).  --direct:\n"
"O_DIRECT data file I/O (else buffered, double caching).  --scan: also run\n"
"SELECT COUNT(*), one sequential read of the whole data file, with sysbench\n"
"running until it has finished (at least N transactions).  --warm: start\n"
"with the pool full, as after a long run (every pool page written once,\n"
"holding the hot tree levels and random leaves; no disk reads).\n", out);
}

/* --warm: the pool as a long run leaves it: the hot tree levels and then
 * distinct random leaves, every slot used.  The memory itself is written by
 * the OLTP task's first op (step 6). */
static void warm_pool(struct innodb *w)
{
	for (uint64_t s = 0; s < w->pool_pages; s++) {
		uint64_t d;
		if (s < TREE_HOT) {
			d = s;
		} else if (w->pool_pages >= w->data_pages) {
			d = s < w->data_pages ? s : UINT64_MAX;
		} else {
			do
				d = TREE_HOT + rng_below(&w->rng, w->data_pages - TREE_HOT);
			while (w->where[d] != NO_SLOT);
		}
		if (d == UINT64_MAX)
			break;
		w->holds[s] = d;
		w->where[d] = (uint32_t)s;
		w->stamp[s] = 0;
		w->used = s + 1;
	}
	w->warm = true;
}

static void *i_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	uint64_t pool_mb = 8, data = 55ULL << 30, tx = 10000;
	bool direct = false, scan = false, warm = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool ok = true;
		if (!strcmp(a, "--direct")) {
			direct = true;
		} else if (!strcmp(a, "--scan")) {
			scan = true;
		} else if (!strcmp(a, "--warm")) {
			warm = true;
		} else if (!strcmp(a, "--pool")) {
			ok = i + 1 < argc && wl_u64_in(argv[++i], 1, 1 << 22, &pool_mb);
		} else if (!strcmp(a, "--data")) {
			ok = i + 1 < argc && parse_size(argv[++i], &data) && data >= (1 << 20) && data <= (1ULL << 40);
		} else if (!strcmp(a, "--transactions")) {
			ok = i + 1 < argc && wl_u64_in(argv[++i], 0, 1ULL << 40, &tx);
		} else {
			snprintf(err, errlen, "innodb: unknown option '%s'", a);
			return NULL;
		}
		if (!ok) {
			snprintf(err, errlen, "innodb: bad value for %s", a);
			return NULL;
		}
	}
	struct innodb *w = xcalloc(1, sizeof(*w));
	w->pool_pages = MAX(pool_mb * 64, 2);      /* 16 KB pages per MB */
	w->data_pages = data / (IPAGE * PAGE_SIZE);
	if (w->data_pages <= TREE_HOT) {
		free(w);
		snprintf(err, errlen, "innodb: --data %llu KB is too small: at least %llu KB (the B-tree's hot top and one page more)",
			 (unsigned long long)(data >> 10), (unsigned long long)((TREE_HOT + 1) * IPAGE * PAGE_SIZE >> 10));
		return NULL;
	}
	w->transactions = tx;
	w->direct = direct;
	w->scan = scan;
	rng_seed(&w->rng, seed * 31 + 17);
	w->where = xmalloc(w->data_pages * sizeof(uint32_t));
	memset(w->where, 0xff, w->data_pages * sizeof(uint32_t));
	w->holds = xmalloc(w->pool_pages * sizeof(uint64_t));
	memset(w->holds, 0xff, w->pool_pages * sizeof(uint64_t));
	w->stamp = xcalloc(w->pool_pages, sizeof(uint64_t));
	w->dirty = xcalloc(w->pool_pages, sizeof(bool));
	if (warm)
		warm_pool(w);
	return w;
}

static void i_destroy(void *p)
{
	struct innodb *w = p;
	free(w->where);
	free(w->holds);
	free(w->stamp);
	free(w->dirty);
	free(w);
}

static int i_nr_tasks(void *p) { return ((struct innodb *)p)->scan ? 2 : 1; }

/* The pool slot for data page d: its own, or the LRU victim's. */
static uint64_t victim(struct innodb *w)
{
	if (w->used < w->pool_pages)
		return w->used++;
	/* Exact LRU over slots would cost O(pool) per miss; sample 8 slots
	 * and take the oldest (InnoDB's LRU is itself approximate). */
	uint64_t best = rng_below(&w->rng, w->pool_pages);
	for (int k = 0; k < 7; k++) {
		uint64_t c = rng_below(&w->rng, w->pool_pages);
		if (w->stamp[c] < w->stamp[best])
			best = c;
	}
	return best;
}

static bool oltp_op(struct innodb *w, struct op *op)
{
	for (;;) {
		switch (w->step) {
		case 0:
			w->step = 1;
			op->kind = OP_MMAP_ANON;     /* the buffer pool */
			op->npages = w->pool_pages * IPAGE;
			return true;
		case 1:
			w->step = w->warm ? 6 : 2;
			op->kind = OP_OPEN;
			op->name = "/dev/sda";
			return true;
		case 6: /* --warm: the filled pool's memory, written once */
			w->step = 2;
			op->kind = OP_TOUCH;
			op->first = 0;
			op->npages = w->used * IPAGE;
			op->refs = 1;
			op->write = true;
			return true;
		case 2: /* next lookup: pick the page */
			if (w->look == LOOKUPS) {
				w->look = 0;
				w->done++;
			}
			if (w->done >= w->transactions && (!w->scan || w->scan_done))
				return false;
			if (w->look == 0)
				w->update = rng_below(&w->rng, 4) == 0;
			/* Descent: a hot upper-level page, then a uniform leaf. */
			w->want = (w->look & 1) == 0 ? rng_below(&w->rng, TREE_HOT)
				: TREE_HOT + rng_below(&w->rng, w->data_pages - TREE_HOT);
			w->look++;
			w->clock++;
			if (w->where[w->want] != NO_SLOT) {
				w->hits++;
				w->slot = w->where[w->want];
				w->stamp[w->slot] = w->clock;
				bool upd = w->update && w->look == LOOKUPS;
				w->dirty[w->slot] |= upd;
				op->kind = OP_TOUCH;
				op->first = w->slot * IPAGE;
				op->npages = IPAGE;
				op->refs = 64;           /* a binary search of the page directory */
				op->write = upd;
				return true;
			}
			w->misses++;
			w->slot = victim(w);
			w->step = 3;
			continue;
		case 3: /* write back the victim if dirty */
			w->step = 4;
			if (w->holds[w->slot] == UINT64_MAX || !w->dirty[w->slot])
				continue;
			op->kind = OP_WRITE;
			op->direct = w->direct;
			op->first = w->holds[w->slot] * IPAGE;
			op->npages = IPAGE;
			return true;
		case 4: /* read the wanted page */
			if (w->holds[w->slot] != UINT64_MAX)
				w->where[w->holds[w->slot]] = NO_SLOT;
			w->holds[w->slot] = w->want;
			w->where[w->want] = (uint32_t)w->slot;
			w->stamp[w->slot] = w->clock;
			w->dirty[w->slot] = w->update && w->look == LOOKUPS;
			w->step = 5;
			op->kind = OP_READ;
			op->direct = w->direct;
			op->first = w->want * IPAGE;
			op->npages = IPAGE;
			return true;
		case 5: /* the copy into the pool (O_DIRECT: DMA into it) */
			w->step = 2;
			op->kind = OP_TOUCH;
			op->first = w->slot * IPAGE;
			op->npages = IPAGE;
			op->refs = 64;
			op->write = true;
			return true;
		}
	}
}

static bool scan_op(struct innodb *w, struct op *op)
{
	switch (w->sstep) {
	case 0:
		w->sstep = 1;
		op->kind = OP_MMAP_ANON;
		op->npages = 64 * IPAGE;         /* 64 pages of scan buffer */
		return true;
	case 1:
		w->sstep = 2;
		op->kind = OP_OPEN;
		op->name = "/dev/sda";
		return true;
	case 2:
		if (w->spos >= w->data_pages) {
			w->scan_done = true;
			return false;
		}
		w->sstep = 3;
		op->kind = OP_READ;
		op->direct = w->direct;
		op->first = w->spos * IPAGE;
		op->npages = IPAGE;
		return true;
	default:
		/* Count the rows of the page: every record header read. */
		w->sstep = 2;
		op->kind = OP_TOUCH;
		op->first = (w->spos % 64) * IPAGE;
		op->npages = IPAGE;
		op->refs = 256;
		op->write = true;
		w->spos++;
		return true;
	}
}

static bool i_next_op(void *p, int task, struct op *op)
{
	struct innodb *w = p;
	memset(op, 0, sizeof(*op));
	/* With --scan the query is task 0 and sysbench task 1: sysbench's
	 * stream depends on the query's progress, not the reverse. */
	return w->scan && task == 0 ? scan_op(w, op) : oltp_op(w, op);
}

static void i_report(void *p, const double *el, FILE *out)
{
	struct innodb *w = p;
	double t = el ? el[w->scan ? 1 : 0] : 0;
	fprintf(out, "OLTP test statistics:\n");
	fprintf(out, "    transactions:                        %llu  (%.2f per sec.)\n",
		(unsigned long long)w->done, t > 0 ? (double)w->done / t : 0);
	fprintf(out, "    buffer pool hit rate:                %.1f%%\n",
		w->hits + w->misses ? 100.0 * (double)w->hits / (double)(w->hits + w->misses) : 0);
	if (w->scan && el) {
		double s = el[0];
		int min = (int)(s / 60);
		fprintf(out, "1 row in set (%d min %.2f sec)\n", min, s - min * 60);
	}
}

const struct workload_ops innodb_workload = {
	.name = "innodb",
	.summary = "mysqld/InnoDB: a large anon buffer pool over a data file, sysbench OLTP (+ a scan)",
	.help = i_help,
	.create = i_create,
	.destroy = i_destroy,
	.nr_tasks = i_nr_tasks,
	.next_op = i_next_op,
	.report = i_report,
};
