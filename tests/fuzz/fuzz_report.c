/* fuzz_report.c - libFuzzer harness for pagelab compare's cached kernel
 * records (make fuzz). */
#include "targets.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_report_one(data, size))
		abort();
	return 0;
}
