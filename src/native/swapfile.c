/* swapfile.c - a swapfile of our own, made the way swapon(8) documents:
 * fallocate, chmod 600, mkswap, swapon(2) with a priority above any other
 * swap area (32767, SWAP_FLAG_PREFER), so the workload's swap-outs go to
 * it and its size bounds them.  The file lives in the run's temporary
 * directory, whose name carries our pid; a later run swaps off and deletes
 * the swapfile of a run that was killed (SIGKILL cannot be trapped). */
#define _GNU_SOURCE
#include "native.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/swap.h>
#include <sys/wait.h>
#include <unistd.h>

#define SWAP_PRIO 32767

static void copy_path(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);
	memcpy(dst, src, n);
	dst[n] = 0;
}

int nswap_list(char paths[][320], int max)
{
	FILE *f = fopen("/proc/swaps", "re");
	if (!f)
		return 0;
	char line[1024];
	int n = 0;
	if (!fgets(line, sizeof(line), f)) { /* header */
		fclose(f);
		return 0;
	}
	while (n < max && fgets(line, sizeof(line), f)) {
		char *sp = strpbrk(line, " \t");
		if (sp)
			*sp = 0;
		copy_path(paths[n++], 320, line);
	}
	fclose(f);
	return n;
}

bool nswap_active(const char *path)
{
	char paths[64][320];
	int n = nswap_list(paths, 64);
	for (int i = 0; i < n; i++)
		if (!strcmp(paths[i], path))
			return true;
	return false;
}

bool nswap_other_active(char *path, size_t len)
{
	char paths[64][320];
	int n = nswap_list(paths, 64);
	for (int i = 0; i < n; i++)
		if (!strstr(paths[i], "/pagelab-kernel.") && strncmp(paths[i], "/dev/zram", 9)) {
			copy_path(path, len, paths[i]);
			return true;
		}
	return false;
}

static bool run_mkswap(const char *path)
{
	pid_t pid = fork();
	if (pid < 0)
		return false;
	if (!pid) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execl("/sbin/mkswap", "mkswap", path, (char *)NULL);
		execlp("mkswap", "mkswap", path, (char *)NULL);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

bool nswap_on(const char *path, uint64_t size, char *err, size_t errlen)
{
	if (nswap_active(path)) {
		snprintf(err, errlen, "kernel: %s is already an active swap area", path);
		return false;
	}
	char dir[320];
	copy_path(dir, sizeof(dir), path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	struct statvfs vfs;
	/* Keep 1 GiB free beside the swapfile for everyone else. */
	if (!statvfs(dir, &vfs) && (uint64_t)vfs.f_bavail * vfs.f_frsize < size + (1ULL << 30)) {
		snprintf(err, errlen, "kernel: no room for a %llu MiB swapfile in %s (%llu MiB free)",
			 (unsigned long long)(size >> 20), dir,
			 (unsigned long long)((uint64_t)vfs.f_bavail * vfs.f_frsize >> 20));
		return false;
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(err, errlen, "kernel: cannot create %s: %s", path, strerror(errno));
		return false;
	}
	int rc = fallocate(fd, 0, 0, (off_t)size);
	int e = errno;
	fchmod(fd, 0600);
	close(fd);
	if (rc) {
		snprintf(err, errlen, "kernel: cannot allocate a %llu MiB swapfile in %s: %s",
			 (unsigned long long)(size >> 20), dir, strerror(e));
		unlink(path);
		return false;
	}
	if (!run_mkswap(path)) {
		snprintf(err, errlen, "kernel: mkswap %s failed (is util-linux installed?)", path);
		unlink(path);
		return false;
	}
	if (swapon(path, SWAP_FLAG_PREFER | (SWAP_PRIO << SWAP_FLAG_PRIO_SHIFT))) {
		e = errno;
		snprintf(err, errlen, "kernel: the filesystem of %s cannot hold a swapfile (swapon: %s)",
			 dir, strerror(e));
		unlink(path);
		return false;
	}
	return true;
}

void nswap_off(const char *path)
{
	if (!path[0])
		return;
	/* swapoff pulls every swapped page back in: it can take a while and
	 * is interrupted by nothing we send, so retry on EINTR only. */
	if (nswap_active(path))
		while (swapoff(path) && errno == EINTR)
			;
	unlink(path);
}

void nswap_sweep_stale(void)
{
	char paths[64][320];
	int n = nswap_list(paths, 64);
	for (int i = 0; i < n; i++) {
		const char *p = strstr(paths[i], "/pagelab-kernel.");
		if (!p)
			continue;
		long pid = strtol(p + strlen("/pagelab-kernel."), NULL, 10);
		if (pid <= 0 || pid == getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		fprintf(stderr, "pagelab: kernel: swapping off %s, left by a killed run\n", paths[i]);
		nswap_off(paths[i]);
		char dir[320];
		copy_path(dir, sizeof(dir), paths[i]);
		char *slash = strrchr(dir, '/');
		if (slash) {
			*slash = 0;
			native_remove_tree(dir);
		}
	}
}
