/* fio.c - fio (Jens Axboe's flexible I/O tester, 3.x) with a synchronous
 * engine (psync): the buffered random reads and read/write mixes the
 * reclaim threads of today run (`fio --name=x --rw=randread --bs=4k
 * --size=1G --numjobs=4`), in a memory cgroup with pagelab's --memcg.
 *
 * Modeled, from fio's HOWTO (axboe/fio HOWTO.rst: rw=, rwmixread=, bs=,
 * size=, nrfiles=, numjobs=, io_size=, loops=, runtime=, time_based,
 * invalidate=, norandommap, random_distribution=, filename=, directory=,
 * group_reporting, file_service_type's roundrobin default) and its output
 * (stat.c's show_ddir_status, show_run_stats):
 *  - each of numjobs tasks has its own nrfiles files, "NAME.JOB.FILE",
 *    of size/nrfiles each (filename= one file shared by all), used in turn
 *    one I/O each (roundrobin);
 *  - files are laid out before the I/O (fio's "Laying out IO file"), then
 *    invalidate=1 (the default) drops them from the page cache: here they
 *    are written with O_DIRECT in 1 MiB writes, which leaves the cache as
 *    that fadvise does (invalidate=0: buffered writes and an fsync, the
 *    file stays cached); write-only jobs truncate the file to its size
 *    (fio's fallocate);
 *  - every task starts its I/O together (fio starts its jobs together);
 *  - rw=randread/randwrite/randrw: fio's random map, every block once per
 *    pass in a random order (a keyed permutation), or with norandommap
 *    uniform draws; random_distribution=zipf:S skews the blocks by Zipf
 *    rank, ranks scattered over the file; rw=randrw picks a read with
 *    probability rwmixread% (default 50);
 *  - fadvise_hint=1 (fio's default; ioengines.c td_io_open_file) follows
 *    each open with posix_fadvise(POSIX_FADV_RANDOM) for the random modes,
 *    else POSIX_FADV_SEQUENTIAL (mm/readahead.c models what each does);
 *  - a job ends after io_size (default size) of I/O times loops, or at
 *    runtime= (time_based: only at runtime=, passing over the files again).
 * Latencies: an OP_MARK after every I/O gives its completion time, so a
 * completion latency (clat) is the simulated time between one I/O's end
 * and the next's: the read(2)/write(2) call, with any wait for the CPU.
 * ioengine=mmap (engines/mmap.c) maps each whole file MAP_SHARED and
 * copies between its buffer and the mapping: an OP_TOUCH of bs pages.
 * Not modeled: asynchronous engines and iodepth > 1 (refused), verify,
 * rate limits, submission latency (0 for psync), fio's own CPU per I/O.
 * Output: the job line, "Starting N processes", the layout lines, per job
 * (or per group with group_reporting) "read: IOPS=..., BW=...(...)",
 * clat, clat percentiles (usec) and cpu lines, and the "Run status group"
 * lines; fio's per-job bandwidth ranges are left out to fit 80 columns. */
#include "fio.h"
#include "args.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const fio_rw_names[] = { "read", "write", "randread", "randwrite", "rw", "randrw" };

