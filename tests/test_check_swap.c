/* test_check_swap.c - --check's swap accounting (src/mm/check_swap.c).
 * The check between events walks only the slots a PTE or a swap-cache
 * page names, so it must still see a count out of step on those, and a
 * run must still end in a walk of every slot: a reference or swap-cache
 * entry on a slot nothing names is caught there. */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/mm/swap.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <string.h>
#include <unistd.h>

static const struct mm_costs zero_costs;

/* 4 frames, 64 slots, FIFO; one process writes 7 pages: 3 in swap. */
static struct aspace *swapped(struct mm *mm)
{
	struct mm_config cfg = { .ram_pages = 4, .swap_pages = 64, .no_watermarks = true, .untimed = true };
	mm_init(mm, &cfg, &zero_costs);
	mm_set_policy(mm, policy_find("fifo"), NULL);
	struct aspace *as = mm_aspace_new(mm, 0);
	uint32_t v = mm_mmap_anon(mm, as, 7, 0);
	struct mm_ctx ctx = { .task = 0, .wait_pfn = PFN_NONE };
	enum fault_status st;
	CHECK_EQ(mm_touch(mm, &ctx, as, v, 0, 7, 1, true, UINT64_MAX, &st), 7);
	CHECK_EQ(as->swapents, 3);
	return as;
}

/* Run check (mm_check or mm_check_step): did it fail saying `what`? */
static bool fails_with(bool (*check)(struct mm *, FILE *), struct mm *mm, const char *what)
{
	FILE *f = tmpfile();
	if (!f)
		panic("tmpfile");
	bool ok = check(mm, f);
	char buf[2048] = "";
	rewind(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = 0;
	fclose(f);
	if (ok || !strstr(buf, what))
		fprintf(stderr, "check %s; expected a failure about '%s'\n%s", ok ? "passed" : "said", what, buf);
	return !ok && strstr(buf, what);
}

static bool passes(bool (*check)(struct mm *, FILE *), struct mm *mm)
{
	FILE *f = tmpfile();
	bool ok = check(mm, f);
	fclose(f);
	return ok;
}

/* The whole walk: a slot no PTE and no page names, with a reference or
 * a swap-cache frame, is caught. */
void test_check_swap_unnamed_slot(void);
void test_check_swap_unnamed_slot(void)
{
	struct mm mm;
	swapped(&mm);
	CHECK(passes(mm_check, &mm));
	mm.swap.map[60]++;
	CHECK(fails_with(mm_check, &mm, "swap slot 60: 1 references counted, 0 PTEs point to it"));
	mm.swap.map[60]--;
	CHECK(passes(mm_check, &mm));
	mm.swap.cache[61] = 2;
	CHECK(fails_with(mm_check, &mm, "swap slot 61: cached pfn 2"));
	mm.swap.cache[61] = PFN_NONE;
	CHECK(passes(mm_check, &mm));
	mm_destroy(&mm);
}

/* A --check run whose swap map has a reference nothing names from the
 * start fails, and says which slot: the walk at its end (or between its
 * events) sees it. */
void test_check_swap_run_end(void);
void test_check_swap_run_end(void)
{
	struct profile prof = *profile_find("vmm-2008");
	prof.ram = 16ULL << 20;
	prof.swap = 64ULL << 20;
	struct machine_opts mo = { .seed = 1, .check = true };
	struct machine m;
	char err[256];
	if (!machine_init(&m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	machine_set_policy(&m, policy_find("clock"), NULL);
	const struct workload_ops *wo = workload_find("usemem");
	char a0[] = "usemem", a1[] = "-m", a2[] = "2";
	char *argv[] = { a0, a1, a2, NULL };
	machine_add_workload(&m, wo, wo->create(3, argv, 1, err, sizeof(err)), "usemem -m 2");
	uint32_t last = m.mm.swap.nr_slots - 1;
	m.mm.swap.map[last] = 1;
	FILE *f = tmpfile();
	fflush(stderr);
	int saved = dup(2);
	dup2(fileno(f), 2);
	machine_run(&m);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	char buf[2048] = "", want[80];
	rewind(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = 0;
	fclose(f);
	snprintf(want, sizeof(want), "swap slot %u: 1 references counted, 0 PTEs", last);
	CHECK(m.check_failed);
	CHECK(strstr(buf, want) != NULL);
	m.mm.swap.map[last] = 0;
	machine_free(&m);
}

/* Between events: a count out of step on a slot a PTE names, a reference
 * left on a slot no PTE names any more (a leak), and
 * totals that lie are all seen without the whole walk. */
void test_check_swap_step(void);
void test_check_swap_step(void)
{
	struct mm mm;
	struct aspace *as = swapped(&mm);
	CHECK(passes(mm_check_step, &mm));
	uint32_t slot = pte_slot(as->vmas[0].pte[0]);
	CHECK(pte_is_swap(as->vmas[0].pte[0]));
	mm.swap.map[slot]++;
	CHECK(fails_with(mm_check_step, &mm, "references counted, 1 PTEs point to it"));
	mm.swap.map[slot]--;
	/* A swap PTE zapped without its swap_put_ref(): nothing names the
	 * slot, the totals show it. */
	pte_t sw = as->vmas[0].pte[0];
	as->vmas[0].pte[0] = 0;
	as->swapents--;
	CHECK(fails_with(mm_check_step, &mm, "swap: 3 references counted, 2 in the slots"));
	CHECK(fails_with(mm_check_step, &mm, "swap: 3 slots counted in use, 2 referenced"));
	as->vmas[0].pte[0] = sw;
	as->swapents++;
	CHECK(passes(mm_check_step, &mm));
	mm.swap.used++;
	CHECK(fails_with(mm_check_step, &mm, "swap: 4 slots counted in use, 3 referenced"));
	mm.swap.used--;
	mm.swap.nr_cached++;
	CHECK(fails_with(mm_check_step, &mm, "1 slots counted with a swap-cache page, 0 cached"));
	mm.swap.nr_cached--;
	CHECK(passes(mm_check_step, &mm));
	CHECK(passes(mm_check, &mm));
	mm_destroy(&mm);
}
