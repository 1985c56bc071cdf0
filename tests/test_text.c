/* test_text.c - reproduce's text fitted to 80 columns (exp_text.c): a
 * program's output kept verbatim beside its label or moved below it as
 * a block, and prose word-wrapped under its label. */
#include "test.h"
#include "../src/reproduce/exp_text.h"

#include <stdlib.h>
#include <string.h>

static char *block(const char *indent, const char *label, const char *lines)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	exp_block(f, indent, label, lines);
	fclose(f);
	return buf;
}

void test_text_block_beside(void);
void test_text_block_beside(void)
{
	/* fits: the label on the first line, blanks under it */
	char *s = block("    ", "pagelab", "1.00user 0.50system\n(3major+4minor)pagefaults");
	CHECK(!strcmp(s, "    pagelab   1.00user 0.50system\n"
			 "              (3major+4minor)pagefaults\n"));
	free(s);
}

void test_text_block_below(void);
void test_text_block_below(void)
{
	/* a 70-column table does not fit beside a 14-column label: the label
	 * goes on its own line and the table, shifted as one, ends at 80 */
	char row[71], head[71];
	memset(row, 'x', 70);
	row[70] = 0;
	memset(head, ' ', 10);
	memset(head + 10, 'h', 60);
	head[70] = 0;
	char in[200];
	snprintf(in, sizeof(in), "%s\n%s", head, row);
	char *s = block("    ", "thread", in);
	char want[300];
	snprintf(want, sizeof(want), "    thread:\n          %s\n          %s\n", head, row);
	CHECK(!strcmp(s, want));
	free(s);

	/* common leading blanks go first: an 81-column block that starts with
	 * a blank on every line loses it and lands at column 0 */
	char wide[82];
	memset(wide, 'w', 81);
	wide[0] = ' ';
	wide[81] = 0;
	snprintf(in, sizeof(in), "%s\n%s", wide, wide);
	s = block("    ", "thread", in);
	snprintf(want, sizeof(want), "    thread:\n%s\n%s\n", wide + 1, wide + 1);
	CHECK(!strcmp(s, want));
	free(s);
}

void test_text_wrap(void);
void test_text_wrap(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	exp_wrap(f, "summary:", 9, "%s", "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo");
	fclose(f);
	CHECK(!strcmp(buf, "summary: aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn\n"
			   "         oooo\n"));
	free(buf);
}
