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
static void catch_fatal_signals(void);

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
	/* A write larger than stdio's buffer goes to the file directly; when
	 * it fails the buffer is left empty, fclose() succeeds and the
	 * reason (ENOSPC, EFBIG) is lost.  With a buffer larger than any one
	 * write pagelab makes (the longest --help is 4 KiB), every failure is
	 * the buffer's, and fclose() meets it again with its errno.  Not for
	 * a terminal, which stays line-buffered. */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	atexit(close_stdout_at_exit);
	catch_fatal_signals();
}

/* The temporary files this process has open, removed when a signal
 * kills it or it exits before committing them.  Slots are set only once
 * the name is complete, so a handler reads either NULL or a whole name;
 * owner: a forked child (sweep's, kernel's) never removes its parent's. */
#define MAX_TEMPS 16
static char *volatile temps[MAX_TEMPS];
static pid_t temps_owner;

static void temp_register(char *tmp)
{
	temps_owner = getpid();
	for (int i = 0; i < MAX_TEMPS; i++)
		if (!temps[i]) {
			temps[i] = tmp;
			return;
		}
	panic("more than %d output files open at once", MAX_TEMPS);
}

static void temp_forget(const char *tmp)
{
	for (int i = 0; i < MAX_TEMPS; i++)
		if (temps[i] == tmp)
			temps[i] = NULL;
}

/* Async-signal-safe: unlink() and getpid() only. */
static void temps_remove(void)
{
	if (getpid() != temps_owner)
		return;
	for (int i = 0; i < MAX_TEMPS; i++) {
		char *t = temps[i];
		if (t)
			unlink(t);
	}
}

FILE *atomic_open(struct atomic_file *af, const char *path, char *err, size_t errlen)
{
	return output_open(af, path, 0, err, errlen);
}

/* What PATH is: 0 when missing (or a link to nothing, refused by the
 * callers), else its st_mode type bits, following links. */
static bool path_kind(const char *path, mode_t *type, bool *dangling, char *err, size_t errlen)
{
	struct stat st;
	*type = 0;
	*dangling = false;
	if (stat(path, &st) == 0) {
		*type = st.st_mode & S_IFMT;
		return true;
	}
	if (errno != ENOENT) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		return false;
	}
	*dangling = lstat(path, &st) == 0;
	return true;
}

/* The temporary file beside target: TARGET.tmp.PID, or TARGET.tmp.PID.N
 * when that name is taken (two outputs of one process, a stale file).
 * O_EXCL: never opened through a link someone put there. */
static FILE *open_tmp(const char *target, char **tmp)
{
	size_t n = strlen(target) + 48;
	*tmp = xmalloc(n);
	for (int k = 0; k < 100; k++) {
		if (k)
			snprintf(*tmp, n, "%s.tmp.%ld.%d", target, (long)getpid(), k);
		else
			snprintf(*tmp, n, "%s.tmp.%ld", target, (long)getpid());
		int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			break;
		temp_register(*tmp);
		FILE *f = fdopen(fd, "w");
		if (f)
			return f;
		int e = errno;
		temp_forget(*tmp);
		unlink(*tmp);
		close(fd);
		errno = e;
		break;
	}
	free(*tmp);
	*tmp = NULL;
	return NULL;
}

FILE *output_open(struct atomic_file *af, const char *path, unsigned flags, char *err, size_t errlen)
{
	memset(af, 0, sizeof(*af));
	if (!path || !*path) {
		snprintf(err, errlen, "cannot write a file with an empty name");
		return NULL;
	}
	mode_t type;
	bool dangling;
	if (!path_kind(path, &type, &dangling, err, errlen))
		return NULL;
	if (dangling) {
		snprintf(err, errlen, "cannot write %s: a symbolic link to a missing file", path);
		return NULL;
	}
	if (type && type != S_IFREG) {
		/* Never renamed over: a device, a FIFO or /dev/stdout is
		 * written in place, or refused when the output needs a file. */
		if (flags & OUTPUT_REGULAR) {
			snprintf(err, errlen, "cannot write %s: not a regular file", path);
			return NULL;
		}
		af->f = fopen(path, "w");
		if (!af->f) {
			snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
			return NULL;
		}
		af->path = xstrdup(path);
		return af->f;
	}
	/* A symbolic link has its target replaced, not the link itself. */
	struct stat l;
	char *real = type && lstat(path, &l) == 0 && S_ISLNK(l.st_mode) ? realpath(path, NULL) : NULL;
	const char *target = real ? real : path;
	af->f = open_tmp(target, &af->tmp);
	if (!af->f) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		free(real);
		return NULL;
	}
	af->path = xstrdup(target);
	free(real);
	return af->f;
}

