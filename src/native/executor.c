/* executor.c - one task's op stream carried out with real syscalls, in a
 * process of its own inside the run's memory cgroup.
 *
 * The mapping (docs/native.md has the table): anonymous regions are
 * mmap(MAP_PRIVATE|MAP_ANONYMOUS); OP_TOUCH makes `refs` word accesses to
 * each page of the range (loads, or stores of non-zero values with
 * `write`; at least one per page), cycling over the page's 512 words, so
 * the kernel sees the same
 * first-touch faults, the same accessed and dirty bits and about the same
 * user time as the program.  Trace data regions (OP_MMAP_DATA) store on a
 * page's first touch even for a read: the simulator allocates a frame for
 * it, where a real read of fresh anonymous memory would map the zero page.
 * Files are real files in the run's directory (prepare.c maps names);
 * O_DIRECT ops use a second descriptor opened with O_DIRECT.  OP_WAIT on a
 * sibling task reads a pipe only that task holds open for writing: EOF
 * means it exited.  OP_BARRIER polls (1 ms) the other tasks' barrier
 * counts in shared memory.  OP_EXEC unmaps every region (a new image in
 * the slot).  The agents' OP_CG_* read and write the cgroup v2 files
 * below the run's own cgroup (cgagent.c).
 * A write to a region whose workload declares what its pages hold
 * (op->data_kind: usemem's same-filled pages, qsbench's ints, kbuild's
 * text; src/lib/pagefill.h) writes the page's whole contents, the bytes
 * pagefill() makes for that kind, which the simulator's compression table
 * was measured on: a zram device then compresses what the simulator's
 * does.  A trace's pages (DK_RATIO) have no bytes, only the ratio the
 * simulator is given, and keep the word stores.
 * Not like the program: read()/write() go through one scratch buffer of
 * the executor's (up to 1 MiB, resident), not the program's own buffer. */
#define _GNU_SOURCE
#include "native.h"
#include "../lib/pagefill.h"
#include "../lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* include/uapi/linux/fs.h (6.14): uncached buffered I/O; the libc's
 * headers may predate it. */
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif

#define NFD 64
#define SCRATCH_PAGES 256u

struct region {
	char *addr;
	uint64_t npages;
	uint8_t *touched;       /* OP_MMAP_DATA: pages stored to once */
	uint8_t kind;           /* its declared data kind; DK_RANDOM: none */
	uint64_t seed;          /* pagefill()'s seed for its pages */
};

struct xtask {
	const struct nexec_ctx *c;
	struct ntask_result *r;
	struct region *reg;
	uint32_t nreg, cap;
	int fd[NFD], dfd[NFD];
	char *path[NFD];
	char *scratch;
};

/* Loads land here, so the compiler cannot drop them. */
volatile uint64_t native_sink;

uint64_t native_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t cpu_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int fail(struct xtask *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct xtask *x, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(x->r->err, sizeof(x->r->err), fmt, ap);
	va_end(ap);
	return 1;
}

static int map_region(struct xtask *x, const struct op *op, int fd, off_t off, int flags, int prot)
{
	if (op->region != x->nreg)
		return fail(x, "maps region %u, expected %u", op->region, x->nreg);
	if (!op->npages)
		return fail(x, "maps an empty region");
	if (x->nreg == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 16;
		x->reg = xrealloc(x->reg, x->cap * sizeof(*x->reg));
	}
	void *a = mmap(NULL, op->npages * PAGE_SIZE, prot, flags, fd, off);
	if (a == MAP_FAILED)
		return fail(x, "mmap of %llu pages: %s", (unsigned long long)op->npages, strerror(errno));
	x->reg[x->nreg++] = (struct region){ .addr = a, .npages = op->npages,
		.touched = op->kind == OP_MMAP_DATA ? xcalloc(op->npages / 8 + 1, 1) : NULL,
		.kind = nexec_written_kind(op),
		.seed = x->c->seed ^ ((uint64_t)op->region + 1) * 0x9e3779b97f4a7c15ULL };
	return 0;
}

