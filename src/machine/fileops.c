/* fileops.c - file operations of tasks: the bridge from the op stream to
 * the page cache (src/mm/filemap.h).  Each task has a table of open files
 * (fd -> inode + readahead state); each syscall costs cost.syscall_ns on
 * top of the per-page work (copies, faults, I/O) filemap charges.
 *
 * O_DIRECT reads and writes bypass the page cache: the pages go straight
 * between the disk and the task, which waits for all of them; a direct
 * write first drops the cached copies it replaces. */
#include "machine.h"
#include "../mm/filemap.h"
#include "../mm/integrity.h"
#include "../lib/util.h"

#include <stdlib.h>

struct file_slot {
	struct inode *ino;      /* NULL: fd not open */
	struct file_ra ra;
};

/* t->fop_phase */
enum { FOP_START, FOP_RUNNING, FOP_WAITING };

static struct file_slot *fd_slot(struct task *t, int fd, bool grow)
{
	if (fd < 0 || fd > 65535)
		return NULL;
	if (fd >= t->nr_files) {
		if (!grow)
			return NULL;
		int n = fd + 1;
		t->files = xrealloc(t->files, (size_t)n * sizeof(*t->files));
		for (int i = t->nr_files; i < n; i++)
			t->files[i] = (struct file_slot){ 0 };
		t->nr_files = n;
	}
	return &t->files[fd];
}

static struct inode *fd_inode(struct task *t, int fd)
{
	struct file_slot *s = fd_slot(t, fd, false);
	if (!s || !s->ino)
		die_usage("workload %s uses fd %d, which is not open", t->comm, fd);
	return s->ino;
}

static void fd_close(struct machine *m, struct mm_ctx *ctx, struct file_slot *s)
{
	if (!s->ino)
		return;
	filemap_put(&m->mm, ctx, s->ino);
	s->ino = NULL;
}

void fileops_task_exit(struct machine *m, struct task *t, struct mm_ctx *ctx)
{
	for (int i = 0; i < t->nr_files; i++)
		fd_close(m, ctx, &t->files[i]);
	free(t->files);
	t->files = NULL;
	t->nr_files = 0;
}

static void fd_install(struct machine *m, struct task *t, struct mm_ctx *ctx, int fd, struct inode *ino)
{
	struct file_slot *s = fd_slot(t, fd, true);
	if (!s)
		die_usage("workload %s: bad fd %d", t->comm, fd);
	fd_close(m, ctx, s);
	s->ino = ino;
	s->ra = (struct file_ra){ 0 };
	filemap_get(ino);
}

/* Queue the direct I/O of the op's pages; the task waits for them all. */
static void direct_io(struct machine *m, struct task *t, struct mm_ctx *ctx, struct inode *ino)
{
	struct mm *mm = &m->mm;
	struct op *op = &t->op;
	enum io_dir dir = op->kind == OP_WRITE ? IO_WRITE : IO_READ;
	uint64_t n = op->npages;
	if (dir == IO_WRITE) {
		filemap_extend_write(mm, ino, op->first, op->first + n);
		/* A direct write into a hole gives it blocks at once. */
		if (!(ino->flags & (INODE_RAMFS | INODE_BLKDEV)))
			inode_add_blocks(mm, ino, op->first, op->first + n);
		filemap_invalidate_range(mm, ctx, ino, op->first, n);
	}
	struct io_run run = { 0 }; /* iomap_dio_bio_iter(): a bio per extent */
	for (uint64_t i = 0; i < n; i++) {
		if (op->first + i >= ino->size || (ino->flags & INODE_RAMFS))
			break;
		uint64_t block = filemap_block(ino, op->first + i);
		if (block == UINT64_MAX)
			continue; /* a hole: zeroes, no I/O */
		if (dir == IO_WRITE && mm->integrity)
			integrity_direct_write(mm, ino, op->first + i);
		mm->ev[dir == IO_READ ? PGPGIN : PGPGOUT] += PAGE_SIZE / 1024;
		io_request(mm, ctx, &run, block);
		ctx->sys_ns += mm->cost->copy_page_ns / 4; /* get_user_pages */
		if (m->prof.untimed)
			continue;
		t->dio_pending++;
		disk_submit(&m->disk, dir, block, DIO_COOKIE | (uint64_t)t->id,
			    ctx->t0 + ctx->user_ns + ctx->sys_ns);
	}
}

