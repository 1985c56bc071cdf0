/* shape.c - misbehaving policy plugins for tests/cli.d/plugins.sh.
 *
 * One policy (last in, first out on one list, as examples/policy-lifo)
 * that, compiled with -DSHAPE_<name>, breaks one rule of
 * include/pagelab_policy.h at its first chance: the Makefile builds one
 * build/tests/plugins/<name>.so per shape, and plugins.sh runs each under
 * --check and asserts the ending docs/policies.md gives for it.  Without
 * a SHAPE_ macro (shape "ok") it keeps every rule. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <pagelab_policy.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

struct shape {
	struct pagelab_mm *mm;
	int list;
	unsigned char *held;      /* the pages it was given and still has */
	pagelab_pfn nr;
	struct pagelab_scan *old_sc;
};

/* Misbehaviour that happens once, at the first chance. */
__attribute__((unused)) static int once(void)
{
	static int done;
	return !done++;
}

#ifdef SHAPE_missing_symbol
/* Declared here, defined nowhere: dlopen(RTLD_NOW) refuses the plugin. */
extern void pagelab_no_such_function(void);
#endif

#ifdef SHAPE_interrupt
/* Tell the test that a callback is stuck now: it sends the signal. */
static void mark_stuck(void)
{
	const char *f = getenv("SHAPE_STUCK_FILE");
	FILE *fp = f ? fopen(f, "w") : NULL;
	if (fp)
		fclose(fp);
}
#endif

#if defined(SHAPE_sleeps) || defined(SHAPE_interrupt)
static void sleep_forever(void)
{
	for (;;) {
		struct timespec ts = { 1, 0 };
		nanosleep(&ts, NULL);
	}
}
#endif

