/* embed.c - libpagelab from a program: the same usemem run under two
 * policies, and the counters and events each gives.
 *
 *	cc embed.c $(pkg-config --cflags --libs pagelab) -o embed
 *	./embed [MB]
 */
#include <pagelab.h>

#include <stdio.h>
#include <stdlib.h>

static int run(const char *policy, const char *mb)
{
	pagelab_sim *s = pagelab_new("vmm-2008");
	if (!s) {
		fprintf(stderr, "embed: %s\n", pagelab_error(NULL));
		return -1;
	}
	const char *w[] = { "usemem", "-m", mb };
	if (pagelab_set(s, "ram", "48M") || pagelab_set(s, "swap", "256M") ||
	    pagelab_set_policy(s, policy) || pagelab_add_workload(s, 3, w)) {
		fprintf(stderr, "embed: %s\n", pagelab_error(s));
		pagelab_free(s);
		return -1;
	}
	int rc = pagelab_run(s);
	if (rc < 0) {
		fprintf(stderr, "embed: %s\n", pagelab_error(s));
		pagelab_free(s);
		return -1;
	}
	uint64_t out = 0, in = 0, scan = 0;
	pagelab_counter(s, "pswpout", &out);
	pagelab_counter(s, "pswpin", &in);
	pagelab_counter(s, "pgscan_kswapd", &scan);
	struct pagelab_times t;
	pagelab_workload_times(s, 0, &t);
	printf("%-10s usemem -m %s: %.2f s elapsed, pswpout %llu, pswpin %llu, pgscan_kswapd %llu\n",
	       policy, mb, t.elapsed, (unsigned long long)out, (unsigned long long)in,
	       (unsigned long long)scan);
	double when;
	int kind;
	const char *text;
	for (int i = 0; pagelab_event(s, i, &when, &kind, &text) == 0; i++)
		printf("  %10.3f s  %s %s\n", when, kind == PAGELAB_EVENT_EXIT ? "exit:" : "kernel:", text);
	pagelab_free(s);
	return rc;
}

int main(int argc, char **argv)
{
	const char *mb = argc > 1 ? argv[1] : "100";
	printf("libpagelab %s (API %d)\n", pagelab_version_string(), pagelab_api_version());
	if (run("clock", mb) != 0 || run("splitlru", mb) != 0)
		return 1;
	/* Errors come back as values, never as exits. */
	pagelab_sim *s = pagelab_new("vmm-2008");
	if (pagelab_set_policy(s, "nosuch") == 0)
		return 1;
	printf("bad policy: %s\n", pagelab_error(s));
	pagelab_free(s);
	return 0;
}
