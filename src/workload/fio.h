/* fio.h - the fio workload's state, shared by its generator (fio.c) and
 * its output (fio_out.c). */
#ifndef PAGELAB_WORKLOAD_FIO_H
#define PAGELAB_WORKLOAD_FIO_H

#include "workload.h"
#include "wldist.h"

#define FIO_MAX_FILES 64        /* the native executor's file slots */
#define FIO_LAYOUT_PAGES 256    /* 1 MiB per layout write */
#define FIO_MAX_JOBS 1024

enum fio_rw { RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE, RW_RW, RW_RANDRW };
extern const char *const fio_rw_names[];

enum fio_phase { F_BUF, F_FILL, F_LAYOUT, F_OPEN, F_BARRIER, F_START, F_IO, F_CLOSE, F_DONE };

struct fio_task {
	enum fio_phase ph;
	uint32_t file;              /* layout / open / close cursor */
	uint32_t lstep;             /* layout step of the file */
	uint32_t pending;           /* the I/O awaiting its mark: 1 read, 2 write */
	uint64_t pos;               /* layout cursor in the file, pages */
	uint64_t k;                 /* I/Os issued */
	uint64_t ios[2], marks;     /* issued per direction; I/O marks seen */
	uint64_t start_ns, last_ns, now_ns;
	bool stop;                  /* the walk's far future: a time-bound job ends */
	struct wl_hist lat[2];      /* completion latencies, ns */
	struct rng rng;
};

struct fio {
	char *name, *filename, *dir;
	enum fio_rw rw;
	uint64_t bs_pages, size_pages, file_pages, io_pages, loops, runtime_ns;
	uint32_t nrfiles, numjobs, rwmixread;
	bool time_based, direct, invalidate, norandommap, group, have_size, mmap;
	bool pvsync2, uncached;     /* --ioengine=pvsync2, its --uncached=1 */
	bool fadvise;               /* --fadvise_hint=1 (the default) */
	double zipf_s;
	struct wl_zipf zipf;
	uint64_t seed;
	char **fname;               /* [task * nrfiles + file] */
	struct fio_task *t;
};

/* A mark's time at or past this is the op-stream walk's far future
 * (src/native/prepare.c): a time-bound job stops there. */
#define FIO_FAR_FUTURE (UINT64_MAX / 8)

void fio_mark(void *w, int task, uint32_t id, uint64_t now_ns, uint64_t cpu_ns);
void fio_report_tasks(void *w, const struct wl_task_result *r, int ntasks, FILE *out);
void fio_figures(void *w, const struct wl_task_result *r, int ntasks, struct wl_figures *out);
bool fio_reads(const struct fio *f);

#endif
