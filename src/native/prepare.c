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
 * The walk also sums, over every file, the furthest page read, written or
 * mapped through the page cache: how much the run may cache, which the
 * warm-up before the run covers beside the limit (session.c).  A write
 * whose size comes back from an executed read (dd of=FILE) is not seen.
 * The simulator's `run --make-inputs` walks the same way (sim): there
 * /dev/ and /ramfs/ names exist and nothing is refused, and each input is
 * made on the simulated disk instead (filemap_make_uncached).
 * Time-bound loops (workingset -d) end at their first OP_MARK: the walk
 * reports a far-future time, since only the names and extents matter.
 * The walk runs in a forked child on its copy of the generator, so the
 * caller's instance is left as created (qsbench records its sorts in
 * create(): minutes at -m 230 --distinct, done once per invocation). */
#define _GNU_SOURCE
#include "native.h"
#include "../lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Ops walked per task at most: enough for every stream pagelab has at the
 * sizes a cgroup of half the host's RAM allows (qsbench -m 2047 records a
 * few hundred million visits). */
#define WALK_MAX_OPS (1ULL << 31)

/* A name's furthest page read or mapped, while walking one workload. */
struct opened {
	const char *name;
	uint64_t npages;
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

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20)
			return true;
	return false;
}

/* NAME's entry in list, added (its furthest page 0) if it has none. */
static size_t entry_of(struct opened **list, size_t *n, const char *name)
{
	size_t i;
	for (i = 0; i < *n && strcmp((*list)[i].name, name); i++)
		;
	if (i == *n) {
		*list = xrealloc(*list, (*n + 1) * sizeof(**list));
		(*list)[(*n)++] = (struct opened){ .name = name };
	}
	return i;
}

/* Raise entry AT of list (-1: none) to END, the page after an op's last. */
static void reach(struct opened *list, long at, uint64_t end)
{
	if (at >= 0 && end > list[at].npages)
		list[at].npages = end;
}

/* The walk's output, for walk_died(). */
static FILE *walk_out;

/* A generator that cannot go on (a trace that cannot be read, a stream
 * whose bytes another process took: src/trace/input.c) calls
 * die_usage(): in the walk, its message becomes the walk's refusal, the
 * one line the command prints. */
static _Noreturn void walk_died(const char *msg)
{
	fprintf(walk_out, "E\t%s\n", msg);
	fclose(walk_out);
	_exit(0);
}

/* In a forked child, on its copy of the generator (the parent's stays
 * untouched for the run): walk every task's stream and write to fd
 *   "C\tNAME" for each name created, "O\tNPAGES\tNAME" for each name
 *   opened (with the furthest page read or mapped), "E\tMESSAGE" on a
 *   refusal, one per line. */
