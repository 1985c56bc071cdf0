/* calibrate.c - microbenchmarks of the operations pagelab's model charges
 * CPU time for (struct mm_costs, src/mm/mm.h), run in user space on this
 * host: calibrate.h.
 *
 * Each figure is the median of CAL_ROUNDS rounds, each round timing a
 * batch of operations over memory larger than the caches (a reclaimed or
 * freshly faulted page, a struct folio on a long LRU, a page table far
 * from the last one are not cache-resident), with min and max beside it.
 * What each stands for in the kernel (Linux 6.18):
 *  - clear_page(): folio_zero_user() of an anonymous fault is rep stosb
 *    on x86, the instruction glibc's memset() uses for 4 KiB;
 *  - copy_page(): copy_mc_user_highpage() of a COW fault, rep movsb, as
 *    memcpy() of 4 KiB;
 *  - the fault: do_anonymous_page() on fresh anonymous memory (THP off
 *    for the range, as pagelab's base pages), the trap and the handling;
 *    the clearing is the page clear above, taken off;
 *  - freeing: zap_pte_range() and the page allocator, from munmap();
 *  - the rmap walk of one PTE, folio_referenced() -> rmap_walk_anon() ->
 *    page_vma_mapped_walk(): RMAP_LOADS dependent loads (folio->mapping,
 *    the anon_vma, its interval tree's anon_vma_chain, the vma, vma->vm_mm
 *    and its pgd, the pud, the pmd, the PTE) and two lock pairs (the
 *    anon_vma's read lock, the PTE lock), from a pointer chase of cache-
 *    missing loads and an uncontended lock pair;
 *  - a page scanned, isolate_lru_folios(): list_del() from one list and
 *    list_add() to another of 64-byte nodes in random order;
 *  - a remote TLB flush: tlbprobe.c;
 *  - the rows of reclaim's work with no cost of their own (docs/cost.md):
 *    one hold of lruvec->lru_lock is the lock pair (spin_lock_irq adds
 *    an interrupt disable, not measurable here), a folio put back by
 *    move_folios_to_lru() is the list move of `scan`, a PTE table the
 *    MGLRU walk enters (walk_pmd_range) is the load of its PMD entry far
 *    from the last (a chase hop), a PTE a page-table walk reads
 *    (swap_out_ptes) is a load of the next entry of a 4 KiB table of
 *    8-byte entries with a test of its accessed bit (bench_pte: tables in
 *    random order over BIG bytes), and lru_gen_look_around() beyond its
 *    PTEs is its PMD's load and the PTE table's lock pair;
 *  - with root, the kernel-only paths (unmap, swap-out, I/O submission),
 *    timed through the system calls that run them: calib_paths.c, and
 *    the figures derived from them, calib_derive.c. */
#define _GNU_SOURCE
#include "calibrate.h"
#include "native.h"
#include "../lib/util.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096
#define BIG (64u << 20)          /* larger than any LLC here */
#define RMAP_LOADS 9
#define RMAP_LOCKS 2
#define CHASE_HOPS (1u << 18)
#define LOCK_PAIRS (1u << 20)

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The rounds' ns per operation into f's median, min and max. */
void cal_settle(struct cal_fig *f, double *ns, int n)
{
	qsort(ns, (size_t)n, sizeof(ns[0]), cmp_d);
	f->rounds = n;
	f->min = ns[0];
	f->max = ns[n - 1];
	f->median = ns[n / 2];
	f->value = f->median;
}

static volatile uint64_t sink;

static void bench_zero_copy(struct cal_fig *z, struct cal_fig *c)
{
	char *a = xcalloc(1, BIG), *b = xcalloc(1, BIG);
	double zn[CAL_ROUNDS], cn[CAL_ROUNDS];
	uint64_t pages = BIG / PAGE;
	memset(a, 1, BIG);   /* faulted in before the clock runs */
	memset(b, 1, BIG);
	for (int r = 0; r < CAL_ROUNDS; r++) {
		uint64_t t0 = now_ns();
		for (uint64_t i = 0; i < pages; i++)
			memset(a + i * PAGE, (int)r, PAGE);
		uint64_t t1 = now_ns();
		for (uint64_t i = 0; i < pages; i++)
			memcpy(b + i * PAGE, a + i * PAGE, PAGE);
		uint64_t t2 = now_ns();
		sink += (uint64_t)a[r] + (uint64_t)b[BIG - 1 - r];
		zn[r] = (double)(t1 - t0) / (double)pages;
		cn[r] = (double)(t2 - t1) / (double)pages;
	}
	z->per_round = c->per_round = pages;
	cal_settle(z, zn, CAL_ROUNDS);
	cal_settle(c, cn, CAL_ROUNDS);
	free(a);
	free(b);
}

