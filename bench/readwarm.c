/* readwarm.c - what a buffered read of an uncached page costs in system
 * time on this host, and why (docs/fidelity.md, "The stream's read, page
 * by page").  `readwarm FILE [ROUNDS]` reads FILE (a few hundred MiB,
 * written and synced beforehand) with 1 MiB read()s, each round three
 * times from an empty page cache and once cached:
 *
 *   none    after 5 s idle: the memory freed meanwhile (the file's pages
 *           dropped by POSIX_FADV_DONTNEED) is reported to the host by
 *           the virtio balloon (free page reporting) and taken back;
 *   order-0 the same, then as much anonymous memory as the file touched
 *           and freed just before the read, MADV_NOHUGEPAGE (base pages,
 *           as `pagelab kernel`'s warm-up, src/native/session.c);
 *   THP     the same with MADV_HUGEPAGE: 2 MiB blocks, the order 6.18's
 *           readahead allocates its large folios from
 *           (page_cache_ra_order());
 *   cached  the file read again at once: the copy to user alone.
 *
 * Each figure is the process's system time (getrusage) per 4 KiB page
 * read.  Measures the host, so it is not run by any test. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (1 << 20)

static double sys_ns(void)
{
	struct rusage u;
	getrusage(RUSAGE_SELF, &u);
	return (double)u.ru_stime.tv_sec * 1e9 + (double)u.ru_stime.tv_usec * 1e3;
}

/* One pass of 1 MiB reads: system ns per page, or -1 on a read error. */
static double read_pass(const char *path)
{
	static char buf[CHUNK];
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	double t0 = sys_ns();
	long long n = 0;
	ssize_t r;
	while ((r = read(fd, buf, sizeof(buf))) > 0)
		n += r;
	double t = sys_ns() - t0;
	close(fd);
	return r < 0 || n < 4096 ? -1 : t / (double)(n / 4096);
}

static void drop_cache(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd >= 0) {
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		close(fd);
	}
}

/* Touch and free len bytes of anonymous memory; advice picks the page
 * size (MADV_NOHUGEPAGE or MADV_HUGEPAGE; THP "madvise" or "always"). */
static void warm_up(size_t len, int advice)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	madvise(p, len, advice);
	memset(p, 1, len);
	munmap(p, len);
}

int main(int argc, char **argv)
{
	struct stat st;
	char *end = NULL;
	long rounds = argc > 2 ? strtol(argv[2], &end, 10) : 2;
	if (argc < 2 || argc > 3 || (end && (*end || rounds < 1 || rounds > 100))) {
		fprintf(stderr, "usage: readwarm FILE [ROUNDS (1-100)]\n");
		return 2;
	}
	if (stat(argv[1], &st) || !S_ISREG(st.st_mode) || st.st_size < CHUNK) {
		fprintf(stderr, "readwarm: %s: not a regular file of 1 MiB or more\n", argv[1]);
		return 2;
	}
	size_t len = (size_t)st.st_size;
	static const char *name[] = { "none", "order-0", "THP" };
	printf("system ns per page read, %zu MiB, 5 s idle before each\n", len >> 20);
	printf("%-6s %10s %10s %10s %10s\n", "round", name[0], name[1], name[2], "cached");
	for (long r = 0; r < rounds; r++) {
		double ns[4];
		for (int k = 0; k < 3; k++) {
			drop_cache(argv[1]);
			sleep(5);
			if (k)
				warm_up(len, k == 1 ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
			ns[k] = read_pass(argv[1]);
		}
		ns[3] = read_pass(argv[1]);
		for (int k = 0; k < 4; k++)
			if (ns[k] < 0) {
				fprintf(stderr, "readwarm: %s: %s\n", argv[1], strerror(errno ? errno : EIO));
				return 1;
			}
		printf("%-6ld %10.0f %10.0f %10.0f %10.0f\n", r + 1, ns[0], ns[1], ns[2], ns[3]);
		fflush(stdout);
	}
	return 0;
}
