/* merge.c - pagelab merge: join results files (the shards of a sweep, or
 * sweeps run on several machines) into one: every record once (the first
 * of equal command lines), in cell order, so merging a sweep's shards
 * gives the file the unsharded sweep would have written. */
#include "cli.h"
#include "../engine/record.h"
#include "../lib/output.h"
#include "../lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct opt merge_table[] = {
	{ .kind = OPT_END },
};

/* No options: every argument is a file (--help aside). */
const struct opt_cmd merge_cmd = {
	.name = "merge",
	.usage =
"usage: pagelab merge OUT IN...\n"
"Join results files (JSON lines from pagelab sweep -o) into OUT: each cell\n"
"once (the first record of a command line wins), ordered by cell number.\n"
"OUT is written whole to a temporary file and renamed, so it may be one\n"
"of the inputs; a device or FIFO is written in place, a symbolic link's\n"
"target is replaced.  See docs/sweeps.md.\n",
	.opts = merge_table,
};

int cmd_merge(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			opt_usage(&merge_cmd, stdout);
			return 0;
		}
	if (argc < 3)
		die_usage("merge: needs OUT and at least one IN (see pagelab merge --help)");
	/* OUT first, through output.c: refused before the inputs are read;
	 * a temporary name of this process (concurrent merges into one OUT
	 * do not share one), a device or FIFO written in place, never
	 * renamed over.  OUT may be one of the inputs: it is replaced only
	 * once the merge is complete. */
	char err[600];
	struct atomic_file af;
	if (!atomic_open(&af, argv[1], err, sizeof(err)))
		die_usage("%s", err);
	struct records rs = { 0 };
	for (int i = 2; i < argc; i++)
		if (!records_load(argv[i], &rs, false, NULL, err, sizeof(err))) {
			atomic_abort(&af);
			die_usage("%s", err);
		}
	int nread = rs.n;
	records_dedupe(&rs);
	const struct record **keep = records_by_cell(&rs);
	int nk = rs.n;
	for (int i = 0; i < nk; i++)
		fprintf(af.f, "%s\n", keep[i]->line);
	int rc = 0;
	if (!atomic_commit(&af, err, sizeof(err))) {
		fprintf(stderr, "pagelab: %s\n", err);
		rc = 1;
	}
	fprintf(stderr, "pagelab merge: %d records from %d file%s, %d distinct\n", nread, argc - 2,
		argc == 3 ? "" : "s", nk);
	free(keep);
	records_free(&rs);
	return rc;
}