/* First touches of fresh anonymous pages, then their munmap(). */
static void bench_fault(struct cal_fig *f, struct cal_fig *fr)
{
	double fn[CAL_ROUNDS], frn[CAL_ROUNDS];
	uint64_t pages = BIG / PAGE;
	int n = 0;
	for (int r = 0; r < CAL_ROUNDS; r++) {
		char *m = mmap(NULL, BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED) {
			snprintf(f->why, sizeof(f->why), "mmap of %u MiB failed", BIG >> 20);
			snprintf(fr->why, sizeof(fr->why), "%s", f->why);
			return;
		}
		madvise(m, BIG, MADV_NOHUGEPAGE);
		uint64_t t0 = now_ns();
		for (uint64_t i = 0; i < pages; i++)
			m[i * PAGE] = 1;
		uint64_t t1 = now_ns();
		munmap(m, BIG);
		uint64_t t2 = now_ns();
		fn[n] = (double)(t1 - t0) / (double)pages;
		frn[n++] = (double)(t2 - t1) / (double)pages;
	}
	f->per_round = fr->per_round = pages;
	cal_settle(f, fn, n);
	cal_settle(fr, frn, n);
}

/* A random cycle through BIG bytes of 64-byte nodes: each load depends on
 * the last and misses the caches. */
struct node {
	struct node *next, *prev;
	uint64_t flags;
	char pad[40];
};

static struct node *random_nodes(size_t *count)
{
	size_t n = BIG / sizeof(struct node);
	struct node *v = xcalloc(n, sizeof(*v));
	size_t *perm = xcalloc(n, sizeof(*perm));
	uint64_t x = 88172645463325252ULL;  /* xorshift: the order, not a figure */
	for (size_t i = 0; i < n; i++)
		perm[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t j = (size_t)(x % (i + 1)), t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (size_t i = 0; i < n; i++) {
		v[perm[i]].next = &v[perm[(i + 1) % n]];
		v[perm[(i + 1) % n]].prev = &v[perm[i]];
	}
	free(perm);
	*count = n;
	return v;
}

static void bench_chase(struct cal_fig *f, struct node *v)
{
	double ns[CAL_ROUNDS];
	const struct node *p = v;
	for (int r = 0; r < CAL_ROUNDS; r++) {
		uint64_t t0 = now_ns();
		for (unsigned i = 0; i < CHASE_HOPS; i++)
			p = p->next;
		ns[r] = (double)(now_ns() - t0) / CHASE_HOPS;
	}
	sink += p->flags;
	f->per_round = CHASE_HOPS;
	cal_settle(f, ns, CAL_ROUNDS);
}

/* Every node moved from the cycle to a second list, in the cycle's
 * (random) order: list_del(), a flags test, list_add(). */
static void bench_scan(struct cal_fig *f, struct node *v, size_t n)
{
	double ns[CAL_ROUNDS];
	uint64_t moves = n < CHASE_HOPS ? n : CHASE_HOPS;
	struct node head = { .next = &head, .prev = &head };
	struct node *p = v;
	for (int r = 0; r < CAL_ROUNDS; r++) {
		uint64_t t0 = now_ns();
		for (uint64_t i = 0; i < moves; i++) {
			struct node *q = p;
			p = p->next;
			q->prev->next = q->next;
			q->next->prev = q->prev;
			q->flags ^= 1;
			q->next = head.next;
			q->prev = &head;
			head.next->prev = q;
			head.next = q;
		}
		ns[r] = (double)(now_ns() - t0) / (double)moves;
	}
	sink += head.next->flags;
	f->per_round = moves;
	cal_settle(f, ns, CAL_ROUNDS);
}

/* Page tables read in the order a walk reads them: each 512-entry table
 * whole, the tables in a random order over BIG bytes (the next table is
 * not the cached one), each entry loaded and its accessed bit (bit 5 of
 * an x86 PTE) tested. */
static void bench_pte(struct cal_fig *f)
{
	size_t ntab = BIG / PAGE, per = PAGE / sizeof(uint64_t);
	uint64_t *pt = xcalloc(ntab * per, sizeof(*pt));
	size_t *order = xcalloc(ntab, sizeof(*order));
	uint64_t x = 2463534242ULL;  /* xorshift: the order and bits, not a figure */
	for (size_t i = 0; i < ntab * per; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		pt[i] = x;
	}
	for (size_t i = 0; i < ntab; i++)
		order[i] = i;
	for (size_t i = ntab - 1; i > 0; i--) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t j = (size_t)(x % (i + 1)), t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	double ns[CAL_ROUNDS];
	uint64_t young = 0;
	for (int r = 0; r < CAL_ROUNDS; r++) {
		uint64_t t0 = now_ns();
		for (size_t t = 0; t < ntab; t++) {
			const uint64_t *e = pt + order[t] * per;
			for (size_t i = 0; i < per; i++)
				young += (e[i] >> 5) & 1;
		}
		ns[r] = (double)(now_ns() - t0) / (double)(ntab * per);
	}
	sink += young;
	free(order);
	free(pt);
	f->per_round = ntab * per;
	cal_settle(f, ns, CAL_ROUNDS);
}

/* A figure that is another's, under its own parameter. */
static void same_as(struct cal_fig *f, const struct cal_fig *x)
{
	f->rounds = x->rounds;
	f->per_round = 0;
	f->median = x->median;
	f->min = x->min;
	f->max = x->max;
	f->value = x->value;
	snprintf(f->why, sizeof(f->why), "%s", x->why);
}

static void bench_lock(struct cal_fig *f)
{
	static atomic_flag lock = ATOMIC_FLAG_INIT;
	double ns[CAL_ROUNDS];
	for (int r = 0; r < CAL_ROUNDS; r++) {
		uint64_t t0 = now_ns();
		for (unsigned i = 0; i < LOCK_PAIRS; i++) {
			while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire))
				;
			atomic_flag_clear_explicit(&lock, memory_order_release);
		}
		ns[r] = (double)(now_ns() - t0) / LOCK_PAIRS;
	}
	f->per_round = LOCK_PAIRS;
	cal_settle(f, ns, CAL_ROUNDS);
}

