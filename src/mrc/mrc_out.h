/* mrc_out.h - `pagelab mrc`'s outputs of a computed result (mrc.h): a
 * table that fits 80 columns (three curves side by side per block), CSV
 * (one row per curve and size), JSON (with the pagelab version and the
 * command line), and a plot of miss ratio against cache size on a log
 * axis, one line per curve, as SVG or as a self-contained HTML page. */
#ifndef PAGELAB_MRC_OUT_H
#define PAGELAB_MRC_OUT_H

#include <stdio.h>

#include "mrc.h"

void mrc_print_table(FILE *out, const struct mrc_result *r, const char *path);
void mrc_print_csv(FILE *out, const struct mrc_result *r);
/* argv[0..argc): the command line, for provenance. */
void mrc_print_json(FILE *out, const struct mrc_result *r, const char *path, int argc, char *const *argv);

/* mrc_plot.c: the plot (src/report/chart.h), as an SVG document or as
 * an HTML page with a provenance line and the figures in a table. */
void mrc_plot_svg(FILE *out, const struct mrc_result *r, const char *path);
void mrc_plot_html(FILE *out, const struct mrc_result *r, const char *path, int argc, char *const *argv);

const char *mrc_method_name(enum mrc_method m);

#endif
