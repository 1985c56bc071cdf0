/* usemem.c - Andrew Morton's usemem, in both command-line forms: akpm's
 * `usemem -m MB` (ext3-tools, as in the 2008 threads) and vm-scalability's
 * `usemem [options] SIZE` (teawater/vm-scalability usemem.c).
 *
 * Modeled: one private anonymous mapping per process (-n processes, no
 * sharing), swept page by page; every 8-byte word written (default step), so
 * each page is one run of 512 references; repeats are read-modify-write
 * sweeps (-r); uniform random word indices (-R); read-only sweeps (-o), which
 * map the shared zero page as the real program does; mlock after the sweeps
 * (-M); holding the memory (-s).  Not modeled: threads (-t), hugetlb,
 * file-backed mappings (-f, needs the page cache), -u pieces, signals,
 * detach, msync, and the special modes (-g -L -D -E -N -H). */
#include "workload.h"
#include "../lib/pagefill.h"
#include "../lib/util.h"

#include <stdlib.h>
#include <string.h>

enum phase { PH_MMAP, PH_PREFAULT, PH_SWEEP, PH_MLOCK, PH_SLEEP, PH_DONE };

struct usemem_task {
	enum phase phase;
	uint32_t pass;
	uint64_t pos;          /* sequential: next page; random: accesses done */
	struct rng rng;
};

struct usemem {
	uint64_t bytes, npages;
	uint64_t nproc, repeat, step;
	bool random, readonly, mlock, prefault, read_again;
	uint64_t hold_ns;
	struct usemem_task *t;
};

static void usemem_help(FILE *out)
{
	fputs(
"usage: usemem -m MB              (akpm's form)\n"
"       usemem [options] SIZE     (vm-scalability's form; SIZE takes k/m/g/t)\n"
"Allocate and sweep anonymous memory, like Andrew Morton's usemem.\n"
"Modeled options:\n"
"  -m MB        size in megabytes (a positional SIZE overrides it)\n"
"  -n N         N processes, each with its own area (default 1)\n"
"  -r N         sweep N times; repeats read-modify-write each word (default 1)\n"
"  -R           random word indices instead of a sequential sweep\n"
"  -o           read instead of write (untouched pages map the zero page)\n"
"  -Z           after the write sweeps, sweep again reading\n"
"  -j BYTES     step between accesses (default 8)\n"
"  -F           prefault the mapping (MAP_POPULATE)\n"
"  -M           mlock() the area after the sweeps\n"
"  -s SEC       hold the memory SEC seconds after the sweeps\n"
"  -a, -O       malloc / MAP_ANONYMOUS: the same private anonymous memory here\n"
"Not modeled (rejected): -t threads, -f FILE, -U hugetlb, -u unit, -P, -d, -S/-A,\n"
"  -T, -W, -y/-x, -e, --punch-holes, and the special modes -g -L -D -E -N -H.\n"
"Output: one line per process, \"BYTES bytes / USECS usecs = KB/s KB/s\", where\n"
"BYTES is bytes accessed plus SIZE/8, the real program's counter quirk.\n", out);
}

static bool opt_arg(int argc, char **argv, int *i, const char **val)
{
	const char *a = argv[*i];
	if (a[2]) {
		*val = a + 2;
		return true;
	}
	if (*i + 1 >= argc)
		return false;
	*val = argv[++*i];
	return true;
}

static void *usemem_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	struct usemem u = { .nproc = 1, .repeat = 1, .step = 8 };
	uint64_t mb = 0;
	bool have_size = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		if (a[0] != '-' || !a[1]) {
			if (have_size) {
				snprintf(err, errlen, "usemem: more than one SIZE: '%s'", a);
				return NULL;
			}
			if (!parse_size(a, &u.bytes) || !u.bytes) {
				snprintf(err, errlen, "usemem: bad size '%s'", a);
				return NULL;
			}
			have_size = true;
			continue;
		}
		char o = a[1];
		switch (o) {
		case 'm': case 'n': case 'r': case 'j': case 's':
			if (!opt_arg(argc, argv, &i, &v)) {
				snprintf(err, errlen, "usemem: option -%c needs a value", o);
				return NULL;
			}
			break;
		case 'R': case 'o': case 'M': case 'F': case 'Z': case 'a': case 'O':
			if (a[2]) {
				snprintf(err, errlen, "usemem: unknown option '%s'", a);
				return NULL;
			}
			break;
		default:
			snprintf(err, errlen, "usemem: option '%s' is not modeled (see pagelab workloads usemem --help)", a);
			return NULL;
		}
		uint64_t x = 0;
		switch (o) {
		case 'm':
			if (!parse_u64(v, &mb) || !mb || mb > (1ULL << 30)) {
				snprintf(err, errlen, "usemem: bad -m value '%s'", v);
				return NULL;
			}
			break;
		case 'n':
			if (!parse_u64(v, &x) || !x || x > 4096) {
				snprintf(err, errlen, "usemem: bad -n value '%s' (1..4096)", v);
				return NULL;
			}
			u.nproc = x;
			break;
		case 'r':
			if (!parse_u64(v, &x) || !x || x > 1000000) {
				snprintf(err, errlen, "usemem: bad -r value '%s'", v);
				return NULL;
			}
			u.repeat = x;
			break;
		case 'j':
			if (!parse_size(v, &x) || x < 8) {
				snprintf(err, errlen, "usemem: bad -j step '%s' (at least 8 bytes)", v);
				return NULL;
			}
			u.step = x;
			break;
		case 's': {
			double sec;
			if (!parse_double(v, &sec) || sec < 0 || sec > 1e7) {
				snprintf(err, errlen, "usemem: bad -s value '%s' (a finite number of seconds)", v);
				return NULL;
			}
			u.hold_ns = (uint64_t)(sec * 1e9);
			break;
		}
		case 'R': u.random = true; break;
		case 'o': u.readonly = true; break;
		case 'M': u.mlock = true; break;
		case 'F': u.prefault = true; break;
		case 'Z': u.read_again = true; break;
		default: break; /* -a, -O */
		}
	}
	if (!have_size) {
		if (!mb) {
			snprintf(err, errlen, "usemem: no size given (usemem -m MB or usemem SIZE)");
			return NULL;
		}
		u.bytes = mb << 20;
	}
	u.npages = (u.bytes + PAGE_SIZE - 1) / PAGE_SIZE;
	struct usemem *w = xmalloc(sizeof(*w));
	*w = u;
	w->t = xcalloc(u.nproc, sizeof(*w->t));
	for (uint64_t i = 0; i < u.nproc; i++)
		rng_seed(&w->t[i].rng, seed * 1000003 + i);
	return w;
}

