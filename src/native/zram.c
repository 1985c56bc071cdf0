/* zram.c - a zram device of our own as the run's swap (`--swap
 * zram:SIZE[,algo=NAME]`), made and unmade the way
 * Documentation/admin-guide/blockdev/zram.rst (Linux 6.18) says: read
 * /sys/class/zram-control/hot_add for a new device N, write its
 * comp_algorithm (before disksize: comp_algorithm_store() refuses once
 * the device is initialised) and disksize, write a swap header, swapon;
 * on the way out swapoff, write 1 to reset (zram_reset_device()) and N
 * to hot_remove.  The header is written here (union swap_header of
 * include/linux/swap.h: version 1, last_page, magic SWAPSPACE2, read by
 * the kernel's read_swap_header()) with the volume label pagelab.PID, so
 * a device of a killed run is recognised by what it holds: its number is
 * also noted in the lock file (guard.c), and the next run removes a
 * device whose label names a dead pid.  mm_stat and io_stat
 * (zram_drv.c's mm_stat_show(), io_stat_show()) are polled while the run
 * goes: its tasks' exits free their swap slots (notify_free), so at the
 * end the device holds little more than its header; the report keeps the
 * mm_stat of the poll that found the most pages stored, with the kernel's
 * own running figures (mem_used_max, pages_compacted, huge_pages_since)
 * and io_stat from the end. */
#define _GNU_SOURCE
#include "native.h"
#include "../lib/util.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/swap.h>
#include <unistd.h>

#define ZRAM_CONTROL "/sys/class/zram-control"
#define SWAP_PRIO 32767          /* as the swapfile's (swapfile.c) */
#define HDR_PAGE 4096
#define HDR_VERSION 1024         /* bootbits[1024], then the info block */
#define HDR_LAST_PAGE 1028
#define HDR_LABEL 1052           /* after nr_badpages and sws_uuid[16] */
#define LABEL_LEN 16

/* A writeback option of the simulator's (backing=, wb=, wb_mode=,
 * wb_limit=, wb_age=) among opts? */
static bool wb_option(const char *opts)
{
	static const char *const keys[] = { "backing=", "wb=", "wb_mode=", "wb_limit=", "wb_age=" };
	for (const char *o = opts; *o; o += strcspn(o, ","), o += *o == ',')
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strncmp(o, keys[i], strlen(keys[i])))
				return true;
	return false;
}

/* Writeback on the host: zram has the backing_dev file (any device's
 * attributes are the same) only with CONFIG_ZRAM_WRITEBACK.  Without
 * it, or with it (the executor sets up no backing device), one line. */
static void wb_refusal(const char *spec, char *err, size_t errlen)
{
	glob_t g;
	bool have = !glob("/sys/block/zram*/backing_dev", 0, NULL, &g) && g.gl_pathc;
	if (have)
		globfree(&g);
	snprintf(err, errlen, "kernel: --swap %s: zram writeback is simulation-only (%s; docs/zram.md)", spec,
		 have ? "the executor sets up no backing device"
		      : "this kernel's zram has no backing_dev: CONFIG_ZRAM_WRITEBACK is not set");
}

int native_zram_parse(const char *spec, struct nzram_spec *z, char *err, size_t errlen)
{
	memset(z, 0, sizeof(*z));
	if (strncmp(spec, "zram:", 5))
		return 0;
	char size[32];
	const char *comma = strchr(spec + 5, ',');
	size_t n = comma ? (size_t)(comma - spec - 5) : strlen(spec + 5);
	if (n >= sizeof(size)) {
		snprintf(err, errlen, "--swap %s: want zram:SIZE[,algo=NAME]", spec);
		return -1;
	}
	memcpy(size, spec + 5, n);
	size[n] = 0;
	if (!parse_size(size, &z->size) || z->size < (1ULL << 20) || z->size > (1ULL << 50)) {
		snprintf(err, errlen, "--swap %s: a zram device of 1 MiB or more, as zram:512M", spec);
		return -1;
	}
	if (!comma)
		return 1;
	if (wb_option(comma + 1)) {
		wb_refusal(spec, err, errlen);
		return -1;
	}
	const char *a = comma + 1;
	size_t alen = strncmp(a, "algo=", 5) ? 0 : strlen(a += 5);
	if (!alen || alen >= sizeof(z->algo) || strspn(a, "abcdefghijklmnopqrstuvwxyz0123456789-_") != alen) {
		snprintf(err, errlen, "--swap %s: after the size only algo=NAME (lz4, lzo-rle, zstd, ...)", spec);
		return -1;
	}
	memcpy(z->algo, a, alen + 1);
	return 1;
}

bool nzram_available(char *err, size_t errlen)
{
	if (!access(ZRAM_CONTROL "/hot_add", R_OK))
		return true;
	snprintf(err, errlen, "kernel: --swap zram: needs the zram module (no " ZRAM_CONTROL "/hot_add)");
	return false;
}