/* A figure made of others: a * x + b * y, its spread from theirs. */
static void compose(struct cal_fig *f, double a, const struct cal_fig *x, double b, const struct cal_fig *y)
{
	f->rounds = x->rounds < y->rounds ? x->rounds : y->rounds;
	f->per_round = 0;   /* no round of its own */
	f->median = a * x->median + b * y->median;
	f->min = a * x->min + b * y->min;
	f->max = a * x->max + b * y->max;
	f->value = f->median;
}

static void bench_tlb(struct cal_fig *send, struct cal_fig *recv)
{
	uint64_t s, r;
	char why[160];
	if (!nhost_tlb_ipi_cost(&s, &r, NULL, why, sizeof(why))) {
		snprintf(send->why, sizeof(send->why), "%s", why);
		snprintf(recv->why, sizeof(recv->why), "%s", why);
		return;
	}
	/* tlbprobe.c keeps only its median of five rounds. */
	send->rounds = recv->rounds = 5;
	send->per_round = recv->per_round = 10000;
	send->median = send->value = (double)s;
	recv->median = recv->value = (double)r;
	send->no_spread = recv->no_spread = true;
}

/* What each figure is, before it is measured. */
#define CAL(name_, param_, unit_, method_) { .name = name_, .param = param_, .unit = unit_, .method = method_ }
static const struct cal_fig cal_defs[NR_CAL] = {
	[CAL_ZERO] = CAL("zero_page", "cost.zero_page", "page",
		       "memset() of each 4 KiB page of a 64 MiB buffer (clear_page: rep stosb)"),
	[CAL_COPY] = CAL("copy_page", "cost.copy_page", "page",
		       "memcpy() of each 4 KiB page of a 64 MiB buffer to another (copy_page)"),
	[CAL_FAULT] = CAL("fault", "cost.fault", "page",
			"first write to each page of a fresh 64 MiB anonymous mmap (THP off): trap, "
			"do_anonymous_page(); the parameter is this less zero_page"),
	[CAL_FREE] = CAL("free_page", "cost.free_page", "page", "munmap() of those 64 MiB, per page"),
	[CAL_CHASE] = CAL("chase", NULL, "load", "dependent loads through a random cycle of 64-byte "
			"nodes over 64 MiB (each a cache miss)"),
	[CAL_LOCK] = CAL("lock_pair", NULL, "pair", "an uncontended test-and-set lock and its release"),
	[CAL_RMAP] = CAL("rmap", "cost.rmap", "pte", "composed: 9 chase loads + 2 lock pairs (rmap_walk_anon -> "
		       "page_vma_mapped_walk: mapping, anon_vma, avc, vma, mm, pgd, pud, pmd, pte)"),
	[CAL_SCAN] = CAL("scan", "cost.scan", "page", "list_del(), a flags test and list_add() of each "
		       "node of the random cycle (isolate_lru_folios)"),
	[CAL_PTE] = CAL("pte_read", "cost.swap_out_ptes", "pte", "each 8-byte entry of 4 KiB tables read in "
		      "order, its accessed bit tested, the tables in random order over 64 MiB"),
	[CAL_LRU_LOCK] = CAL("lru_lock", "cost.lru_lock", "hold", "the lock pair above (spin_lock_irq's "
			   "interrupt disable not measured)"),
	[CAL_PUTBACK] = CAL("putback", "cost.move_folios_to_lru", "folio", "the list move of scan above "
			  "(move_folios_to_lru: list_add of each folio back)"),
	[CAL_PMD] = CAL("pmd", "cost.walk_pmd_range", "table", "one chase load above (the PMD entry of a "
		      "table far from the last)"),
	[CAL_LOOK] = CAL("look_around", "cost.lru_gen_look_around", "call", "composed: 1 chase load + 1 "
		       "lock pair (its PMD entry and the PTE table's lock)"),
	[CAL_TLB_SEND] = CAL("tlb_ipi", "cost.tlb_ipi", "ipi", "pagelab kernel --tlb-cost: a zap with "
			   "another CPU busy in the mm, less one with it busy in another mm, per flush aimed at it"),
	[CAL_TLB_RECV] = CAL("tlb_ipi_recv", "cost.tlb_ipi_recv", "ipi", "the busy CPU's lost work per flush "
			   "aimed at it (tlbprobe.c)"),
	[CAL_DROP] = CAL("page_drop", "cost.remove_mapping", "page", "posix_fadvise(DONTNEED) of a clean cached "
		       "unmapped 32 MiB file of its own, read back from the disk (remove_mapping, the page freed)"),
	[CAL_PAGEOUT_FILE] = CAL("pageout_file", NULL, "page", "madvise(MADV_PAGEOUT) of that file mapped "
			       "MAP_SHARED and read, per page mincore shows gone (isolate, try_to_unmap, "
			       "__remove_mapping, free)"),
	[CAL_ZAP] = CAL("unmap_pte", "cost.rmap", "pte", "munmap() of that file mapped and read, the page "
		      "cache keeping it (zap_pte_range: clear the PTE, remove its rmap)"),
	[CAL_UNMAP] = CAL("unmap_walk", "cost.try_to_unmap", "walk", "pageout_file less page_drop less "
			"unmap_pte, each round (the rmap walk to the PTE; madvise's isolation inside)"),
	[CAL_REFWALK] = CAL("ref_walk", "cost.folio_referenced", "walk", "unmap_walk above (folio_referenced "
			  "walks the same rmap to the PTE)"),
	[CAL_PAGEOUT_ANON] = CAL("pageout_anon", NULL, "page", "MADV_PAGEOUT of 32 MiB of written private "
			       "anonymous memory to the run's swapfile (add_to_swap, try_to_unmap, "
			       "swap_writepage's bio)"),
	[CAL_DIO_4K] = CAL("dio_4k", NULL, "request", "thread CPU time per O_DIRECT pread() of 4 KiB of "
			 "that file (iomap_dio_rw, submit_bio, the task's completion)"),
	[CAL_DIO_1M] = CAL("dio_1m", NULL, "request", "the same per pread() of 1 MiB (one request of 256 "
			 "pages)"),
	[CAL_AIO_4K] = CAL("aio_4k", NULL, "request", "thread CPU time of io_submit(2) per request, 32 "
			 "O_DIRECT 4 KiB reads a call (submission only: plugged, no sleep)"),
	[CAL_AIO_1M] = CAL("aio_1m", NULL, "request", "the same, 4 reads of 1 MiB a call"),
	[CAL_IO_PAGE] = CAL("io_page", NULL, "page", "(aio_1m - aio_4k) / 255, each round: a request's "
			  "cost per page beyond its first"),
	[CAL_IO_SUBMIT] = CAL("io_submit", "cost.io_submit", "request", "aio_4k less io_page, each round: "
			    "a request's fixed cost"),
	[CAL_ADD_SWAP] = CAL("add_to_swap", "cost.add_to_swap", "page", "pageout_anon less unmap_walk, "
			   "unmap_pte and io_submit, each round: an anonymous page's reclaim beyond the walk, "
			   "the PTE and the bio (swap slot, swap cache, the memcg's swap charge)"),
	[CAL_SWAPIN] = CAL("swapin", NULL, "page", "thread CPU time of writing back each page pageout_anon "
			 "swapped out, its swap cache dropped first (a limit below its usage, then back), per page "
			 "read from swap (pswpin): do_swap_page, swapin_readahead, the bios, the slot freed"),
	[CAL_SWAPIN_FAULTS] = CAL("swapin_faults", NULL, "read", "the faults pagelab charges cost.fault "
				"for, per page read: each page's fault and each major fault's retry"),
	[CAL_READ_SWAP] = CAL("read_swap", "cost.read_swap_cache", "page", "swapin less "
			    "swapin_faults x fault and io_submit, each round: a swap-in beyond the fault and the bio "
			    "(__read_swap_cache_async: the folio's charge, the swap cache; the slot freed)"),
	[CAL_WRITE_NEW] = CAL("write_new", NULL, "page", "thread CPU time per 4 KiB write() appending to a "
			    "new file of its own, in the run's cgroup (the folio created and charged, its block "
			    "reserved, the copy, the page dirtied, the call)"),
	[CAL_WB_FSYNC] = CAL("wb_fsync", NULL, "page", "thread CPU time of fsync() of those pages, per page "
			   "(ext4_writepages: blocks allocated, folios under writeback, the bios)"),
	[CAL_WRITE_CLEAN] = CAL("write_clean", NULL, "page", "the same per 4 KiB pwrite() of each page again, "
			      "cached and clean (the lookup, the copy, the page dirtied, the call)"),
	[CAL_WRITE_DIRTY] = CAL("write_dirty", NULL, "page", "the same once more, each page cached and "
			      "dirty (the lookup, the copy, the call)"),
	[CAL_READ_CACHED] = CAL("read_cached", NULL, "page", "the same per 4 KiB pread() of each page, "
			      "cached (filemap_read: the lookup, the copy, the call)"),
	[CAL_COPY_CPU] = CAL("copy_cpu", NULL, "page", "thread CPU time per memcpy() of each 4 KiB page of "
			   "32 MiB to one page (the read's copy, on its clock)"),
	[CAL_WRITE_NEW_BIG] = CAL("write_new_64", NULL, "page", "write_new in 256 KiB calls (64 pages "
				"each), per page"),
	[CAL_WRITE_CLEAN_BIG] = CAL("write_clean_64", NULL, "page", "write_clean in 256 KiB calls, per page"),
	[CAL_WRITE_DIRTY_BIG] = CAL("write_dirty_64", NULL, "page", "write_dirty in 256 KiB calls, per page"),
	[CAL_READ_CACHED_BIG] = CAL("read_cached_64", NULL, "page", "read_cached in 256 KiB calls, per page"),
	[CAL_SYSCALL] = CAL("syscall", "cost.syscall", "call", "read_cached less copy_cpu, each round: "
			  "a read() or write() call beyond its page's copy"),
	[CAL_WRITE_PAGE] = CAL("write_page", "cost.generic_perform_write", "page", "a page of write_dirty "
			     "less one of read_cached, each round, a page's part of each (the two sizes of call "
			     "solved for a call's and a page's: X_page = (64 X_64 - X) / 63): a page a write() "
			     "copies beyond a read of it (write_begin and write_end on the cached folio)"),
	[CAL_MARK_DIRTY] = CAL("mark_dirty", "cost.folio_mark_dirty", "page", "a page of write_clean less "
			     "one of write_dirty, each round: a clean page made dirty by a write "
			     "(__folio_mark_dirty: the dirty counts, the xarray tag)"),
	[CAL_WRITE_BEGIN] = CAL("write_begin", "cost.write_begin", "page", "a page of write_new less one of "
			      "write_clean, each round: a page a write creates (__filemap_get_folio(FGP_CREAT): "
			      "the folio allocated, charged and added; its delayed block reserved)"),
	[CAL_WRITEPAGES] = CAL("writepages", "cost.writepages", "page", "wb_fsync less io_submit / 256, "
			     "each round: a page written back beyond its share of the bio (blocks "
			     "allocated, folio_start_writeback, the folio added to the bio)"),
	[CAL_WRITE_ITER] = CAL("write_iter", "cost.write_iter", "call", "a call of write_dirty less one of "
			     "read_cached, each round, a call's part of each (X_call = X - X_page): a write() "
			     "call's own work beyond a read()'s (the inode lock, generic_write_checks, "
			     "file_modified)"),
	[CAL_WRITE_DIRTIED] = CAL("write_dirtied", "cost.write_iter_dirtied", "call", "a call of "
				"write_clean less one of write_dirty, each round: a call that dirtied clean pages, "
				"once a call"),
	[CAL_DROP_WRITTEN] = CAL("drop_written", NULL, "page", "thread CPU time per page of "
			       "posix_fadvise(DONTNEED) of write_new's file, fsync()ed clean after its read "
			       "(its pages made by 4 KiB writes: buffer heads attached)"),
	[CAL_RELEASE_FOLIO] = CAL("release_folio", "cost.filemap_release_folio", "page", "drop_written "
				"less page_drop, each round: a written page's buffer heads freed "
				"(filemap_release_folio -> try_to_free_buffers) beyond a read page's removal"),
	[CAL_WRITE_EXTEND] = CAL("write_extend", "cost.write_iter_extend", "call", "a call of write_new "
			       "less one of write_clean, each round: a call that extended the file, once a call "
			       "(i_size, the inode dirtied in a journal handle)"),
	[CAL_IO_COMPLETE] = CAL("io_complete", "cost.io_complete", "request", "the interrupt's side of a "
			      "completion"),
};