static void usemem_destroy(void *p)
{
	struct usemem *w = p;
	free(w->t);
	free(w);
}

static int usemem_nr_tasks(void *p) { return (int)((struct usemem *)p)->nproc; }

/* Words visited per page in a sweep; 0 when the step skips whole pages. */
static uint32_t refs_per_page(const struct usemem *w)
{
	return w->step >= PAGE_SIZE ? 1 : (uint32_t)(PAGE_SIZE / w->step);
}

static uint32_t total_passes(const struct usemem *w)
{
	return (uint32_t)w->repeat + (w->read_again ? 1 : 0);
}

/* One op of a sweep; false when the pass is over. */
static bool sweep_op(struct usemem *w, struct usemem_task *t, struct op *op)
{
	bool write = !w->readonly && t->pass < w->repeat;
	uint32_t refs = refs_per_page(w);
	/* Repeat write passes check the previous value first: read + write. */
	if (write && t->pass > 0)
		refs *= 2;
	uint64_t stride = w->step > PAGE_SIZE ? w->step / PAGE_SIZE : 1;
	op->region = 0;
	op->write = write;
	if (!w->random) {
		if (t->pos >= w->npages)
			return false;
		op->kind = OP_TOUCH;
		op->refs = refs;
		op->first = t->pos;
		if (stride == 1) {
			op->npages = w->npages - t->pos;
			t->pos = w->npages;
		} else {
			op->npages = 1;
			t->pos += stride;
		}
		return true;
	}
	/* Random: as many accesses as a sequential sweep, each to a uniformly
	 * chosen word, i.e. a uniformly chosen page. */
	uint64_t accesses = w->bytes / w->step;
	if (t->pos >= accesses)
		return false;
	t->pos++;
	op->kind = OP_TOUCH;
	op->refs = (write && t->pass > 0) ? 2 : 1;
	op->first = rng_below(&t->rng, w->npages);
	op->npages = 1;
	return true;
}

static bool usemem_next_op(void *p, int task, struct op *op)
{
	struct usemem *w = p;
	struct usemem_task *t = &w->t[task];
	memset(op, 0, sizeof(*op));
	for (;;) {
		switch (t->phase) {
		case PH_MMAP:
			t->phase = w->prefault ? PH_PREFAULT : PH_SWEEP;
			op->kind = OP_MMAP_ANON;
			op->region = 0;
			op->npages = w->npages;
			op->data_kind = DK_SAME; /* memset(): same-filled pages */
			return true;
		case PH_PREFAULT:
			t->phase = PH_SWEEP;
			op->kind = OP_TOUCH;
			op->write = !w->readonly;
			op->refs = 0;
			op->npages = w->npages;
			return true;
		case PH_SWEEP:
			if (sweep_op(w, t, op))
				return true;
			t->pos = 0;
			if (++t->pass < total_passes(w))
				continue;
			t->phase = w->mlock ? PH_MLOCK : PH_SLEEP;
			continue;
		case PH_MLOCK:
			t->phase = PH_SLEEP;
			op->kind = OP_MLOCK;
			op->region = 0;
			op->npages = w->npages;
			return true;
		case PH_SLEEP:
			t->phase = PH_DONE;
			if (!w->hold_ns)
				continue;
			op->kind = OP_SLEEP;
			op->ns = w->hold_ns;
			return true;
		case PH_DONE:
			return false;
		}
	}
}

/* Each usemem process prints its line when it is done; one killed by the
 * OOM killer prints nothing, so its place says what happened to it and
 * the survivors' lines are still there. */
static void usemem_report_tasks(void *p, const struct wl_task_result *r, int n, FILE *out)
{
	struct usemem *w = p;
	uint64_t accessed = (w->bytes / w->step) * 8 * total_passes(w);
	uint64_t bytes = accessed + w->bytes / 8;
	for (int i = 0; i < n; i++) {
		if (r[i].killed) {
			fprintf(out, "usemem: process %d of %d: killed\n", i + 1, n);
			continue;
		}
		if (r[i].failed)
			continue; /* it said why (perror) and exited 1 */
		uint64_t usecs = (uint64_t)(r[i].elapsed_s * 1e6 + 0.5);
		fprintf(out, "%llu bytes / %llu usecs = %llu KB/s\n", (unsigned long long)bytes,
			(unsigned long long)usecs,
			(unsigned long long)(usecs ? (double)bytes * 1e6 / 1024.0 / (double)usecs : 0));
	}
}

const struct workload_ops usemem_workload = {
	.name = "usemem",
	.summary = "allocate and sweep anonymous memory (akpm's usemem / vm-scalability)",
	.help = usemem_help,
	.create = usemem_create,
	.destroy = usemem_destroy,
	.nr_tasks = usemem_nr_tasks,
	.next_op = usemem_next_op,
	.report_tasks = usemem_report_tasks,
};
