/* fuzz_text.c - libFuzzer harness for the text trace reader (make fuzz). */
#include "readers.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!fuzz_reader_one(TRACE_FMT_TEXT, data, size))
		abort();
	return 0;
}
