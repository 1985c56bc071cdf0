/* targets_sim.c - the properties that reach past the parsers: every
 * workload's argument parser and op stream (fuzz_workload_one), and whole
 * tiny simulations run through `pagelab run` itself (fuzz_sim_one).  See
 * targets.h for the input formats. */
#include "targets.h"
#include "../../src/cli/cli.h"
#include "../../src/lib/util.h"
#include "../../src/machine/machine.h"
#include "../../src/policy/policy.h"
#include "../../src/workload/workload.h"

#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FAIL(...) do { fprintf(stderr, "fuzz: " __VA_ARGS__); fputc('\n', stderr); return false; } while (0)

bool fuzz_verbose;
int fuzz_sim_status = -1;

/* Under ASan (gcc's or clang's), its reports go to the real stderr even
 * while a run's own stderr is captured. */
extern void __sanitizer_set_report_fd(void *fd) __attribute__((weak));
/* A run that ends in die_usage() leaves what cmd_run() had allocated
 * (a process would exit): LeakSanitizer ignores the allocations of the
 * in-process runs.  Whole runs' leaks are the swarm's and valgrind's to
 * find (tests/cli.d/swarm.sh under make sancheck). */
extern void __lsan_disable(void) __attribute__((weak));
extern void __lsan_enable(void) __attribute__((weak));

static int nr_workloads(void)
{
	int n = 0;
	while (workload_registry[n])
		n++;
	return n;
}

/* The workloads that do work proportional to their arguments before the
 * first op: qsbench records a real sort of its array on the host (its
 * default 10 MB takes seconds under the sanitizers).  Its numbers get one
 * digit, and its size option -m is replaced by -m 1. */
static int host_digits(const char *wl, int digits)
{
	return !strcmp(wl, "qsbench") ? 1 : digits;
}

/* argv[first..first+n) are a workload's words: drop qsbench's -m options
 * and put "-m 1" first (argv needs room for two more words and the NULL).
 * Returns the new count. */
static int tame_args(const char *wl, char **argv, int first, int n)
{
	if (strcmp(wl, "qsbench"))
		return n;
	int o = first + 2;
	char **in = xmalloc(((size_t)n + 1) * sizeof(*in));
	memcpy(in, argv + first, (size_t)n * sizeof(*in));
	for (int i = 0; i < n; i++) {
		if (!strncmp(in[i], "-m", 2)) {
			i += !in[i][2];
			continue;
		}
		argv[o++] = in[i];
	}
	free(in);
	argv[first] = (char *)"-m";
	argv[first + 1] = (char *)"1";
	argv[o] = NULL;
	return o - first;
}

/* Split data[0..n) into words at spaces, tabs, newlines and NULs, into buf
 * (n + 1 bytes or more).  With digits > 0, a run of more digits is cut to
 * that many and a G or T unit right after a digit becomes M: sizes stay
 * within what a tiny machine and one fuzz input can afford.  Returns the
 * number of words put in argv[first..max) (argv[max] must exist for the
 * NULL after them) and the bytes of buf used in *used. */
static int split_words(const uint8_t *data, size_t n, char *buf, char **argv, int first, int max, int digits,
		       size_t *used)
{
	int argc = first;
	size_t o = 0;
	bool in_word = false;
	int run = 0;
	for (size_t i = 0; i < n; i++) {
		char c = (char)data[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == 0) {
			if (in_word)
				buf[o++] = 0;
			in_word = false;
			run = 0;
			continue;
		}
		if (!in_word) {
			if (argc >= max)
				break;
			argv[argc++] = buf + o;
			in_word = true;
		}
		if (c >= '0' && c <= '9') {
			if (digits > 0 && ++run > digits)
				continue;
		} else {
			if (digits > 0 && run && (c == 'g' || c == 'G' || c == 't' || c == 'T'))
				c = 'M';
			run = 0;
		}
		buf[o++] = c;
	}
	if (in_word)
		buf[o++] = 0;
	argv[argc] = NULL;
	*used = o;
	return argc - first;
}

/* A message, on one line. */
static bool one_line_msg(const char *err)
{
	return err[0] && !strchr(err, '\n');
}

/* ---- the op stream ------------------------------------------------------ */

/* What a task may refer to, by the contract of workload.h and the machine
 * (machine.c, fileops.c): regions are the task's mappings numbered from 0
 * in mapping order (OP_EXEC starts again), touches stay inside them, file
 * ops use fds opened before. */
#define OPS_MAX_VMAS 512
#define OPS_MAX_FDS 64
struct op_state {
	uint32_t nvmas;
	uint64_t vma_pages[OPS_MAX_VMAS];
	bool vma_dead[OPS_MAX_VMAS];
	bool fd_open[OPS_MAX_FDS];
};