static void *shape_init(struct pagelab_mm *mm, const double *tun)
{
	(void)tun;
#ifdef SHAPE_init_null
	return NULL;
#endif
#ifdef SHAPE_huge_alloc
	/* A petabyte: mmap fails, and so, like a careful plugin, does init
	 * (mmap, not malloc, which under ASan reports instead of failing). */
	void *huge = mmap(NULL, (size_t)1 << 50, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (huge == MAP_FAILED)
		return NULL;
	munmap(huge, (size_t)1 << 50);
#endif
#ifdef SHAPE_init_crash
	*(volatile int *)0 = 1;
#endif
#ifdef SHAPE_register_null
	pagelab_lru_register(mm, NULL);
#endif
#ifdef SHAPE_register_many
	for (int i = 0; i < 100; i++)
		pagelab_lru_register(mm, "many");
#endif
	struct shape *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->mm = mm;
	s->list = pagelab_lru_register(mm, "shape");
	s->nr = (pagelab_pfn)pagelab_nr_frames(mm);
	s->held = calloc(s->nr, 1);
	return s->held ? s : NULL;
}

static void shape_destroy(void *p)
{
	struct shape *s = p;
	free(s->held);
	free(s);
}

static void shape_add(void *p, pagelab_pfn pfn, enum pagelab_add_reason why)
{
	struct shape *s = p;
	(void)why;
	s->held[pfn] = 1;
#ifdef SHAPE_lost_add
	if (once())
		return;
#endif
#ifdef SHAPE_add_abort
	abort();
#endif
#ifdef SHAPE_word_write
	*pagelab_page_word(s->mm, s->nr) = 1;
#endif
#ifdef SHAPE_word_read
	if (*pagelab_page_word(s->mm, PAGELAB_PFN_NONE) == 12345)
		return;
#endif
#ifdef SHAPE_state_range
	(void)pagelab_page_state(s->mm, s->nr + 7);
#endif
#ifdef SHAPE_next_range
	(void)pagelab_lru_next(s->mm, s->nr);
#endif
#ifdef SHAPE_list_bad
	(void)pagelab_lru_head(s->mm, 99);
#endif
#ifdef SHAPE_list_core
	/* List 1 is the core's (a free list): not the plugin's to fill. */
	pagelab_lru_add_head(s->mm, 1, pfn);
#endif
#ifdef SHAPE_mm_bad
	(void)pagelab_lru_count(NULL, s->list);
#endif
#ifdef SHAPE_evict_outside
	if (s->old_sc)
		pagelab_evict(s->mm, s->old_sc, pfn);
#endif
	pagelab_lru_add_head(s->mm, s->list, pfn);
#ifdef SHAPE_double_add
	pagelab_lru_add_head(s->mm, s->list, pfn);
#endif
}

static void shape_remove(void *p, pagelab_pfn pfn)
{
	struct shape *s = p;
	s->held[pfn] = 0;
	pagelab_lru_del(s->mm, pfn);
#ifdef SHAPE_double_del
	pagelab_lru_del(s->mm, pfn);
#endif
}

/* A page in range that it does not hold. */
__attribute__((unused)) static pagelab_pfn foreign(const struct shape *s)
{
	pagelab_pfn pfn = 0;
	while (pfn < s->nr && s->held[pfn])
		pfn++;
	return pfn;
}

/* The misbehaviour of one pass, before it evicts anything. */
__attribute__((unused)) static void shrink_misbehave(struct shape *s, struct pagelab_scan *sc)
{
	(void)s;
	(void)sc;
#ifdef SHAPE_sleeps
	sleep_forever();
#endif
#ifdef SHAPE_interrupt
	mark_stuck();
	sleep_forever();
#endif
#ifdef SHAPE_spins
	for (volatile unsigned long i = 0;; i++)
		;
#endif
#ifdef SHAPE_shrink_crash
	raise(SIGSEGV);
#endif
#ifdef SHAPE_register_late
	pagelab_lru_register(s->mm, "late");
#endif
#ifdef SHAPE_victim_none
	pagelab_evict(s->mm, sc, PAGELAB_PFN_NONE);
#endif
#ifdef SHAPE_victim_range
	pagelab_evict(s->mm, sc, s->nr + 100000);
#endif
#ifdef SHAPE_victim_foreign
	pagelab_evict(s->mm, sc, foreign(s));
#endif
#ifdef SHAPE_referenced_foreign
	(void)pagelab_page_referenced(s->mm, foreign(s));
#endif
#ifdef SHAPE_del_unknown
	pagelab_lru_del(s->mm, foreign(s));
#endif
#ifdef SHAPE_victim_onlist
	pagelab_evict(s->mm, sc, pagelab_lru_head(s->mm, s->list));
#endif
#ifdef SHAPE_evict_badsc
	struct pagelab_scan copy = *sc;
	pagelab_pfn v = pagelab_lru_head(s->mm, s->list);
	pagelab_lru_del(s->mm, v);
	pagelab_evict(s->mm, &copy, v);
#endif
#ifdef SHAPE_core_clobber
	sc->core = NULL;
#endif
#ifdef SHAPE_lost_shrink
	pagelab_lru_del(s->mm, pagelab_lru_head(s->mm, s->list));
#endif
}

/* (unused in shape ops_null, which has no shrink) */
__attribute__((unused)) static void shape_shrink(void *p, struct pagelab_scan *sc)
{
	struct shape *s = p;
	s->old_sc = sc;
#ifndef SHAPE_never_evicts
	shrink_misbehave(s, sc);
	uint64_t budget = pagelab_lru_count(s->mm, s->list);
	while (sc->nr_reclaimed < sc->nr_to_reclaim && budget--) {
		pagelab_pfn pfn = pagelab_lru_head(s->mm, s->list);
		pagelab_lru_del(s->mm, pfn);
		enum pagelab_evict_result r = pagelab_evict(s->mm, sc, pfn);
		if (r == PAGELAB_EVICT_GONE || r == PAGELAB_EVICT_CULLED)
			s->held[pfn] = 0;
		else
			pagelab_lru_add_tail(s->mm, s->list, pfn);
#ifdef SHAPE_victim_twice
		if (r == PAGELAB_EVICT_GONE)
			pagelab_evict(s->mm, sc, pfn);
#endif
		if (r == PAGELAB_EVICT_NOSWAP)
			break;
	}
#endif
#ifdef SHAPE_counter_reclaimed
	sc->nr_reclaimed += 1000;
#endif
#ifdef SHAPE_counter_rotated
	sc->nr_rotated = 0;
	sc->nr_rotated--;
#endif
}

static bool shape_check(void *p, FILE *err)
{
	(void)p;
#ifdef SHAPE_check_false
	fprintf(err, "shape: its own state is broken\n");
	return false;
#endif
	(void)err;
	return true;
}

static const struct pagelab_policy shape = {
#ifdef SHAPE_abi_wrong
	.abi = 99,
#else
	.abi = PAGELAB_POLICY_ABI,
#endif
	.name = "shape",
	.summary = "a misbehaving plugin (tests/plugins/shape.c)",
#ifdef SHAPE_tunable_bad
	.tunables = (const struct pagelab_tunable[]){ { "t", "", 5, 0, 1, "default above max" }, { 0 } },
#endif
#ifdef SHAPE_flags_bad
	.flags = 1u << 30,
#endif
	.init = shape_init,
	.destroy = shape_destroy,
	.add = shape_add,
	.remove = shape_remove,
#ifdef SHAPE_ops_null
	.shrink = NULL,
#else
	.shrink = shape_shrink,
#endif
	.check = shape_check,
};

#ifdef SHAPE_no_entry
/* Exported under another name: the loader finds no entry point. */
const struct pagelab_policy *pagelab_policy_entry_misspelt(void);
const struct pagelab_policy *pagelab_policy_entry_misspelt(void)
{
	return &shape;
}
#else
const struct pagelab_policy *pagelab_policy_entry(void)
{
#ifdef SHAPE_missing_symbol
	pagelab_no_such_function();
#endif
#ifdef SHAPE_call_outside
	(void)pagelab_nr_frames(NULL);
#endif
#ifdef SHAPE_entry_null
	return NULL;
#endif
	return &shape;
}
#endif
