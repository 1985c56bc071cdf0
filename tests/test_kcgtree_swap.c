/* test_kcgtree_swap.c - the kernel executor's reading of swap.high and
 * memory_recursiveprot (src/engine/kexec_tree.c), without a host:
 * swap.high is v2's memory.swap.high and refused on v1 with one line;
 * memory_recursiveprot, a mount option pagelab does not set, is refused
 * on v1 (and on v2 unless the host's cgroup2 mount has it). */
#include "test.h"
#include "../src/engine/kexec.h"
#include "../src/engine/cgspec.h"

#include <string.h>

void test_kcgtree_swap_high_and_recursiveprot(void);

void test_kcgtree_swap_high_and_recursiveprot(void)
{
	const char *specs[] = { "/a:swap.high=8M" };
	struct cg_tree_conf conf;
	struct ntree nt;
	char err[512] = "";

	CHECK(kexec_tree_build(specs, 1, 2, 128ULL << 20, &conf, &nt, err, sizeof(err)));
	CHECK_EQ(nt.cg[0].knobs.n, 1);
	CHECK(nt.cg[0].knobs.n == 1 && !strcmp(nknob_file(nt.cg[0].knobs.idx[0]), "memory.swap.high") &&
	      !strcmp(nt.cg[0].knobs.val[0], "8388608"));
	CHECK_EQ(conf.cg[0].swap_high, 2048);
	CHECK(!kexec_tree_build(specs, 1, 1, 128ULL << 20, &conf, &nt, err, sizeof(err)));
	CHECK(strstr(err, "memory.swap.high") != NULL && !strchr(err, '\n'));

	struct cg_tree_conf rp = { 0 };
	CHECK(cgspec_add(&rp, "/a", err, sizeof(err)));
	rp.recursiveprot = true;
	err[0] = 0;
	CHECK(!kexec_tree_from_conf(&rp, 1, 128ULL << 20, &nt, err, sizeof(err)));
	CHECK(!strcmp(err, "memory_recursiveprot=1: this host's cgroup2 mount does not have the option "
		      "(pagelab does not remount it)"));
}
