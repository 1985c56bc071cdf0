/* mrc_target.h - the property of `pagelab mrc`'s parsing and curves
 * checked by the libFuzzer harness tests/fuzz/fuzz_mrc.c (make fuzz) and
 * by its seeds and mutations in make check (tests/test_mutate.c). */
#ifndef PAGELAB_FUZZ_MRC_TARGET_H
#define PAGELAB_FUZZ_MRC_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* data[0] picks, the rest is the input (at most 4096 bytes):
 *   even: a --sizes list (mrc_parse_sizes): accepted, pages ascending,
 *     each once, 1 .. 2^32 - 1; refused, one line and no sizes;
 *   odd: a text trace through mrc_compute with the exact curve at the
 *     --auto sizes, SHARDS at rate 1 and at a fixed size of data[0] / 2
 *     % 8 + 1 pages: refused, one line; accepted, the exact misses never
 *     rise with the size, lie between the distinct pages and the
 *     references and are the distinct pages alone at the last size (all
 *     of them); SHARDS at rate 1 equals them; the fixed-size curve lies in
 *     [0, 1] and never rises. */
bool fuzz_mrc_one(const uint8_t *data, size_t size);

#endif
