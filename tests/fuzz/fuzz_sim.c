/* fuzz_sim.c - libFuzzer harness for fuzz_sim_one (tests/fuzz/targets.h;
 * make fuzz).  FUZZ_VERBOSE=1 prints what each input runs. */
#include "targets.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_verbose = getenv("FUZZ_VERBOSE") != NULL;
	if (!fuzz_sim_one(data, size))
		abort();
	return 0;
}
