/* test_check.c - the --check invariant checker (src/mm/check.c) must catch
 * a broken state: each test corrupts one thing in a sound mm and expects
 * mm_check() to fail and say what is wrong, then restores it and expects
 * mm_check() to pass again.  And a policy that loses pages makes a
 * --check run of the machine stop with check_failed. */
#include "test.h"
#include "../src/machine/machine.h"
#include "../src/lib/util.h"
#include "../src/policy/policy.h"

#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static const struct mm_costs zero_costs;

/* 8 frames, 32 swap slots, FIFO; one process writes 12 pages, so 4 of
 * them are out in swap and 8 resident. */
static struct aspace *setup(struct mm *mm)
{
	struct mm_config cfg = { .ram_pages = 8, .swap_pages = 32, .no_watermarks = true, .untimed = true };
	mm_init(mm, &cfg, &zero_costs);
	mm_set_policy(mm, policy_find("fifo"), NULL);
	struct aspace *as = mm_aspace_new(mm, 0);
	uint32_t v = mm_mmap_anon(mm, as, 12, 0);
	struct mm_ctx ctx = { .task = 0, .wait_pfn = PFN_NONE };
	enum fault_status st;
	CHECK_EQ(mm_touch(mm, &ctx, as, v, 0, 12, 1, true, UINT64_MAX, &st), 12);
	CHECK_EQ(st, FAULT_DONE);
	CHECK_EQ(as->rss, 8);
	CHECK_EQ(as->swapents, 4);
	return as;
}