static void fio_help(FILE *out)
{
	fputs(
"usage: fio --name=NAME --size=SIZE [--rw=MODE] [--bs=SIZE] [--numjobs=N]\n"
"           [--nrfiles=N] [--rwmixread=PCT] [--io_size=SIZE] [--loops=N]\n"
"           [--runtime=TIME [--time_based]] [--direct=0|1] [--invalidate=0|1]\n"
"           [--norandommap] [--random_distribution=random|zipf:S]\n"
"           [--filename=FILE] [--directory=DIR] [--group_reporting]\n"
"           [--ioengine=psync|sync|pvsync|pvsync2|mmap] [--iodepth=1] [--thread]\n"
"           [--uncached=0|1] [--fadvise_hint=0|1]\n"
"fio with a synchronous engine: numjobs tasks each doing read(2)/write(2)\n"
"of bs (default 4k) over its nrfiles files of size/nrfiles (NAME.JOB.FILE),\n"
"laid out first and dropped from the page cache (invalidate=1); MODE\n"
"(default read) is read, write, randread, randwrite, rw or randrw.  Sizes\n"
"take k/m/g/t (powers of 1024) or p (pages); bs is a multiple of 4 KiB.\n"
"TIME is seconds, or with s/ms/us/m/h.  Latencies are simulated: the time from\n"
"one I/O's completion to the next's (psync has no submission latency).\n"
"ioengine=mmap maps each file MAP_SHARED and copies to and from the mapping.\n"
"pvsync2's uncached=1 reads and writes with RWF_DONTCACHE (Linux 6.14+):\n"
"each page a read brings in is dropped once read; each page a write creates\n"
"when its writeback, which the write starts, ends.\n"
"fadvise_hint=1 (the default) follows each open with posix_fadvise(RANDOM)\n"
"for the rand* modes, which reads just the pages asked for, else\n"
"(SEQUENTIAL) doubles the file's readahead window; 0 gives no advice.\n"
"Output: fio's per-job read:/write: IOPS and BW lines, clat and clat\n"
"percentiles (usec), cpu, and the Run status group lines.\n", out);
}

/* fio's sizes: "4k", "1G", "4KiB", "8p" (pages). */
static bool fio_size(const char *v, uint64_t *bytes)
{
	char b[40];
	size_t n = v ? strlen(v) : 0;
	if (!n || n >= sizeof(b))
		return false;
	memcpy(b, v, n + 1);
	if (n > 2 && (b[n - 2] == 'i' || b[n - 2] == 'I') && (b[n - 1] == 'B' || b[n - 1] == 'b'))
		b[n - 2] = 0;   /* KiB: the same powers of 1024 */
	return parse_size(b, bytes);
}

/* fio's times: seconds by default, or with a unit. */
static bool fio_time(const char *v, uint64_t *ns)
{
	size_t n = v ? strlen(v) : 0;
	if (n > 1 && (v[n - 1] == 'm' || v[n - 1] == 'h') && v[n - 2] >= '0' && v[n - 2] <= '9') {
		uint64_t x;
		char b[32];
		if (n >= sizeof(b))
			return false;
		memcpy(b, v, n - 1);
		b[n - 1] = 0;
		if (!parse_u64(b, &x) || x > 1000000)
			return false;
		*ns = x * (v[n - 1] == 'm' ? 60 : 3600) * 1000000000ULL;
		return true;
	}
	return parse_duration_ns(v, ns);
}

static bool fio_bool(const char *v, bool *b)
{
	if (!v || !strcmp(v, "1") || !strcmp(v, "true")) {
		*b = true;
		return true;
	}
	*b = false;
	return !strcmp(v, "0") || !strcmp(v, "false");
}

static bool fio_rw_mode(const char *v, enum fio_rw *rw)
{
	if (v && !strcmp(v, "readwrite"))
		v = "rw";
	for (int i = 0; i < 6; i++)
		if (v && !strcmp(v, fio_rw_names[i])) {
			*rw = (enum fio_rw)i;
			return true;
		}
	return false;
}

static bool fio_dist(struct fio *f, const char *v)
{
	if (v && !strcmp(v, "random")) {
		f->zipf_s = 0;
		return true;
	}
	return v && !strncmp(v, "zipf:", 5) && parse_double(v + 5, &f->zipf_s) && f->zipf_s > 0 &&
	       f->zipf_s < 100;
}

