/* memcg_lru.h - MGLRU's memcg LRU of generations (memcg_lru.c): the
 * order global reclaim visits the cgroups' lruvecs in under a --cgroup
 * tree when the policy sets POLICY_MEMCG_GEN_LRU (mglru's memcg_lru=1).
 * The state is 6.6 include/linux/mmzone.h's struct lru_gen_memcg
 * (pgdat->memcg_lru) and each lruvec's lrugen.gen / .seg; each bin, an
 * hlist_nulls in the kernel, is an array of cgroup ids, head first. */
#ifndef PAGELAB_MM_MEMCG_LRU_H
#define PAGELAB_MM_MEMCG_LRU_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cgtree.h"
#include "../lib/util.h"

#define MEMCG_NR_GENS 3   /* old (seq), young (seq + 1), and a stale seq - 1 */
#define MEMCG_NR_BINS 8

/* lru_gen_rotate_memcg()'s operations; also a lruvec's segment (seg). */
enum { MEMCG_LRU_NOP, MEMCG_LRU_HEAD, MEMCG_LRU_TAIL, MEMCG_LRU_OLD, MEMCG_LRU_YOUNG };

struct memcg_lru {
	uint64_t seq;                        /* seq % MEMCG_NR_GENS is the old generation */
	int nr_memcgs[MEMCG_NR_GENS];
	uint8_t fifo[MEMCG_NR_GENS][MEMCG_NR_BINS][CG_MAX + 1];
	uint8_t len[MEMCG_NR_GENS][MEMCG_NR_BINS];
	uint8_t gen[CG_MAX + 1];             /* lruvec->lrugen.gen */
	uint8_t seg[CG_MAX + 1];             /* lruvec->lrugen.seg: 0, HEAD or TAIL */
	struct rng rng;                      /* get_random_u32_below(MEMCG_NR_BINS) */
};

static inline int memcg_gen(uint64_t seq) { return (int)(seq % MEMCG_NR_GENS); }

struct mm;
struct scan_control;
/* lru_gen_online_memcg() of the root and every cgroup, in id order (the
 * order they are created in); the bins drawn from the run's seed. */
void memcg_lru_init(struct mm *mm);
void memcg_lru_free(struct mm *mm);
/* Does this pass go through the memcg LRU?  Global reclaim (the root
 * is the target) with the memcg LRU on. */
bool memcg_lru_global(const struct mm *mm);
/* lru_gen_rotate_memcg(lruvec of cg, op), into bin (the kernel draws it
 * at random: memcg_lru_rotate()). */
void memcg_lru_rotate_bin(struct memcg_lru *l, int cg, int op, int bin);
void memcg_lru_rotate(struct memcg_lru *l, int cg, int op);
/* lru_gen_shrink_node() -> shrink_many(): a global reclaim pass. */
void memcg_lru_shrink_many(struct mm *mm, struct scan_control *sc);
/* --check: every cgroup in exactly one bin, of its generation, and
 * nr_memcgs[] the bins' counts. */
bool memcg_lru_check(const struct memcg_lru *l, int n, FILE *err);

#endif
