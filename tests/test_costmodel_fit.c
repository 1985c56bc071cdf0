/* test_costmodel_fit.c - compare --fit-cpu's fitted costs as a machine
 * profile file (src/engine/kcompare_fit_profile.c): the fit's ratios
 * applied to modern's costs, a cost set beforehand kept, and the file read
 * back by --machine FILE's loader with each value as fitted and a comment
 * line saying where each comes from.  No kernel run: the ratios are given.
 * Cost: well under a second. */
#include "test.h"
#include "../src/engine/kcompare.h"
#include "../src/machine/profile_file.h"
#include "../src/lib/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void test_costmodel_fit_profile(void);
void test_costmodel_fit_profile_refuses_a_file(void);

static uint64_t get(const struct profile *p, const char *name)
{
	uint64_t v = 0;
	CHECK(profile_get_u64(p, name, &v));
	return v;
}

/* modern: cost.ref 1000 ps, cost.fault 700 ns, cost.rmap 60 ns.  User
 * ratio 2.5, system ratio 0.5; cost.rmap set to 90ns first (kept, not
 * fitted), cost.tlb_ipi set by the host (not a fitted cost). */
void test_costmodel_fit_profile(void)
{
	struct kcompare k = { .machine = "modern", .repeat = 1 };
	k.wl[k.nr_wl++] = xstrdup("qsbench -m 100");
	kcompare_add_set(&k, "cost.rmap=90ns");
	kcompare_add_set(&k, "cost.tlb_ipi=15us");
	kcompare_add_set(&k, "sched_eevdf=1");
	struct kfit fit = { .limit = "2G", .ru = 2.5, .rs = 0.5, .kum = 5, .ksm = 1, .su = 2, .ss = 2 };
	kcompare_fit_apply(&k, profile_find("modern"), &fit);
	CHECK_EQ(fit.first_fitted, 3);
	char path[] = "/tmp/pagelab-test-fit-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	char err[300] = "";
	CHECK(kcompare_fit_profile(&k, &fit, f, err, sizeof(err)));
	fclose(f);
	struct profile p;
	CHECK(profile_load_file(path, &p, err, sizeof(err)));
	CHECK_EQ(get(&p, "cost.ref"), 2500);      /* ps: 1000 x 2.5 */
	CHECK_EQ(get(&p, "cost.fault"), 350);
	CHECK_EQ(get(&p, "cost.zero_page"), 135); /* 270 x 0.5 */
	CHECK_EQ(get(&p, "cost.rmap"), 90);       /* set: kept */
	CHECK_EQ(get(&p, "cost.tlb_ipi"), 15000);
	CHECK_EQ(get(&p, "cost.syscall"), 0);     /* not fitted */
	CHECK_EQ(get(&p, "cpus"), 4);             /* the preset's */
	/* each cost under its source line */
	f = fopen(path, "r");
	char line[300], prev[300] = "";
	int costs = 0, fitted = 0, set = 0, dflt = 0;
	while (fgets(line, sizeof(line), f)) {
		CHECK(strlen(line) <= 81);
		char name[64];
		if (sscanf(line, "%63s =", name) == 1 && !strncmp(name, "cost.", 5) && strchr(line, '=')) {
			char want[80];
			snprintf(want, sizeof(want), "# %s: ", name);
			CHECK(!strncmp(prev, want, strlen(want)));
			costs++;
			fitted += !strncmp(prev + strlen(want), "fit, modern's ", 14);
			set += !strncmp(prev + strlen(want), "set, --set ", 11);
			dflt += !strncmp(prev + strlen(want), "default, modern's", 17);
		}
		if (!strncmp(line, "# cost.", 7))
			strcpy(prev, line);
	}
	fclose(f);
	/* 36 costs: the 9 the fit scales less cost.rmap (set), cost.rmap and
	 * cost.tlb_ipi set, cost.copy_user (0: cost.copy_page's, fitted),
	 * cost.tlb_ipi_recv, cost.syscall and the 25 rows of work without a
	 * named cost (0, not charged) the preset's */
	CHECK_EQ(costs, 38);
	CHECK_EQ(set, 2);
	CHECK_EQ(fitted, 8);
	CHECK_EQ(dflt, 28);
	unlink(path);
	kcompare_free(&k);
}

/* A profile file as --machine: the written file could not name a preset. */
void test_costmodel_fit_profile_refuses_a_file(void)
{
	struct kcompare k = { .machine = "./host.profile" };
	struct kfit fit = { .limit = "2G", .ru = 1, .rs = 1 };
	char err[300] = "";
	CHECK(!kcompare_fit_profile(&k, &fit, stdout, err, sizeof(err)));
	CHECK(strstr(err, "is a profile file") != NULL);
}