/* One --key=value word; false with err set when it is bad. */
static bool fio_word(struct fio *f, const char *key, const char *v, bool *named, char *err, size_t errlen)
{
	uint64_t x = 0, bytes;
	bool ok = true, b;
	if (!strcmp(key, "name")) {
		if (*named) {
			snprintf(err, errlen, "fio: one job per workload (join fio workloads with +)");
			return false;
		}
		*named = true;
		ok = v && *v && !strchr(v, '/');
		if (ok)
			f->name = xstrdup(v);
	} else if (!strcmp(key, "rw") || !strcmp(key, "readwrite")) {
		ok = fio_rw_mode(v, &f->rw);
	} else if (!strcmp(key, "bs") || !strcmp(key, "blocksize")) {
		ok = fio_size(v, &bytes) && bytes && bytes % PAGE_SIZE == 0 && bytes <= (64ULL << 20);
		f->bs_pages = bytes / PAGE_SIZE;
	} else if (!strcmp(key, "size")) {
		ok = fio_size(v, &bytes) && bytes >= PAGE_SIZE && bytes <= (1ULL << 46);
		f->size_pages = bytes / PAGE_SIZE;
		f->have_size = true;
	} else if (!strcmp(key, "io_size") || !strcmp(key, "io_limit")) {
		ok = fio_size(v, &bytes) && bytes >= PAGE_SIZE && bytes <= (1ULL << 50);
		f->io_pages = bytes / PAGE_SIZE;
	} else if (!strcmp(key, "nrfiles")) {
		ok = wl_u64_in(v, 1, FIO_MAX_FILES, &x);
		f->nrfiles = (uint32_t)x;
	} else if (!strcmp(key, "numjobs")) {
		ok = wl_u64_in(v, 1, FIO_MAX_JOBS, &x);
		f->numjobs = (uint32_t)x;
	} else if (!strcmp(key, "rwmixread") || !strcmp(key, "rwmixwrite")) {
		ok = wl_u64_in(v, 0, 100, &x);
		f->rwmixread = (uint32_t)(key[5] == 'r' ? x : 100 - x);
	} else if (!strcmp(key, "loops")) {
		ok = wl_u64_in(v, 1, 1000000, &f->loops);
	} else if (!strcmp(key, "runtime")) {
		ok = fio_time(v, &f->runtime_ns) && f->runtime_ns;
	} else if (!strcmp(key, "time_based")) {
		ok = fio_bool(v, &f->time_based);
	} else if (!strcmp(key, "direct") || !strcmp(key, "buffered")) {
		ok = fio_bool(v, &b);
		f->direct = key[0] == 'd' ? b : !b;
	} else if (!strcmp(key, "invalidate")) {
		ok = fio_bool(v, &f->invalidate);
	} else if (!strcmp(key, "norandommap")) {
		ok = fio_bool(v, &f->norandommap);
	} else if (!strcmp(key, "group_reporting")) {
		ok = fio_bool(v, &f->group);
	} else if (!strcmp(key, "random_distribution")) {
		ok = fio_dist(f, v);
	} else if (!strcmp(key, "filename") || !strcmp(key, "directory")) {
		char **dst = key[0] == 'f' ? &f->filename : &f->dir;
		ok = v && *v && !strchr(v, ':');
		if (ok) {
			free(*dst);
			*dst = xstrdup(v);
		}
	} else if (!strcmp(key, "ioengine")) {
		ok = v && (!strcmp(v, "psync") || !strcmp(v, "sync") || !strcmp(v, "pvsync") ||
			   !strcmp(v, "pvsync2") || !strcmp(v, "mmap"));
		f->mmap = ok && !strcmp(v, "mmap");
		f->pvsync2 = ok && !strcmp(v, "pvsync2");
	} else if (!strcmp(key, "uncached")) {
		ok = wl_u64_in(v, 0, 1, &x);
		f->uncached = ok && x;
	} else if (!strcmp(key, "fadvise_hint")) {
		ok = wl_u64_in(v, 0, 1, &x);
		f->fadvise = ok && x;
	} else if (!strcmp(key, "iodepth")) {
		ok = v && !strcmp(v, "1");
	} else if (!strcmp(key, "thread") || !strcmp(key, "randrepeat")) {
		ok = fio_bool(v, &b);
	} else {
		snprintf(err, errlen, "fio: unrecognized option '--%s'", key);
		return false;
	}
	if (!ok)
		snprintf(err, errlen, "fio: bad value '%s' for --%s", v ? v : "", key);
	return ok;
}

