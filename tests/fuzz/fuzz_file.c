/* fuzz_file.c - libFuzzer harness for the trace readers on real files and
 * pipes, plain, zstd and gzip, whole and cut short (make fuzz;
 * file_target.h). */
#include "file_target.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_file_one(data, size))
		abort();
	return 0;
}
