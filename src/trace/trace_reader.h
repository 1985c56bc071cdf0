/* trace_reader.h - streaming readers of memory-reference traces, one per
 * format, behind one interface: open a file (or "-" for stdin; zstd and
 * gzip are decompressed on the fly) with a format or detection, then take
 * references in batches until the end.  No reader holds the whole trace.
 *
 * Formats (docs/trace-format.md):
 *   text    pagelab's own "PAGE r|w [pid=N] [anon|file]" lines
 *   lackey  valgrind --tool=lackey --trace-mem=yes output (I/L/S/M records)
 *   csv     libCacheSim-style csv, columns chosen by a spec string
 *   txt     one object id per line (libCacheSim's txt)
 *   oracle  libCacheSim's oracleGeneral binary (24-byte records)
 *   vscsi   VMware vscsi binary (libCacheSim's two record versions)
 *   block   csv block I/O trace: byte offset + size split into 4 KiB pages
 *   bin     pagelab's compact binary format (dense page ids; bintrace.h)
 * Every error is one line "FILE:RECORD: reason" (RECORD = line number for
 * text formats, record number from 1 for binary ones). */
#ifndef PAGELAB_TRACE_READER_H
#define PAGELAB_TRACE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum trace_format {
	TRACE_FMT_AUTO = 0,
	TRACE_FMT_TEXT,
	TRACE_FMT_LACKEY,
	TRACE_FMT_CSV,
	TRACE_FMT_TXT,
	TRACE_FMT_ORACLE,
	TRACE_FMT_VSCSI,
	TRACE_FMT_BLOCK,
	TRACE_FMT_BIN,
	TRACE_FMT_COUNT
};

/* What a page holds, when the trace says. */
enum trace_kind { TRACE_KIND_ANY = 0, TRACE_KIND_ANON = 1, TRACE_KIND_FILE = 2 };

/* One reference.  page is the trace's own page or object id (sparse: the
 * replay renumbers (pid, page) pairs densely), except in the binary format,
 * whose ids are already dense. */
struct trace_ref {
	uint64_t page;
	uint64_t time;      /* the trace's timestamp, 0 if it has none */
	uint32_t pid;       /* 0 if the trace does not say */
	uint8_t write;
	uint8_t kind;       /* enum trace_kind */
};

struct trace_opts {
	enum trace_format format;   /* TRACE_FMT_AUTO: detect */
	bool no_instructions;       /* lackey: leave out instruction fetches */
	const char *spec;           /* csv/block: "obj-id-col=5, time-col=2, ..." */
	uint64_t max_request;       /* pages one record may cover; 0: the default */
};

/* The pages one record (a block request, a lackey access) may cover
 * unless --max-request says otherwise: each page a record names is a
 * reference, and each distinct one costs the replay about 50 host bytes,
 * so a single hostile row (a size of 2^64 - 1) must not be taken at its
 * word.  262144 pages (1 GiB) is far above any real request. */
#define TRACE_MAX_REQUEST_DEFAULT 262144ULL

struct trace_reader;

/* Open path ("-" = stdin).  On failure NULL and one line in err. */
struct trace_reader *trace_open(const char *path, const struct trace_opts *o, char *err, size_t errlen);
/* Read from an open stream named name (tests, fuzzers). */
struct trace_reader *trace_open_file(FILE *f, const char *name, const struct trace_opts *o, char *err, size_t errlen);
/* Up to max references into out: the count, 0 at the end, -1 on a bad
 * record or read error (trace_reader_error gives the line). */
long trace_next(struct trace_reader *r, struct trace_ref *out, size_t max);
const char *trace_reader_error(const struct trace_reader *r);
enum trace_format trace_reader_format(const struct trace_reader *r);
/* Binary format only: references and distinct pages from the header
 * (false for other formats, which know them only at the end). */
bool trace_reader_counts(const struct trace_reader *r, uint64_t *nrefs, uint64_t *npages);
/* Binary format only (trace_reader_counts() true): up to max references
 * as dense page ids and write flags, without trace_ref records - the
 * cache-only replay's memory-speed path; as trace_next() otherwise (-1
 * with an error for a format without dense ids). */
long trace_next_dense(struct trace_reader *r, uint32_t *pages, uint8_t *writes, size_t max);
/* The binary format's records in place, for a caller that checks the
 * order of first references itself (the cache-only replay, as it replays
 * them; the reader's check of it was a serial dependency from record to
 * record): up to max (at most 131072) 8-byte records (bintrace.h: u32
 * page, u32 meta, little-endian) at *recs, valid until the next call,
 * each with a page below the header's count and good flags.  Returns
 * their count, 0 at the end, -1 on an error; `distinct` is the number of
 * distinct pages the records before named (checked at the end against
 * the header's).  false from trace_view_ok(): the reader has no such
 * view (use trace_next_dense()).  An error found after the records
 * returned is reported by the next call, unless the caller finds
 * an earlier one among them: record i of the last view is a first
 * reference to `page` when `distinct` pages had been referenced, which
 * trace_view_misordered() makes the reader's error (returns -1).  The
 * errors are trace_next_dense()'s, record for record. */
bool trace_view_ok(const struct trace_reader *r);
long trace_view_dense(struct trace_reader *r, const uint8_t **recs, size_t max, uint64_t distinct);
long trace_view_misordered(struct trace_reader *r, size_t i, uint32_t page, uint64_t distinct);
/* Host bytes the reader holds (buffers), whatever the trace's length. */
size_t trace_reader_host_bytes(const struct trace_reader *r);
void trace_close(struct trace_reader *r);

/* The trace workload's arguments (argv[0] = "trace"): [--format F]
 * [--spec SPEC] [--no-instructions] [--max-request SIZE] FILE.  false
 * with one line in err. */
bool trace_parse_args(int argc, char **argv, struct trace_opts *o, const char **path, char *err, size_t errlen);

/* The reader options every trace command takes (--format, --spec,
 * --no-instructions, --max-request) at argv[*i]: 1 when it is one (*i
 * left on its value), 0 when it is not, -1 with one line in err (no
 * command prefix) when its value is bad or missing. */
int trace_reader_option(int argc, char **argv, int *i, struct trace_opts *o, char *err, size_t errlen);
const char *trace_format_name(enum trace_format f);
/* "text", "lackey", ... (also "oracleGeneral"); false if unknown. */
bool trace_format_parse(const char *name, enum trace_format *f);
/* The list of names, for messages and --help. */
#define TRACE_FORMAT_NAMES "text, lackey, csv, txt, oracle, vscsi, block, bin"

#endif
