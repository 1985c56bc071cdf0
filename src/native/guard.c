/* guard.c - one native run at a time, and nothing left behind.
 *
 * The lock is flock(2) on /run/pagelab-kernel.lock: the kernel drops it
 * when the holder dies, however it dies, so a killed run never blocks the
 * next one.  What a run creates (cgroup, swapfile or zram device,
 * temporary directory, and the tracing instances and tracefs mount of
 * tracer.c) is
 * recorded in a struct nguard and undone by nguard_cleanup(), which runs on
 * a normal return, from atexit() on every exit() (die_usage included) and
 * after SIGINT/SIGTERM/SIGHUP, whose handlers only set a flag that the
 * waiting loop polls.  SIGKILL cannot be trapped: a watchdog process,
 * forked at the start and outside the cgroup, reads a pipe only we write
 * to; EOF means we died, and it undoes what the shared struct nguard
 * still records, then exits, releasing the lock it shares with us.  Should
 * the watchdog be killed too, the names carry our pid, and the next run,
 * holding the lock, sweeps what a dead pid left.  A zram device has no
 * name to carry a pid: its number is written in the lock file as it is
 * made (a third line, "zram N") and its swap header's label names our
 * pid (zram.c), which the next run checks before removing it. */
#define _GNU_SOURCE
#include "native.h"
#include "../lib/output.h"
#include "../lib/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOCK_PATH "/run/pagelab-kernel.lock"
#define TMP_ROOT NATIVE_TMP_ROOT

static struct nguard *active;
static pid_t owner;
static int lock_fd = -1;
static int watch_fd = -1;    /* write end of the watchdog's pipe */
static void write_lock(void);


void native_remove_tree(const char *path)
{
	DIR *d = opendir(path);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d))) {
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char p[1024];
			snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
			struct stat st;
			if (!lstat(p, &st) && S_ISDIR(st.st_mode))
				native_remove_tree(p);
			else
				unlink(p);
		}
		closedir(d);
	}
	rmdir(path);
}

static void undo(struct nguard *g)
{
	/* The cgroup first: its processes hold the instances' trace_pipe
	 * (forked after it was opened), which keeps them from going. */
	ncg_remove(&g->cg);
	for (int k = 0; k < 2; k++)
		if (g->trace_inst[k][0]) {
			ntracer_remove_instance(g->trace_inst[k]);
			g->trace_inst[k][0] = 0;
		}
	ntracer_unmount(g);
	if (g->swapfile[0]) {
		nswap_off(g->swapfile);
		g->swapfile[0] = 0;
	}
	if (g->zram_made) {
		nzram_off(g->zram_dev);
		g->zram_made = false;
		g->zram_path[0] = 0;
		if (lock_fd >= 0)
			write_lock();   /* gone: nothing for the next run */
	}
	if (g->dir[0]) {
		native_remove_tree(g->dir);
		g->dir[0] = 0;
	}
}

void nguard_cleanup(struct nguard *g)
{
	/* A forked child (runner, task) never undoes its parent's work. */
	if (g && getpid() == owner)
		undo(g);
}

static _Noreturn void watchdog(struct nguard *g, int rd)
{
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	/* Not holding the caller's stdout: a $(pagelab kernel) ends with us. */
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
	}
	char b;
	while (read(rd, &b, 1) != 0 && errno == EINTR)
		;
	undo(g);
	_exit(0);
}

static void cleanup_at_exit(void)
{
	nguard_cleanup(active);
}

_Noreturn void nguard_reraise(int sig)
{
	signal(sig, SIG_DFL);
	raise(sig);
	_exit(128 + sig);
}

/* Temporary directories of dead runs: /var/tmp/pagelab-kernel.PID.XXXXXX. */
static void sweep_stale_dirs(void)
{
	DIR *d = opendir(TMP_ROOT);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "pagelab-kernel.", 15))
			continue;
		long pid = strtol(e->d_name + 15, NULL, 10);
		if (pid <= 0 || pid == getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		char p[512];
		snprintf(p, sizeof(p), TMP_ROOT "/%s", e->d_name);
		native_remove_tree(p);
	}
	closedir(d);
}

static uint64_t last_end_ns; /* CLOCK_MONOTONIC; 0: not known */

/* The lock file: our pid, when the last run ended, and "zram N" while a
 * zram device of ours exists. */
