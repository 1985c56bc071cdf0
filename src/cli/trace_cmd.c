/* trace_cmd.c - pagelab trace convert|info: a trace of any format into
 * pagelab's binary one (dense page ids, counts in the header), and the
 * figures of a trace read the way the replay reads it. */
#include "cli.h"
#include "reader_opts.h"
#include "../trace/trace_reader.h"
#include "../trace/bintrace.h"
#include "../trace/pagemap.h"
#include "../mrc/tinfo.h"
#include "../cachesim/marks.h"
#include "../lib/json.h"
#include "../lib/version.h"
#include "../lib/util.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BATCH 4096

static const struct opt trace_table[] = {
	{ .kind = OPT_GROUP, .group = reader_opts },
	{ .kind = OPT_END },
};

const struct opt_cmd trace_cmd = {
	.name = "trace",
	.usage =
"usage: pagelab trace convert [READER OPTIONS] IN OUT\n"
"       pagelab trace info [READER OPTIONS] [--json] [--window N] FILE\n"
"convert writes IN (any format, '-' for stdin, zstd/gzip) as a pagelab binary\n"
"trace: 8-byte records of dense page ids, with the counts in its header, that\n"
"the replay reads without a hash (docs/trace-format.md).  info reads FILE as\n"
"the replay does and prints its references, distinct pages, writes, format,\n"
"the host memory reading it took, the read/write and anon/file shares, the Zipf\n"
"alpha fitted to its popularity, a histogram of its reuse (LRU stack)\n"
"distances in log2 buckets and its working set (distinct pages) per --window N\n"
"references (default: a tenth of the trace; 65536 on stdin); --json: all of it\n"
"as one JSON object (docs/trace-format.md, \"trace info\").\n",
	.opts = trace_table,
	.col = 21,
	.after =
"A record over the --max-request bound is an error (FILE:RECORD: request of N\n"
"pages is larger than ...): one bad row must not fill the host's memory.  A\n"
"trace with no references is an error too, as in run and mrc.\n",
	.prefix = "trace: ",
	.unknown = "trace: unknown option '%s' (see pagelab trace --help)",
	.mode = OPT_LEADING,
};

/* trace info's options: the readers' and its own. */
struct info_args {
	struct trace_opts o;
	bool json;
	uint64_t window;
};

#define AT(f) offsetof(struct info_args, f)
static const struct opt trace_info_table[] = {
	{ .kind = OPT_GROUP, .group = reader_opts, .at = AT(o) },
	{ "--json", NULL, OPT_FLAG, AT(json), .help = "print the figures as one JSON object" },
	{ "--window", NULL, OPT_U64, AT(window), "N", 1, (double)UINT64_MAX, "(references, at least 1)",
	  .help = "working set per N references (default: a tenth\nof the trace; 65536 on stdin)" },
	{ .kind = OPT_END },
};

static const struct opt_cmd trace_info_cmd = {
	.name = "trace info",
	.usage = "usage: pagelab trace info [READER OPTIONS] [--json] [--window N] FILE\n",
	.opts = trace_info_table,
	.col = 21,
	.prefix = "trace: ",
	.unknown = "trace: unknown option '%s' (see pagelab trace --help)",
	.mode = OPT_LEADING,
};

/* The reader options after "convert" or "info" (argv[1]); the index of
 * the first other argument, or -1 after --help. */
static int reader_opts_of(int argc, char **argv, struct trace_opts *o)
{
	int next;
	if (opt_parse(&trace_cmd, argc - 1, argv + 1, o, &next) != OPT_GO)
		return -1;
	return next + 1;
}

struct pass {
	uint64_t nrefs, writes;
	size_t host;
	char err[320];          /* why a pass failed */
};

/* Read every reference of rd, numbering pages densely into m; each goes
 * to w when there is one.  false with ps->err on a bad record. */
static bool read_all(struct trace_reader *rd, const char *name, struct pagemap *m, bool dense,
		     struct bintrace_writer *w, struct tinfo *ti, struct pass *ps)
{
	struct trace_ref *b = xmalloc(BATCH * sizeof(*b));
	bool ok = true;
	long n;
	while (ok && (n = trace_next(rd, b, BATCH)) != 0) {
		if (n < 0) {
			snprintf(ps->err, sizeof(ps->err), "%s", trace_reader_error(rd));
			ok = false;
		}
		for (long i = 0; ok && i < n; i++) {
			struct trace_ref ref = b[i];
			uint32_t idx;
			if (!dense && !pagemap_get(m, ref.page, ref.pid, &idx)) {
				snprintf(ps->err, sizeof(ps->err), "%s: more than %u distinct pages", name, PAGEMAP_MAX);
				ok = false;
				break;
			}
			if (!dense)
				ref.page = idx;
			ps->writes += ref.write;
			if (ti)
				tinfo_add(ti, (uint32_t)ref.page, ref.write, ref.kind);
			if (w && !bintrace_put(w, &ref, ps->err, sizeof(ps->err)))
				ok = false;
		}
		ps->nrefs += ok ? (uint64_t)n : 0;
		size_t h = trace_reader_host_bytes(rd) + pagemap_host_bytes(m) + BATCH * sizeof(*b) +
			   (ti ? tinfo_host_bytes(ti) : 0);
		if (h > ps->host)
			ps->host = h;
	}
	free(b);
	return ok;
}

/* The end of a pass that failed (ps->err says why) or read nothing: a
 * trace without references is bad input for every command that reads one
 * (run, mrc, and here), in the same words.  Everything is freed before
 * exit, so that a sanitizer's leak check (or valgrind's) finds nothing
 * and the exit status stays 2. */
