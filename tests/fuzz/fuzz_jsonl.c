/* fuzz_jsonl.c - libFuzzer harness for the results-file readers
 * (src/engine/json.c, record.c): any line is a record, refused JSON or
 * refused as no record, and a record's figures read without a crash
 * (make fuzz). */
#include "../../src/engine/record.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[300];
	char *line = malloc(size + 1);
	if (!line)
		abort();
	memcpy(line, data, size);
	line[size] = 0;
	struct json *j = json_parse((const char *)data, size, err, sizeof(err));
	json_free(j);
	struct record r;
	if (record_parse(line, &r, err, sizeof(err))) {
		double v;
		for (int m = 0; record_csv_metrics[m]; m++)
			(void)record_metric(&r, record_csv_metrics[m], &v);
		record_free(&r);
	}
	free(line);
	return 0;
}
