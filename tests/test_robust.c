/* test_robust.c - issue 9's fixes that can be pinned without a whole run:
 * dd's short reads at the end of its input, worked out by hand; JSON
 * strings that stay valid JSON and UTF-8 whatever bytes they are given. */
#include "test.h"
#include "sim.h"
#include "../src/workload/workload.h"
#include "../src/lib/util.h"
#include "../src/lib/json.h"
#include "../src/lib/hostmem.h"
#include "../src/machine/machine.h"
#include "../src/policy/policy.h"

#include <stdlib.h>
#include <string.h>

void test_dd_short_read(void);
void test_json_hostile_strings(void);
void test_host_memory_limits(void);
void test_vmstat_spill(void);


/* Replay dd's op stream against an input of `size` pages the way the
 * machine does (each read reports how many of its pages were inside the
 * input); return the reads issued and the report's first three lines. */
static int dd_against(const char *cmd, uint64_t size, char l[3][128])
{
	const struct workload_ops *ops = workload_find("dd");
	void *w = wl_make(cmd, NULL);
	if (!w)
		return -1;
	struct op op;
	int reads = 0;
	while (ops->next_op(w, 0, &op)) {
		if (op.kind != OP_READ)
			continue;
		reads++;
		uint64_t in = size > op.first ? size - op.first : 0;
		ops->read_done(w, 0, in < op.npages ? in : op.npages);
		if (reads > 1000)
			break;
	}
	FILE *f = tmpfile();
	double el = 1.0;
	ops->report(w, &el, f);
	rewind(f);
	for (int i = 0; i < 3; i++)
		if (!fgets(l[i], 128, f))
			l[i][0] = 0;
	fclose(f);
	ops->destroy(w);
	return reads;
}

void test_dd_short_read(void)
{
	char l[3][128];
	/* 10 pages in 16 KiB (4-page) blocks: 4 + 4 + a short 2; the copy
	 * stops there, as dd does when the next read returns 0. */
	CHECK_EQ(dd_against("dd if=/f of=/g bs=16K count=10", 10, l), 3);
	CHECK(!strcmp(l[0], "2+1 records in\n"));
	CHECK(!strcmp(l[1], "2+1 records out\n"));
	CHECK(!strncmp(l[2], "40960 bytes (41 kB) copied, 1 seconds", 37));
	/* Exactly 2 blocks: the third read returns 0, no partial record. */
	CHECK_EQ(dd_against("dd if=/f bs=16K count=10", 8, l), 3);
	CHECK(!strcmp(l[0], "2+0 records in\n"));
	CHECK(!strncmp(l[2], "32768 bytes (33 kB) copied", 26));
	/* skip= past the end: nothing read, dd says it cannot skip. */
	CHECK_EQ(dd_against("dd if=/f bs=16K skip=5 count=2", 8, l), 1);
	CHECK(!strcmp(l[0], "dd: /f: cannot skip to specified offset\n"));
	CHECK(!strcmp(l[1], "0+0 records in\n"));
	/* count= within the input: whole records only. */
	CHECK_EQ(dd_against("dd if=/f bs=4K count=3", 8, l), 3);
	CHECK(!strcmp(l[0], "3+0 records in\n"));
}

/* A JSON string literal per RFC 8259 at *p, its bytes valid UTF-8 (as
 * utf8_seq_len() judges, checked on its own below): advance past it. */
static int json_string_ok(const unsigned char **p)
{
	const unsigned char *s = *p;
	if (*s++ != '"')
		return 0;
	while (*s != '"') {
		if (*s < 0x20)
			return 0;         /* raw control character (or the end) */
		if (*s == '\\') {
			s++;
			if (*s == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i])
						return 0;
				s += 5;
			} else if (*s && strchr("\"\\/bfnrt", *s)) {
				s++;
			} else {
				return 0;
			}
			continue;
		}
		int n = utf8_seq_len(s);
		if (!n)
			return 0;
		s += n;
	}
	*p = s + 1;
	return 1;
}

static int json_of(const char *in, char *buf, size_t len)
{
	FILE *f = tmpfile();
	json_str(f, in);
	rewind(f);
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
	const unsigned char *p = (const unsigned char *)buf;
	return json_string_ok(&p) && !*p;
}