/* The first line of a sysfs file, without its newline. */
static bool read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return n > 0;
}

static void dev_file(char *buf, size_t len, int dev, const char *file)
{
	snprintf(buf, len, "/sys/block/zram%d/%s", dev, file);
}

/* Is NAME one of the words of comp_algorithm ("[lzo-rle] lzo lz4")? */
static bool algo_listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; *p; p += strcspn(p, " ")) {
		p += strspn(p, " [");
		size_t w = strcspn(p, " ]");
		if (w == n && !strncmp(p, name, n))
			return true;
		p += w + (p[w] == ']');
	}
	return false;
}

/* The chosen algorithm of a comp_algorithm line: the word in brackets. */
static void algo_chosen(const char *list, char *out, size_t len)
{
	const char *o = strchr(list, '[');
	size_t n = o ? strcspn(o + 1, "]") : 0;
	snprintf(out, len, "%.*s", (int)n, o ? o + 1 : "");
}

/* The swap header of a device of SIZE bytes, labelled pagelab.PID. */
static bool write_header(int dev, uint64_t size)
{
	unsigned char page[HDR_PAGE] = { 0 };
	uint32_t version = 1, last = (uint32_t)(size / HDR_PAGE - 1);
	memcpy(page + HDR_VERSION, &version, 4);
	memcpy(page + HDR_LAST_PAGE, &last, 4);
	snprintf((char *)page + HDR_LABEL, LABEL_LEN, "pagelab.%d", (int)getpid());
	memcpy(page + HDR_PAGE - 10, "SWAPSPACE2", 10);
	char path[64];
	snprintf(path, sizeof(path), "/dev/zram%d", dev);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool ok = pwrite(fd, page, sizeof(page), 0) == (ssize_t)sizeof(page) && !fsync(fd);
	close(fd);
	return ok;
}

/* The pid in a device's swap header label (pagelab.PID); 0 if none. */
static long header_pid(int dev)
{
	char path[64], page[HDR_PAGE];
	snprintf(path, sizeof(path), "/dev/zram%d", dev);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = pread(fd, page, sizeof(page), 0);
	close(fd);
	if (n != (ssize_t)sizeof(page) || memcmp(page + HDR_PAGE - 10, "SWAPSPACE2", 10) ||
	    strncmp(page + HDR_LABEL, "pagelab.", 8))
		return 0;
	page[HDR_LABEL + LABEL_LEN - 1] = 0;
	return strtol(page + HDR_LABEL + 8, NULL, 10);
}

/* Algorithm (checked against the device's list) and size, then the
 * header: false with one line in err. */
static bool configure(int dev, const struct nzram_spec *z, char *err, size_t errlen)
{
	char p[96], list[256] = "", num[32];
	dev_file(p, sizeof(p), dev, "comp_algorithm");
	read_line(p, list, sizeof(list));
	if (z->algo[0] && !algo_listed(list, z->algo)) {
		snprintf(err, errlen, "kernel: --swap zram: no algorithm '%s' in this kernel's zram (%.*s)", z->algo,
			 (int)strcspn(list, "\n") - (list[0] && list[strlen(list) - 1] == ' '), list);
		return false;
	}
	if (z->algo[0] && !native_write_text(p, z->algo)) {
		snprintf(err, errlen, "kernel: cannot set zram%d's algorithm %s: %s", dev, z->algo, strerror(errno));
		return false;
	}
	dev_file(p, sizeof(p), dev, "disksize");
	snprintf(num, sizeof(num), "%llu", (unsigned long long)z->size);
	if (!native_write_text(p, num)) {
		snprintf(err, errlen, "kernel: cannot give zram%d %s bytes: %s", dev, num, strerror(errno));
		return false;
	}
	if (!write_header(dev, z->size)) {
		snprintf(err, errlen, "kernel: cannot write a swap header on /dev/zram%d: %s", dev, strerror(errno));
		return false;
	}
	return true;
}

bool nzram_on(struct nguard *g, const struct nzram_spec *z, char *err, size_t errlen)
{
	char other[320];
	/* The kernel has no swap device per cgroup: ours at the top would
	 * take another area's users' swap-outs, below it the run's. */
	if (nswap_other_active(other, sizeof(other))) {
		snprintf(err, errlen, "kernel: --swap zram: %s is an active swap area of someone else's; "
			 "the run's device would share the host's swap with it", other);
		return false;
	}
	char buf[32];
	if (!read_line(ZRAM_CONTROL "/hot_add", buf, sizeof(buf))) {
		snprintf(err, errlen, "kernel: cannot add a zram device (" ZRAM_CONTROL "/hot_add): %s",
			 strerror(errno));
		return false;
	}
	g->zram_dev = atoi(buf);
	g->zram_made = true;
	nguard_note_zram(g);
	if (!configure(g->zram_dev, z, err, errlen))
		return false;
	snprintf(g->zram_path, sizeof(g->zram_path), "/dev/zram%d", g->zram_dev);
	if (swapon(g->zram_path, SWAP_FLAG_PREFER | (SWAP_PRIO << SWAP_FLAG_PRIO_SHIFT))) {
		snprintf(err, errlen, "kernel: swapon %s: %s", g->zram_path, strerror(errno));
		return false;
	}
	return true;
}

