/* report_target.c - fuzz_report_one() (targets.h): pagelab compare's
 * kernel and simulator reports as it reads them back from a cache
 * directory, which is input like any file the user names. */
#include "targets.h"
#include "../../src/cli/compare_run.h"

#include <stdio.h>
#include <string.h>

bool fuzz_report_one(const uint8_t *data, size_t size)
{
	FILE *f = tmpfile();
	if (!f)
		return true;
	if (size && fwrite(data, 1, size, f) != size) {
		fclose(f);
		return true;
	}
	rewind(f);
	bool ok = true;
	struct counters c;
	counters_parse(&c, f, true);
	for (int i = 0; i < c.n; i++)
		ok &= c.name[i][0] != 0 && memchr(c.name[i], 0, sizeof(c.name[i])) != NULL;
	counters_free(&c);
	rewind(f);
	double user = -1, sys = -1;
	if (report_cpu_times(f, &user, &sys))
		ok &= user >= 0 && user <= 1e9 && sys >= 0 && sys <= 1e9;
	fclose(f);
	return ok;
}
