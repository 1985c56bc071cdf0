/* htmlpage.h - the frame every HTML report of pagelab shares (run, sweep,
 * compare, reproduce): a self-contained page (inline CSS, no script, no
 * outside resource) opening with a provenance line saying which pagelab
 * wrote it, when, and with what command. */
#ifndef PAGELAB_HTMLPAGE_H
#define PAGELAB_HTMLPAGE_H

#include <stdio.h>
#include <stddef.h>

struct html_provenance {
	const char *version;   /* pagelab_version() */
	const char *cmdline;   /* the command that wrote it */
	const char *mode;      /* e.g. "quick mode", or NULL */
	const char *date;      /* when (UTC; SOURCE_DATE_EPOCH if set) */
};

/* "YYYY-MM-DD HH:MM UTC" of now, or of $SOURCE_DATE_EPOCH when it is set
 * (reproducible builds' convention), so tests can compare pages byte for
 * byte. */
void html_date(char *buf, size_t len);

/* "pagelab ARGV[0] ARGV[1]..." (a subcommand's argv) in a new string. */
char *html_cmdline(int argc, char *const *argv);

/* <!DOCTYPE> to the <h1>: title, the shared CSS plus extra_css (or NULL). */
void html_page_begin(FILE *out, const char *title, const char *extra_css);
/* <p class="prov">pagelab VERSION · MODE · DATE<br><code>COMMAND</code></p> */
void html_provenance(FILE *out, const struct html_provenance *pv);
void html_page_end(FILE *out);

/* Every machine parameter behind a <details> SUMMARY: N names and values
 * in a table three pairs wide (every report says what machine it ran on,
 * as its --json does). */
void html_params(FILE *out, const char *summary, int n, const char *const *names, const char *const *values);
struct profile;
/* The same for a profile, in profile_param's order and spelling. */
void html_profile_params(FILE *out, const char *summary, const struct profile *p);

#endif