static bool fio_parse(struct fio *f, int argc, char **argv, char *err, size_t errlen)
{
	bool named = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char key[48];
		if (a[0] != '-' || a[1] != '-' || !a[2]) {
			snprintf(err, errlen, "fio: job files are not read: give --key=value options, not '%s'", a);
			return false;
		}
		size_t kl = strcspn(a + 2, "=");
		if (kl >= sizeof(key)) {
			snprintf(err, errlen, "fio: unrecognized option '%.40s'", a);
			return false;
		}
		memcpy(key, a + 2, kl);
		key[kl] = 0;
		if (!fio_word(f, key, a[2 + kl] ? a + 3 + kl : NULL, &named, err, errlen))
			return false;
	}
	if (!named) {
		snprintf(err, errlen, "fio: give a job with --name=NAME");
		return false;
	}
	if (!f->have_size) {
		snprintf(err, errlen, "fio: --size= is required (no existing file to size the job from)");
		return false;
	}
	return true;
}

/* engines/sync.c: uncached= is pvsync2's option (RWF_UNCACHED, now
 * RWF_DONTCACHE, on its preadv2 and pwritev2): buffered I/O only. */
static bool fio_check_uncached(const struct fio *f, char *err, size_t errlen)
{
	if (f->uncached && !f->pvsync2) {
		snprintf(err, errlen, "fio: --uncached is an option of --ioengine=pvsync2");
		return false;
	}
	if (f->uncached && f->direct) {
		snprintf(err, errlen, "fio: --uncached=1 is for buffered I/O: not with --direct=1");
		return false;
	}
	return true;
}

static bool fio_check_sizes(struct fio *f, char *err, size_t errlen)
{
	if (f->filename)
		f->nrfiles = 1;
	f->file_pages = f->size_pages / f->nrfiles;
	if (f->file_pages < f->bs_pages) {
		snprintf(err, errlen, "fio: size/nrfiles is smaller than bs");
		return false;
	}
	if (!f->io_pages)
		f->io_pages = f->size_pages;
	if (f->mmap && f->direct) {
		snprintf(err, errlen, "fio: --ioengine=mmap does not do --direct=1");
		return false;
	}
	if (f->time_based && !f->runtime_ns) {
		snprintf(err, errlen, "fio: --time_based needs --runtime=");
		return false;
	}
	return true;
}

static void fio_names(struct fio *f)
{
	size_t n = (size_t)f->numjobs * f->nrfiles;
	f->fname = xcalloc(n, sizeof(char *));
	for (uint32_t j = 0; j < f->numjobs; j++)
		for (uint32_t k = 0; k < f->nrfiles; k++) {
			char b[512];
			if (f->filename)
				snprintf(b, sizeof(b), "%s%s%s", f->dir ? f->dir : "", f->dir ? "/" : "", f->filename);
			else
				snprintf(b, sizeof(b), "%s%s%s.%u.%u", f->dir ? f->dir : "", f->dir ? "/" : "",
					 f->name, j, k);
			f->fname[(size_t)j * f->nrfiles + k] = xstrdup(b);
		}
}

static void fio_free(struct fio *f)
{
	if (f->fname)
		for (size_t i = 0; i < (size_t)f->numjobs * f->nrfiles; i++)
			free(f->fname[i]);
	free(f->fname);
	free(f->t);
	free(f->name);
	free(f->filename);
	free(f->dir);
	free(f);
}

static void fio_destroy(void *p) { fio_free(p); }

static void *fio_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	struct fio *f = xcalloc(1, sizeof(*f));
	f->bs_pages = 1;
	f->nrfiles = 1;
	f->numjobs = 1;
	f->loops = 1;
	f->rwmixread = 50;
	f->invalidate = true;
	f->fadvise = true;
	f->seed = seed;
	if (!fio_parse(f, argc, argv, err, errlen) || !fio_check_sizes(f, err, errlen) ||
	    !fio_check_uncached(f, err, errlen)) {
		fio_free(f);
		return NULL;
	}
	fio_names(f);
	if (f->zipf_s > 0)
		wl_zipf_init(&f->zipf, f->file_pages / f->bs_pages, f->zipf_s);
	f->t = xcalloc(f->numjobs, sizeof(*f->t));
	for (uint32_t j = 0; j < f->numjobs; j++)
		rng_seed(&f->t[j].rng, seed * 1000003 + j);
	return f;
}

