/* test_host_dirty.c - the host's writeback sysctls as the simulator's
 * --set words (src/native/host.c nhost_dirty_settings()): only those that
 * differ from 6.x's defaults, in a fixed order, unreadable ones left out. */
#include "test.h"
#include "../src/native/native.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void test_host_dirty_settings(void);

static void put_value(const char *root, const char *name, const char *v)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/vm/%s", root, name);
	FILE *f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(v, f);
		fclose(f);
	}
}

void test_host_dirty_settings(void)
{
	char root[] = "/tmp/pagelab-test-procsys.XXXXXX", p[512];
	char out[NHOST_DIRTY_SETTINGS][64];
	CHECK(mkdtemp(root) != NULL);
	snprintf(p, sizeof(p), "%s/vm", root);
	CHECK_EQ(mkdir(p, 0700), 0);
	/* Nothing readable: nothing to say. */
	CHECK_EQ(nhost_dirty_settings(root, out), 0);
	/* The kernel's defaults: nothing either. */
	put_value(root, "dirty_ratio", "20\n");
	put_value(root, "dirty_background_ratio", "10\n");
	put_value(root, "dirty_bytes", "0\n");
	put_value(root, "dirty_writeback_centisecs", "500\n");
	CHECK_EQ(nhost_dirty_settings(root, out), 0);
	/* A host that set bytes limits and a shorter expiry. */
	put_value(root, "dirty_bytes", "268435456\n");
	put_value(root, "dirty_background_bytes", "67108864\n");
	put_value(root, "dirty_expire_centisecs", "1500\n");
	put_value(root, "dirty_ratio", "garbage\n");
	CHECK_EQ(nhost_dirty_settings(root, out), 3);
	CHECK(!strcmp(out[0], "vm.dirty_bytes=268435456"));
	CHECK(!strcmp(out[1], "vm.dirty_background_bytes=67108864"));
	CHECK(!strcmp(out[2], "vm.dirty_expire_centisecs=1500"));
	snprintf(p, sizeof(p), "rm -rf '%s'", root);
	CHECK_EQ(system(p), 0);
}
