/* test_rechost.c - what a kernel run ran on, kept in its record as
 * "kernel": {"host": ...} (src/engine/record.c put_host(): an unknown
 * figure left out) and taken back as the simulator's settings
 * (src/engine/kcompare_rechost.c hvals_of(): EEVDF from 6.6, readahead
 * read_ahead_kb / 4 pages up to 65536, else the default 32). */
#include "test.h"
#include "../src/engine/json.h"
#include "../src/engine/kcompare_rechost.h"
#include "../src/engine/kexec.h"
#include "../src/engine/record.h"
#include "../src/lib/util.h"

#include <stdlib.h>
#include <string.h>

void test_rechost_record(void);
void test_rechost_values(void);

void test_rechost_record(void)
{
	struct run_result rr = { .available = true, .finished = true, .nr_wl = 1 };
	rr.wl[0].cmd = xstrdup("usemem -m 40");
	struct kernel_result *k = kernel_result_attach(&rr);
	k->has_host = true;
	k->host = (struct nhost_settings){ .cpus = 4, .release = "6.1.0", .swap_rotational = 0,
					   .read_ahead_kb = -1, .dirty = { 30, 10, 0, 0, 500, -1 } };
	struct record_meta m = { .cmd = "pagelab kernel x # run 1, executor 3", .design = "kernel", .config = "x",
				 .seed = 1, .kernel = true };
	char *line = record_format(&m, &rr), err[200];
	line[strcspn(line, "\n")] = 0;
	struct record r;
	CHECK(record_parse(line, &r, err, sizeof(err)));
	const struct json *h = json_get(json_get(r.j, "kernel"), "host");
	double v;
	CHECK(h && json_get_num(h, "cpus", &v) && v == 4);
	CHECK(h && !strcmp(json_get_str(h, "release"), "6.1.0"));
	CHECK(json_get_num(h, "swap_rotational", &v) && v == 0);
	CHECK(json_get_num(h, "dirty_ratio", &v) && v == 30);
	CHECK(json_get_num(h, "dirty_writeback_centisecs", &v) && v == 500);
	CHECK(!json_get_num(h, "read_ahead_kb", &v) && !json_get_num(h, "dirty_expire_centisecs", &v));
	record_free(&r);
	free(line);
	run_result_free(&rr);
}

void test_rechost_values(void)
{
	struct nhost_settings h = { .cpus = -1, .release = "6.6.0", .swap_rotational = 1, .read_ahead_kb = 8192,
				    .dirty = { -1, -1, -1, -1, -1, 3000 } };
	struct hvals o;
	hvals_of(&h, 1, &o);
	CHECK(!o.v[HS_CPUS][0] && !strcmp(o.v[HS_V1], "1") && !strcmp(o.v[HS_EEVDF], "1"));
	CHECK(!strcmp(o.v[HS_ROT], "1") && !strcmp(o.v[HS_RA], "2048"));
	CHECK(!o.v[HS_DIRTY][0] && !strcmp(o.v[HS_DIRTY + 5], "3000"));
	snprintf(h.release, sizeof(h.release), "6.5.9");
	h.read_ahead_kb = 4 * 65537;
	hvals_of(&h, 0, &o);
	CHECK(!strcmp(o.v[HS_EEVDF], "0") && !strcmp(o.v[HS_RA], "32") && !o.v[HS_V1][0]);
	hvals_of(&h, 2, &o);
	CHECK(!strcmp(o.v[HS_V1], "0"));
	char buf[64];
	CHECK(!strcmp(hs_name(HS_DIRTY + 1, buf, sizeof(buf)), "vm.dirty_background_ratio"));
	CHECK(!strcmp(hs_default(HS_DIRTY + 4, buf, sizeof(buf)), "500") && !strcmp(hs_default(HS_RA, buf, 8), "32"));
}