bool output_regular_or_new(const char *path, char *err, size_t errlen)
{
	mode_t type;
	bool dangling;
	if (!path_kind(path, &type, &dangling, err, errlen))
		return false;
	if (dangling || (type && type != S_IFREG)) {
		snprintf(err, errlen, "cannot write %s: %s", path,
			 dangling ? "a symbolic link to a missing file" : "not a regular file");
		return false;
	}
	return true;
}

FILE *output_append(const char *path, char *err, size_t errlen)
{
	if (!path || !*path) {
		snprintf(err, errlen, "cannot write a file with an empty name");
		return NULL;
	}
	if (!output_regular_or_new(path, err, errlen))
		return NULL;
	FILE *f = fopen(path, "a");
	if (!f)
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
	return f;
}

static void atomic_free(struct atomic_file *af)
{
	if (af->tmp)
		temp_forget(af->tmp);
	free(af->tmp);
	free(af->path);
	memset(af, 0, sizeof(*af));
}

/* Why an earlier write of f failed, its errno gone (an fprintf whose
 * buffer flush failed, errno overwritten since): one more byte, written
 * after clearing the error, fails again for the same reason (a full disk,
 * `ulimit -f`); the output is being given up, so the byte does no harm. */
static int write_errno(FILE *f)
{
	clearerr(f);
	errno = 0;
	if (fputc('\n', f) == EOF || fflush(f) != 0)
		return errno ? errno : EIO;
	return EIO;
}

bool atomic_commit(struct atomic_file *af, char *err, size_t errlen)
{
	int e = 0;
	errno = 0;
	if (fflush(af->f) != 0 || ferror(af->f))
		e = errno ? errno : write_errno(af->f);
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
static bool second_kills; /* output_catch_interrupts(): a second signal kills */

/* The default action of sig, after removing the temporary files. */
static void die_of(int sig)
{
	temps_remove();
	signal(sig, SIG_DFL);
	raise(sig); /* delivered when the handler returns */
}

static void on_interrupt(int sig)
{
	if (interrupted && second_kills)
		die_of(sig);
	else
		interrupted = sig;
}

/* SIGXFSZ (over `ulimit -f`) would kill the process with its output half
 * written; caught, the write fails with EFBIG and is reported as any
 * write error.  A handler, not SIG_IGN, so that programs pagelab starts
 * (record, kernel) get the default back when they exec. */
static void on_xfsz(int sig)
{
	(void)sig;
}

static void handle(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

/* Every signal whose default action ends the process: the temporary
 * files go first.  A signal ignored when pagelab started (nohup) stays
 * ignored. */
static const int fatal_signals[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGABRT,
				     SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF };

static void catch_fatal_signals(void)
{
	for (size_t i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++) {
		struct sigaction old;
		if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			handle(fatal_signals[i], die_of, 0);
	}
	handle(SIGXFSZ, on_xfsz, 0);
	atexit(temps_remove);
}

static void catch_signals(int flags, bool hup)
{
	handle(SIGINT, on_interrupt, flags);
	handle(SIGTERM, on_interrupt, flags);
	if (hup)
		handle(SIGHUP, on_interrupt, flags);
}

void output_catch_interrupts(void)
{
	second_kills = true;
	catch_signals(0, false);
}

void output_catch_stop_signals(void)
{
	second_kills = false;
	catch_signals(0, true);
}

int output_interrupted(void)
{
	return interrupted;
}
