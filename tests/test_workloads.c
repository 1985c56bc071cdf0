/* test_workloads.c - the workloads' op streams themselves, independent of
 * any policy or machine: create() and next_op() called directly. */
#include "test.h"
#include "sim.h"
#include "../src/workload/workload.h"
#include "../src/workload/qsbench.h"
#include "../src/workload/dbench.h"
#include "../src/lib/util.h"

#include <stdlib.h>
#include <string.h>

void test_usemem_stream(void);
void test_qsbench_sorts(void);
void test_qsbench_page_sequence(void);
void test_mtest01_stream(void);
void test_memeater_serialized(void);
void test_dd_stream(void);
void test_dbench_counts(void);
void test_streams_well_formed(void);
void test_bonnie_and_mmap001_streams(void);


void test_usemem_stream(void)
{
	const struct workload_ops *ops = workload_find("usemem");
	void *w = wl_make("usemem -m 4", NULL);
	if (!w)
		return;
	struct op op;
	uint64_t next = 0, touched = 0, mmaps = 0;
	bool in_order = true;
	while (ops->next_op(w, 0, &op)) {
		if (op.kind == OP_MMAP_ANON) {
			mmaps++;
			CHECK_EQ(op.npages, 1024);
		} else if (op.kind == OP_TOUCH) {
			CHECK(op.write);
			for (uint64_t p = op.first; p < op.first + op.npages; p++) {
				in_order &= p == next;
				next = p + 1;
				touched++;
			}
		}
	}
	CHECK_EQ(mmaps, 1);
	CHECK_EQ(touched, 1024);
	CHECK(in_order);
	ops->destroy(w);
}

void test_qsbench_sorts(void)
{
	void *w = wl_make("qsbench -m 4", NULL);
	if (!w)
		return;
	CHECK_EQ(qsbench_nr_elems(w), 4 * 1048576 / 4);
	CHECK_EQ(qsbench_errors(w), 0);
	workload_find("qsbench")->destroy(w);
	/* Every process sorts the same data (one seed): identical streams. */
	int nt = 0;
	w = wl_make("qsbench -m 2 -p 3", &nt);
	if (!w)
		return;
	CHECK_EQ(nt, 3);
	struct op a, b, c;
	uint64_t n = 0, diff = 0;
	for (;;) {
		bool more = workload_find("qsbench")->next_op(w, 0, &a);
		CHECK(more == workload_find("qsbench")->next_op(w, 1, &b));
		CHECK(more == workload_find("qsbench")->next_op(w, 2, &c));
		if (!more)
			break;
		diff += memcmp(&a, &b, sizeof(a)) != 0 || memcmp(&a, &c, sizeof(a)) != 0;
		n++;
	}
	CHECK_EQ(diff, 0);
	CHECK_EQ(n, qsbench_nr_visits(w) + 3);
	workload_find("qsbench")->destroy(w);
}

/* The program's quick_sort, written plainly, recording the page of every
 * element access in order (runs of one page collapsed), the references
 * per page and the written pages. */
struct strict {
	uint32_t *seq;
	uint64_t n, cap;
	uint64_t *refs;
	bool *written;
};

static void acc(struct strict *s, int64_t k, bool write)
{
	uint32_t pg = (uint32_t)(k / QS_INTS_PER_PAGE);
	s->refs[pg]++;
	if (write)
		s->written[pg] = true;
	if (s->n && s->seq[s->n - 1] == pg)
		return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4096;
		s->seq = xrealloc(s->seq, s->cap * sizeof(*s->seq));
	}
	s->seq[s->n++] = pg;
}

static void plain_qsort(struct strict *s, int32_t *a, int64_t l, int64_t r)
{
	int64_t i = l, j = r, m = (l + r) >> 1;
	int32_t p, mn, mx;
	acc(s, l, false);
	acc(s, m, false);
	acc(s, r, false);
	if (a[m] >= a[l]) { mx = a[m]; mn = a[l]; } else { mx = a[l]; mn = a[m]; }
	if (a[r] >= mx) p = mx; else p = a[r] >= mn ? a[r] : mn;
	do {
		for (;;) { acc(s, i, false); if (!(a[i] < p)) break; i++; }
		for (;;) { acc(s, j, false); if (!(p < a[j])) break; j--; }
		if (i <= j) {
			int32_t t = a[i];
			a[i] = a[j];
			a[j] = t;
			acc(s, i, true); acc(s, i, true);
			acc(s, j, true); acc(s, j, true);
			i++;
			j--;
		}
	} while (i <= j);
	if (l < j)
		plain_qsort(s, a, l, j);
	if (i < r)
		plain_qsort(s, a, i, r);
}

