/* diskprobe.c - the disk's rates just before and after a kernel run (session.c,
 * --disk-probe; compare's kernel side always).
 *
 * Why: this host's disk is a virtual one whose rate moves with its
 * host's load.  1 GB written in 4 KiB calls and fsync()ed went at
 * 818 MB/s at 12:05 and 463-523 MB/s at 14:25 the same day (2026-12-07), and
 * a file case's fsync() waits for its writeback at whatever rate the disk
 * has during that minute: a rate measured once for a matrix of 48 cases
 * taken over 20 minutes told the simulator the wrong disk for most of
 * them (docs/fidelity.md, "The disk's rate, run by run").  So each run
 * is preceded and followed by the same small baseline (three adjacent
 * runs' probes wrote at 324-559 MB/s: one probe alone is a rough
 * estimate), and compare simulates the case on the median of its runs'
 * rates.
 *
 * The probe, in a cgroup of its own (PROBE_LIMIT, removed before the
 * run's is made, or made after the run's is removed, so that none of
 * its counts are the run's) and in the
 * run's directory:
 *  - write: PROBE_BYTES in 4 KiB write() calls to a new file, then
 *    fsync(): 6.18 makes an order-0 folio of each call
 *    (write_begin_get_folio() sizes it by the call) as fileio's do.  The
 *    rate is the bytes over the time the writer spent off the CPU (its
 *    wall time less its user and system time, getrusage()): the wait
 *    for the writeback and the journal's commit and cache flush
 *    (ext4_sync_file() -> jbd2 with REQ_PREFLUSH | REQ_FUA), as
 *    tools/fidelity.sh measured it with dd conv=fsync before;
 *  - read: the clean file dropped from the page cache
 *    (POSIX_FADV_DONTNEED: mapping_try_invalidate() of a file of our
 *    own), as many host pages warmed as it will take (warm.c), and the
 *    file read in 1 MiB calls, as dd's stream reads: the bytes over the
 *    read's wall time (dd's own figure);
 *  - the file removed.
 * What stays on the host: nothing but the disk's blocks freed. */
#define _GNU_SOURCE
#include "native.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define PROBE_BYTES ((uint64_t)128 << 20)
#define PROBE_LIMIT ((uint64_t)512 << 20)
#define WRITE_CALL 4096
#define READ_CALL ((size_t)1 << 20)

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

static double cpu_secs(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

/* Write and fsync path's file: the bytes over the time off the CPU. */
static double probe_write(const char *path, char *buf)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	memset(buf, 0x5a, WRITE_CALL);
	double c0 = cpu_secs();
	uint64_t t0 = native_now_ns();
	bool ok = true;
	for (uint64_t off = 0; ok && off < PROBE_BYTES; off += WRITE_CALL)
		ok = write(fd, buf, WRITE_CALL) == WRITE_CALL;
	ok = ok && !fsync(fd);
	double off_cpu = secs(native_now_ns() - t0) - (cpu_secs() - c0);
	close(fd);
	return ok && off_cpu > 0 ? (double)PROBE_BYTES / off_cpu : -1;
}

/* The same file read cold: the bytes over the wall time. */
static double probe_read(const char *path, char *buf)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	bool ok = !posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	/* Readahead's large folios come from the 2 MiB blocks a virtio
	 * balloon reports to its host: warm as many first, as a run is
	 * (warm.c), or the read times the host's faults (measured: 654 MB/s
	 * cold, 1 800 warm, a minute apart). */
	nwarm_touch(PROBE_BYTES);
	uint64_t t0 = native_now_ns(), got = 0;
	ssize_t n;
	while (ok && (n = read(fd, buf, READ_CALL)) > 0)
		got += (uint64_t)n;
	double wall = secs(native_now_ns() - t0);
	close(fd);
	return ok && got == PROBE_BYTES && wall > 0 ? (double)PROBE_BYTES / wall : -1;
}

static _Noreturn void child(const struct nguard *g, int out, pid_t parent)
{
	nguard_in_child();
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	double r[2] = { -1, -1 };
	char err[128], path[320];
	char *buf = malloc(READ_CALL);
	snprintf(path, sizeof(path), "%s/diskprobe", g->dir);
	if (buf && ncg_join(&g->cg, err, sizeof(err))) {
		r[0] = probe_write(path, buf);
		if (r[0] > 0)
			r[1] = probe_read(path, buf);
	}
	unlink(path);
	free(buf);
	_exit(write(out, r, sizeof(r)) == sizeof(r) ? 0 : 1);
}

bool ndisk_probe(struct nguard *g, struct ndisk_rates *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	if (!ncg_create(&g->cg, PROBE_LIMIT, err, errlen))
		return false;
	int fd;
	pid_t parent = getpid(), pid = native_fork_piped(&fd);
	if (!pid)
		child(g, fd, parent);
	double r[2] = { -1, -1 };
	bool got = read(fd, r, sizeof(r)) == sizeof(r);
	close(fd);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	ncg_remove(&g->cg);
	if (got && r[0] > 0 && r[1] > 0) {
		*out = (struct ndisk_rates){ .bytes = PROBE_BYTES, .write_bps = r[0], .read_bps = r[1] };
		return true;
	}
	snprintf(err, errlen, "kernel: the disk probe (%llu MiB written, fsync()ed and read in %s) failed",
		 (unsigned long long)(PROBE_BYTES >> 20), g->dir);
	return false;
}
