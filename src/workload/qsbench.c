/* qsbench.c - Lorenzo Allegrucci's qsbench 1.0.0 (2002; KOSAKI's copy adds
 * -M), and the 2001 form taking the element count with -n.
 *
 * Each of P processes fills an int array of MB megabytes from rand() seeded
 * with the same seed, quicksorts it (median-of-three pivot value, Hoare
 * partition, left part first, no insertion-sort cutoff), verifies it with
 * one sequential pass, optionally sleeps, frees and exits.  The seed is -s,
 * else the run's --seed; --distinct (pagelab's, for comparing with a
 * kernel, where identical children sort in lockstep only by accident)
 * gives process k data of its own, seeded SEED + k.
 *
 * The reference stream comes from running that very quicksort on the host
 * over an array of the same size and data, once (all processes sort the
 * same data, so they share one recording; with --distinct one each; and
 * every instance of the process with the same size and seed shares it
 * too: qsbench_record.c).
 * Recording every page switch would cost ~0.8 ops per element per
 * recursion level (the two partition pointers alternate between their
 * pages on every swap): 770 M ops per process at -m 230.  So the recording collapses the two pointers'
 * interleaving: each *visit* of a pointer (lo, hi, or the median-of-three
 * reads) to a page is one op, placed where the pointer first read that
 * page, carrying every reference the pointer made there during the visit
 * and written if a swap wrote there (its first reference still a load, so
 * that a fault on it is a read fault: vm.anon_exclusive); consecutive
 * visits of the same page merge.  What is lost is only the order of references between the two
 * pages the pointers are on at the same time, both of which are being
 * referenced (accessed bits set) and so resident under any policy.
 *
 * User time: references charged at the machine's cost.ref: one per element
 * compared (every a[i] < p and p < a[j], the failing one included), four
 * per swap (two loads, two stores), three per median-of-three; the fill
 * charges four per element (glibc's additive-feedback rand() loads two
 * state words and stores one, then the array store), the verify two per
 * element (a[i] > a[i+1]).  Branch mispredictions and call overhead are not
 * charged.
 *
 * Not modeled: glibc's exact rand() sequence (pagelab's seeded xoshiro
 * draws 31-bit values instead: the same distribution, not the same
 * numbers); the recursion's stack pages; malloc's header page. */
#include "workload.h"
#include "qsbench.h"
#include "qsbench_record.h"
#include "args.h"
#include "../lib/util.h"
#include "../lib/pagefill.h"

#include <stdlib.h>
#include <string.h>

enum qs_phase { QS_MAP, QS_MFILE_CREATE, QS_MFILE_EXTEND, QS_MFILE_UNLINK, QS_MFILE_MAP,
		QS_FILL, QS_SORT, QS_VERIFY, QS_SLEEP, QS_DONE };

struct qs_task {
	enum qs_phase phase;
	uint64_t pos;
	char tmpname[48];
};

/* One recorded sort: of the shared data, or (--distinct) of one
 * process's own. */
struct qs_set {
	const struct qs_recording *recording;
	const struct qs_rec *rec;
	uint64_t nrec;
	uint64_t errors;
	uint64_t seed;
};

struct qsbench {
	uint64_t nelems, npages, nprocs, seed, sleep_s;
	bool verbose, use_mmap, distinct;
	const struct qs_rec *rec;   /* sets[0]'s */
	uint64_t nrec;
	uint64_t errors;
	struct qs_set *sets;        /* 1, or nprocs with --distinct */
	uint64_t nsets;
	struct qs_task *t;
};

uint64_t qsbench_nr_visits(void *w) { return ((struct qsbench *)w)->nrec; }
uint64_t qsbench_errors(void *w) { return ((struct qsbench *)w)->errors; }
uint64_t qsbench_nr_elems(void *w) { return ((struct qsbench *)w)->nelems; }

struct qs_visit qsbench_visit(void *w, uint64_t i)
{
	const struct qs_rec *r = &((struct qsbench *)w)->rec[i];
	return (struct qs_visit){ .page = r->page & ~QS_WRITE, .refs = r->refs,
				  .write = (r->page & QS_WRITE) != 0 };
}

/* ---- the workload ------------------------------------------------------ */

