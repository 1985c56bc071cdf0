/* test_knobs.c - pagelab kernel's --set NAME=VALUE (src/native/knobs.c),
 * without a host: the values each knob takes, as its cgroup file takes
 * them; unknown names, bad values and a name given twice refused; and
 * each knob against either cgroup version and the --memcg limit (v2 has
 * no per-cgroup swappiness; memory + swap is at least memory). */
#include "test.h"
#include "../src/native/native.h"

#include <string.h>

void test_knobs_parse(void);
void test_knobs_check_versions(void);

/* One --set into a fresh list: its value, or "" when refused (err). */
static const char *parsed(const char *assign, struct nknobs *k, char *err, size_t len)
{
	memset(k, 0, sizeof(*k));
	err[0] = 0;
	return nknob_parse(k, assign, err, len) && k->n == 1 ? k->val[0] : "";
}

void test_knobs_parse(void)
{
	struct nknobs k;
	char err[600];
	CHECK(!strcmp(parsed("swappiness=0", &k, err, sizeof(err)), "0"));
	CHECK(!strcmp(nknob_file(k.idx[0]), "memory.swappiness"));
	CHECK(!strcmp(parsed("swappiness=200", &k, err, sizeof(err)), "200"));
	CHECK(!strcmp(parsed("memory.high=300M", &k, err, sizeof(err)), "314572800"));
	CHECK(!strcmp(parsed("memory.swap.max=max", &k, err, sizeof(err)), "max"));
	CHECK(!strcmp(parsed("memory.zswap.writeback=0", &k, err, sizeof(err)), "0"));
	CHECK(!strcmp(parsed("memory.soft_limit_in_bytes=1G", &k, err, sizeof(err)), "1073741824"));
	/* Refused, each with its one line. */
	CHECK(!strcmp(parsed("swappiness=201", &k, err, sizeof(err)), ""));
	CHECK(!strcmp(err, "kernel: bad --set swappiness=201: want swappiness=VALUE, VALUE 0..200"));
	CHECK(!strcmp(parsed("memory.soft_limit_in_bytes=max", &k, err, sizeof(err)), ""));
	CHECK(!strcmp(parsed("memory.zswap.writeback=yes", &k, err, sizeof(err)), ""));
	CHECK(!strcmp(parsed("memory.high", &k, err, sizeof(err)), ""));
	CHECK(!strcmp(parsed("memory.max=1G", &k, err, sizeof(err)), ""));
	CHECK(!strncmp(err, "kernel: --set memory.max: not a cgroup knob pagelab kernel sets (swappiness, ", 77));
	CHECK(!strcmp(parsed("vm.swappiness=10", &k, err, sizeof(err)), ""));
	memset(&k, 0, sizeof(k));
	CHECK(nknob_parse(&k, "swappiness=10", err, sizeof(err)));
	CHECK(!nknob_parse(&k, "swappiness=20", err, sizeof(err)));
	CHECK(!strcmp(err, "kernel: --set swappiness given twice"));
	CHECK_EQ(k.n, 1);
}

/* A list of the given --set arguments checked against version and limit:
 * "" if accepted, else the reason. */
static const char *checked(const char *a, const char *b, int version, uint64_t limit, char *err, size_t len)
{
	struct nknobs k;
	memset(&k, 0, sizeof(k));
	err[0] = 0;
	if (!nknob_parse(&k, a, err, len) || (b && !nknob_parse(&k, b, err, len)))
		return err;
	return nknob_check(&k, version, limit, err, len) ? "" : err;
}

void test_knobs_check_versions(void)
{
	char err[600];
	uint64_t lim = 64ULL << 20;
	CHECK(!strcmp(checked("memory.high=32M", "memory.min=16M", 2, lim, err, sizeof(err)), ""));
	CHECK(!strcmp(checked("swappiness=10", NULL, 2, lim, err, sizeof(err)),
		      "kernel: --set swappiness: cgroup v2 has no per-cgroup swappiness (the host's "
		      "vm.swappiness applies); this host's memory cgroup is v2 (memory.high, memory.low, "
		      "memory.min, memory.swap.max, memory.swap.high, memory.zswap.max, memory.zswap.writeback)"));
	CHECK(!strcmp(checked("memory.high=32M", NULL, 1, lim, err, sizeof(err)),
		      "kernel: --set memory.high: a cgroup v2 file; this host's memory cgroup is v1 (swappiness, "
		      "memory.soft_limit_in_bytes, memory.memsw.limit_in_bytes)"));
	CHECK(!strcmp(checked("memory.min=65M", NULL, 2, lim, err, sizeof(err)),
		      "kernel: --set memory.min=68157440: above the --memcg limit (67108864 bytes)"));
	CHECK(!strcmp(checked("memory.low=max", NULL, 2, lim, err, sizeof(err)), ""));
	CHECK(!strcmp(checked("memory.memsw.limit_in_bytes=63M", NULL, 1, lim, err, sizeof(err)),
		      "kernel: --set memory.memsw.limit_in_bytes=66060288: below the --memcg limit (67108864 "
		      "bytes): memory + swap cannot be less than memory"));
	CHECK(!strcmp(checked("swappiness=10", NULL, 0, lim, err, sizeof(err)),
		      "kernel: --set swappiness: this host has no memory cgroup controller"));
}
