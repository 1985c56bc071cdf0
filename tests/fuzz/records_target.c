/* records_target.c - see records_target.h. */
#include "records_target.h"
#include "targets.h"
#include "../../src/cli/cli.h"
#include "../../src/engine/record.h"
#include "../../src/lib/util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FAIL(...) do { fprintf(stderr, "fuzz records: " __VA_ARGS__); fputc('\n', stderr); return false; } while (0)

/* The one cell the resumed sweep runs, and its record's command line. */
#define SWEEP_CMD "pagelab run --machine vmm-2008 --ram 12M --policy lru --seed 1 usemem -m 1"

/* A directory of this process for the files: the results file, merge's
 * output, the sweep's copy; removed at exit. */
static char dir[64];
static char res[96], out[96], swp[96];

static void remove_dir(void)
{
	unlink(res);
	unlink(out);
	unlink(swp);
	rmdir(dir);
}

static bool setup(void)
{
	if (dir[0])
		return true;
	snprintf(dir, sizeof(dir), "%s", "/tmp/pagelab-fuzz-records-XXXXXX");
	if (!mkdtemp(dir)) {
		dir[0] = 0;
		return false;
	}
	snprintf(res, sizeof(res), "%s/res", dir);
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(swp, sizeof(swp), "%s/swp", dir);
	atexit(remove_dir);
	return true;
}

static bool write_file(const char *path, const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	bool ok = fwrite(data, 1, size, f) == size;
	return fclose(f) == 0 && ok;
}