static void qs_help(FILE *out)
{
	fputs(
"usage: qsbench [-m MB] [-p NPROCS] [-s SEED] [-v] [-z SECONDS] [-M] [--distinct]\n"
"       qsbench -n ELEMENTS [-p NPROCS] [-s SEED]     (the 2001 form)\n"
"Lorenzo Allegrucci's qsbench: NPROCS processes (default 1, at most 1024)\n"
"each fill an int array of MB megabytes (default 10) from rand() seeded with\n"
"SEED (the same in every process; default: the run's --seed, 1 unless given),\n"
"quicksort it (median-of-three pivot, Hoare partition, recursing left\n"
"first), verify it and exit.\n"
"  --distinct  each process sorts data of its own, seeded SEED + its index\n"
"              (pagelab's option; the program's processes share the data)\n"
"  -z SECONDS  sleep before freeing the array (default 0)\n"
"  -v          print the seed and the phases, as the real program does\n"
"  -M          back the array with a MAP_SHARED mapping of an unlinked sparse\n"
"              file (KOSAKI's addition; needs the page cache)\n"
"Modeled: the reference stream of the real quicksort, run on the host over\n"
"the same number of elements; each visit of a partition pointer to a page is\n"
"one touch carrying its references (see docs/workloads.md); user time is the\n"
"references (compares, swaps, fill, verify) at the machine's cost.ref.\n"
"Not modeled: glibc's own rand() numbers (pagelab's seeded generator draws\n"
"the same range), branch mispredictions, the stack.\n"
"Output: nothing but the time lines (the threads ran it under time(1));\n"
"with -v the real program's seed and phase messages.\n", out);
}

/* The program's options (everything create() reads from argv). */
struct qs_args {
	uint64_t mb, nprocs, s, z, nelems;
	bool verbose, use_mmap, distinct;
};

static bool qs_parse(int argc, char **argv, uint64_t seed, struct qs_args *o, char *err, size_t errlen)
{
	/* The data come from -s, as in the real program; without -s from the
	 * run's seed (--seed), so that repeats with other seeds sort other
	 * data.  The default seed 1 gives the data -s 1 gives. */
	*o = (struct qs_args){ .mb = 10, .nprocs = 1, .s = seed % (1ULL << 31) };
	if (argc == 1) {
		snprintf(err, errlen, "qsbench: usage: qsbench [-h] [-m MB] [-p nr_procs] [-s seed] [-v] [-z sleep_time]");
		return false;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		if (!strcmp(a, "--distinct")) {
			o->distinct = true;
			continue;
		}
		if (a[0] != '-' || !a[1] || (strchr("vM", a[1]) && a[2])) {
			snprintf(err, errlen, "qsbench: unexpected argument '%s'", a);
			return false;
		}
		switch (a[1]) {
		case 'v': o->verbose = true; continue;
		case 'M': o->use_mmap = true; continue;
		case 'm': case 'p': case 's': case 'z': case 'n':
			break;
		default:
			snprintf(err, errlen, "qsbench: unknown option '%s' (see pagelab workloads qsbench --help)", a);
			return false;
		}
		char c = a[1];
		v = wl_optval(argc, argv, &i);
		bool ok;
		switch (c) {
		/* nr_elems = MB * 1048576 / 4 is int arithmetic in the real
		 * program: 2047 MB is the largest size it can sort. */
		case 'm': ok = wl_u64_in(v, 1, 2047, &o->mb); break;
		case 'p': ok = wl_u64_in(v, 1, 1000000, &o->nprocs); break;
		case 's': ok = wl_u64_in(v, 0, INT32_MAX, &o->s); break;
		case 'z': ok = wl_u64_in(v, 0, 10000000, &o->z); break;
		default:  ok = wl_u64_in(v, 2, INT32_MAX, &o->nelems); break;
		}
		if (!ok) {
			snprintf(err, errlen, "qsbench: bad value '%s' for -%c", v ? v : "", c);
			return false;
		}
	}
	if (o->nprocs > 1024)
		o->nprocs = 1024; /* MAX_PROCS */
	if (!o->nelems)
		o->nelems = o->mb * 1048576 / 4;
	return true;
}

/* The arguments alone: create() records the sort (seconds at -m 230). */
static bool qs_check(int argc, char **argv, char *err, size_t errlen)
{
	struct qs_args o;
	return qs_parse(argc, argv, 1, &o, err, errlen);
}

static void *qs_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	struct qs_args o;
	if (!qs_parse(argc, argv, seed, &o, err, errlen))
		return NULL;
	uint64_t nelems = o.nelems, nprocs = o.nprocs, s = o.s;
	bool distinct = o.distinct;
	uint64_t host = host_memory_bytes();
	if (host && nelems * 4 > host / 2) {
		snprintf(err, errlen, "qsbench: recording a sort of %llu MiB needs that much host memory; this host has %llu MiB",
			 (unsigned long long)(nelems * 4 >> 20), (unsigned long long)(host >> 20));
		return NULL;
	}
	struct qsbench *q = xcalloc(1, sizeof(*q));
	q->nelems = nelems;
	q->npages = (nelems + QS_INTS_PER_PAGE - 1) / QS_INTS_PER_PAGE;
	q->nprocs = nprocs;
	q->seed = s;
	q->sleep_s = o.z;
	q->verbose = o.verbose;
	q->use_mmap = o.use_mmap;
	q->distinct = distinct;
	q->t = xcalloc(nprocs, sizeof(*q->t));
	for (uint64_t k = 0; k < nprocs; k++) {
		q->t[k].phase = QS_MAP;
		snprintf(q->t[k].tmpname, sizeof(q->t[k].tmpname), "/tmp/qsbench.%llu", (unsigned long long)k);
	}
	/* Run the real sort once; every process replays the recording.  With
	 * --distinct, process k sorts data of its own, seeded with SEED + k,
	 * and each has its recording. */
	q->nsets = distinct ? nprocs : 1;
	q->sets = xcalloc(q->nsets, sizeof(*q->sets));
	for (uint64_t k = 0; k < q->nsets; k++) {
		struct qs_set *set = &q->sets[k];
		set->seed = s + k;
		set->recording = qs_recording_get(nelems, set->seed);
		set->rec = set->recording->rec;
		set->nrec = set->recording->nrec;
		set->errors = set->recording->errors;
	}
	q->rec = q->sets[0].rec;
	q->nrec = q->sets[0].nrec;
	q->errors = q->sets[0].errors;
	return q;
}

