/* compare_kernel.h - one case of `pagelab compare -- WORKLOAD` as a
 * value (compare_kernel.c), so that --matrix (compare_matrix.c) runs many
 * the same way: parsed, prepared, both sides run and the table built. */
#ifndef PAGELAB_CLI_COMPARE_KERNEL_H
#define PAGELAB_CLI_COMPARE_KERNEL_H

#include "../engine/kcompare.h"
#include "../engine/record.h"
#include "../report/htmlpage.h"

#include <stdio.h>

/* What the options give beside the kcompare. */
struct copts {
	const char *html, *fit, *fit_profile, *matrix;
	double tol, floor;
};

struct cargs {
	struct kcompare k;
	struct copts o;
};

struct kcase {
	struct cargs ca;
	const char *pol[32];
	int npol;
	char *pol_names;
	char note[512];            /* --fit-cpu's, for the header */
	struct records kern, sim;
	const struct record **kr, **sr;
	char *cmd, *setlist;
	struct kcmp_setup setup;
	struct kcmp x;
	bool built;
};

/* compare's options (the defaults first) into ca: false after --help
 * (printed).  Without --matrix a workload must follow "--"; with it, none
 * may.  Bad input: exit 2. */
bool kcase_parse(int argc, char **argv, struct cargs *ca);
/* c from parsed options (ca's allocations become c's): the machine sized
 * like the host, the policies checked, the host's --set options added. */
void kcase_start(struct kcase *c, const struct cargs *ca);
/* Run both sides (through the caches) and build c->x; again after
 * changing c->ca.k.repeat.  A failure ends the process as compare's. */
void kcase_sides(struct kcase *c);
/* Drop what kcase_sides() made. */
void kcase_clear(struct kcase *c);
void kcase_free(struct kcase *c);

/* Write an HTML page to path atomically: page(out, arg, provenance) with
 * compare's command line (argv) as its provenance; 1 with a line on
 * stderr when it cannot be written. */
typedef void compare_page_fn(FILE *out, const void *arg, const struct html_provenance *pv);
int compare_write_page(const char *path, int argc, char **argv, compare_page_fn *page, const void *arg);

/* compare --matrix FILE (compare_matrix.c); argv: compare's, for the
 * options every case shares. */
int compare_matrix(struct cargs *ca, int argc, char **argv);

#endif
