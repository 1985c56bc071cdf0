/* output.c - see output.h.  The standard-output check follows gnulib's
 * close_stdout(): a write error is only certain once the stream has been
 * flushed and closed, so it is checked at exit, and a failure there turns
 * the exit status into 1. */
/* realpath() is XSI. */
#define _XOPEN_SOURCE 700
#include "output.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool stdout_checked;

bool output_close_stdout(void)
{
	if (stdout_checked)
		return true;
	stdout_checked = true;
	bool failed_before = ferror(stdout) != 0;
	errno = 0;
	bool close_failed = fclose(stdout) != 0;
	int err = errno;
	if (!failed_before && !close_failed)
		return true;
	/* An earlier failed write may have left no errno behind: then the
	 * reason is that it failed, nothing more precise. */
	if (close_failed && err)
		fprintf(stderr, "pagelab: cannot write standard output: %s\n", strerror(err));
	else
		fprintf(stderr, "pagelab: cannot write standard output: write error\n");
	return false;
}

static void close_stdout_at_exit(void)
{
	if (!output_close_stdout())
		_exit(1);
}

void output_init(void)
{
	if (fcntl(STDOUT_FILENO, F_GETFD) == -1 && errno == EBADF) {
		fprintf(stderr, "pagelab: cannot write standard output: %s\n", strerror(EBADF));
		exit(1);
	}
	atexit(close_stdout_at_exit);
}

FILE *atomic_open(struct atomic_file *af, const char *path, char *err, size_t errlen)
{
	memset(af, 0, sizeof(*af));
	if (!path || !*path) {
		snprintf(err, errlen, "cannot write a file with an empty name");
		return NULL;
	}
	/* Only a regular file (or a new one) is replaced by renaming: a
	 * device, a FIFO or /dev/stdout is written in place, and a symbolic
	 * link has its target replaced, not the link itself. */
	struct stat st;
	char *real = NULL;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISREG(st.st_mode))
		real = realpath(path, NULL);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		af->f = fopen(path, "w");
		if (!af->f) {
			snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
			return NULL;
		}
		af->path = xstrdup(path);
		return af->f;
	}
	const char *target = real ? real : path;
	size_t n = strlen(target) + 32;
	af->tmp = xmalloc(n);
	snprintf(af->tmp, n, "%s.tmp.%ld", target, (long)getpid());
	af->f = fopen(af->tmp, "w");
	if (!af->f) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		free(af->tmp);
		free(real);
		af->tmp = NULL;
		return NULL;
	}
	af->path = xstrdup(target);
	free(real);
	return af->f;
}

static void atomic_free(struct atomic_file *af)
{
	free(af->tmp);
	free(af->path);
	memset(af, 0, sizeof(*af));
}

bool atomic_commit(struct atomic_file *af, char *err, size_t errlen)
{
	int e = 0;
	errno = 0;
	if (fflush(af->f) != 0 || ferror(af->f))
		e = errno ? errno : EIO;
	else if (fsync(fileno(af->f)) != 0 && errno != EINVAL && errno != EROFS)
		e = errno; /* EINVAL: a pipe or device that cannot be synced */
	if (fclose(af->f) != 0 && !e)
		e = errno ? errno : EIO;
	af->f = NULL;
	if (!e && af->tmp && rename(af->tmp, af->path) != 0)
		e = errno;
	if (e) {
		snprintf(err, errlen, "cannot write %s: %s", af->path, strerror(e));
		if (af->tmp)
			unlink(af->tmp);
		atomic_free(af);
		return false;
	}
	atomic_free(af);
	return true;
}

void atomic_abort(struct atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	if (af->tmp)
		unlink(af->tmp);
	atomic_free(af);
}

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	interrupted = sig;
}

static void catch_signals(int flags, bool hup)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = flags;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (hup)
		sigaction(SIGHUP, &sa, NULL);
}

void output_catch_interrupts(void)
{
	catch_signals(SA_RESETHAND, false); /* a second signal kills as usual */
}

void output_catch_stop_signals(void)
{
	catch_signals(0, true);
}

int output_interrupted(void)
{
	return interrupted;
}