static bool check_op(const char *wl, int task, int ntasks, struct op_state *s, const struct op *op)
{
	switch (op->kind) {
	case OP_MMAP_ANON:
	case OP_MMAP_DATA:
	case OP_MMAP_FILE:
		if (op->region != s->nvmas)
			FAIL("%s task %d: maps region %u, the next is %u", wl, task, op->region, s->nvmas);
		if (op->kind == OP_MMAP_FILE && op->fd >= 0 && op->fd < OPS_MAX_FDS && !s->fd_open[op->fd])
			FAIL("%s task %d: maps fd %d, which is not open", wl, task, op->fd);
		if (s->nvmas < OPS_MAX_VMAS) {
			s->vma_pages[s->nvmas] = op->npages;
			s->vma_dead[s->nvmas] = false;
		}
		s->nvmas++;
		break;
	case OP_MUNMAP:
	case OP_MUNLOCK:
		if (op->region >= s->nvmas)
			FAIL("%s task %d: op %d on region %u of %u", wl, task, (int)op->kind, op->region, s->nvmas);
		if (op->kind == OP_MUNMAP && op->region < OPS_MAX_VMAS)
			s->vma_dead[op->region] = true;
		break;
	case OP_TOUCH:
	case OP_MLOCK:
		if (op->region >= s->nvmas)
			FAIL("%s task %d: touches region %u of %u", wl, task, op->region, s->nvmas);
		if (op->region < OPS_MAX_VMAS) {
			if (s->vma_dead[op->region])
				FAIL("%s task %d: touches region %u after munmap", wl, task, op->region);
			if (op->first > s->vma_pages[op->region] || op->npages > s->vma_pages[op->region] - op->first)
				FAIL("%s task %d: touches pages %llu+%llu of a %llu-page region", wl, task,
				     (unsigned long long)op->first, (unsigned long long)op->npages,
				     (unsigned long long)s->vma_pages[op->region]);
		}
		break;
	case OP_EXEC:
		s->nvmas = 0;
		break;
	case OP_WAIT:
		if (op->region >= (uint32_t)ntasks)
			FAIL("%s task %d: waits for task %u of %d", wl, task, op->region, ntasks);
		break;
	case OP_CREATE:
	case OP_OPEN:
		if (!op->name || !op->name[0])
			FAIL("%s task %d: opens a file without a name", wl, task);
		if (op->fd < 0)
			FAIL("%s task %d: opens fd %d", wl, task, op->fd);
		if (op->fd < OPS_MAX_FDS)
			s->fd_open[op->fd] = true;
		break;
	case OP_CLOSE:
		if (op->fd >= 0 && op->fd < OPS_MAX_FDS)
			s->fd_open[op->fd] = false;
		break;
	case OP_READ:
	case OP_WRITE:
	case OP_FSYNC:
	case OP_TRUNCATE:
		if (op->fd < 0 || (op->fd < OPS_MAX_FDS && !s->fd_open[op->fd]))
			FAIL("%s task %d: op %d on fd %d, which is not open", wl, task, (int)op->kind, op->fd);
		break;
	default:
		break;
	}
	return true;
}

bool fuzz_workload_one(const uint8_t *data, size_t size)
{
	if (size == 0)
		return true;
	const struct workload_ops *ops = workload_registry[data[0] % nr_workloads()];
	/* trace FILE opens a host file: the parse target checks its
	 * argument count, the trace targets its reader. */
	if (!strcmp(ops->name, "trace"))
		return true;
	char *buf = xmalloc(size + 1);
	char *argv[36];
	argv[0] = (char *)ops->name;
	size_t used;
	int argc = 1 + split_words(data + 1, size - 1, buf, argv, 1, 33, host_digits(ops->name, 0), &used);
	argc = 1 + tame_args(ops->name, argv, 1, argc - 1);
	char err[512];
	err[0] = 0;
	void *w = ops->create(argc, argv, 1, err, sizeof(err));
	bool ok = true;
	if (!w) {
		if (!one_line_msg(err)) {
			fprintf(stderr, "fuzz: %s refused its arguments without a one-line message: '%s'\n", ops->name, err);
			ok = false;
		}
		free(buf);
		return ok;
	}
	if (ops->attach) {
		/* A 32 MB machine with 64 MB of swap and a 2 GB disk. */
		struct wl_sysinfo si = { .totalram = 32 << 20, .freeram = 24 << 20, .totalswap = 64 << 20,
					 .freeswap = 64 << 20, .disk_bytes = 2ULL << 30 };
		ops->attach(w, &si);
	}
	int ntasks = ops->nr_tasks(w);
	if (ntasks <= 0) {
		fprintf(stderr, "fuzz: %s has %d tasks\n", ops->name, ntasks);
		ok = false;
	}
	struct op_state *st = xmalloc(sizeof(*st));
	for (int task = 0; ok && task < ntasks && task < 8; task++) {
		memset(st, 0, sizeof(*st));
		struct op op;
		for (int i = 0; ok && i < 512 && ops->next_op(w, task, &op); i++)
			ok = check_op(ops->name, task, ntasks, st, &op);
	}
	free(st);
	ops->destroy(w);
	free(buf);
	return ok;
}

