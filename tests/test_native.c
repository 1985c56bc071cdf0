/* test_native.c - the parts of the native executor (src/native/) that need
 * neither root nor a cgroup: the dry walk that refuses what cannot run
 * natively and finds the input files, the counter snapshots' arithmetic,
 * the file-name mapping, and one task's op stream executed for real in a
 * forked child (anonymous memory, a file written, read and mapped). */
#define _GNU_SOURCE
#include "test.h"
#include "../src/native/native.h"
#include "../src/lib/util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

void test_native_plan(void);
void test_native_counters(void);
void test_native_executes_a_task(void);
void test_native_load_first_faults_as_a_load(void);

static struct nworkload wl_of(const char *line, char *buf, size_t len, char **argv)
{
	snprintf(buf, len, "%s", line);
	int argc = 0;
	for (char *tok = strtok(buf, " "); tok && argc < 31; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return (struct nworkload){ .ops = workload_find(argv[0]), .argc = argc, .argv = argv, .seed = 1,
				   .cmd = (char *)line };
}

/* Build the plan of one workload line; returns whether it was accepted. */
static bool plan_of(const char *line, struct nplan *p, char *err, size_t errlen)
{
	char buf[256], *argv[32];
	struct nworkload w = wl_of(line, buf, sizeof(buf), argv);
	struct wl_sysinfo si = { .totalram = 64 << 20, .freeram = 64 << 20 };
	if (!w.ops)
		return false;
	void *inst = w.ops->create(w.argc, w.argv, 1, err, errlen);
	if (!inst)
		return false;
	if (w.ops->attach)
		w.ops->attach(inst, &si);
	err[0] = 0;
	bool ok = nplan_build(p, &w, &inst, 1, false, err, errlen);
	/* The walk ran on a copy: the instance is still at its start. */
	struct op op;
	if (w.ops->nr_tasks(inst) > 0 && !w.ops->next_op(inst, 0, &op))
		CHECK(!"the walk advanced the caller's generator");
	w.ops->destroy(inst);
	return ok;
}

void test_native_plan(void)
{
	struct nplan p;
	char err[512];
	/* dd reads a file nobody creates: an input, as far as dd reads it
	 * (skip 2 + count 4 blocks of 1 MB = 1536 pages). */
	CHECK(plan_of("dd if=/data bs=1M skip=2 count=4", &p, err, sizeof(err)));
	CHECK_EQ(p.ninputs, 1);
	if (p.ninputs == 1) {
		CHECK(!strcmp(p.inputs[0].name, "/data"));
		CHECK_EQ(p.inputs[0].npages, 1536);
	}
	CHECK_EQ(p.file_pages, 1536);   /* what it may cache: as far as it reads */
	nplan_free(&p);
	/* fileio -c creates its file: no input, but 4 MiB it may cache, once
	 * however often it writes and reads it. */
	CHECK(plan_of("fileio -c -w -r 2 /f 4M", &p, err, sizeof(err)));
	CHECK_EQ(p.ninputs, 0);
	CHECK_EQ(p.file_pages, 1024);
	nplan_free(&p);
	/* An O_DIRECT read caches nothing: an input, but no warm-up for it. */
	CHECK(plan_of("dd if=/in bs=1M count=2 iflag=direct", &p, err, sizeof(err)));
	CHECK_EQ(p.ninputs, 1);
	CHECK_EQ(p.file_pages, 0);
	nplan_free(&p);
	/* usemem has no files at all. */
	CHECK(plan_of("usemem -m 4", &p, err, sizeof(err)));
	CHECK_EQ(p.ninputs, 0);
	CHECK_EQ(p.file_pages, 0);
	nplan_free(&p);
	/* The simulated raw disk and ramfs cannot run natively. */
	CHECK(!plan_of("dd if=/dev/sda bs=1M count=4", &p, err, sizeof(err)));
	CHECK(strstr(err, "/dev/sda") != NULL);
	nplan_free(&p);
	CHECK(!plan_of("fileio -c /ramfs/x 1M", &p, err, sizeof(err)));
	CHECK(strstr(err, "ramfs") != NULL);
	nplan_free(&p);
	/* A time-bound workload's walk ends (its marks see a far future). */
	CHECK(plan_of("workingset -m 1 -d 100", &p, err, sizeof(err)));
	nplan_free(&p);

	char path[256];
	native_file_path(path, sizeof(path), "/d", "/home/user/data");
	CHECK(!strcmp(path, "/d/files/home_user_data"));

	/* The default warm-up: the limit and the file pages, at most half
	 * of RAM, never under the limit; RAM 0 (unknown) caps nothing. */
	const uint64_t M = 1 << 20;
	CHECK_EQ(nsession_warm_bytes(256 * M, 0, 24576 * M), 256 * M);
	CHECK_EQ(nsession_warm_bytes(256 * M, 196608, 24576 * M), 1024 * M);
	CHECK_EQ(nsession_warm_bytes(256 * M, 196608, 1024 * M), 512 * M);
	CHECK_EQ(nsession_warm_bytes(768 * M, 196608, 1024 * M), 768 * M);
	CHECK_EQ(nsession_warm_bytes(256 * M, 196608, 0), 1024 * M);
	CHECK_EQ(nsession_warm_bytes(256 * M, UINT64_MAX / 4096, 0), UINT64_MAX);
}

void test_native_counters(void)
{
	struct nstat a, b, d;
	nstat_parse(&a, "pgfault 10\npswpout 0\nnr_free_pages 500\n");
	nstat_parse(&b, "pgfault 25\npswpout 7\nnr_free_pages 300\nnew_counter 4\n");
	CHECK_EQ(a.n, 3);
	nstat_delta(&d, &a, &b);
	CHECK_EQ(d.n, 4);
	CHECK_EQ(nstat_get(&d, "pgfault"), 15);
	CHECK_EQ(nstat_get(&d, "pswpout"), 7);
	CHECK(nstat_get(&d, "nr_free_pages") == -200);   /* a gauge went down */
	CHECK_EQ(nstat_get(&d, "new_counter"), 4);
	CHECK(!strcmp(d.name[1], "pswpout"));             /* the kernel's order */
	nstat_free(&a);
	nstat_free(&b);
	nstat_free(&d);
	/* Malformed lines are skipped, not misread. */
	nstat_parse(&a, "pgfault\n x 3\nok 5\n\nbad notanumber\n");
	CHECK_EQ(a.n, 1);
	CHECK_EQ(nstat_get(&a, "ok"), 5);
	nstat_free(&a);
}

/* A two-op-kind workload of our own: map, write, read back; create a file,
 * write 3 pages, fsync, map them shared and read; a barrier with no one
 * else; exit.  Checks the executor runs every op without an error. */
static const struct op script[] = {
	{ .kind = OP_MMAP_ANON, .region = 0, .npages = 64 },
	{ .kind = OP_TOUCH, .region = 0, .npages = 64, .refs = 600, .write = true },
	{ .kind = OP_TOUCH, .region = 0, .first = 10, .npages = 20, .refs = 1 },
	{ .kind = OP_MLOCK, .region = 0, .npages = 64 },
	{ .kind = OP_MUNLOCK, .region = 0 },
	{ .kind = OP_CREATE, .fd = 3, .name = "/t/file" },
	{ .kind = OP_WRITE, .fd = 3, .npages = 3 },
	{ .kind = OP_FSYNC, .fd = 3 },
	{ .kind = OP_READ, .fd = 3, .first = 1, .npages = 5 },   /* a short read at EOF */
	{ .kind = OP_MMAP_FILE, .fd = 3, .region = 1, .npages = 4, .shared = true },
	{ .kind = OP_TOUCH, .region = 1, .npages = 4, .refs = 2 },
	{ .kind = OP_CPU, .ns = 100000 },
	{ .kind = OP_SLEEP, .ns = 1000000 },
	{ .kind = OP_BARRIER },
	{ .kind = OP_MARK, .region = 7 },
	{ .kind = OP_MUNMAP, .region = 0 },
	{ .kind = OP_CLOSE, .fd = 3 },
	{ .kind = OP_UNLINK, .name = "/t/file" },
};
static int script_pos;
static bool script_next(void *w, int task, struct op *op)
{
	(void)w;
	(void)task;
	if (script_pos >= (int)ARRAY_SIZE(script))
		return false;
	*op = script[script_pos++];
	return true;
}
static const struct workload_ops script_ops = { .name = "script", .next_op = script_next };

static bool bad_next(void *w, int task, struct op *op)
{
	(void)w;
	(void)task;
	*op = (struct op){ .kind = OP_TOUCH, .region = 5, .npages = 1 };
	return true;
}
static const struct workload_ops bad_ops = { .name = "bad", .next_op = bad_next };

void test_native_executes_a_task(void)
{
	char dir[] = "/tmp/pagelab-native-test.XXXXXX";
	if (!mkdtemp(dir)) {
		CHECK(!"mkdtemp");
		return;
	}
	char files[300];
	snprintf(files, sizeof(files), "%s/files", dir);
	CHECK(mkdir(files, 0700) == 0);
	size_t size = sizeof(struct nshared) + sizeof(struct ntask_result);
	struct nshared *sh = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(sh != MAP_FAILED);
	if (sh == MAP_FAILED)
		return;
	memset(sh, 0, size);
	int done[1] = { -1 };
	struct nexec_ctx c = { .ops = &script_ops, .w = NULL, .wl_task = 0, .task = 0, .dir = dir,
			       .done_fd = done, .first_task = 0, .ntasks = 1, .t0 = native_now_ns(), .sh = sh };
	pid_t pid = fork();
	if (!pid)
		_exit(nexec_task(&c));
	int st = 0;
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	if (sh->task[0].err[0])
		fprintf(stderr, "executor: %s\n", sh->task[0].err);
	CHECK_EQ(sh->task[0].err[0], 0);
	CHECK_EQ(sh->task[0].nops, ARRAY_SIZE(script));
	CHECK(sh->task[0].sleep_ns >= 1000000);
	/* The task leaves its end to the reap (session.c): its exit is in it. */
	CHECK_EQ(sh->task[0].end_ns, 0);
	CHECK_EQ(sh->nmarks, 1);
	CHECK_EQ(sh->marks[0].id, 7);
	/* The file was unlinked; only the directory is left. */
	CHECK(access(files, F_OK) == 0);
	char f[400];
	snprintf(f, sizeof(f), "%s/t_file", files);
	CHECK(access(f, F_OK) != 0);

	/* An op outside the mappings is reported, not a crash. */
	memset(sh, 0, size);
	c.ops = &bad_ops;
	pid = fork();
	if (!pid)
		_exit(nexec_task(&c));
	waitpid(pid, &st, 0);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 1);
	CHECK(strstr(sh->task[0].err, "outside its mappings") != NULL);
	munmap(sh, size);
	native_remove_tree(dir);
}

