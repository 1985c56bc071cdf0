/* test_integrity.c - --check's content versions (src/mm/integrity.h): a
 * hand-counted replay, sound runs of every policy through swap-out,
 * swap-in, writeback and file reads, and deliberately broken data paths
 * (a swap-out or writeback that writes nothing, a swap-in from the wrong
 * slot) that must stop the run with a message naming the page. */
#include "test.h"
#include "../src/lib/util.h"
#include "../src/machine/machine.h"
#include "../src/mm/integrity.h"
#include "../src/policy/policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct irun {
	bool check_failed;
	uint64_t pswpin, pswpout, pgmajfault, pgpgin, pgpgout;
	uint32_t versions;      /* write page-references versioned */
	char msg[512];          /* the first "check:" line on stderr */
};

/* Run the workloads of `cmd` ("usemem -m 20 + fileio ...") on a 16 MB
 * vmm-2008 with 32 MB of swap (or `machine` with `ram` pages when given)
 * under `policy`, with --check (or not), the data path broken as asked. */
static void irun(const char *machine, uint64_t ram, const char *policy, bool check,
		 enum integrity_break broken, const char *cmd, struct irun *r)
{
	memset(r, 0, sizeof(*r));
	struct profile prof = *profile_find(machine);
	prof.ram = ram ? ram * PAGE_SIZE : 16ULL << 20;
	prof.swap = 32ULL << 20;
	struct machine_opts mo = { .seed = 1, .check = check, .max_time_ns = 200ULL * 1000000000ULL };
	struct machine m;
	char err[256];
	if (!machine_init(&m, &prof, &mo, err, sizeof(err)))
		panic("%s", err);
	CHECK(check == (m.mm.integrity != NULL));
	if (m.mm.integrity)
		m.mm.integrity->broken = broken;
	machine_set_policy(&m, policy_find(policy), NULL);
	char *words = xstrdup(cmd);
	char *argv[32];
	int argc = 0, nwl = 0;
	for (char *tok = strtok(words, " "); ; tok = strtok(NULL, " ")) {
		if (!tok || !strcmp(tok, "+")) {
			argv[argc] = NULL;
			const struct workload_ops *ops = workload_find(argv[0]);
			void *w = ops->create(argc, argv, 1 + (uint64_t)nwl, err, sizeof(err));
			if (!w)
				panic("%s: %s", cmd, err);
			machine_add_workload(&m, ops, w, argv[0]);
			nwl++;
			argc = 0;
			if (!tok)
				break;
			continue;
		}
		argv[argc++] = tok;
	}
	/* The run's stderr, to find --check's message. */
	FILE *log = tmpfile();
	fflush(stderr);
	int saved = dup(2);
	dup2(fileno(log), 2);
	machine_run(&m);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(log);
	char line[512];
	while (fgets(line, sizeof(line), log))
		if (!r->msg[0] && !strncmp(line, "check: ", 7))
			snprintf(r->msg, sizeof(r->msg), "%s", line);
	fclose(log);
	r->check_failed = m.check_failed;
	r->pswpin = m.mm.ev[PSWPIN];
	r->pswpout = m.mm.ev[PSWPOUT];
	r->pgmajfault = m.mm.ev[PGMAJFAULT];
	r->pgpgin = m.mm.ev[PGPGIN];
	r->pgpgout = m.mm.ev[PGPGOUT];
	r->versions = m.mm.integrity ? m.mm.integrity->clock : 0;
	machine_free(&m);
	free(words);
}

/* A replay worked out by hand on the ideal machine with 2 frames, fifo:
 *   1w  page 1 gets version 1
 *   2w  page 2 gets version 2
 *   3w  evicts page 1 (dirty: its slot gets version 1), page 3 gets 3
 *   1w  evicts page 2 (slot: 2); page 1 swapped in (version 1, the last
 *       written: sound), then written: version 4
 *   2r  evicts page 3 (slot: 3); page 2 swapped in: version 2, sound
 * Four write references, two swap-ins checked, three swap-outs. */
