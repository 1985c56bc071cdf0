/* htmlpage.c - see htmlpage.h. */
#include "htmlpage.h"
#include "chart.h"
#include "../machine/profile.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

void html_date(char *buf, size_t len)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t now = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;
	snprintf(buf, len, "date unknown");
	if (gmtime_r(&now, &tm))
		strftime(buf, len, "%Y-%m-%d %H:%M UTC", &tm);
}

char *html_cmdline(int argc, char *const *argv)
{
	char *words = join_words(argc, argv);
	size_t n = strlen(words) + sizeof("pagelab ");
	char *s = xmalloc(n);
	snprintf(s, n, argc ? "pagelab %s" : "pagelab", words);
	free(words);
	return s;
}

void html_page_begin(FILE *out, const char *title, const char *extra_css)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
	html_escape(out, title);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;max-width:1200px;margin:1em auto;padding:0 1em;color:#222}\n"
	      "pre{background:#f4f4f4;padding:.6em;overflow-x:auto;font-size:12px}\n"
	      "table.t{border-collapse:collapse;font-size:13px;margin:.5em 0}\n"
	      "table.t td,table.t th{border:1px solid #ccc;padding:2px 6px;vertical-align:top}\n"
	      "table.t td.n{text-align:right;font-family:monospace}\n"
	      ".src{color:#777;font-size:11px}.na{color:#777;font-style:italic}\n"
	      ".prov{font-size:12px;color:#555}.stop{color:#a40;font-weight:bold}\n"
	      "svg{display:inline-block;vertical-align:top;margin:0 .5em .5em 0}\n", out);
	if (extra_css)
		fputs(extra_css, out);
	fputs("</style>\n</head>\n<body>\n<h1>", out);
	html_escape(out, title);
	fputs("</h1>\n", out);
}

void html_provenance(FILE *out, const struct html_provenance *pv)
{
	fputs("<p class=\"prov\">pagelab ", out);
	html_escape(out, pv->version);
	if (pv->mode) {
		fputs(" &middot; ", out);
		html_escape(out, pv->mode);
	}
	fputs(" &middot; ", out);
	html_escape(out, pv->date);
	fputs("<br><code>", out);
	html_escape(out, pv->cmdline);
	fputs("</code></p>\n", out);
}

void html_page_end(FILE *out)
{
	fputs("</body>\n</html>\n", out);
}

void html_params(FILE *out, const char *summary, int n, const char *const *names, const char *const *values)
{
	fputs("<details><summary>", out);
	html_escape(out, summary);
	fputs("</summary>\n<table class=\"t params\">\n", out);
	for (int i = 0; i < n; i++) {
		fputs(i % 3 ? "" : "<tr>", out);
		fputs("<td>", out);
		html_escape(out, names[i]);
		fputs("</td><td class=\"n\">", out);
		html_escape(out, values[i]);
		fputs(i % 3 == 2 || i == n - 1 ? "</td></tr>\n" : "</td>", out);
	}
	fputs("</table>\n</details>\n", out);
}

void html_profile_params(FILE *out, const char *summary, const struct profile *p)
{
	enum { MAX = 128 };
	const char *names[MAX];
	char values[MAX][64];
	const char *vp[MAX];
	int n = 0;
	while (n < MAX && (names[n] = profile_param(p, n, values[n], sizeof(values[n])))) {
		vp[n] = values[n];
		n++;
	}
	html_params(out, summary, n, names, vp);
}
