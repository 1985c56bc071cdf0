/* kernel_tree.c - pagelab kernel --cgroup: each cgroup of the tree in the
 * report, after the run's own (the whole): the knobs it was given as its
 * files held them at the end (# set FILE VALUE), memory.current and
 * memory.peak (v1: usage_in_bytes and max_usage_in_bytes),
 * memory.events (v1: failcnt, memsw.failcnt and oom_control's
 * oom_kill), memory.pressure's totals
 * (v2; v1 has no pressure file of a cgroup's own) and its memory.stat,
 * named as pagelab run --json names a simulated cgroup's files
 * (src/report/cgreport.c): memory.current, memory.events.KEY,
 * memory.stat.KEY.  --json's are kexec_tree_json()'s, a kernel
 * record's too. */
#include "cli.h"
#include "../native/native.h"

#include <string.h>

static void stat_lines(const char *prefix, const struct nstat *s, FILE *out)
{
	for (int i = 0; i < s->n; i++)
		fprintf(out, "%s%s %lld\n", prefix, s->name[i], (long long)s->val[i]);
}

void kernel_tree_text(const struct ntree *t, const struct nrun *r, FILE *out)
{
	for (int c = 0; c < r->ncg; c++) {
		const struct ncg_result *x = &r->cg[c];
		const struct nknobs *k = &t->cg[c].knobs;
		fprintf(out, "# cgroup %s\n", x->path);
		for (int i = 0; i < k->n; i++)
			fprintf(out, "# set %s %s\n", nknob_file(k->idx[i]), x->knob[i]);
		fprintf(out, "memory.current %llu\nmemory.peak %llu\n", (unsigned long long)x->current,
			(unsigned long long)x->peak);
		stat_lines("memory.events.", &x->events, out);
		if (x->psi_some_us >= 0)
			fprintf(out, "memory.pressure.some_us %lld\nmemory.pressure.full_us %lld\n",
				(long long)x->psi_some_us, (long long)x->psi_full_us);
		stat_lines("memory.stat.", &x->memstat, out);
	}
}