/* One region of 64 fresh pages, written once per page: by plain stores,
 * or loading first (op->load_first, qsbench's compare before its swap). */
static bool lf_load_first;
static int lf_pos;
static bool lf_next(void *w, int task, struct op *op)
{
	(void)w;
	(void)task;
	if (lf_pos == 0)
		*op = (struct op){ .kind = OP_MMAP_ANON, .region = 0, .npages = 64 };
	else if (lf_pos == 1)
		*op = (struct op){ .kind = OP_TOUCH, .region = 0, .npages = 64, .refs = 4, .write = true,
				   .load_first = lf_load_first };
	else
		return false;
	lf_pos++;
	return true;
}
static const struct workload_ops lf_ops = { .name = "load-first", .next_op = lf_next };

/* The minor faults of a child executing lf_ops. */
static long lf_minor_faults(bool load_first, struct nshared *sh, size_t size)
{
	memset(sh, 0, size);
	lf_load_first = load_first;
	lf_pos = 0;
	int done[1] = { -1 };
	struct nexec_ctx c = { .ops = &lf_ops, .dir = "/nonexistent", .done_fd = done, .ntasks = 1,
			       .t0 = native_now_ns(), .sh = sh };
	pid_t pid = fork();
	if (!pid)
		_exit(nexec_task(&c));
	int st = 0;
	struct rusage ru;
	if (wait4(pid, &st, 0, &ru) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return ru.ru_minflt;
}

/* A write that loads first must fault as a load: on a swapped-out page
 * that is what makes 6.x keep its swap slot.  On fresh anonymous memory
 * it shows as two faults a page (the load maps the zero page, the store
 * then copies it) where plain stores take one: 64 more for 64 pages. */
void test_native_load_first_faults_as_a_load(void)
{
	size_t size = sizeof(struct nshared) + sizeof(struct ntask_result);
	struct nshared *sh = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	CHECK(sh != MAP_FAILED);
	if (sh == MAP_FAILED)
		return;
	long stores = lf_minor_faults(false, sh, size);
	long loads = lf_minor_faults(true, sh, size);
	CHECK(stores > 0 && loads > 0);
	/* The rest of each child's faults (its stack, the shared page) are
	 * the same in both; allow a few either way. */
	bool one_more_a_page = loads - stores >= 60 && loads - stores <= 68;
	CHECK(one_more_a_page);
	if (!one_more_a_page)
		fprintf(stderr, "minor faults: %ld with stores, %ld loading first\n", stores, loads);
	munmap(sh, size);
}
