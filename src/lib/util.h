/* util.h - small helpers shared by every layer: checked allocation, the
 * error convention (one line on stderr, exit status 2), size parsing and a
 * deterministic random number generator. */
#ifndef PAGELAB_UTIL_H
#define PAGELAB_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define PAGE_SIZE 4096ULL
#define PAGE_SHIFT 12

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Exit status for bad input (usage errors), as the issue asks. */
#define EXIT_USAGE 2

/* Print "pagelab: <msg>" on stderr and exit with status 2. */
_Noreturn void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* For what runs pagelab in-process and must get control back instead of
 * exit(2) (libpagelab, the fuzz targets): while a handler is set (on this
 * thread), die_usage() calls it with the message instead of printing it;
 * the handler must not return (it longjmps out).  NULL: the default. */
void die_usage_set_handler(void (*handler)(const char *msg));
/* die_usage() with another exit status (1: a policy plugin broke the
 * rules of include/pagelab_policy.h); the same handler applies. */
_Noreturn void die_status(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Internal error (a bug): print and abort. */
_Noreturn void panic(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
/* xcalloc() of a large table read at random: 2 MiB aligned, in huge pages where the host has them (a host-speed hint). */
void *xcalloc_huge(size_t n, size_t size);
/* The same, not cleared: for a pool whose every entry is assigned before
 * it is read (ghost.c), where clearing it wrote every page of it up front
 * (the host kernel's page clearing and the memset were 6% of a CLOCK-Pro
 * replay). */
void *xmalloc_huge(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* argv[0..argc) joined by single blanks, in a new string (a command line). */
char *join_words(int argc, char *const *argv);

/* Parse a size: "512M", "1g", "4096" (bytes), "300p" (pages).  Suffixes
 * K/M/G/T are powers of 1024, case-insensitive, an optional trailing "B"
 * ("MB", "KiB" not accepted).  Returns false on malformed input or overflow;
 * *bytes is set on success. */
bool parse_size(const char *s, uint64_t *bytes);
/* Parse a non-negative integer (decimal) with overflow checking. */
bool parse_u64(const char *s, uint64_t *v);
/* Parse a decimal number (e.g. "0.5"); finite only. */
bool parse_double(const char *s, double *v);
/* Parse a duration: "10ms", "5s", "100us", "250ns" or plain seconds. */
bool parse_duration_ns(const char *s, uint64_t *ns);
/* The same in picoseconds, also taking a "ps" suffix ("0.56ns", "560ps"). */
bool parse_duration_ps(const char *s, uint64_t *ps);

/* Host physical memory in bytes (0 if unknown). */
uint64_t host_memory_bytes(void);

/* xoshiro256** seeded by splitmix64: deterministic across platforms. */
struct rng { uint64_t s[4]; };
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint64_t rng_below(struct rng *r, uint64_t n);

/* Integer square root (floor). */
uint64_t isqrt64(uint64_t x);

#endif
