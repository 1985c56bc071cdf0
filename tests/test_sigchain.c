/* test_sigchain.c - two crash handlers in one process, each taking only
 * its own signals (src/lib/sigchain.h): a trace file that shrinks under
 * its mapped window while a plugin's guard is installed (the guard came
 * second) still ends in the input's one line and exit 2, not death by a
 * SIGBUS the guard raised again without the fault's address. */
#include "test.h"
#include "child_stderr.h"
#include "../src/trace/input.h"
#include "../src/policy/plugin_inst.h"
#include "../src/lib/util.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* In a child: map a window of a 1 MiB file (input.c's handler goes in),
 * start the plugin guard (its handler goes in over it), truncate the
 * file and read past its new end.  Returns the child's status and its
 * stderr in msg. */
static int shrink_under_guard(const char *path, char *msg, size_t msglen)
{
	int rfd;
	pid_t pid = child_fork_stderr(&rfd);
	if (pid == 0) {
		char err[200];
		struct input *in = input_open(path, err, sizeof(err));
		size_t n;
		const volatile uint8_t *v = in ? input_view(in, 8192, &n) : NULL;
		if (!v || n != 8192)
			_exit(3);
		static struct plugin_inst guarded; /* watched, never called */
		plugin_guard_watch(&guarded);
		if (truncate(path, 0) != 0)
			_exit(5);
		(void)v[4096 + 100];
		_exit(6);
	}
	return child_wait_stderr(pid, rfd, msg, msglen);
}

void test_sigchain_input_then_plugin_guard(void);
void test_sigchain_input_then_plugin_guard(void)
{
	char path[] = "/tmp/pagelab-sigchain-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		panic("mkstemp");
	static uint8_t b[1 << 20];
	memset(b, 'x', sizeof(b));
	if (write(fd, b, sizeof(b)) != (ssize_t)sizeof(b))
		panic("write");
	close(fd);
	char msg[400];
	int st = shrink_under_guard(path, msg, sizeof(msg));
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 2);
	char want[300];
	snprintf(want, sizeof(want), "pagelab: %s: the file shrank while it was read (byte 4196 is gone)\n", path);
	CHECK(!strcmp(msg, want));
	if (strcmp(msg, want))
		fprintf(stderr, "status %#x, got: %s\n", st, msg);
	unlink(path);
}
