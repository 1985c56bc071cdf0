/* sim.c - see sim.h. */
#include "sim.h"
#include "test.h"
#include "../src/lib/util.h"
#include "../src/trace/trace.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t sim_trace_faults(const char *policy, const uint64_t *pages, uint64_t n, uint64_t frames, int write)
{
	/* Write the references as a text trace and replay it through the
	 * trace workload, exactly as the CLI does. */
	char path[] = "/tmp/pagelab-test-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		panic("mkstemp");
	FILE *f = fdopen(fd, "w");
	for (uint64_t i = 0; i < n; i++)
		fprintf(f, "%llu %c\n", (unsigned long long)pages[i], write ? 'w' : 'r');
	fclose(f);
	const struct profile *p = profile_find("ideal");
	struct profile prof = *p;
	prof.ram = frames * PAGE_SIZE;
	struct machine_opts mo = { .seed = 1, .check = true };
	struct machine m;
	char err[256];
	if (!machine_init(&m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	const struct workload_ops *wo = workload_find("trace");
	char name0[] = "trace";
	char *argv[] = { name0, path, NULL };
	void *w = wo->create(2, argv, 1, err, sizeof(err));
	if (!w)
		panic("%s", err);
	const struct policy_ops *pol = policy_find(policy);
	const uint64_t *nu;
	uint64_t nn;
	wo->oracle(w, &nu, &nn);
	mm_set_oracle(&m.mm, nu, nn);
	machine_set_policy(&m, pol, NULL);
	machine_add_workload(&m, wo, w, "trace");
	machine_run(&m);
	CHECK(!m.check_failed);
	uint64_t faults = m.mm.ev[PGFAULT];
	machine_free(&m);
	unlink(path);
	return faults;
}
