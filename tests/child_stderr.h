/* child_stderr.h - a forked child whose stderr the test reads: for the
 * unit tests that check a crash handler's one line and exit status
 * (test_input_view.c, test_sigchain.c). */
#ifndef PAGELAB_TESTS_CHILD_STDERR_H
#define PAGELAB_TESTS_CHILD_STDERR_H

#include <stddef.h>
#include <sys/types.h>

/* fork() with the child's stderr on a pipe: 0 in the child, its pid in
 * the parent, which keeps the pipe's read end in *rfd. */
pid_t child_fork_stderr(int *rfd);

/* Wait for the child pid, read what it wrote to stderr (up to msglen - 1
 * bytes, NUL-terminated) into msg and close *rfd's pipe end; returns the
 * child's wait status. */
int child_wait_stderr(pid_t pid, int rfd, char *msg, size_t msglen);

#endif