static void qs_destroy(void *w)
{
	struct qsbench *q = w;
	for (uint64_t k = 0; k < q->nsets; k++)
		qs_recording_put(q->sets[k].recording);
	free(q->sets);
	free(q->t);
	free(q);
}

static int qs_nr_tasks(void *w) { return (int)((struct qsbench *)w)->nprocs; }

static bool qs_next_op(void *w, int task, struct op *op)
{
	struct qsbench *q = w;
	struct qs_task *t = &q->t[task];
	const struct qs_set *set = &q->sets[q->distinct ? task : 0];
	memset(op, 0, sizeof(*op));
	for (;;) {
		switch (t->phase) {
		case QS_MAP:
			if (q->use_mmap) {
				t->phase = QS_MFILE_CREATE;
				continue;
			}
			t->phase = QS_FILL;
			op->kind = OP_MMAP_ANON;
			op->npages = q->npages;
			op->data_kind = DK_INTS; /* rand()'s integers */
			return true;
		case QS_MFILE_CREATE:
			/* mkstemp, unlink, extend with one byte at `size`, mmap. */
			t->phase = QS_MFILE_EXTEND;
			op->kind = OP_CREATE;
			op->fd = 0;
			op->name = t->tmpname;
			return true;
		case QS_MFILE_EXTEND:
			t->phase = QS_MFILE_UNLINK;
			op->kind = OP_TRUNCATE;
			op->fd = 0;
			op->npages = q->npages + 1;
			return true;
		case QS_MFILE_UNLINK:
			t->phase = QS_MFILE_MAP;
			op->kind = OP_UNLINK;
			op->name = t->tmpname;
			return true;
		case QS_MFILE_MAP:
			t->phase = QS_FILL;
			op->kind = OP_MMAP_FILE;
			op->fd = 0;
			op->shared = true;
			op->npages = q->npages;
			return true;
		case QS_FILL:
			t->phase = QS_SORT;
			t->pos = 0;
			op->kind = OP_TOUCH;
			op->write = true;
			op->refs = 4 * QS_INTS_PER_PAGE;
			op->npages = q->npages;
			return true;
		case QS_SORT:
			if (t->pos >= set->nrec) {
				t->phase = QS_VERIFY;
				continue;
			}
			op->kind = OP_TOUCH;
			op->first = set->rec[t->pos].page & ~QS_WRITE;
			op->write = (set->rec[t->pos].page & QS_WRITE) != 0;
			op->load_first = true; /* every visit compares first */
			op->refs = set->rec[t->pos].refs;
			op->npages = 1;
			t->pos++;
			return true;
		case QS_VERIFY:
			t->phase = QS_SLEEP;
			op->kind = OP_TOUCH;
			op->refs = 2 * QS_INTS_PER_PAGE;
			op->npages = q->npages;
			return true;
		case QS_SLEEP:
			t->phase = QS_DONE;
			if (!q->sleep_s)
				continue;
			op->kind = OP_SLEEP;
			op->ns = q->sleep_s * 1000000000ULL;
			return true;
		case QS_DONE:
			return false;
		}
	}
}

static void qs_report(void *w, const double *elapsed, FILE *out)
{
	struct qsbench *q = w;
	(void)elapsed;
	for (uint64_t k = 0; k < q->nprocs; k++) {
		const struct qs_set *set = &q->sets[q->distinct ? k : 0];
		if (q->verbose)
			fprintf(out, "seed = %llu\nsorting... done.\nverify... done.\n",
				(unsigned long long)set->seed);
		if (set->errors)
			fprintf(out, " *** WARNING ***  %llu errors.\n", (unsigned long long)set->errors);
	}
}

const struct workload_ops qsbench_workload = {
	.name = "qsbench",
	.summary = "P processes quicksorting MB of ints each (Lorenzo Allegrucci's qsbench)",
	.help = qs_help,
	.create = qs_create,
	.check = qs_check,
	.destroy = qs_destroy,
	.nr_tasks = qs_nr_tasks,
	.next_op = qs_next_op,
	.report = qs_report,
};
