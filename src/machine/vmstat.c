/* vmstat.c - the machine's vmstat(8) samples: one line's figures taken
 * every --vmstat interval (rates over the interval, like vmstat's), kept
 * in memory and, past VMSTAT_IN_MEMORY samples on a long run, spilled to a
 * temporary file; and reading them back in time order. */
#include "machine.h"
#include "../mm/cgtree.h"
#include "../mm/filemap.h"
#include "../lib/util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static uint64_t per_sec(uint64_t delta, uint64_t dt_ns)
{
	return dt_ns ? (uint64_t)((double)delta * 1e9 / (double)dt_ns + 0.5) : 0;
}

/* The sample of now, its rates against b, which becomes now's counters. */
static void take_sample(struct machine *m, struct vmstat_base *b, struct vmstat_sample *out)
{
	struct vmstat_sample s = { .t = m->now };
	uint64_t dt = m->now - b->t;
	for (int i = 0; i < m->nr_tasks; i++) {
		struct task *t = &m->tasks[i];
		if (t->state == T_RUNNABLE || t->state == T_RUNNING)
			s.r++;
		else if (t->state == T_BLOCKED && wait_is_io(t->wait))
			s.b++;
	}
	uint64_t kb = PAGE_SIZE / 1024;
	s.swpd = (uint64_t)m->mm.swap.used * kb;
	s.free = m->mm.stat.nr_free * kb;
	/* buff: the block device's page cache (2.6's "Buffers"); cache: the
	 * other file pages plus the swap cache. */
	struct inode *bdev = filemap_lookup_blkdev(&m->mm);
	uint64_t buffers = bdev ? bdev->nrpages : 0;
	s.buff = buffers * kb;
	s.cache = (m->mm.stat.nr_file - buffers + m->mm.swap.nr_cached) * kb;
	struct lru_sizes lz;
	mm_lru_sizes(&m->mm, &lz);
	s.inact = (lz.inactive_anon + lz.inactive_file) * kb;
	s.active = (lz.active_anon + lz.active_file) * kb;
	uint64_t *ev = m->mm.ev;
	s.si = per_sec((ev[PSWPIN] - b->ev[PSWPIN]) * kb, dt);
	s.so = per_sec((ev[PSWPOUT] - b->ev[PSWPOUT]) * kb, dt);
	s.bi = per_sec(ev[PGPGIN] - b->ev[PGPGIN], dt);
	s.bo = per_sec(ev[PGPGOUT] - b->ev[PGPGOUT], dt);
	/* every reclaim pass, memcg limit reclaim included */
	s.scan = per_sec(ev[PGSCAN_ANON] + ev[PGSCAN_FILE] - b->ev[PGSCAN_ANON] - b->ev[PGSCAN_FILE], dt);
	uint64_t ticks = dt * m->prof.hz / 1000000000ULL;
	s.in = per_sec(m->nr_intr - b->intr, dt) + (dt ? ticks * 1000000000ULL / dt : 0);
	s.cs = per_sec(m->nr_ctxsw - b->cs, dt);
	double total = (double)dt * (double)m->prof.cpus;
	if (total > 0) {
		double us = (double)(m->user_ns - b->user) / total * 100;
		double sy = (double)(m->sys_ns - b->sys) / total * 100;
		double wa = (double)(m->iowait_ns - b->iowait) / total * 100;
		if (us > 100) us = 100;
		if (sy > 100 - us) sy = 100 - us;
		if (wa > 100 - us - sy) wa = 100 - us - sy;
		s.us = (unsigned)(us + 0.5);
		s.sy = (unsigned)(sy + 0.5);
		s.wa = (unsigned)(wa + 0.5);
		int id = 100 - (int)s.us - (int)s.sy - (int)s.wa;
		s.id = id < 0 ? 0 : (unsigned)id;
	}
	_Static_assert(sizeof(s.cg_kb) / sizeof(s.cg_kb[0]) == CG_MAX + 1, "cg_kb: a cgroup each");
	for (int c = 0; m->mm.cgt && c < m->mm.cgt->n; c++)
		s.cg_kb[c] = (uint32_t)(m->mm.cgt->cg[c].current * kb);
	memcpy(b->ev, m->mm.ev, sizeof(b->ev));
	b->user = m->user_ns;
	b->sys = m->sys_ns;
	b->idle = m->idle_ns;
	b->iowait = m->iowait_ns;
	b->cs = m->nr_ctxsw;
	b->intr = m->nr_intr;
	b->t = m->now;
	*out = s;
}