void cal_init(struct cal_fig *f)
{
	for (int i = 0; i < NR_CAL; i++)
		f[i] = cal_defs[i];
}

void cal_pick_rmap(struct cal_fig *f)
{
	if (f[CAL_ZAP].rounds)
		f[CAL_RMAP].param = NULL;
	else
		f[CAL_ZAP].param = NULL;
}

void cal_measure(struct cal_fig *f, bool paths)
{
	cal_init(f);
	bench_zero_copy(&f[CAL_ZERO], &f[CAL_COPY]);
	bench_fault(&f[CAL_FAULT], &f[CAL_FREE]);
	if (f[CAL_FAULT].rounds) {
		double v = f[CAL_FAULT].median - f[CAL_ZERO].median;
		f[CAL_FAULT].value = v > 0 ? v : 0;
	}
	size_t n;
	struct node *v = random_nodes(&n);
	bench_chase(&f[CAL_CHASE], v);
	bench_scan(&f[CAL_SCAN], v, n);
	free(v);
	bench_lock(&f[CAL_LOCK]);
	compose(&f[CAL_RMAP], RMAP_LOADS, &f[CAL_CHASE], RMAP_LOCKS, &f[CAL_LOCK]);
	bench_pte(&f[CAL_PTE]);
	same_as(&f[CAL_LRU_LOCK], &f[CAL_LOCK]);
	same_as(&f[CAL_PUTBACK], &f[CAL_SCAN]);
	same_as(&f[CAL_PMD], &f[CAL_CHASE]);
	compose(&f[CAL_LOOK], 1, &f[CAL_CHASE], 1, &f[CAL_LOCK]);
	bench_tlb(&f[CAL_TLB_SEND], &f[CAL_TLB_RECV]);
	static double ns[NR_CALP][CAL_ROUNDS];
	char why[160] = "not asked for (--calibrate-user)";
	int rounds = paths ? cal_paths_measure(ns, why, sizeof(why)) : 0;
	cal_paths_figs(f, ns, rounds, why);
	cal_pick_rmap(f);
}