/* generic_write_sync() once a buffered write is done (balance_dirty_pages()
 * ran in generic_perform_write() before it): an RWF_DONTCACHE write
 * kicks the writeback of what it wrote. */
static void write_sync(struct machine *m, struct mm_ctx *ctx, struct inode *ino, const struct op *op)
{
	if (op->kind == OP_WRITE && op->dontcache)
		filemap_writeback_range(&m->mm, ctx, ino, op->first, op->npages);
}

/* A buffered write() call's once-a-call work (work.h W_WRITE_ITER*):
 * the calibrated write path (src/native/calib_write.c) measures 4 KiB and
 * 256 KiB calls and splits what each costs a page from what it costs a
 * call; a dd of 1 MiB blocks pays the call's part once per 256 pages.
 * Each bit of t->write_call once per call: the call itself, a clean page
 * it dirtied, the file it extended. */
enum { WCALL_ITER = 1, WCALL_DIRTIED = 2, WCALL_EXTEND = 4 };

static void write_call_work(struct mm *mm, struct mm_ctx *ctx, struct task *t, int bit, enum work_op w)
{
	if (t->write_call & bit)
		return;
	t->write_call |= (uint8_t)bit;
	struct mm_ctx *saved = mm->cur;
	mm->cur = ctx;
	mm_work(mm, w, 1);
	mm->cur = saved;
}

