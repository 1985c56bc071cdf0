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
#include <stdio.h>

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

/* A record of pagelab compare's kernel cache (a records file) as compare
 * -- WORKLOAD takes it into its table (src/engine/kcompare_table.c): no
 * crash, every verdict one of the four, agreements <= comparisons. */
bool fuzz_report_one(const uint8_t *data, size_t size);

/* Every workload's argument parser (tests/fuzz/targets_sim.c): data[0]
 * picks the workload, the rest is its arguments (words separated by
 * spaces, tabs, newlines or NULs).  A refusal must be a one-line message;
 * an accepted workload's first ops (512 per task, 8 tasks) must keep the
 * op-stream contract: regions numbered in mapping order, touches inside
 * them, file ops on open fds, waits for tasks that exist. */
bool fuzz_workload_one(const uint8_t *data, size_t size);

/* A whole tiny simulation through `pagelab run` itself, under --check and
 * --max-time 0.1: data[0] the profile, [1] the seed, [2..3] RAM in pages
 * above the profile's minimum (0-1023), [4] swap (0: none, else [4]/128 of RAM,
 * at most 4096 pages), [5] the policy, [6] --cpus (0: the profile's), [7] the disk
 * size (16-256 MB), [8] how many --set (0-3; bit 6: --make-inputs), then two bytes per --set (a
 * vm sysctl or a policy tunable, and one of 9 values across its range),
 * then the workloads joined by '+', each "NAME ARGS" (an unknown NAME
 * picks one by its first byte; a trace's text is written to a temporary
 * file).  Numbers in the arguments are cut to 3 digits (2 on the untimed
 * profile) so every input is bounded.  The run must exit 0, 2 (refused,
 * or a workload's bad input found while running) or 3 (stopped); exit 1
 * (--check failed) or a crash is a failure. */
bool fuzz_sim_one(const uint8_t *data, size_t size);
/* A subcommand (cmd_run, cmd_merge, ...) in-process, with stdout on
 * /dev/null and stderr in `log`; returns its exit status (2 when it
 * called die_usage()). */
int fuzz_run_captured(int (*cmd)(int, char **), int argc, char **argv, FILE *log);
/* The exit status of the last fuzz_sim_one() run (-1: nothing ran). */
extern int fuzz_sim_status;
/* Print each simulation's command line on stderr, and let its messages
 * through (set by the harnesses when FUZZ_VERBOSE is in the environment). */
extern bool fuzz_verbose;

#endif