void test_qsbench_page_sequence(void)
{
	const struct workload_ops *ops = workload_find("qsbench");
	void *w = wl_make("qsbench -m 1 -s 7", NULL);
	if (!w)
		return;
	uint64_t n = qsbench_nr_elems(w), npages = n / QS_INTS_PER_PAGE;
	CHECK_EQ(npages, 256);
	int32_t *a = xmalloc(n * sizeof(*a));
	qsbench_fill(a, n, 7);
	struct strict s = { .refs = xcalloc(npages, sizeof(uint64_t)), .written = xcalloc(npages, sizeof(bool)) };
	plain_qsort(&s, a, 0, (int64_t)n - 1);
	for (uint64_t k = 0; k + 1 < n; k++)
		if (a[k] > a[k + 1]) {
			CHECK(!"the plain quicksort did not sort");
			break;
		}
	/* Every reference of the real sort is in the stream, on its page. */
	uint64_t nv = qsbench_nr_visits(w);
	uint64_t *refs = xcalloc(npages, sizeof(uint64_t));
	bool *written = xcalloc(npages, sizeof(bool));
	uint64_t k = 0, missing = 0, bad_refs = 0, bad_w = 0;
	for (uint64_t v = 0; v < nv; v++) {
		struct qs_visit x = qsbench_visit(w, v);
		refs[x.page] += x.refs;
		written[x.page] |= x.write;
		/* Visits appear in the order the algorithm enters pages: the
		 * visit sequence is a subsequence of the strict page sequence. */
		while (k < s.n && s.seq[k] != x.page)
			k++;
		if (k == s.n)
			missing++;
		else
			k++;
	}
	for (uint64_t p = 0; p < npages; p++) {
		bad_refs += refs[p] != s.refs[p];
		bad_w += written[p] != s.written[p];
	}
	CHECK_EQ(missing, 0);
	CHECK_EQ(bad_refs, 0);
	CHECK_EQ(bad_w, 0);
	/* Collapsing helps: far fewer ops than page switches. */
	CHECK(nv < s.n / 4);
	CHECK(nv > npages * 8); /* ~log2(256) sweeps of the array at least */
	/* The op stream: map, fill (write every page), the visits, verify. */
	struct op op;
	uint64_t i = 0, sort_ops = 0;
	bool shape = true;
	while (ops->next_op(w, 0, &op)) {
		if (i == 0)
			shape &= op.kind == OP_MMAP_ANON && op.npages == npages;
		else if (i == 1)
			shape &= op.kind == OP_TOUCH && op.write && op.first == 0 && op.npages == npages;
		else if (i == nv + 2)
			shape &= op.kind == OP_TOUCH && !op.write && op.first == 0 && op.npages == npages;
		else {
			struct qs_visit x = qsbench_visit(w, i - 2);
			shape &= op.kind == OP_TOUCH && op.npages == 1 && op.first == x.page &&
				 op.refs == x.refs && op.write == x.write;
			sort_ops++;
		}
		i++;
	}
	CHECK(shape);
	CHECK_EQ(sort_ops, nv);
	free(refs);
	free(written);
	free(s.seq);
	free(s.refs);
	free(s.written);
	free(a);
	ops->destroy(w);
}

void test_mtest01_stream(void)
{
	const struct workload_ops *ops = workload_find("mtest01");
	int nt = 0;
	void *w = wl_make("mtest01 -b 512M -w", &nt);
	if (!w)
		return;
	CHECK_EQ(nt, 1);
	struct op op;
	uint64_t chunks = 0, written_pages = 0, bad = 0;
	while (ops->next_op(w, 0, &op)) {
		if (op.kind == OP_MMAP_ANON) {
			bad += op.region != chunks || op.npages != 257; /* 1 MB + malloc header */
			chunks++;
		} else if (op.kind == OP_TOUCH) {
			/* Every byte of the chunk written, front to back. */
			bad += !op.write || op.first != 0 || op.npages != 257 || op.refs != 4096 ||
			       op.region != chunks - 1;
			written_pages += op.npages;
		} else {
			bad++;
		}
	}
	CHECK_EQ(chunks, 511);
	CHECK_EQ(written_pages, 511 * 257);
	CHECK_EQ(bad, 0);
	FILE *f = tmpfile();
	ops->report(w, NULL, f);
	rewind(f);
	char line[128] = "";
	CHECK(fgets(line, sizeof(line), f) != NULL);
	CHECK(!strcmp(line, "PASS ... 536870912 bytes allocated.\n"));
	fclose(f);
	ops->destroy(w);
	/* Without -w only malloc's header page of each chunk is written. */
	w = wl_make("mtest01 -b 3M", NULL);
	if (!w)
		return;
	chunks = 0;
	while (ops->next_op(w, 0, &op))
		if (op.kind == OP_TOUCH) {
			chunks++;
			CHECK_EQ(op.npages, 1);
		}
	CHECK_EQ(chunks, 2);
	ops->destroy(w);
}

