/* fileio.c - the `fileio` workload: one process reading or writing one
 * file through read()/write() (or a mapping of it), sequentially or at
 * random.  A small driver of the page cache for tests and for experiments
 * such as "stream a file past a working set" or "dd if=/dev/sda":
 *   fileio -c FILE 64M            write a 64 MB file, fsync, read it once
 *   fileio -r 3 /dev/sda 100M     read the first 100 MB of the raw disk 3x
 *   fileio -m -w -s FILE 16M      dirty a shared mapping of a new file
 * Not a model of any particular benchmark: dd, bonnie, dbench... are
 * workloads of their own. */
#include "workload.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

enum phase { PH_OPEN, PH_FILL, PH_FILL_SYNC, PH_SIZE, PH_MMAP, PH_PASS, PH_PASS_SYNC,
	     PH_CLOSE, PH_UNLINK, PH_DONE };

struct fileio {
	char *name;
	uint64_t npages, bs, passes;
	bool write, create, random, direct, fsync, mmap, shared, unlink, dontcache;
	enum phase ph;
	uint64_t pass, pos;
	struct rng rng;
};

static void fileio_help(FILE *out)
{
	fputs(
"usage: fileio [options] FILE SIZE\n"
"One process doing file I/O on FILE (shared by every workload of the run;\n"
"/dev/sda is the raw disk, names under /ramfs/ live in RAM only), SIZE bytes\n"
"(K/M/G/T suffixes, or a page count with 'p').\n"
"  -c        create FILE first: write SIZE sequentially and fsync\n"
"  -w        the passes write (creating FILE) instead of reading\n"
"  -r N      N passes over the file (default 1)\n"
"  -R        random page offsets (SIZE pages per pass) instead of sequential\n"
"  -b PAGES  pages per read()/write() call (default 1)\n"
"  -d        O_DIRECT: bypass the page cache\n"
"  -D        read()/write() calls with preadv2/pwritev2(RWF_DONTCACHE) (Linux\n"
"            6.14+): each page a read brings in (readahead's too) is dropped\n"
"            once a read has copied it; each page a write creates is\n"
"            dropped when its writeback, which the write starts, ends\n"
"  -f        fsync after each write pass\n"
"  -m        mmap the file and touch its pages instead of read()/write()\n"
"  -s        with -m: MAP_SHARED (default MAP_PRIVATE: writes copy the pages)\n"
"  -u        unlink FILE at the end\n"
"Reads of a file that does not exist stop the run with an error.\n", out);
}

static bool need(int argc, char **argv, int *i, const char **v)
{
	if (argv[*i][2]) {
		*v = argv[*i] + 2;
		return true;
	}
	if (*i + 1 >= argc)
		return false;
	*v = argv[++*i];
	return true;
}

static void *fileio_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	struct fileio f = { .bs = 1, .passes = 1 };
	const char *pos[2];
	int npos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		if (a[0] != '-' || !a[1]) {
			if (npos == 2) {
				snprintf(err, errlen, "fileio: unexpected argument '%s'", a);
				return NULL;
			}
			pos[npos++] = a;
			continue;
		}
		uint64_t x;
		switch (a[1]) {
		case 'r': case 'b':
			if (!need(argc, argv, &i, &v) || !parse_u64(v, &x) || !x || x > (1ULL << 30)) {
				snprintf(err, errlen, "fileio: bad value for %s", a);
				return NULL;
			}
			if (a[1] == 'r')
				f.passes = x;
			else
				f.bs = x;
			continue;
		default:
			break;
		}
		for (const char *c = a + 1; *c; c++) {
			switch (*c) {
			case 'c': f.create = true; break;
			case 'w': f.write = true; break;
			case 'R': f.random = true; break;
			case 'd': f.direct = true; break;
			case 'D': f.dontcache = true; break;
			case 'f': f.fsync = true; break;
			case 'm': f.mmap = true; break;
			case 's': f.shared = true; break;
			case 'u': f.unlink = true; break;
			default:
				snprintf(err, errlen, "fileio: unknown option '%s'", a);
				return NULL;
			}
		}
	}
	if (npos != 2) {
		snprintf(err, errlen, "fileio: expected FILE SIZE");
		return NULL;
	}
	uint64_t bytes;
	if (!parse_size(pos[1], &bytes) || !bytes || bytes > (1ULL << 50)) {
		snprintf(err, errlen, "fileio: bad size '%s'", pos[1]);
		return NULL;
	}
	if (!pos[0][0]) {
		snprintf(err, errlen, "fileio: empty file name");
		return NULL;
	}
	if (f.shared && !f.mmap) {
		snprintf(err, errlen, "fileio: -s (MAP_SHARED) needs -m");
		return NULL;
	}
	if (f.mmap && f.direct) {
		snprintf(err, errlen, "fileio: -m and -d do not go together");
		return NULL;
	}
	if (f.dontcache && (f.mmap || f.direct)) {
		snprintf(err, errlen, "fileio: -D (RWF_DONTCACHE) is for read() and write() calls: not with -m or -d");
		return NULL;
	}
	f.npages = (bytes + PAGE_SIZE - 1) / PAGE_SIZE;
	struct fileio *w = xmalloc(sizeof(*w));
	*w = f;
	w->name = xstrdup(pos[0]);
	rng_seed(&w->rng, seed);
	return w;
}

