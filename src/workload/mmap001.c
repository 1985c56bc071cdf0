/* mmap001.c - LTP's mmap001 (from Juan Quintela's memtest, 2000; LTP 2001):
 * create a sparse file of PAGES pages (seek to the end, write one byte),
 * map it MAP_SHARED, write every byte of the mapping front to back, msync
 * it, unmap, close and unlink; -i loops.  Randy Hron ran `mmap001 -m
 * 500000` (2 GB) on a 512 MB box in Oct 2001.
 *
 * Modeled: the file ops and the shared mapping; every page written with
 * 4096 byte stores; msync(MS_SYNC) as an fsync of the file (it writes the
 * dirty pages of the mapping and waits).  Not modeled: the 32-bit size
 * limit (PAGES * 4096 must stay below 4 GB, as in the original). */
#include "workload.h"
#include "args.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

enum { M_CREATE, M_EXTEND, M_MAP, M_TOUCH, M_SYNC, M_UNMAP, M_CLOSE, M_UNLINK, M_NEXT };

struct mmap001 {
	uint64_t pages, loops, loop;
	int step;
	char name[64];
};

static void m_help(FILE *out)
{
	fputs(
"usage: mmap001 [-m PAGES] [-i LOOPS]\n"
"LTP mmap001: a sparse file of PAGES pages (default 1000) mapped MAP_SHARED,\n"
"every byte written, msync(MS_SYNC), munmap, close, unlink; LOOPS times\n"
"(default 1).  Dirty, mapped, file-backed pages: the kernel must write them\n"
"back (not swap them) to make room.\n"
"Output: the LTP test's TINFO/TPASS lines.\n", out);
}

static void *m_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	(void)seed;
	uint64_t pages = 1000, loops = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] != '-' || !a[1] || a[2] || !strchr("mi", a[1])) {
			snprintf(err, errlen, "mmap001: unexpected argument '%s'", a);
			return NULL;
		}
		char o = a[1];
		const char *v = wl_optval(argc, argv, &i);
		/* The size is an unsigned 32-bit byte count in the original. */
		bool ok = o == 'm' ? wl_u64_in(v, 1, (UINT32_MAX - 1) / PAGE_SIZE, &pages)
				   : wl_u64_in(v, 1, 1000000, &loops);
		if (!ok) {
			snprintf(err, errlen, "mmap001: bad value '%s' for -%c", v ? v : "", o);
			return NULL;
		}
	}
	struct mmap001 *w = xcalloc(1, sizeof(*w));
	w->pages = pages;
	w->loops = loops;
	snprintf(w->name, sizeof(w->name), "/tmp/mmap001/testfile.%d", 1000);
	return w;
}

static void m_destroy(void *p) { free(p); }
static int m_nr_tasks(void *p) { (void)p; return 1; }

static bool m_next_op(void *p, int task, struct op *op)
{
	struct mmap001 *w = p;
	(void)task;
	memset(op, 0, sizeof(*op));
	if (w->loop >= w->loops)
		return false;
	op->fd = 0;
	op->region = (uint32_t)w->loop;
	switch (w->step++) {
	case M_CREATE:
		op->kind = OP_CREATE;
		op->name = w->name;
		return true;
	case M_EXTEND:
		/* lseek(fd, size, SEEK_SET); write(fd, "\0", 1): a sparse file. */
		op->kind = OP_WRITE;
		op->first = w->pages;
		op->npages = 1;
		return true;
	case M_MAP:
		op->kind = OP_MMAP_FILE;
		op->shared = true;
		op->npages = w->pages;
		return true;
	case M_TOUCH:
		op->kind = OP_TOUCH;
		op->write = true;
		op->refs = (uint32_t)PAGE_SIZE;
		op->npages = w->pages;
		return true;
	case M_SYNC:
		op->kind = OP_FSYNC;
		return true;
	case M_UNMAP:
		op->kind = OP_MUNMAP;
		return true;
	case M_CLOSE:
		op->kind = OP_CLOSE;
		return true;
	default:
		op->kind = OP_UNLINK;
		op->name = w->name;
		w->step = 0;
		w->loop++;
		return true;
	}
}

static void m_report(void *p, const double *elapsed, FILE *out)
{
	struct mmap001 *w = p;
	(void)elapsed;
	for (uint64_t l = 0; l < w->loops; l++) {
		fprintf(out, "mmap001     0  TINFO  :  mmap()ing file of %llu pages or %llu bytes\n",
			(unsigned long long)w->pages, (unsigned long long)(w->pages * PAGE_SIZE));
		fprintf(out, "mmap001     1  TPASS  :  mmap() completed successfully.\n");
		fprintf(out, "mmap001     0  TINFO  :  touching mmaped memory\n");
		fprintf(out, "mmap001     2  TPASS  :  we're still here, mmaped area must be good\n");
		fprintf(out, "mmap001     3  TPASS  :  synchronizing mmapped page passed\n");
		fprintf(out, "mmap001     4  TPASS  :  munmapping testfile.1000 successful\n");
	}
}

const struct workload_ops mmap001_workload = {
	.name = "mmap001",
	.summary = "LTP mmap001: write every byte of a shared mapping of a sparse file, msync",
	.help = m_help,
	.create = m_create,
	.destroy = m_destroy,
	.nr_tasks = m_nr_tasks,
	.next_op = m_next_op,
	.report = m_report,
};
