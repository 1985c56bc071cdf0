/* test_zram_host.c - the spec of pagelab kernel's --swap
 * zram:SIZE[,algo=NAME] (src/native/zram.c's native_zram_parse()),
 * without a host: a plain size is not a zram spec; the size and the
 * algorithm taken as written; a bad size, a missing or bad algo= refused
 * with one line naming the spec. */
#include "test.h"
#include "../src/native/native.h"

#include <string.h>

void test_zram_host_parse(void);
void test_zram_host_refused(void);

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