static void fileio_destroy(void *p)
{
	struct fileio *w = p;
	free(w->name);
	free(w);
}

static int fileio_nr_tasks(void *p) { (void)p; return 1; }

static bool fileio_next(void *p, int task, struct op *op)
{
	struct fileio *w = p;
	(void)task;
	memset(op, 0, sizeof(*op));
	op->fd = 3;
	op->name = w->name;
	for (;;) {
		switch (w->ph) {
		case PH_OPEN:
			op->kind = w->create || w->write ? OP_CREATE : OP_OPEN;
			w->ph = w->create ? PH_FILL : PH_SIZE;
			return true;
		case PH_FILL:
			/* Setup: the whole file in calls of bs pages. */
			if (w->pos < w->npages) {
				op->kind = OP_WRITE;
				op->dontcache = w->dontcache;
				op->first = w->pos;
				op->npages = MIN(w->bs, w->npages - w->pos);
				w->pos += op->npages;
				return true;
			}
			w->pos = 0;
			w->ph = PH_FILL_SYNC;
			continue;
		case PH_FILL_SYNC:
			op->kind = OP_FSYNC;
			w->ph = PH_SIZE;
			return true;
		case PH_SIZE:
			w->ph = w->mmap ? PH_MMAP : PH_PASS;
			if (w->mmap && w->write && !w->create) {
				/* A new file must have its size before it is mapped. */
				op->kind = OP_TRUNCATE;
				op->npages = w->npages;
				return true;
			}
			continue;
		case PH_MMAP:
			op->kind = OP_MMAP_FILE;
			op->region = 0;
			op->first = 0;
			op->npages = w->npages;
			op->shared = w->shared;
			w->ph = PH_PASS;
			return true;
		case PH_PASS:
			if (w->pass >= w->passes) {
				w->ph = PH_CLOSE;
				continue;
			}
			if (w->pos < w->npages) {
				uint64_t n = MIN(w->bs, w->npages - w->pos);
				uint64_t first = w->random ? rng_below(&w->rng, w->npages - n + 1) : w->pos;
				w->pos += n;
				op->first = first;
				op->npages = n;
				op->write = w->write;
				op->direct = w->direct;
				op->dontcache = w->dontcache;
				if (w->mmap) {
					op->kind = OP_TOUCH;
					op->region = 0;
					op->refs = 1;
				} else {
					op->kind = w->write ? OP_WRITE : OP_READ;
				}
				return true;
			}
			w->pos = 0;
			w->pass++;
			w->ph = PH_PASS_SYNC;
			continue;
		case PH_PASS_SYNC:
			w->ph = PH_PASS;
			if (w->write && w->fsync) {
				op->kind = OP_FSYNC;
				return true;
			}
			continue;
		case PH_CLOSE:
			op->kind = OP_CLOSE;
			w->ph = w->unlink ? PH_UNLINK : PH_DONE;
			return true;
		case PH_UNLINK:
			op->kind = OP_UNLINK;
			w->ph = PH_DONE;
			return true;
		case PH_DONE:
			return false;
		}
	}
}

const struct workload_ops fileio_workload = {
	.name = "fileio",
	.summary = "read/write (or mmap) one file, sequentially or at random (page-cache driver)",
	.help = fileio_help,
	.create = fileio_create,
	.destroy = fileio_destroy,
	.nr_tasks = fileio_nr_tasks,
	.next_op = fileio_next,
};
