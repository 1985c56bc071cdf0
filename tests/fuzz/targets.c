/* targets.c - see targets.h. */
#include "targets.h"
#include "../../src/lib/util.h"
#include "../../src/trace/trace.h"
#include "../../src/machine/profile.h"
#include "../../src/workload/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAIL(...) do { fprintf(stderr, "fuzz: " __VA_ARGS__); fputc('\n', stderr); return false; } while (0)

bool fuzz_trace_one(const uint8_t *data, size_t size)
{
	if (size == 0)
		return true; /* fmemopen refuses empty buffers */
	FILE *f = fmemopen((void *)data, size, "r");
	if (!f)
		return true;
	struct trace t;
	char err[256];
	err[0] = 0;
	bool ok = trace_parse_text(f, "in", &t, err, sizeof(err));
	fclose(f);
	if (!ok) {
		unsigned long long line;
		size_t lines = 1;
		for (size_t i = 0; i + 1 < size; i++)
			lines += data[i] == '\n';
		if (sscanf(err, "in:%llu: ", &line) != 1 || line == 0 || line > lines)
			FAIL("trace error '%s' does not name a line of the input (%zu lines)", err, lines);
		if (strchr(err, '\n'))
			FAIL("trace error spans lines: '%s'", err);
		return true;
	}
	for (uint64_t i = 0; i < t.n; i++) {
		if (t.page[i] >= t.npages)
			FAIL("reference %llu: page %u >= npages %llu", (unsigned long long)i, t.page[i],
			     (unsigned long long)t.npages);
		if (t.write[i] > 1)
			FAIL("reference %llu: write flag %u", (unsigned long long)i, t.write[i]);
		uint64_t nx = t.next_use[i];
		if (nx != UINT64_MAX && (nx <= i || nx >= t.n || t.page[nx] != t.page[i]))
			FAIL("reference %llu: next_use %llu is wrong", (unsigned long long)i, (unsigned long long)nx);
	}
	if (t.n < t.npages)
		FAIL("%llu references to %llu pages", (unsigned long long)t.n, (unsigned long long)t.npages);
	trace_free(&t);
	return true;
}

/* An independent reading of the size grammar documented in util.h:
 * 1-31 decimal digits, then nothing, K/M/G/T (any case) with an optional
 * B, or P (pages); no overflow of 64 bits. */
static bool ref_size(const char *s, uint64_t *out)
{
	size_t nd = strspn(s, "0123456789");
	if (nd == 0 || nd > 31)
		return false;
	unsigned __int128 v = 0;
	for (size_t i = 0; i < nd; i++) {
		v = v * 10 + (unsigned)(s[i] - '0');
		if (v > UINT64_MAX)
			return false;
	}
	const char *u = s + nd;
	static const char units[] = "kmgt";
	unsigned shift = 0;
	if (*u) {
		char c = (char)(*u | 0x20);
		const char *k = strchr(units, c);
		if (c == 'p') {
			shift = 12;
			u++;
		} else if (k && c) {
			shift = 10 * (unsigned)(k - units + 1);
			u++;
			if (*u == 'b' || *u == 'B')
				u++;
		} else {
			return false;
		}
	}
	if (*u)
		return false;
	v <<= shift;
	if (v > UINT64_MAX)
		return false;
	*out = (uint64_t)v;
	return true;
}

/* A NUL-terminated copy of data[0..size). */
static char *cstr(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1);
	memcpy(s, data, size);
	s[size] = 0;
	return s;
}

/* A message, on one line unless it quotes an input holding a newline. */
static bool one_line(const char *err, const char *input)
{
	return err[0] && (!strchr(err, '\n') || strchr(input, '\n'));
}

static bool parse_workload_args(char *s)
{
	char *input = xstrdup(s);
	char *argv[33];
	int argc = 1;
	char name0[] = "usemem";
	argv[0] = name0;
	for (char *tok = strtok(s, " "); tok && argc < 32; tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	const struct workload_ops *ops = workload_find("usemem");
	char err[512];
	err[0] = 0;
	void *w = ops->create(argc, argv, 1, err, sizeof(err));
	if (!w) {
		if (!one_line(err, input)) {
			free(input);
			FAIL("usemem refused its arguments without a one-line message: '%s'", err);
		}
	} else {
		struct op op;
		for (int task = 0; task < ops->nr_tasks(w) && task < 4; task++)
			for (int i = 0; i < 64 && ops->next_op(w, task, &op); i++)
				if (op.kind == OP_TOUCH && op.npages == 0 && op.refs)
					FAIL("usemem emitted an empty touch");
		ops->destroy(w);
	}
	/* The trace workload's arguments: it must refuse anything but one
	 * readable file, cleanly. */
	const struct workload_ops *tr = workload_find("trace");
	argv[0] = (char *)"trace";
	err[0] = 0;
	if (argc != 2) {
		w = tr->create(argc, argv, 1, err, sizeof(err));
		if (w || !one_line(err, input)) {
			free(input);
			FAIL("trace accepted %d arguments", argc - 1);
		}
	}
	free(input);
	return true;
}

bool fuzz_parse_one(const uint8_t *data, size_t size)
{
	if (size == 0)
		return true;
	char *s = cstr(data + 1, size - 1);
	bool ok = true;
	uint64_t v = 0, r = 0;
	double d;
	switch (data[0] % 4) {
	case 0: {
		/* An embedded NUL ends the string for both parsers. */
		bool a = parse_size(s, &v), b = ref_size(s, &r);
		if (a != b || (a && v != r)) {
			fprintf(stderr, "fuzz: parse_size(\"%s\") = %d/%llu, reference %d/%llu\n", s, a,
				(unsigned long long)v, b, (unsigned long long)r);
			ok = false;
		}
		break;
	}
	case 1:
		/* Every plain number is a size in bytes (parse_size reads at
		 * most 31 digits, leading zeros included). */
		if (parse_u64(s, &v) && strlen(s) <= 31 && (!parse_size(s, &r) || r != v))
			ok = false;
		if (parse_double(s, &d) && d != d)
			ok = false;
		/* No negative durations, whatever strtod() would accept. */
		if (parse_duration_ns(s, &v) && (s[0] == '-' || s[0] == '+' || s[0] == ' ' || s[0] == '\t'))
			ok = false;
		break;
	case 2: {
		char *eq = strchr(s, '=');
		if (!eq)
			break;
		*eq = 0;
		for (int i = 0; profile_presets[i]; i++) {
			struct profile p = *profile_presets[i];
			char err[256];
			err[0] = 0;
			if (!profile_set(&p, s, eq + 1, err, sizeof(err)) && !one_line(err, eq + 1) && !one_line(err, s)) {
				fprintf(stderr, "fuzz: profile_set(%s, %s) failed without a message\n", s, eq + 1);
				ok = false;
			}
		}
		break;
	}
	case 3:
		ok = parse_workload_args(s);
		break;
	}
	free(s);
	return ok;
}
