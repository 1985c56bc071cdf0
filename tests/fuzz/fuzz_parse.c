/* fuzz_parse.c - libFuzzer harness for size, number, machine-parameter and
 * workload-argument parsing (make fuzz). */
#include "targets.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_parse_one(data, size))
		abort();
	return 0;
}