static bool fio_check(int argc, char **argv, char *err, size_t errlen)
{
	void *f = fio_create(argc, argv, 1, err, errlen);
	if (f)
		fio_free(f);
	return f != NULL;
}

static int fio_nr_tasks(void *p) { return (int)((struct fio *)p)->numjobs; }

bool fio_reads(const struct fio *f)
{
	return f->rw != RW_WRITE && f->rw != RW_RANDWRITE;
}

static bool fio_random(const struct fio *f)
{
	return f->rw == RW_RANDREAD || f->rw == RW_RANDWRITE || f->rw == RW_RANDRW;
}

/* Task 0 lays out a file every job shares; otherwise each its own. */
static bool fio_lays_out(const struct fio *f, int task)
{
	return !f->filename || task == 0;
}

/* The layout of file t->file: create it, fill it (or give it its size),
 * fsync it when it stays cached, close it. */
static bool fio_layout_op(struct fio *f, int task, struct fio_task *t, struct op *op)
{
	op->fd = (int32_t)t->file;
	switch (t->lstep) {
	case 0:
		op->kind = OP_CREATE;
		op->name = f->fname[(size_t)task * f->nrfiles + t->file];
		t->lstep = fio_reads(f) ? 1 : 3;
		t->pos = 0;
		return true;
	case 1:
		if (t->pos < f->file_pages) {
			op->kind = OP_WRITE;
			op->direct = f->invalidate;
			op->first = t->pos;
			op->npages = MIN(FIO_LAYOUT_PAGES, f->file_pages - t->pos);
			t->pos += op->npages;
			return true;
		}
		t->lstep = 2;
		if (f->invalidate)
			return fio_layout_op(f, task, t, op);
		op->kind = OP_FSYNC;
		return true;
	case 3:
		/* A write-only job: fio's fallocate gives the file its size. */
		op->kind = OP_TRUNCATE;
		op->npages = f->file_pages;
		t->lstep = 2;
		return true;
	default:
		op->kind = OP_CLOSE;
		t->lstep = 0;
		t->file++;
		return true;
	}
}

/* The block of the k-th I/O of file `file` (its c-th). */
static uint64_t fio_block(struct fio *f, int task, struct fio_task *t, uint32_t file, uint64_t c)
{
	uint64_t nb = f->file_pages / f->bs_pages;
	if (!fio_random(f))
		return c % nb;
	struct wl_perm perm;
	uint64_t key = f->seed * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)task << 32) ^ ((uint64_t)file << 16);
	if (f->zipf_s > 0) {
		wl_perm_init(&perm, nb, key);
		return wl_perm_at(&perm, wl_zipf_draw(&f->zipf, &t->rng) - 1);
	}
	if (f->norandommap)
		return rng_below(&t->rng, nb);
	wl_perm_init(&perm, nb, key ^ (c / nb) * 0xd1b54a32d192ed03ULL);
	return wl_perm_at(&perm, c % nb);
}

static bool fio_more(const struct fio *f, const struct fio_task *t)
{
	if (t->stop && f->runtime_ns)
		return false;
	if (f->runtime_ns && t->now_ns - t->start_ns >= f->runtime_ns)
		return false;
	if (f->time_based)
		return true;
	return t->k < f->io_pages / f->bs_pages * f->loops;
}

static void fio_io_op(struct fio *f, int task, struct fio_task *t, struct op *op)
{
	uint32_t file = (uint32_t)(t->k % f->nrfiles);
	uint64_t c = t->k / f->nrfiles;
	bool write = f->rw == RW_WRITE || f->rw == RW_RANDWRITE;
	if (f->rw == RW_RW || f->rw == RW_RANDRW)
		write = rng_below(&t->rng, 100) >= f->rwmixread;
	op->kind = write ? OP_WRITE : OP_READ;
	op->fd = (int32_t)file;
	op->direct = f->direct;
	op->dontcache = f->uncached;
	op->first = fio_block(f, task, t, file, c) * f->bs_pages;
	op->npages = f->bs_pages;
	if (f->mmap) {
		/* The mmap engine copies between its buffer and the mapping. */
		op->kind = OP_TOUCH;
		op->region = 1 + file;
		op->refs = 1;
		op->write = write;
	}
	t->ios[write]++;
	t->k++;
}

