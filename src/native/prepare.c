/* prepare.c - before anything runs: walk each workload's op stream once,
 * on a fresh instance of its generator, executing nothing.
 *
 * Two things are decided here, so that a run that cannot work is refused
 * (exit 2) before a cgroup or a swapfile exists:
 *  - what cannot run natively: /dev/sda is the simulated machine's raw
 *    disk (natively it would be this host's own disk), /ramfs/ names live
 *    in the simulator's RAM-only filesystem;
 *  - which files the workloads open but never create: the simulator's
 *    "written by an earlier workload" inputs (dd if=FILE).  They are made
 *    before the run, as large as the workloads read them, written with
 *    O_DIRECT so that the run starts with them uncached, as a streaming
 *    read of the threads' tests did.
 * Time-bound loops (workingset -d) end at their first OP_MARK: the walk
 * reports a far-future time, since only the names and extents matter. */
#define _GNU_SOURCE
#include "native.h"
#include "../lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Ops walked per task at most: enough for every stream pagelab has at the
 * sizes a cgroup of half the host's RAM allows (qsbench -m 2047 records a
 * few hundred million visits). */
#define WALK_MAX_OPS (1ULL << 31)

struct walk {
	char **created;
	int ncreated;
	struct nplan *plan;
};

static bool name_in(char **list, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

static struct ninput *input_of(struct nplan *p, const char *name, bool add)
{
	for (int i = 0; i < p->ninputs; i++)
		if (!strcmp(p->inputs[i].name, name))
			return &p->inputs[i];
	if (!add)
		return NULL;
	p->inputs = xrealloc(p->inputs, (size_t)(p->ninputs + 1) * sizeof(*p->inputs));
	p->inputs[p->ninputs] = (struct ninput){ .name = xstrdup(name) };
	return &p->inputs[p->ninputs++];
}

static bool refuse_name(const char *cmd, const char *name, char *err, size_t errlen)
{
	if (!strcmp(name, "/dev/sda")) {
		snprintf(err, errlen, "kernel: %s reads /dev/sda, the simulated raw disk; natively that "
			 "would be this host's disk: name a file instead (it is created uncached)", cmd);
		return true;
	}
	if (!strncmp(name, "/dev/", 5)) {
		snprintf(err, errlen, "kernel: %s opens the device %s, which cannot run natively", cmd, name);
		return true;
	}
	if (!strncmp(name, "/ramfs/", 7)) {
		snprintf(err, errlen, "kernel: %s uses %s, a file of the simulator's ramfs, "
			 "which cannot run natively", cmd, name);
		return true;
	}
	return false;
}

/* Pass 1: names created anywhere.  Pass 2: opens of names never created
 * are inputs; their extent is the furthest page read or mapped. */
static bool walk_workload(struct walk *wk, const struct nworkload *w, const struct wl_sysinfo *si,
			  int pass, char *err, size_t errlen)
{
	char e2[512] = "";
	void *inst = w->ops->create(w->argc, w->argv, w->seed, e2, sizeof(e2));
	if (!inst) {
		snprintf(err, errlen, "%s", e2[0] ? e2 : "bad workload arguments");
		return false;
	}
	if (w->ops->attach)
		w->ops->attach(inst, si);
	int ntasks = w->ops->nr_tasks(inst);
	bool ok = true;
	for (int t = 0; t < ntasks && ok; t++) {
		const char *fdname[64] = { 0 };
		struct op op;
		for (uint64_t k = 0; k < WALK_MAX_OPS && w->ops->next_op(inst, t, &op); k++) {
			if (op.kind == OP_MARK && w->ops->mark)
				w->ops->mark(inst, t, op.region, UINT64_MAX / 4, 0);
			bool has_fd = op.kind == OP_OPEN || op.kind == OP_CREATE || op.kind == OP_READ ||
				      op.kind == OP_MMAP_FILE;
			if (has_fd && (op.fd < 0 || op.fd >= 64)) {
				snprintf(err, errlen, "kernel: %s uses file slot %d (0..63 run natively)",
					 w->cmd, (int)op.fd);
				ok = false;
				break;
			}
			if (op.kind == OP_CREATE || op.kind == OP_OPEN) {
				if (!op.name || refuse_name(w->cmd, op.name, err, errlen)) {
					if (!op.name)
						snprintf(err, errlen, "kernel: %s opens a file without a name", w->cmd);
					ok = false;
					break;
				}
				fdname[op.fd] = op.kind == OP_OPEN ? op.name : NULL;
				if (pass == 1 && op.kind == OP_CREATE && !name_in(wk->created, wk->ncreated, op.name)) {
					wk->created = xrealloc(wk->created, (size_t)(wk->ncreated + 1) * sizeof(char *));
					wk->created[wk->ncreated++] = xstrdup(op.name);
				}
				if (pass == 2 && op.kind == OP_OPEN && !name_in(wk->created, wk->ncreated, op.name))
					input_of(wk->plan, op.name, true);
			} else if (pass == 2 && (op.kind == OP_READ || op.kind == OP_MMAP_FILE) && fdname[op.fd]) {
				struct ninput *in = input_of(wk->plan, fdname[op.fd], false);
				if (in && op.first + op.npages > in->npages)
					in->npages = op.first + op.npages;
			}
		}
	}
	w->ops->destroy(inst);
	return ok;
}

bool nplan_build(struct nplan *p, const struct nworkload *w, int nw, const struct wl_sysinfo *si,
		 char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	struct walk wk = { .plan = p };
	bool ok = true;
	for (int pass = 1; pass <= 2 && ok; pass++)
		for (int i = 0; i < nw && ok; i++)
			ok = walk_workload(&wk, &w[i], si, pass, err, errlen);
	for (int i = 0; i < wk.ncreated; i++)
		free(wk.created[i]);
	free(wk.created);
	return ok;
}

void nplan_free(struct nplan *p)
{
	for (int i = 0; i < p->ninputs; i++)
		free(p->inputs[i].name);
	free(p->inputs);
	memset(p, 0, sizeof(*p));
}

void native_file_path(char *buf, size_t len, const char *dir, const char *name)
{
	while (*name == '/')
		name++;
	int n = snprintf(buf, len, "%s/files/", dir);
	for (size_t i = (size_t)n; i + 1 < len && *name; name++, i++) {
		buf[i] = *name == '/' ? '_' : *name;
		buf[i + 1] = 0;
	}
}

#define FILL_CHUNK (1u << 20)

bool nplan_make_inputs(const struct nplan *p, const char *dir, char *err, size_t errlen)
{
	if (!p->ninputs)
		return true;
	char *buf = mmap(NULL, FILL_CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		snprintf(err, errlen, "kernel: out of memory for the input buffer");
		return false;
	}
	/* Not zeros: a filesystem may keep zero blocks sparse. */
	for (size_t i = 0; i < FILL_CHUNK; i++)
		buf[i] = (char)(i * 131 + 7);
	bool ok = true;
	for (int i = 0; i < p->ninputs && ok; i++) {
		char path[1024];
		native_file_path(path, sizeof(path), dir, p->inputs[i].name);
		bool direct = true;
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT | O_CLOEXEC, 0600);
		if (fd < 0 && errno == EINVAL) {
			direct = false;
			fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		}
		if (fd < 0) {
			snprintf(err, errlen, "kernel: cannot create the input %s: %s", path, strerror(errno));
			ok = false;
			break;
		}
		uint64_t left = p->inputs[i].npages * PAGE_SIZE;
		while (left && ok) {
			size_t n = left < FILL_CHUNK ? (size_t)left : FILL_CHUNK;
			ssize_t got = write(fd, buf, n);
			if (got <= 0) {
				snprintf(err, errlen, "kernel: cannot write the input %s: %s", path,
					 got < 0 ? strerror(errno) : "short write");
				ok = false;
			}
			left -= got > 0 ? (uint64_t)got : 0;
		}
		/* Buffered fallback: write back, then drop it from the cache. */
		if (ok && (fsync(fd) || (!direct && posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)))) {
			snprintf(err, errlen, "kernel: cannot write back the input %s: %s", path, strerror(errno));
			ok = false;
		}
		close(fd);
	}
	munmap(buf, FILL_CHUNK);
	return ok;
}
