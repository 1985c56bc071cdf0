/* test_cache_api.c - libpagelab's pagelab_cache_replay (src/api/pagelab.c):
 * a hand-checked trace by policy name, errors as one line and -1. */
#include "test.h"
#include "../include/pagelab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* 1 2 3 1 4 1 in 2 LRU frames: 1 2 3 miss (3 evicts 1), 1 misses (evicts
 * 2), 4 misses (evicts 3), 1 hits: 5 misses, 1 of an evicted page, 3
 * evictions.  FIFO the same: the last 1 hits, its second copy having
 * come in after 3 (FIFO holds 1 and 4 then). */
void test_cache_api_replay_by_hand(void)
{
	char path[] = "/tmp/pagelab-test-cache-api-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	fputs("1 r\n2 r\n3 r\n1 r\n4 r\n1 r\n", f);
	fclose(f);
	struct pagelab_cache_result r;
	char err[200] = "";
	CHECK_EQ(pagelab_cache_replay(path, 2, "lru", NULL, &r, err, sizeof(err)), 0);
	CHECK_EQ(r.refs, 6);
	CHECK_EQ(r.misses, 5);
	CHECK_EQ(r.major, 1);
	CHECK_EQ(r.evictions, 3);
	CHECK_EQ(r.pages, 4);
	CHECK_EQ(pagelab_cache_replay(path, 2, "fifo", NULL, &r, err, sizeof(err)), 0);
	CHECK_EQ(r.misses, 5);
	CHECK_EQ(pagelab_cache_replay(path, 2, "mglru", NULL, &r, err, sizeof(err)), -1);
	CHECK(strstr(err, "not a cache policy") != NULL);
	CHECK_EQ(pagelab_cache_replay(path, 0, "lru", NULL, &r, err, sizeof(err)), -1);
	CHECK_EQ(pagelab_cache_replay("/nonexistent/t", 2, "lru", NULL, &r, err, sizeof(err)), -1);
	CHECK(strstr(err, "/nonexistent/t") != NULL);
	CHECK_EQ(pagelab_cache_replay(path, 2, NULL, NULL, &r, err, sizeof(err)), -1);
	unlink(path);
}
