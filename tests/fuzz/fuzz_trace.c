/* fuzz_trace.c - libFuzzer harness for the text trace parser (make fuzz). */
#include "targets.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_trace_one(data, size))
		abort();
	return 0;
}
