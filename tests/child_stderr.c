/* child_stderr.c - see child_stderr.h. */
#include "child_stderr.h"
#include "../src/lib/util.h"

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

pid_t child_fork_stderr(int *rfd)
{
	int fds[2];
	if (pipe(fds) != 0)
		panic("pipe");
	fflush(NULL);   /* nothing buffered is written twice */
	pid_t pid = fork();
	if (pid < 0)
		panic("fork");
	if (pid == 0) {
		close(fds[0]);
		dup2(fds[1], STDERR_FILENO);
		close(fds[1]);
		return 0;
	}
	close(fds[1]);
	*rfd = fds[0];
	return pid;
}

int child_wait_stderr(pid_t pid, int rfd, char *msg, size_t msglen)
{
	int st = -1;
	waitpid(pid, &st, 0);
	ssize_t got = read(rfd, msg, msglen - 1);
	msg[got > 0 ? got : 0] = 0;
	close(rfd);
	return st;
}