void test_memeater_serialized(void)
{
	const struct workload_ops *ops = workload_find("memeater");
	int nt = 0;
	void *w = wl_make("memeater -n 3", &nt);
	if (!w)
		return;
	CHECK_EQ(nt, 3);
	struct wl_sysinfo si = { .totalram = 1000 * PAGE_SIZE, .freeram = 1000 * PAGE_SIZE };
	ops->attach(w, &si);
	struct op op;
	CHECK(ops->next_op(w, 0, &op) && op.kind == OP_MMAP_ANON && op.npages == 1200);
	/* Child k starts by waiting for child k-1 to exit. */
	CHECK(ops->next_op(w, 1, &op) && op.kind == OP_WAIT && op.region == 0);
	CHECK(ops->next_op(w, 2, &op) && op.kind == OP_WAIT && op.region == 1);
	CHECK(ops->next_op(w, 2, &op) && op.kind == OP_MMAP_ANON && op.npages == 1200);
	CHECK(ops->next_op(w, 2, &op) && op.kind == OP_TOUCH && op.write && op.npages == 1200);
	CHECK(!ops->next_op(w, 2, &op));
	ops->destroy(w);
}

void test_dd_stream(void)
{
	const struct workload_ops *ops = workload_find("dd");
	void *w = wl_make("dd if=/dev/sda of=/dev/null bs=1M count=64", NULL);
	if (!w)
		return;
	struct op op;
	uint64_t next = 0, pages = 0, reads = 0, other = 0;
	bool in_order = true, opened = false;
	while (ops->next_op(w, 0, &op)) {
		if (op.kind == OP_OPEN) {
			opened = !strcmp(op.name, "/dev/sda") && op.fd == 0;
		} else if (op.kind == OP_READ) {
			CHECK(!op.direct);
			CHECK_EQ(op.npages, 256);
			in_order &= op.first == next && op.fd == 0;
			next = op.first + op.npages;
			pages += op.npages;
			reads++;
			ops->read_done(w, 0, op.npages); /* as the machine does: all read */
		} else if (op.kind != OP_MMAP_ANON) {
			other++;
		}
	}
	CHECK(opened);
	CHECK(in_order);
	CHECK_EQ(reads, 64);
	CHECK_EQ(pages, 16384);
	CHECK_EQ(other, 0);
	FILE *f = tmpfile();
	double el = 2.0;
	ops->report(w, &el, f);
	rewind(f);
	char l1[128] = "", l2[128] = "", l3[128] = "";
	CHECK(fgets(l1, sizeof(l1), f) && fgets(l2, sizeof(l2), f) && fgets(l3, sizeof(l3), f));
	CHECK(!strcmp(l1, "64+0 records in\n") && !strcmp(l2, "64+0 records out\n"));
	CHECK(!strcmp(l3, "67108864 bytes (67 MB) copied, 2 seconds, 34 MB/s\n"));
	fclose(f);
	ops->destroy(w);
	/* Without count= the whole disk is read, as sysinfo tells its size. */
	w = wl_make("dd if=/dev/sda bs=1M", NULL);
	if (!w)
		return;
	struct wl_sysinfo si = { .totalram = 1 << 30, .disk_bytes = 10ULL << 20 };
	ops->attach(w, &si);
	reads = 0;
	while (ops->next_op(w, 0, &op))
		reads += op.kind == OP_READ;
	CHECK_EQ(reads, 10);
	ops->destroy(w);
}

