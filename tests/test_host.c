/* test_host.c - the kernel a run models: src/native/host.c (which
 * releases count as 6.6 or later, where pagelab compare runs the
 * simulator with EEVDF's order) and the profiles' schedulers. */
#include "test.h"
#include "../src/native/native.h"
#include "../src/machine/profile.h"

#include <string.h>

void test_host_release_at_least(void);

void test_host_release_at_least(void)
{
	CHECK(nhost_release_at_least("6.18.0-1-amd64", 6, 6));
	CHECK(nhost_release_at_least("6.6.0", 6, 6));
	CHECK(nhost_release_at_least("6.6", 6, 6));
	CHECK(!nhost_release_at_least("6.5.13-rt", 6, 6));
	CHECK(!nhost_release_at_least("5.19.0", 6, 6));
	CHECK(nhost_release_at_least("7.0.0", 6, 6));
	CHECK(nhost_release_at_least("10.1", 6, 6));
	/* 6.10 is later than 6.6: the minor is a number, not a digit string. */
	CHECK(nhost_release_at_least("6.10.2", 6, 6));
	CHECK(!nhost_release_at_least("6.1.0", 6, 6));
	/* A major alone is .0; garbage is never late enough. */
	CHECK(!nhost_release_at_least("6", 6, 6));
	CHECK(nhost_release_at_least("7", 6, 6));
	CHECK(!nhost_release_at_least("", 6, 6));
	CHECK(!nhost_release_at_least("linux-6.18", 6, 6));
	CHECK(!nhost_release_at_least("6.x", 6, 6));
}

/* The machine profiles' schedulers: `modern` is a 6.x machine and runs
 * EEVDF's order; the era profiles keep the round robin of theirs. */
void test_profile_schedulers(void);

void test_profile_schedulers(void)
{
	int n = 0;
	for (int i = 0; profile_presets[i]; i++, n++)
		CHECK_EQ(profile_presets[i]->sched_eevdf, !strcmp(profile_presets[i]->name, "modern"));
	CHECK(n >= 7);
	CHECK(profile_find("modern") && profile_find("modern")->sched_eevdf == 1);
}
