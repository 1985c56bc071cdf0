/* merge.c - pagelab merge: join results files (the shards of a sweep, or
 * sweeps run on several machines) into one: every record once (the first
 * of equal command lines), in cell order, so merging a sweep's shards
 * gives the file the unsharded sweep would have written. */
#include "cli.h"
#include "../experiment/record.h"
#include "../lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void merge_usage(FILE *out)
{
	fputs(
"usage: pagelab merge OUT IN...\n"
"Join results files (JSON lines from pagelab sweep -o) into OUT: each cell\n"
"once (the first record of a command line wins), ordered by cell number.\n"
"OUT is written whole to a temporary file and renamed, so it may be one\n"
"of the inputs.  See docs/sweeps.md.\n", out);
}

static int by_cell(const void *a, const void *b)
{
	const struct record *x = *(const struct record *const *)a, *y = *(const struct record *const *)b;
	if (x->cell != y->cell)
		return x->cell < y->cell ? -1 : 1;
	int c = strcmp(x->cmd, y->cmd);
	return c ? c : (x < y ? -1 : x > y);
}

int cmd_merge(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			merge_usage(stdout);
			return 0;
		}
	if (argc < 3)
		die_usage("merge: needs OUT and at least one IN (see pagelab merge --help)");
	struct records rs = { 0 };
	char err[600];
	for (int i = 2; i < argc; i++)
		if (!records_load(argv[i], &rs, false, NULL, err, sizeof(err)))
			die_usage("%s", err);
	/* Dedupe: sort by command line (stable on file order), keep the first. */
	records_sort_cmd(&rs);
	const struct record **keep = xcalloc((size_t)rs.n + 1, sizeof(*keep));
	int nk = 0;
	for (int i = 0; i < rs.n; i++)
		if (!nk || strcmp(keep[nk - 1]->cmd, rs.r[i].cmd))
			keep[nk++] = &rs.r[i];
	qsort(keep, (size_t)nk, sizeof(*keep), by_cell);
	const char *out = argv[1];
	size_t tl = strlen(out) + 16;
	char *tmp = xmalloc(tl);
	snprintf(tmp, tl, "%s.tmp", out);
	FILE *f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "pagelab: cannot write %s: %s\n", tmp, strerror(errno));
		exit(1);
	}
	for (int i = 0; i < nk; i++)
		fprintf(f, "%s\n", keep[i]->line);
	int rc = 0;
	if (fflush(f) != 0 || ferror(f) || fclose(f) != 0) {
		fprintf(stderr, "pagelab: error writing %s: %s\n", tmp, strerror(errno));
		remove(tmp);
		rc = 1;
	} else if (rename(tmp, out) != 0) {
		fprintf(stderr, "pagelab: cannot rename %s to %s: %s\n", tmp, out, strerror(errno));
		remove(tmp);
		rc = 1;
	}
	fprintf(stderr, "pagelab merge: %d records from %d file%s, %d distinct\n", rs.n, argc - 2,
		argc == 3 ? "" : "s", nk);
	free(tmp);
	free(keep);
	records_free(&rs);
	return rc;
}