void test_dbench_counts(void)
{
	const struct workload_ops *ops = workload_find("dbench");
	int nt = 0;
	void *w = wl_make("dbench 2", &nt);
	if (!w)
		return;
	CHECK_EQ(nt, 2);
	/* The REQUEST counts of dbench 1.x's client.txt. */
	const struct dbench_counts *c = dbench_counts(w);
	CHECK_EQ(c->write, 22607);
	CHECK_EQ(c->writebraw, 680);
	CHECK_EQ(c->readbraw, 4330);
	CHECK_EQ(c->read, 368);
	CHECK_EQ(c->open, 4795);
	CHECK_EQ(c->close, 3617);
	CHECK_EQ(c->getatr, 7966);
	CHECK_EQ(c->unlink, 1004);
	CHECK_EQ(c->files, 194);
	/* ~94.7 MB written and ~38 MB read: the 132 of the formula. */
	CHECK(c->write_bytes > 94000000 && c->write_bytes < 95500000);
	CHECK(c->read_bytes > 37500000 && c->read_bytes < 39500000);
	/* The op stream of each client carries those operations. */
	for (int t = 0; t < 2; t++) {
		struct op op;
		uint64_t writes = 0, creates = 0, opens = 0, unlinks = 0, wpages = 0;
		bool own_dir = true;
		char want[32];
		snprintf(want, sizeof(want), "/clients/client%d/", t + 1);
		while (ops->next_op(w, t, &op)) {
			writes += op.kind == OP_WRITE;
			wpages += op.kind == OP_WRITE ? op.npages : 0;
			creates += op.kind == OP_CREATE;
			opens += op.kind == OP_OPEN;
			unlinks += op.kind == OP_UNLINK;
			if (op.name)
				own_dir &= !strncmp(op.name, want, strlen(want));
		}
		CHECK_EQ(writes, 22607 + 680);
		CHECK_EQ(creates + opens, 4795);
		CHECK(unlinks > 0 && unlinks <= 1004);
		CHECK(own_dir);
		CHECK(wpages >= 23287);
	}
	ops->destroy(w);
}

/* Run every task of a workload to completion, in task order (OP_WAIT
 * only ever waits for a lower-numbered task), and check the stream is
 * well formed: regions mapped in order before use and touched inside their
 * bounds, file ops on open fds, files opened only once created (or the raw
 * disk), waits on existing tasks.  Returns the number of ops. */
#define MAXR 1024
#define MAXFD 256
#define MAXNAMES 4096
static uint64_t stream_check(const char *line, struct wl_sysinfo *si, uint64_t *bad)
{
	const struct workload_ops *ops;
	int nt = 0;
	char first[32];
	sscanf(line, "%31s", first);
	ops = workload_find(first);
	void *w = wl_make(line, NULL);
	if (!w || !ops)
		return 0;
	if (ops->attach)
		ops->attach(w, si);
	nt = ops->nr_tasks(w);
	static char *names[MAXNAMES];
	int nnames = 0;
	uint64_t n = 0;
	*bad = 0;
	for (int t = 0; t < nt; t++) {
		uint64_t rsize[MAXR];
		uint32_t nr = 0;
		bool open_fd[MAXFD] = { false };
		struct op op;
		while (ops->next_op(w, t, &op)) {
			n++;
			bool ok = true;
			switch (op.kind) {
			case OP_MMAP_ANON: case OP_MMAP_DATA: case OP_MMAP_FILE:
				ok = op.region == nr && nr < MAXR && op.npages > 0;
				if (op.kind == OP_MMAP_FILE)
					ok &= op.fd >= 0 && op.fd < MAXFD && open_fd[op.fd];
				if (nr < MAXR)
					rsize[nr++] = op.npages;
				break;
			case OP_TOUCH: case OP_MLOCK:
				ok = op.region < nr && op.npages > 0 && op.first + op.npages <= rsize[op.region];
				break;
			case OP_EXEC:
				nr = 0;
				for (int f = 0; f < MAXFD; f++)
					ok &= !open_fd[f];   /* nothing left open across exec */
				break;
			case OP_WAIT:
				ok = (int)op.region < t;
				break;
			case OP_CREATE: case OP_OPEN: {
				ok = op.fd >= 0 && op.fd < MAXFD && !open_fd[op.fd] && op.name;
				if (!ok)
					break;
				int k;
				for (k = 0; k < nnames && strcmp(names[k], op.name); k++)
					;
				if (op.kind == OP_OPEN)
					ok = k < nnames || !strcmp(op.name, "/dev/sda");
				else if (k == nnames && nnames < MAXNAMES)
					names[nnames++] = xstrdup(op.name);
				open_fd[op.fd] = true;
				break;
			}
			case OP_UNLINK: {
				int k;
				for (k = 0; k < nnames && strcmp(names[k], op.name); k++)
					;
				ok = k < nnames;
				if (ok) {
					free(names[k]);
					names[k] = names[--nnames];
				}
				break;
			}
			case OP_CLOSE:
				ok = op.fd >= 0 && op.fd < MAXFD && open_fd[op.fd];
				if (ok)
					open_fd[op.fd] = false;
				break;
			case OP_READ: case OP_WRITE: case OP_FSYNC: case OP_TRUNCATE:
				ok = op.fd >= 0 && op.fd < MAXFD && open_fd[op.fd];
				if (op.kind == OP_READ || op.kind == OP_WRITE)
					ok &= op.npages > 0;
				break;
			default:
				break;
			}
			if (!ok && *bad < 3)
				fprintf(stderr, "%s: task %d op %llu (kind %d region %u fd %d first %llu n %llu) is malformed\n",
					line, t, (unsigned long long)n, op.kind, op.region, op.fd,
					(unsigned long long)op.first, (unsigned long long)op.npages);
			*bad += !ok;
		}
	}
	for (int k = 0; k < nnames; k++)
		free(names[k]);
	ops->destroy(w);
	return n;
}