static _Noreturn void walk_child(const struct nworkload *w, void *inst, int fd, bool sim)
{
	FILE *out = fdopen(fd, "w");
	if (!out)
		_exit(1);
	walk_out = out;
	die_usage_set_handler(walk_died);
	char err[512] = "";
	struct opened *op_names = NULL, *cached = NULL;
	size_t nopened = 0, ncached = 0;
	/* An agent (memreclaim, senpai, oomd) opens no file, and its loop
	 * ends only on what its cgroup's files say (cgagent.c). */
	int ntasks = w->ops->cgroup_target ? 0 : w->ops->nr_tasks(inst);
	for (int t = 0; t < ntasks && !err[0]; t++) {
		/* each slot's file in op_names[] (opened, not created) and
		 * cached[], looked up at its open: a read or write costs no
		 * search (dbench's thousands of names); -1: none */
		long opened_at[64], cached_at[64];
		for (int i = 0; i < 64; i++)
			opened_at[i] = cached_at[i] = -1;
		struct op op;
		for (uint64_t k = 0; k < WALK_MAX_OPS && w->ops->next_op(inst, t, &op); k++) {
			if (op.kind == OP_MARK && w->ops->mark)
				w->ops->mark(inst, t, op.region, UINT64_MAX / 4, 0);
			bool has_fd = op.kind == OP_OPEN || op.kind == OP_CREATE || op.kind == OP_READ ||
				      op.kind == OP_MMAP_FILE;
			if (has_fd && (op.fd < 0 || op.fd >= 64)) {
				snprintf(err, sizeof(err), "kernel: %s uses file slot %d (0..63 run natively)",
					 w->cmd, (int)op.fd);
				break;
			}
			if (op.kind == OP_CREATE || op.kind == OP_OPEN) {
				opened_at[op.fd] = cached_at[op.fd] = -1;
				if (!op.name || has_control(op.name)) {
					snprintf(err, sizeof(err), "kernel: %s opens a file without a usable name", w->cmd);
					break;
				}
				/* The simulator has its devices and its ramfs: only
				 * a file of the disk can be an input there. */
				if (sim ? !strncmp(op.name, "/dev/", 5) || !strncmp(op.name, "/ramfs/", 7)
					: refuse_name(w->cmd, op.name, err, sizeof(err))) {
					if (!sim)
						break;
					continue;
				}
				cached_at[op.fd] = (long)entry_of(&cached, &ncached, op.name);
				if (op.kind == OP_CREATE) {
					fprintf(out, "C\t%s\n", op.name);
					continue;
				}
				opened_at[op.fd] = (long)entry_of(&op_names, &nopened, op.name);
			} else if (op.kind == OP_READ || op.kind == OP_MMAP_FILE) {
				reach(op_names, opened_at[op.fd], op.first + op.npages);
			}
			/* Every file page the run may cache, for the warm-up's
			 * size (session.c): O_DIRECT caches none. */
			if ((op.kind == OP_READ || op.kind == OP_WRITE || op.kind == OP_MMAP_FILE) && !op.direct &&
			    op.fd >= 0 && op.fd < 64)
				reach(cached, cached_at[op.fd], op.first + op.npages);
		}
	}
	if (err[0])
		fprintf(out, "E\t%s\n", err);
	for (size_t i = 0; i < nopened && !err[0]; i++)
		fprintf(out, "O\t%llu\t%s\n", (unsigned long long)op_names[i].npages, op_names[i].name);
	for (size_t i = 0; i < ncached && !err[0]; i++)
		fprintf(out, "F\t%llu\t%s\n", (unsigned long long)cached[i].npages, cached[i].name);
	fclose(out);
	free(op_names);
	free(cached);
	_exit(0);
}

bool nplan_build(struct nplan *p, const struct nworkload *w, void *const *inst, int nw, bool sim,
		 char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	char **created = NULL;
	int ncreated = 0;
	struct nplan opened = { 0 }, cached = { 0 };
	bool ok = true;
	for (int i = 0; i < nw && ok; i++) {
		int fd;
		pid_t pid = native_fork_piped(&fd);
		if (!pid)
			walk_child(&w[i], inst[i], fd, sim);
		FILE *in = fdopen(fd, "r");
		char line[1200];
		while (in && fgets(line, sizeof(line), in)) {
			line[strcspn(line, "\n")] = 0;
			if (line[0] == 'E' && ok) {
				snprintf(err, errlen, "%s", line + 2);
				ok = false;
			} else if (line[0] == 'C' && !name_in(created, ncreated, line + 2)) {
				created = xrealloc(created, (size_t)(ncreated + 1) * sizeof(char *));
				created[ncreated++] = xstrdup(line + 2);
			} else if (line[0] == 'O' || line[0] == 'F') {
				/* a name's extent, as an input or as cached */
				char *name = strchr(line + 2, '\t');
				if (!name)
					continue;
				struct ninput *x = input_of(line[0] == 'O' ? &opened : &cached, name + 1, true);
				uint64_t n = strtoull(line + 2, NULL, 10);
				if (n > x->npages)
					x->npages = n;
			}
		}
		if (in)
			fclose(in);
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (ok && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
			snprintf(err, errlen, "%s: walking the op stream of %s failed", sim ? "run" : "kernel", w[i].cmd);
			ok = false;
		}
	}
	/* Inputs: opened, never created by any workload of the run. */
	for (int i = 0; i < opened.ninputs; i++)
		if (!name_in(created, ncreated, opened.inputs[i].name))
			input_of(p, opened.inputs[i].name, true)->npages = opened.inputs[i].npages;
	nplan_free(&opened);
	for (int i = 0; i < cached.ninputs; i++)
		p->file_pages += cached.inputs[i].npages;
	nplan_free(&cached);
	for (int i = 0; i < ncreated; i++)
		free(created[i]);
	free(created);
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
