/* targets.h - the parser properties checked by the libFuzzer harnesses
 * (tests/fuzz/fuzz_*.c, make fuzz) and by the deterministic mutation test
 * in make check (tests/test_mutate.c).  Each function feeds one input to a
 * parser and returns false if an invariant broke (the harness aborts, the
 * unit test counts a failure); a crash is a failure either way. */
#ifndef PAGELAB_FUZZ_TARGETS_H
#define PAGELAB_FUZZ_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The text trace parser: on success every reference's page is below
 * npages and next_use links each reference to the next one of the same
 * page; on failure a one-line "NAME:LINE: message" with a line number
 * that exists in the input. */
bool fuzz_trace_one(const uint8_t *data, size_t size);

/* Sizes and options: data[0] picks the parser, the rest is its input.
 *   0: parse_size, checked against an independent reference parser;
 *   1: parse_u64 / parse_double / parse_duration_ns;
 *   2: profile_set NAME=VALUE on a copy of every profile;
 *   3: the usemem and trace workloads' argument parsing (words separated
 *      by spaces), and a few ops of a usemem that parses. */
bool fuzz_parse_one(const uint8_t *data, size_t size);

#endif
