/* test_records_io.c - reading results files with a bound (issue 36):
 * records_load's line limit, NUL bytes, the offset of a cut last line
 * with CRLF ends, and records_dedupe / records_mixed. */
#include "test.h"
#include "../src/engine/record.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REC(cell, cmd, version) \
	"{\"cell\": " #cell ", \"cmd\": \"" cmd "\", \"version\": \"" version "\", \"design\": \"lru\", " \
	"\"config\": \"c\", \"seed\": 1}"

/* A file holding text (len bytes) under a fresh name in path. */
static void write_tmp(char *path, const char *text, size_t len)
{
	strcpy(path, "/tmp/pagelab-test-records-XXXXXX");
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, text, len) == (ssize_t)len);
	close(fd);
}

void test_records_load_line_limit(void);
void test_records_load_line_limit(void)
{
	static const char first[] = REC(0, "a", "v") "\n";
	size_t at = sizeof(first) - 1, n = at + RECORD_LINE_MAX + 1;
	char *text = malloc(n);
	memcpy(text, first, at);
	memset(text + at, 'x', n - at);
	char path[64], err[300] = "", want[400];
	write_tmp(path, text, n);
	struct records rs = { 0 };
	CHECK(!records_load(path, &rs, false, NULL, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:2: line longer than 1048576 bytes", path);
	CHECK(!strcmp(err, want));
	records_free(&rs);
	unlink(path);
	free(text);
}

void test_records_load_nul_byte(void);
void test_records_load_nul_byte(void)
{
	static const char text[] = REC(0, "a", "v") "\0junk\n";
	char path[64], err[300] = "", want[400];
	write_tmp(path, text, sizeof(text) - 1);
	struct records rs = { 0 };
	CHECK(!records_load(path, &rs, false, NULL, err, sizeof(err)));
	snprintf(want, sizeof(want), "%s:1: a NUL byte: not a results file", path);
	CHECK(!strcmp(err, want));
	CHECK_EQ(rs.n, 0);
	records_free(&rs);
	unlink(path);
}

/* The cut last line's offset counts every byte before it, CRs too. */
void test_records_load_partial_crlf(void);
void test_records_load_partial_crlf(void)
{
	static const char text[] = REC(0, "a", "v") "\r\n\n" REC(1, "b", "v") "\r\n{\"cell\": 2";
	char path[64], err[300] = "";
	write_tmp(path, text, sizeof(text) - 1);
	struct records rs = { 0 };
	long partial = 0;
	CHECK(records_load(path, &rs, false, &partial, err, sizeof(err)));
	CHECK_EQ(rs.n, 2);
	CHECK_EQ(partial, (long)(strchr(text, '\0') - text) - (long)strlen("{\"cell\": 2"));
	records_free(&rs);
	unlink(path);
}

void test_records_dedupe_keeps_first_and_order(void);
void test_records_dedupe_keeps_first_and_order(void)
{
	static const char text[] = REC(5, "z", "v") "\n" REC(1, "a", "v") "\n" REC(5, "z", "v") "\n"
		REC(2, "b", "v") "\n" REC(1, "a", "v") "\n";
	char path[64], err[300] = "", mixed[300];
	write_tmp(path, text, sizeof(text) - 1);
	struct records rs = { 0 };
	CHECK(records_load(path, &rs, false, NULL, err, sizeof(err)));
	CHECK_EQ(records_dedupe(&rs), 2);
	CHECK_EQ(rs.n, 3);
	CHECK(rs.n == 3 && !strcmp(rs.r[0].cmd, "z") && !strcmp(rs.r[1].cmd, "a") && !strcmp(rs.r[2].cmd, "b"));
	records_mixed(&rs, mixed, sizeof(mixed));
	CHECK(!strcmp(mixed, ""));
	records_free(&rs);
	unlink(path);
}

/* records_mixed of the records in text says want. */
static void check_mixed(const char *text, const char *want)
{
	char path[64], err[300] = "", mixed[300];
	struct records rs = { 0 };
	write_tmp(path, text, strlen(text));
	CHECK(records_load(path, &rs, false, NULL, err, sizeof(err)));
	records_mixed(&rs, mixed, sizeof(mixed));
	CHECK(!strcmp(mixed, want));
	records_free(&rs);
	unlink(path);
}

void test_records_mixed_versions_and_sweeps(void);
void test_records_mixed_versions_and_sweeps(void)
{
	check_mixed(REC(0, "a", "v1") "\n" REC(1, "b", "v2") "\n",
		    "the records come from different pagelab versions (v1, v2)");
	check_mixed(REC(3, "a", "v") "\n" REC(3, "b", "v") "\n",
		    "the records come from different sweeps (cell 3 has two command lines)");
	check_mixed(REC(3, "a", "v") "\n" REC(4, "b", "v") "\n", "");
}
