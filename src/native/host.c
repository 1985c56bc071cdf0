/* host.c - which kernel the host runs (native.h).
 *
 * `pagelab compare` simulates the host's kernel as the host runs it: a
 * cgroup of the host's version (memcg.v1) and, since 6.6, the EEVDF fair
 * class (sched_eevdf: 6.6 replaced CFS's pick, "sched/fair: Implement an
 * EEVDF-like scheduling policy").  So it needs the release's version,
 * read from uname(2).  And whether the swapfile's device is rotational:
 * swapon() leaves SWP_SOLIDSTATE clear for a swap area on a device whose
 * queue/rotational is 1 and counts it in nr_rotate_swap, and while that
 * count is not 0 swap_use_vma_readahead() is false and every swap fault
 * reads slot clusters (mm/swap_state.c, vm.swap_rotational).  And the
 * device's read_ahead_kb, the largest readahead window of a file on it
 * (bdi->ra_pages, vm.ra_pages): a virtual disk may set megabytes.
 * And the writeback sysctls, where the host's differ from the kernel's
 * defaults: the simulator's flusher and dirty throttling
 * (src/mm/writeback.c, memcg_dirty.c) then start where the host's do.
 * And, for pagelab kernel itself, whether the host is a guest whose free
 * pages its hypervisor takes back (session.c's warm-up). */
#include "native.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

bool nhost_release_at_least(const char *release, int major, int minor)
{
	char *end;
	long maj = strtol(release, &end, 10);
	if (end == release || maj < 0)
		return false;
	long min = 0;
	if (*end == '.') {
		const char *m = end + 1;
		min = strtol(m, &end, 10);
		if (end == m || min < 0)
			return false;
	}
	return maj > major || (maj == major && min >= minor);
}

bool nhost_kernel_at_least(int major, int minor)
{
	struct utsname u;
	return uname(&u) == 0 && nhost_release_at_least(u.release, major, minor);
}

/* A sysfs file holding one non-negative number; -1 if unreadable. */
static long read_number(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	long v = -1;
	if (fscanf(f, "%ld", &v) != 1 || v < 0)
		v = -1;
	fclose(f);
	return v;
}

/* The block device's queue/NAME, or its disk's for a partition (whose
 * disk is the directory above). */
static long read_queue(const char *sysfs, unsigned maj, unsigned min, const char *name)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/dev/block/%u:%u/queue/%s", sysfs, maj, min, name);
	long v = read_number(p);
	if (v < 0) {
		snprintf(p, sizeof(p), "%s/dev/block/%u:%u/../queue/%s", sysfs, maj, min, name);
		v = read_number(p);
	}
	return v;
}

bool nhost_dev_rotational(const char *sysfs, unsigned maj, unsigned min)
{
	return read_queue(sysfs, maj, min, "rotational") == 1;
}

long nhost_dev_read_ahead_kb(const char *sysfs, unsigned maj, unsigned min)
{
	return read_queue(sysfs, maj, min, "read_ahead_kb");
}

bool nhost_swap_rotational(void)
{
	struct stat st;
	return stat(NATIVE_TMP_ROOT, &st) == 0 && nhost_dev_rotational("/sys", major(st.st_dev), minor(st.st_dev));
}

long nhost_read_ahead_kb(void)
{
	struct stat st;
	if (stat(NATIVE_TMP_ROOT, &st) != 0)
		return -1;
	return nhost_dev_read_ahead_kb("/sys", major(st.st_dev), minor(st.st_dev));
}

/* Free page reporting: a virtio balloon that offers the host the guest's
 * free pages (VIRTIO_BALLOON_F_REPORTING, feature bit 5 of the device's
 * sysfs features string, '1' where the driver accepted it). */
bool nhost_dev_page_reporting(const char *sysfs)
{
	char path[512];
	for (int d = 0; d < 64; d++) {
		snprintf(path, sizeof(path), "%s/bus/virtio/drivers/virtio_balloon/virtio%d/features", sysfs, d);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		char bits[16] = "";
		bool on = fgets(bits, sizeof(bits), f) && strlen(bits) > 5 && bits[5] == '1';
		fclose(f);
		if (on)
			return true;
	}
	return false;
}

