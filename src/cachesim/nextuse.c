/* nextuse.c - OPT's next uses by a backward pass (nextuse.h). */
#include "nextuse.h"
#include "../trace/bintrace.h"
#include "../trace/pagemap.h"
#include "../lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NU_BATCH 4096

struct nextuse {
	const char *path;
	struct trace_reader *rd;   /* forward: the binary trace itself, or NULL */
	FILE *copy;                /* forward: the dense copy (8-byte records) */
	FILE *side;                /* next use of every reference, in order */
	uint64_t nrefs, npages, done;
	struct trace_ref *batch;
	uint64_t win[NU_BATCH];
	uint8_t rec[NU_BATCH * BINTRACE_RECORD];
	size_t host;
	char err[512];
};

static uint32_t le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* An unlinked temporary file in $TMPDIR (or /tmp). */
static FILE *scratch(void)
{
	const char *dir = getenv("TMPDIR");
	char name[4096];
	snprintf(name, sizeof(name), "%s/pagelab-nextuse.XXXXXX", dir && *dir ? dir : "/tmp");
	int fd = mkstemp(name);
	if (fd < 0)
		return NULL;
	unlink(name);
	FILE *f = fdopen(fd, "w+b");
	if (!f)
		close(fd);
	return f;
}

static bool fail(struct nextuse *nu, char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s: %s: %s", nu->path, what, strerror(errno ? errno : EIO));
	return false;
}

/* Is path an uncompressed pagelab binary trace we can read backwards? */
static bool plain_binary(const char *path, const struct trace_reader *rd)
{
	struct stat sb;
	if (trace_reader_format(rd) != TRACE_FMT_BIN || !strcmp(path, "-") || stat(path, &sb) || !S_ISREG(sb.st_mode))
		return false;
	FILE *f = fopen(path, "rb");
	char magic[8] = { 0 };
	bool ok = f && fread(magic, 1, 8, f) == 8 && !memcmp(magic, "PGLTRACE", 8);
	if (f)
		fclose(f);
	return ok;
}

/* Copy the trace, renumbered densely as the replay numbers it, to a
 * temporary file of 8-byte records (u32 page, u32 write). */
static bool copy_dense(struct nextuse *nu, char *err, size_t errlen)
{
	nu->copy = scratch();
	if (!nu->copy)
		return fail(nu, err, errlen, "temporary file");
	struct pagemap map = { 0 };
	uint64_t pages = 0;
	for (;;) {
		long n = trace_next(nu->rd, nu->batch, NU_BATCH);
		if (n < 0) {
			snprintf(err, errlen, "%s", trace_reader_error(nu->rd));
			pagemap_free(&map);
			return false;
		}
		if (n == 0)
			break;
		for (long i = 0; i < n; i++) {
			uint32_t idx;
			if (!pagemap_get(&map, nu->batch[i].page, nu->batch[i].pid, &idx)) {
				snprintf(err, errlen, "%s: more than %u distinct pages", nu->path, PAGEMAP_MAX);
				pagemap_free(&map);
				return false;
			}
			if (idx >= pages)
				pages = (uint64_t)idx + 1;
			put_le32(nu->rec + i * BINTRACE_RECORD, idx);
			put_le32(nu->rec + i * BINTRACE_RECORD + 4, nu->batch[i].write);
		}
		if (fwrite(nu->rec, BINTRACE_RECORD, (size_t)n, nu->copy) != (size_t)n) {
			pagemap_free(&map);
			return fail(nu, err, errlen, "temporary file");
		}
		nu->nrefs += (uint64_t)n;
	}
	nu->npages = pages;
	nu->host = MAX(nu->host, pagemap_host_bytes(&map));
	pagemap_free(&map);
	trace_close(nu->rd);
	nu->rd = NULL;
	return true;
}

/* The backward pass: blocks of records from the end of src (records
 * start at byte hdr); last[page] is the position of the page's nearest
 * reference after the one being looked at. */