/* ---- whole simulations ---------------------------------------------------- */

static int nr_profiles(void)
{
	int n = 0;
	while (profile_presets[n])
		n++;
	return n;
}

static int nr_policies(void)
{
	int n = 0;
	while (policy_registry[n])
		n++;
	return n;
}

/* The smallest RAM, in pages, that machine_init() accepts for a profile:
 * the kernel's reserve plus the pages the watermarks need. */
static uint64_t min_ram_pages(int prof)
{
	static uint64_t cache[64];
	if (prof < 64 && cache[prof])
		return cache[prof];
	struct profile p = *profile_presets[prof];
	struct machine_opts mo = { .seed = 1 };
	char err[256];
	uint64_t pages = p.kernel_base / PAGE_SIZE + 1;
	for (;; pages++) {
		p.ram = pages * PAGE_SIZE;
		struct machine m;
		if (machine_init(&m, &p, &mo, err, sizeof(err))) {
			machine_free(&m);
			break;
		}
	}
	if (prof < 64)
		cache[prof] = pages;
	return pages;
}

static const struct { const char *name; uint64_t lo, hi; } sysctls[] = {
#define X(name, def, lo, hi, help) { "vm." #name, lo, hi },
	VM_SYSCTLS(X)
#undef X
};

static jmp_buf die_jmp;
static void die_to_harness(const char *msg)
{
	fprintf(stderr, "pagelab: %s\n", msg);
	longjmp(die_jmp, 1);
}

int fuzz_run_captured(int (*cmd)(int, char **), int argc, char **argv, FILE *log)
{
	static int real_err = -1;
	if (real_err < 0) {
		real_err = dup(2);
		if (__sanitizer_set_report_fd)
			__sanitizer_set_report_fd((void *)(intptr_t)real_err);
	}
	fflush(stdout);
	fflush(stderr);
	int saved_out = dup(1), saved_err = dup(2);
	int null = open("/dev/null", O_WRONLY);
	if (null >= 0) {
		dup2(null, 1);
		close(null);
	}
	if (log)
		dup2(fileno(log), 2);
	static volatile int rc;
	die_usage_set_handler(die_to_harness);
	if (__lsan_disable)
		__lsan_disable();
	if (setjmp(die_jmp) == 0)
		rc = cmd(argc, argv);
	else
		rc = EXIT_USAGE;
	if (__lsan_enable)
		__lsan_enable();
	die_usage_set_handler(NULL);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, 1);
	dup2(saved_err, 2);
	close(saved_out);
	close(saved_err);
	return rc;
}

