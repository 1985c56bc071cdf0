/* fuzz_mrc.c - libFuzzer harness for pagelab mrc's --sizes parsing and
 * its curves of a text trace (make fuzz; mrc_target.h). */
#include "mrc_target.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_mrc_one(data, size))
		abort();
	return 0;
}