void nzram_off(int dev)
{
	char path[64], p[96], num[16];
	snprintf(path, sizeof(path), "/dev/zram%d", dev);
	/* swapoff reads every page back in: retry on EINTR only. */
	if (nswap_active(path))
		while (swapoff(path) && errno == EINTR)
			;
	dev_file(p, sizeof(p), dev, "reset");
	if (!native_write_text(p, "1") && errno != ENOENT)
		fprintf(stderr, "pagelab: kernel: cannot reset zram%d: %s\n", dev, strerror(errno));
	snprintf(num, sizeof(num), "%d", dev);
	if (!native_write_text(ZRAM_CONTROL "/hot_remove", num) && errno != ENODEV && errno != ENOENT)
		fprintf(stderr, "pagelab: kernel: cannot remove zram%d: %s\n", dev, strerror(errno));
}

/* Device dev carries the label of a pid that is dead (not ours). */
static bool stale(int dev)
{
	long pid = header_pid(dev);
	return pid > 0 && pid != getpid() && kill((pid_t)pid, 0) && errno == ESRCH;
}

void nzram_sweep_stale(int recorded)
{
	char paths[64][320];
	int n = nswap_list(paths, 64);
	for (int i = -1; i < n; i++) {
		int dev = recorded;
		if (i >= 0 && sscanf(paths[i], "/dev/zram%d", &dev) != 1)
			continue;
		if (dev < 0 || !stale(dev))
			continue;
		fprintf(stderr, "pagelab: kernel: removing /dev/zram%d, left by a killed run\n", dev);
		nzram_off(dev);
		if (dev == recorded)
			recorded = -1;
	}
}

static void nzram_read(int dev, struct nzram_stats *s)
{
	static const char *const mm[] = { "orig_data_size", "compr_data_size", "mem_used_total", "mem_limit",
					  "mem_used_max", "same_pages", "pages_compacted", "huge_pages",
					  "huge_pages_since" };
	static const char *const io[] = { "failed_reads", "failed_writes", "invalid_io", "notify_free" };
	char p[96], line[512], text[2048] = "";
	dev_file(p, sizeof(p), dev, "comp_algorithm");
	read_line(p, line, sizeof(line));
	algo_chosen(line, s->algo, sizeof(s->algo));
	dev_file(p, sizeof(p), dev, "disksize");
	s->disksize = read_line(p, line, sizeof(line)) ? strtoull(line, NULL, 10) : 0;
	for (int f = 0; f < 2; f++) {
		dev_file(p, sizeof(p), dev, f ? "io_stat" : "mm_stat");
		if (!read_line(p, line, sizeof(line)))
			continue;
		const char *const *names = f ? io : mm;
		int max = f ? 4 : 9;
		char *c = line;
		for (int k = 0; k < max; k++) {
			char *end;
			long long v = strtoll(c, &end, 10);
			if (end == c)
				break;
			snprintf(text + strlen(text), sizeof(text) - strlen(text), "%s.%s %lld\n",
				 f ? "io_stat" : "mm_stat", names[k], v);
			c = end;
		}
	}
	nstat_parse(&s->stat, text);
}

/* Pages the device holds, compressed or same-filled: orig_data_size is
 * pages_stored, which counts both (measured: 9 041 same_pages in 9 054
 * pages of orig_data_size, usemem's memset pages). */
static int64_t stored(const struct nzram_stats *s)
{
	return nstat_get(&s->stat, "mm_stat.orig_data_size") / 4096;
}

void nzram_poll(int dev, struct nzram_stats *peak)
{
	struct nzram_stats now;
	memset(&now, 0, sizeof(now));
	nzram_read(dev, &now);
	if (!peak->stat.n || stored(&now) > stored(peak)) {
		nstat_free(&peak->stat);
		*peak = now;
	} else {
		nstat_free(&now.stat);
	}
}

void nzram_finish(int dev, struct nzram_stats *s)
{
	/* Counted over the device's life: the end's figure is the run's. */
	static const char *const running[] = { "mm_stat.mem_used_max", "mm_stat.pages_compacted",
					       "mm_stat.huge_pages_since", "io_stat.failed_reads",
					       "io_stat.failed_writes", "io_stat.invalid_io", "io_stat.notify_free" };
	nzram_poll(dev, s);
	struct nzram_stats end;
	memset(&end, 0, sizeof(end));
	nzram_read(dev, &end);
	for (int i = 0; i < s->stat.n; i++)
		for (size_t k = 0; k < sizeof(running) / sizeof(running[0]); k++)
			if (!strcmp(s->stat.name[i], running[k]))
				s->stat.val[i] = nstat_get(&end.stat, running[k]);
	nstat_free(&end.stat);
}
