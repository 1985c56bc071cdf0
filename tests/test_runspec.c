/* test_runspec.c - the run spec (src/engine/runspec.c): the rules a
 * run, a sweep cell and a libpagelab handle share. */
#include "test.h"
#include "../include/pagelab.h"
#include "../src/engine/cell.h"
#include "../src/engine/runspec.h"
#include "../src/policy/policy.h"

#include <stdlib.h>
#include <string.h>

void test_runspec_memcg_ram_rule(void);
void test_runspec_set_resolver(void);
void test_runspec_seed_and_cache_only(void);
void test_runspec_api_memcg_is_the_cell_run(void);

#define MB (1ULL << 20)

/* Without a RAM of the user's, a cgroup of L gets at least L*5/4 + 64M;
 * with one, or a larger profile RAM, the RAM stays. */
void test_runspec_memcg_ram_rule(void)
{
	struct profile p = { .ram = 32 * MB };
	struct machine_opts mo = { 0 };
	runspec_set_memcg(&p, &mo, 64 * MB, false);
	CHECK_EQ(p.ram, 144 * MB);
	CHECK_EQ(mo.memcg_pages, 64 * MB / PAGE_SIZE);
	p.ram = 32 * MB;
	runspec_set_memcg(&p, &mo, 64 * MB, true);
	CHECK_EQ(p.ram, 32 * MB);
	p.ram = 900 * MB;
	runspec_set_memcg(&p, &mo, 64 * MB, false);
	CHECK_EQ(p.ram, 900 * MB);
	runspec_set_memcg(&p, &mo, 0, false);
	CHECK_EQ(mo.memcg_pages, 0);
	CHECK_EQ(p.ram, 900 * MB);
}

static enum runspec_set_kind set(struct machine_opts *mo, double *tun, const char *name, const char *value,
				 char *err)
{
	struct profile p = *profile_find("vmm-2008");
	return runspec_set(&p, mo, policy_find("linux6"), tun, name, value, err, 300);
}

/* One resolver for every --set: the cgroup keys, machine parameters and
 * tunables, each bad value refused with its line. */
void test_runspec_set_resolver(void)
{
	char err[300] = "";
	struct machine_opts mo = { 0 };
	double *tun = runspec_default_tunables(policy_find("linux6"));
	CHECK_EQ(set(&mo, tun, "memcg.v1", "1", err), RS_SET_BAD);
	CHECK(!strcmp(err, "--set memcg.v1 needs --memcg LIMIT"));
	CHECK_EQ(set(&mo, tun, "memcg", "60K", err), RS_SET_BAD);
	CHECK(!strcmp(err, "memcg 60K: a cgroup needs at least 16 pages"));
	CHECK_EQ(set(&mo, tun, "memcg", "64M", err), RS_SET_CGROUP);
	CHECK_EQ(mo.memcg_pages, 64 * MB / PAGE_SIZE);
	CHECK_EQ(set(&mo, tun, "memcg.v1", "2", err), RS_SET_BAD);
	CHECK_EQ(set(&mo, tun, "memcg.v1", "1", err), RS_SET_CGROUP);
	CHECK(mo.memcg_v1);
	CHECK_EQ(set(&mo, tun, "swap", "1G", err), RS_SET_MACHINE);
	CHECK_EQ(set(&mo, tun, "swappiness", "30", err), RS_SET_TUNABLE);
	CHECK_EQ(set(&mo, tun, "swappiness", "300", err), RS_SET_BAD);
	CHECK_EQ(set(&mo, tun, "nonesuch", "1", err), RS_SET_BAD);
	CHECK(!strcmp(err, "unknown parameter 'nonesuch': not a machine parameter nor a tunable of linux6"));
	free(tun);
}

void test_runspec_seed_and_cache_only(void)
{
	CHECK_EQ(runspec_seed(5, 2), 7);
	struct runspec_cache_q q = { .machine = "ideal", .pol = policy_find("lru"), .wl_name = "trace" };
	CHECK(runspec_cache_only(&q));
	q.machine_options = true;
	CHECK(!runspec_cache_only(&q));
	q.machine_options = false;
	q.wl_name = NULL;
	CHECK(!runspec_cache_only(&q));
	q.wl_name = "trace";
	q.machine = "vmm-2008";
	CHECK(!runspec_cache_only(&q));
}

static uint64_t api_pswpout(const char *memcg)
{
	static const char *const argv[] = { "usemem", "-m", "100" };
	pagelab_sim *s = pagelab_new("vmm-2008");
	uint64_t out = UINT64_MAX;
	CHECK(pagelab_set_policy(s, "linux6") == 0);
	if (memcg)
		CHECK(pagelab_set(s, "memcg", memcg) == 0);
	CHECK(pagelab_add_workload(s, 3, argv) == 0);
	CHECK_EQ(pagelab_run(s), 0);
	CHECK(pagelab_counter(s, "pswpout", &out) == 0);
	pagelab_free(s);
	return out;
}

/* pagelab_set(s, "memcg", ...) is pagelab run --memcg: a cell of the same
 * spec (as a sweep makes it) swaps out as much, and without the cgroup
 * the 900M machine swaps nothing. */
void test_runspec_api_memcg_is_the_cell_run(void)
{
	struct cell c = { .prof = *profile_find("vmm-2008"), .pol = policy_find("linux6"), .nr_wl = 1,
			  .wl = { "usemem -m 100" }, .residency_wl = -1 };
	double *tun = runspec_default_tunables(c.pol);
	c.tun = tun;
	c.mo = (struct machine_opts){ .seed = 1, .max_time_ns = 100000ULL * 1000000000ULL };
	runspec_set_memcg(&c.prof, &c.mo, 64 * MB, false);
	struct run_result rr = { 0 };
	cell_run(&c, &rr);
	CHECK(rr.available);
	uint64_t in_cgroup = api_pswpout("64M");
	CHECK(in_cgroup > 0);
	CHECK_EQ(in_cgroup, rr.ev[PSWPOUT]);
	CHECK_EQ(api_pswpout(NULL), 0);
	run_result_free(&rr);
	free(tun);
	pagelab_sim *s = pagelab_new("vmm-2008");
	CHECK(pagelab_set(s, "memcg", "1x") == -1);
	CHECK(!strcmp(pagelab_error(s), "bad size '1x' for memcg"));
	pagelab_free(s);
}