static void write_lock(void)
{
	char buf[96];
	int len = snprintf(buf, sizeof(buf), "%d\n%llu\n", (int)getpid(), (unsigned long long)last_end_ns);
	if (active && active->zram_made)
		len += snprintf(buf + len, sizeof(buf) - (size_t)len, "zram %d\n", active->zram_dev);
	if (ftruncate(lock_fd, 0) || pwrite(lock_fd, buf, (size_t)len, 0) != len)
		fprintf(stderr, "pagelab: kernel: cannot write our pid to %s\n", LOCK_PATH);
}

void nguard_note_end(void)
{
	last_end_ns = native_now_ns();
	if (lock_fd >= 0)
		write_lock();
}

void nguard_note_zram(const struct nguard *g)
{
	if (lock_fd >= 0 && g == active)
		write_lock();
}

double nguard_secs_since_end(void)
{
	uint64_t now = native_now_ns();
	return last_end_ns && now >= last_end_ns ? (double)(now - last_end_ns) / 1e9 : 1e9;
}

struct nguard *nguard_begin(const struct ncgroup *cg)
{
	owner = getpid();
	/* Shared with the watchdog, which sees what is still to undo. */
	struct nguard *g = mmap(NULL, sizeof(*g), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (g == MAP_FAILED)
		die_usage("kernel: out of memory");
	memset(g, 0, sizeof(*g));
	g->cg = *cg;
	g->cg.path[0] = 0;
	active = g;
	output_catch_stop_signals();
	atexit(cleanup_at_exit);

	int fd = lock_fd = open(LOCK_PATH, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		die_usage("kernel: cannot open the lock %s: %s", LOCK_PATH, strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		char buf[32] = "";
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
		buf[n > 0 ? n : 0] = 0;
		buf[strcspn(buf, "\n")] = 0;
		fprintf(stderr, "pagelab: kernel: waiting for another pagelab kernel (pid %s) to finish ...\n",
			buf[0] ? buf : "?");
		while (flock(fd, LOCK_EX)) {
			if (errno != EINTR || output_interrupted())
				nguard_reraise(output_interrupted() ? output_interrupted() : SIGTERM);
		}
	}
	/* The lock holds our pid, then when the last run ended, then the
	 * zram device its holder had, if any. */
	char buf[96] = "";
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = 0;
	char *nl = strchr(buf, '\n'), *zl = strstr(buf, "\nzram ");
	last_end_ns = nl ? strtoull(nl + 1, NULL, 10) : 0;
	int stale_zram = zl ? atoi(zl + 6) : -1;
	write_lock();
	/* fd stays open (and locked) until we exit; forked children close
	 * their copy (nguard_in_child), so the lock dies with us. */

	/* What killed runs left: their swap areas first (swapoff needs the
	 * file), then their cgroups and directories. */
	nswap_sweep_stale();
	nzram_sweep_stale(stale_zram);
	ncg_sweep_stale(&g->cg);
	sweep_stale_dirs();
	ntracer_sweep_stale();

	int p[2];
	if (pipe(p))
		die_usage("kernel: pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t w = fork();
	if (w < 0)
		die_usage("kernel: fork: %s", strerror(errno));
	if (!w) {
		close(p[1]);
		watchdog(g, p[0]);
	}
	close(p[0]);
	watch_fd = p[1];
	return g;
}

bool nguard_make_dir(struct nguard *g, char *err, size_t errlen)
{
	snprintf(g->dir, sizeof(g->dir), TMP_ROOT "/pagelab-kernel.%d.XXXXXX", (int)getpid());
	if (!mkdtemp(g->dir)) {
		snprintf(err, errlen, "kernel: cannot create a directory in " TMP_ROOT ": %s", strerror(errno));
		g->dir[0] = 0;
		return false;
	}
	return true;
}

void nguard_in_child(void)
{
	if (lock_fd >= 0)
		close(lock_fd);
	if (watch_fd >= 0)
		close(watch_fd);
	lock_fd = watch_fd = -1;
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

pid_t native_fork_piped(int *fd)
{
	int p[2];
	if (pipe(p))
		die_usage("kernel: pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		die_usage("kernel: fork: %s", strerror(errno));
	close(p[pid ? 1 : 0]);
	*fd = p[pid ? 0 : 1];
	return pid;
}
