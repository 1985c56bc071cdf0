/* fuzz_exp.c - libFuzzer harness for the experiment-file parser
 * (src/reproduce/exp_file.c): any input is refused with a message or
 * parsed; a parsed experiment written back out parses again to the same
 * text (make fuzz). */
#include "../../src/reproduce/exp_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *written(const struct experiment *e, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	if (!f)
		abort();
	exp_file_write(e, f);
	fclose(f);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[600];
	err[0] = 0;
	struct experiment *e = exp_file_parse("fuzz", (const char *)data, size, err, sizeof(err));
	if (!e) {
		if (strncmp(err, "fuzz:", 5))
			abort();  /* every refusal names the file and line */
		return 0;
	}
	size_t l1, l2;
	char *a = written(e, &l1);
	struct experiment *e2 = exp_file_parse("again", a, l1, err, sizeof(err));
	if (!e2)
		abort();
	char *b = written(e2, &l2);
	if (l1 != l2 || memcmp(a, b, l1))
		abort();
	free(a);
	free(b);
	exp_file_free(e2);
	exp_file_free(e);
	return 0;
}