void test_json_hostile_strings(void)
{
	/* The validator itself: the shortest forms only. */
	CHECK_EQ(utf8_seq_len((const unsigned char *)"a"), 1);
	CHECK_EQ(utf8_seq_len((const unsigned char *)"\xc3\xa9"), 2);         /* e acute */
	CHECK_EQ(utf8_seq_len((const unsigned char *)"\xe2\x82\xac"), 3);     /* euro */
	CHECK_EQ(utf8_seq_len((const unsigned char *)"\xf0\x9f\x98\x80"), 4); /* U+1F600 */
	CHECK_EQ(utf8_seq_len((const unsigned char *)"\xc0\xaf"), 0);         /* overlong '/' */
	CHECK_EQ(utf8_seq_len((const unsigned char *)"\xe0\x80\xaf"), 0);     /* overlong */
	CHECK_EQ(utf8_seq_len((const unsigned char *)"\xed\xa0\x80"), 0);     /* surrogate */
	CHECK_EQ(utf8_seq_len((const unsigned char *)"\xf4\x90\x80\x80"), 0); /* > U+10FFFF */
	CHECK_EQ(utf8_seq_len((const unsigned char *)"\xc3"), 0);             /* truncated */
	CHECK_EQ(utf8_seq_len((const unsigned char *)"\x80"), 0);             /* lone continuation */
	char buf[512];
	/* Each invalid byte becomes one U+FFFD; valid sequences pass. */
	CHECK(json_of("a\xff\xc3\xa9\xed\xa0\x80z", buf, sizeof(buf)));
	CHECK(!strcmp(buf, "\"a\\ufffd\xc3\xa9\\ufffd\\ufffd\\ufffdz\""));
	CHECK(json_of("q\"b\\\n\t\x01\x1f", buf, sizeof(buf)));
	CHECK(!strcmp(buf, "\"q\\\"b\\\\\\n\\t\\u0001\\u001f\""));
	CHECK(json_of(NULL, buf, sizeof(buf)) && !strcmp(buf, "\"\""));
	/* 2000 seeded random byte strings: always a valid string literal. */
	struct rng r;
	rng_seed(&r, 9);
	char in[40], out[40 * 6 + 3];
	int bad = 0;
	for (int k = 0; k < 2000; k++) {
		size_t n = (size_t)rng_below(&r, sizeof(in));
		for (size_t i = 0; i < n; i++)
			in[i] = (char)(1 + rng_below(&r, 255));
		in[n] = 0;
		bad += !json_of(in, out, sizeof(out));
	}
	CHECK_EQ(bad, 0);
}

/* The host-memory guard takes the tightest of what is known. */
void test_host_memory_limits(void)
{
	const char *what;
	uint64_t G = 1ULL << 30;
	CHECK_EQ(host_memory_pick(0, 0, 0, 0, 0, "cg", &what), UINT64_MAX);
	CHECK(!strcmp(what, "nothing known"));
	CHECK_EQ(host_memory_pick(8 * G, 0, 0, 0, 0, "cg", &what), 8 * G);
	CHECK(!strcmp(what, "MemAvailable"));
	CHECK_EQ(host_memory_pick(8 * G, 2 * G, 3 * G, 0, 0, "cg", &what), 2 * G);
	CHECK(!strncmp(what, "RLIMIT_AS", 9));
	CHECK_EQ(host_memory_pick(8 * G, 4 * G, 3 * G, 0, 0, "cg", &what), 3 * G);
	CHECK(!strncmp(what, "RLIMIT_DATA", 11));
	/* A cgroup's limit counts what the cgroup already uses. */
	CHECK_EQ(host_memory_pick(8 * G, 0, 0, 4 * G, 3 * G, "cgroup memory.max", &what), 1 * G);
	CHECK(!strcmp(what, "cgroup memory.max"));
	CHECK_EQ(host_memory_pick(8 * G, 0, 0, 4 * G, 5 * G, "cg", &what), 0);
	CHECK_EQ(host_memory_pick(8 * G, 0, 0, 10 * G, 1 * G, "cg", &what), 8 * G);
	CHECK(!strcmp(what, "MemAvailable"));
}

/* usemem -m 24 -r 6 on a 16 MB vmm-2008 with a vmstat sample every ms;
 * spill on or off.  Returns the samples taken, all read back. */
static uint64_t spill_run(bool spill, struct vmstat_sample **out, uint64_t *spilled)
{
	struct profile prof = *profile_find("vmm-2008");
	prof.ram = 16ULL << 20;
	prof.swap = 64ULL << 20;
	struct machine_opts mo = { .seed = 1, .vmstat_ns = 1000000, .max_time_ns = 30000000000ULL,
				   .spill_samples = spill };
	struct machine m;
	char err[256];
	if (!machine_init(&m, &prof, &mo, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		test_failures++;
		return 0;
	}
	machine_set_policy(&m, policy_find("clock"), NULL);
	void *w = wl_make("usemem -m 24 -r 6", NULL);
	machine_add_workload(&m, workload_find("usemem"), w, "usemem -m 24 -r 6");
	machine_run(&m);
	*out = xcalloc(m.nr_samples + 1, sizeof(**out));
	struct sample_iter it;
	uint64_t n = 0;
	machine_samples_rewind(&m, &it);
	while (machine_sample_next(&it, &(*out)[n]))
		n++;
	CHECK_EQ(n, m.nr_samples);
	CHECK(!spill || m.nr_samples - m.nr_spilled <= VMSTAT_IN_MEMORY);
	*spilled = m.nr_spilled;
	machine_free(&m);
	return n;
}

/* Samples past VMSTAT_IN_MEMORY go to a temporary file and come back
 * identical and in order. */
void test_vmstat_spill(void)
{
	struct vmstat_sample *a = NULL, *b = NULL;
	uint64_t sa = 0, sb = 0;
	uint64_t na = spill_run(true, &a, &sa), nb = spill_run(false, &b, &sb);
	CHECK(na > 2 * VMSTAT_IN_MEMORY);
	CHECK_EQ(na, nb);
	CHECK(sa >= VMSTAT_IN_MEMORY);
	CHECK_EQ(sb, 0);
	CHECK(na == nb && !memcmp(a, b, na * sizeof(*a)));
	for (uint64_t i = 1; i < na; i++)
		if (a[i].t <= a[i - 1].t) {
			CHECK(a[i].t > a[i - 1].t);
			break;
		}
	free(a);
	free(b);
}