bool fuzz_sim_one(const uint8_t *data, size_t size)
{
	enum { HDR = 9 };
	if (size < HDR)
		return true;
	int prof = data[0] % nr_profiles();
	const struct profile *pp = profile_presets[prof];
	const struct policy_ops *pol = policy_registry[data[5] % nr_policies()];
	uint64_t ram = min_ram_pages(prof) + ((data[2] | (unsigned)data[3] << 8) % 1024);
	/* Swap: none, or up to about twice RAM, at most 4096 slots. */
	uint64_t swap = data[4] == 0 ? 0 : MIN(4096, (uint64_t)data[4] * ram / 128);
	/* Untimed (ideal) runs are not bounded by --max-time: fewer digits. */
	int digits = pp->untimed ? 2 : 3;
	char *words = xmalloc(size + 2048);
	char *argv[128];
	char opt[32][64];
	int argc = 0, no = 0;
#define ARG(...) (snprintf(opt[no], sizeof(opt[no]), __VA_ARGS__), argv[argc++] = opt[no++])
	ARG("run");
	ARG("--machine"); ARG("%s", pp->name);
	ARG("--ram"); ARG("%llup", (unsigned long long)ram);
	ARG("--swap"); ARG("%llup", (unsigned long long)swap);
	ARG("--policy"); ARG("%s", pol->name);
	ARG("--seed"); ARG("%u", data[1]);
	if (data[6] % 4)
		ARG("--cpus"), ARG("%u", data[6] % 4);
	ARG("--check"); ARG("--no-progress"); ARG("--max-time"); ARG("0.1");
	/* Bit 6 of the settings byte (its low bits count the settings):
	 * make the inputs no workload writes, as pagelab kernel does. */
	if (data[8] & 0x40)
		ARG("--make-inputs");
	/* A small disk keeps a read of all of /dev/sda short. */
	ARG("--set"); ARG("disk.capacity=%lluM", 16ULL << (data[7] % 5));
	size_t pos = HDR;
	int ntun = policy_nr_tunables(pol);
	for (int s = 0; s < data[8] % 4 && pos + 2 <= size; s++, pos += 2) {
		unsigned k = data[pos] % (unsigned)(ARRAY_SIZE(sysctls) + (size_t)ntun), v = data[pos + 1] % 9;
		ARG("--set");
		if (k < ARRAY_SIZE(sysctls)) {
			uint64_t lo = sysctls[k].lo, hi = sysctls[k].hi;
			ARG("%s=%llu", sysctls[k].name, (unsigned long long)(lo + (hi - lo) * v / 8));
		} else {
			const struct tunable *t = &pol->tunables[k - ARRAY_SIZE(sysctls)];
			double x = t->min + (t->max - t->min) * v / 8;
			/* A tunable with whole bounds and default takes whole
			 * numbers only (tunable_parse): round to one. */
			bool integer = t->def == (double)(long long)t->def && t->min == (double)(long long)t->min &&
				       t->max == (double)(long long)t->max;
			if (integer || t->max - t->min >= 8)
				ARG("%s=%.0f", t->name, x);
			else
				ARG("%s=%g", t->name, x);
		}
	}
	/* The workloads: '+'-separated text, each "NAME ARGS"; a name that is
	 * no workload picks one by its first byte.  A trace gets its text
	 * written to a temporary file. */
	char trace_path[64] = "";
	int nwl = 0;
	size_t wo = 0;
	while (pos < size && nwl < 4 && argc < 80) {
		size_t end = pos;
		while (end < size && data[end] != '+')
			end++;
		const uint8_t *seg = data + pos;
		size_t len = end - pos;
		pos = end + 1;
		size_t nl = 0;
		while (nl < len && seg[nl] != ' ' && seg[nl] != '\n' && seg[nl] != 0)
			nl++;
		char name[32];
		snprintf(name, sizeof(name), "%.*s", (int)MIN(nl, 31), (const char *)seg);
		const struct workload_ops *ops = workload_find(name);
		if (!ops) {
			ops = workload_registry[len ? seg[0] % nr_workloads() : 0];
			nl = len ? 1 : 0;
		}
		if (nwl++)
			argv[argc++] = (char *)"+";
		argv[argc++] = (char *)ops->name;
		if (!strcmp(ops->name, "trace")) {
			if (trace_path[0])
				continue; /* one trace file per input */
			const char *tmp = getenv("TMPDIR");
			snprintf(trace_path, sizeof(trace_path), "%s/pagelab-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
			int fd = mkstemp(trace_path);
			if (fd < 0) {
				trace_path[0] = 0;
				argc--;
				continue;
			}
			/* Page numbers of a few digits, so the trace stays small. */
			for (size_t i = nl; i < len; i++) {
				char c = (char)seg[i];
				if (write(fd, &c, 1) != 1)
					break;
			}
			close(fd);
			argv[argc++] = trace_path;
			continue;
		}
		size_t used;
		int k = split_words(seg + nl, len - nl, words + wo, argv + argc, 0, MIN(16, 90 - argc),
				    host_digits(ops->name, digits), &used);
		argc += tame_args(ops->name, argv, argc, k);
		wo += used;
	}
	argv[argc] = NULL;
#undef ARG
	bool ok = true;
	fuzz_sim_status = -1;
	if (nwl) {
		FILE *log = fuzz_verbose ? NULL : tmpfile();
		if (fuzz_verbose) {
			for (int a = 0; a < argc; a++)
				fprintf(stderr, "%s%s", a ? " " : "pagelab ", argv[a]);
			fputc('\n', stderr);
		}
		int rc = fuzz_run_captured(cmd_run, argc, argv, log);
		fuzz_sim_status = rc;
		/* 0: finished (or stopped at --max-time), 2: refused; 1 is a
		 * broken invariant, anything else a new exit status to
		 * look at. */
		if (rc != 0 && rc != EXIT_USAGE && rc != 3) {
			fprintf(stderr, "fuzz: exit status %d from: pagelab", rc);
			for (int a = 0; a < argc; a++)
				fprintf(stderr, " %s", argv[a]);
			fputc('\n', stderr);
			if (log) {
				rewind(log);
				char line[512];
				while (fgets(line, sizeof(line), log))
					fputs(line, stderr);
			}
			ok = false;
		}
		if (log)
			fclose(log);
	}
	if (trace_path[0])
		unlink(trace_path);
	free(words);
	return ok;
}