/* Run mm_check; return true if it failed with a message containing `what`. */
static bool check_fails_with(struct mm *mm, const char *what)
{
	FILE *f = tmpfile();
	if (!f)
		panic("tmpfile");
	bool ok = mm_check(mm, f);
	char buf[4096] = "";
	rewind(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	if (ok)
		fprintf(stderr, "mm_check passed, expected a failure about '%s'\n", what);
	else if (!strstr(buf, what))
		fprintf(stderr, "mm_check said:\n%sexpected '%s'\n", buf, what);
	return !ok && strstr(buf, what);
}

static bool check_passes(struct mm *mm)
{
	FILE *f = tmpfile();
	bool ok = mm_check(mm, f);
	fclose(f);
	return ok;
}

void test_check_catches_corruption(void);
void test_check_catches_corruption(void)
{
	struct mm mm;
	struct aspace *as = setup(&mm);
	CHECK(check_passes(&mm));
	struct frames *fr = &mm.fr;
	int fifo = mm.pol.ops ? fr->links[as->vmas[0].pte[11] >> PTE_SHIFT].lru : 0;
	CHECK(fifo > 0);
	CHECK_EQ(lru_count(fr, fifo), 8);
	pfn_t head = lru_head(fr, fifo), tail = lru_tail(fr, fifo);
	pfn_t mid = fr->links[head].next;

	/* A broken back link. */
	pfn_t saved = fr->links[mid].prev;
	fr->links[mid].prev = tail;
	CHECK(check_fails_with(&mm, "broken prev link"));
	fr->links[mid].prev = saved;
	CHECK(check_passes(&mm));

	/* A cycle: the tail points back to the head. */
	fr->links[tail].next = head;
	CHECK(check_fails_with(&mm, "on two lists (or a cycle"));
	fr->links[tail].next = PFN_NONE;
	CHECK(check_passes(&mm));

	/* The frame's LRU link disagreeing with the list holding the frame. */
	uint16_t l = fr->links[mid].lru;
	fr->links[mid].lru = (uint16_t)mm.list_unevictable;
	CHECK(check_fails_with(&mm, "its LRU link says"));
	fr->links[mid].lru = l;

	/* A list count that lies. */
	fr->lists[fifo].count++;
	CHECK(check_fails_with(&mm, "count 9 but 8 linked"));
	fr->lists[fifo].count--;

	/* A mapcount that does not match the PTEs. */
	fr->pages[mid].mapcount++;
	CHECK(check_fails_with(&mm, "mapcount 2 but 1 PTEs map it"));
	fr->pages[mid].mapcount--;
	CHECK(check_passes(&mm));

	/* A PTE pointing at the wrong frame: rmap does not point back. */
	pte_t p0 = as->vmas[0].pte[11], p1 = as->vmas[0].pte[10];
	as->vmas[0].pte[11] = p1;
	as->vmas[0].pte[10] = p0;
	CHECK(check_fails_with(&mm, "does not point back"));
	as->vmas[0].pte[11] = p0;
	as->vmas[0].pte[10] = p1;

	/* Swap slot references that do not match the swap PTEs. */
	pte_t sw = as->vmas[0].pte[0];
	CHECK(pte_is_swap(sw));
	uint32_t slot = pte_slot(sw);
	mm.swap.map[slot]++;
	CHECK(check_fails_with(&mm, "references counted"));
	mm.swap.map[slot]--;
	mm.swap.used++;
	CHECK(check_fails_with(&mm, "slots counted in use"));
	mm.swap.used--;

	/* A gauge out of step with the frames. */
	mm.stat.nr_free++;
	CHECK(check_fails_with(&mm, "nr_free"));
	mm.stat.nr_free--;

	/* A frame that fell off every list. */
	lru_del(fr, mid);
	CHECK(check_fails_with(&mm, "is on no list"));
	lru_add_head(fr, fifo, mid);
	CHECK(check_passes(&mm));

	mm_destroy(&mm);
}

/* A FIFO that loses every fourth page it is given: the leak --check is
 * there to find. */
struct leaky { struct mm *mm; int list; unsigned n; };
static void *leaky_init(struct mm *mm, const double *tun)
{
	(void)tun;
	struct leaky *l = xcalloc(1, sizeof(*l));
	l->mm = mm;
	l->list = lru_register(&mm->fr, "leaky");
	return l;
}
static void leaky_destroy(void *p) { free(p); }
static void leaky_add(void *p, pfn_t pfn, enum add_reason why)
{
	struct leaky *l = p;
	(void)why;
	if (++l->n % 4)
		lru_add_head(&l->mm->fr, l->list, pfn);
}
static void leaky_remove(void *p, pfn_t pfn) { lru_del(&((struct leaky *)p)->mm->fr, pfn); }
static void leaky_shrink(void *p, struct scan_control *sc)
{
	struct leaky *l = p;
	while (sc->nr_reclaimed < sc->nr_to_reclaim && lru_count(&l->mm->fr, l->list)) {
		pfn_t pfn = lru_tail(&l->mm->fr, l->list);
		lru_del(&l->mm->fr, pfn);
		sc->nr_scanned++;
		if (mm_evict(l->mm, sc, pfn) != EVICT_FREED)
			break;
	}
}
static const struct policy_ops leaky_policy = {
	.name = "leaky", .summary = "loses pages", .init = leaky_init, .destroy = leaky_destroy,
	.add = leaky_add, .remove = leaky_remove, .shrink = leaky_shrink,
};

static bool run_usemem(const struct policy_ops *pol, bool check)
{
	struct profile prof = *profile_find("vmm-2008");
	prof.ram = 16ULL << 20;
	prof.swap = 16ULL << 20;
	struct machine_opts mo = { .seed = 1, .check = check };
	struct machine m;
	char err[256];
	if (!machine_init(&m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	machine_set_policy(&m, pol, NULL);
	const struct workload_ops *wo = workload_find("usemem");
	char a0[] = "usemem", a1[] = "-m", a2[] = "4";
	char *argv[] = { a0, a1, a2, NULL };
	void *w = wo->create(3, argv, 1, err, sizeof(err));
	machine_add_workload(&m, wo, w, "usemem -m 4");
	/* mm_check reports on stderr: send it to /dev/null meanwhile. */
	fflush(stderr);
	int saved = dup(2), null = open("/dev/null", O_WRONLY);
	dup2(null, 2);
	machine_run(&m);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(null);
	bool failed = m.check_failed;
	machine_free(&m);
	return failed;
}

void test_check_in_machine(void);
void test_check_in_machine(void)
{
	CHECK(run_usemem(&leaky_policy, true));
	CHECK(!run_usemem(policy_find("clock"), true));
}
