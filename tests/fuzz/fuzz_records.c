/* fuzz_records.c - libFuzzer harness for results files as a whole sweep
 * reads them: records_load, pagelab merge, compare and a resumed sweep
 * (make fuzz; records_target.h). */
#include "records_target.h"
#include "targets.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_records_one(data, size))
		abort();
	return 0;
}