static struct region *region_of(struct xtask *x, const struct op *op, uint64_t first, uint64_t n)
{
	if (op->region >= x->nreg || !x->reg[op->region].addr)
		return NULL;
	struct region *g = &x->reg[op->region];
	return first + n <= g->npages ? g : NULL;
}

/* Stored values are never 0: since 6.12 the kernel does not write a
 * zero-filled page to swap at all (swpout_zero), and no program of the
 * threads wrote only zeros. */
static inline uint64_t word_value(uint64_t page, uint32_t k)
{
	return (page + 1) * 0x9e3779b97f4a7c15ULL ^ k ^ 1;
}

uint8_t nexec_written_kind(const struct op *op)
{
	/* Only OP_MMAP_ANON's and OP_MMAP_DATA's declare a kind, and only
	 * kinds with bytes are written (DK_RATIO has none). */
	bool anon = op->kind == OP_MMAP_ANON || op->kind == OP_MMAP_DATA;
	return anon && op->data_kind != DK_RATIO && op->data_kind < DK_NR ? op->data_kind : DK_RANDOM;
}

void nexec_fill_page(unsigned char *page, uint8_t kind, uint64_t seed, uint64_t index, uint32_t refs,
		     bool load_first)
{
	uint64_t sum = 0;
	volatile uint64_t *w = (volatile uint64_t *)(void *)page;
	if (load_first)
		sum += w[0];
	pagefill((enum data_kind)kind, seed, index, page);
	/* The rest of its references read what was written. */
	for (uint32_t k = 1; k < refs; k++)
		sum += w[k & 511];
	native_sink += sum;
}

/* A write that loads first (op->load_first: qsbench's sort compares
 * before it swaps) makes its first reference a load, so a page that is
 * not present takes a read fault, as the program's does: 6.x keeps the
 * swap slot of a page read back on a read fault (should_try_to_free_swap()
 * frees it for FAULT_FLAG_WRITE only), which decides where the page is
 * written if evicted again and so what swap readahead finds. */
static void touch(struct region *g, uint64_t first, uint64_t n, uint32_t refs, bool write,
		  bool load_first)
{
	uint64_t sum = 0;
	if (!refs)
		refs = 1;
	for (uint64_t p = first; p < first + n; p++) {
		volatile uint64_t *w = (volatile uint64_t *)(g->addr + p * PAGE_SIZE);
		uint32_t k = 0;
		if (write && g->kind != DK_RANDOM) {
			if (g->touched)
				g->touched[p / 8] |= (uint8_t)(1u << (p % 8));
			nexec_fill_page((unsigned char *)g->addr + p * PAGE_SIZE, g->kind, g->seed, p, refs,
					load_first);
			continue;
		}
		if (g->touched && !(g->touched[p / 8] & (1u << (p % 8)))) {
			g->touched[p / 8] |= (uint8_t)(1u << (p % 8));
			w[0] = word_value(p, 0);
			k = 1;
		} else if (write && load_first) {
			sum += w[0];
			w[1] = word_value(p, 1); /* the store, even with refs 1 */
			k = 2;
		}
		if (write)
			for (; k < refs; k++)
				w[k & 511] = word_value(p, k);
		else
			for (; k < refs; k++)
				sum += w[k & 511];
	}
	native_sink += sum;
}

static void unmap_all(struct xtask *x)
{
	for (uint32_t i = 0; i < x->nreg; i++) {
		if (x->reg[i].addr)
			munmap(x->reg[i].addr, x->reg[i].npages * PAGE_SIZE);
		free(x->reg[i].touched);
	}
	x->nreg = 0;
}

static int fd_of(struct xtask *x, const struct op *op, bool direct)
{
	if (op->fd < 0 || op->fd >= NFD || x->fd[op->fd] < 0)
		return -1;
	if (!direct)
		return x->fd[op->fd];
	if (x->dfd[op->fd] < 0)
		x->dfd[op->fd] = open(x->path[op->fd], O_RDWR | O_DIRECT | O_CLOEXEC);
	return x->dfd[op->fd];
}