/* Open file t->file; the mmap engine then maps all of it (MAP_SHARED,
 * as its fio_mmap_file), as region 1 + file. */
static bool fio_open_op(struct fio *f, int task, struct fio_task *t, struct op *op)
{
	op->fd = (int32_t)t->file;
	if (f->mmap && t->lstep) {
		op->kind = OP_MMAP_FILE;
		op->region = 1 + t->file;
		op->npages = f->file_pages;
		op->shared = true;
		t->lstep = 0;
		t->file++;
		return true;
	}
	op->kind = OP_OPEN;
	op->name = f->fname[(size_t)task * f->nrfiles + t->file];
	/* td_io_open_file(): fadvise_hint=1 advises the job's pattern */
	if (f->fadvise)
		op->fadvise = f->rw == RW_RANDREAD || f->rw == RW_RANDWRITE || f->rw == RW_RANDRW
			      ? OP_FADV_RANDOM : OP_FADV_SEQUENTIAL;
	if (f->mmap)
		t->lstep = 1;
	else
		t->file++;
	return true;
}

static bool fio_next_op(void *p, int task, struct op *op)
{
	struct fio *f = p;
	struct fio_task *t = &f->t[task];
	memset(op, 0, sizeof(*op));
	for (;;) {
		switch (t->ph) {
		case F_BUF:
			/* fio's I/O buffer, filled once (fill_io_buffers). */
			t->ph = F_FILL;
			op->kind = OP_MMAP_ANON;
			op->npages = f->bs_pages;
			return true;
		case F_FILL:
			t->ph = fio_lays_out(f, task) ? F_LAYOUT : F_BARRIER;
			op->kind = OP_TOUCH;
			op->write = true;
			op->refs = 1;
			op->npages = f->bs_pages;
			return true;
		case F_LAYOUT:
			if (t->file < f->nrfiles)
				return fio_layout_op(f, task, t, op);
			t->ph = F_BARRIER;
			continue;
		case F_BARRIER:
			/* The files exist before any job opens them. */
			t->ph = F_OPEN;
			t->file = 0;
			op->kind = OP_BARRIER;
			return true;
		case F_OPEN:
			if (t->file >= f->nrfiles) {
				t->ph = F_START;
				continue;
			}
			return fio_open_op(f, task, t, op);
		case F_START:
			t->ph = F_IO;
			op->kind = OP_MARK;
			op->region = 0;
			return true;
		case F_IO:
			if (t->pending) {
				/* The I/O just issued is over when its mark is reached. */
				op->kind = OP_MARK;
				op->region = t->pending;
				t->pending = 0;
				return true;
			}
			if (!fio_more(f, t)) {
				t->ph = F_CLOSE;
				t->file = 0;
				continue;
			}
			fio_io_op(f, task, t, op);
			t->pending = op->kind == OP_WRITE ? 2 : 1;
			return true;
		case F_CLOSE:
			if (t->file >= f->nrfiles) {
				t->ph = F_DONE;
				continue;
			}
			op->kind = OP_CLOSE;
			op->fd = (int32_t)t->file++;
			return true;
		case F_DONE:
			return false;
		}
	}
}

const struct workload_ops fio_workload = {
	.name = "fio",
	.summary = "fio --name=x --rw=randread --bs=4k --size=1G --numjobs=4: "
		   "buffered file I/O, clat percentiles",
	.help = fio_help,
	.create = fio_create,
	.check = fio_check,
	.destroy = fio_destroy,
	.nr_tasks = fio_nr_tasks,
	.next_op = fio_next_op,
	.mark = fio_mark,
	.report_tasks = fio_report_tasks,
	.figures = fio_figures,
};