bool nhost_page_reporting(void) { return nhost_dev_page_reporting("/sys"); }

/* mm/page-writeback.c of 6.x: vm_dirty_ratio, dirty_background_ratio,
 * vm_dirty_bytes, dirty_background_bytes, dirty_writeback_interval and
 * dirty_expire_interval (the last two in centiseconds). */
static const struct {
	const char *name;
	unsigned long long def;
} dirty_vm[NHOST_DIRTY_SETTINGS] = {
	{ "dirty_ratio", 20 },          { "dirty_background_ratio", 10 },
	{ "dirty_bytes", 0 },           { "dirty_background_bytes", 0 },
	{ "dirty_writeback_centisecs", 500 }, { "dirty_expire_centisecs", 3000 },
};

const char *nhost_dirty_name(int i) { return dirty_vm[i].name; }

unsigned long long nhost_dirty_default(int i) { return dirty_vm[i].def; }

/* PROCSYS/vm/NAME of sysctl I; -1 unreadable. */
static long long dirty_value(const char *procsys, int i)
{
	char path[512];
	unsigned long long v;
	snprintf(path, sizeof(path), "%s/vm/%s", procsys, dirty_vm[i].name);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int got = fscanf(f, "%llu", &v);
	fclose(f);
	return got == 1 && v <= (unsigned long long)LLONG_MAX ? (long long)v : -1;
}

int nhost_dirty_settings(const char *procsys, char out[NHOST_DIRTY_SETTINGS][64])
{
	int n = 0;
	for (int i = 0; i < NHOST_DIRTY_SETTINGS; i++) {
		long long v = dirty_value(procsys, i);
		if (v >= 0 && (unsigned long long)v != dirty_vm[i].def)
			snprintf(out[n++], 64, "vm.%s=%lld", dirty_vm[i].name, v);
	}
	return n;
}

/* global_dirtyable_memory() (mm/page-writeback.c, 6.18): the free pages
 * and the file LRUs, from PROCSYS/../meminfo, in KiB (totalreserve_pages,
 * which it takes from the free pages, is not in meminfo: a few hundredths
 * of a percent here); -1 unreadable.  Why: a cgroup v1 memcg has no dirty
 * domain of its own (cgroup writeback is v2's), so its writers throttle
 * and its flusher starts at the ratios of this, the host's memory, not of
 * the cgroup's. */
long long nhost_meminfo_kb(const char *procsys, const char *field)
{
	char path[512], line[256];
	snprintf(path, sizeof(path), "%s/../meminfo", procsys);
	FILE *f = fopen(path, "r");
	long long v = -1;
	size_t n = strlen(field);
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n) && line[n] == ':') {
			if (sscanf(line + n + 1, "%lld", &v) != 1)
				v = -1;
			break;
		}
	if (f)
		fclose(f);
	return v;
}

static long long dirtyable_kb(const char *procsys)
{
	long long fr = nhost_meminfo_kb(procsys, "MemFree"), af = nhost_meminfo_kb(procsys, "Active(file)"),
		  inf = nhost_meminfo_kb(procsys, "Inactive(file)");
	return fr < 0 || af < 0 || inf < 0 ? -1 : fr + af + inf;
}

void nhost_settings_read(struct nhost_settings *h, const char *procsys)
{
	struct utsname u;
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	h->cpus = n > 0 ? n : -1;
	snprintf(h->release, sizeof(h->release), "%s", uname(&u) == 0 ? u.release : "");
	struct stat st;
	bool have = stat(NATIVE_TMP_ROOT, &st) == 0;
	/* -1 where the queue cannot be read (a chroot without /sys): a
	 * record must not claim a disk that is not rotational */
	long rot = have ? read_queue("/sys", major(st.st_dev), minor(st.st_dev), "rotational") : -1;
	h->swap_rotational = rot < 0 ? -1 : rot == 1;
	h->read_ahead_kb = nhost_read_ahead_kb();
	for (int i = 0; i < NHOST_DIRTY_SETTINGS; i++)
		h->dirty[i] = dirty_value(procsys, i);
	h->dirtyable_kb = dirtyable_kb(procsys);
}
