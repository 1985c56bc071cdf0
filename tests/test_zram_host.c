/* test_zram_host.c - the spec of pagelab kernel's --swap
 * zram:SIZE[,algo=NAME] (src/native/zram.c's native_zram_parse()),
 * without a host: a plain size is not a zram spec; the size and the
 * algorithm taken as written; a bad size, a missing or bad algo= refused
 * with one line naming the spec. */
#include "test.h"
#include "../src/engine/kcompare.h"
#include "../src/engine/kexec.h"
#include "../src/engine/record.h"
#include "../src/lib/util.h"
#include "../src/native/native.h"

#include <stdlib.h>
#include <string.h>

void test_zram_host_parse(void);
void test_zram_host_refused(void);
void test_zram_host_record(void);

void test_zram_host_parse(void)
{
	struct nzram_spec z;
	char err[300] = "";
	CHECK(native_zram_parse("512M", &z, err, sizeof(err)) == 0);
	CHECK(native_zram_parse("zram", &z, err, sizeof(err)) == 0);
	CHECK(native_zram_parse("zram:512M", &z, err, sizeof(err)) == 1);
	CHECK(z.size == 512ULL << 20 && !z.algo[0]);
	CHECK(native_zram_parse("zram:1G,algo=lz4", &z, err, sizeof(err)) == 1);
	CHECK(z.size == 1ULL << 30 && !strcmp(z.algo, "lz4"));
	CHECK(native_zram_parse("zram:1M,algo=lzo-rle", &z, err, sizeof(err)) == 1);
	CHECK(z.size == 1ULL << 20 && !strcmp(z.algo, "lzo-rle"));
	/* A plain size after a zram spec clears it. */
	CHECK(native_zram_parse("64M", &z, err, sizeof(err)) == 0 && !z.size && !z.algo[0]);
}

void test_zram_host_refused(void)
{
	static const char *const bad[] = { "zram:", "zram:1x", "zram:512k", "zram:0", "zram:64M,",
					   "zram:64M,algo=", "zram:64M,lvl=3", "zram:64M,algo=LZ4",
					   "zram:64M,algo=lz4,algo=lzo", "zram:2000000T",
					   "zram:64M,algo=a-name-of-more-than-31-characters" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct nzram_spec z;
		char err[300] = "", want[80];
		CHECK(native_zram_parse(bad[i], &z, err, sizeof(err)) == -1);
		snprintf(want, sizeof(want), "--swap %s: ", bad[i]);
		CHECK(!strncmp(err, want, strlen(want)) && !strchr(err, '\n'));
	}
}

/* A kernel run's device, written in its record as kernel.zram and read
 * back as compare's zram.* rows (a simulator's record: none, "-"). */
void test_zram_host_record(void)
{
	struct run_result rr = { .available = true, .finished = true, .nr_wl = 1 };
	rr.wl[0].cmd = xstrdup("usemem -m 40");
	struct kernel_result *k = kernel_result_attach(&rr);
	nstat_parse(&k->vmstat, "pswpout 2237\n");
	k->has_zram = true;
	snprintf(k->zram.algo, sizeof(k->zram.algo), "lz4");
	k->zram.disksize = 64ULL << 20;
	nstat_parse(&k->zram.stat, "mm_stat.orig_data_size 9162752\nmm_stat.compr_data_size 3000000\n"
		    "mm_stat.same_pages 3\n");
	struct record_meta m = { .cmd = "pagelab kernel x # run 1, executor 2", .design = "kernel", .config = "x",
				 .seed = 1, .kernel = true };
	char *line = record_format(&m, &rr), err[200];
	line[strcspn(line, "\n")] = 0;
	struct record r, s;
	CHECK(record_parse(line, &r, err, sizeof(err)));
	CHECK(record_parse("{\"cell\": 0, \"cmd\": \"pagelab run\", \"design\": \"p\", \"config\": \"\", "
			   "\"seed\": 1, \"counters\": {\"pswpout\": 2000}, "
			   "\"zram\": {\"io_stat.notify_free\": 2000}}", &s, err, sizeof(err)));
	const struct json *z = json_get(json_get(r.j, "kernel"), "zram");
	double v;
	CHECK(z && !strcmp(json_get_str(z, "algorithm"), "lz4"));
	CHECK(json_get_num(z, "disksize", &v) && v == 64 << 20);
	const struct record *kp[] = { &r }, *sp[] = { &s };
	const char *pol[] = { "p" };
	struct kcmp_setup st = { .repeat = 1, .seeds = 1, .tol = 25 };
	struct kcmp x;
	kcmp_build(&x, kp, sp, 1, pol, &st);
	const struct kcmp_row *o = NULL, *n = NULL;
	for (int i = 0; i < x.nrows; i++) {
		if (!strcmp(x.row[i].name, "zram.orig_data_size"))
			o = &x.row[i];
		if (!strcmp(x.row[i].name, "zram.notify_free"))
			n = &x.row[i];
	}
	CHECK(o && o->kfound && o->med == 9162752 && !o->sfound && o->verdict == KCMP_MISSING);
	/* notify_free: the kernel's record lacks it, the simulator's has it
	 * (keyed as pagelab run --json keys it). */
	CHECK(n && !n->kfound && n->sfound && n->sim == 2000 && n->verdict == KCMP_MISSING);
	kcmp_free(&x);
	record_free(&r);
	record_free(&s);
	free(line);
	run_result_free(&rr);
}