static void close_slot(struct xtask *x, int i)
{
	if (x->fd[i] >= 0)
		close(x->fd[i]);
	if (x->dfd[i] >= 0)
		close(x->dfd[i]);
	x->fd[i] = x->dfd[i] = -1;
	free(x->path[i]);
	x->path[i] = NULL;
}

/* pread()/pwrite(), or preadv2()/pwritev2() with RWF_DONTCACHE for an
 * uncached read or write (EOPNOTSUPP before 6.14 or on a file system
 * without FOP_DONTCACHE: the run fails, naming the error). */
static ssize_t io_pages(int fd, void *buf, size_t n, off_t off, const struct op *op)
{
	bool rd = op->kind == OP_READ;
	if (!op->dontcache)
		return rd ? pread(fd, buf, n, off) : pwrite(fd, buf, n, off);
	struct iovec iov = { .iov_base = buf, .iov_len = n };
	return rd ? preadv2(fd, &iov, 1, off, RWF_DONTCACHE) : pwritev2(fd, &iov, 1, off, RWF_DONTCACHE);
}

/* read() or write() pages [first, first+n) through the scratch buffer. */
static int rw_pages(struct xtask *x, const struct op *op)
{
	int fd = fd_of(x, op, op->direct);
	if (fd < 0)
		return fail(x, "%s on file slot %d: %s", op->kind == OP_READ ? "read" : "write", (int)op->fd,
			    op->fd >= 0 && op->fd < NFD && x->fd[op->fd] >= 0 ? strerror(errno) : "not open");
	for (uint64_t done = 0; done < op->npages;) {
		size_t n = (size_t)MIN(op->npages - done, SCRATCH_PAGES) * PAGE_SIZE;
		off_t off = (off_t)((op->first + done) * PAGE_SIZE);
		ssize_t got = io_pages(fd, x->scratch, n, off, op);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return fail(x, "%s%s of %s: %s", op->kind == OP_READ ? "read" : "write",
				    op->dontcache ? " (RWF_DONTCACHE)" : "", x->path[op->fd], strerror(errno));
		if (got == 0)
			break;  /* end of file: a short read, as the program would get */
		done += ((uint64_t)got + PAGE_SIZE - 1) / PAGE_SIZE;
	}
	return 0;
}

static int file_op(struct xtask *x, const struct op *op)
{
	int slot = op->fd;
	bool need_slot = op->kind != OP_UNLINK;
	if (need_slot && (slot < 0 || slot >= NFD))
		return fail(x, "file slot %d out of range", slot);
	switch (op->kind) {
	case OP_CREATE:
	case OP_OPEN: {
		char p[1024];
		native_file_path(p, sizeof(p), x->c->dir, op->name);
		close_slot(x, slot);
		int flags = O_RDWR | O_CLOEXEC | (op->kind == OP_CREATE ? O_CREAT | O_TRUNC : 0);
		x->fd[slot] = open(p, flags, 0600);
		if (x->fd[slot] < 0)
			return fail(x, "open %s: %s", op->name, strerror(errno));
		x->path[slot] = xstrdup(p);
		if (op->fadvise != OP_FADV_NONE &&
		    posix_fadvise(x->fd[slot], 0, 0, op->fadvise == OP_FADV_RANDOM
				  ? POSIX_FADV_RANDOM : POSIX_FADV_SEQUENTIAL))
			return fail(x, "posix_fadvise %s failed", op->name);
		return 0;
	}
	case OP_CLOSE:
		close_slot(x, slot);
		return 0;
	case OP_READ:
	case OP_WRITE:
		return rw_pages(x, op);
	case OP_FSYNC:
		if (x->fd[slot] < 0 || fsync(x->fd[slot]))
			return fail(x, "fsync on file slot %d: %s", slot, x->fd[slot] < 0 ? "not open" : strerror(errno));
		return 0;
	case OP_UNLINK: {
		char p[1024];
		native_file_path(p, sizeof(p), x->c->dir, op->name ? op->name : "");
		if (unlink(p) && errno != ENOENT)
			return fail(x, "unlink %s: %s", op->name, strerror(errno));
		return 0;
	}
	case OP_TRUNCATE:
		if (x->fd[slot] < 0 || ftruncate(x->fd[slot], (off_t)(op->npages * PAGE_SIZE)))
			return fail(x, "truncate on file slot %d: %s", slot, x->fd[slot] < 0 ? "not open" : strerror(errno));
		return 0;
	case OP_MMAP_FILE: {
		int fd = x->fd[slot];
		if (fd < 0)
			return fail(x, "mmap of file slot %d: not open", slot);
		/* A mapping past the end would SIGBUS on touch; the simulator
		 * serves it as a hole: extend the file (sparse) to match. */
		struct stat st;
		uint64_t end = (op->first + op->npages) * PAGE_SIZE;
		if (!fstat(fd, &st) && (uint64_t)st.st_size < end && ftruncate(fd, (off_t)end))
			return fail(x, "extend %s: %s", x->path[slot], strerror(errno));
		int prot = PROT_READ | PROT_WRITE | (op->exec ? PROT_EXEC : 0);
		return map_region(x, op, fd, (off_t)(op->first * PAGE_SIZE), op->shared ? MAP_SHARED : MAP_PRIVATE, prot);
	}
	default:
		return fail(x, "op %d is not a file op", (int)op->kind);
	}
}

