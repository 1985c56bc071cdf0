/* memstat.c - `--memcg`: the cgroup's own files, as cgroup v2 prints them
 * (memory.stat in bytes and event counts, memory.current, memory.peak,
 * memory.max, memory.events, memory.swap.current), each line named
 * FILE.KEY (memory.stat.anon, memory.events.oom_kill) so that one
 * "name value" parser reads them beside /proc/vmstat's names.  Every page of the
 * simulation is the cgroup's (src/mm/memcg.c), so most entries are the
 * node's figures; pgrefill is the exception: /proc/vmstat leaves limit
 * reclaim out of it, the cgroup's memory.stat does not. */
#include "report.h"
#include "../lib/util.h"

size_t report_memcg_stats(const struct machine *m, struct memstat *st)
{
	const struct mm *mm = &m->mm;
	const uint64_t *ev = mm->ev;
	struct lru_sizes lz;
	mm_lru_sizes(mm, &lz);
	uint64_t swapcached = 0;
	for (pfn_t pfn = 0; pfn < mm->fr.nr; pfn++)
		swapcached += !!(mm->fr.pages[pfn].flags & PG_swapcache);
	const uint64_t pg = PAGE_SIZE;
	size_t n = 0;
#define S(nm, v) st[n++] = (struct memstat){ nm, v }
	S("memory.max", mm->memcg.limit * pg);
	S("memory.current", mm->memcg.charged * pg);
	S("memory.peak", mm->memcg.peak * pg);
	S("memory.swap.current", (uint64_t)mm->swap.used * pg);
	S("memory.events.max", mm->memcg.failcnt);
	S("memory.events.oom", mm->memcg.oom);
	S("memory.events.oom_kill", mm->memcg.oom_kill);
	S("memory.stat.anon", mm->stat.nr_anon_mapped * pg);
	S("memory.stat.file", mm->stat.nr_file * pg);
	S("memory.stat.file_mapped", mm->stat.nr_file_mapped * pg);
	S("memory.stat.file_dirty", mm->stat.nr_dirty * pg);
	S("memory.stat.file_writeback", mm->stat.nr_writeback * pg);
	S("memory.stat.swapcached", swapcached * pg);
	S("memory.stat.inactive_anon", lz.inactive_anon * pg);
	S("memory.stat.active_anon", lz.active_anon * pg);
	S("memory.stat.inactive_file", lz.inactive_file * pg);
	S("memory.stat.active_file", lz.active_file * pg);
	S("memory.stat.unevictable", mm->stat.nr_mlock * pg);
	S("memory.stat.pgscan", ev[PGSCAN_ANON] + ev[PGSCAN_FILE]);
	S("memory.stat.pgsteal", ev[PGSTEAL_ANON] + ev[PGSTEAL_FILE]);
	S("memory.stat.pgrefill", ev[PGREFILL] + mm->memcg.pgrefill);
	S("memory.stat.pgactivate", ev[PGACTIVATE]);
	S("memory.stat.pgdeactivate", ev[PGDEACTIVATE]);
	S("memory.stat.pgfault", ev[PGFAULT]);
	S("memory.stat.pgmajfault", ev[PGMAJFAULT]);
	S("memory.stat.workingset_refault_anon", ev[WORKINGSET_REFAULT_ANON]);
	S("memory.stat.workingset_refault_file", ev[WORKINGSET_REFAULT_FILE]);
	S("memory.stat.workingset_activate_anon", ev[WORKINGSET_ACTIVATE_ANON]);
	S("memory.stat.workingset_activate_file", ev[WORKINGSET_ACTIVATE_FILE]);
	S("memory.stat.workingset_restore_anon", ev[WORKINGSET_RESTORE_ANON]);
	S("memory.stat.workingset_restore_file", ev[WORKINGSET_RESTORE_FILE]);
#undef S
	return n;
}

void report_memstat_text(const char *title, const struct memstat *st, int n, FILE *out)
{
	fprintf(out, "# %s\n", title);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s %llu\n", st[i].name, (unsigned long long)st[i].value);
}

void report_memstat_json(const char *open, const struct memstat *st, int n, FILE *out)
{
	fputs(open, out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s\"%s\": %llu", i ? ", " : "", st[i].name, (unsigned long long)st[i].value);
	fputc('}', out);
}

void report_memcg_stat(const struct run_result *rr, FILE *out)
{
	report_memstat_text("memory.stat (--memcg: the workloads' cgroup)", rr->memcg, rr->nr_memcg, out);
}

void report_memcg_json(const struct run_result *rr, FILE *out)
{
	report_memstat_json(",\n  \"memcg\": {", rr->memcg, rr->nr_memcg, out);
}
