/* memreclaim.c - `echo "SIZE [swappiness=N]" > CGROUP/memory.reclaim`,
 * at a simulated time and as often as asked: proactive reclaim from the
 * command line (cgroup v2's memory.reclaim, 5.19+; swappiness= 6.9+).
 *
 * The task sleeps DELAY, then COUNT times writes the file and sleeps
 * INTERVAL.  The write is the kernel's memory_reclaim() (src/mm/
 * memcg_reclaim.c, src/machine/cgops.c): the writer's system time, no
 * memory stall; a write that could not reclaim all of SIZE fails with
 * EAGAIN, as the shell's echo reports ("write error: Resource temporarily
 * unavailable").  It runs where @PATH places it (the root without one),
 * which only decides whose time it is: the reclaim is from CGROUP. */
#include "workload.h"
#include "args.h"
#include "../lib/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct memreclaim {
	char cg[48];
	uint64_t pages, count, delay_ns, interval_ns;
	int swappiness;
	uint64_t step;              /* ops emitted */
	uint64_t writes, eagain, reclaimed;
};

static void mr_help(FILE *out)
{
	fputs(
"usage: memreclaim [-a DELAY] [-n COUNT] [-i INTERVAL] [-w SWAPPINESS] CGROUP SIZE\n"
"Writes SIZE (K/M/G, p pages) to CGROUP's memory.reclaim (a --cgroup path,\n"
"or /), after DELAY (default 0), COUNT times (default 1) INTERVAL apart\n"
"(default 1s); -w adds \"swappiness=N\" (0-200, 6.9+; linux6, mglru and\n"
"workingset take it, 0: no anonymous page).  Reports what each\n"
"write reclaimed and the writes that failed with EAGAIN (less reclaimed\n"
"than asked after 16 tries without progress, as 6.x memory_reclaim()).\n", out);
}

static bool mr_option(struct memreclaim *m, char o, const char *v)
{
	uint64_t n;
	switch (o) {
	case 'a':
		return v && parse_duration_ns(v, &m->delay_ns);
	case 'i':
		return v && parse_duration_ns(v, &m->interval_ns);
	case 'n':
		return wl_u64_in(v, 1, 1000000, &m->count);
	case 'w':
		if (!wl_u64_in(v, 0, 200, &n))
			return false;
		m->swappiness = (int)n;
		return true;
	}
	return false;
}

static void *mr_create(int argc, char **argv, uint64_t seed, char *err, size_t errlen)
{
	(void)seed;
	struct memreclaim m = { .count = 1, .interval_ns = 1000000000ULL, .swappiness = -1 };
	const char *pos[2];
	int npos = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] == '-' && a[1] && strchr("aniw", a[1])) {
			char o = a[1];
			const char *v = wl_optval(argc, argv, &i);
			if (!mr_option(&m, o, v)) {
				snprintf(err, errlen, "memreclaim: bad value '%s' for -%c", v ? v : "", o);
				return NULL;
			}
		} else if (a[0] != '-' && npos < 2) {
			pos[npos++] = a;
		} else {
			snprintf(err, errlen, "memreclaim: unexpected argument '%s'", a);
			return NULL;
		}
	}
	uint64_t bytes;
	if (npos != 2 || pos[0][0] != '/' || strlen(pos[0]) >= sizeof(m.cg)) {
		snprintf(err, errlen, "memreclaim: give CGROUP SIZE (a cgroup path like /a, then a size)");
		return NULL;
	}
	if (!parse_size(pos[1], &bytes) || bytes / PAGE_SIZE == 0 || bytes > (1ULL << 50)) {
		snprintf(err, errlen, "memreclaim: bad size '%s' (at least a page)", pos[1]);
		return NULL;
	}
	snprintf(m.cg, sizeof(m.cg), "%s", pos[0]);
	m.pages = bytes / PAGE_SIZE;
	return wl_keep(&m, sizeof(m));
}

/* sleep DELAY, then (reclaim, sleep INTERVAL) COUNT times */
static bool mr_next_op(void *p, int task, struct op *op)
{
	(void)task;
	struct memreclaim *w = p;
	uint64_t k = w->step++;
	if (k == 0 && w->delay_ns) {
		*op = (struct op){ .kind = OP_SLEEP, .ns = w->delay_ns };
		return true;
	}
	k -= w->delay_ns != 0;
	if (k >= 2 * w->count - 1)
		return false;
	if (k % 2)
		*op = (struct op){ .kind = OP_SLEEP, .ns = w->interval_ns };
	else
		*op = (struct op){ .kind = OP_CG_RECLAIM, .name = w->cg, .npages = w->pages,
				   .swappiness = (int16_t)w->swappiness };
	return true;
}

static const char *mr_target(void *p, bool *reads_pressure)
{
	*reads_pressure = false;
	return ((struct memreclaim *)p)->cg;
}

static void mr_done(void *p, int task, const struct wl_cgroup_state *s)
{
	(void)task;
	struct memreclaim *w = p;
	w->writes++;
	w->reclaimed += s->reclaimed;
	w->eagain += s->ret == -EAGAIN;
}

static void mr_report(void *p, const double *elapsed, FILE *out)
{
	(void)elapsed;
	const struct memreclaim *w = p;
	fprintf(out, "memreclaim: %llu write(s) of %llu kB to %s/memory.reclaim: %llu kB reclaimed\n",
		(unsigned long long)w->writes, (unsigned long long)(w->pages * (PAGE_SIZE / 1024)),
		strcmp(w->cg, "/") ? w->cg : "", (unsigned long long)(w->reclaimed * (PAGE_SIZE / 1024)));
	if (w->eagain)
		fprintf(out, "memreclaim: %llu write(s) failed: Resource temporarily unavailable (EAGAIN)\n",
			(unsigned long long)w->eagain);
}

const struct workload_ops memreclaim_workload = {
	.name = "memreclaim",
	.summary = "write SIZE to a cgroup's memory.reclaim at a time (proactive reclaim)",
	.help = mr_help,
	.create = mr_create,
	.destroy = wl_free,
	.nr_tasks = wl_one_task,
	.next_op = mr_next_op,
	.report = mr_report,
	.cgroup_target = mr_target,
	.cgroup_done = mr_done,
};