static int run_op(struct xtask *x, const struct op *op)
{
	const struct nexec_ctx *c = x->c;
	switch (op->kind) {
	case OP_MMAP_ANON:
	case OP_MMAP_DATA:
		return map_region(x, op, -1, 0, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, PROT_READ | PROT_WRITE);
	case OP_MUNMAP: {
		if (op->region >= x->nreg || !x->reg[op->region].addr)
			return fail(x, "munmap of region %u, which is not mapped", op->region);
		struct region *g = &x->reg[op->region];
		munmap(g->addr, g->npages * PAGE_SIZE);
		g->addr = NULL;
		return 0;
	}
	case OP_TOUCH: {
		struct region *g = region_of(x, op, op->first, op->npages);
		if (!g)
			return fail(x, "touches pages %llu+%llu of region %u, outside its mappings",
				    (unsigned long long)op->first, (unsigned long long)op->npages, op->region);
		touch(g, op->first, op->npages, op->refs, op->write, op->load_first);
		return 0;
	}
	case OP_MLOCK:
	case OP_MUNLOCK: {
		uint64_t first = op->npages ? op->first : 0;
		struct region *g = op->region < x->nreg ? &x->reg[op->region] : NULL;
		uint64_t n = op->npages ? op->npages : g ? g->npages : 0;
		if (!g || !g->addr || first + n > g->npages)
			return fail(x, "mlock of region %u, which is not mapped", op->region);
		char *a = g->addr + first * PAGE_SIZE;
		if (op->kind == OP_MLOCK ? mlock(a, n * PAGE_SIZE) : munlock(a, n * PAGE_SIZE))
			return fail(x, "%s: %s", op->kind == OP_MLOCK ? "mlock" : "munlock", strerror(errno));
		return 0;
	}
	case OP_CPU: {
		uint64_t until = cpu_ns(CLOCK_THREAD_CPUTIME_ID) + op->ns;
		while (cpu_ns(CLOCK_THREAD_CPUTIME_ID) < until)
			native_sink++;
		return 0;
	}
	case OP_SLEEP: {
		uint64_t t0 = native_now_ns();
		struct timespec ts = { (time_t)(op->ns / 1000000000ULL), (long)(op->ns % 1000000000ULL) };
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		x->r->sleep_ns += native_now_ns() - t0;
		return 0;
	}
	case OP_EXIT:
		return 0;
	case OP_EXEC:
		unmap_all(x);
		return 0;
	case OP_WAIT: {
		if (op->region >= (uint32_t)c->ntasks)
			return fail(x, "waits for task %u of %d", op->region, c->ntasks);
		int fd = c->done_fd[c->first_task + (int)op->region];
		char b;
		uint64_t t0 = native_now_ns();
		while (read(fd, &b, 1) != 0 && (errno == EINTR || errno == EAGAIN))
			;
		x->r->sleep_ns += native_now_ns() - t0;  /* waiting for a child is not a stall */
		return 0;
	}
	case OP_BARRIER: {
		/* Every other task of the workload has reached as many
		 * barriers, or exited (reaped by the runner). */
		uint64_t mine = __atomic_add_fetch(&x->r->barriers, 1, __ATOMIC_ACQ_REL);
		uint64_t t0 = native_now_ns();
		for (int k = c->first_task; k < c->first_task + c->ntasks; k++) {
			struct ntask_result *o = &c->sh->task[k];
			while (__atomic_load_n(&o->barriers, __ATOMIC_ACQUIRE) < mine &&
			       !__atomic_load_n(&o->reaped, __ATOMIC_ACQUIRE)) {
				struct timespec ts = { 0, 1000 * 1000 };
				nanosleep(&ts, NULL);
			}
		}
		x->r->sleep_ns += native_now_ns() - t0;  /* holding, as LTP's stopped child */
		return 0;
	}
	case OP_MARK: {
		uint64_t i = __atomic_fetch_add(&c->sh->nmarks, 1, __ATOMIC_RELAXED);
		struct nmark m = { .task = c->task, .id = op->region, .now_ns = native_now_ns() - c->t0,
				   .cpu_ns = cpu_ns(CLOCK_PROCESS_CPUTIME_ID) };
		struct rusage ru;
		if (c->ops->mark_faults && !getrusage(RUSAGE_SELF, &ru))
			m.majflt = (uint64_t)ru.ru_majflt;
		if (i < NMARKS_MAX)
			c->sh->marks[i] = m;
		/* This process's copy of the generator learns the time too:
		 * a time-bound loop (fio --runtime=, workingset -d) ends. */
		if (c->ops->mark)
			c->ops->mark(c->w, c->wl_task, op->region, m.now_ns, m.cpu_ns);
		if (c->ops->mark_faults)
			c->ops->mark_faults(c->w, c->wl_task, op->region, m.majflt);
		return 0;
	}
	case OP_CG_RECLAIM:
	case OP_CG_READ:
	case OP_CG_KILL: {
		char err[160];
		return nagent_step(c, op, native_now_ns() - c->t0, err, sizeof(err)) ? 0 : fail(x, "%s", err);
	}
	default:
		return file_op(x, op);
	}
}