static void end_pass(bool ok, struct pass *ps, const char *path, struct trace_reader *rd, struct pagemap *m,
		     struct bintrace_writer *w)
{
	if (ok && ps->nrefs)
		return;
	if (ok)
		snprintf(ps->err, sizeof(ps->err), "trace '%s' holds no references", path);
	if (w)
		bintrace_abort(w);
	pagemap_free(m);
	trace_close(rd);
	die_usage("%s", ps->err);
}

static int trace_convert(int argc, char **argv)
{
	struct trace_opts o = { .format = TRACE_FMT_AUTO };
	int i = reader_opts_of(argc, argv, &o);
	if (i < 0)
		return 0;
	if (argc - i != 2)
		die_usage("trace convert: expected IN and OUT (see pagelab trace --help)");
	const char *in = argv[i], *out = argv[i + 1];
	if (!strcmp(out, "-"))
		die_usage("trace convert: OUT must be a file (the header is written last)");
	char err[320];
	struct trace_reader *rd = trace_open(in, &o, err, sizeof(err));
	if (!rd)
		die_usage("%s", err);
	uint64_t hn, hp;
	bool dense = trace_reader_counts(rd, &hn, &hp);
	struct bintrace_writer *w = bintrace_create(out, err, sizeof(err));
	if (!w) {
		trace_close(rd);
		die_usage("%s", err);
	}
	struct pagemap m = { 0 };
	struct pass ps = { 0 };
	end_pass(read_all(rd, in, &m, dense, w, NULL, &ps), &ps, in, rd, &m, w);
	uint64_t npages = dense ? hp : m.used;
	if (!bintrace_finish(w, npages, err, sizeof(err))) {
		fprintf(stderr, "pagelab: %s\n", err); /* a write error, not bad input */
		return 1;
	}
	fprintf(stderr, "pagelab: %s (%s): %llu references to %llu distinct pages -> %s\n", in,
		trace_format_name(trace_reader_format(rd)), (unsigned long long)ps.nrefs,
		(unsigned long long)npages, out);
	pagemap_free(&m);
	trace_close(rd);
	return 0;
}

/* --window's default: a tenth of the trace (counted first: a binary
 * trace's header, else a pass over the file), 65536 on stdin. */
static uint64_t default_window(const char *path, const struct trace_opts *o)
{
	char err[320];
	uint64_t n;
	if (!strcmp(path, "-"))
		return 65536;
	if (!trace_count_refs(path, o, &n, err, sizeof(err)))
		die_usage("%s", err);
	return n ? (n + 9) / 10 : 1;
}

static void info_json(const char *path, const char *format, const struct pass *ps,
		      uint64_t npages, const struct tinfo *ti)
{
	printf("{\n  \"pagelab_version\": ");
	json_str(stdout, pagelab_version());
	printf(",\n  \"trace\": ");
	json_str(stdout, path);
	printf(",\n  \"format\": \"%s\",\n", format);
	printf("  \"references\": %llu,\n  \"distinct_pages\": %llu,\n  \"writes\": %llu,\n",
	       (unsigned long long)ps->nrefs, (unsigned long long)npages, (unsigned long long)ps->writes);
	tinfo_print_json(ti, stdout);
	printf("}\n");
}

static int trace_info(int argc, char **argv)
{
	struct info_args ia = { .o = { .format = TRACE_FMT_AUTO } };
	int i, next;
	if (opt_parse(&trace_info_cmd, argc - 1, argv + 1, &ia, &next) != OPT_GO)
		return 0;
	i = next + 1;
	if (argc - i != 1)
		die_usage("trace info: expected one FILE (see pagelab trace --help)");
	const char *path = argv[i];
	char err[320];
	uint64_t window = ia.window ? ia.window : default_window(path, &ia.o);
	struct trace_reader *rd = trace_open(path, &ia.o, err, sizeof(err));
	if (!rd)
		die_usage("%s", err);
	uint64_t hn, hp;
	bool dense = trace_reader_counts(rd, &hn, &hp);
	struct pagemap m = { 0 };
	struct pass ps = { 0 };
	struct tinfo ti;
	tinfo_init(&ti, window);
	bool ok = read_all(rd, path, &m, dense, NULL, &ti, &ps);
	if (!ok || !ps.nrefs)
		tinfo_free(&ti);
	end_pass(ok, &ps, path, rd, &m, NULL);
	tinfo_finish(&ti);
	uint64_t npages = dense ? hp : m.used;
	const char *format = trace_format_name(trace_reader_format(rd));
	if (ia.json) {
		info_json(path, format, &ps, npages, &ti);
	} else {
		printf("format      %s\n", format);
		printf("references  %llu\n", (unsigned long long)ps.nrefs);
		printf("distinct    %llu pages\n", (unsigned long long)npages);
		printf("writes      %llu\n", (unsigned long long)ps.writes);
		printf("host memory %.1f MiB while reading (%.2f bytes per reference)\n", (double)ps.host / (1 << 20),
		       (double)ps.host / (double)ps.nrefs);
		tinfo_print_text(&ti, stdout);
	}
	tinfo_free(&ti);
	pagemap_free(&m);
	trace_close(rd);
	return 0;
}

int cmd_trace(int argc, char **argv)
{
	if (argc < 2) {
		opt_usage(&trace_cmd, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		opt_usage(&trace_cmd, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "convert"))
		return trace_convert(argc, argv);
	if (!strcmp(argv[1], "info"))
		return trace_info(argc, argv);
	die_usage("trace: unknown subcommand '%s' (convert, info)", argv[1]);
}