void test_integrity_counted(void);
void test_integrity_counted(void)
{
	char path[] = "/tmp/pagelab-integrity.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	const char text[] = "1 w\n2 w\n3 w\n1 w\n2 r\n";
	CHECK(write(fd, text, sizeof(text) - 1) == (ssize_t)(sizeof(text) - 1));
	close(fd);
	char cmd[64];
	snprintf(cmd, sizeof(cmd), "trace %s", path);
	struct irun r;
	irun("ideal", 2, "fifo", true, BREAK_NONE, cmd, &r);
	CHECK(!r.check_failed);
	CHECK_EQ(r.versions, 4);
	CHECK_EQ(r.pswpout, 3);
	CHECK_EQ(r.pswpin, 2);
	/* The same replay with swap-outs that write nothing: the swap-in
	 * of page 1 returns what the slot held before (nothing, version 0). */
	irun("ideal", 2, "fifo", true, BREAK_SWAP_WRITE, cmd, &r);
	CHECK(r.check_failed);
	CHECK(strstr(r.msg, "swap-in of anon page 0 of vma 0 of address space 0 from slot 0 "
		      "returned version 0; the last write was version 1") != NULL);
	unlink(path);
}

/* Every policy but opt (trace replay only) through anonymous swap-out and
 * swap-in, file writeback, re-reads and a raw-disk stream, in 12 MB: sound
 * data everywhere, and the same figures with --check as without. */
void test_integrity_every_policy(void);
void test_integrity_every_policy(void)
{
	const char *cmd = "usemem -m 14 -r 2 + fileio -c -w -r 2 /f 2M + dd if=/dev/sda bs=64K count=32";
	for (int i = 0; policy_registry[i]; i++) {
		const struct policy_ops *pol = policy_registry[i];
		if (pol->flags & POLICY_NEEDS_ORACLE)
			continue;
		struct irun r, plain;
		irun("vmm-2008", 3072, pol->name, true, BREAK_NONE, cmd, &r);
		if (r.check_failed)
			fprintf(stderr, "%s: %s", pol->name, r.msg);
		CHECK(!r.check_failed);
		CHECK(r.pswpin > 0 && r.pswpout > 0);
		CHECK(r.versions > 2 * 14 * 256); /* both sweeps of usemem, at least */
		irun("vmm-2008", 3072, pol->name, false, BREAK_NONE, cmd, &plain);
		CHECK_EQ(plain.pswpin, r.pswpin);
		CHECK_EQ(plain.pswpout, r.pswpout);
		CHECK_EQ(plain.pgmajfault, r.pgmajfault);
	}
}

/* Broken data paths fail --check with a message naming the page. */
void test_integrity_broken_paths(void);
void test_integrity_broken_paths(void)
{
	struct irun r;
	/* Swap-outs that write nothing: usemem's second sweep swaps in pages
	 * the first one wrote. */
	irun("vmm-2008", 0, "clock", true, BREAK_SWAP_WRITE, "usemem -m 20 -r 2", &r);
	CHECK(r.check_failed);
	CHECK(strstr(r.msg, "check: swap-in of anon page ") != NULL);
	CHECK(strstr(r.msg, "returned version 0; the last write was version ") != NULL);
	/* Swap-ins from the slot after the right one. */
	irun("vmm-2008", 0, "splitlru", true, BREAK_SWAP_READ, "usemem -m 20 -r 2", &r);
	CHECK(r.check_failed);
	CHECK(strstr(r.msg, "check: swap-in of anon page ") != NULL);
	/* File writeback that writes nothing: a 24 MB file written, then
	 * read back through 16 MB of RAM. */
	irun("vmm-2008", 0, "linux26", true, BREAK_FILE_WRITE, "fileio -c /f 24M", &r);
	CHECK(r.check_failed);
	CHECK(strstr(r.msg, "check: read of page ") != NULL);
	CHECK(strstr(r.msg, " of file /f returned version 0; the last write was version ") != NULL);
	/* The same runs, unbroken, pass. */
	irun("vmm-2008", 0, "linux26", true, BREAK_NONE, "fileio -c /f 24M", &r);
	CHECK(!r.check_failed);
	CHECK(r.pgpgin > 0 && r.pgpgout > 0);
}
