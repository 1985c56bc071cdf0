/* fmt_lackey.c - valgrind's lackey tool with --trace-mem=yes: one access
 * per line,
 *   I  04000b20,3        instruction fetch (I in column 1)
 *    L 1ffefffe88,8      load   ( S store, M modify: a load then a store)
 * hex address without 0x, decimal size.  Lines valgrind writes itself
 * (==PID== banner and messages, --PID-- warnings) are skipped; the PID of
 * the last banner line is each reference's pid.  An access that crosses a
 * page boundary touches every page it covers; M gives a read then a write
 * of each.  Instruction fetches are references too (the text pages a
 * program runs are memory it needs); opts.no_instructions drops them. */
#include "format.h"

#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

struct lackey_state { uint32_t pid; };

static bool lackey_open(struct trace_reader *r, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	r->st = xcalloc(1, sizeof(struct lackey_state));
	return true;
}


static uint32_t banner_pid(const char *l, size_t len)
{
	/* "==12345== ..." */
	uint64_t pid = 0;
	size_t i = 2;
	while (i < len && l[i] >= '0' && l[i] <= '9' && pid <= UINT32_MAX)
		pid = pid * 10 + (uint64_t)(l[i++] - '0');
	if (i == 2 || i + 1 >= len || l[i] != '=' || l[i + 1] != '=' || pid > UINT32_MAX)
		return 0;
	return (uint32_t)pid;
}

static int lackey_record(struct trace_reader *r, struct span *s)
{
	uint32_t *pid = &((struct lackey_state *)r->st)->pid;
	char *l;
	size_t len;
	for (;;) {
		int rc = reader_line(r, &l, &len);
		if (rc <= 0)
			return rc;
		while (len && (l[len - 1] == '\r' || l[len - 1] == ' '))
			len--;
		if (len == 0)
			continue;
		if (len >= 2 && ((l[0] == '=' && l[1] == '=') || (l[0] == '-' && l[1] == '-'))) {
			uint32_t p = l[0] == '=' ? banner_pid(l, len) : 0;
			if (p)
				*pid = p;
			continue;
		}
		enum span_mode mode;
		bool instr = false;
		if (len > 3 && l[0] == 'I' && l[1] == ' ' && l[2] == ' ') {
			mode = SPAN_READ;
			instr = true;
		} else if (len > 3 && l[0] == ' ' && l[2] == ' ' && (l[1] == 'L' || l[1] == 'S' || l[1] == 'M')) {
			mode = l[1] == 'L' ? SPAN_READ : l[1] == 'S' ? SPAN_WRITE : SPAN_MODIFY;
		} else {
			return reader_fail(r, "not a lackey record (expected 'I  ADDR,SIZE' or ' L|S|M ADDR,SIZE')");
		}
		const char *a = l + 3, *end = l + len;
		while (a < end && *a == ' ')
			a++;
		const char *comma = memchr(a, ',', (size_t)(end - a));
		uint64_t addr, size;
		if (!comma || !parse_hex(a, (size_t)(comma - a), &addr))
			return reader_fail(r, "bad address");
		if (!parse_id(comma + 1, (size_t)(end - comma - 1), &size) || size == 0 || (comma[1] == '0' && comma[2] == 'x'))
			return reader_fail(r, "bad size");
		if (size - 1 > UINT64_MAX - addr)
			return reader_fail(r, "access runs past the end of the address space");
		if (instr && r->opts.no_instructions)
			continue;
		memset(s, 0, sizeof(*s));
		s->ref.page = addr >> 12;
		s->ref.pid = *pid;
		s->npages = ((addr + size - 1) >> 12) - (addr >> 12) + 1;
		s->mode = mode;
		return 1;
	}
}

const struct format_ops fmt_lackey = {
	.fmt = TRACE_FMT_LACKEY,
	.name = "lackey",
	.open = lackey_open,
	.record = lackey_record,
	.close = reader_free_state,
};