/* The whole of path into a new string (NULL if unreadable). */
static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t cap = 0, n = 0, got;
	do {
		buf = xrealloc(buf, cap += 65536);
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

/* A refusal: exactly one line on stderr, "pagelab: ...". */
static bool one_line(FILE *log)
{
	fflush(log);
	rewind(log);
	char line[1024];
	int n = 0;
	bool ok = true;
	while (fgets(line, sizeof(line), log)) {
		ok = ok && !n++ && !strncmp(line, "pagelab: ", 9);
		ok = ok && strchr(line, '\n');
	}
	return ok && n == 1;
}

/* No FILE.tmp.PID left in the directory. */
static bool no_temp(void)
{
	DIR *d = opendir(dir);
	if (!d)
		return false;
	struct dirent *e;
	bool ok = true;
	while ((e = readdir(d)))
		ok = ok && !strstr(e->d_name, ".tmp.");
	closedir(d);
	return ok;
}

/* Each command line once, in cell order after records_by_cell. */
static bool check_records(struct records *rs)
{
	for (int i = 0; i < rs->n; i++)
		if (!rs->r[i].cmd || !rs->r[i].design || !rs->r[i].config || !rs->r[i].line)
			FAIL("record %d without its command, design or configuration", i);
	records_dedupe(rs);
	const struct record **c = records_by_cell(rs);
	bool ordered = true;
	for (int i = 1; i < rs->n; i++)
		ordered = ordered && c[i - 1]->cell <= c[i]->cell;
	free(c);
	if (!ordered)
		FAIL("records_by_cell: not in cell order");
	char mixed[400];
	records_mixed(rs, mixed, sizeof(mixed));
	if (strchr(mixed, '\n'))
		FAIL("records_mixed: more than a line");
	records_sort_cmd(rs);
	for (int i = 1; i < rs->n; i++)
		if (!strcmp(rs->r[i - 1].cmd, rs->r[i].cmd))
			FAIL("records_dedupe left '%s' twice", rs->r[i].cmd);
	return true;
}

/* records_load; *distinct: the command lines it found (-1: refused). */
static bool load_one(int *distinct)
{
	struct records rs = { 0 };
	char err[800] = "";
	bool ok = true;
	*distinct = -1;
	if (!records_load(res, &rs, false, NULL, err, sizeof(err))) {
		if (!err[0] || strchr(err, '\n') || (strncmp(err, res, strlen(res)) && strncmp(err, "cannot read ", 12)))
			ok = false, fprintf(stderr, "fuzz records: records_load: bad message '%s'\n", err);
	} else {
		ok = check_records(&rs);
		*distinct = rs.n;
	}
	records_free(&rs);
	return ok;
}

static bool merge_one(int distinct, FILE *log)
{
	if (!log)
		return true;
	unlink(out);
	char *argv[] = { "merge", out, res, res, NULL };
	int rc = fuzz_run_captured(cmd_merge, 4, argv, log);
	if (!no_temp())
		FAIL("merge left a temporary file (exit %d)", rc);
	if (rc == EXIT_USAGE) {
		if (!one_line(log) || access(out, F_OK) == 0 || distinct >= 0)
			FAIL("merge: exit 2 on a file that loads, or not one line, or OUT written");
		return true;
	}
	if (rc != 0 || distinct < 0)
		FAIL("merge: exit %d (the file %s)", rc, distinct < 0 ? "is refused" : "loads");
	struct records rs = { 0 };
	char err[800];
	if (!records_load(out, &rs, false, NULL, err, sizeof(err)))
		FAIL("merge's output does not read back: %s", err);
	bool ok = rs.n == distinct && records_dedupe(&rs) == 0;
	records_free(&rs);
	if (!ok)
		FAIL("merge wrote %d records for %d command lines", rs.n, distinct);
	return true;
}

static bool compare_one(int distinct, FILE *log)
{
	if (!log)
		return true;
	char *argv[] = { "compare", res, NULL };
	int rc = fuzz_run_captured(cmd_compare_results, 2, argv, log);
	if (rc == EXIT_USAGE ? !one_line(log) : rc != 0)
		FAIL("compare: exit %d, or not one line", rc);
	if (rc == 0 && distinct < 1)
		FAIL("compare: exit 0 on a file without records");
	return true;
}

/* The sweep resumed from a copy of data. */
static bool sweep_one(const uint8_t *data, size_t size, FILE *log)
{
	if (!log || !write_file(swp, data, size))
		return true;
	char *argv[] = { "sweep", "--policy", "lru", "--ram", "12M", "-o", swp, "--", "usemem", "-m", "1", NULL };
	int rc = fuzz_run_captured(cmd_sweep, 11, argv, log);
	size_t len = 0;
	char *after = read_file(swp, &len);
	bool ok = after != NULL;
	if (ok && rc == EXIT_USAGE) {
		ok = one_line(log) && len == size && !memcmp(after, data, size);
		if (!ok)
			fprintf(stderr, "fuzz records: sweep: exit 2 but not one line, or the file changed\n");
	} else if (ok && (rc == 0 || rc == 1 || rc == 3)) {
		struct records rs = { 0 };
		char err[800];
		long partial;
		ok = records_load(swp, &rs, false, &partial, err, sizeof(err)) && partial < 0;
		records_sort_cmd(&rs);
		ok = ok && records_find_cmd(&rs, SWEEP_CMD);
		records_free(&rs);
		if (!ok)
			fprintf(stderr, "fuzz records: sweep: exit %d but its file has no whole record of the cell\n", rc);
	} else if (ok) {
		ok = false;
		fprintf(stderr, "fuzz records: sweep: exit %d\n", rc);
	}
	free(after);
	return ok && no_temp();
}

bool fuzz_records_one(const uint8_t *data, size_t size)
{
	if (size > 65536)
		size = 65536;
	if (!setup() || !write_file(res, data, size))
		return true; /* no temporary directory: nothing to check */
	/* Each command's stderr in a file of its own. */
	FILE *log[3] = { tmpfile(), tmpfile(), tmpfile() };
	int distinct;
	bool ok = load_one(&distinct) && merge_one(distinct, log[0]) && compare_one(distinct, log[1]) &&
		  sweep_one(data, size, log[2]);
	for (int i = 0; i < 3; i++)
		if (log[i])
			fclose(log[i]);
	return ok;
}
