/* test_timeline.c - run --html's timeline samples (machine.h,
 * opt.timeline_ns): taken at their own interval without touching the
 * vmstat samples, bounded by TIMELINE_KEEP however long the run, and read
 * back through machine_timeline_rewind(). */
#include "test.h"
#include "sim.h"
#include "../src/lib/util.h"
#include "../src/machine/profile.h"
#include "../src/policy/policy.h"
#include "../src/workload/workload.h"

#include <stdlib.h>
#include <string.h>

/* usemem -m 24 -r 6 on a 16 MB vmm-2008: vmstat every 0.5 s, timeline
 * samples every timeline_ns (0: none).  *vm gets the vmstat samples. */
static struct machine *timeline_run(struct machine *m, uint64_t timeline_ns, struct vmstat_sample **vm, uint64_t *nvm)
{
	struct profile prof = *profile_find("vmm-2008");
	prof.ram = 16ULL << 20;
	prof.swap = 64ULL << 20;
	struct machine_opts mo = { .seed = 1, .vmstat_ns = 500000000ULL, .max_time_ns = 30000000000ULL,
				   .timeline_ns = timeline_ns };
	char err[256];
	if (!machine_init(m, &prof, &mo, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		test_failures++;
		return NULL;
	}
	machine_set_policy(m, policy_find("clock"), NULL);
	void *w = wl_make("usemem -m 24 -r 6", NULL);
	machine_add_workload(m, workload_find("usemem"), w, "usemem -m 24 -r 6");
	machine_run(m);
	*vm = xcalloc(m->nr_samples + 1, sizeof(**vm));
	struct sample_iter it;
	machine_samples_rewind(m, &it);
	for (*nvm = 0; machine_sample_next(&it, &(*vm)[*nvm]);)
		(*nvm)++;
	return m;
}

void test_timeline_own_interval(void)
{
	struct machine a, b;
	struct vmstat_sample *va = NULL, *vb = NULL;
	uint64_t na = 0, nb = 0;
	if (!timeline_run(&a, 0, &va, &na) || !timeline_run(&b, 1000000, &vb, &nb))
		return;
	/* The vmstat samples (the printed lines) are those of the run
	 * without timeline samples, and so is the run. */
	CHECK(na > 2);
	CHECK_EQ(na, nb);
	CHECK(na == nb && !memcmp(va, vb, na * sizeof(*va)));
	CHECK_EQ(a.now, b.now);
	CHECK_EQ(a.nr_timeline, 0);
	/* The run is long enough (> TIMELINE_KEEP ms) for the timeline to
	 * have halved at least once: at most TIMELINE_KEEP samples, over half
	 * of them, evenly spaced at the final interval, to the run's end. */
	CHECK(b.timeline_ns > 1000000);
	CHECK(b.nr_timeline <= TIMELINE_KEEP && b.nr_timeline > TIMELINE_KEEP / 2);
	struct sample_iter it;
	struct vmstat_sample s;
	uint64_t n, every, k = 0, prev = 0, uneven = 0;
	machine_timeline_rewind(&b, &it, &n, &every);
	CHECK_EQ(n, b.nr_timeline);
	CHECK_EQ(every, b.timeline_ns);
	while (machine_sample_next(&it, &s)) {
		uneven += k && s.t - prev != every;
		prev = s.t;
		k++;
	}
	CHECK_EQ(k, n);
	CHECK_EQ(uneven, 0);
	CHECK(prev + every > b.now && prev <= b.now);
	/* Without a timeline series, the timelines are the vmstat samples. */
	machine_timeline_rewind(&a, &it, &n, &every);
	CHECK_EQ(n, na);
	CHECK_EQ(every, 500000000ULL);
	free(va);
	free(vb);
	machine_free(&a);
	machine_free(&b);
}
