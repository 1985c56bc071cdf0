/* test_host.c - the kernel a run models: src/native/host.c (which
 * releases count as 6.6 or later, where pagelab compare runs the
 * simulator with EEVDF's order, and whether a block device is
 * rotational, and its read_ahead_kb) and the profiles' schedulers. */
#include "test.h"
#include "../src/native/native.h"
#include "../src/machine/profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void test_host_release_at_least(void);

void test_host_release_at_least(void)
{
	CHECK(nhost_release_at_least("6.18.0-1-amd64", 6, 6));
	CHECK(nhost_release_at_least("6.6.0", 6, 6));
	CHECK(nhost_release_at_least("6.6", 6, 6));
	CHECK(!nhost_release_at_least("6.5.13-rt", 6, 6));
	CHECK(!nhost_release_at_least("5.19.0", 6, 6));
	CHECK(nhost_release_at_least("7.0.0", 6, 6));
	CHECK(nhost_release_at_least("10.1", 6, 6));
	/* 6.10 is later than 6.6: the minor is a number, not a digit string. */
	CHECK(nhost_release_at_least("6.10.2", 6, 6));
	CHECK(!nhost_release_at_least("6.1.0", 6, 6));
	/* A major alone is .0; garbage is never late enough. */
	CHECK(!nhost_release_at_least("6", 6, 6));
	CHECK(nhost_release_at_least("7", 6, 6));
	CHECK(!nhost_release_at_least("", 6, 6));
	CHECK(!nhost_release_at_least("linux-6.18", 6, 6));
	CHECK(!nhost_release_at_least("6.x", 6, 6));
}

/* The machine profiles' schedulers: `modern` is a 6.x machine and runs
 * EEVDF's order; the era profiles keep the round robin of theirs. */
void test_profile_schedulers(void);

void test_profile_schedulers(void)
{
	int n = 0;
	for (int i = 0; profile_presets[i]; i++, n++)
		CHECK_EQ(profile_presets[i]->sched_eevdf, !strcmp(profile_presets[i]->name, "modern"));
	CHECK(n >= 7);
	CHECK(profile_find("modern") && profile_find("modern")->sched_eevdf == 1);
}

/* Whether a block device is rotational, read from a sysfs tree made here:
 * a rotational disk 8:0 with a partition 8:1 (no queue of its own: its
 * disk's counts, found through the directory above as in /sys), a
 * solid-state disk 254:0, and a device 9:9 sysfs does not know. */
void test_host_dev_rotational(void);

static void put_flag(const char *path, const char *v)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(v, f);
		fclose(f);
	}
}

void test_host_dev_rotational(void)
{
	char root[] = "/tmp/pagelab-test-sysfs.XXXXXX";
	CHECK(mkdtemp(root) != NULL);
	char p[256], q[256];
	const char *dirs[] = { "dev", "dev/block", "devices", "devices/sda", "devices/sda/queue",
			       "devices/sda/sda1", "devices/vda", "devices/vda/queue" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		CHECK_EQ(mkdir(p, 0700), 0);
	}
	snprintf(p, sizeof(p), "%s/devices/sda/queue/rotational", root);
	put_flag(p, "1\n");
	snprintf(p, sizeof(p), "%s/devices/vda/queue/rotational", root);
	put_flag(p, "0\n");
	snprintf(p, sizeof(p), "%s/devices/sda/queue/read_ahead_kb", root);
	put_flag(p, "128\n");
	snprintf(p, sizeof(p), "%s/devices/vda/queue/read_ahead_kb", root);
	put_flag(p, "8192\n");
	const char *links[][2] = { { "8:0", "../../devices/sda" }, { "8:1", "../../devices/sda/sda1" },
				   { "254:0", "../../devices/vda" } };
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/dev/block/%s", root, links[i][0]);
		CHECK_EQ(symlink(links[i][1], p), 0);
	}
	CHECK(nhost_dev_rotational(root, 8, 0));
	CHECK(nhost_dev_rotational(root, 8, 1));
	CHECK(!nhost_dev_rotational(root, 254, 0));
	CHECK(!nhost_dev_rotational(root, 9, 9));
	/* read_ahead_kb the same way: the partition's is its disk's. */
	CHECK_EQ(nhost_dev_read_ahead_kb(root, 8, 0), 128);
	CHECK_EQ(nhost_dev_read_ahead_kb(root, 8, 1), 128);
	CHECK_EQ(nhost_dev_read_ahead_kb(root, 254, 0), 8192);
	CHECK_EQ(nhost_dev_read_ahead_kb(root, 9, 9), -1);
	snprintf(q, sizeof(q), "rm -rf '%s'", root);
	CHECK_EQ(system(q), 0);
}

/* Free page reporting, read from a sysfs tree made here: no balloon, a
 * balloon without VIRTIO_BALLOON_F_REPORTING (bit 5), one with it (this
 * host's features string, 2026-12-04). */
void test_host_page_reporting(void);

void test_host_page_reporting(void)
{
	char root[] = "/tmp/pagelab-test-sysfs.XXXXXX";
	CHECK(mkdtemp(root) != NULL);
	char p[256], q[256];
	CHECK(!nhost_dev_page_reporting(root));
	const char *dirs[] = { "bus", "bus/virtio", "bus/virtio/drivers", "bus/virtio/drivers/virtio_balloon",
			       "bus/virtio/drivers/virtio_balloon/virtio3" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		CHECK_EQ(mkdir(p, 0700), 0);
	}
	snprintf(p, sizeof(p), "%s/bus/virtio/drivers/virtio_balloon/virtio3/features", root);
	put_flag(p, "01100001000000000000000000000000100000000000000000000000000000000\n");
	CHECK(!nhost_dev_page_reporting(root));
	put_flag(p, "01100101000000000000000000000000100000000000000000000000000000000\n");
	CHECK(nhost_dev_page_reporting(root));
	snprintf(q, sizeof(q), "rm -rf '%s'", root);
	CHECK_EQ(system(q), 0);
}
