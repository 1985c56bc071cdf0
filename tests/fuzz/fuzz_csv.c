/* fuzz_csv.c - libFuzzer harness for the csv trace reader (make fuzz). */
#include "readers.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_reader_one(TRACE_FMT_CSV, data, size))
		abort();
	return 0;
}