int nexec_task(const struct nexec_ctx *c)
{
	struct xtask x = { .c = c, .r = &c->sh->task[c->task] };
	for (int i = 0; i < NFD; i++)
		x.fd[i] = x.dfd[i] = -1;
	x.scratch = mmap(NULL, SCRATCH_PAGES * PAGE_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (x.scratch == MAP_FAILED)
		return fail(&x, "no memory for the I/O buffer");
	int rc = 0;
	struct op op;
	while (!rc && c->ops->next_op(c->w, c->wl_task, &op)) {
		x.r->nops++;
		if (op.kind == OP_EXIT)
			break;
		rc = run_op(&x, &op);
	}
	nsched_read(x.r); /* wait, CPU, migrations (schedinfo.c) */
	/* The task's end is its reap (session.c), not here: rusage counts
	 * the unmapping below and exit's teardown, and pagelab's task ends
	 * after its exit's frees too; an end taken here made a small usemem's
	 * elapsed time less than its CPU time.
	 * What exit would release anyway; freed so leak checkers stay quiet. */
	unmap_all(&x);
	free(x.reg);
	for (int i = 0; i < NFD; i++)
		close_slot(&x, i);
	munmap(x.scratch, SCRATCH_PAGES * PAGE_SIZE);
	return rc;
}
