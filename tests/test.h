/* test.h - a minimal test harness: TEST(name) functions registered in
 * tests/main.c, CHECK()/CHECK_EQ() that report file:line and keep going. */
#ifndef PAGELAB_TEST_H
#define PAGELAB_TEST_H

#include <stdio.h>
#include <stdint.h>

extern int test_failures;

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
	test_failures++; } } while (0)

#define CHECK_EQ(a, b) do { unsigned long long _a = (unsigned long long)(a), _b = (unsigned long long)(b); \
	if (_a != _b) { fprintf(stderr, "%s:%d: %s == %llu, expected %s == %llu\n", \
		__FILE__, __LINE__, #a, _a, #b, _b); test_failures++; } } while (0)

#endif
