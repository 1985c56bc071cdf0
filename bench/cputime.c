/* cputime.c - run a command and write its CPU time, for make bench:
 * `cputime FILE CMD [ARGS...]` writes "USER SYSTEM MAXRSS" (seconds to the
 * microsecond, KiB) to FILE, the fields of GNU time's -f '%U %S %M'.  GNU
 * time prints hundredths of a second, which at the 0.3 s a Zipf replay
 * takes is 3 % a step: too coarse to tell 9.7x from 10x.  Exits with the
 * command's status (126/127 if it could not be run). */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static double secs(struct timeval tv) { return (double)tv.tv_sec + (double)tv.tv_usec / 1e6; }

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: cputime FILE CMD [ARGS...]\n");
		return 2;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("cputime: fork");
		return 126;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		perror("cputime: exec");
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) != pid) {
		perror("cputime: wait4");
		return 126;
	}
	FILE *f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 126;
	}
	fprintf(f, "%.6f %.6f %ld\n", secs(ru.ru_utime), secs(ru.ru_stime), ru.ru_maxrss);
	if (fclose(f)) {
		perror(argv[1]);
		return 126;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
