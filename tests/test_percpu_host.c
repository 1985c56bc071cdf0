/* test_percpu_host.c - compare's simulated host has a run queue per CPU
 * when its kernel has (src/engine/kcompare_rechost.c: sched_percpu=1 from
 * 2.6 on, more than one CPU), and what pagelab kernel reports of the
 * host's scheduler per task (src/native/schedinfo.c): the migrations
 * read from /proc/PID/sched, the CPU and run-queue wait of the caller. */
#define _GNU_SOURCE
#include "test.h"
#include "../src/engine/kcompare_rechost.h"
#include "../src/native/native.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *percpu_of(const char *release, long cpus)
{
	static struct hvals o;
	struct nhost_settings h = { .cpus = cpus, .swap_rotational = -1, .read_ahead_kb = -1,
				    .dirty = { -1, -1, -1, -1, -1, -1 } };
	snprintf(h.release, sizeof(h.release), "%s", release);
	hvals_of(&h, 1, &o);
	return o.v[HS_PERCPU];
}

void test_percpu_host_values(void)
{
	CHECK(!strcmp(percpu_of("6.18.44-fc-v1272", 2), "1"));
	CHECK(!strcmp(percpu_of("2.6.0", 4), "1"));
	CHECK(!strcmp(percpu_of("6.18.44", 1), "0"));   /* one CPU: one queue */
	CHECK(!strcmp(percpu_of("2.4.37", 2), "0"));    /* 2.4's one runqueue */
	CHECK(!strcmp(percpu_of("", 2), ""));           /* unknown: this host's */
	CHECK(!strcmp(percpu_of("6.1.0", -1), "1"));    /* CPUs unknown */
	char buf[64];
	CHECK(!strcmp(hs_name(HS_PERCPU, buf, sizeof(buf)), "sched_percpu"));
	CHECK(!strcmp(hs_default(HS_PERCPU, buf, sizeof(buf)), "0"));
}

static uint64_t migrations_of(const char *text)
{
	char copy[512];
	snprintf(copy, sizeof(copy), "%s", text);
	FILE *f = fmemopen(copy, strlen(copy), "r");
	CHECK(f != NULL);
	if (!f)
		return ~0ULL;
	uint64_t n = nsched_migrations(f);
	fclose(f);
	return n;
}

void test_percpu_host_migrations(void)
{
	/* 6.18's proc_sched_show_task() layout: name, then the fields. */
	CHECK_EQ(migrations_of("usemem (123, #threads: 1)\n---\n"
			       "se.exec_start                                :      78489638.500167\n"
			       "se.nr_migrations                             :                   17\n"
			       "nr_switches                                  :                  400\n"), 17);
	CHECK_EQ(migrations_of("se.nr_migrations_cold : 9\nse.nr_migrations : 3\n"), 3);
	CHECK_EQ(migrations_of("nr_switches : 5\n"), 0);
	CHECK_EQ(migrations_of("se.nr_migrations : x\n"), 0);
}

void test_percpu_host_self(void)
{
	struct ntask_result r;
	memset(&r, 0, sizeof(r));
	r.cpu = -2;
	nsched_read(&r);
	long n = sysconf(_SC_NPROCESSORS_CONF);
	CHECK(r.cpu >= 0 && r.cpu < (n > 0 ? n : 1));
}