bool machine_file_op(struct machine *m, struct task *t, struct mm_ctx *ctx, uint64_t budget,
		     enum fault_status *st)
{
	struct mm *mm = &m->mm;
	struct op *op = &t->op;
	*st = FAULT_DONE;
	if (t->fop_phase == FOP_START) {
		ctx->sys_ns += mm->cost->syscall_ns ? mm->cost->syscall_ns : mm->cost->fault_ns;
		t->fop_phase = FOP_RUNNING;
		t->write_call = 0;
	}
	bool done = true;
	switch (op->kind) {
	case OP_CREATE:
	case OP_OPEN: {
		if (!op->name || !op->name[0])
			die_usage("workload %s opens a file without a name", t->comm);
		struct inode *ino = op->kind == OP_CREATE ? filemap_create(mm, ctx, op->name)
							  : filemap_lookup(mm, op->name);
		if (!ino) {
			/* Nobody created it: the command line named a file that
			 * does not exist (bad input).  After an OOM kill it is
			 * the missing output of a killed process (kbuild's link
			 * step): the program fails, the run goes on. */
			if (!mm->ev[OOM_KILL])
				die_usage("workload %s opens %s, which does not exist", t->comm, op->name);
			*st = FAULT_ENOENT;
			t->fop_phase = FOP_START;
			return false;
		}
		fd_install(m, t, ctx, op->fd, ino);
		/* the posix_fadvise() that follows the open */
		fd_slot(t, op->fd, false)->ra.fadvise =
			op->fadvise == OP_FADV_RANDOM ? RA_FADV_RANDOM
			: op->fadvise == OP_FADV_SEQUENTIAL ? RA_FADV_SEQUENTIAL : RA_FADV_NORMAL;
		break;
	}
	case OP_CLOSE: {
		struct file_slot *s = fd_slot(t, op->fd, false);
		if (s)
			fd_close(m, ctx, s);
		break;
	}
	case OP_UNLINK: {
		struct inode *ino = op->name ? filemap_lookup(mm, op->name) : NULL;
		if (ino)
			filemap_unlink(mm, ctx, ino);
		break;
	}
	case OP_TRUNCATE:
		filemap_truncate(mm, ctx, fd_inode(t, op->fd), op->npages);
		break;
	case OP_READ:
	case OP_WRITE: {
		struct file_slot *s = fd_slot(t, op->fd, false);
		struct inode *ino = fd_inode(t, op->fd);
		if (op->direct) {
			if (t->fop_phase == FOP_RUNNING) {
				direct_io(m, t, ctx, ino);
				t->fop_phase = FOP_WAITING;
			}
			if (t->dio_pending) {
				ctx->wait_pfn = PFN_NONE;
				*st = FAULT_WAIT_PAGE;
				done = false;
			}
			break;
		}
		if (t->fop_phase == FOP_WAITING) {
			/* throttled in balance_dirty_pages(), now done */
			write_sync(m, ctx, ino, op);
			break;
		}
		uint64_t size0 = ino->size, dirtied0 = mm->stat.nr_dirtied;
		if (op->kind == OP_WRITE)
			write_call_work(mm, ctx, t, WCALL_ITER, W_WRITE_ITER);
		uint64_t n = op->kind == OP_READ
			? filemap_read_rwf(mm, ctx, ino, &s->ra, op->first + t->op_done, op->npages - t->op_done,
					   op->dontcache, budget, st)
			: filemap_write_rwf(mm, ctx, ino, op->first + t->op_done, op->npages - t->op_done,
					    op->dontcache, budget, st);
		t->op_done += n;
		if (op->kind == OP_WRITE && mm->stat.nr_dirtied != dirtied0)
			write_call_work(mm, ctx, t, WCALL_DIRTIED, W_WRITE_ITER_DIRTIED);
		if (op->kind == OP_WRITE && ino->size > size0)
			write_call_work(mm, ctx, t, WCALL_EXTEND, W_WRITE_ITER_EXTEND);
		if (t->op_done < op->npages) {
			if (op->kind == OP_WRITE && *st == FAULT_WAIT_RECLAIM)
				mm_flusher_writer_stalled(mm);
			done = false;
			break;
		}
		if (op->kind == OP_WRITE && mm_balance_dirty_pages(mm, ctx)) {
			t->fop_phase = FOP_WAITING;
			*st = FAULT_WAIT_RECLAIM;
			ctx->reclaim_wait = false; /* the dirty throttle: no memory stall */
			done = false;
		} else if (op->kind == OP_WRITE) {
			write_sync(m, ctx, ino, op);
		}
		break;
	}
	case OP_FSYNC:
		if (!filemap_fsync(mm, ctx, fd_inode(t, op->fd))) {
			*st = FAULT_WAIT_RECLAIM; /* woken as writes complete */
			ctx->reclaim_wait = false;
			done = false;
		}
		break;
	case OP_MMAP_FILE: {
		uint32_t v = mm_mmap_file(mm, t->as, fd_inode(t, op->fd), op->first, op->npages, op->shared);
		if (v != op->region)
			panic("workload %s: region %u mapped as vma %u", t->comm, op->region, v);
		if (op->exec)
			t->as->vmas[v].flags |= VMA_EXEC;
		ctx->sys_ns += mm->cost->fault_ns;
		break;
	}
	default:
		panic("machine_file_op: op %d is not a file op", (int)op->kind);
	}
	if (done && op->kind == OP_READ && m->wls[t->wl].ops->read_done) {
		struct inode *ino = fd_inode(t, op->fd);
		uint64_t in = ino->size > op->first ? ino->size - op->first : 0;
		m->wls[t->wl].ops->read_done(m->wls[t->wl].w, t->wl_task, in < op->npages ? in : op->npages);
	}
	if (done)
		t->fop_phase = FOP_START;
	return done;
}

void fileops_dio_done(struct machine *m, uint64_t cookie, uint64_t now)
{
	struct task *t = &m->tasks[cookie & ~DIO_COOKIE];
	if (!t->dio_pending)
		panic("task %d: direct I/O completion without a request", t->id);
	if (--t->dio_pending == 0 && t->state == T_BLOCKED && t->wait == W_PAGE)
		machine_wake(m, t, now);
}