static bool backward(struct nextuse *nu, FILE *src, long hdr, char *err, size_t errlen)
{
	nu->side = scratch();
	if (!nu->side)
		return fail(nu, err, errlen, "temporary file");
	uint64_t *last = xmalloc((nu->npages ? nu->npages : 1) * sizeof(*last));
	for (uint64_t p = 0; p < nu->npages; p++)
		last[p] = UINT64_MAX;
	nu->host = MAX(nu->host, nu->npages * sizeof(*last));
	bool ok = true;
	for (uint64_t end = nu->nrefs; end > 0 && ok;) {
		uint64_t start = end > NU_BATCH ? end - NU_BATCH : 0, k = end - start;
		if (fseeko(src, (off_t)(hdr + start * BINTRACE_RECORD), SEEK_SET) ||
		    fread(nu->rec, BINTRACE_RECORD, k, src) != k) {
			/* The forward pass names the record; here only that the
			 * file ends before its header says. */
			snprintf(err, errlen, "%s: the header says %llu references, the file is shorter", nu->path,
				 (unsigned long long)nu->nrefs);
			ok = false;
			break;
		}
		for (uint64_t i = k; i-- > 0;) {
			uint32_t page = le32(nu->rec + i * BINTRACE_RECORD);
			if (page >= nu->npages) {
				snprintf(err, errlen, "%s:%llu: page %u beyond the header's %llu pages", nu->path,
					 (unsigned long long)(start + i + 1), page, (unsigned long long)nu->npages);
				ok = false;
				break;
			}
			nu->win[i] = last[page];
			last[page] = start + i;
		}
		if (ok && (fseeko(nu->side, (off_t)(start * sizeof(uint64_t)), SEEK_SET) ||
			   fwrite(nu->win, sizeof(uint64_t), k, nu->side) != k))
			ok = fail(nu, err, errlen, "temporary file");
		end = start;
	}
	free(last);
	if (ok && (fflush(nu->side) || fseeko(nu->side, 0, SEEK_SET)))
		ok = fail(nu, err, errlen, "temporary file");
	return ok;
}

struct nextuse *nextuse_open(const char *path, const struct trace_opts *o, char *err, size_t errlen)
{
	struct nextuse *nu = xcalloc(1, sizeof(*nu));
	nu->path = path;
	nu->batch = xmalloc(NU_BATCH * sizeof(*nu->batch));
	nu->rd = trace_open(path, o, err, errlen);
	bool ok = nu->rd != NULL;
	if (ok && plain_binary(path, nu->rd)) {
		trace_reader_counts(nu->rd, &nu->nrefs, &nu->npages);
		FILE *src = fopen(path, "rb");
		ok = src ? backward(nu, src, BINTRACE_HEADER, err, errlen) : fail(nu, err, errlen, "open");
		if (src)
			fclose(src);
	} else if (ok) {
		ok = copy_dense(nu, err, errlen) &&
		     (!fflush(nu->copy) || fail(nu, err, errlen, "temporary file")) &&
		     backward(nu, nu->copy, 0, err, errlen) &&
		     (!fseeko(nu->copy, 0, SEEK_SET) || fail(nu, err, errlen, "temporary file"));
	}
	if (!ok) {
		nextuse_close(nu);
		return NULL;
	}
	return nu;
}

long nextuse_next(struct nextuse *nu, uint32_t *pages, uint8_t *writes, size_t max)
{
	size_t n;
	if (max > NU_BATCH)
		max = NU_BATCH;
	if (nu->rd) {
		long got = trace_next(nu->rd, nu->batch, max);
		if (got < 0) {
			snprintf(nu->err, sizeof(nu->err), "%s", trace_reader_error(nu->rd));
			return -1;
		}
		n = (size_t)got;
		for (size_t i = 0; i < n; i++) {
			pages[i] = (uint32_t)nu->batch[i].page;
			writes[i] = nu->batch[i].write;
		}
	} else {
		n = fread(nu->rec, BINTRACE_RECORD, max, nu->copy);
		for (size_t i = 0; i < n; i++) {
			pages[i] = le32(nu->rec + i * BINTRACE_RECORD);
			writes[i] = (uint8_t)le32(nu->rec + i * BINTRACE_RECORD + 4);
		}
	}
	if (n && fread(nu->win, sizeof(uint64_t), n, nu->side) != n) {
		snprintf(nu->err, sizeof(nu->err), "%s: next-use file: %s", nu->path,
			 ferror(nu->side) ? strerror(errno) : "shorter than the trace");
		return -1;
	}
	nu->done += n;
	return (long)n;
}

const uint64_t *nextuse_window(const struct nextuse *nu) { return nu->win; }
const char *nextuse_error(const struct nextuse *nu) { return nu->err; }

size_t nextuse_host_bytes(const struct nextuse *nu)
{
	return sizeof(*nu) + NU_BATCH * sizeof(*nu->batch) + nu->host + (nu->rd ? trace_reader_host_bytes(nu->rd) : 0);
}

void nextuse_close(struct nextuse *nu)
{
	if (!nu)
		return;
	if (nu->rd)
		trace_close(nu->rd);
	if (nu->copy)
		fclose(nu->copy);
	if (nu->side)
		fclose(nu->side);
	free(nu->batch);
	free(nu);
}