void test_streams_well_formed(void)
{
	struct wl_sysinfo si = { .totalram = 64ULL << 20, .freeram = 60ULL << 20,
				 .totalswap = 64ULL << 20, .freeswap = 64ULL << 20,
				 .disk_bytes = 256ULL << 20 };
	static const char *const lines[] = {
		"usemem -m 4", "qsbench -m 2 -p 2", "qsbench -m 1 -M", "mtest01 -b 8M -w",
		"mtest01 --fork -p 10 -w", "memeater -n 2", "workingset -m 4 -f 2 -n 3",
		"dd if=/dev/sda bs=1M", "dd if=/dev/zero of=/data bs=64k count=16 conv=fsync",
		"mmap001 -m 100 -i 2", "dbench 2", "bonnie -s 4", "kbuild -j 3 --units 10 --headers 40",
		"innodb --pool 1 --data 64M --transactions 200 --scan",
		"innodb --pool 1 --data 64M --transactions 50 --direct",
	};
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		uint64_t bad = 0, n = stream_check(lines[i], &si, &bad);
		CHECK(n > 0);
		CHECK_EQ(bad, 0);
	}
}

void test_bonnie_and_mmap001_streams(void)
{
	/* Bonnie -s 4: 1024 pages per-char written (one 4 KB write each),
	 * 512 Chunks rewritten, 512 written, 1024 getc reads, 512 block
	 * reads, then 4000 seeks (1334 + 1333 + 1333) with every 10th seek
	 * of a seeker writing its Chunk back. */
	const struct workload_ops *ops = workload_find("bonnie");
	int nt = 0;
	void *w = wl_make("bonnie -s 4", &nt);
	if (!w)
		return;
	CHECK_EQ(nt, 4);
	struct op op;
	uint64_t reads = 0, writes = 0, marks = 0;
	while (ops->next_op(w, 0, &op)) {
		reads += op.kind == OP_READ;
		writes += op.kind == OP_WRITE;
		marks += op.kind == OP_MARK;
	}
	CHECK_EQ(writes, 1024 + 512 + 512);
	CHECK_EQ(reads, 512 + 1024 + 512);
	CHECK_EQ(marks, 6);
	uint64_t seeks = 0, rewrites = 0;
	for (int t = 1; t < 4; t++)
		while (ops->next_op(w, t, &op)) {
			seeks += op.kind == OP_READ;
			rewrites += op.kind == OP_WRITE;
		}
	CHECK_EQ(seeks, 4000);
	CHECK_EQ(rewrites, 134 + 134 + 134);
	ops->destroy(w);
	/* mmap001 -m 100: a sparse file (one byte at page 100), 100 pages
	 * mapped shared and written byte by byte, msync, unmap, unlink. */
	ops = workload_find("mmap001");
	w = wl_make("mmap001 -m 100", NULL);
	if (!w)
		return;
	static const enum op_kind want[] = { OP_CREATE, OP_WRITE, OP_MMAP_FILE, OP_TOUCH, OP_FSYNC,
					     OP_MUNMAP, OP_CLOSE, OP_UNLINK };
	size_t i = 0;
	while (ops->next_op(w, 0, &op)) {
		CHECK(i < ARRAY_SIZE(want) && op.kind == want[i]);
		if (op.kind == OP_WRITE)
			CHECK(op.first == 100 && op.npages == 1);
		if (op.kind == OP_MMAP_FILE)
			CHECK(op.shared && op.npages == 100);
		if (op.kind == OP_TOUCH)
			CHECK(op.write && op.npages == 100 && op.refs == 4096);
		i++;
	}
	CHECK_EQ(i, ARRAY_SIZE(want));
	ops->destroy(w);
}