void machine_vmstat_sample(struct machine *m)
{
	struct vmstat_sample s;
	take_sample(m, &m->vm_base, &s);
	uint64_t held = m->nr_samples - m->nr_spilled;
	if (m->opt.spill_samples && held == VMSTAT_IN_MEMORY) {
		if (!m->sample_spill && !(m->sample_spill = tmpfile()))
			die_usage("cannot keep vmstat samples in a temporary file: %s", strerror(errno));
		if (fwrite(m->samples, sizeof(*m->samples), held, m->sample_spill) != held)
			die_usage("cannot keep vmstat samples in a temporary file: %s", strerror(errno));
		m->nr_spilled += held;
		held = 0;
	}
	if (held == m->samples_cap) {
		m->samples_cap = m->samples_cap ? m->samples_cap * 2 : 64;
		m->samples = xrealloc(m->samples, m->samples_cap * sizeof(*m->samples));
	}
	m->samples[held] = s;
	m->nr_samples++;
	if (m->opt.sample_hook)
		m->opt.sample_hook(m, m->opt.sample_arg);
}

/* run --html's timelines, apart from --vmstat's lines: at most
 * TIMELINE_KEEP samples whatever the run's length.  When they are full,
 * every other one goes and the interval doubles, so those kept stay evenly
 * spaced (each with its rates over its own interval). */
uint64_t machine_timeline_sample(struct machine *m)
{
	if (!m->timeline)
		m->timeline = xcalloc(TIMELINE_KEEP, sizeof(*m->timeline));
	take_sample(m, &m->tl_base, &m->timeline[m->nr_timeline++]);
	/* Full: keep the 2nd, 4th, ... (this one last), then go on at twice
	 * the interval from here. */
	if (m->nr_timeline == TIMELINE_KEEP) {
		for (uint64_t i = 0; i < TIMELINE_KEEP / 2; i++)
			m->timeline[i] = m->timeline[2 * i + 1];
		m->nr_timeline = TIMELINE_KEEP / 2;
		m->timeline_ns *= 2;
	}
	return m->timeline_ns;
}

void machine_timeline_rewind(const struct machine *m, struct sample_iter *it, uint64_t *n, uint64_t *interval_ns)
{
	machine_samples_rewind(m, it);
	it->timeline = m->nr_timeline > 0;
	*n = it->timeline ? m->nr_timeline : m->nr_samples;
	*interval_ns = it->timeline ? m->timeline_ns : m->opt.vmstat_ns;
}

void sample_spill_rewind(FILE *spill)
{
	if (spill && (fflush(spill) != 0 || fseek(spill, 0, SEEK_SET) != 0))
		die_usage("cannot read back vmstat samples: %s", strerror(errno));
}

void machine_samples_rewind(const struct machine *m, struct sample_iter *it)
{
	it->m = m;
	it->i = 0;
	it->timeline = false;
	sample_spill_rewind(m->sample_spill);
}

bool sample_series_next(const struct sample_series *ss, uint64_t *i, struct vmstat_sample *s)
{
	if (*i >= ss->nr)
		return false;
	if (*i < ss->nr_spilled) {
		if (fread(s, sizeof(*s), 1, ss->spill) != 1)
			die_usage("cannot read back vmstat samples: %s", ferror(ss->spill) ? strerror(errno) : "short file");
	} else {
		*s = ss->mem[*i - ss->nr_spilled];
	}
	++*i;
	return true;
}

bool machine_sample_next(struct sample_iter *it, struct vmstat_sample *s)
{
	const struct machine *m = it->m;
	struct sample_series ss = { .mem = m->timeline, .nr = m->nr_timeline };
	if (!it->timeline)
		ss = (struct sample_series){ .mem = m->samples, .nr = m->nr_samples, .nr_spilled = m->nr_spilled,
					     .spill = m->sample_spill };
	return sample_series_next(&ss, &it->i, s);
}
