/* host.c - which kernel the host runs (native.h).
 *
 * `pagelab compare` simulates the host's kernel as the host runs it: a
 * cgroup of the host's version (memcg.v1) and, since 6.6, the EEVDF fair
 * class (sched_eevdf: 6.6 replaced CFS's pick, "sched/fair: Implement an
 * EEVDF-like scheduling policy").  So it needs the release's version,
 * read from uname(2). */
#include "native.h"

#include <stdlib.h>
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
