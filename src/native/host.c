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
 * reads slot clusters (mm/swap_state.c, vm.swap_rotational). */
#include "native.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

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

static int read_flag(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int c = fgetc(f);
	fclose(f);
	return c == '1' ? 1 : c == '0' ? 0 : -1;
}

bool nhost_dev_rotational(const char *sysfs, unsigned maj, unsigned min)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/dev/block/%u:%u/queue/rotational", sysfs, maj, min);
	int r = read_flag(p);
	if (r < 0) { /* a partition: its disk is the directory above */
		snprintf(p, sizeof(p), "%s/dev/block/%u:%u/../queue/rotational", sysfs, maj, min);
		r = read_flag(p);
	}
	return r == 1;
}

bool nhost_swap_rotational(void)
{
	struct stat st;
	return stat(NATIVE_TMP_ROOT, &st) == 0 && nhost_dev_rotational("/sys", major(st.st_dev), minor(st.st_dev));
}
