/* test_input_fork.c - an input read by forked copies (issue 38 of
 * pagelab: pagelab kernel walks a workload's stream on one forked copy of
 * its generator (src/native/prepare.c), runs it on another and replays it
 * for the report on a third; run --make-inputs walks it on a copy first).
 * Each copy must read the whole trace: a regular file is read at an
 * offset of the copy's own (pread), whatever the others read; a pipe,
 * which has no offset, is an error in a copy that needs bytes not
 * buffered before the fork, never a trace cut short.  None of this needs
 * root: the prepare pass is the same code as pagelab kernel's. */
#include "test.h"
#include "../src/native/native.h"
#include "../src/trace/input.h"
#include "../src/lib/util.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void test_input_fork_each_copy_reads_the_whole_file(void);
void test_input_fork_pipe_is_an_error_in_a_copy(void);
void test_input_fork_walk_then_replay_whole_trace(void);

/* Far more than the 64 KiB input_new() buffers before the first fork. */
#define NLINES 40000

/* Line i of the trace: "PAGE r" or "PAGE w", 7-10 bytes. */
static int put_line(char *b, size_t len, int i)
{
	return snprintf(b, len, "%d %s\n", (i * 7919) % 3001, i % 3 ? "r" : "w");
}

static void write_trace(char *path)
{
	int fd = mkstemp(path);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f)
		panic("cannot create %s", path);
	char b[32];
	for (int i = 0; i < NLINES; i++) {
		put_line(b, sizeof(b), i);
		fputs(b, f);
	}
	if (fclose(f))
		panic("cannot write %s", path);
}

/* The lines left in `in`; -1 on an error. */
static long count_lines(struct input *in)
{
	char *line;
	size_t len;
	long n = 0;
	int rc;
	while ((rc = input_line(in, &line, &len)) > 0)
		n++;
	return rc < 0 ? -1 : n;
}

/* Fork; the child counts the lines left and exits 0 if there are `want`
 * (1 if not, 3 on an error with errsub in its message, 2 on another). */
static int child_count(struct input *in, long want, const char *errsub)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		long n = count_lines(in);
		if (n < 0)
			_exit(errsub && strstr(input_error(in), errsub) ? 3 : 2);
		_exit(n == want ? 0 : 1);
	}
	int st = -1;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

void test_input_fork_each_copy_reads_the_whole_file(void)
{
	char path[] = "/tmp/pagelab-input-fork.XXXXXX";
	write_trace(path);
	char err[256];
	struct input *in = input_open(path, err, sizeof(err));
	CHECK(in != NULL);
	if (in) {
		/* Two copies after another, then the opener itself: before
		 * the fix the second copy met the end (the first had moved
		 * the shared offset there) and called it a shrunk file. */
		CHECK_EQ(child_count(in, NLINES, NULL), 0);
		CHECK_EQ(child_count(in, NLINES, NULL), 0);
		CHECK_EQ(count_lines(in), NLINES);
		CHECK(!input_error(in)[0]);
		input_close(in);
	}
	unlink(path);
}

/* A writer process feeding NLINES lines into a pipe; its pid. */
static pid_t pipe_writer(int *rfd)
{
	int p[2];
	if (pipe(p))
		panic("pipe");
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		close(p[0]);
		FILE *f = fdopen(p[1], "w");
		char b[32];
		for (int i = 0; f && i < NLINES; i++) {
			put_line(b, sizeof(b), i);
			fputs(b, f);
		}
		_exit(f && !fclose(f) ? 0 : 1);
	}
	close(p[1]);
	*rfd = p[0];
	return pid;
}

void test_input_fork_pipe_is_an_error_in_a_copy(void)
{
	int fd;
	pid_t w = pipe_writer(&fd);
	FILE *f = fdopen(fd, "r");
	struct input *in = f ? input_from_file(f, "pipe") : NULL;
	CHECK(in != NULL);
	if (in) {
		/* The copy takes nothing from the pipe: it says why it
		 * cannot read on, and the opener still reads every line. */
		CHECK_EQ(child_count(in, NLINES, "a forked process cannot read it again"), 3);
		CHECK_EQ(count_lines(in), NLINES);
		input_close(in);
	}
	if (f)
		fclose(f);
	int st;
	CHECK(waitpid(w, &st, 0) == w && WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* The TOUCH ops of the trace workload's stream from where inst is. */
static long touches(const struct workload_ops *ops, void *inst)
{
	struct op op;
	long n = 0;
	while (ops->next_op(inst, 0, &op))
		n += op.kind == OP_TOUCH;
	return n;
}

/* pagelab kernel's order, without root: the prepare pass walks the trace
 * workload on one forked copy, then a task replays it on another. */
void test_input_fork_walk_then_replay_whole_trace(void)
{
	char path[] = "/tmp/pagelab-input-fork.XXXXXX";
	write_trace(path);
	char *argv[] = { "trace", path, NULL }, err[512] = "";
	struct nworkload w = { .ops = workload_find("trace"), .argc = 2, .argv = argv, .seed = 1,
			       .cmd = "trace" };
	void *inst = w.ops ? w.ops->create(w.argc, w.argv, 1, err, sizeof(err)) : NULL;
	CHECK(inst != NULL);
	if (inst) {
		struct nplan p;
		CHECK(nplan_build(&p, &w, &inst, 1, false, err, sizeof(err)));
		nplan_free(&p);
		fflush(NULL);
		pid_t pid = fork();
		if (pid == 0)
			_exit(touches(w.ops, inst) == NLINES ? 0 : 1);
		int st = -1;
		CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
		CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		CHECK_EQ(touches(w.ops, inst), NLINES);
		w.ops->destroy(inst);
	}
	unlink(path);
}
