/* records_target.h - the property of results files as every command
 * reads them, checked by the libFuzzer harness tests/fuzz/fuzz_records.c
 * (make fuzz) and by its seeds and mutations in make check
 * (tests/test_mutate.c). */
#ifndef PAGELAB_FUZZ_RECORDS_TARGET_H
#define PAGELAB_FUZZ_RECORDS_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* data is a results file (at most 64 KiB are used), read four ways:
 *   records_load: refused, one line "FILE:LINE: ..." or "cannot read
 *     FILE: ..."; accepted, every record has its command line, design
 *     and configuration, records_dedupe leaves each command line once and
 *     records_by_cell orders them by cell;
 *   pagelab merge OUT FILE FILE: exit 0 with OUT holding each command
 *     line once, read back whole, or exit 2 with one line on stderr and
 *     OUT not written; no temporary file either way;
 *   pagelab compare FILE: exit 0, or 2 with one line;
 *   pagelab sweep -o FILE (one cell of usemem -m 1, resumed from FILE):
 *     exit 0 or 3 with FILE then holding the cell's record (run or found),
 *     every line whole, or 2 with one line and FILE as it was. */
bool fuzz_records_one(const uint8_t *data, size_t size);

#endif
